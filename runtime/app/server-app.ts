// StackServerApp: the server half of the product (SPEC §1, §6, §7) with the
// reference SDK's public API. It is a client app whose every request carries
// the secret server key and access type "server"; users and teams come back as
// server objects. Server objects act by id on a runtime client without user
// tokens; the request's own user (getUser()) also gets its session.
import { isKnownError } from "../../generated/known-error-guard.js";
import { createStackClient, type StackClientOptions } from "../client.js";
import { StackConfigurationError } from "../errors.js";
import type { TokenStoreInit } from "../tokens/resolve.js";
import { orOf, StackClientApp, type GetUserOptions, type RuntimeClientSettings } from "./client-app.js";
import { callOf, checkAborted, signalOf, type CallOptions } from "./call-options.js";
import { registerPasskey } from "./flows/passkey.js";
import { checkApiKey } from "./objects/api-key.js";
import { answered } from "./wire.js";
import { isUuid, itemsOf, requireOptions } from "./server/common.js";
import { createServerContext, type ServerAppContext, type WireServerUser } from "./server/context.js";
import { createCurrentServerUser, type CurrentServerUser } from "./server/current-user.js";
import { resolveServerAppOptions, type StackServerAppOptions } from "./server/inherit.js";
import { asServerTeam, serverTeamCreateToWire, type ServerTeam, type ServerTeamCreateOptions } from "./server/server-team.js";
import { asServerUser, type ServerUser } from "./server/server-user.js";
import { signedInUserWire, type SessionContext } from "./session-contexts.js";
import { serverUserCreateToWire, type ServerUserCreateOptions } from "./server/user-options.js";

export type { StackServerAppOptions } from "./server/inherit.js";

export interface ServerGetUserOptions extends GetUserOptions {
  /** The user's tokens for this call: a request of your backend, `{ accessToken, refreshToken }`, or a store. Default: the app's. */
  readonly tokenStore?: TokenStoreInit;
}

export interface ServerListUsersOptions {
  /** The `nextCursor` of the previous page. */
  readonly cursor?: string;
  readonly limit?: number;
  readonly orderBy?: "signedUpAt";
  readonly desc?: boolean;
  /** Free-text search over the users. */
  readonly query?: string;
  /** Only the members of this team (`team_id`). */
  readonly teamId?: string;
}

export class StackServerApp extends StackClientApp {
  /** The context of server objects: the app's, on a runtime client without user tokens. */
  protected readonly serverCtx: ServerAppContext;

  constructor(options: StackServerAppOptions, settings: RuntimeClientSettings = {}) {
    const resolved = resolveServerAppOptions(options);
    const runtimeSettings: RuntimeClientSettings = {
      accessType: "server",
      ...(resolved.secretServerKey !== undefined && { secretServerKey: resolved.secretServerKey }),
      ...settings,
    };
    if (
      runtimeSettings.accessType === "server" &&
      (typeof runtimeSettings.secretServerKey !== "string" || runtimeSettings.secretServerKey === "")
    ) {
      throw new StackConfigurationError(
        "StackServerApp needs secretServerKey: the secret server key of your project (Stack Auth dashboard → Project Keys). Keep it on the server.",
      );
    }
    super(resolved, runtimeSettings);
    const runtime: Omit<StackClientOptions, "tokenStore"> = {
      projectId: this.projectId,
      baseUrl: this.ctx.baseUrl,
      environment: this.runtime.env,
      requestTimeoutMs: this.runtime.policy.requestTimeoutMs,
      maxRetryAfterMs: this.runtime.policy.maxRetryAfterMs,
      ...(this.runtime.policy.hooks.onRequest && { onRequest: this.runtime.policy.hooks.onRequest }),
      ...(this.runtime.policy.hooks.onRetry && { onRetry: this.runtime.policy.hooks.onRetry }),
      ...(this.ctx.publishableClientKey !== undefined && { publishableClientKey: this.ctx.publishableClientKey }),
      ...(resolved.extraRequestHeaders !== undefined && { extraRequestHeaders: resolved.extraRequestHeaders }),
      ...runtimeSettings,
    };
    this.serverCtx = createServerContext(this.ctx, createStackClient({ ...runtime, tokenStore: null }));
  }

  // USERS

  /** The request's user (the app's token store, or `tokenStore`), with `or` as on the client. */
  override getUser(
    options: ServerGetUserOptions & CallOptions & { readonly or: "redirect" | "throw" | "anonymous" },
  ): Promise<CurrentServerUser>;
  override getUser(options?: ServerGetUserOptions & CallOptions): Promise<CurrentServerUser | null>;
  /** The user with this id (`GET /users/{id}`), or null when there is none. */
  override getUser(id: string, options?: CallOptions): Promise<ServerUser | null>;
  /** The owner of a user API key, or null when the key is not valid (SPEC §4). */
  override getUser(options: { readonly apiKey: string } & CallOptions): Promise<ServerUser | null>;
  override async getUser(
    arg?: string | (ServerGetUserOptions & CallOptions) | ({ readonly apiKey: string } & CallOptions),
    options?: CallOptions,
  ): Promise<CurrentServerUser | ServerUser | null> {
    // Some answers need no request (nobody signed in, an id that is no UUID); an aborted call still rejects.
    checkAborted(typeof arg === "string" ? options : arg);
    if (typeof arg === "string") return this.#userById(arg, options);
    if (typeof arg === "object" && arg !== null && "apiKey" in arg) return this.#userByApiKey(arg.apiKey, arg);
    return this.#currentUser(arg ?? {});
  }

  /** @deprecated Use getUser(). */
  getServerUser(options?: CallOptions): Promise<CurrentServerUser | null> {
    return this.getUser(callOf(options));
  }

  /** Creates a user (`POST /users`), whether or not sign-up is enabled. */
  async createUser(options: ServerUserCreateOptions & CallOptions): Promise<ServerUser> {
    const { data } = await this.serverCtx.client.api.POST("/users", { body: serverUserCreateToWire(options), ...signalOf(options) });
    return this.serverCtx.objects.user(asServerUser(answered(data, "POST /users"), "POST /users"));
  }

  /** One page of users; `nextCursor` reads the next (null on the last page). */
  async listUsers(options: ServerListUsersOptions & CallOptions = {}): Promise<ServerUser[] & { nextCursor: string | null }> {
    requireOptions(options, "listUsers", '{ cursor?, limit?, orderBy?: "signedUpAt", desc?, query?, teamId? }');
    if (options.orderBy !== undefined && options.orderBy !== "signedUpAt") {
      throw new StackConfigurationError(`listUsers can order by "signedUpAt" only, not ${JSON.stringify(options.orderBy)}.`);
    }
    const query = {
      ...(options.cursor !== undefined && { cursor: options.cursor }),
      ...(options.limit !== undefined && { limit: options.limit }),
      ...(options.orderBy !== undefined && { order_by: "signed_up_at" as const }),
      ...(options.desc !== undefined && { desc: options.desc ? ("true" as const) : ("false" as const) }),
      ...(options.query !== undefined && { query: options.query }),
      ...(options.teamId !== undefined && { team_id: options.teamId }),
    };
    const { data } = await this.serverCtx.client.api.GET("/users", { params: { query }, ...signalOf(options) });
    const users = itemsOf(data, "GET /users").map((wire) => this.serverCtx.objects.user(asServerUser(wire, "GET /users")));
    return Object.assign(users, { nextCursor: data?.pagination?.next_cursor ?? null });
  }

  // TEAMS

  async createTeam(data: ServerTeamCreateOptions & CallOptions): Promise<ServerTeam> {
    const created = await this.serverCtx.client.api.POST("/teams", { body: serverTeamCreateToWire(data), ...signalOf(data) });
    return this.serverCtx.objects.team(asServerTeam(answered(created.data, "POST /teams"), "POST /teams"));
  }

  /** The team with this id, with one request (`GET /teams/{id}`), or null when there is none. */
  getTeam(teamId: string, options?: CallOptions): Promise<ServerTeam | null>;
  /** The team owning a team API key, or null when the key is not valid (SPEC §4). */
  getTeam(options: { readonly apiKey: string } & CallOptions): Promise<ServerTeam | null>;
  async getTeam(arg: string | ({ readonly apiKey: string } & CallOptions), options?: CallOptions): Promise<ServerTeam | null> {
    checkAborted(typeof arg === "string" ? options : arg);
    if (typeof arg === "object" && arg !== null && "apiKey" in arg) {
      const call = callOf(arg);
      const key = await checkApiKey(this.serverCtx, arg.apiKey, { type: "team", ...call });
      return key !== null && key.type === "team" && key.isValid() ? this.getTeam(key.teamId, call) : null;
    }
    if (typeof arg !== "string") throw new StackConfigurationError("getTeam needs a team id, or { apiKey } for a team API key.");
    if (!isUuid(arg)) return null;
    try {
      const { data } = await this.serverCtx.client.api.GET("/teams/{team_id}", {
        params: { path: { team_id: arg } },
        ...signalOf(options),
      });
      return this.serverCtx.objects.team(asServerTeam(answered(data, "GET /teams/{team_id}"), "GET /teams/{team_id}"));
    } catch (error) {
      if (isKnownError(error, "TEAM_NOT_FOUND")) return null;
      throw error;
    }
  }

  /** Every team of the project. */
  async listTeams(options?: CallOptions): Promise<ServerTeam[]> {
    const { data } = await this.serverCtx.client.api.GET("/teams", signalOf(options));
    return itemsOf(data, "GET /teams").map((team) => this.serverCtx.objects.team(asServerTeam(team, "GET /teams")));
  }

  // INTERNALS

  /** How many per-call sessions (`getUser({ tokenStore })`) are cached; never more than the limit. */
  protected get cachedSessionCount(): number {
    return this.sessionContexts.size;
  }

  async #userById(userId: string, call: CallOptions | undefined): Promise<ServerUser | null> {
    if (!isUuid(userId)) return null;
    try {
      const { data } = await this.serverCtx.client.api.GET("/users/{user_id}", {
        params: { path: { user_id: userId } },
        ...signalOf(call),
      });
      return this.serverCtx.objects.user(asServerUser(answered(data, "GET /users/{user_id}"), "GET /users/{user_id}"));
    } catch (error) {
      if (isKnownError(error, "USER_NOT_FOUND")) return null;
      throw error;
    }
  }

  async #userByApiKey(apiKey: string, options: CallOptions): Promise<ServerUser | null> {
    const call = callOf(options);
    const key = await checkApiKey(this.serverCtx, apiKey, { type: "user", ...call });
    // The service refuses keys that are revoked or expired; the local rule is a second check.
    return key !== null && key.type === "user" && key.isValid() ? this.#userById(key.userId, call) : null;
  }

  async #currentUser(options: ServerGetUserOptions & CallOptions): Promise<CurrentServerUser | null> {
    requireOptions(options, "getUser", "{ or?, tokenStore? }, a user id, or { apiKey }");
    const session = this.sessionOf(options);
    const or = orOf(options);
    const call = callOf(options);
    const wire = await signedInUserWire(session, or, (answer) => asServerUser(answer, "GET /users/me"), call);
    if (wire !== null) return this.#currentUserFrom(session, wire);
    return this.signedOutUser(or, call);
  }

  #currentUserFrom(session: SessionContext, wire: WireServerUser): CurrentServerUser {
    const ctx = session.ctx;
    return createCurrentServerUser(this.serverCtx, ctx, wire, {
      signOut: (options) => this.signOutOf(session, options),
      registerPasskey: (options) => registerPasskey(ctx, options ?? {}),
    });
  }
}
