// The devices where the user is signed in. Any but this one can be signed out,
// one at a time or all at once, after a question.
import type { ActiveSession, CurrentUser } from "stackkit";
import { useActiveSessions, useRevokeSession } from "stackkit/react";
import { ConfirmButton } from "../components/actions.js";
import { ErrorNote } from "../components/errors.js";
import { Badge, formatDate, Note } from "../components/ui.js";
import { useAction } from "../hooks.js";

function where(session: ActiveSession): string {
  const geo = session.geoInfo;
  const place = [geo?.cityName, geo?.countryCode].filter(Boolean).join(", ");
  return [place, geo?.ip].filter(Boolean).join(" · ") || "unknown location";
}

export function Sessions({ user }: { readonly user: CurrentUser }) {
  const sessions = useActiveSessions();
  const revoke = useRevokeSession();
  const others = sessions.filter((session) => !session.isCurrentSession);
  // There is no call for "all others": each is signed out in turn, and the list is read again at the end.
  const revokeOthers = useAction(
    async (ids: readonly string[]) => {
      for (const id of ids) await user.revokeSession(id);
    },
    ["listSessions"],
  );
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
                <ConfirmButton
                  question="Sign this device out?"
                  confirm="Sign it out"
                  busy={revoke.isPending && revoke.variables === session.id}
                  disabled={revokeOthers.isPending}
                  onConfirm={() => revoke.mutate(session.id)}
                >
                  Sign out
                </ConfirmButton>
              )}
            </div>
          </li>
        ))}
      </ul>
      <ErrorNote error={revoke.error} onRetry={() => revoke.variables && revoke.mutate(revoke.variables)} />
      {revokeOthers.isSuccess && others.length === 0 && <Note kind="success">Every other device is signed out.</Note>}
      {others.length > 0 && (
        <div className="actions">
          <ConfirmButton
            question={`Sign out ${others.length === 1 ? "the other device" : `all ${others.length} other devices`}? This one stays signed in.`}
            confirm="Sign them out"
            busy={revokeOthers.isPending}
            disabled={revoke.isPending}
            onConfirm={() => revokeOthers.mutate(others.map((session) => session.id))}
          >
            Sign out of all other devices
          </ConfirmButton>
        </div>
      )}
      <ErrorNote error={revokeOthers.error} onRetry={() => revokeOthers.mutate(others.map((session) => session.id))} />
    </>
  );
}
