// The signed-in user's permissions (SPEC §6): in a team, or at project level
// when no team is given. The calls (permission-calls.ts) load with the first of them.
import { lazy } from "../../lazy.js";
import type { CallOptions } from "../call-options.js";
import type { ClientAppContext } from "../context.js";
import { lazyMethods } from "../lazy-methods.js";

const loadPermissions = lazy("permissions", () => import("./permission-calls.js"));

/** A permission the user holds; only its id (SPEC §3). The reference names it TeamPermission at both levels. */
export interface TeamPermission {
  readonly id: string;
}

/** What a permission can be scoped to: a team (any object with the team's id). */
export interface PermissionScope {
  readonly id: string;
}

export interface PermissionListOptions extends CallOptions {
  /** Include the permissions contained in granted ones. Default true. */
  readonly recursive?: boolean;
}

export interface UserPermissionMethods {
  listPermissions(scope: PermissionScope, options?: PermissionListOptions): Promise<TeamPermission[]>;
  listPermissions(options?: PermissionListOptions): Promise<TeamPermission[]>;
  getPermission(scope: PermissionScope, permissionId: string, options?: PermissionListOptions): Promise<TeamPermission | null>;
  getPermission(permissionId: string, options?: PermissionListOptions): Promise<TeamPermission | null>;
  hasPermission(scope: PermissionScope, permissionId: string, options?: PermissionListOptions): Promise<boolean>;
  hasPermission(permissionId: string, options?: PermissionListOptions): Promise<boolean>;
}

/** The permission methods of a user: `me` for the signed-in user; server code passes a user id. */
export function userPermissionMethods(ctx: ClientAppContext, userId = "me"): UserPermissionMethods {
  return lazyMethods(loadPermissions, (m) => m.userPermissionMethods(ctx, userId), {
    listPermissions: true,
    getPermission: true,
    hasPermission: true,
  });
}
