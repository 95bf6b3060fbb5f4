// Teams, memberships and member profiles. A client works within the teams of
// its signed-in user and by its team permissions ($update_team, $delete_team,
// $remove_members, $read_members); server and admin code reach every team of
// the project and get the server views. Checks run in the service's order, so
// the same request fails with the same error.
import type { EmulatorRequest, Handlers } from "../engine/context.js";
import { fail, schemaError, statusFailure } from "../engine/errors.js";
import { isClientImage, storedPictureUrl } from "../engine/images.js";
import type { ProjectRecord, Store, TeamRecord } from "../engine/store.js";
import { randomId } from "../engine/tokens.js";
import { list, memberProfileView, teamView } from "../engine/views.js";
import {
  grantDefaultTeamPermissions,
  membershipOf,
  queryOf,
  requireMembership,
  requireTeam,
  requireTeamPermission,
  requireUserExists,
  userIdParam,
  uuidParam,
} from "./permissions.js";

interface TeamFields {
  readonly display_name?: string;
  readonly profile_image_url?: string | null;
  readonly creator_user_id?: string;
  readonly client_metadata?: unknown;
  readonly client_read_only_metadata?: unknown;
  readonly server_metadata?: unknown;
}

/** Makes the user a member of the team with the project's default permissions for a creator or a member. */
export function addMember(store: Store, project: ProjectRecord, teamId: string, userId: string, kind: "creator" | "member"): void {
  store.insert("memberships", { project_id: project.id, team_id: teamId, user_id: userId, display_name: null, profile_image_url: null });
  grantDefaultTeamPermissions(store, project, teamId, userId, kind);
}

/** A client may send only the client's fields (the service's client schema has no others). */
function refuseServerFields(request: EmulatorRequest, body: TeamFields): void {
  if (request.accessType !== "client") return;
  for (const field of ["client_read_only_metadata", "server_metadata"] as const) {
    if (body[field] !== undefined) throw schemaError(request, `body contains unknown properties: ${field}`);
  }
}

/** A client's team picture must be a base64 image of a common type (both versions): a plain 400 otherwise. */
function refuseClientPicture(body: TeamFields): void {
  if (body.profile_image_url && !isClientImage(body.profile_image_url)) throw statusFailure(400, "Invalid profile image URL");
}

/** The signed-in user of a client request that needs one. */
function clientUser(request: EmulatorRequest, code: "USER_AUTHENTICATION_REQUIRED" | "CANNOT_GET_OWN_USER_WITHOUT_USER") {
  if (!request.user) throw fail(code);
  return request.user;
}

export const teamHandlers = {
  listTeams: (request, { store }) => {
    const param = queryOf(request, "user_id");
    const userId = param === null ? null : userIdParam(request, "query.user_id", param);
    if (request.accessType === "client" && userId !== clientUser(request, "CANNOT_GET_OWN_USER_WITHOUT_USER").id) {
      throw statusFailure(403, 'Client can only list teams for their own user. user_id must be either "me" or the ID of the current user');
    }
    const teams = store.teamsOf(request.project.id).filter((team) => userId === null || store.membership(team.id, userId) !== undefined);
    return { body: list(teams.map((team) => teamView(team, request.accessType))) };
  },

  createTeam: (request, ctx) => {
    const { store } = ctx;
    const project = request.project;
    const body = (request.body ?? {}) as TeamFields & { display_name: string };
    refuseServerFields(request, body);
    let creatorId = body.creator_user_id === undefined ? null : userIdParam(request, "body.creator_user_id", body.creator_user_id);
    if (request.accessType === "client") {
      const user = clientUser(request, "USER_AUTHENTICATION_REQUIRED");
      if (!project.config.client_team_creation_enabled) throw statusFailure(403, "Client team creation is disabled for this project");
      refuseClientPicture(body);
      if (creatorId !== null && creatorId !== user.id) {
        throw statusFailure(403, "You cannot create a team as a user that is not yourself. Make sure you set the creator_user_id to 'me'.");
      }
      creatorId = user.id;
    }
    const picture = storedPictureUrl(ctx, project.id, body.profile_image_url, "team-profile-images");
    if (creatorId !== null) requireUserExists(store, project, creatorId);
    const team: TeamRecord = {
      id: randomId(),
      project_id: project.id,
      display_name: body.display_name,
      profile_image_url: picture ?? null,
      client_metadata: body.client_metadata ?? null,
      client_read_only_metadata: body.client_read_only_metadata ?? null,
      server_metadata: body.server_metadata ?? null,
      created_at_millis: ctx.now(),
    };
    store.insert("teams", team);
    if (creatorId !== null) addMember(store, project, team.id, creatorId, "creator");
    return { status: 201, body: teamView(team, request.accessType) };
  },

  getTeam: (request, { store }) => {
    const teamId = uuidParam(request, "params.team_id", request.params["team_id"]);
    if (request.accessType === "client") {
      requireMembership(store, request.project, teamId, clientUser(request, "USER_AUTHENTICATION_REQUIRED").id);
    }
    return { body: teamView(requireTeam(store, request.project, teamId), request.accessType) };
  },

  updateTeam: (request, ctx) => {
    const { store } = ctx;
    const teamId = uuidParam(request, "params.team_id", request.params["team_id"]);
    const body = (request.body ?? {}) as TeamFields;
    refuseServerFields(request, body);
    if (request.accessType === "client") {
      refuseClientPicture(body);
      requireTeamPermission(store, request.project, teamId, clientUser(request, "USER_AUTHENTICATION_REQUIRED").id, "$update_team");
    }
    const team = requireTeam(store, request.project, teamId);
    const picture = storedPictureUrl(ctx, request.project.id, body.profile_image_url, "team-profile-images");
    store.updateTeam(team.id, {
      ...(body.display_name !== undefined && { display_name: body.display_name }),
      ...(picture !== undefined && { profile_image_url: picture }),
      ...(body.client_metadata !== undefined && { client_metadata: body.client_metadata }),
      ...(body.client_read_only_metadata !== undefined && { client_read_only_metadata: body.client_read_only_metadata }),
      ...(body.server_metadata !== undefined && { server_metadata: body.server_metadata }),
    });
    return { body: teamView(team, request.accessType) };
  },

  deleteTeam: (request, { store }) => {
    const teamId = uuidParam(request, "params.team_id", request.params["team_id"]);
    if (request.accessType === "client") {
      requireTeamPermission(store, request.project, teamId, clientUser(request, "USER_AUTHENTICATION_REQUIRED").id, "$delete_team");
    }
    store.deleteTeam(requireTeam(store, request.project, teamId).id);
    return { body: { success: true } };
  },

  addTeamMember: (request, { store }) => {
    const teamId = uuidParam(request, "params.team_id", request.params["team_id"]);
    const userId = userIdParam(request, "params.user_id", request.params["user_id"]);
    requireUserExists(store, request.project, userId);
    requireTeam(store, request.project, teamId);
    if (membershipOf(store, request.project, teamId, userId)) throw fail("TEAM_MEMBERSHIP_ALREADY_EXISTS");
    addMember(store, request.project, teamId, userId, "member");
    return { status: 201, body: { team_id: teamId, user_id: userId } };
  },

  removeTeamMember: (request, { store }) => {
    const teamId = uuidParam(request, "params.team_id", request.params["team_id"]);
    const userId = userIdParam(request, "params.user_id", request.params["user_id"]);
    if (request.accessType === "client") {
      // Leaving is always allowed; removing someone else takes $remove_members.
      const me = clientUser(request, "CANNOT_GET_OWN_USER_WITHOUT_USER");
      if (userId !== me.id) requireTeamPermission(store, request.project, teamId, me.id, "$remove_members");
    }
    requireMembership(store, request.project, teamId, userId);
    store.deleteMembership(teamId, userId);
    return { body: { success: true } };
  },

  listTeamMemberProfiles: (request, { store, profile }) => {
    const project = request.project;
    const teamParam = queryOf(request, "team_id");
    const teamId = teamParam === null ? null : uuidParam(request, "query.team_id", teamParam);
    const userParam = queryOf(request, "user_id");
    const userId = userParam === null ? null : userIdParam(request, "query.user_id", userParam);
    if (request.accessType === "client") {
      const me = clientUser(request, "CANNOT_GET_OWN_USER_WITHOUT_USER");
      if (teamId === null) throw statusFailure(400, "team_id is required for access type client");
      requireMembership(store, project, teamId, me.id);
      if (userId !== me.id) requireTeamPermission(store, project, teamId, me.id, "$read_members");
    } else {
      if (teamId !== null) requireTeam(store, project, teamId);
      if (userId !== null) requireUserExists(store, project, userId);
    }
    const members = store
      .memberships()
      .filter(
        (m) =>
          m.project_id === project.id &&
          (teamId === null || m.team_id === teamId) &&
          (userId === null || m.user_id === userId) &&
          store.user(m.user_id) !== undefined,
      );
    return { body: list(members.map((m) => memberProfileView(store, m, request.accessType, profile))) };
  },

  getTeamMemberProfile: (request, { store, profile }) => {
    const teamId = uuidParam(request, "params.team_id", request.params["team_id"]);
    const userId = userIdParam(request, "params.user_id", request.params["user_id"]);
    if (request.accessType === "client") {
      const me = clientUser(request, "CANNOT_GET_OWN_USER_WITHOUT_USER");
      if (userId !== me.id) requireTeamPermission(store, request.project, teamId, me.id, "$read_members");
    }
    const membership = requireMembership(store, request.project, teamId, userId);
    return { body: memberProfileView(store, membership, request.accessType, profile) };
  },

  updateTeamMemberProfile: (request, ctx) => {
    const { store, profile } = ctx;
    const teamId = uuidParam(request, "params.team_id", request.params["team_id"]);
    const userId = userIdParam(request, "params.user_id", request.params["user_id"]);
    if (request.accessType === "client" && userId !== clientUser(request, "CANNOT_GET_OWN_USER_WITHOUT_USER").id) {
      throw statusFailure(403, "Cannot update another user's profile");
    }
    const membership = requireMembership(store, request.project, teamId, userId);
    const body = (request.body ?? {}) as { display_name?: string; profile_image_url?: string | null };
    const picture = storedPictureUrl(ctx, request.project.id, body.profile_image_url, "team-member-profile-images");
    store.updateMembership(teamId, userId, {
      ...(body.display_name !== undefined && { display_name: body.display_name }),
      ...(picture !== undefined && { profile_image_url: picture }),
    });
    return { body: memberProfileView(store, membership, request.accessType, profile) };
  },
} satisfies Handlers;
