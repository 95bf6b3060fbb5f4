// E-mail and password flows (SPEC §7 auth, endpoints.md §A, wire contract §10, §13).
import { describe, expect, it } from "vitest";
import { KnownErrors } from "../../../../generated/known-errors.js";
import type { AfterAuthKind } from "../../../../runtime/app/flows/sign-in.js";
import { setPassword, signInWithCredential, updatePassword } from "../../../../runtime/app/flows/password.js";
import { resetPassword, sendForgotPasswordEmail, verifyPasswordResetCode } from "../../../../runtime/app/flows/password-reset.js";
import { signUpWithCredential } from "../../../../runtime/app/flows/sign-up.js";
import { isStackError, StackConfigurationError } from "../../../../runtime/errors.js";
import { NO_TOKENS } from "../../../../runtime/sessions/tokens/store.js";
import { testAppContext } from "../../../helpers/app-context.js";
import { json, jwt, knownError, type Handler, type SentRequest } from "../../../helpers/fake-service.js";
import { rejectionOf } from "../../../helpers/outcome.js";

const NEW_ACCESS = jwt({ exp: Math.floor(Date.now() / 1000) + 600 });
const issued = (extra: Record<string, unknown> = {}) =>
  json({ access_token: NEW_ACCESS, refresh_token: "rt-new", user_id: "user-1", ...extra });

/** A signed-out app whose redirects are recorded, with the tokens stored at the moment each redirect was asked for. */
function signedOut(handler: Handler) {
  const t = testAppContext(handler, { tokens: NO_TOKENS });
  const redirected: { kind: AfterAuthKind; refreshToken: string | null }[] = [];
  const redirects = {
    redirectAfter: async (kind: AfterAuthKind) => void redirected.push({ kind, refreshToken: t.store!.get().refreshToken }),
  };
  return { ...t, redirected, redirects };
}

const sent = (r: SentRequest) => ({ method: r.method, path: r.path, body: r.body === "" ? undefined : JSON.parse(r.body) });

describe("signInWithCredential", () => {
  it("posts email and password to /auth/password/sign-in without the refresh token", async () => {
    const { ctx, service, redirects } = signedOut(() => issued());
    await signInWithCredential(ctx, { email: "a@example.com", password: "pw-1" }, redirects);
    expect(service.requests.map(sent)).toEqual([
      { method: "POST", path: "/api/v1/auth/password/sign-in", body: { email: "a@example.com", password: "pw-1" } },
    ]);
    expect(service.requests[0]!.headers["x-stack-refresh-token"]).toBeUndefined();
  });

  it("stores the tokens, then goes to after-sign-in", async () => {
    const { ctx, store, redirects, redirected } = signedOut(() => issued());
    const result = await signInWithCredential(ctx, { email: "a@example.com", password: "pw-1" }, redirects);
    expect(result).toEqual({ status: "ok", data: undefined });
    expect(store!.get()).toEqual({ refreshToken: "rt-new", accessToken: NEW_ACCESS });
    expect(redirected).toEqual([{ kind: "sign-in", refreshToken: "rt-new" }]);
  });

  it("does not redirect with noRedirect", async () => {
    const { ctx, store, redirects, redirected } = signedOut(() => issued());
    await signInWithCredential(ctx, { email: "a@example.com", password: "pw-1", noRedirect: true }, redirects);
    expect(store!.get().refreshToken).toBe("rt-new");
    expect(redirected).toEqual([]);
  });

  it("returns EMAIL_PASSWORD_MISMATCH as a Result error and stores nothing", async () => {
    const { ctx, store, redirects, redirected } = signedOut(() => knownError(400, "EMAIL_PASSWORD_MISMATCH", "Wrong e-mail or password."));
    const result = await signInWithCredential(ctx, { email: "a@example.com", password: "wrong" }, redirects);
    expect(result.status).toBe("error");
    const error = (result as { error: unknown }).error;
    expect(error).toBeInstanceOf(KnownErrors.EmailPasswordMismatch);
    expect((error as Error).message).toBe("Wrong e-mail or password.");
    expect(store!.get()).toEqual(NO_TOKENS);
    expect(redirected).toEqual([]);
  });

  it("returns MULTI_FACTOR_AUTHENTICATION_REQUIRED with its attempt code", async () => {
    const { ctx, store, redirects, redirected } = signedOut(() =>
      knownError(400, "MULTI_FACTOR_AUTHENTICATION_REQUIRED", "Multi-factor authentication is required for this user.", {
        attempt_code: "attempt-1",
      }),
    );
    const result = await signInWithCredential(ctx, { email: "a@example.com", password: "pw-1" }, redirects);
    if (result.status !== "error") throw new Error("expected an error Result");
    expect(result.error).toBeInstanceOf(KnownErrors.MultiFactorAuthenticationRequired);
    expect(result.error.details).toEqual({ attempt_code: "attempt-1" });
    expect(store!.get()).toEqual(NO_TOKENS);
    expect(redirected).toEqual([]);
  });

  it("throws other known errors", async () => {
    const { ctx, redirects } = signedOut(() =>
      knownError(400, "PASSWORD_AUTHENTICATION_NOT_ENABLED", "Password authentication is not enabled."),
    );
    const error = await rejectionOf(signInWithCredential(ctx, { email: "a@example.com", password: "pw-1" }, redirects));
    expect(error).toBeInstanceOf(KnownErrors.PasswordAuthenticationNotEnabled);
  });

  it("fails before sending the password when the app has no token store", async () => {
    const t = testAppContext(() => issued(), { tokens: null });
    const error = await rejectionOf(
      signInWithCredential(t.ctx, { email: "a@example.com", password: "pw-1" }, { redirectAfter: async () => {} }),
    );
    expect(isStackError(error, "StackConfigurationError")).toBe(true);
    expect(t.service.requests).toEqual([]);
  });
});

describe("signUpWithCredential", () => {
  it("posts email, password and the absolute e-mail-verification URL by default", async () => {
    const { ctx, service, redirects } = signedOut(() => issued());
    await signUpWithCredential(ctx, { email: "a@example.com", password: "pw-1" }, redirects);
    expect(service.requests.map(sent)).toEqual([
      {
        method: "POST",
        path: "/api/v1/auth/password/sign-up",
        body: { email: "a@example.com", password: "pw-1", verification_callback_url: "https://app.example.com/handler/email-verification" },
      },
    ]);
    expect(service.requests[0]!.headers["x-stack-refresh-token"]).toBeUndefined();
  });

  it("sends verificationCallbackUrl when given, made absolute", async () => {
    const { ctx, service, redirects } = signedOut(() => issued());
    await signUpWithCredential(ctx, { email: "a@example.com", password: "pw-1", verificationCallbackUrl: "/verify?x=1" }, redirects);
    expect(sent(service.requests[0]!).body.verification_callback_url).toBe("https://app.example.com/verify?x=1");
  });

  it("sends no verification URL with noVerificationCallback", async () => {
    const { ctx, service, redirects } = signedOut(() => issued());
    await signUpWithCredential(ctx, { email: "a@example.com", password: "pw-1", noVerificationCallback: true }, redirects);
    expect(service.requests.map(sent)).toEqual([
      { method: "POST", path: "/api/v1/auth/password/sign-up", body: { email: "a@example.com", password: "pw-1" } },
    ]);
  });

  it("refuses noVerificationCallback with a verificationCallbackUrl, sending nothing", async () => {
    const { ctx, service, redirects } = signedOut(() => issued());
    const options = { email: "a@example.com", password: "pw-1", noVerificationCallback: true, verificationCallbackUrl: "/verify" };
    const error = await rejectionOf(signUpWithCredential(ctx, options, redirects));
    expect(error).toBeInstanceOf(StackConfigurationError);
    expect((error as Error).message).toBe(
      "signUpWithCredential: verificationCallbackUrl is not allowed when noVerificationCallback is true; pass one or the other.",
    );
    expect(service.requests).toEqual([]);
  });

  it("signs up again without the default verification URL when the service does not trust it", async () => {
    const { ctx, service, store, redirects } = signedOut((r) =>
      r.body.includes("verification_callback_url") ? knownError(400, "REDIRECT_URL_NOT_WHITELISTED", "Not trusted.") : issued(),
    );
    expect(await signUpWithCredential(ctx, { email: "a@example.com", password: "pw-1" }, redirects)).toEqual({
      status: "ok",
      data: undefined,
    });
    expect(service.requests.map((r) => sent(r).body)).toEqual([
      { email: "a@example.com", password: "pw-1", verification_callback_url: "https://app.example.com/handler/email-verification" },
      { email: "a@example.com", password: "pw-1" },
    ]);
    expect(store!.get().refreshToken).toBe("rt-new");
  });

  it("throws REDIRECT_URL_NOT_WHITELISTED for a verificationCallbackUrl the app named, without a second request", async () => {
    const { ctx, service, redirects } = signedOut(() => knownError(400, "REDIRECT_URL_NOT_WHITELISTED", "Not trusted."));
    const options = { email: "a@example.com", password: "pw-1", verificationCallbackUrl: "https://elsewhere.example/verify" };
    expect(await rejectionOf(signUpWithCredential(ctx, options, redirects))).toBeInstanceOf(KnownErrors.RedirectUrlNotWhitelisted);
    expect(service.requests).toHaveLength(1);
  });

  it("stores the tokens, then goes to after-sign-up", async () => {
    const { ctx, store, redirects, redirected } = signedOut(() => issued());
    const result = await signUpWithCredential(ctx, { email: "a@example.com", password: "pw-1" }, redirects);
    expect(result).toEqual({ status: "ok", data: undefined });
    expect(store!.get()).toEqual({ refreshToken: "rt-new", accessToken: NEW_ACCESS });
    expect(redirected).toEqual([{ kind: "sign-up", refreshToken: "rt-new" }]);
  });

  it("does not redirect with noRedirect", async () => {
    const { ctx, redirects, redirected } = signedOut(() => issued());
    await signUpWithCredential(ctx, { email: "a@example.com", password: "pw-1", noRedirect: true }, redirects);
    expect(redirected).toEqual([]);
  });

  it.each([
    ["USER_EMAIL_ALREADY_EXISTS", 409, KnownErrors.UserWithEmailAlreadyExists],
    ["PASSWORD_TOO_SHORT", 400, KnownErrors.PasswordTooShort],
    ["PASSWORD_TOO_LONG", 400, KnownErrors.PasswordTooLong],
    ["PASSWORD_REQUIREMENTS_NOT_MET", 400, KnownErrors.PasswordRequirementsNotMet],
  ] as const)("returns %s as a Result error", async (code, status, cls) => {
    const { ctx, store, redirects, redirected } = signedOut(() => knownError(status, code, "no"));
    const result = await signUpWithCredential(ctx, { email: "a@example.com", password: "pw" }, redirects);
    expect(result.status).toBe("error");
    expect((result as { error: unknown }).error).toBeInstanceOf(cls);
    expect(store!.get()).toEqual(NO_TOKENS);
    expect(redirected).toEqual([]);
  });

  it("throws SIGN_UP_NOT_ENABLED", async () => {
    const { ctx, redirects } = signedOut(() =>
      knownError(400, "SIGN_UP_NOT_ENABLED", "Creation of new accounts is not enabled for this project"),
    );
    expect(await rejectionOf(signUpWithCredential(ctx, { email: "a@example.com", password: "pw-1" }, redirects))).toBeInstanceOf(
      KnownErrors.SignUpNotEnabled,
    );
  });
});

describe("sendForgotPasswordEmail", () => {
  it("posts the e-mail and the absolute password-reset URL by default", async () => {
    const { ctx, service } = testAppContext(() => json({ success: true }), { tokens: NO_TOKENS });
    expect(await sendForgotPasswordEmail(ctx, "a@example.com")).toEqual({ status: "ok", data: undefined });
    expect(service.requests.map(sent)).toEqual([
      {
        method: "POST",
        path: "/api/v1/auth/password/send-reset-code",
        body: { email: "a@example.com", callback_url: "https://app.example.com/handler/password-reset" },
      },
    ]);
  });

  it("sends callbackUrl when given", async () => {
    const { ctx, service } = testAppContext(() => json({ success: true }), { tokens: NO_TOKENS });
    await sendForgotPasswordEmail(ctx, "a@example.com", { callbackUrl: "https://app.example.com/reset" });
    expect(sent(service.requests[0]!).body.callback_url).toBe("https://app.example.com/reset");
  });

  it("returns USER_NOT_FOUND as a Result error", async () => {
    const { ctx } = testAppContext(() => knownError(404, "USER_NOT_FOUND", "User not found."), { tokens: NO_TOKENS });
    const result = await sendForgotPasswordEmail(ctx, "nobody@example.com");
    expect((result as { error: unknown }).error).toBeInstanceOf(KnownErrors.UserNotFound);
  });

  it("throws REDIRECT_URL_NOT_WHITELISTED", async () => {
    const { ctx } = testAppContext(() => knownError(400, "REDIRECT_URL_NOT_WHITELISTED", "Redirect URL not whitelisted."), {
      tokens: NO_TOKENS,
    });
    expect(await rejectionOf(sendForgotPasswordEmail(ctx, "a@example.com"))).toBeInstanceOf(KnownErrors.RedirectUrlNotWhitelisted);
  });
});

const VERIFICATION_ERRORS = [
  ["VERIFICATION_CODE_NOT_FOUND", 404, KnownErrors.VerificationCodeNotFound],
  ["VERIFICATION_CODE_EXPIRED", 400, KnownErrors.VerificationCodeExpired],
  ["VERIFICATION_CODE_ALREADY_USED", 409, KnownErrors.VerificationCodeAlreadyUsed],
  ["VERIFICATION_CODE_MAX_ATTEMPTS_REACHED", 400, KnownErrors.VerificationCodeMaxAttemptsReached],
] as const;

describe("verifyPasswordResetCode", () => {
  it("posts the code to /auth/password/reset/check-code", async () => {
    const { ctx, service } = testAppContext(() => json({ is_code_valid: true }), { tokens: NO_TOKENS });
    expect(await verifyPasswordResetCode(ctx, "code-1")).toEqual({ status: "ok", data: undefined });
    expect(service.requests.map(sent)).toEqual([
      { method: "POST", path: "/api/v1/auth/password/reset/check-code", body: { code: "code-1" } },
    ]);
  });

  it.each(VERIFICATION_ERRORS)("returns %s as a Result error", async (code, status, cls) => {
    const { ctx } = testAppContext(() => knownError(status, code, "bad code"), { tokens: NO_TOKENS });
    const result = await verifyPasswordResetCode(ctx, "code-1");
    expect((result as { error: unknown }).error).toBeInstanceOf(cls);
    expect((result as { error: unknown }).error).toBeInstanceOf(KnownErrors.VerificationCodeError);
  });
});

describe("resetPassword", () => {
  it("posts code and password to /auth/password/reset", async () => {
    const { ctx, service } = testAppContext(() => json({ success: true }), { tokens: NO_TOKENS });
    expect(await resetPassword(ctx, { code: "code-1", password: "new-pw" })).toEqual({ status: "ok", data: undefined });
    expect(service.requests.map(sent)).toEqual([
      { method: "POST", path: "/api/v1/auth/password/reset", body: { code: "code-1", password: "new-pw" } },
    ]);
  });

  it.each(VERIFICATION_ERRORS)("returns %s as a Result error", async (code, status, cls) => {
    const { ctx } = testAppContext(() => knownError(status, code, "bad code"), { tokens: NO_TOKENS });
    const result = await resetPassword(ctx, { code: "code-1", password: "new-pw" });
    expect((result as { error: unknown }).error).toBeInstanceOf(cls);
  });
});

describe("updatePassword", () => {
  it("posts old and new password with the session's refresh token", async () => {
    const { ctx, service } = testAppContext(() => json({ success: true }));
    expect(await updatePassword(ctx, { oldPassword: "old-pw", newPassword: "new-pw" })).toBeUndefined();
    expect(service.requests.map(sent)).toEqual([
      { method: "POST", path: "/api/v1/auth/password/update", body: { old_password: "old-pw", new_password: "new-pw" } },
    ]);
    expect(service.requests[0]!.headers["x-stack-refresh-token"]).toBe("rt-user");
  });

  it("sends no refresh-token header for a session that has only an access token", async () => {
    const accessToken = jwt({ exp: Math.floor(Date.now() / 1000) + 3600 });
    const { ctx, service } = testAppContext(() => json({ success: true }), { tokens: { refreshToken: null, accessToken } });
    await updatePassword(ctx, { oldPassword: "old-pw", newPassword: "new-pw" });
    expect(service.requests[0]!.headers["x-stack-access-token"]).toBe(accessToken);
    expect(service.requests[0]!.headers["x-stack-refresh-token"]).toBeUndefined();
  });

  it.each([
    ["PASSWORD_CONFIRMATION_MISMATCH", KnownErrors.PasswordConfirmationMismatch],
    ["PASSWORD_TOO_SHORT", KnownErrors.PasswordTooShort],
    ["PASSWORD_TOO_LONG", KnownErrors.PasswordTooLong],
  ] as const)("returns %s, not thrown, as the reference SDK does", async (code, cls) => {
    const { ctx } = testAppContext(() => knownError(400, code, "no"));
    const error = await updatePassword(ctx, { oldPassword: "old-pw", newPassword: "new-pw" });
    expect(error).toBeInstanceOf(cls);
    expect(error?.errorCode).toBe(code);
  });

  it("throws USER_AUTHENTICATION_REQUIRED", async () => {
    const { ctx } = testAppContext(() =>
      knownError(401, "USER_AUTHENTICATION_REQUIRED", "User authentication required for this endpoint."),
    );
    expect(await rejectionOf(updatePassword(ctx, { oldPassword: "a", newPassword: "b" }))).toBeInstanceOf(
      KnownErrors.UserAuthenticationRequired,
    );
  });
});

describe("setPassword", () => {
  it("posts the password to /auth/password/set without the refresh token", async () => {
    const { ctx, service } = testAppContext(() => json({ success: true }));
    expect(await setPassword(ctx, { password: "pw-1" })).toBeUndefined();
    expect(service.requests.map(sent)).toEqual([{ method: "POST", path: "/api/v1/auth/password/set", body: { password: "pw-1" } }]);
    expect(service.requests[0]!.headers["x-stack-refresh-token"]).toBeUndefined();
  });

  it.each([
    ["PASSWORD_TOO_SHORT", KnownErrors.PasswordTooShort],
    ["PASSWORD_TOO_LONG", KnownErrors.PasswordTooLong],
  ] as const)("returns %s, not thrown, as the reference SDK does", async (code, cls) => {
    const { ctx } = testAppContext(() => knownError(400, code, "no"));
    expect(await setPassword(ctx, { password: "pw" })).toBeInstanceOf(cls);
  });
});
