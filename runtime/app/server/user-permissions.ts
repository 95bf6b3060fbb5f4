// A server user's permissions (SPEC §6; endpoints.md §C): listed, checked,
// granted and revoked, in a team (any object with the team's id) or at project
// level when no team is given. Lists are recursive unless asked otherwise.
import type { PermissionListOptions, PermissionScope, TeamPermission, UserPermissionMethods } from "../objects/permission.js";
import { itemsOf, segment, teamIdOf } from "./common.js";
import type { ServerAppContext } from "./context.js";

export interface ServerUserPermissionMethods extends UserPermissionMethods {
  /** Grants a team permission (`POST /team-permissions/{team}/{user}/{permission}`). */
  grantPermission(scope: PermissionScope, permissionId: string): Promise<void>;
  /** Grants a project permission (`POST /project-permissions/{user}/{permission}`). */
  grantPermission(permissionId: string): Promise<void>;
  revokePermission(scope: PermissionScope, permissionId: string): Promise<void>;
  revokePermission(permissionId: string): Promise<void>;
}

/** A team scope is an object; a project permission is named by its id alone. */
type Target = { readonly teamId: string | null; readonly permissionId: string };

function targetOf(method: string, first: unknown, second: unknown): Target {
  if (typeof first === "string") return { teamId: null, permissionId: segment(first, method, "the permission id") };
  return { teamId: teamIdOf(first, method), permissionId: segment(second, method, "the permission id") };
}

export function serverUserPermissionMethods(ctx: ServerAppContext, userId: string): ServerUserPermissionMethods {
  async function list(scope: PermissionScope | null, options: PermissionListOptions | undefined): Promise<TeamPermission[]> {
    const recursive = options?.recursive === false ? "false" : "true";
    if (scope) {
      const query = { team_id: teamIdOf(scope, "user.listPermissions"), user_id: userId, recursive } as const;
      const { data } = await ctx.client.api.GET("/team-permissions", { params: { query } });
      return itemsOf(data, "GET /team-permissions").map((p) => ({ id: p.id }));
    }
    const { data } = await ctx.client.api.GET("/project-permissions", { params: { query: { user_id: userId, recursive } } });
    return itemsOf(data, "GET /project-permissions").map((p) => ({ id: p.id }));
  }

  async function find(target: { teamId: string | null; permissionId: unknown }): Promise<TeamPermission | null> {
    const permissions = await list(target.teamId === null ? null : { id: target.teamId }, undefined);
    return permissions.find((p) => p.id === target.permissionId) ?? null;
  }

  /** A scope has a string id; anything else given first is list options. */
  const isScope = (value: unknown): value is PermissionScope =>
    typeof value === "object" && value !== null && typeof (value as { id?: unknown }).id === "string";
  const lookup = (first: unknown, second: unknown) =>
    typeof first === "string" ? { teamId: null, permissionId: first } : { teamId: teamIdOf(first, "user.getPermission"), permissionId: second };

  function listPermissions(scope: PermissionScope, options?: PermissionListOptions): Promise<TeamPermission[]>;
  function listPermissions(options?: PermissionListOptions): Promise<TeamPermission[]>;
  function listPermissions(first?: PermissionScope | PermissionListOptions, second?: PermissionListOptions) {
    return isScope(first) ? list(first, second) : list(null, first);
  }

  function getPermission(scope: PermissionScope, permissionId: string): Promise<TeamPermission | null>;
  function getPermission(permissionId: string): Promise<TeamPermission | null>;
  function getPermission(first: PermissionScope | string, second?: string) {
    return find(lookup(first, second));
  }

  function hasPermission(scope: PermissionScope, permissionId: string): Promise<boolean>;
  function hasPermission(permissionId: string): Promise<boolean>;
  async function hasPermission(first: PermissionScope | string, second?: string) {
    return (await find(lookup(first, second))) !== null;
  }

  async function change(grant: boolean, name: string, first: unknown, second: unknown): Promise<void> {
    const target = targetOf(name, first, second);
    if (target.teamId !== null) {
      const init = { params: { path: { team_id: target.teamId, user_id: userId, permission_id: target.permissionId } }, body: {} };
      const path = "/team-permissions/{team_id}/{user_id}/{permission_id}";
      await (grant ? ctx.client.api.POST(path, init) : ctx.client.api.DELETE(path, init));
    } else {
      const init = { params: { path: { user_id: userId, permission_id: target.permissionId } }, body: {} };
      const path = "/project-permissions/{user_id}/{permission_id}";
      await (grant ? ctx.client.api.POST(path, init) : ctx.client.api.DELETE(path, init));
    }
  }

  function grantPermission(scope: PermissionScope, permissionId: string): Promise<void>;
  function grantPermission(permissionId: string): Promise<void>;
  function grantPermission(first: PermissionScope | string, second?: string) {
    return change(true, "user.grantPermission", first, second);
  }

  function revokePermission(scope: PermissionScope, permissionId: string): Promise<void>;
  function revokePermission(permissionId: string): Promise<void>;
  function revokePermission(first: PermissionScope | string, second?: string) {
    return change(false, "user.revokePermission", first, second);
  }

  return { listPermissions, getPermission, hasPermission, grantPermission, revokePermission };
}
