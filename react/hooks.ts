// The reference SDK's read hooks, Suspense style: each suspends until its answer
// is there, throws its error to the nearest error boundary, and shares its
// cache entry (and so its request) with every other component reading the same.
// Reads that need a user throw a UserNotSignedInError when nobody is signed in.
import { useSuspenseQuery } from "@tanstack/react-query";
import type {
  ActiveSession,
  AdminOwnedProject,
  ConnectedAccountOptions,
  ContactChannel,
  EditableTeamMemberProfile,
  OAuthConnection,
  Project,
  ReceivedTeamInvitation,
  Team,
  TeamApiKey,
  TeamInvitation,
  TeamPermission,
  TeamUser,
  UserApiKey,
} from "../runtime/index.js";
import {
  activeSessionsQueryOptions,
  apiKeysQueryOptions,
  connectedAccountQueryOptions,
  contactChannelsQueryOptions,
  ownedProjectsQueryOptions,
  permissionsQueryOptions,
  projectQueryOptions,
  receivedTeamInvitationsQueryOptions,
  teamApiKeysQueryOptions,
  teamInvitationsQueryOptions,
  teamProfileQueryOptions,
  teamQueryOptions,
  teamsQueryOptions,
  teamUsersQueryOptions,
  type PermissionsOptions,
  type TeamRef,
} from "./object-queries.js";
import { useStackContextFor } from "./provider.js";

/**
 * The client view of the project (`GET /projects/current`): its id, display name and client configuration.
 * Suspends until it is loaded; needs no signed-in user.
 *
 * @example
 * ```tsx
 * function ProjectName() {
 *   const project = useProject();
 *   return <h1>{project.displayName}</h1>;
 * }
 * ```
 */
export function useProject(): Project {
  const { app, queryClient } = useStackContextFor("useProject()");
  return useSuspenseQuery(projectQueryOptions(app), queryClient).data;
}

/**
 * The teams the signed-in user is a member of (`GET /teams?user_id=me`). Suspends until loaded; throws a
 * UserNotSignedInError when nobody is signed in.
 *
 * @example
 * ```tsx
 * function TeamList() {
 *   const teams = useTeams();
 *   return <ul>{teams.map((team) => <li key={team.id}>{team.displayName}</li>)}</ul>;
 * }
 * ```
 */
export function useTeams(): Team[] {
  const { app, queryClient } = useStackContextFor("useTeams()");
  return useSuspenseQuery(teamsQueryOptions(app), queryClient).data;
}

/**
 * The team if the signed-in user is a member of it, else null (`GET /teams/{team_id}`). Suspends until loaded;
 * throws a UserNotSignedInError when nobody is signed in.
 *
 * @example
 * ```tsx
 * function TeamHeader({ teamId }: { teamId: string }) {
 *   const team = useTeam(teamId);
 *   if (team === null) return <p>Not a member of this team.</p>;
 *   return <h2>{team.displayName}</h2>;
 * }
 * ```
 */
export function useTeam(teamId: string): Team | null {
  const { app, queryClient } = useStackContextFor("useTeam(id)");
  return useSuspenseQuery(teamQueryOptions(app, teamId), queryClient).data;
}

/**
 * The signed-in user's contact channels (e-mail addresses, `GET /contact-channels?user_id=me`). Suspends until
 * loaded; throws a UserNotSignedInError when nobody is signed in.
 *
 * @example
 * ```tsx
 * function Emails() {
 *   const channels = useContactChannels();
 *   return <ul>{channels.map((c) => <li key={c.id}>{c.value}{c.isPrimary ? " (primary)" : ""}</li>)}</ul>;
 * }
 * ```
 */
export function useContactChannels(): ContactChannel[] {
  const { app, queryClient } = useStackContextFor("useContactChannels()");
  return useSuspenseQuery(contactChannelsQueryOptions(app), queryClient).data;
}

/**
 * The signed-in user's permissions in `team` (`GET /team-permissions`), or at project level without one
 * (`GET /project-permissions`). Recursive unless told otherwise. Suspends until loaded; throws a
 * UserNotSignedInError when nobody is signed in.
 *
 * @example
 * ```tsx
 * function TeamRoles({ team }: { team: Team }) {
 *   const direct = usePermissions(team, { recursive: false });
 *   const projectWide = usePermissions();
 *   return <p>{direct.map((p) => p.id).join(
 * )} / {projectWide.length} project permissions</p>;
 * }
 * ```
 */
export function usePermissions(team: TeamRef, options?: PermissionsOptions): TeamPermission[];
export function usePermissions(options?: PermissionsOptions): TeamPermission[];
export function usePermissions(first?: TeamRef | PermissionsOptions, second?: PermissionsOptions): TeamPermission[] {
  const { app, queryClient } = useStackContextFor("usePermissions()");
  const [team, options] = isTeamRef(first) ? [first, second] : [null, first];
  return useSuspenseQuery(permissionsQueryOptions(app, team, options), queryClient).data;
}

/**
 * One permission of the signed-in user (in `team`, or at project level), or null when the user lacks it.
 * Shares usePermissions' request. Suspends until loaded; throws a UserNotSignedInError when nobody is signed in.
 *
 * @example
 * ```tsx
 * function InviteButton({ team }: { team: Team }) {
 *   const canInvite = usePermission(team, "$invite_members");
 *   if (!canInvite) return null;
 *   return <button>Invite a member</button>;
 * }
 * ```
 */
export function usePermission(team: TeamRef, permissionId: string): TeamPermission | null;
export function usePermission(permissionId: string): TeamPermission | null;
export function usePermission(first: TeamRef | string, second?: string): TeamPermission | null {
  const { app, queryClient } = useStackContextFor("usePermission()");
  const [team, permissionId] = typeof first === "string" ? [null, first] : [first, second];
  const query = useSuspenseQuery(
    { ...permissionsQueryOptions(app, team), select: (list: TeamPermission[]) => list.find((p) => p.id === permissionId) ?? null },
    queryClient,
  );
  return query.data;
}

/**
 * The signed-in user's API keys (`GET /user-api-keys?user_id=me`), revoked and expired ones included.
 * Suspends until loaded; throws a UserNotSignedInError when nobody is signed in.
 *
 * @example
 * ```tsx
 * function ApiKeyList() {
 *   const keys = useApiKeys();
 *   const valid = keys.filter((key) => key.isValid());
 *   return <ul>{valid.map((key) => <li key={key.id}>{key.description} (…{key.value.lastFour})</li>)}</ul>;
 * }
 * ```
 */
export function useApiKeys(): UserApiKey[] {
  const { app, queryClient } = useStackContextFor("useApiKeys()");
  return useSuspenseQuery(apiKeysQueryOptions(app), queryClient).data;
}

/**
 * A team's API keys (the reference's `team.useApiKeys()`, `GET /team-api-keys?team_id=…`); needs the team's
 * `$manage_api_keys` permission. Takes a whole Team from useTeams() or useTeam(id). Suspends until loaded.
 *
 * @example
 * ```tsx
 * function TeamKeys({ team }: { team: Team }) {
 *   const keys = useTeamApiKeys(team);
 *   return <ul>{keys.map((key) => <li key={key.id}>{key.description}</li>)}</ul>;
 * }
 * ```
 */
export function useTeamApiKeys(team: Team): TeamApiKey[] {
  const { queryClient } = useStackContextFor("useTeamApiKeys(team)");
  return useSuspenseQuery(teamApiKeysQueryOptions(team), queryClient).data;
}

/**
 * The signed-in user's profile in `team` (`GET /team-member-profiles/{team_id}/me`), editable with
 * useUpdateTeamProfile. Suspends until loaded; throws a UserNotSignedInError when nobody is signed in.
 *
 * @example
 * ```tsx
 * function MyTeamName({ team }: { team: Team }) {
 *   const profile = useTeamProfile(team);
 *   return <span>{profile.displayName ?? "(no name in this team)"}</span>;
 * }
 * ```
 */
export function useTeamProfile(team: TeamRef): EditableTeamMemberProfile {
  const { app, queryClient } = useStackContextFor("useTeamProfile(team)");
  return useSuspenseQuery(teamProfileQueryOptions(app, team), queryClient).data;
}

/**
 * The members of `team` (the reference's `team.useUsers()`, `GET /team-member-profiles?team_id=…`), each with
 * its team profile. Takes a whole Team from useTeams() or useTeam(id). Suspends until loaded.
 *
 * @example
 * ```tsx
 * function Members({ team }: { team: Team }) {
 *   const members = useTeamUsers(team);
 *   return <ul>{members.map((m) => <li key={m.id}>{m.teamProfile.displayName ?? m.id}</li>)}</ul>;
 * }
 * ```
 */
export function useTeamUsers(team: Team): TeamUser[] {
  const { queryClient } = useStackContextFor("useTeamUsers(team)");
  return useSuspenseQuery(teamUsersQueryOptions(team), queryClient).data;
}

/**
 * The pending invitations of `team` (the reference's `team.useInvitations()`, `GET /team-invitations?team_id=…`).
 * Takes a whole Team from useTeams() or useTeam(id). Suspends until loaded.
 *
 * @example
 * ```tsx
 * function PendingInvitations({ team }: { team: Team }) {
 *   const invitations = useTeamInvitations(team);
 *   return <ul>{invitations.map((i) => <li key={i.id}>{i.recipientEmail}</li>)}</ul>;
 * }
 * ```
 */
export function useTeamInvitations(team: Team): TeamInvitation[] {
  const { queryClient } = useStackContextFor("useTeamInvitations(team)");
  return useSuspenseQuery(teamInvitationsQueryOptions(team), queryClient).data;
}

/**
 * The pending team invitations sent to the signed-in user's verified e-mails (the newest official SDK's
 * `user.useTeamInvitations()`, `GET /team-invitations?user_id=me`); accept one with useAcceptReceivedTeamInvitation.
 * Suspends until loaded; throws a UserNotSignedInError when nobody is signed in, and a ServiceVersionError on a
 * 2.8.11 service, which has no such list.
 *
 * @example
 * ```tsx
 * function Invitations() {
 *   const invitations = useReceivedTeamInvitations();
 *   const accept = useAcceptReceivedTeamInvitation();
 *   return invitations.map((i) => <button key={i.id} onClick={() => accept.mutate(i)}>Join {i.teamDisplayName}</button>);
 * }
 * ```
 */
export function useReceivedTeamInvitations(): ReceivedTeamInvitation[] {
  const { app, queryClient } = useStackContextFor("useReceivedTeamInvitations()");
  return useSuspenseQuery(receivedTeamInvitationsQueryOptions(app), queryClient).data;
}

/**
 * Every session (device) the signed-in user is signed in on (`GET /auth/sessions?user_id=me`). Suspends until
 * loaded; throws a UserNotSignedInError when nobody is signed in.
 *
 * @example
 * ```tsx
 * function Sessions() {
 *   const sessions = useActiveSessions();
 *   const others = sessions.filter((session) => !session.isCurrentSession);
 *   return <p>Also signed in on {others.length} other device(s).</p>;
 * }
 * ```
 */
export function useActiveSessions(): ActiveSession[] {
  const { app, queryClient } = useStackContextFor("useActiveSessions()");
  return useSuspenseQuery(activeSessionsQueryOptions(app), queryClient).data;
}

/**
 * The user's connection to an OAuth provider, or null when not connected
 * (`or: "throw"` throws instead; `or: "redirect"` starts the link flow and stays suspended). Fetches a provider
 * access token with `POST /connected-accounts/me/{provider_id}/access-token`.
 *
 * @example
 * ```tsx
 * function GitHubRepos() {
 *   const github = useConnectedAccount("github", { scopes: ["repo"] });
 *   if (github === null) return <p>Connect your GitHub account first.</p>;
 *   return <Repos connection={github} />;
 * }
 * ```
 */
export function useConnectedAccount(providerId: string, options: ConnectedAccountOptions & { readonly or: "redirect" }): OAuthConnection;
export function useConnectedAccount(providerId: string, options?: ConnectedAccountOptions): OAuthConnection | null;
export function useConnectedAccount(providerId: string, options?: ConnectedAccountOptions): OAuthConnection | null {
  const { app, queryClient } = useStackContextFor("useConnectedAccount()");
  return useSuspenseQuery(connectedAccountQueryOptions(app, providerId, options), queryClient).data;
}

/**
 * The projects the signed-in user owns (`GET /internal/projects`; apps of the internal project only, otherwise a
 * StackConfigurationError is thrown). Suspends until loaded.
 *
 * @example
 * ```tsx
 * function MyProjects() {
 *   const projects = useOwnedProjects();
 *   return <ul>{projects.map((project) => <li key={project.id}>{project.displayName}</li>)}</ul>;
 * }
 * ```
 */
export function useOwnedProjects(): AdminOwnedProject[] {
  const { app, queryClient } = useStackContextFor("useOwnedProjects()");
  return useSuspenseQuery(ownedProjectsQueryOptions(app), queryClient).data;
}

function isTeamRef(value: TeamRef | PermissionsOptions | undefined): value is TeamRef {
  return typeof value === "object" && value !== null && typeof (value as { id?: unknown }).id === "string";
}
