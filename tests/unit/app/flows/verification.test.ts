// E-mail verification (SPEC §7 contact channels, endpoints.md §A).
import { describe, expect, it } from "vitest";
import { KnownErrors } from "../../../../generated/known-errors.js";
import { verifyEmail } from "../../../../runtime/app/flows/verification.js";
import { NO_TOKENS } from "../../../../runtime/sessions/tokens/store.js";
import { testAppContext } from "../../../helpers/app-context.js";
import { json, knownError } from "../../../helpers/fake-service.js";
import { rejectionOf } from "../../../helpers/outcome.js";

describe("verifyEmail", () => {
  it("posts the code to /contact-channels/verify", async () => {
    const { ctx, service } = testAppContext(() => json({ success: true }), { tokens: NO_TOKENS });
    expect(await verifyEmail(ctx, "code-1")).toEqual({ status: "ok", data: undefined });
    expect(service.requests.map((r) => ({ method: r.method, path: r.path, body: JSON.parse(r.body) as unknown }))).toEqual([
      { method: "POST", path: "/api/v1/contact-channels/verify", body: { code: "code-1" } },
    ]);
    expect(service.requests[0]!.headers["x-stack-refresh-token"]).toBeUndefined();
  });

  it.each([
    ["VERIFICATION_CODE_NOT_FOUND", 404, KnownErrors.VerificationCodeNotFound],
    ["VERIFICATION_CODE_EXPIRED", 400, KnownErrors.VerificationCodeExpired],
    ["VERIFICATION_CODE_ALREADY_USED", 409, KnownErrors.VerificationCodeAlreadyUsed],
    ["VERIFICATION_CODE_MAX_ATTEMPTS_REACHED", 400, KnownErrors.VerificationCodeMaxAttemptsReached],
  ] as const)("returns %s as a Result error", async (code, status, cls) => {
    const { ctx } = testAppContext(() => knownError(status, code, "bad code"), { tokens: NO_TOKENS });
    const result = await verifyEmail(ctx, "code-1");
    expect(result.status).toBe("error");
    expect((result as { error: unknown }).error).toBeInstanceOf(cls);
  });

  it("throws EMAIL_ALREADY_VERIFIED", async () => {
    const { ctx } = testAppContext(() => knownError(409, "EMAIL_ALREADY_VERIFIED", "The e-mail is already verified."), {
      tokens: NO_TOKENS,
    });
    expect(await rejectionOf(verifyEmail(ctx, "code-1"))).toBeInstanceOf(KnownErrors.EmailAlreadyVerified);
  });
});
