// A server user's permissions (SPEC §6; endpoints.md §C): listed, checked,
// granted and revoked, in a team (any object with the team's id) or at project
// level when no team is given. Lists are recursive unless asked otherwise.
import type { PermissionScope, UserPermissionMethods } from "../objects/permission.js";
import { userPermissionMethods } from "../objects/permission-calls.js";
import { signalOf, type CallOptions } from "../call-options.js";
import { segment, teamIdOf } from "./common.js";
import type { ServerAppContext } from "./context.js";

export interface ServerUserPermissionMethods extends UserPermissionMethods {
  /** Grants a team permission (`POST /team-permissions/{team}/{user}/{permission}`). */
  grantPermission(scope: PermissionScope, permissionId: string, options?: CallOptions): Promise<void>;
  /** Grants a project permission (`POST /project-permissions/{user}/{permission}`). */
  grantPermission(permissionId: string, options?: CallOptions): Promise<void>;
  revokePermission(scope: PermissionScope, permissionId: string, options?: CallOptions): Promise<void>;
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
      const path = "/team-permissions/{team_id}/{user_id}/{permission_id}";
      await (grant ? ctx.client.api.POST(path, init) : ctx.client.api.DELETE(path, init));
    } else {
      const init = { params: { path: { user_id: userId, permission_id: target.permissionId } }, body: {}, ...signal };
      const path = "/project-permissions/{user_id}/{permission_id}";
      await (grant ? ctx.client.api.POST(path, init) : ctx.client.api.DELETE(path, init));
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
