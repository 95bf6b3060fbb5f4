// The user's teams: create one (when the project lets users), leave one (after
// asking), and for each its members and the invitations it has sent (send and revoke).
import { Suspense, useState, type FormEvent } from "react";
import type { CurrentUser, Team } from "stackkit";
import {
  useCreateTeam,
  useInviteUser,
  useLeaveTeam,
  useProject,
  useRevokeTeamInvitation,
  useTeamInvitations,
  useTeams,
  useTeamUsers,
} from "stackkit/react";
import { ConfirmButton } from "../components/actions.js";
import { ErrorNote } from "../components/errors.js";
import { Button, Field, formatDate, Loading, nameOf, Note, SELECTED_TEAM, SelectedTeamBadge } from "../components/ui.js";

/**
 * The members by their name in the team. The signed-in user without one is shown by their own name or e-mail
 * address; the service shows a client no one else's address, so another member without a name stays unnamed.
 */
function Members({ user, team }: { readonly user: CurrentUser; readonly team: Team }) {
  const users = useTeamUsers(team);
  const names = users.map((member) =>
    member.id === user.id
      ? `${member.teamProfile.displayName ?? nameOf(user)} (you)`
      : (member.teamProfile.displayName ?? "unnamed member"),
  );
  return <p className="muted small">Members: {names.join(", ") || "none"}</p>;
}

function Invitations({ team }: { readonly team: Team }) {
  const invitations = useTeamInvitations(team);
  const [email, setEmail] = useState("");
  const [sentTo, setSentTo] = useState<string | null>(null);
  const invite = useInviteUser();
  const revoke = useRevokeTeamInvitation();
  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    const address = email.trim();
    invite.mutate(
      { team, email: address },
      {
        onSuccess: () => {
          setSentTo(address);
          setEmail("");
        },
      },
    );
  };
  return (
    <div className="subsection">
      <h3>Invitations</h3>
      {invitations.length === 0 ? (
        <p className="muted small">No open invitations.</p>
      ) : (
        <ul className="plain-list">
          {invitations.map((invitation) => (
            <li key={invitation.id} className="row-between">
              <span>
                {invitation.recipientEmail ?? "(no e-mail)"} <span className="muted small">expires {formatDate(invitation.expiresAt)}</span>
              </span>
              <Button
                kind="link"
                busy={revoke.isPending && revoke.variables?.id === invitation.id}
                onClick={() => revoke.mutate(invitation)}
              >
                Revoke
              </Button>
            </li>
          ))}
        </ul>
      )}
      <form className="inline-form" onSubmit={submit} aria-label={`Invite to ${team.displayName}`}>
        <Field label="Invite by e-mail" name="email" type="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
        <Button type="submit" kind="secondary" busy={invite.isPending}>
          Invite
        </Button>
      </form>
      {sentTo !== null && <Note kind="success">Invitation sent to {sentTo}.</Note>}
      <ErrorNote error={invite.error} onRetry={() => submit()} />
      <ErrorNote error={revoke.error} onRetry={() => revoke.variables && revoke.mutate(revoke.variables)} />
    </div>
  );
}

function TeamItem({ user, team }: { readonly user: CurrentUser; readonly team: Team }) {
  const [open, setOpen] = useState(false);
  const leave = useLeaveTeam();
  return (
    <li className="item item-column">
      <div className="row-between">
        <div>
          <strong>{team.displayName}</strong> {user.selectedTeam?.id === team.id && <SelectedTeamBadge />}
        </div>
        <div className="item-actions">
          <Button kind="link" onClick={() => setOpen(!open)} aria-expanded={open}>
            {open ? "Hide details" : "Members & invitations"}
          </Button>
          <ConfirmButton
            question={`Leave ${team.displayName}? You need a new invitation to join again.`}
            confirm="Leave team"
            busy={leave.isPending}
            onConfirm={() => leave.mutate(team)}
          >
            Leave
          </ConfirmButton>
        </div>
      </div>
      <ErrorNote error={leave.error} onRetry={() => leave.mutate(team)} />
      {open && (
        <Suspense fallback={<Loading />}>
          <Members user={user} team={team} />
          <Invitations team={team} />
        </Suspense>
      )}
    </li>
  );
}

export function Teams({ user }: { readonly user: CurrentUser }) {
  const teams = useTeams();
  const project = useProject();
  const [name, setName] = useState("");
  const create = useCreateTeam();
  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    create.mutate({ displayName: name.trim() }, { onSuccess: () => setName("") });
  };
  return (
    <>
      {teams.length === 0 ? (
        <p className="muted">You are not in any team yet.</p>
      ) : (
        <ul className="items">
          {teams.map((team) => (
            <TeamItem key={team.id} user={user} team={team} />
          ))}
        </ul>
      )}
      {teams.some((team) => user.selectedTeam?.id === team.id) && <p className="muted small">{SELECTED_TEAM}</p>}
      {project.config.clientTeamCreationEnabled && (
        <form className="inline-form" onSubmit={submit} aria-label="Create a team">
          <Field label="New team name" name="teamName" required value={name} onChange={(e) => setName(e.target.value)} />
          <Button type="submit" kind="secondary" busy={create.isPending}>
            Create team
          </Button>
        </form>
      )}
      <ErrorNote error={create.error} onRetry={() => submit()} />
    </>
  );
}
