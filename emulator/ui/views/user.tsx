// One user: their record as the server API shows it, an administrator's changes (display name,
// metadata, verified e-mail, restriction on 2.8.86), deletion, "sign in as" (tokens, or a magic
// link into the app under test), and their sessions with revoke.
import { useState, type FormEvent } from "react";
import { api, type ServerUser } from "../api.js";
import { Badge, Copyable, ErrorLine, Json, Section, time, useAction, useLoad } from "../components.js";
import { go, href } from "../router.js";
import type { SignInAs } from "../../control-inspect-types.js";

const CALLBACK_KEY = "stackkit-emulator-page:magic-link-callback";

export function UserView({ userId, serviceVersion }: { userId: string; serviceVersion: string }) {
  const user = useLoad(() => api.user(userId), [userId]);
  const sessions = useLoad(() => api.sessions(userId), [userId]);
  const action = useAction();
  const change = (changes: Record<string, unknown>) => action.run(() => api.updateUser(userId, changes)).then(() => user.reload());
  const record = user.data;

  if (user.error) return <ErrorLine error={user.error} />;
  if (!record) return <p className="muted">Loading…</p>;
  const restricted = record["is_restricted"] === true;
  return (
    <>
      <p>
        <a href={href("users")}>← Users</a>
      </p>
      <Section
        title={record.display_name ?? record.primary_email ?? record.id}
        actions={
          <>
            {record.primary_email && record["primary_email_verified"] !== true ? (
              <button type="button" disabled={action.busy} onClick={() => void change({ primaryEmailVerified: true })}>
                Verify e-mail
              </button>
            ) : null}
            {serviceVersion !== "2.8.11" ? (
              <button
                type="button"
                disabled={action.busy}
                onClick={() => void change({ restrictedByAdmin: record["restricted_by_admin"] !== true })}
              >
                {record["restricted_by_admin"] === true ? "Lift restriction" : "Restrict"}
              </button>
            ) : null}
            <button
              type="button"
              className="danger"
              disabled={action.busy}
              onClick={() => {
                if (confirm("Delete this user, their sessions, channels and memberships?"))
                  void action.run(() => api.deleteUser(userId)).then((done) => done && go("users"));
              }}
            >
              Delete user
            </button>
          </>
        }
      >
        <p>
          <Copyable value={record.id} title="Id" /> {restricted ? <Badge tone="bad">restricted</Badge> : null}{" "}
          {record["is_anonymous"] === true ? <Badge tone="muted">anonymous</Badge> : null}
        </p>
        <ErrorLine error={action.error} />
        <EditUser user={record} onSave={change} busy={action.busy} />
        <details open>
          <summary>The user as the server API shows them</summary>
          <Json value={record} />
        </details>
      </Section>
      <SignInAsUser userId={userId} onSignedIn={sessions.reload} />
      <Section title="Sessions">
        <ErrorLine error={sessions.error} />
        <table className="list">
          <thead>
            <tr>
              <th>Session</th>
              <th>Started</th>
              <th>Last used</th>
              <th>Expires</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {sessions.data?.map((session) => (
              <tr key={session.id}>
                <td>
                  <code>{session.id}</code> {session.isImpersonation ? <Badge tone="warn">impersonation</Badge> : null}
                </td>
                <td>{time(session.createdAtMillis)}</td>
                <td>{time(session.lastUsedAtMillis)}</td>
                <td>{time(session.expiresAtMillis)}</td>
                <td>
                  <button type="button" className="small" onClick={() => void api.revokeSession(session.id).then(sessions.reload)}>
                    Revoke
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {sessions.data?.length === 0 ? <p className="muted">No session.</p> : null}
      </Section>
    </>
  );
}

/** Metadata as JSON text: what the field shows and what it takes back. */
const jsonText = (value: unknown) => JSON.stringify(value ?? null, null, 2);

function EditUser({
  user,
  onSave,
  busy,
}: {
  user: ServerUser;
  onSave: (changes: Record<string, unknown>) => Promise<unknown>;
  busy: boolean;
}) {
  const [problem, setProblem] = useState<string | null>(null);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const changes: Record<string, unknown> = { displayName: String(form.get("displayName") ?? "").trim() || null };
    for (const [field, name] of [
      ["clientMetadata", "Client metadata"],
      ["clientReadOnlyMetadata", "Client read-only metadata"],
      ["serverMetadata", "Server metadata"],
    ] as const) {
      try {
        changes[field] = JSON.parse(String(form.get(field) ?? "null"));
      } catch {
        setProblem(`${name} is not JSON`);
        return;
      }
    }
    setProblem(null);
    void onSave(changes);
  };
  return (
    <form className="edit" onSubmit={submit} key={JSON.stringify(user)}>
      <label>
        Display name <input name="displayName" defaultValue={user.display_name ?? ""} />
      </label>
      <label>
        Client metadata <textarea name="clientMetadata" rows={3} defaultValue={jsonText(user["client_metadata"])} />
      </label>
      <label>
        Client read-only metadata{" "}
        <textarea name="clientReadOnlyMetadata" rows={3} defaultValue={jsonText(user["client_read_only_metadata"])} />
      </label>
      <label>
        Server metadata <textarea name="serverMetadata" rows={3} defaultValue={jsonText(user["server_metadata"])} />
      </label>
      <ErrorLine error={problem} />
      <button type="submit" disabled={busy}>
        Save
      </button>
    </form>
  );
}

function SignInAsUser({ userId, onSignedIn }: { userId: string; onSignedIn: () => void }) {
  const [callbackUrl, setCallbackUrl] = useState(
    () => localStorage.getItem(CALLBACK_KEY) ?? "http://localhost:5173/handler/magic-link-callback",
  );
  const [result, setResult] = useState<SignInAs | null>(null);
  const action = useAction();
  const signIn = (withLink: boolean) =>
    void action.run(async () => {
      if (withLink) localStorage.setItem(CALLBACK_KEY, callbackUrl);
      setResult(await api.signInAs(userId, withLink ? callbackUrl : undefined));
      onSignedIn();
    });
  return (
    <Section title="Sign in as this user">
      <div className="inline-form">
        <button type="button" disabled={action.busy} onClick={() => signIn(false)}>
          Get tokens
        </button>
        <input
          value={callbackUrl}
          onChange={(event) => setCallbackUrl(event.target.value)}
          aria-label="The app's magic-link callback URL"
          size={48}
        />
        <button type="button" disabled={action.busy} onClick={() => signIn(true)}>
          Make a sign-in link
        </button>
      </div>
      <ErrorLine error={action.error} />
      {result ? (
        <div className="result" data-testid="sign-in-result">
          {result.link ? (
            <p>
              <a href={result.link} target="_blank" rel="noreferrer noopener">
                Open the app as this user
              </a>{" "}
              <Copyable value={result.link} title="Link" />
            </p>
          ) : null}
          <p>
            <Copyable value={result.accessToken} title="Access token" />
          </p>
          <p>
            <Copyable value={result.refreshToken} title="Refresh token" />
          </p>
        </div>
      ) : null}
    </Section>
  );
}
