// The known errors the hosted service sends since 2.8.86, known from the newest
// official SDK packages (stack-shared 2.8.102 to 2.8.109): each has its class,
// status and message, and carries the version marker that keeps it out of the
// older versions' views (the emulator's 2.8.11 and 2.8.86 never answer it).
import { describe, expect, it } from "vitest";
import { createKnownError, isKnownError, KnownError, KnownErrors, knownErrorStatus } from "../../generated/known-errors.js";
import { knownErrorMessage } from "../../generated/known-error-messages.js";
import { readKnownError } from "../../runtime/http/known-error-answer.js";
import { documentFor, fullDocument } from "../helpers/document-view.js";

const MISMATCH_MESSAGE =
  "This team invitation was sent to a different email address. Sign in with the invited email, or add and verify that email on your account, then try again.";

type Schemas = Record<string, { "x-added-in"?: string; oneOf?: { $ref: string }[] }>;
const schemasOf = (document: Record<string, unknown>) => (document.components as { schemas: Schemas }).schemas;
const unionOf = (document: Record<string, unknown>) => (schemasOf(document)["KnownError"]?.oneOf ?? []).map((branch) => branch.$ref);

describe("TEAM_INVITATION_EMAIL_MISMATCH", () => {
  it("is TeamInvitationEmailMismatch: 403, no details, a direct child of KnownError with the service's fixed message", () => {
    const error = createKnownError("TEAM_INVITATION_EMAIL_MISMATCH", undefined, { message: knownErrorMessage("TEAM_INVITATION_EMAIL_MISMATCH") });
    expect(error).toBeInstanceOf(KnownErrors.TeamInvitationEmailMismatch);
    expect(Object.getPrototypeOf(KnownErrors.TeamInvitationEmailMismatch)).toBe(KnownError);
    expect([error.name, error.code, error.status, error.message, error.details]).toEqual([
      "TeamInvitationEmailMismatch",
      "TEAM_INVITATION_EMAIL_MISMATCH",
      403,
      MISMATCH_MESSAGE,
      undefined,
    ]);
    expect(knownErrorStatus.TEAM_INVITATION_EMAIL_MISMATCH).toBe(403);
    expect(KnownErrors.TeamInvitationEmailMismatch.codeChain).toEqual(["TEAM_INVITATION_EMAIL_MISMATCH"]);
  });

  it("rebuilds from the service's wire body", () => {
    const body = { code: "TEAM_INVITATION_EMAIL_MISMATCH", error: MISMATCH_MESSAGE };
    const error = readKnownError(
      { status: 403, headers: new Headers({ "x-stack-known-error": body.code }), text: JSON.stringify(body) },
      "acceptTeamInvitation",
    );
    expect(error).toBeInstanceOf(KnownErrors.TeamInvitationEmailMismatch);
    expect(isKnownError(error, "TEAM_INVITATION_EMAIL_MISMATCH")).toBe(true);
    expect(isKnownError(error, "VERIFICATION_ERROR")).toBe(false);
    expect([error?.status, error?.message]).toEqual([403, MISMATCH_MESSAGE]);
  });

  it("is marked added in 2.8.102: the KnownError union of 2.8.11's and 2.8.86's views leaves it out", () => {
    const ref = "#/components/schemas/TEAM_INVITATION_EMAIL_MISMATCH";
    expect(schemasOf(fullDocument())["TEAM_INVITATION_EMAIL_MISMATCH"]?.["x-added-in"]).toBe("2.8.102");
    expect(unionOf(fullDocument())).toContain(ref);
    expect(unionOf(documentFor("2.8.11"))).not.toContain(ref);
    expect(unionOf(documentFor("2.8.86"))).not.toContain(ref);
  });
});
