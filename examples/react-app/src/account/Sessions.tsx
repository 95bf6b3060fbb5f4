// The devices where the user is signed in; any but this one can be signed out.
import type { ActiveSession } from "stackkit";
import { useActiveSessions, useRevokeSession } from "stackkit/react";
import { Badge, Button, ErrorNote, formatDate } from "../components/ui.js";

function where(session: ActiveSession): string {
  const geo = session.geoInfo;
  const place = [geo?.cityName, geo?.countryCode].filter(Boolean).join(", ");
  return [place, geo?.ip].filter(Boolean).join(" · ") || "unknown location";
}

export function Sessions() {
  const sessions = useActiveSessions();
  const revoke = useRevokeSession();
  return (
    <>
      <ul className="items">
        {sessions.map((session) => (
          <li key={session.id} className="item">
            <div className="item-main">
              <strong>{where(session)}</strong>
              <div className="badges">
                {session.isCurrentSession && <Badge kind="good">this device</Badge>}
                {session.isImpersonation && <Badge kind="warn">impersonation</Badge>}
              </div>
              <span className="muted small">
                Signed in {formatDate(session.createdAt)} · last used {formatDate(session.lastUsedAt)}
              </span>
            </div>
            <div className="item-actions">
              {!session.isCurrentSession && (
                <Button kind="danger" busy={revoke.isPending && revoke.variables === session.id} onClick={() => revoke.mutate(session.id)}>
                  Sign out
                </Button>
              )}
            </div>
          </li>
        ))}
      </ul>
      <ErrorNote error={revoke.error} />
    </>
  );
}
