// Query options for the reads the hooks make, answered with the reference SDK's
// objects (Team, ContactChannel, ApiKey …) rather than wire JSON. Keys are
// stackQueryKey(operationId of the call, its parameters as flat fields); the
// wire factories of query-options.ts key theirs as `{ path, query }`, so the
// two never share an entry while one mutation prefix invalidates both.
import type {
  ActiveSession,
  AdminOwnedProject,
  CallOptions,
  ConnectedAccountOptions,
  ContactChannel,
  CurrentUser,
  EditableTeamMemberProfile,
  OAuthConnection,
  Project,
  ReceivedTeamInvitation,
  StackClientApp,
  Team,
  TeamApiKey,
  TeamInvitation,
  TeamPermission,
  TeamUser,
  UserApiKey,
} from "../runtime/index.js";
import { StackConfigurationError } from "../runtime/errors.js";
import { objectQueryOptions } from "./object-query.js";
import { stackQueryKey } from "./query-keys.js";
import { requireUser } from "./user.js";

/** A team as the hooks take it: any object with the team's id (methods are needed only where said). */
export interface TeamRef {
  readonly id: string;
}

/**
 * How usePermissions and permissionsQueryOptions list permissions.
 *
 * @example
 * ```tsx
 * const options: PermissionsOptions = { recursive: false };
 * const granted = usePermissions(team, options); // only the directly granted ones
 * ```
 */
export interface PermissionsOptions {
  /** Include permissions contained in granted ones. Default true. */
  readonly recursive?: boolean;
}

function teamIdOf(team: TeamRef | null | undefined, hook: string): string {
  if (typeof team?.id !== "string" || team.id === "") {
    throw new StackConfigurationError(`${hook} needs a team (an object with its id), as returned by useTeams() or useTeam(id).`);
  }
  return team.id;
}

/** The team's own method `name`, or an error saying to pass a whole Team. */
function teamMethod<K extends "listUsers" | "listInvitations" | "listApiKeys">(team: TeamRef, name: K, hook: string): Team[K] {
  const method = (team as Partial<Team>)[name];
  if (typeof method !== "function") {
    throw new StackConfigurationError(`${hook} needs a Team object as returned by useTeams() or useTeam(id), not only its id.`);
  }
  return method.bind(team) as Team[K];
}

/**
 * Query options for the client view of the project (`GET /projects/current`), the read behind useProject: for
 * useQuery without Suspense, prefetching, or reading the cache.
 *
 * @example
 * ```tsx
 * const app = useStackApp();
 * const { data: project, isPending } = useQuery(projectQueryOptions(app));
 * if (isPending) return <Spinner />;
 * return <h1>{project?.displayName}</h1>;
 * ```
 */
export function projectQueryOptions(app: StackClientApp) {
  return objectQueryOptions(stackQueryKey("getCurrentProject", { project_id: app.projectId }), ({ signal }): Promise<Project> =>
    app.getProject({ signal }),
  );
}

/**
 * Query options for the signed-in user's teams (`GET /teams?user_id=me`), the read behind useTeams. The query
 * fails with a UserNotSignedInError when nobody is signed in.
 *
 * @example
 * ```tsx
 * const app = useStackApp();
 * const teams = useQuery(teamsQueryOptions(app));
 * if (teams.isError) return <p>{teams.error.message}</p>;
 * return <p>{teams.data?.length ?? "…"} teams</p>;
 * ```
 */
export function teamsQueryOptions(app: StackClientApp) {
  return objectQueryOptions(stackQueryKey("listTeams", { user_id: "me" }), async ({ client, signal }): Promise<Team[]> =>
    (await requireUser(app, client, "useTeams()", signal)).listTeams({ signal }),
  );
}

/**
 * Query options for one team of the signed-in user (`GET /teams/{team_id}`), the read behind useTeam; its data is
 * null when the user is not a member.
 *
 * @example
 * ```tsx
 * const app = useStackApp();
 * const { data: team } = useQuery(teamQueryOptions(app, teamId));
 * return <h2>{team === null ? "Not a member" : team?.displayName}</h2>;
 * ```
 */
export function teamQueryOptions(app: StackClientApp, teamId: string) {
  return objectQueryOptions(stackQueryKey("getTeam", { team_id: teamId }), async ({ client, signal }): Promise<Team | null> =>
    (await requireUser(app, client, "useTeam(id)", signal)).getTeam(teamId, { signal }),
  );
}

/**
 * Query options for the signed-in user's contact channels (`GET /contact-channels?user_id=me`), the read behind
 * useContactChannels.
 *
 * @example
 * ```tsx
 * const app = useStackApp();
 * const queryClient = useStackQueryClient();
 * const prefetch = () => queryClient.prefetchQuery(contactChannelsQueryOptions(app));
 * return <Link to="/account/emails" onMouseEnter={prefetch}>E-mail addresses</Link>;
 * ```
 */
export function contactChannelsQueryOptions(app: StackClientApp) {
  return objectQueryOptions(
    stackQueryKey("listContactChannels", { user_id: "me" }),
    async ({ client, signal }): Promise<ContactChannel[]> =>
      (await requireUser(app, client, "useContactChannels()", signal)).listContactChannels({ signal }),
  );
}

/**
 * Query options for the team invitations the signed-in user received (`GET /team-invitations?user_id=me`), the
 * read behind useReceivedTeamInvitations. On a 2.8.11 service, which has no such list, the query fails with a
 * ServiceVersionError.
 *
 * @example
 * ```tsx
 * const app = useStackApp();
 * const { data: invitations = [] } = useQuery(receivedTeamInvitationsQueryOptions(app));
 * return invitations.length > 0 ? <Badge>{invitations.length} invitations</Badge> : null;
 * ```
 */
export function receivedTeamInvitationsQueryOptions(app: StackClientApp) {
  return objectQueryOptions(
    stackQueryKey("listTeamInvitations", { user_id: "me" }),
    async ({ client, signal }): Promise<ReceivedTeamInvitation[]> =>
      (await requireUser(app, client, "useReceivedTeamInvitations()", signal)).listTeamInvitations({ signal }),
  );
}

/**
 * Query options for the user's permissions in `team` (`GET /team-permissions`), or at project level when `team` is
 * null (`GET /project-permissions`): the read behind usePermissions and usePermission.
 *
 * @example
 * ```tsx
 * const app = useStackApp();
 * const { data: permissions = [] } = useQuery(permissionsQueryOptions(app, team, { recursive: true }));
 * const canInvite = permissions.some((p) => p.id === "$invite_members");
 * ```
 */
export function permissionsQueryOptions(app: StackClientApp, team: TeamRef | null, options: PermissionsOptions = {}) {
  const recursive = options?.recursive === false ? "false" : "true";
  const listOptions = { recursive: recursive === "true" };
  const scope = team === null ? null : { id: teamIdOf(team, "usePermissions(team)") };
  return objectQueryOptions(
    scope
      ? stackQueryKey("listTeamPermissions", { team_id: scope.id, user_id: "me", recursive })
      : stackQueryKey("listProjectPermissions", { user_id: "me", recursive }),
    async ({ client, signal }): Promise<TeamPermission[]> => {
      const user = await requireUser(app, client, "usePermissions()", signal);
      return scope ? user.listPermissions(scope, { ...listOptions, signal }) : user.listPermissions({ ...listOptions, signal });
    },
  );
}

/**
 * Query options for the signed-in user's API keys (`GET /user-api-keys?user_id=me`), the read behind useApiKeys.
 *
 * @example
 * ```tsx
 * const app = useStackApp();
 * const { data: keys, isPending } = useQuery(apiKeysQueryOptions(app));
 * if (isPending) return <Spinner />;
 * return <p>{keys?.filter((key) => key.isValid()).length} active keys</p>;
 * ```
 */
export function apiKeysQueryOptions(app: StackClientApp) {
  return objectQueryOptions(stackQueryKey("listUserApiKeys", { user_id: "me" }), async ({ client, signal }): Promise<UserApiKey[]> =>
    (await requireUser(app, client, "useApiKeys()", signal)).listApiKeys({ signal }),
  );
}

/**
 * Query options for a team's API keys (`GET /team-api-keys?team_id=…`), the read behind useTeamApiKeys; `team` must
 * be a whole Team (it uses the team's own `listApiKeys`), else a StackConfigurationError is thrown.
 *
 * @example
 * ```tsx
 * const { data: keys = [] } = useQuery(teamApiKeysQueryOptions(team));
 * return <ul>{keys.map((key) => <li key={key.id}>{key.description}</li>)}</ul>;
 * ```
 */
export function teamApiKeysQueryOptions(team: TeamRef) {
  const list = teamMethod(team, "listApiKeys", "useTeamApiKeys(team)");
  return objectQueryOptions(stackQueryKey("listTeamApiKeys", { team_id: team.id }), ({ signal }): Promise<TeamApiKey[]> =>
    list({ signal }),
  );
}

/**
 * Query options for the signed-in user's profile in `team` (`GET /team-member-profiles/{team_id}/me`), the read
 * behind useTeamProfile.
 *
 * @example
 * ```tsx
 * const app = useStackApp();
 * const { data: profile } = useQuery(teamProfileQueryOptions(app, team));
 * return <span>{profile?.displayName ?? ""}</span>;
 * ```
 */
export function teamProfileQueryOptions(app: StackClientApp, team: TeamRef) {
  const teamId = teamIdOf(team, "useTeamProfile(team)");
  return objectQueryOptions(
    stackQueryKey("getTeamMemberProfile", { team_id: teamId, user_id: "me" }),
    async ({ client, signal }): Promise<EditableTeamMemberProfile> =>
      (await requireUser(app, client, "useTeamProfile(team)", signal)).getTeamProfile({ id: teamId }, { signal }),
  );
}

/**
 * Query options for the members of a team (`GET /team-member-profiles?team_id=…`), the read behind useTeamUsers;
 * `team` must be a whole Team, else a StackConfigurationError is thrown.
 *
 * @example
 * ```tsx
 * const { data: members = [] } = useQuery(teamUsersQueryOptions(team));
 * return <p>{members.length} members</p>;
 * ```
 */
export function teamUsersQueryOptions(team: TeamRef) {
  const list = teamMethod(team, "listUsers", "useTeamUsers(team)");
  return objectQueryOptions(stackQueryKey("listTeamMemberProfiles", { team_id: team.id }), ({ signal }): Promise<TeamUser[]> =>
    list({ signal }),
  );
}

/**
 * Query options for a team's pending invitations (`GET /team-invitations?team_id=…`), the read behind
 * useTeamInvitations; `team` must be a whole Team, else a StackConfigurationError is thrown.
 *
 * @example
 * ```tsx
 * const { data: invitations = [] } = useQuery(teamInvitationsQueryOptions(team));
 * return <ul>{invitations.map((i) => <li key={i.id}>{i.recipientEmail}</li>)}</ul>;
 * ```
 */
export function teamInvitationsQueryOptions(team: TeamRef) {
  const list = teamMethod(team, "listInvitations", "useTeamInvitations(team)");
  return objectQueryOptions(stackQueryKey("listTeamInvitations", { team_id: team.id }), ({ signal }): Promise<TeamInvitation[]> =>
    list({ signal }),
  );
}

/**
 * Query options for the signed-in user's sessions (`GET /auth/sessions?user_id=me`), the read behind
 * useActiveSessions.
 *
 * @example
 * ```tsx
 * const app = useStackApp();
 * const { data: sessions = [] } = useQuery(activeSessionsQueryOptions(app));
 * return <p>Signed in on {sessions.length} device(s).</p>;
 * ```
 */
export function activeSessionsQueryOptions(app: StackClientApp) {
  return objectQueryOptions(stackQueryKey("listSessions", { user_id: "me" }), async ({ client, signal }): Promise<ActiveSession[]> =>
    (await requireUser(app, client, "useActiveSessions()", signal)).getActiveSessions({ signal }),
  );
}

/**
 * The user's connection to an OAuth provider (its access token, fetched with
 * `POST /connected-accounts/me/{provider}/access-token`). `or` as in
 * getConnectedAccount; with `redirect` the query stays pending while the
 * browser goes to the provider.
 *
 * @example
 * ```tsx
 * const app = useStackApp();
 * const { data: github } = useQuery(connectedAccountQueryOptions(app, "github", { scopes: ["repo"] }));
 * if (github === null) return <p>GitHub is not connected.</p>;
 * ```
 */
export function connectedAccountQueryOptions(app: StackClientApp, providerId: string, options: ConnectedAccountOptions = {}) {
  const scopes = Array.isArray(options?.scopes) ? options.scopes : [];
  return objectQueryOptions(
    stackQueryKey("createConnectedAccountAccessToken", {
      user_id: "me",
      provider_id: typeof providerId === "string" ? providerId.toLowerCase() : providerId,
      scope: scopes.join(" "),
      or: options?.or ?? "return-null",
    }),
    async ({ client, signal }): Promise<OAuthConnection | null> =>
      (await requireUser(app, client, "useConnectedAccount()", signal)).getConnectedAccount(providerId, { ...options, signal }),
  );
}

/**
 * Query options for the projects the user owns (`GET /internal/projects`), the read behind useOwnedProjects; only
 * for apps of the internal project (others fail with a StackConfigurationError).
 *
 * @example
 * ```tsx
 * const app = useStackApp();
 * const { data: projects = [] } = useQuery(ownedProjectsQueryOptions(app));
 * return <ul>{projects.map((project) => <li key={project.id}>{project.displayName}</li>)}</ul>;
 * ```
 */
export function ownedProjectsQueryOptions(app: StackClientApp) {
  return objectQueryOptions(
    stackQueryKey("listOwnedProjects", { user_id: "me" }),
    async ({ client, signal }): Promise<AdminOwnedProject[]> => {
      const user: CurrentUser & { listOwnedProjects?: (options?: CallOptions) => Promise<AdminOwnedProject[]> } = await requireUser(
        app,
        client,
        "useOwnedProjects()",
        signal,
      );
      if (typeof user.listOwnedProjects !== "function") {
        throw new StackConfigurationError(
          `useOwnedProjects() is only available to users of the internal project (projectId "internal"); this app's projectId is "${app.projectId}".`,
        );
      }
      return user.listOwnedProjects({ signal });
    },
  );
}
