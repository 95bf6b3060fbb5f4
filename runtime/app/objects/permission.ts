// The signed-in user's permissions (SPEC §6): in a team, or at project level
// when no team is given. Lists are recursive unless asked otherwise: a
// permission that contains others grants those too.
import { signalOf, type CallOptions } from "../call-options.js";
import type { ClientAppContext } from "../context.js";
import { assertAnswered } from "../wire.js";

/** A permission the user holds; only its id (SPEC §3). The reference names it TeamPermission at both levels. */
export interface TeamPermission {
  readonly id: string;
}

/** What a permission can be scoped to: a team (any object with the team's id). */
export interface PermissionScope {
  readonly id: string;
}

/**
 * How permissions are read: recursively or not, and the call's signal.
 *
 * @example
 * ```ts
 * const options: PermissionListOptions = { recursive: false };
 * // Only the permissions granted directly in the team, not those they contain.
 * const direct = await user.listPermissions(team, options);
 * ```
 */
export interface PermissionListOptions extends CallOptions {
  /** Include the permissions contained in granted ones. Default true. */
  readonly recursive?: boolean;
}

export interface UserPermissionMethods {
  /**
   * The permissions the user holds in the team `scope` (`GET /team-permissions`), by default
   * with the permissions they contain.
   *
   * @example
   * ```ts
   * const team = await user.getTeam(teamId);
   * if (team !== null) {
   *   const permissions = await user.listPermissions(team);
   *   console.log(permissions.map((permission) => permission.id));
   * }
   * ```
   */
  listPermissions(scope: PermissionScope, options?: PermissionListOptions): Promise<TeamPermission[]>;
  /**
   * The project-level permissions the user holds (`GET /project-permissions`), by default with
   * the permissions they contain.
   *
   * @example
   * ```ts
   * const user = await app.getUser({ or: "throw" });
   * const permissions = await user.listPermissions();
   * console.log(permissions.map((permission) => permission.id));
   * ```
   */
  listPermissions(options?: PermissionListOptions): Promise<TeamPermission[]>;
  /**
   * The permission `permissionId` if the user holds it in the team `scope`, else null.
   * It reads the user's team permissions (`GET /team-permissions`) and picks that one.
   *
   * @example
   * ```ts
   * const permission = await user.getPermission(team, "$update_team");
   * if (permission !== null) {
   *   await team.update({ displayName: "Platform" });
   * }
   * ```
   */
  getPermission(scope: PermissionScope, permissionId: string, options?: PermissionListOptions): Promise<TeamPermission | null>;
  /**
   * The project-level permission `permissionId` if the user holds it, else null
   * (read from `GET /project-permissions`).
   *
   * @example
   * ```ts
   * const permission = await user.getPermission("view_reports");
   * console.log(permission === null ? "no access" : `holds ${permission.id}`);
   * ```
   */
  getPermission(permissionId: string, options?: PermissionListOptions): Promise<TeamPermission | null>;
  /**
   * Whether the user holds the permission `permissionId` in the team `scope`, directly or
   * contained in another one unless `recursive: false`.
   *
   * @example
   * ```ts
   * if (await user.hasPermission(team, "$invite_members")) {
   *   await team.inviteUser({ email: "grace@example.com" });
   * }
   * ```
   */
  hasPermission(scope: PermissionScope, permissionId: string, options?: PermissionListOptions): Promise<boolean>;
  /**
   * Whether the user holds the project-level permission `permissionId`, directly or contained
   * in another one unless `recursive: false`.
   *
   * @example
   * ```ts
   * const user = await app.getUser({ or: "throw" });
   * if (!(await user.hasPermission("view_reports"))) {
   *   throw new Error("Forbidden");
   * }
   * ```
   */
  hasPermission(permissionId: string, options?: PermissionListOptions): Promise<boolean>;
}

/** Tells a team scope from list options: a scope has a string id. */
function isScope(value: PermissionScope | PermissionListOptions | undefined): value is PermissionScope {
  return typeof value === "object" && value !== null && typeof (value as { id?: unknown }).id === "string";
}

/** The permission methods of a user: `me` for the signed-in user; server code passes a user id. */
export function userPermissionMethods(ctx: ClientAppContext, userId = "me"): UserPermissionMethods {
  async function list(scope: PermissionScope | null, options: PermissionListOptions = {}): Promise<TeamPermission[]> {
    const recursive = options.recursive === false ? "false" : "true";
    const { data } = scope
      ? await ctx.client.send("GET /team-permissions", {
          params: { query: { team_id: scope.id, user_id: userId, recursive } },
          ...signalOf(options),
        })
      : await ctx.client.send("GET /project-permissions", { params: { query: { user_id: userId, recursive } }, ...signalOf(options) });
    assertAnswered(data, `GET /${scope ? "team" : "project"}-permissions`);
    return data.items.map((item) => ({ id: item.id }));
  }

  async function find(
    scope: PermissionScope | null,
    permissionId: string | undefined,
    options: PermissionListOptions | undefined,
  ): Promise<TeamPermission | null> {
    const permissions = await list(scope, options);
    return permissions.find((p) => p.id === permissionId) ?? null;
  }

  function listPermissions(scope: PermissionScope, options?: PermissionListOptions): Promise<TeamPermission[]>;
  function listPermissions(options?: PermissionListOptions): Promise<TeamPermission[]>;
  function listPermissions(first?: PermissionScope | PermissionListOptions, second?: PermissionListOptions) {
    return isScope(first) ? list(first, second) : list(null, first);
  }

  // With a scope the options come third; without one, second.
  function getPermission(scope: PermissionScope, permissionId: string, options?: PermissionListOptions): Promise<TeamPermission | null>;
  function getPermission(permissionId: string, options?: PermissionListOptions): Promise<TeamPermission | null>;
  function getPermission(first: PermissionScope | string, second?: string | PermissionListOptions, third?: PermissionListOptions) {
    return typeof first === "string"
      ? find(null, first, second as PermissionListOptions | undefined)
      : find(first, second as string, third);
  }

  function hasPermission(scope: PermissionScope, permissionId: string, options?: PermissionListOptions): Promise<boolean>;
  function hasPermission(permissionId: string, options?: PermissionListOptions): Promise<boolean>;
  async function hasPermission(first: PermissionScope | string, second?: string | PermissionListOptions, third?: PermissionListOptions) {
    return (await getPermission(first as PermissionScope, second as string, third)) !== null;
  }

  return { listPermissions, getPermission, hasPermission };
}
