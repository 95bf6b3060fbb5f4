// Magic link / one-time code (SPEC §2 redirects, §7 auth, endpoints.md §A).
import { describe, expect, it } from "vitest";
import { KnownErrors } from "../../../../generated/known-errors.js";
import { sendMagicLinkEmail, signInWithMagicLink } from "../../../../runtime/app/flows/magic-link.js";
import type { AfterAuthKind } from "../../../../runtime/app/flows/sign-in.js";
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

function signedOut(handler: Handler) {
  const t = testAppContext(handler, { tokens: NO_TOKENS });
  const redirected: { kind: AfterAuthKind; refreshToken: string | null }[] = [];
  const redirects = {
    redirectAfter: async (kind: AfterAuthKind) => void redirected.push({ kind, refreshToken: t.store!.get().refreshToken }),
  };
  return { ...t, redirected, redirects };
}

describe("sendMagicLinkEmail", () => {
  it("posts the e-mail and the absolute magic-link-callback URL by default, and returns the nonce", async () => {
    const { ctx, service } = testAppContext(() => json({ nonce: "nonce-1" }), { tokens: NO_TOKENS });
    expect(await sendMagicLinkEmail(ctx, "a@example.com")).toEqual({ status: "ok", data: { nonce: "nonce-1" } });
    expect(service.requests.map(sent)).toEqual([
      {
        method: "POST",
        path: "/api/v1/auth/otp/send-sign-in-code",
        body: { email: "a@example.com", callback_url: "https://app.example.com/handler/magic-link-callback" },
      },
    ]);
    expect(service.requests[0]!.headers["x-stack-refresh-token"]).toBeUndefined();
  });

  it("uses the configured handler path", async () => {
    const { ctx, service } = testAppContext(() => json({ nonce: "nonce-1" }), { tokens: NO_TOKENS, urls: { handler: "/auth" } });
    await sendMagicLinkEmail(ctx, "a@example.com");
    expect(sent(service.requests[0]!).body).toMatchObject({ callback_url: "https://app.example.com/auth/magic-link-callback" });
  });

  it("sends callbackUrl when given", async () => {
    const { ctx, service } = testAppContext(() => json({ nonce: "nonce-1" }), { tokens: NO_TOKENS });
    await sendMagicLinkEmail(ctx, "a@example.com", { callbackUrl: "https://app.example.com/magic" });
    expect(sent(service.requests[0]!).body).toMatchObject({ callback_url: "https://app.example.com/magic" });
  });

  it("returns REDIRECT_URL_NOT_WHITELISTED as a Result error", async () => {
    const { ctx } = testAppContext(() => knownError(400, "REDIRECT_URL_NOT_WHITELISTED", "Redirect URL not whitelisted."), {
      tokens: NO_TOKENS,
    });
    const result = await sendMagicLinkEmail(ctx, "a@example.com", { callbackUrl: "https://evil.example.net/" });
    expect((result as { error: unknown }).error).toBeInstanceOf(KnownErrors.RedirectUrlNotWhitelisted);
  });

  it("throws USER_EMAIL_ALREADY_EXISTS", async () => {
    const { ctx } = testAppContext(() => knownError(409, "USER_EMAIL_ALREADY_EXISTS", "User with this email already exists."), {
      tokens: NO_TOKENS,
    });
    expect(await rejectionOf(sendMagicLinkEmail(ctx, "a@example.com"))).toBeInstanceOf(KnownErrors.UserWithEmailAlreadyExists);
  });

  it("is a ResponseFormatError when the answer has no nonce", async () => {
    const { ctx } = testAppContext(() => json({}), { tokens: NO_TOKENS });
    const error = await rejectionOf(sendMagicLinkEmail(ctx, "a@example.com"));
    expect(error).toBeInstanceOf(ResponseFormatError);
    expect(error).toMatchObject({
      operationId: "sendMagicLinkCode",
      status: 200,
      path: "$.nonce",
      message: "sendMagicLinkCode: the service answered HTTP 200 with a body the API does not allow: $.nonce is missing",
    });
  });
});

describe("signInWithMagicLink", () => {
  it("posts the code to /auth/otp/sign-in", async () => {
    const { ctx, service, redirects } = signedOut(() => issued(false));
    await signInWithMagicLink(ctx, "code-1", {}, redirects);
    expect(service.requests.map(sent)).toEqual([{ method: "POST", path: "/api/v1/auth/otp/sign-in", body: { code: "code-1" } }]);
    expect(service.requests[0]!.headers["x-stack-refresh-token"]).toBeUndefined();
  });

  it("stores the tokens and sends an existing user to after-sign-in", async () => {
    const { ctx, store, redirects, redirected } = signedOut(() => issued(false));
    expect(await signInWithMagicLink(ctx, "code-1", {}, redirects)).toEqual({ status: "ok", data: undefined });
    expect(store!.get()).toEqual({ refreshToken: "rt-new", accessToken: NEW_ACCESS });
    expect(redirected).toEqual([{ kind: "sign-in", refreshToken: "rt-new" }]);
  });

  it("sends a new user to after-sign-up", async () => {
    const { ctx, redirects, redirected } = signedOut(() => issued(true));
    await signInWithMagicLink(ctx, "code-1", undefined, redirects);
    expect(redirected).toEqual([{ kind: "sign-up", refreshToken: "rt-new" }]);
  });

  it("does not redirect with noRedirect", async () => {
    const { ctx, store, redirects, redirected } = signedOut(() => issued(true));
    await signInWithMagicLink(ctx, "code-1", { noRedirect: true }, redirects);
    expect(store!.get().refreshToken).toBe("rt-new");
    expect(redirected).toEqual([]);
  });

  it.each([
    ["VERIFICATION_CODE_NOT_FOUND", 404, KnownErrors.VerificationCodeNotFound],
    ["VERIFICATION_CODE_EXPIRED", 400, KnownErrors.VerificationCodeExpired],
    ["VERIFICATION_CODE_ALREADY_USED", 409, KnownErrors.VerificationCodeAlreadyUsed],
    ["VERIFICATION_CODE_MAX_ATTEMPTS_REACHED", 400, KnownErrors.VerificationCodeMaxAttemptsReached],
  ] as const)("returns %s as a Result error and stores nothing", async (code, status, cls) => {
    const { ctx, store, redirects, redirected } = signedOut(() => knownError(status, code, "bad code"));
    const result = await signInWithMagicLink(ctx, "code-1", {}, redirects);
    expect((result as { error: unknown }).error).toBeInstanceOf(cls);
    expect(store!.get()).toEqual(NO_TOKENS);
    expect(redirected).toEqual([]);
  });

  it("returns MULTI_FACTOR_AUTHENTICATION_REQUIRED with its attempt code", async () => {
    const { ctx, store, redirects } = signedOut(() =>
      knownError(400, "MULTI_FACTOR_AUTHENTICATION_REQUIRED", "Multi-factor authentication is required for this user.", {
        attempt_code: "attempt-2",
      }),
    );
    const result = await signInWithMagicLink(ctx, "code-1", {}, redirects);
    if (result.status !== "error") throw new Error("expected an error Result");
    expect(result.error).toBeInstanceOf(KnownErrors.MultiFactorAuthenticationRequired);
    expect(result.error.details).toEqual({ attempt_code: "attempt-2" });
    expect(store!.get()).toEqual(NO_TOKENS);
  });

  it("throws SIGN_UP_NOT_ENABLED", async () => {
    const { ctx, redirects } = signedOut(() =>
      knownError(400, "SIGN_UP_NOT_ENABLED", "Creation of new accounts is not enabled for this project"),
    );
    expect(await rejectionOf(signInWithMagicLink(ctx, "code-1", {}, redirects))).toBeInstanceOf(KnownErrors.SignUpNotEnabled);
  });

  it("fails before spending the code when the app has no token store", async () => {
    const t = testAppContext(() => issued(false), { tokens: null });
    const error = await rejectionOf(signInWithMagicLink(t.ctx, "code-1", {}, { redirectAfter: async () => {} }));
    expect(isStackError(error, "StackConfigurationError")).toBe(true);
    expect(t.service.requests).toEqual([]);
  });
});
