// What the emulator's page looks at and does, as control functions (so that a
// test, or another language over HTTP, can do each of them too): the projects
// with their keys, a project's users and teams a page at a time (read through
// the store's per-project indexes, never the whole users table), one user as
// the server API shows them, their sessions, changes an administrator makes to
// a user, "sign in as", one exchange of the request log, the faults pending.
import type { components } from "../generated/schema.js";
import type { Engine, FaultRule } from "./engine/engine.js";
import type { ServiceVersion } from "./engine/profile.js";
import type { LoggedExchange } from "./engine/request-log.js";
import type { Store, TeamRecord, UserRecord } from "./engine/store.js";
import { primaryChannelOf, restrictedReasonOf, serverTeamView, serverUserView } from "./engine/views.js";
import { heldPermissions } from "./handlers/permissions.js";
import type {
  ListPageOptions,
  ListPage,
  PendingFault,
  ProjectSummary,
  SessionSummary,
  SignInAs,
  TeamDetails,
  TeamSummary,
  UpdateUserOptions,
  UserSummary,
} from "./control-inspect-types.js";

/** The part of `emulator.control` the emulator's page is built on: reading and changing users, sessions and teams, and one exchange of the log. */
export interface EmulatorInspection {
  /**
   * The service version the emulator answers as (`serviceVersion` of createEmulator).
   *
   * @example
   * ```ts
   * if (emulator.control.serviceVersion() === "2.8.86") emulator.control.updateUser(record.id, { restrictedByAdmin: true });
   * ```
   */
  serviceVersion(): ServiceVersion;
  /**
   * Every project with its keys, in the order they were made.
   *
   * @example
   * ```ts
   * const [demo] = emulator.control.projects().filter((project) => project.id === DEMO_KEYS.projectId);
   * console.log(demo?.keys[0]?.publishableClientKey);
   * ```
   */
  projects(): readonly ProjectSummary[];
  /**
   * A page of a project's users, newest first. Rejects an unknown project or a bad cursor or limit with a RangeError.
   *
   * @example
   * ```ts
   * const first = emulator.control.listUsers(DEMO_KEYS.projectId, { query: "ada", limit: 20 });
   * const next = first.nextCursor && emulator.control.listUsers(DEMO_KEYS.projectId, { query: "ada", cursor: first.nextCursor });
   * ```
   */
  listUsers(projectId: string, options?: ListPageOptions): ListPage<UserSummary>;
  /**
   * A user as the server API shows them (`GET /users/{user_id}` with a server key, in the version played). Throws a RangeError when there is none.
   *
   * @example
   * ```ts
   * expect(emulator.control.user(record.id).primary_email_verified).toBe(true);
   * ```
   */
  user(userId: string): components["schemas"]["ServerUser"];
  /**
   * Changes a user as an administrator would, and answers the user as the server API then shows them. Throws a RangeError when there is none, or to verify an e-mail the user lacks.
   *
   * @example
   * ```ts
   * emulator.control.updateUser(record.id, { displayName: "Ada L.", restrictedByAdmin: true });
   * ```
   */
  updateUser(userId: string, changes: UpdateUserOptions): components["schemas"]["ServerUser"];
  /**
   * Deletes a user and everything that is theirs (sessions, channels, memberships, keys). Throws a RangeError when there is none.
   *
   * @example
   * ```ts
   * emulator.control.deleteUser(record.id);
   * ```
   */
  deleteUser(userId: string): void;
  /**
   * Starts a session for the user, and with `callbackUrl` makes a magic link into the app (the URL with a one-time `code`). Rejects with a RangeError when there is no such user.
   *
   * @example
   * ```ts
   * const { link } = await emulator.control.signInAs(record.id, { callbackUrl: "http://localhost:5173/handler/magic-link-callback" });
   * await page.goto(link!);
   * ```
   */
  signInAs(userId: string, options?: { readonly callbackUrl?: string }): Promise<SignInAs>;
  /**
   * The user's sessions, oldest first. Throws a RangeError when there is no such user.
   *
   * @example
   * ```ts
   * for (const session of emulator.control.sessions(record.id)) emulator.control.revokeSession(session.id);
   * ```
   */
  sessions(userId: string): readonly SessionSummary[];
  /**
   * Ends a session: its refresh token stops working. Throws a RangeError when there is none.
   *
   * @example
   * ```ts
   * emulator.control.revokeSession(emulator.control.sessions(record.id)[0]!.id);
   * ```
   */
  revokeSession(sessionId: string): void;
  /**
   * A page of a project's teams, newest first. Throws a RangeError for an unknown project or a bad cursor or limit.
   *
   * @example
   * ```ts
   * const { items } = emulator.control.listTeams(DEMO_KEYS.projectId, { query: "design" });
   * ```
   */
  listTeams(projectId: string, options?: ListPageOptions): ListPage<TeamSummary>;
  /**
   * A team, its members and the team permissions each holds. Throws a RangeError when there is no such team.
   *
   * @example
   * ```ts
   * const { members } = emulator.control.team(teamId);
   * expect(members.map((member) => member.permissions)).toContainEqual(expect.arrayContaining(["$update_team"]));
   * ```
   */
  team(teamId: string): TeamDetails;
  /**
   * One exchange of the request log with its headers and bodies, secrets masked (tokens, keys, passwords, codes);
   * undefined when it is no longer kept (the latest 500 exchanges are).
   *
   * @example
   * ```ts
   * const [signIn] = emulator.control.requests({ operationId: "signInWithPassword" });
   * console.log(emulator.control.requestExchange(signIn!.id)?.response.body); // "access_token": "[redacted]"
   * ```
   */
  requestExchange(id: number): LoggedExchange | undefined;
  /**
   * The injected faults still waiting for requests, in the order they apply.
   *
   * @example
   * ```ts
   * emulator.control.injectFault("listTeams", { kind: "drop" }, { times: 2 });
   * expect(emulator.control.faults()).toEqual([{ operationId: "listTeams", fault: { kind: "drop" }, remaining: 2 }]);
   * ```
   */
  faults(): readonly PendingFault[];
}

export const DEFAULT_PAGE_SIZE = 50;
const MAX_PAGE_SIZE = 200;

/** The records from `cursor` on (an offset, as the page before answered it), newest first, `limit` of those `matches` picks. */
function pageOf<T, S>(
  all: T[],
  options: ListPageOptions,
  matches: (record: T, query: string) => boolean,
  view: (record: T) => S,
): ListPage<S> {
  const limit = options.limit ?? DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE)
    throw new RangeError(`"limit" must be a whole number from 1 to ${MAX_PAGE_SIZE}`);
  const start = options.cursor === undefined ? 0 : Number(options.cursor);
  if (!/^\d+$/.test(options.cursor ?? "0") || !Number.isSafeInteger(start))
    throw new RangeError(`"cursor" must be a nextCursor a page answered, not ${JSON.stringify(options.cursor)}`);
  const query = options.query?.trim().toLowerCase() ?? "";
  const items: S[] = [];
  // Newest first: from the end of the index's order (the order the records were made).
  let seen = 0;
  for (let i = all.length - 1; i >= 0; i--) {
    const record = all[i] as T;
    if (query !== "" && !matches(record, query)) continue;
    if (seen++ < start) continue;
    if (items.length === limit) return { items, nextCursor: String(start + limit), total: query === "" ? all.length : null };
    items.push(view(record));
  }
  return { items, nextCursor: null, total: query === "" ? all.length : null };
}

export function createInspection(engine: Engine, store: Store): EmulatorInspection {
  const { ctx } = engine;
  const requireUser = (userId: string): UserRecord => {
    const user = store.user(userId);
    if (!user) throw new RangeError(`No user ${userId} in the emulator`);
    return user;
  };
  const requireProject = (projectId: string) => {
    if (!store.project(projectId)) throw new RangeError(`No project ${projectId} in the emulator`);
  };
  const userSummary = (user: UserRecord): UserSummary => {
    const primary = primaryChannelOf(store, user.id);
    return {
      id: user.id,
      displayName: user.display_name,
      primaryEmail: primary?.value ?? null,
      primaryEmailVerified: primary?.is_verified ?? false,
      isAnonymous: user.is_anonymous,
      restrictedReason: restrictedReasonOf(ctx.profile, store, user)?.type ?? null,
      signedUpAtMillis: user.signed_up_at_millis,
      teams: store.teamsOfUser(user.id).map((team) => ({ id: team.id, displayName: team.display_name })),
    };
  };
  const userMatches = (user: UserRecord, query: string) =>
    user.id.includes(query) ||
    (user.display_name ?? "").toLowerCase().includes(query) ||
    store.channelsOf(user.id).some((channel) => channel.value.toLowerCase().includes(query));
  const teamMatches = (team: TeamRecord, query: string) => team.id.includes(query) || team.display_name.toLowerCase().includes(query);

  return {
    serviceVersion: () => ctx.profile.version,
    projects: () =>
      store.projects().map((project) => ({
        id: project.id,
        displayName: project.display_name,
        keys: store
          .keySetsOf(project.id)
          .filter((set) => set.manually_revoked_at_millis === undefined && set.expires_at_millis > ctx.now())
          .map((set) => ({
            publishableClientKey: set.publishable_client_key ?? null,
            secretServerKey: set.secret_server_key ?? null,
            superSecretAdminKey: set.super_secret_admin_key ?? null,
          })),
      })),
    listUsers(projectId, options = {}) {
      requireProject(projectId);
      return pageOf(store.usersOf(projectId), options, userMatches, userSummary);
    },
    user: (userId) => serverUserView(store, requireUser(userId), ctx.profile),
    updateUser(userId, changes) {
      const user = requireUser(userId);
      if (changes.primaryEmailVerified !== undefined) {
        const primary = primaryChannelOf(store, user.id);
        if (!primary) throw new RangeError(`User ${userId} has no primary e-mail to verify`);
        store.updateChannel(primary.id, { is_verified: changes.primaryEmailVerified });
      }
      const fields = {
        ...(changes.displayName === undefined ? {} : { display_name: changes.displayName }),
        ...(changes.clientMetadata === undefined ? {} : { client_metadata: changes.clientMetadata }),
        ...(changes.clientReadOnlyMetadata === undefined ? {} : { client_read_only_metadata: changes.clientReadOnlyMetadata }),
        ...(changes.serverMetadata === undefined ? {} : { server_metadata: changes.serverMetadata }),
        ...(changes.restrictedByAdmin === undefined ? {} : { restricted_by_admin: changes.restrictedByAdmin }),
      };
      store.updateUser(user.id, fields);
      return serverUserView(store, user, ctx.profile);
    },
    deleteUser(userId) {
      store.deleteUser(requireUser(userId).id);
    },
    async signInAs(userId, options = {}) {
      const user = requireUser(userId);
      const signedIn = await ctx.signIn(user);
      const primary = primaryChannelOf(store, user.id);
      let link: string | null = null;
      if (options.callbackUrl !== undefined) {
        if (!primary?.used_for_auth) throw new RangeError(`User ${userId} signs in with no e-mail: a magic link cannot sign them in`);
        let url: URL;
        try {
          url = new URL(options.callbackUrl);
        } catch {
          throw new RangeError(`"callbackUrl" must be a URL, not ${JSON.stringify(options.callbackUrl)}`);
        }
        const code = ctx.issueCode({
          projectId: user.project_id,
          kind: "magic_link",
          recipient: primary.value,
          callbackUrl: url.href,
          lifetimeMs: 60 * 60 * 1000,
          data: {},
        });
        link = store.code(code)?.link ?? null;
      }
      return { accessToken: signedIn.access_token, refreshToken: signedIn.refresh_token, link };
    },
    sessions: (userId) =>
      store.sessionsOf(requireUser(userId).id).map((session) => ({
        id: session.id,
        createdAtMillis: session.created_at_millis,
        lastUsedAtMillis: session.last_used_at_millis,
        expiresAtMillis: session.expires_at_millis,
        isImpersonation: session.is_impersonation,
      })),
    revokeSession(sessionId) {
      if (!store.session(sessionId)) throw new RangeError(`No session ${sessionId} in the emulator`);
      store.deleteSession(sessionId);
    },
    listTeams(projectId, options = {}) {
      requireProject(projectId);
      return pageOf(store.teamsOf(projectId), options, teamMatches, (team) => ({
        id: team.id,
        displayName: team.display_name,
        createdAtMillis: team.created_at_millis,
        memberCount: store.membershipsOfTeam(team.id).length,
      }));
    },
    team(teamId) {
      const team = store.team(teamId);
      if (!team) throw new RangeError(`No team ${teamId} in the emulator`);
      return {
        team: serverTeamView(team),
        members: store.membershipsOfTeam(team.id).map((membership) => {
          const user = store.user(membership.user_id);
          return {
            userId: membership.user_id,
            displayName: membership.display_name ?? user?.display_name ?? null,
            primaryEmail: primaryChannelOf(store, membership.user_id)?.value ?? null,
            permissions: [...heldPermissions(store, team.project_id, "team", team.id, membership.user_id, true)].sort(),
          };
        }),
      };
    },
    requestExchange: (id) => engine.log.exchange(id),
    faults: () =>
      engine.faults
        .filter((rule: FaultRule) => rule.remaining > 0)
        .map(({ operationId, fault, remaining }) => ({ operationId, fault, remaining })),
  };
}
