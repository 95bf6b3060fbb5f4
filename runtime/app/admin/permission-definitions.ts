// The permissions a project defines (SPEC §3 "Permission definitions"), team
// and project scope alike: list, create, update, delete. A duplicate id is the
// service's PERMISSION_ID_ALREADY_EXISTS, thrown as its typed error.
import type { components } from "../../../generated/schema.js";
import { signalOf, type CallOptions } from "../call-options.js";
import { StackConfigurationError } from "../../errors.js";
import type { ClientAppContext } from "../context.js";
import { answered, itemsOf } from "../wire.js";

export type PermissionScope = "team" | "project";

/** A permission the project defines, for teams or for the project: its id, description and the permissions it contains. */
export interface AdminPermissionDefinition {
  readonly id: string;
  readonly description?: string;
  /** The permissions that holding this one also grants. */
  readonly containedPermissionIds: string[];
}
/** A team permission the project defines (`adminApp.listTeamPermissionDefinitions()`). */
export type AdminTeamPermissionDefinition = AdminPermissionDefinition;
/** A project permission the project defines (`adminApp.listProjectPermissionDefinitions()`). */
export type AdminProjectPermissionDefinition = AdminPermissionDefinition;

/**
 * A permission to define, team or project scope alike: its id, a description, and the permissions
 * it contains.
 *
 * @example
 * ```ts
 * const options: AdminPermissionDefinitionCreateOptions = { id: "editor", containedPermissionIds: ["viewer"] };
 * await admin.createTeamPermissionDefinition(options);
 * await admin.createProjectPermissionDefinition({ ...options, id: "site_editor" });
 * ```
 */
export interface AdminPermissionDefinitionCreateOptions {
  /** The permission's id, unique in its scope (team or project); not "", "." or "..". */
  readonly id: string;
  /** What the permission allows, shown on the dashboard; none by default. */
  readonly description?: string;
  /** Every id must already be defined in the same scope. */
  readonly containedPermissionIds?: readonly string[];
}
/**
 * A team permission to define, for `StackAdminApp.createTeamPermissionDefinition`.
 *
 * @example
 * ```ts
 * const options: AdminTeamPermissionDefinitionCreateOptions = {
 *   id: "billing_admin",
 *   description: "Manages the team's invoices",
 *   containedPermissionIds: ["$read_members"],
 * };
 * await admin.createTeamPermissionDefinition(options);
 * ```
 */
export type AdminTeamPermissionDefinitionCreateOptions = AdminPermissionDefinitionCreateOptions;
/**
 * A project-wide permission to define, for `StackAdminApp.createProjectPermissionDefinition`.
 *
 * @example
 * ```ts
 * const options: AdminProjectPermissionDefinitionCreateOptions = {
 *   id: "beta_tester",
 *   description: "Sees beta features",
 * };
 * await admin.createProjectPermissionDefinition(options);
 * ```
 */
export type AdminProjectPermissionDefinitionCreateOptions = AdminPermissionDefinitionCreateOptions;

/**
 * The fields of a permission definition to change, team or project scope alike: a new `id`
 * renames the permission; `containedPermissionIds` replaces the whole list.
 *
 * @example
 * ```ts
 * const changes: AdminPermissionDefinitionUpdateOptions = { description: "Edits every page" };
 * await admin.updateTeamPermissionDefinition("editor", changes);
 * ```
 */
export type AdminPermissionDefinitionUpdateOptions = Partial<AdminPermissionDefinitionCreateOptions>;
/**
 * The fields of a team permission to change, for `StackAdminApp.updateTeamPermissionDefinition`:
 * a new `id` renames it; `containedPermissionIds` replaces the whole list.
 *
 * @example
 * ```ts
 * // The list replaces the old one: name every permission that stays.
 * const changes: AdminTeamPermissionDefinitionUpdateOptions = {
 *   containedPermissionIds: ["$read_members", "$invite_members"],
 * };
 * await admin.updateTeamPermissionDefinition("billing_admin", changes);
 * ```
 */
export type AdminTeamPermissionDefinitionUpdateOptions = AdminPermissionDefinitionUpdateOptions;
/**
 * The fields of a project-wide permission to change, for `StackAdminApp.updateProjectPermissionDefinition`:
 * a new `id` renames it; `containedPermissionIds` replaces the whole list.
 *
 * @example
 * ```ts
 * const changes: AdminProjectPermissionDefinitionUpdateOptions = {
 *   id: "early_access",
 *   description: "Sees features before launch",
 * };
 * await admin.updateProjectPermissionDefinition("beta_tester", changes);
 * ```
 */
export type AdminProjectPermissionDefinitionUpdateOptions = AdminPermissionDefinitionUpdateOptions;

export interface PermissionDefinitionMethods {
  list(options?: CallOptions): Promise<AdminPermissionDefinition[]>;
  create(options: AdminPermissionDefinitionCreateOptions & CallOptions): Promise<AdminPermissionDefinition>;
  update(permissionId: string, options: AdminPermissionDefinitionUpdateOptions & CallOptions): Promise<void>;
  delete(permissionId: string, options?: CallOptions): Promise<void>;
}

/** The definitions of one scope: `/team-permission-definitions` or `/project-permission-definitions`. */
export function permissionDefinitions(ctx: ClientAppContext, scope: PermissionScope): PermissionDefinitionMethods {
  const api = ctx.client.api;
  const base = `/${scope}-permission-definitions` as const;
  const path = (permissionId: string, options: CallOptions | undefined) => ({
    params: { path: { permission_id: requireId(permissionId, scope) } },
    ...signalOf(options),
  });
  return {
    async list(options) {
      const init = signalOf(options);
      const { data } =
        scope === "team" ? await api.GET("/team-permission-definitions", init) : await api.GET("/project-permission-definitions", init);
      const items = itemsOf(data, `GET ${base}`);
      return items.map(definitionFromWire);
    },
    async create(options) {
      if (typeof options !== "object" || options === null) {
        throw new StackConfigurationError(`Creating a ${scope} permission needs { id, description?, containedPermissionIds? }.`);
      }
      const body = { id: requireId(options.id, scope), ...bodyOf(options) };
      const init = { body, ...signalOf(options) };
      const { data } =
        scope === "team" ? await api.POST("/team-permission-definitions", init) : await api.POST("/project-permission-definitions", init);
      return definitionFromWire(answered(data, `POST ${base}`));
    },
    async update(permissionId, options) {
      if (typeof options !== "object" || options === null) {
        throw new StackConfigurationError(
          `Updating a ${scope} permission needs the fields to change: { id?, description?, containedPermissionIds? }.`,
        );
      }
      const body = { ...(options.id === undefined ? {} : { id: requireId(options.id, scope) }), ...bodyOf(options) };
      if (scope === "team") await api.PATCH("/team-permission-definitions/{permission_id}", { ...path(permissionId, options), body });
      else await api.PATCH("/project-permission-definitions/{permission_id}", { ...path(permissionId, options), body });
    },
    async delete(permissionId, options) {
      if (scope === "team") await api.DELETE("/team-permission-definitions/{permission_id}", path(permissionId, options));
      else await api.DELETE("/project-permission-definitions/{permission_id}", path(permissionId, options));
    },
  };
}

function bodyOf(options: AdminPermissionDefinitionUpdateOptions): { description?: string; contained_permission_ids?: string[] } {
  const contained = options.containedPermissionIds;
  if (contained !== undefined && !Array.isArray(contained)) {
    throw new StackConfigurationError("containedPermissionIds must be a list of permission ids; it replaces the whole list.");
  }
  return {
    ...(options.description === undefined ? {} : { description: options.description }),
    ...(contained === undefined ? {} : { contained_permission_ids: [...contained] }),
  };
}

/** An id that goes into a path: "", "." and ".." would address another route even when encoded. */
function requireId(id: unknown, scope: PermissionScope): string {
  if (typeof id !== "string" || id === "" || id === "." || id === "..") {
    throw new StackConfigurationError(`A ${scope} permission is named by its id, a non-empty string (not "." or "..").`);
  }
  return id;
}

// `description` is a member of every definition, undefined when there is none, as on the reference's,
// whose declaration also calls it optional (hence the assertion).
function definitionFromWire(wire: components["schemas"]["PermissionDefinition"]): AdminPermissionDefinition {
  return Object.freeze({
    id: wire.id,
    description: typeof wire.description === "string" ? wire.description : undefined,
    containedPermissionIds: Array.isArray(wire.contained_permission_ids) ? [...wire.contained_permission_ids] : [],
  } as AdminPermissionDefinition);
}
