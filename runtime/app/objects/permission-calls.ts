// The calls behind permissions (SPEC §6). Lists are recursive unless asked
// otherwise: a permission that contains others grants those too.
import { signalOf } from "../../core.js";
import type { ClientAppContext } from "../context.js";
import { assertAnswered } from "../wire.js";
import type { PermissionListOptions, PermissionScope, TeamPermission, UserPermissionMethods } from "./permission.js";

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
