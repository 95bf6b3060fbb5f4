// A project's teams, a page at a time, and one team with its members and the permissions each holds.
import { useState } from "react";
import { api } from "../api.js";
import { ErrorLine, Json, PagerButtons, Section, time, useLoad } from "../components.js";
import { go, href } from "../router.js";

const PAGE_SIZE = 25;

export function TeamsView({ projectId, teamId }: { projectId: string; teamId: string | undefined }) {
  return teamId ? <TeamView teamId={teamId} /> : <TeamList projectId={projectId} />;
}

function TeamList({ projectId }: { projectId: string }) {
  const [query, setQuery] = useState("");
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const cursor = cursors.at(-1);
  const teams = useLoad(
    () => api.teams(projectId, { query, ...(cursor === undefined ? {} : { cursor }), limit: PAGE_SIZE }),
    [projectId, query, cursor],
  );
  const page = teams.data;
  return (
    <Section
      title="Teams"
      actions={
        <input
          type="search"
          placeholder="Search by name or id"
          aria-label="Search teams"
          value={query}
          onChange={(event) => {
            setQuery(event.target.value);
            setCursors([undefined]);
          }}
        />
      }
    >
      <ErrorLine error={teams.error} />
      <table className="list">
        <thead>
          <tr>
            <th>Team</th>
            <th>Members</th>
            <th>Created</th>
          </tr>
        </thead>
        <tbody>
          {page?.items.map((team) => (
            <tr key={team.id} className="clickable" onClick={() => go("teams", team.id)}>
              <td>
                <a href={href("teams", team.id)}>{team.displayName}</a>
              </td>
              <td>{team.memberCount}</td>
              <td>{time(team.createdAtMillis)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {page && page.items.length === 0 ? <p className="muted">{query ? "No team matches." : "No team yet."}</p> : null}
      <footer className="pager">
        <PagerButtons cursors={cursors} setCursors={setCursors} nextCursor={page?.nextCursor} />
      </footer>
    </Section>
  );
}

function TeamView({ teamId }: { teamId: string }) {
  const team = useLoad(() => api.team(teamId), [teamId]);
  if (team.error) return <ErrorLine error={team.error} />;
  if (!team.data) return <p className="muted">Loading…</p>;
  return (
    <>
      <p>
        <a href={href("teams")}>← Teams</a>
      </p>
      <Section title={team.data.team.display_name}>
        <table className="list">
          <thead>
            <tr>
              <th>Member</th>
              <th>E-mail</th>
              <th>Permissions</th>
            </tr>
          </thead>
          <tbody>
            {team.data.members.map((member) => (
              <tr key={member.userId}>
                <td>
                  <a href={href("user", member.userId)}>{member.displayName ?? member.userId}</a>
                </td>
                <td>{member.primaryEmail ?? <span className="muted">none</span>}</td>
                <td>
                  {member.permissions.map((permission) => (
                    <code key={permission} className="chip">
                      {permission}
                    </code>
                  ))}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <details>
          <summary>The team as the server API shows it</summary>
          <Json value={team.data.team} />
        </details>
      </Section>
    </>
  );
}
