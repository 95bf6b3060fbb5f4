// What StackServerApp does, as functions of its server context (a client with
// the secret server key and no user tokens). Loaded with the app's first server
// call, so that a client app's bundle does not carry it.
import { isKnownError } from "../../../generated/known-error-guard.js";
import { callOf, checkAborted, requireOptions, signalOf, type CallOptions } from "../call-options.js";
import { StackConfigurationError } from "../../errors.js";
import { ServiceVersionError } from "../../http/request-errors.js";
import { checkApiKey } from "./api-key-check.js";
import { answered, isUuid, itemsOf, schemaProblems } from "../wire.js";
import type { ServerAppContext } from "./context.js";
import {
  asServerTeam,
  createServerTeamObject,
  serverTeamCreateToWire,
  type ServerTeam,
  type ServerTeamCreateOptions,
} from "./server-team.js";
import { asServerUser, createServerUser, type ServerUser } from "./server-user.js";
import { listTeamPage, type ServerListTeamsOptions } from "./team-listing.js";
import { serverUserCreateToWire, type ServerUserCreateOptions } from "./user-options.js";

export { createCurrentServerUser } from "./current-user.js";
export { asServerUser } from "./server-user.js";
// Local verification (getUser({ verify: "local" }), verifyAccessToken) is a server
// method like the others; the verifier loads jose's checks with its first verify().
export { verifiedUserOf, verifierOf } from "./verified-user.js";

/**
 * Which page of users `listUsers` reads (`GET /users`): a cursor, a page size, an order and filters.
 *
 * @example
 * ```ts
 * const options: ServerListUsersOptions = { teamId: team.id, query: "ada", limit: 20, orderBy: "signedUpAt", desc: true };
 * const users = await app.listUsers(options);
 * const more = users.nextCursor === null ? [] : await app.listUsers({ ...options, cursor: users.nextCursor });
 * ```
 */
export interface ServerListUsersOptions {
  /** The `nextCursor` of the previous page; default the first page. */
  readonly cursor?: string;
  /** The most users the page holds; default the service's page size. */
  readonly limit?: number;
  /**
   * The order of the users: by when they signed up (`"signedUpAt"`), or by when they were last
   * active (`"lastActiveAt"`, the hosted service's since 2.8.102: a 2.8.86 or 2.8.11 service
   * refuses it, and the call rejects with a `ServiceVersionError`); default the service's order.
   */
  readonly orderBy?: "signedUpAt" | "lastActiveAt";
  /** Sorts in descending order (newest first with `orderBy: "signedUpAt"`); default false. */
  readonly desc?: boolean;
  /** Free-text search over the users. */
  readonly query?: string;
  /** Only the members of this team (`team_id`). */
  readonly teamId?: string;
  /** Anonymous users too (default false: they are left out, on every service version). */
  readonly includeAnonymous?: boolean;
  /**
   * Restricted users too, even where the service leaves them out by default (2.8.86 does for a
   * project that requires verified e-mails). 2.8.11 has no restricted users beyond anonymous ones.
   */
  readonly includeRestricted?: boolean;
  /** Anonymous users only (`only_anonymous`); needs `includeAnonymous: true`, as the service does. */
  readonly onlyAnonymous?: boolean;
}

/** The wire's name of a user order (undefined for none, and for what is no order). */
function userOrderOf(orderBy: unknown): "signed_up_at" | "last_active_at" | undefined {
  if (orderBy === "signedUpAt") return "signed_up_at";
  if (orderBy === "lastActiveAt") return "last_active_at";
  return undefined;
}

/** Whether `error` is a service's refusal of the order asked (2.8.86 and 2.8.11 order by signed_up_at only). */
function isOrderRefused(error: unknown): boolean {
  return (schemaProblems(error) ?? []).some((line) => line.startsWith("- query.order_by must be one of the following values:"));
}

function lastActiveAtRefused(): ServiceVersionError {
  return new ServiceVersionError(
    "StackServerApp.listUsers",
    "2.8.86",
    'it orders users by when they signed up only, and refused order_by=last_active_at (orderBy: "lastActiveAt" came with 2.8.102)',
    'orderBy: "signedUpAt", or no orderBy; to find the users active last, read the pages and sort them by lastActiveAt',
  );
}

/** The user with this id (`GET /users/{id}`), or null when there is none. */
export async function getUserById(ctx: ServerAppContext, userId: string, call: CallOptions | undefined): Promise<ServerUser | null> {
  if (!isUuid(userId)) return null;
  try {
    const { data } = await ctx.client.send("GET /users/{user_id}", { params: { path: { user_id: userId } }, ...signalOf(call) });
    return createServerUser(ctx, asServerUser(answered(data, "GET /users/{user_id}"), "GET /users/{user_id}"));
  } catch (error) {
    if (isKnownError(error, "USER_NOT_FOUND")) return null;
    throw error;
  }
}

/** The owner of a user API key, or null when the key is not valid (SPEC §4). */
export async function getUserByApiKey(ctx: ServerAppContext, apiKey: string, options: CallOptions): Promise<ServerUser | null> {
  const call = callOf(options);
  const key = await checkApiKey(ctx, apiKey, { type: "user", ...call });
  // The service refuses keys that are revoked or expired; the local rule is a second check.
  return key !== null && key.type === "user" && key.isValid() ? getUserById(ctx, key.userId, call) : null;
}

/** Creates a user (`POST /users`), whether or not sign-up is enabled. */
export async function createUser(ctx: ServerAppContext, options: ServerUserCreateOptions & CallOptions): Promise<ServerUser> {
  const { data } = await ctx.client.send("POST /users", { body: serverUserCreateToWire(options), ...signalOf(options) });
  return createServerUser(ctx, asServerUser(answered(data, "POST /users"), "POST /users"));
}

/** One page of users; `nextCursor` reads the next (null on the last page). */
export async function listUsers(
  ctx: ServerAppContext,
  options: ServerListUsersOptions & CallOptions,
): Promise<ServerUser[] & { nextCursor: string | null }> {
  requireOptions(
    options,
    "listUsers",
    '{ cursor?, limit?, orderBy?: "signedUpAt" | "lastActiveAt", desc?, query?, teamId?, includeAnonymous?, includeRestricted?, onlyAnonymous? }',
  );
  if (options.onlyAnonymous === true && options.includeAnonymous !== true) {
    throw new StackConfigurationError("listUsers takes onlyAnonymous: true only with includeAnonymous: true.");
  }
  const orderBy = userOrderOf(options.orderBy);
  if (options.orderBy !== undefined && orderBy === undefined) {
    throw new StackConfigurationError(
      `listUsers can order by "signedUpAt" or "lastActiveAt" only, not ${JSON.stringify(options.orderBy)}.`,
    );
  }
  const query = {
    ...(options.cursor !== undefined && { cursor: options.cursor }),
    ...(options.limit !== undefined && { limit: options.limit }),
    ...(orderBy !== undefined && { order_by: orderBy }),
    ...(options.desc !== undefined && { desc: options.desc ? ("true" as const) : ("false" as const) }),
    ...(options.query !== undefined && { query: options.query }),
    ...(options.teamId !== undefined && { team_id: options.teamId }),
  };
  // Asked for only when wanted: 2.8.11 refuses query parameters it does not know (and lists
  // anonymous users anyway), 2.8.86 leaves them out unless asked.
  const flags = {
    ...(options.includeAnonymous === true && { include_anonymous: "true" as const }),
    ...(options.includeRestricted === true && { include_restricted: "true" as const }),
    ...(options.onlyAnonymous === true && { only_anonymous: "true" as const }),
  };
  const list = (withFlags: boolean) =>
    ctx.client.send("GET /users", { params: { query: withFlags ? { ...query, ...flags } : query }, ...signalOf(options) });
  let data;
  try {
    ({ data } = await list(true));
  } catch (error) {
    // The service lists every problem at once: an order it refuses is refused here, with or without the flags.
    if (orderBy === "last_active_at" && isOrderRefused(error)) throw lastActiveAtRefused();
    // A service without the flags (2.8.11): it has no restricted users, and lists anonymous ones.
    if (!isKnownError(error, "SCHEMA_ERROR") || Object.keys(flags).length === 0) throw error;
    ({ data } = await list(false));
  }
  const users = itemsOf(data, "GET /users")
    .map((wire) => asServerUser(wire, "GET /users"))
    // 2.8.11 lists anonymous users whatever was asked; they are left out here as 2.8.86 leaves them out.
    .filter((wire) => (options.onlyAnonymous === true ? wire.is_anonymous : options.includeAnonymous === true || !wire.is_anonymous))
    .map((wire) => createServerUser(ctx, wire));
  return Object.assign(users, { nextCursor: data?.pagination?.next_cursor ?? null });
}

export async function createTeam(ctx: ServerAppContext, data: ServerTeamCreateOptions & CallOptions): Promise<ServerTeam> {
  const created = await ctx.client.send("POST /teams", { body: serverTeamCreateToWire(data), ...signalOf(data) });
  return createServerTeamObject(ctx, asServerTeam(answered(created.data, "POST /teams"), "POST /teams"));
}

/** The team with this id (`GET /teams/{id}`), or the team owning a team API key; null when there is none. */
export async function getTeam(
  ctx: ServerAppContext,
  arg: string | ({ readonly apiKey: string } & CallOptions),
  options?: CallOptions,
): Promise<ServerTeam | null> {
  checkAborted(typeof arg === "string" ? options : arg);
  if (typeof arg === "object" && arg !== null && "apiKey" in arg) {
    const call = callOf(arg);
    const key = await checkApiKey(ctx, arg.apiKey, { type: "team", ...call });
    return key !== null && key.type === "team" && key.isValid() ? getTeam(ctx, key.teamId, call) : null;
  }
  if (typeof arg !== "string") throw new StackConfigurationError("getTeam needs a team id, or { apiKey } for a team API key.");
  if (!isUuid(arg)) return null;
  try {
    const { data } = await ctx.client.send("GET /teams/{team_id}", { params: { path: { team_id: arg } }, ...signalOf(options) });
    return createServerTeamObject(ctx, asServerTeam(answered(data, "GET /teams/{team_id}"), "GET /teams/{team_id}"));
  } catch (error) {
    if (isKnownError(error, "TEAM_NOT_FOUND")) return null;
    throw error;
  }
}

/** The project's teams: all of them, or a page of them (`options`, services since 2.8.102). */
export function listTeams(
  ctx: ServerAppContext,
  options: (ServerListTeamsOptions & CallOptions) | undefined,
): Promise<ServerTeam[] & { nextCursor: string | null }> {
  return listTeamPage(ctx, undefined, options, "StackServerApp.listTeams", (team) =>
    createServerTeamObject(ctx, asServerTeam(team, "GET /teams")),
  );
}
