// The project's teams, or a user's, as server code lists them (GET /teams): one page at a
// time, searched and sorted, as the hosted service answers since 2.8.102 (the newest
// official SDK's ServerListTeamsOptions), or all at once, as every service answers without
// options. 2.8.86 and 2.8.11 refuse the paging parameters as unknown; the call says so with
// a ServiceVersionError rather than sending them again without: a page that silently held
// every team would break the app's paging.
//
// The caller makes the team objects (`teamOf`): a server user's teams are listed here too, and
// the team objects list their users, so this module stays out of that circle.
import type { components } from "../../../generated/schema.js";
import { requireOptions, signalOf, type CallOptions } from "../call-options.js";
import { StackConfigurationError } from "../../errors.js";
import { ServiceVersionError } from "../../http/request-errors.js";
import { itemsOf, schemaProblems } from "../wire.js";
import type { ServerAppContext } from "./context.js";

type WireTeam = components["schemas"]["ServerTeam"] | components["schemas"]["ClientTeam"];

/**
 * Which page of teams `listTeams` reads (`GET /teams`): a cursor, a page size, a search and an
 * order. Services since 2.8.102 take them; 2.8.86 and 2.8.11 list every team at once and refuse
 * each of them, which the call rejects with a `ServiceVersionError` (leave them all out there).
 *
 * @example
 * ```ts
 * const options: ServerListTeamsOptions = { query: "acme", limit: 20, orderBy: "createdAt", desc: true };
 * const teams = await app.listTeams(options);
 * const more = teams.nextCursor === null ? [] : await app.listTeams({ ...options, cursor: teams.nextCursor });
 * ```
 */
export interface ServerListTeamsOptions {
  /** The `nextCursor` of the previous page; default the first page. */
  readonly cursor?: string;
  /** The most teams the page holds; default the service's page size. */
  readonly limit?: number;
  /** The order of the teams: `"createdAt"`, the only one; default the service's order. */
  readonly orderBy?: "createdAt";
  /** Sorts in descending order (newest first with `orderBy: "createdAt"`); default false. */
  readonly desc?: boolean;
  /** Free-text search, matched against a team's id (the exact UUID) and its display name. */
  readonly query?: string;
}

/** The query names of the options, in the order they are sent, and the option each stands for. */
const OPTION_OF: Readonly<Record<string, string>> = { cursor: "cursor", limit: "limit", order_by: "orderBy", desc: "desc", query: "query" };
const UNKNOWN = /^- query contains unknown properties: (.+)$/;

/**
 * One page of the teams of the project (`userId` undefined) or of a user, each made by `teamOf`,
 * with `nextCursor` (null on the last page, and for an answer that is not paged). `method` names
 * the call in errors.
 */
export async function listTeamPage<Team>(
  ctx: ServerAppContext,
  userId: string | undefined,
  options: (ServerListTeamsOptions & CallOptions) | undefined,
  method: string,
  teamOf: (wire: WireTeam) => Team,
): Promise<Team[] & { nextCursor: string | null }> {
  const o = options ?? {};
  requireOptions(o, method, '{ cursor?, limit?, orderBy?: "createdAt", desc?, query? }');
  if (o.orderBy !== undefined && o.orderBy !== "createdAt") {
    throw new StackConfigurationError(`${method} can order by "createdAt" only, not ${JSON.stringify(o.orderBy)}.`);
  }
  const paging = {
    ...(o.cursor !== undefined && { cursor: o.cursor }),
    ...(o.limit !== undefined && { limit: o.limit }),
    ...(o.orderBy !== undefined && { order_by: "created_at" as const }),
    ...(o.desc !== undefined && { desc: o.desc ? ("true" as const) : ("false" as const) }),
    ...(o.query !== undefined && { query: o.query }),
  };
  let data;
  try {
    ({ data } = await ctx.client.send("GET /teams", {
      params: { query: { ...(userId !== undefined && { user_id: userId }), ...paging } },
      ...signalOf(o),
    }));
  } catch (error) {
    const refused = refusedOptions(error, Object.keys(paging));
    if (refused.length > 0) {
      throw new ServiceVersionError(
        method,
        "2.8.86",
        `it lists every team at once, without pages, search or order, and refused ${refused.join(", ")} (these options came with 2.8.102)`,
        "leave cursor, limit, query, orderBy and desc out: the call then answers every team (nextCursor null), to page, search and sort in the app",
      );
    }
    throw error;
  }
  const teams = itemsOf(data, "GET /teams").map(teamOf);
  return Object.assign(teams, { nextCursor: data?.pagination?.next_cursor ?? null });
}

/**
 * The options among `sent` (query names) that `error` refuses as unknown query properties, as
 * the app names them: how 2.8.86 and 2.8.11 answer the paging parameters (a SCHEMA_ERROR
 * "query contains unknown properties: limit, cursor"). None for any other error.
 */
function refusedOptions(error: unknown, sent: readonly string[]): string[] {
  for (const line of schemaProblems(error) ?? []) {
    const names = UNKNOWN.exec(line)?.[1]?.split(", ") ?? [];
    const refused = sent.filter((name) => names.includes(name));
    if (refused.length > 0) return refused.map((name) => OPTION_OF[name] ?? name);
  }
  return [];
}
