// StackServerApp: the server half of the product (SPEC §1, §6, §7) with the
// reference SDK's public API. It is a client app whose every request carries
// the secret server key and access type "server"; users and teams come back as
// server objects. Server objects act by id on a runtime client without user
// tokens; the request's own user (getUser()) also gets its session.
//
// The class is the part every bundle that names it carries (its options and
// the methods' signatures); what the methods do loads with the first of them
// (server/app-methods.ts), so that a client app's first load holds no server code.
import { callOf, checkAborted, requireOptions, signalOf, type CallOptions } from "./call-options.js";
import { StackConfigurationError } from "../errors.js";
import { lazy } from "../platform/lazy.js";
import type { TokenStoreInit } from "../sessions/tokens/resolve.js";
import { runtimeSettingsOf, type RuntimeClientSettings } from "./app-internals.js";
import { StackClientApp } from "./client-app.js";
import type { GetUserOptions, StackClientAppOptions } from "./client-app-options.js";
import type { ServerListUsersOptions } from "./server/app-methods.js";
import { serverContextOf, type ServerAppContext } from "./server/context.js";
import type { CurrentServerUser } from "./server/current-user.js";
import { resolveServerAppOptions, type StackServerAppOptions } from "./server/inherit.js";
import type { ServerTeam, ServerTeamCreateOptions } from "./server/server-team.js";
import type { ServerListTeamsOptions } from "./server/team-listing.js";
import type { ServerUser } from "./server/server-user.js";
import type { ServerUserCreateOptions } from "./server/user-options.js";
import type { VerifiedServerUser, VerifiedUserOr } from "./server/verified-user.js";
import type { AccessTokenVerification, VerifyAccessTokenCallOptions } from "../sessions/verify/verify.js";
import type { ConvexCtx } from "./convex-context.js";
import { loadConvex } from "./flows/loaders.js";

export type { ServerListUsersOptions } from "./server/app-methods.js";
export type { ServerListTeamsOptions } from "./server/team-listing.js";
export type { StackServerAppOptions } from "./server/inherit.js";
export type { VerifiedServerUser, VerifiedUserOr } from "./server/verified-user.js";

const loadServer = /* @__PURE__ */ lazy("server app", () => import("./server/app-methods.js"));

/**
 * What a server app's `getUser` answers when nobody is signed in, whose tokens it reads, and
 * whether it checks the access token locally instead of asking the service.
 *
 * @example
 * ```ts
 * const options: ServerGetUserOptions = { or: "return-null", tokenStore: request };
 * const user = await app.getUser(options);
 * if (user === null) return new Response("Sign in first", { status: 401 });
 * // Without GET /users/me: only the identity the access token proves.
 * const verified = await app.getUser({ tokenStore: request, verify: "local", or: "throw" });
 * ```
 */
export interface ServerGetUserOptions extends GetUserOptions {
  /**
   * The user's tokens for this call: a request of your backend, `{ accessToken, refreshToken }`, or a
   * store. Default: the app's.
   */
  readonly tokenStore?: TokenStoreInit;
  /**
   * `"local"`: trust the access token once its signature, expiry, issuer and
   * audience check out against the project's published keys, and answer the
   * identity it proves (a {@link VerifiedServerUser}) without `GET /users/me`.
   * Tokens of 2.8.11's form and of today's are both read; those of anonymous and
   * restricted users only with `or: "anonymous-if-exists"`.
   */
  readonly verify?: "local";
}

/**
 * The app of server code that holds the project's secret server key: what {@link StackClientApp}
 * does, for the user of a request (`getUser({ tokenStore: request })`, a {@link CurrentServerUser}),
 * plus every user ({@link ServerUser}) and team ({@link ServerTeam}) of the project by id: list,
 * create, update and delete them.
 *
 * @example
 * ```ts
 * const app = new StackServerApp({ projectId, publishableClientKey, secretServerKey, tokenStore: "memory" });
 * const user = await app.getUser(userId);
 * await user?.update({ serverMetadata: { plan: "pro" } });
 * ```
 */
export class StackServerApp extends StackClientApp {
  /** The context of server objects: the app's, on a runtime client without user tokens. */
  protected readonly serverCtx: ServerAppContext;

  constructor(options: StackServerAppOptions) {
    super(resolveServerAppOptions(options));
    this.serverCtx = serverContextOf(this.ctx);
  }

  /**
   * The runtime client's settings for this class: access type "server" and the
   * secret server key, which a server app cannot do without.
   * @internal
   */
  protected static override [runtimeSettingsOf](
    options: StackClientAppOptions & { readonly secretServerKey?: string },
  ): RuntimeClientSettings {
    const { secretServerKey } = options;
    if (typeof secretServerKey !== "string" || secretServerKey === "") {
      throw new StackConfigurationError(
        "StackServerApp needs secretServerKey: the secret server key of your project (Stack Auth dashboard → Project Keys). Keep it on the server.",
      );
    }
    return { accessType: "server", secretServerKey };
  }

  // USERS

  /** The identity the request's access token proves, verified locally (no `GET /users/me`); see `verify`. */
  override getUser(
    options: Omit<ServerGetUserOptions, "or"> & CallOptions & { readonly verify: "local"; readonly or: "throw" },
  ): Promise<VerifiedServerUser>;
  override getUser(
    options: Omit<ServerGetUserOptions, "or"> & CallOptions & { readonly verify: "local"; readonly or?: VerifiedUserOr },
  ): Promise<VerifiedServerUser | null>;
  /** The request's user (the app's token store, or `tokenStore`), with `or` as on the client. */
  override getUser(
    options: ServerGetUserOptions & CallOptions & { readonly or: "redirect" | "throw" | "anonymous" },
  ): Promise<CurrentServerUser>;
  override getUser(options?: ServerGetUserOptions & CallOptions): Promise<CurrentServerUser | null>;
  /** The user with this id (`GET /users/{id}`), or null when there is none. */
  override getUser(id: string, options?: CallOptions): Promise<ServerUser | null>;
  /** The owner of a user API key, or null when the key is not valid (SPEC §4). */
  override getUser(options: { readonly apiKey: string } & CallOptions): Promise<ServerUser | null>;
  /** The caller of a Convex function (its identity's subject), or null; an anonymous one only with `or: "anonymous"`. */
  override getUser(
    options: { readonly from: "convex"; readonly ctx: ConvexCtx; readonly or?: "return-null" | "anonymous" } & CallOptions,
  ): Promise<ServerUser | null>;
  /**
   * A user as server code sees it. With options: the request's own user (`GET /users/me` with the
   * app's token store or `tokenStore`), or with `verify: "local"` the identity its access token
   * proves; when nobody is signed in, what `or` asks for. With an id: that user (`GET /users/{id}`).
   * With `{ apiKey }`: the key's owner. With `{ from: "convex", ctx }` in a Convex function: the user
   * whose id Convex's identity of the caller names (`GET /users/{id}`), null for an anonymous one
   * unless `or: "anonymous"`. Null when there is no such user or key.
   *
   * @example
   * ```ts
   * const me = await app.getUser({ tokenStore: request, or: "throw" });
   * const other = await app.getUser(userId);
   * if (other === null) return new Response("No such user", { status: 404 });
   * await other.setServerMetadata({ ...other.serverMetadata, reviewedBy: me.id });
   * ```
   */
  override async getUser(
    arg?:
      | string
      | (ServerGetUserOptions & CallOptions)
      | ({ readonly apiKey: string } & CallOptions)
      | ({ readonly from: "convex"; readonly ctx: ConvexCtx; readonly or?: "return-null" | "anonymous" } & CallOptions),
    options?: CallOptions,
  ): Promise<CurrentServerUser | ServerUser | VerifiedServerUser | null> {
    // Some answers need no request (nobody signed in, an id that is no UUID); an aborted call still rejects.
    checkAborted(typeof arg === "string" ? options : arg);
    const server = await loadServer();
    if (typeof arg === "string") return server.getUserById(this.serverCtx, arg, options);
    if (typeof arg === "object" && arg !== null && "apiKey" in arg) return server.getUserByApiKey(this.serverCtx, arg.apiKey, arg);
    if (typeof arg === "object" && arg !== null && "from" in arg && arg.from === "convex") {
      const { convexServerUser } = await loadConvex();
      return convexServerUser(arg.ctx, arg.or, (id) => server.getUserById(this.serverCtx, id, arg));
    }
    const given = (arg ?? {}) as ServerGetUserOptions & CallOptions;
    requireOptions(given, "getUser", '{ or?, tokenStore?, verify? }, a user id, { apiKey }, or { from: "convex", ctx }');
    if (given.verify !== undefined) return this.verifiedUser(given);
    return this.currentUser(
      given,
      (answer) => server.asServerUser(answer, "GET /users/me"),
      (ctx, wire) => server.createCurrentServerUser(this.serverCtx, ctx, wire, this.userExtras(ctx)),
    );
  }

  /**
   * Checks an access token locally against the project's published keys
   * (`GET /projects/{id}/.well-known/jwks.json`, fetched once and cached): its
   * signature, expiry, issuer and audience, in 2.8.11's form or today's. Answers its
   * claims, or an AccessTokenInvalidError saying why not, as a Result; no
   * `GET /users/me`. An anonymous or restricted user's token is refused ("audience")
   * unless `allowAnonymous` or `allowRestricted` accepts it.
   * @example
   * ```ts
   * const result = await app.verifyAccessToken(bearerToken);
   * if (result.status === "error") return new Response("Unauthorized", { status: 401 });
   * console.log(result.data.userId, result.data.sessionId);
   * const guest = await app.verifyAccessToken(bearerToken, { allowAnonymous: true });
   * ```
   */
  async verifyAccessToken(
    token: string,
    options?: CallOptions & Pick<VerifyAccessTokenCallOptions, "allowAnonymous" | "allowRestricted">,
  ): Promise<AccessTokenVerification> {
    // A malformed token is refused without a request; an aborted call still rejects.
    checkAborted(options);
    const { verifierOf } = await loadServer();
    const { allowAnonymous, allowRestricted } = options ?? {};
    return verifierOf(this.ctx).verify(token, { ...signalOf(options), allowAnonymous, allowRestricted });
  }

  private async verifiedUser(options: ServerGetUserOptions & CallOptions): Promise<VerifiedServerUser | null> {
    if (options.verify !== "local") {
      throw new StackConfigurationError(`getUser: verify takes "local" only, not ${JSON.stringify(options.verify)}.`);
    }
    const [session, { verifiedUserOf }] = await Promise.all([this.sessionOf(options), loadServer()]);
    return verifiedUserOf(this.ctx, session, options.or, callOf(options));
  }

  /**
   * The request's own user, or null when nobody is signed in: the same as `getUser()`.
   *
   * @deprecated Use getUser().
   *
   * @example
   * ```ts
   * // Before:
   * const old = await app.getServerUser();
   * // Now:
   * const user = await app.getUser();
   * ```
   */
  getServerUser(options?: CallOptions): Promise<CurrentServerUser | null> {
    return this.getUser(callOf(options));
  }

  /**
   * Creates a user (`POST /users`), whether or not sign-up is enabled, and answers it. A primary
   * e-mail another user has is thrown as UserWithEmailAlreadyExists.
   *
   * @example
   * ```ts
   * const user = await app.createUser({
   *   primaryEmail: "ada@example.com",
   *   primaryEmailVerified: true,
   *   password: "correct horse battery staple",
   *   primaryEmailAuthEnabled: true,
   * });
   * ```
   */
  createUser(options: ServerUserCreateOptions & CallOptions): Promise<ServerUser> {
    return loadServer().then((m) => m.createUser(this.serverCtx, options));
  }

  /**
   * One page of the project's users (`GET /users`), filtered and ordered by `options`; its
   * `nextCursor` reads the next page (null on the last page).
   *
   * @example
   * ```ts
   * let page = await app.listUsers({ limit: 100, orderBy: "signedUpAt", desc: true });
   * for (;;) {
   *   for (const user of page) console.log(user.id, user.primaryEmail);
   *   if (page.nextCursor === null) break;
   *   page = await app.listUsers({ limit: 100, orderBy: "signedUpAt", desc: true, cursor: page.nextCursor });
   * }
   * ```
   */
  listUsers(options: ServerListUsersOptions & CallOptions = {}): Promise<ServerUser[] & { nextCursor: string | null }> {
    return loadServer().then((m) => m.listUsers(this.serverCtx, options));
  }

  // TEAMS

  /**
   * Creates a team (`POST /teams`) and answers it; with `creatorUserId`, that user is its first
   * member. Nobody is a member otherwise: add them with `team.addUser`.
   *
   * @example
   * ```ts
   * const team = await app.createTeam({ displayName: "Support", creatorUserId: user.id });
   * await team.addUser(otherUserId);
   * ```
   */
  createTeam(data: ServerTeamCreateOptions & CallOptions): Promise<ServerTeam> {
    return loadServer().then((m) => m.createTeam(this.serverCtx, data));
  }

  /** The team with this id, with one request (`GET /teams/{id}`), or null when there is none. */
  getTeam(teamId: string, options?: CallOptions): Promise<ServerTeam | null>;
  /** The team owning a team API key, or null when the key is not valid (SPEC §4). */
  getTeam(options: { readonly apiKey: string } & CallOptions): Promise<ServerTeam | null>;
  /**
   * A team by its id (`GET /teams/{id}`), or the team owning a team API key (`{ apiKey }`); null when
   * there is no such team, or the key is not valid.
   *
   * @example
   * ```ts
   * const team = await app.getTeam(teamId);
   * if (team === null) return new Response("No such team", { status: 404 });
   * const members = await team.listUsers();
   * console.log(team.displayName, members.length);
   * ```
   */
  getTeam(arg: string | ({ readonly apiKey: string } & CallOptions), options?: CallOptions): Promise<ServerTeam | null> {
    return loadServer().then((m) => m.getTeam(this.serverCtx, arg, options));
  }

  /**
   * The project's teams (`GET /teams`): without options every team, with them one page, searched
   * and sorted, whose `nextCursor` reads the next page (null on the last page, and for the whole
   * list). The options are the hosted service's since 2.8.102: a 2.8.86 or 2.8.11 service refuses
   * them, and the call rejects with a `ServiceVersionError` (nothing is sent again without them).
   *
   * @example
   * ```ts
   * const teams = await app.listTeams();
   * for (const team of teams) {
   *   console.log(team.id, team.displayName, team.createdAt.toISOString());
   * }
   * const newest = await app.listTeams({ limit: 10, orderBy: "createdAt", desc: true });
   * const next = newest.nextCursor === null ? [] : await app.listTeams({ limit: 10, orderBy: "createdAt", desc: true, cursor: newest.nextCursor });
   * ```
   */
  listTeams(options?: ServerListTeamsOptions & CallOptions): Promise<ServerTeam[] & { nextCursor: string | null }> {
    return loadServer().then((m) => m.listTeams(this.serverCtx, options));
  }

  // INTERNALS

  /** How many per-call sessions (`getUser({ tokenStore })`) are cached; never more than the limit. */
  protected get cachedSessionCount(): number {
    return this.sessionContexts?.size ?? 0;
  }
}
