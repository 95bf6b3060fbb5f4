// Permissions: the project's definitions (team and project scope, one id space
// for both), the grants users hold, and the checks the team areas make with
// them. As in the service, the system team permissions (`$update_team`, …) are
// not stored definitions: every project has them and they contain nothing; a
// grant counts with the permissions it contains when listed recursively; a
// grant whose definition is gone no longer counts.
import type { EmulatorRequest, Handler, Handlers } from "../engine/context.js";
import { fail, schemaError, statusFailure } from "../engine/errors.js";
import type {
  GrantRecord,
  MembershipRecord,
  PermissionDefinitionRecord,
  ProjectRecord,
  Store,
  TeamRecord,
  UserRecord,
} from "../engine/store.js";
import { list } from "../engine/views.js";

type Scope = "team" | "project";

/** The service's system team permissions and their descriptions. */
export const TEAM_SYSTEM_PERMISSIONS: Readonly<Record<string, string>> = {
  $update_team: "Update the team information",
  $delete_team: "Delete the team",
  $read_members: "Read and list the other members of the team",
  $remove_members: "Remove other members from the team",
  $invite_members: "Invite other users to the team",
  $manage_api_keys: "Create and manage API keys for the team",
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Ids a project may define (no `$`), and ids a path may name (a system id too). */
const CUSTOM_ID = /^[a-z0-9_:]+$/;
const ANY_ID = /^\$?[a-z0-9_:]+$/;

// --- request checks shared by the team areas ---------------------------------

/** A team id (or another UUID) from `where.name`: SCHEMA_ERROR when missing or not a UUID. */
export function uuidParam(request: EmulatorRequest, where: string, value: unknown): string {
  if (value === undefined || value === null) throw schemaError(request, `${where} must be defined`);
  if (typeof value !== "string" || !UUID.test(value)) throw schemaError(request, `${where} must be a valid UUID`);
  return value;
}

/** A `user_id`: `me` is the signed-in user (CANNOT_GET_OWN_USER_WITHOUT_USER without one), else a UUID. */
export function userIdParam(request: EmulatorRequest, where: string, value: unknown): string {
  if (value === "me") {
    if (!request.user) throw fail("CANNOT_GET_OWN_USER_WITHOUT_USER");
    return request.user.id;
  }
  return uuidParam(request, where, value);
}

/** The query parameter, or null when absent. */
export const queryOf = (request: EmulatorRequest, name: string): string | null => request.query.get(name);

export function requireUserExists(store: Store, project: ProjectRecord, userId: string): UserRecord {
  const user = store.user(userId);
  if (!user || user.project_id !== project.id) throw fail("USER_NOT_FOUND");
  return user;
}

export function requireTeam(store: Store, project: ProjectRecord, teamId: string): TeamRecord {
  const team = store.team(teamId);
  if (!team || team.project_id !== project.id) throw fail("TEAM_NOT_FOUND", { team_id: teamId });
  return team;
}

export const membershipKey = (teamId: string, userId: string) => `${teamId}/${userId}`;

export function membershipOf(store: Store, project: ProjectRecord, teamId: string, userId: string): MembershipRecord | undefined {
  const membership = store.membership(teamId, userId);
  return membership && membership.project_id === project.id ? membership : undefined;
}

/** The user must exist (USER_NOT_FOUND) and be a member of the team (TEAM_MEMBERSHIP_NOT_FOUND, also for a team that does not exist). */
export function requireMembership(store: Store, project: ProjectRecord, teamId: string, userId: string): MembershipRecord {
  requireUserExists(store, project, userId);
  const membership = membershipOf(store, project, teamId, userId);
  if (!membership) throw fail("TEAM_MEMBERSHIP_NOT_FOUND", { team_id: teamId, user_id: userId });
  return membership;
}

/** Membership, then the permission (held directly or contained): TEAM_PERMISSION_REQUIRED without it. */
export function requireTeamPermission(store: Store, project: ProjectRecord, teamId: string, userId: string, permissionId: string): void {
  requireMembership(store, project, teamId, userId);
  if (!heldPermissions(store, project.id, "team", teamId, userId, true).has(permissionId)) {
    throw fail("TEAM_PERMISSION_REQUIRED", { team_id: teamId, user_id: userId, permission_id: permissionId });
  }
}

// --- definitions ---------------------------------------------------------------

function storedDefinitions(store: Store, projectId: string, scope: Scope): PermissionDefinitionRecord[] {
  return store.permissionDefinitionsOf(projectId, scope);
}

/** The stored definition with this id, in either scope (the two share one id space). */
function definitionById(store: Store, projectId: string, id: string): PermissionDefinitionRecord | undefined {
  return store.permissionDefinition(projectId, "team", id) ?? store.permissionDefinition(projectId, "project", id);
}

/** What a permission of `scope` contains; undefined when it is not defined (any more). */
function containedOf(store: Store, projectId: string, scope: Scope, id: string): readonly string[] | undefined {
  if (scope === "team" && id in TEAM_SYSTEM_PERMISSIONS) return [];
  return store.permissionDefinition(projectId, scope, id)?.contained_permission_ids;
}

function definitionView(d: { id: string; description: string | null; contained_permission_ids: readonly string[] }) {
  return {
    id: d.id,
    ...(d.description ? { description: d.description } : {}),
    contained_permission_ids: [...d.contained_permission_ids].sort(compare),
  };
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function definitionViews(store: Store, projectId: string, scope: Scope) {
  const stored = storedDefinitions(store, projectId, scope).map(definitionView);
  const system =
    scope === "team"
      ? Object.entries(TEAM_SYSTEM_PERMISSIONS).map(([id, description]) =>
          definitionView({ id, description, contained_permission_ids: [] }),
        )
      : [];
  return [...stored, ...system].sort((a, b) => compare(a.id, b.id));
}

function checkContained(store: Store, projectId: string, scope: Scope, ids: readonly string[] | undefined): string[] | undefined {
  if (ids === undefined) return undefined;
  for (const id of ids) {
    if (containedOf(store, projectId, scope, id) === undefined) throw fail("CONTAINED_PERMISSION_NOT_FOUND", { permission_id: id });
  }
  return [...new Set(ids)].sort(compare);
}

function checkCustomId(request: EmulatorRequest, id: string): string {
  if (!CUSTOM_ID.test(id)) throw schemaError(request, 'body.id: only lowercase letters, numbers, ":" and "_" are allowed');
  return id;
}

/** A permission id in a path: lowercase letters, digits, `_`, `:`, and a leading `$` only for a system permission. */
function permissionIdParam(request: EmulatorRequest, id: string | undefined): string {
  if (id === undefined || !ANY_ID.test(id)) {
    throw schemaError(
      request,
      'params.permission_id: only lowercase letters, numbers, ":", "_" and optional "$" at the beginning are allowed',
    );
  }
  if (id.startsWith("$") && !(id in TEAM_SYSTEM_PERMISSIONS)) throw schemaError(request, "params.permission_id: Invalid system permission");
  return id;
}

type DefaultsKey = "team_creator_default_permissions" | "team_member_default_permissions" | "user_default_permissions";
const DEFAULT_LISTS: Record<Scope, readonly DefaultsKey[]> = {
  team: ["team_creator_default_permissions", "team_member_default_permissions"],
  project: ["user_default_permissions"],
};

/** Renames (or, with `to` null, drops) a permission in the project's default lists. */
function renameInDefaults(store: Store, project: ProjectRecord, scope: Scope, from: string, to: string | null): void {
  const config = { ...project.config };
  for (const key of DEFAULT_LISTS[scope]) {
    config[key] = config[key].flatMap(({ id }) => (id !== from ? [{ id }] : to === null ? [] : [{ id: to }]));
  }
  store.updateProject(project.id, { config });
}

function definitionHandlers(scope: Scope): { list: Handler; create: Handler; update: Handler; delete: Handler } {
  return {
    list: ({ project }, { store }) => ({ body: list(definitionViews(store, project.id, scope)) }),
    create: (request, { store }) => {
      const body = request.body as { id: string; description?: string; contained_permission_ids?: string[] };
      const id = checkCustomId(request, body.id);
      const projectId = request.project.id;
      if (definitionById(store, projectId, id)) throw fail("PERMISSION_ID_ALREADY_EXISTS", { permission_id: id });
      const contained = checkContained(store, projectId, scope, body.contained_permission_ids ?? []) ?? [];
      const record: PermissionDefinitionRecord = {
        project_id: projectId,
        scope,
        id,
        description: body.description || null,
        contained_permission_ids: contained,
      };
      store.insert("permissionDefinitions", record);
      return { status: 201, body: definitionView(record) };
    },
    update: (request, { store }) => {
      const project = request.project;
      const oldId = permissionIdParam(request, request.params["permission_id"]);
      const body = (request.body ?? {}) as { id?: string; description?: string; contained_permission_ids?: string[] };
      const existing = store.permissionDefinition(project.id, scope, oldId);
      if (!existing) throw fail("PERMISSION_NOT_FOUND", { permission_id: oldId });
      const newId = body.id === undefined ? oldId : checkCustomId(request, body.id);
      if (newId !== oldId && definitionById(store, project.id, newId)) throw fail("PERMISSION_ID_ALREADY_EXISTS", { permission_id: newId });
      const contained = checkContained(store, project.id, scope, body.contained_permission_ids);
      if (body.description !== undefined)
        store.updatePermissionDefinition(project.id, scope, oldId, { description: body.description || null });
      if (contained !== undefined) store.updatePermissionDefinition(project.id, scope, oldId, { contained_permission_ids: contained });
      if (newId !== oldId) rename(store, project, scope, existing, newId);
      return { body: definitionView(existing) };
    },
    delete: (request, { store }) => {
      const project = request.project;
      const id = permissionIdParam(request, request.params["permission_id"]);
      if (!store.permissionDefinition(project.id, scope, id)) throw fail("PERMISSION_NOT_FOUND", { permission_id: id });
      store.deletePermissionDefinition(project.id, scope, id);
      renameInDefaults(store, project, scope, id, null);
      return { body: { success: true } };
    },
  };
}

/** A new id for a definition: containing definitions, grants and the default lists follow it. */
function rename(store: Store, project: ProjectRecord, scope: Scope, record: PermissionDefinitionRecord, newId: string): void {
  const oldId = record.id;
  store.updatePermissionDefinition(project.id, scope, oldId, { id: newId });
  for (const other of storedDefinitions(store, project.id, scope)) {
    const contained = [...new Set(other.contained_permission_ids.map((c) => (c === oldId ? newId : c)))].sort(compare);
    store.updatePermissionDefinition(project.id, scope, other.id, { contained_permission_ids: contained });
  }
  for (const grant of grantsOf(store, project.id, scope)) {
    if (grant.permission_id !== oldId) continue;
    store.deleteGrant(grant);
    store.insert("grants", { ...grant, permission_id: newId });
  }
  renameInDefaults(store, project, scope, oldId, newId);
}

// --- grants ----------------------------------------------------------------------

function grantsOf(store: Store, projectId: string, scope: Scope): GrantRecord[] {
  return store.grantsOf(projectId, scope);
}

/** The ids a user holds (in a team, or at project level with `teamId` null): direct grants, and what they contain when recursive. */
export function heldPermissions(
  store: Store,
  projectId: string,
  scope: Scope,
  teamId: string | null,
  userId: string,
  recursive: boolean,
): Set<string> {
  const direct = grantsOf(store, projectId, scope).filter((g) => g.user_id === userId && g.team_id === teamId);
  return expand(
    store,
    projectId,
    scope,
    direct.map((g) => g.permission_id),
    recursive,
  );
}

function expand(store: Store, projectId: string, scope: Scope, ids: readonly string[], recursive: boolean): Set<string> {
  const held = new Set<string>();
  const pending = [...ids];
  while (pending.length > 0) {
    const id = pending.pop() as string;
    const contained = containedOf(store, projectId, scope, id);
    if (contained === undefined || held.has(id)) continue;
    held.add(id);
    if (recursive) pending.push(...contained);
  }
  return held;
}

/** The definition a grant of `scope` names: PERMISSION_NOT_FOUND, or WRONG_PERMISSION_SCOPE when it is the other scope's. */
function requireGrantable(store: Store, projectId: string, scope: Scope, permissionId: string): void {
  const definition = definitionById(store, projectId, permissionId);
  if (definition && definition.scope !== scope) {
    throw fail("WRONG_PERMISSION_SCOPE", { permission_id: permissionId, expected_scope: scope, actual_scope: definition.scope });
  }
  if (!definition && !(scope === "team" && permissionId in TEAM_SYSTEM_PERMISSIONS))
    throw fail("PERMISSION_NOT_FOUND", { permission_id: permissionId });
}

function putGrant(store: Store, projectId: string, scope: Scope, teamId: string | null, userId: string, permissionId: string): void {
  store.insert("grants", { project_id: projectId, scope, team_id: teamId, user_id: userId, permission_id: permissionId });
}

/** Grants the project's default team permissions of a new member (`creator` or `member`); ids no longer defined are skipped. */
export function grantDefaultTeamPermissions(
  store: Store,
  project: ProjectRecord,
  teamId: string,
  userId: string,
  kind: "creator" | "member",
): void {
  const defaults = kind === "creator" ? project.config.team_creator_default_permissions : project.config.team_member_default_permissions;
  for (const { id } of defaults) {
    if (containedOf(store, project.id, "team", id) !== undefined) putGrant(store, project.id, "team", teamId, userId, id);
  }
}

/** Grants the project's default user permissions (for whoever creates users: sign-up, POST /users). */
export function grantDefaultProjectPermissions(store: Store, project: ProjectRecord, userId: string): void {
  for (const { id } of project.config.user_default_permissions) {
    if (containedOf(store, project.id, "project", id) !== undefined) putGrant(store, project.id, "project", null, userId, id);
  }
}

/** GET /team-permissions and /project-permissions: the grants matching the filters, per user (and team), sorted as the service sorts. */
function listGrants(scope: Scope): Handler {
  return (request, { store }) => {
    const recursiveParam = queryOf(request, "recursive");
    if (recursiveParam !== null && recursiveParam !== "true" && recursiveParam !== "false") {
      throw schemaError(request, "query.recursive must be one of the following values: true, false");
    }
    const teamParam = scope === "team" ? queryOf(request, "team_id") : null;
    const teamId = teamParam === null ? null : uuidParam(request, "query.team_id", teamParam);
    const userParam = queryOf(request, "user_id");
    const userId = userParam === null ? null : userIdParam(request, "query.user_id", userParam);
    if (request.accessType === "client") {
      if (!request.user) throw fail("CANNOT_GET_OWN_USER_WITHOUT_USER");
      if (userId !== request.user.id) {
        throw statusFailure(
          403,
          'Client can only list permissions for their own user. user_id must be either "me" or the ID of the current user',
        );
      }
    }
    const groups = new Map<string, { user_id: string; team_id: string | null; ids: string[] }>();
    for (const grant of grantsOf(store, request.project.id, scope)) {
      if ((userId !== null && grant.user_id !== userId) || (teamId !== null && grant.team_id !== teamId)) continue;
      const key = `${grant.user_id}/${grant.team_id ?? ""}`;
      const group = groups.get(key) ?? { user_id: grant.user_id, team_id: grant.team_id, ids: [] };
      group.ids.push(grant.permission_id);
      groups.set(key, group);
    }
    const items: { id: string; user_id: string; team_id?: string }[] = [];
    for (const group of groups.values()) {
      for (const id of expand(store, request.project.id, scope, group.ids, recursiveParam === "true")) {
        items.push(scope === "team" ? { id, user_id: group.user_id, team_id: group.team_id as string } : { id, user_id: group.user_id });
      }
    }
    items.sort((a, b) => compare(a.team_id ?? "", b.team_id ?? "") || compare(a.user_id, b.user_id) || compare(a.id, b.id));
    return { body: list(items) };
  };
}

const team = definitionHandlers("team");
const project = definitionHandlers("project");

export const permissionHandlers = {
  listTeamPermissionDefinitions: team.list,
  createTeamPermissionDefinition: team.create,
  updateTeamPermissionDefinition: team.update,
  deleteTeamPermissionDefinition: team.delete,
  listProjectPermissionDefinitions: project.list,
  createProjectPermissionDefinition: project.create,
  updateProjectPermissionDefinition: project.update,
  deleteProjectPermissionDefinition: project.delete,

  listTeamPermissions: listGrants("team"),
  listProjectPermissions: listGrants("project"),

  grantTeamPermission: (request, { store }) => {
    const teamId = uuidParam(request, "params.team_id", request.params["team_id"]);
    const userId = userIdParam(request, "params.user_id", request.params["user_id"]);
    const permissionId = permissionIdParam(request, request.params["permission_id"]);
    requireMembership(store, request.project, teamId, userId);
    requireGrantable(store, request.project.id, "team", permissionId);
    putGrant(store, request.project.id, "team", teamId, userId, permissionId);
    return { status: 201, body: { id: permissionId, user_id: userId, team_id: teamId } };
  },
  revokeTeamPermission: (request, { store }) => {
    const teamId = uuidParam(request, "params.team_id", request.params["team_id"]);
    const userId = userIdParam(request, "params.user_id", request.params["user_id"]);
    const permissionId = permissionIdParam(request, request.params["permission_id"]);
    requireMembership(store, request.project, teamId, userId);
    if (!heldPermissions(store, request.project.id, "team", teamId, userId, false).has(permissionId)) {
      throw fail("TEAM_PERMISSION_NOT_FOUND", { team_id: teamId, user_id: userId, permission_id: permissionId });
    }
    store.deleteGrant({ project_id: request.project.id, scope: "team", team_id: teamId, user_id: userId, permission_id: permissionId });
    return { body: { success: true } };
  },
  grantProjectPermission: (request, { store }) => {
    const userId = userIdParam(request, "params.user_id", request.params["user_id"]);
    const permissionId = permissionIdParam(request, request.params["permission_id"]);
    requireUserExists(store, request.project, userId);
    requireGrantable(store, request.project.id, "project", permissionId);
    putGrant(store, request.project.id, "project", null, userId, permissionId);
    return { status: 201, body: { id: permissionId, user_id: userId } };
  },
  revokeProjectPermission: (request, { store }) => {
    const userId = userIdParam(request, "params.user_id", request.params["user_id"]);
    const permissionId = permissionIdParam(request, request.params["permission_id"]);
    requireUserExists(store, request.project, userId);
    if (!heldPermissions(store, request.project.id, "project", null, userId, false).has(permissionId)) {
      throw fail("PERMISSION_NOT_FOUND", { permission_id: permissionId });
    }
    store.deleteGrant({ project_id: request.project.id, scope: "project", team_id: null, user_id: userId, permission_id: permissionId });
    return { body: { success: true } };
  },
} satisfies Handlers;
