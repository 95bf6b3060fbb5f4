// A project's users, a page at a time from the emulator (never the whole list): search, page
// forward and back, open one; and a form that creates a user.
import { useState, type FormEvent } from "react";
import { api } from "../api.js";
import { Badge, ErrorLine, PagerButtons, Section, time, useAction, useLoad } from "../components.js";
import { go, href } from "../router.js";

const PAGE_SIZE = 25;

export function UsersView({ projectId }: { projectId: string }) {
  const [query, setQuery] = useState("");
  // The cursors of the pages before this one, so that "Previous" goes back.
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const cursor = cursors.at(-1);
  const users = useLoad(
    () => api.users(projectId, { query, ...(cursor === undefined ? {} : { cursor }), limit: PAGE_SIZE }),
    [projectId, query, cursor],
  );
  const search = (value: string) => {
    setQuery(value);
    setCursors([undefined]);
  };
  const page = users.data;
  const first = (cursors.length - 1) * PAGE_SIZE;

  return (
    <>
      <Section
        title="Users"
        actions={
          <input
            type="search"
            placeholder="Search by name, e-mail or id"
            aria-label="Search users"
            value={query}
            onChange={(event) => search(event.target.value)}
          />
        }
      >
        <ErrorLine error={users.error} />
        <table className="list">
          <thead>
            <tr>
              <th>Display name</th>
              <th>E-mail</th>
              <th>Kind</th>
              <th>Signed up</th>
              <th>Teams</th>
            </tr>
          </thead>
          <tbody>
            {page?.items.map((user) => (
              <tr key={user.id} className="clickable" onClick={() => go("user", user.id)}>
                <td>
                  <a href={href("user", user.id)}>{user.displayName ?? <span className="muted">(no name)</span>}</a>
                </td>
                <td>
                  {user.primaryEmail ?? <span className="muted">none</span>}{" "}
                  {user.primaryEmail ? (
                    user.primaryEmailVerified ? (
                      <Badge tone="ok">verified</Badge>
                    ) : (
                      <Badge tone="warn">unverified</Badge>
                    )
                  ) : null}
                </td>
                <td>
                  {user.isAnonymous ? <Badge tone="muted">anonymous</Badge> : null}{" "}
                  {user.restrictedReason ? <Badge tone="bad">restricted: {user.restrictedReason}</Badge> : null}
                </td>
                <td>{time(user.signedUpAtMillis)}</td>
                <td>{user.teams.map((team) => team.displayName).join(", ")}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {page && page.items.length === 0 ? <p className="muted">{query ? "No user matches." : "No user yet."}</p> : null}
        <footer className="pager">
          <span className="muted" data-testid="users-range">
            {page && page.items.length > 0
              ? `${first + 1}–${first + page.items.length}${page.total === null ? "" : ` of ${page.total}`}`
              : ""}
          </span>
          <PagerButtons cursors={cursors} setCursors={setCursors} nextCursor={page?.nextCursor} />
        </footer>
      </Section>
      <CreateUser projectId={projectId} onCreated={(id) => go("user", id)} />
    </>
  );
}

function CreateUser({ projectId, onCreated }: { projectId: string; onCreated: (id: string) => void }) {
  const action = useAction();
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const text = (name: string) => {
      const value = String(form.get(name) ?? "").trim();
      return value === "" ? undefined : value;
    };
    void action.run(async () => {
      const user = await api.createUser({
        projectId,
        email: text("email"),
        password: text("password"),
        displayName: text("displayName"),
        emailVerified: form.get("emailVerified") === "on",
      });
      onCreated(user.id);
    });
  };
  return (
    <Section title="Create a user">
      <form className="inline-form" onSubmit={submit}>
        <input name="email" type="email" placeholder="E-mail" aria-label="New user's e-mail" />
        <input name="password" type="text" placeholder="Password (optional)" aria-label="New user's password" autoComplete="off" />
        <input name="displayName" placeholder="Display name" aria-label="New user's display name" />
        <label>
          <input name="emailVerified" type="checkbox" defaultChecked /> verified
        </label>
        <button type="submit" disabled={action.busy}>
          Create user
        </button>
      </form>
      <ErrorLine error={action.error} />
    </Section>
  );
}
