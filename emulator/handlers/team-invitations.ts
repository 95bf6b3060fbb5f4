// Team invitations: an e-mailed one-time code (kind `team_invitation`, data
// `{ team_id, invitation_id }`) whose link is the app's team-invitation page.
// The team's members list and revoke pending ones; the invitee checks the code,
// reads the team's name and accepts, which makes them a member with the
// project's default member permissions and uses the code up.
import type { EmulatorRequest, Handlers } from "../engine/context.js";
import { fail } from "../engine/http.js";
import type { CodeRecord, ProjectRecord, Store } from "../engine/store.js";
import { randomId } from "../engine/tokens.js";
import { list, restrictedReasonOf } from "../engine/views.js";
import { checkCallbackUrl, mailCode, redeemCode } from "./common.js";
import {
  membershipOf,
  queryOf,
  requireMembership,
  requireTeam,
  requireTeamPermission,
  schemaError,
  statusError,
  uuidParam,
} from "./permissions.js";
import { addMember } from "./teams.js";

/** Invitation codes are 45 characters; the service reads them without case (e-mails may show them upper-case). */
function codeOf(request: EmulatorRequest): string {
  const code = (request.body as { code: string }).code;
  if (code.length !== 45) throw schemaError(request, "body.code must be exactly 45 characters");
  return code.toLowerCase();
}

/** The team's invitations that can still be accepted. */
function pendingInvitations(store: Store, project: ProjectRecord, teamId: string, now: number): CodeRecord[] {
  return [...store.tables.codes.values()].filter(
    (code) =>
      code.kind === "team_invitation" &&
      code.project_id === project.id &&
      code.data["team_id"] === teamId &&
      code.used_at_millis === null &&
      code.expires_at_millis > now,
  );
}

export const teamInvitationHandlers: Handlers = {
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
    const teamId = uuidParam(request, "query.team_id", queryOf(request, "team_id"));
    if (request.accessType === "client") {
      if (!request.user) throw fail("CANNOT_GET_OWN_USER_WITHOUT_USER");
      requireMembership(store, project, teamId, request.user.id);
      for (const permission of ["$read_members", "$invite_members"])
        requireTeamPermission(store, project, teamId, request.user.id, permission);
    } else {
      requireTeam(store, project, teamId);
    }
    const items = pendingInvitations(store, project, teamId, ctx.now()).map((code) => ({
      id: String(code.data["invitation_id"]),
      team_id: teamId,
      expires_at_millis: code.expires_at_millis,
      recipient_email: code.recipient,
    }));
    return { body: list(items) };
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
    const code = [...store.tables.codes.values()].find(
      (c) =>
        c.kind === "team_invitation" &&
        c.project_id === project.id &&
        c.data["invitation_id"] === invitationId &&
        c.data["team_id"] === teamId,
    );
    if (!code) return statusError(404, "Team invitation not found.");
    store.delete("codes", code.code);
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
};
