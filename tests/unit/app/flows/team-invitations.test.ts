// The invitee's side of team invitations (SPEC §7 teams, endpoints.md §A).
import { describe, expect, it } from "vitest";
import { KnownErrors } from "../../../../generated/known-errors.js";
import {
  acceptTeamInvitation,
  getTeamInvitationDetails,
  verifyTeamInvitationCode,
} from "../../../../runtime/app/flows/team-invitations.js";
import { ResponseFormatError } from "../../../../runtime/http/request-errors.js";
import { testAppContext } from "../../../helpers/app-context.js";
import { json, knownError, type SentRequest } from "../../../helpers/fake-service.js";
import { rejectionOf } from "../../../helpers/outcome.js";

const sent = (r: SentRequest) => ({ method: r.method, path: r.path, body: JSON.parse(r.body) as unknown });

const VERIFICATION_ERRORS = [
  ["VERIFICATION_CODE_NOT_FOUND", 404, KnownErrors.VerificationCodeNotFound],
  ["VERIFICATION_CODE_EXPIRED", 400, KnownErrors.VerificationCodeExpired],
  ["VERIFICATION_CODE_ALREADY_USED", 409, KnownErrors.VerificationCodeAlreadyUsed],
  ["VERIFICATION_CODE_MAX_ATTEMPTS_REACHED", 400, KnownErrors.VerificationCodeMaxAttemptsReached],
] as const;

describe("verifyTeamInvitationCode", () => {
  it("posts the code to /team-invitations/accept/check-code with the user's access token", async () => {
    const { ctx, service, store } = testAppContext(() => json({ is_code_valid: true }));
    expect(await verifyTeamInvitationCode(ctx, "inv-1")).toEqual({ status: "ok", data: undefined });
    expect(service.requests.map(sent)).toEqual([
      { method: "POST", path: "/api/v1/team-invitations/accept/check-code", body: { code: "inv-1" } },
    ]);
    expect(service.requests[0]!.headers["x-stack-access-token"]).toBe(store!.get().accessToken);
    expect(service.requests[0]!.headers["x-stack-refresh-token"]).toBeUndefined();
  });

  it.each(VERIFICATION_ERRORS)("returns %s as a Result error", async (code, status, cls) => {
    const { ctx } = testAppContext(() => knownError(status, code, "bad code"));
    expect(((await verifyTeamInvitationCode(ctx, "inv-1")) as { error: unknown }).error).toBeInstanceOf(cls);
  });
});

describe("acceptTeamInvitation", () => {
  it("posts the code to /team-invitations/accept", async () => {
    const { ctx, service } = testAppContext(() => json({ success: true }));
    expect(await acceptTeamInvitation(ctx, "inv-1")).toEqual({ status: "ok", data: undefined });
    expect(service.requests.map(sent)).toEqual([{ method: "POST", path: "/api/v1/team-invitations/accept", body: { code: "inv-1" } }]);
  });

  it.each(VERIFICATION_ERRORS)("returns %s as a Result error", async (code, status, cls) => {
    const { ctx } = testAppContext(() => knownError(status, code, "bad code"));
    expect(((await acceptTeamInvitation(ctx, "inv-1")) as { error: unknown }).error).toBeInstanceOf(cls);
  });

  it("returns TEAM_INVITATION_EMAIL_MISMATCH (services since 2.8.102) as a Result error of its own class", async () => {
    const message =
      "This team invitation was sent to a different email address. Sign in with the invited email, or add and verify that email on your account, then try again.";
    const { ctx } = testAppContext(() => knownError(403, "TEAM_INVITATION_EMAIL_MISMATCH", message));
    const result = await acceptTeamInvitation(ctx, "inv-1");
    if (result.status !== "error") throw new Error("expected a Result error");
    expect(result.error).toBeInstanceOf(KnownErrors.TeamInvitationEmailMismatch);
    expect([result.error.code, result.error.status, result.error.message]).toEqual(["TEAM_INVITATION_EMAIL_MISMATCH", 403, message]);
  });

  it("throws USER_AUTHENTICATION_REQUIRED", async () => {
    const { ctx } = testAppContext(() =>
      knownError(401, "USER_AUTHENTICATION_REQUIRED", "User authentication required for this endpoint."),
    );
    expect(await rejectionOf(acceptTeamInvitation(ctx, "inv-1"))).toBeInstanceOf(KnownErrors.UserAuthenticationRequired);
  });
});

describe("getTeamInvitationDetails", () => {
  it("posts the code to /team-invitations/accept/details and returns the team's display name", async () => {
    const { ctx, service } = testAppContext(() => json({ team_id: "team-1", team_display_name: "Blue Team" }));
    expect(await getTeamInvitationDetails(ctx, "inv-1")).toEqual({ status: "ok", data: { teamDisplayName: "Blue Team" } });
    expect(service.requests.map(sent)).toEqual([
      { method: "POST", path: "/api/v1/team-invitations/accept/details", body: { code: "inv-1" } },
    ]);
  });

  it.each(VERIFICATION_ERRORS)("returns %s as a Result error", async (code, status, cls) => {
    const { ctx } = testAppContext(() => knownError(status, code, "bad code"));
    expect(((await getTeamInvitationDetails(ctx, "inv-1")) as { error: unknown }).error).toBeInstanceOf(cls);
  });

  it("is a ResponseFormatError when the answer has no team_display_name", async () => {
    const { ctx } = testAppContext(() => json({ team_id: "team-1" }));
    const error = await rejectionOf(getTeamInvitationDetails(ctx, "inv-1"));
    expect(error).toBeInstanceOf(ResponseFormatError);
    expect(error).toMatchObject({
      operationId: "getTeamInvitationDetails",
      status: 200,
      path: "$.team_display_name",
      message: "getTeamInvitationDetails: the service answered HTTP 200 with a body the API does not allow: $.team_display_name is missing",
    });
  });
});
