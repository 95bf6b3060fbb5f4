// Team invitations: an e-mailed one-time code (kind `team_invitation`, data
// `{ team_id, invitation_id }`) whose link is the app's team-invitation page.
// The team's members list and revoke pending ones; the invitee checks the code,
// reads the team's name and accepts, which makes them a member with the
// project's default member permissions and uses the code up. 2.8.86 also lets
// the invitee see the invitations sent to their verified e-mails and accept one
// by its id, without the code.
import type { EmulatorContext, EmulatorRequest, Handlers } from "../engine/context.js";
import { fail, schemaError, statusFailure } from "../engine/errors.js";
import type { CodeRecord, ProjectRecord, Store } from "../engine/store.js";
import { randomId } from "../engine/tokens.js";
import { list, restrictedReasonOf } from "../engine/views.js";
import { checkCallbackUrl, mailCode, redeemCode } from "./common.js";
import { membershipOf, queryOf, requireMembership, requireTeam, requireTeamPermission, userIdParam, uuidParam } from "./permissions.js";
import { addMember } from "./teams.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Invitation codes are 45 characters; the service reads them without case (e-mails may show them upper-case). */
function codeOf(request: EmulatorRequest): string {
  const code = (request.body as { code: string }).code;
  if (code.length !== 45) throw schemaError(request, "body.code must be exactly 45 characters");
  return code.toLowerCase();
}

/** The team's invitations that can still be accepted. */
function pendingInvitations(store: Store, project: ProjectRecord, teamId: string, now: number): CodeRecord[] {
  return store
    .codesOf(project.id, "team_invitation")
    .filter((code) => code.data["team_id"] === teamId && code.used_at_millis === null && code.expires_at_millis > now);
}

/** The pending invitations sent to one of `userId`'s verified e-mail addresses (the service compares them exactly). */
function invitationsToUser(store: Store, project: ProjectRecord, userId: string, now: number): CodeRecord[] {
  const verified = new Set(
    store
      .channelsOf(userId)
      .filter((c) => c.project_id === project.id && c.type === "email" && c.is_verified)
      .map((c) => c.value),
  );
  return store
    .codesOf(project.id, "team_invitation")
    .filter((code) => code.used_at_millis === null && code.expires_at_millis > now && verified.has(code.recipient));
}

/** An invitation as listed: 2.8.86 names its team, 2.8.11 does not. */
function invitationView(ctx: EmulatorContext, code: CodeRecord, teamDisplayName: string) {
  return {
    id: String(code.data["invitation_id"]),
    team_id: String(code.data["team_id"]),
    ...(ctx.profile.teamInvitationListing === "by-team-or-invitee" ? { team_display_name: teamDisplayName } : {}),
    expires_at_millis: code.expires_at_millis,
    recipient_email: code.recipient,
  };
}

/**
 * Which listing the query asks for. 2.8.11 knows only `team_id` and refuses `user_id` as an unknown property
 * (after the missing team, as its schema reports field problems first); 2.8.86 takes exactly one of the two.
 */
function listingOf(request: EmulatorRequest, ctx: EmulatorContext): { teamId: string } | { userId: string } {
  const teamParam = queryOf(request, "team_id");
  const userParam = queryOf(request, "user_id");
  if (ctx.profile.teamInvitationListing === "by-team") {
    if (userParam === null) return { teamId: uuidParam(request, "query.team_id", teamParam) };
    const problems: string[] = [];
    if (teamParam === null) problems.push("query.team_id must be defined");
    else if (!UUID.test(teamParam)) problems.push("query.team_id must be a valid UUID");
    throw schemaError(request, ...problems, "query contains unknown properties: user_id");
  }
  const teamId = teamParam === null ? null : uuidParam(request, "query.team_id", teamParam);
  const userId = userParam === null ? null : userIdParam(request, "query.user_id", userParam);
  if (teamId !== null && userId !== null) throw statusFailure(400, "Cannot specify both team_id and user_id");
  if (userId !== null) return { userId };
  if (teamId !== null) return { teamId };
  throw statusFailure(400, "Must specify either team_id or user_id");
}

export const teamInvitationHandlers = {
  sendTeamInvitation: (request, ctx) => {
    const { store } = ctx;
    const project = request.project;
    const body = request.body as { email: string; team_id: string; callback_url: string };
    const teamId = uuidParam(request, "body.team_id", body.team_id);
    if (request.accessType === "client") {
      if (!request.user) throw fail("USER_AUTHENTICATION_REQUIRED");
      requireTeamPermission(store, project, teamId, request.user.id, "$invite_members");
    }
    checkCallbackUrl(project, body.callback_url);
    const team = requireTeam(store, project, teamId);
    const id = randomId();
    mailCode(ctx, project, {
      kind: "team_invitation",
      to: body.email,
      callbackUrl: body.callback_url,
      data: { team_id: team.id, invitation_id: id },
    });
    return { body: { success: true, id } };
  },

  listTeamInvitations: (request, ctx) => {
    const { store } = ctx;
    const project = request.project;
    const listing = listingOf(request, ctx);
    if ("userId" in listing) {
      // A client may list only its own invitations ("me" or its own id).
      if (request.accessType === "client" && listing.userId !== request.user?.id) throw fail("CANNOT_GET_OWN_USER_WITHOUT_USER");
      const items = invitationsToUser(store, project, listing.userId, ctx.now()).map((code) =>
        invitationView(ctx, code, requireTeam(store, project, String(code.data["team_id"])).display_name),
      );
      return { body: list(items) };
    }
    const { teamId } = listing;
    if (request.accessType === "client") {
      if (!request.user) throw fail("CANNOT_GET_OWN_USER_WITHOUT_USER");
      requireMembership(store, project, teamId, request.user.id);
      for (const permission of ["$read_members", "$invite_members"])
        requireTeamPermission(store, project, teamId, request.user.id, permission);
    }
    const team = requireTeam(store, project, teamId);
    const items = pendingInvitations(store, project, teamId, ctx.now()).map((code) => invitationView(ctx, code, team.display_name));
    return { body: list(items) };
  },

  acceptTeamInvitationById: (request, ctx) => {
    const { store } = ctx;
    const project = request.project;
    const invitationId = uuidParam(request, "params.invitation_id", request.params["invitation_id"]);
    const userId = userIdParam(request, "query.user_id", queryOf(request, "user_id"));
    if (request.accessType === "client") {
      if (!request.user || userId !== request.user.id) throw fail("CANNOT_GET_OWN_USER_WITHOUT_USER");
      const restricted = restrictedReasonOf(ctx.profile, store, request.user);
      if (restricted) throw fail("TEAM_INVITATION_RESTRICTED_USER_NOT_ALLOWED", { restricted_reason: restricted });
    }
    // Unknown, used, expired, or sent to an address the user has not verified: the service says the same.
    const code = invitationsToUser(store, project, userId, ctx.now()).find((c) => c.data["invitation_id"] === invitationId);
    if (!code) throw fail("VERIFICATION_CODE_NOT_FOUND");
    store.markCodeUsed(code.code, ctx.now());
    const teamId = String(code.data["team_id"]);
    requireTeam(store, project, teamId);
    if (!membershipOf(store, project, teamId, userId)) addMember(store, project, teamId, userId, "member");
    return { body: {} };
  },

  revokeTeamInvitation: (request, ctx) => {
    const { store } = ctx;
    const project = request.project;
    const invitationId = uuidParam(request, "params.invitation_id", request.params["invitation_id"]);
    const teamId = uuidParam(request, "query.team_id", queryOf(request, "team_id"));
    if (request.accessType === "client") {
      if (!request.user) throw fail("CANNOT_GET_OWN_USER_WITHOUT_USER");
      requireTeamPermission(store, project, teamId, request.user.id, "$remove_members");
    } else {
      requireTeam(store, project, teamId);
    }
    const code = store
      .codesOf(project.id, "team_invitation")
      .find((c) => c.data["invitation_id"] === invitationId && c.data["team_id"] === teamId);
    if (!code) throw statusFailure(404, "Team invitation not found.");
    store.deleteCode(code.code);
    return { body: { success: true } };
  },

  checkTeamInvitationCode: (request, ctx) => {
    redeemCode(ctx, request.project, "team_invitation", codeOf(request), false);
    return { body: { is_code_valid: true } };
  },

  getTeamInvitationDetails: (request, ctx) => {
    const record = redeemCode(ctx, request.project, "team_invitation", codeOf(request), false);
    if (!request.user) throw fail("USER_AUTHENTICATION_REQUIRED");
    const team = requireTeam(ctx.store, request.project, String(record.data["team_id"]));
    return { body: { team_id: team.id, team_display_name: team.display_name } };
  },

  acceptTeamInvitation: (request, ctx) => {
    // As in the service, the code is used up before the user is checked.
    const record = redeemCode(ctx, request.project, "team_invitation", codeOf(request));
    if (!request.user) throw fail("USER_AUTHENTICATION_REQUIRED");
    // 2.8.86: a restricted user (anonymous ones too) may not join a team this way.
    const restricted = restrictedReasonOf(ctx.profile, ctx.store, request.user);
    if (restricted) throw fail("TEAM_INVITATION_RESTRICTED_USER_NOT_ALLOWED", { restricted_reason: restricted });
    const teamId = String(record.data["team_id"]);
    requireTeam(ctx.store, request.project, teamId);
    if (!membershipOf(ctx.store, request.project, teamId, request.user.id))
      addMember(ctx.store, request.project, teamId, request.user.id, "member");
    return { body: {} };
  },
} satisfies Handlers;
