// A server user's permissions (SPEC §6; endpoints.md §C): listed, checked,
// granted and revoked, in a team (any object with the team's id) or at project
// level when no team is given. Lists are recursive unless asked otherwise.
import type { PermissionScope, UserPermissionMethods } from "../objects/permission.js";
import { userPermissionMethods } from "../objects/permission.js";
import { signalOf, type CallOptions } from "../call-options.js";
import { segment, teamIdOf } from "./common.js";
import type { ServerAppContext } from "./context.js";

export interface ServerUserPermissionMethods extends UserPermissionMethods {
  /**
   * Grants a team permission (`POST /team-permissions/{team}/{user}/{permission}`); `scope` is a team or
   * any object with its id. A permission that does not exist is thrown as PermissionNotFound, a user
   * who is not a member of the team as TeamMembershipNotFound.
   *
   * @example
   * ```ts
   * const user = await app.getUser(userId);
   * const team = await app.getTeam(teamId);
   * if (user !== null && team !== null) {
   *   await user.grantPermission(team, "$invite_members");
   * }
   * ```
   */
  grantPermission(scope: PermissionScope, permissionId: string, options?: CallOptions): Promise<void>;
  /**
   * Grants a project permission (`POST /project-permissions/{user}/{permission}`). A permission that
   * does not exist is thrown as PermissionNotFound.
   *
   * @example
   * ```ts
   * const user = await app.getUser(userId);
   * await user?.grantPermission("view_reports");
   * ```
   */
  grantPermission(permissionId: string, options?: CallOptions): Promise<void>;
  /**
   * Revokes a team permission the user was granted directly
   * (`DELETE /team-permissions/{team}/{user}/{permission}`); `scope` is a team or any object with its id.
   *
   * @example
   * ```ts
   * const user = await app.getUser(userId);
   * if (user !== null) {
   *   await user.revokePermission({ id: teamId }, "$invite_members");
   * }
   * ```
   */
  revokePermission(scope: PermissionScope, permissionId: string, options?: CallOptions): Promise<void>;
  /**
   * Revokes a project permission the user was granted directly
   * (`DELETE /project-permissions/{user}/{permission}`).
   *
   * @example
   * ```ts
   * const user = await app.getUser(userId);
   * await user?.revokePermission("view_reports");
   * ```
   */
  revokePermission(permissionId: string, options?: CallOptions): Promise<void>;
}

/** A team scope is an object; a project permission is named by its id alone (and its options come second, not third). */
type Target = { readonly teamId: string | null; readonly permissionId: string; readonly call: CallOptions | undefined };

function targetOf(method: string, first: unknown, second: unknown, third: unknown): Target {
  if (typeof first === "string") {
    return { teamId: null, permissionId: segment(first, method, "the permission id"), call: second as CallOptions | undefined };
  }
  return {
    teamId: teamIdOf(first, method),
    permissionId: segment(second, method, "the permission id"),
    call: third as CallOptions | undefined,
  };
}

export function serverUserPermissionMethods(ctx: ServerAppContext, userId: string): ServerUserPermissionMethods {
  async function change(grant: boolean, name: string, first: unknown, second: unknown, third: unknown): Promise<void> {
    const target = targetOf(name, first, second, third);
    const signal = signalOf(target.call);
    if (target.teamId !== null) {
      const init = {
        params: { path: { team_id: target.teamId, user_id: userId, permission_id: target.permissionId } },
        body: {},
        ...signal,
      };
      await (grant
        ? ctx.client.send("POST /team-permissions/{team_id}/{user_id}/{permission_id}", init)
        : ctx.client.send("DELETE /team-permissions/{team_id}/{user_id}/{permission_id}", init));
    } else {
      const init = { params: { path: { user_id: userId, permission_id: target.permissionId } }, body: {}, ...signal };
      await (grant
        ? ctx.client.send("POST /project-permissions/{user_id}/{permission_id}", init)
        : ctx.client.send("DELETE /project-permissions/{user_id}/{permission_id}", init));
    }
  }

  function grantPermission(scope: PermissionScope, permissionId: string, options?: CallOptions): Promise<void>;
  function grantPermission(permissionId: string, options?: CallOptions): Promise<void>;
  function grantPermission(first: PermissionScope | string, second?: string | CallOptions, third?: CallOptions) {
    return change(true, "user.grantPermission", first, second, third);
  }

  function revokePermission(scope: PermissionScope, permissionId: string, options?: CallOptions): Promise<void>;
  function revokePermission(permissionId: string, options?: CallOptions): Promise<void>;
  function revokePermission(first: PermissionScope | string, second?: string | CallOptions, third?: CallOptions) {
    return change(false, "user.revokePermission", first, second, third);
  }

  return { ...userPermissionMethods(ctx, userId), grantPermission, revokePermission };
}
