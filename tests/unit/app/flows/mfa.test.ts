// Multi-factor (TOTP) sign-in (SPEC §7, §8; wire contract §10, §14: no prompt()).
import { describe, expect, it } from "vitest";
import { KnownErrors } from "../../../../generated/known-errors.js";
import { signInWithMfa } from "../../../../runtime/app/flows/mfa.js";
import { signInResultOf, type AfterAuthKind } from "../../../../runtime/app/flows/sign-in.js";
import { signInWithCredential } from "../../../../runtime/app/flows/password.js";
import { isStackError } from "../../../../runtime/errors.js";
import { ResponseFormatError } from "../../../../runtime/http/request-errors.js";
import { NO_TOKENS } from "../../../../runtime/sessions/tokens/store.js";
import { testAppContext } from "../../../helpers/app-context.js";
import { json, jwt, knownError, type Handler, type SentRequest } from "../../../helpers/fake-service.js";
import { rejectionOf } from "../../../helpers/outcome.js";

const NEW_ACCESS = jwt({ exp: Math.floor(Date.now() / 1000) + 600 });
const issued = (isNewUser: boolean) =>
  json({ access_token: NEW_ACCESS, refresh_token: "rt-new", user_id: "user-1", is_new_user: isNewUser });
const sent = (r: SentRequest) => ({ method: r.method, path: r.path, body: JSON.parse(r.body) as unknown });
const MFA_MESSAGE = "Multi-factor authentication is required for this user.";

function signedOut(handler: Handler) {
  const t = testAppContext(handler, { tokens: NO_TOKENS });
  const redirected: { kind: AfterAuthKind; refreshToken: string | null }[] = [];
  const redirects = {
    redirectAfter: async (kind: AfterAuthKind) => void redirected.push({ kind, refreshToken: t.store!.get().refreshToken }),
  };
  return { ...t, redirected, redirects };
}

describe("signInWithMfa", () => {
  it("posts {type: totp, totp, code: attemptCode} to /auth/mfa/sign-in", async () => {
    const { ctx, service, redirects } = signedOut(() => issued(false));
    await signInWithMfa(ctx, "123456", "attempt-1", {}, redirects);
    expect(service.requests.map(sent)).toEqual([
      { method: "POST", path: "/api/v1/auth/mfa/sign-in", body: { type: "totp", totp: "123456", code: "attempt-1" } },
    ]);
    expect(service.requests[0]!.headers["x-stack-refresh-token"]).toBeUndefined();
  });

  it("stores the tokens, then goes to after-sign-in", async () => {
    const { ctx, store, redirects, redirected } = signedOut(() => issued(false));
    expect(await signInWithMfa(ctx, "123456", "attempt-1", {}, redirects)).toEqual({ status: "ok", data: undefined });
    expect(store!.get()).toEqual({ refreshToken: "rt-new", accessToken: NEW_ACCESS });
    expect(redirected).toEqual([{ kind: "sign-in", refreshToken: "rt-new" }]);
  });

  it("sends a user the sign-in created to after-sign-up", async () => {
    const { ctx, redirects, redirected } = signedOut(() => issued(true));
    await signInWithMfa(ctx, "123456", "attempt-1", undefined, redirects);
    expect(redirected).toEqual([{ kind: "sign-up", refreshToken: "rt-new" }]);
  });

  it("does not redirect with noRedirect", async () => {
    const { ctx, store, redirects, redirected } = signedOut(() => issued(false));
    await signInWithMfa(ctx, "123456", "attempt-1", { noRedirect: true }, redirects);
    expect(store!.get().refreshToken).toBe("rt-new");
    expect(redirected).toEqual([]);
  });

  it("returns INVALID_TOTP_CODE as a Result error and stores nothing", async () => {
    const { ctx, store, redirects, redirected } = signedOut(() =>
      knownError(400, "INVALID_TOTP_CODE", "The TOTP code is invalid. Please try again."),
    );
    const result = await signInWithMfa(ctx, "000000", "attempt-1", {}, redirects);
    expect((result as { error: unknown }).error).toBeInstanceOf(KnownErrors.InvalidTotpCode);
    expect(store!.get()).toEqual(NO_TOKENS);
    expect(redirected).toEqual([]);
  });

  it.each([
    ["VERIFICATION_CODE_NOT_FOUND", 404, KnownErrors.VerificationCodeNotFound],
    ["VERIFICATION_CODE_EXPIRED", 400, KnownErrors.VerificationCodeExpired],
    ["VERIFICATION_CODE_ALREADY_USED", 409, KnownErrors.VerificationCodeAlreadyUsed],
  ] as const)("returns a stale attempt code (%s) as a Result error", async (code, status, cls) => {
    const { ctx, redirects } = signedOut(() => knownError(status, code, "bad attempt code"));
    const result = await signInWithMfa(ctx, "123456", "attempt-old", {}, redirects);
    expect((result as { error: unknown }).error).toBeInstanceOf(cls);
  });

  it("fails before spending the attempt code when the app has no token store", async () => {
    const t = testAppContext(() => issued(false), { tokens: null });
    const error = await rejectionOf(signInWithMfa(t.ctx, "123456", "attempt-1", {}, { redirectAfter: async () => {} }));
    expect(isStackError(error, "StackConfigurationError")).toBe(true);
    expect(t.service.requests).toEqual([]);
  });
});

describe("a sign-in that needs a second factor", () => {
  it("surfaces the attempt code, which signInWithMfa then completes", async () => {
    const { ctx, service, store, redirects, redirected } = signedOut((r) =>
      r.path.endsWith("/auth/password/sign-in")
        ? knownError(400, "MULTI_FACTOR_AUTHENTICATION_REQUIRED", MFA_MESSAGE, { attempt_code: "attempt-7" })
        : issued(false),
    );
    const first = await signInWithCredential(ctx, { email: "a@example.com", password: "pw-1" }, redirects);
    if (first.status !== "error" || !(first.error instanceof KnownErrors.MultiFactorAuthenticationRequired))
      throw new Error("expected MFA");
    const attemptCode = first.error.details?.attempt_code ?? "";
    expect(await signInWithMfa(ctx, "123456", attemptCode, {}, redirects)).toEqual({ status: "ok", data: undefined });
    expect(sent(service.requests[1]!).body).toEqual({ type: "totp", totp: "123456", code: "attempt-7" });
    expect(store!.get().refreshToken).toBe("rt-new");
    expect(redirected).toEqual([{ kind: "sign-in", refreshToken: "rt-new" }]);
  });

  it("is an assertion error when the service gives no attempt code", async () => {
    const { ctx } = signedOut(() => knownError(400, "MULTI_FACTOR_AUTHENTICATION_REQUIRED", MFA_MESSAGE));
    const error = await rejectionOf(
      signInResultOf(() => ctx.client.api.POST("/auth/password/sign-in", { body: { email: "a", password: "b" } }), []),
    );
    expect(isStackError(error, "StackAssertionError")).toBe(true);
    expect((error as Error).cause).toBeInstanceOf(KnownErrors.MultiFactorAuthenticationRequired);
  });

  it("is a ResponseFormatError when a sign-in answers without tokens", async () => {
    const { ctx } = signedOut(() => json({ access_token: NEW_ACCESS }));
    const error = await rejectionOf(
      signInResultOf(() => ctx.client.api.POST("/auth/password/sign-in", { body: { email: "a", password: "b" } }), []),
    );
    expect(error).toBeInstanceOf(ResponseFormatError);
    expect(error).toMatchObject({
      operationId: "signInWithPassword",
      status: 200,
      path: "$.refresh_token",
      message: "signInWithPassword: the service answered HTTP 200 with a body the API does not allow: $.refresh_token is missing",
    });
  });
});
