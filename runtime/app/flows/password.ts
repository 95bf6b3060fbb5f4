// E-mail and password: sign-in, sign-up, the forgotten-password e-mail and
// reset, and changing or setting the signed-in user's password (endpoints.md §A).
// Expected failures (a wrong password, a used code) are Results, as in the
// reference SDK; everything else is thrown.
import type {
  EmailPasswordMismatch,
  KnownErrorCode,
  KnownErrorOf,
  MultiFactorAuthenticationRequired,
  PasswordConfirmationMismatch,
  PasswordRequirementsNotMet,
  UserNotFound,
  UserWithEmailAlreadyExists,
  VerificationCodeError,
} from "../../../generated/known-errors.js";
import { signalOf, type CallOptions } from "../call-options.js";
import type { ClientAppContext } from "../context.js";
import { errorOf, resultOf, type Result } from "../result.js";
import { completeSignIn, signInResultOf, tokensOf, type AfterAuthRedirects, type SignInOptions } from "./mfa.js";

/** `resultOf` for a call whose answer the caller does not need. */
function outcome<C extends KnownErrorCode>(call: () => Promise<unknown>, codes: readonly C[]): Promise<Result<undefined, KnownErrorOf<C>>> {
  return resultOf(async () => {
    await call();
    return undefined;
  }, codes);
}

/**
 * Signs in with e-mail and password, stores the tokens and, unless
 * `noRedirect`, goes to the after-sign-in page. A user with TOTP gets a
 * MultiFactorAuthenticationRequired error whose `details.attempt_code` goes to
 * signInWithMfa.
 */
export async function signInWithCredential(
  ctx: ClientAppContext,
  options: { readonly email: string; readonly password: string } & SignInOptions,
  redirects: AfterAuthRedirects,
): Promise<Result<undefined, EmailPasswordMismatch | MultiFactorAuthenticationRequired>> {
  // Without a token store the tokens could not be kept: say so before the password is sent.
  ctx.sessions();
  const result = await signInResultOf(
    () =>
      ctx.client.api.POST("/auth/password/sign-in", { body: { email: options.email, password: options.password }, ...signalOf(options) }),
    ["EMAIL_PASSWORD_MISMATCH"],
  );
  if (result.status === "error") return result;
  return completeSignIn(ctx, result.data, "sign-in", options, redirects);
}

/**
 * Creates a user with e-mail and password and signs it in (an anonymous user
 * signed in now is upgraded instead). The verification e-mail links to
 * `verificationCallbackUrl`, by default this app's e-mail-verification page.
 */
export async function signUpWithCredential(
  ctx: ClientAppContext,
  options: { readonly email: string; readonly password: string; readonly verificationCallbackUrl?: string | undefined } & SignInOptions,
  redirects: AfterAuthRedirects,
): Promise<Result<undefined, UserWithEmailAlreadyExists | PasswordRequirementsNotMet>> {
  ctx.sessions();
  const body = {
    email: options.email,
    password: options.password,
    verification_callback_url: ctx.absoluteUrl(options.verificationCallbackUrl ?? ctx.urls.emailVerification),
  };
  // A brand-new user has no second factor yet, so MULTI_FACTOR_AUTHENTICATION_REQUIRED is not an expected answer here.
  const result = await resultOf(
    async () => tokensOf((await ctx.client.api.POST("/auth/password/sign-up", { body, ...signalOf(options) })).data),
    ["USER_EMAIL_ALREADY_EXISTS", "PASSWORD_REQUIREMENTS_NOT_MET"],
  );
  if (result.status === "error") return result;
  return completeSignIn(ctx, result.data, "sign-up", options, redirects);
}

/** E-mails a password-reset link to `callbackUrl` (by default this app's password-reset page). */
export async function sendForgotPasswordEmail(
  ctx: ClientAppContext,
  email: string,
  options: { readonly callbackUrl?: string | undefined } & CallOptions = {},
): Promise<Result<undefined, UserNotFound>> {
  const callback_url = ctx.absoluteUrl(options.callbackUrl ?? ctx.urls.passwordReset);
  return outcome(
    () => ctx.client.api.POST("/auth/password/send-reset-code", { body: { email, callback_url }, ...signalOf(options) }),
    ["USER_NOT_FOUND"],
  );
}

/** Checks the code of a password-reset link without using it up. */
export async function verifyPasswordResetCode(
  ctx: ClientAppContext,
  code: string,
  options?: CallOptions,
): Promise<Result<undefined, VerificationCodeError>> {
  return outcome(
    () => ctx.client.api.POST("/auth/password/reset/check-code", { body: { code }, ...signalOf(options) }),
    ["VERIFICATION_ERROR"],
  );
}

/** Sets a new password with the code of a password-reset link; the code works once. */
export async function resetPassword(
  ctx: ClientAppContext,
  options: { readonly code: string; readonly password: string } & CallOptions,
): Promise<Result<undefined, VerificationCodeError>> {
  const body = { code: options.code, password: options.password };
  return outcome(() => ctx.client.api.POST("/auth/password/reset", { body, ...signalOf(options) }), ["VERIFICATION_ERROR"]);
}

/**
 * Changes the signed-in user's password. The service ends the user's other
 * sessions and keeps the one whose refresh token it is sent, so this one
 * call sends the refresh token.
 */
export async function updatePassword(
  ctx: ClientAppContext,
  options: { readonly oldPassword: string; readonly newPassword: string } & CallOptions,
): Promise<PasswordConfirmationMismatch | PasswordRequirementsNotMet | undefined> {
  const { refreshToken } = ctx.sessions().current().peek();
  // A session without a refresh token has nothing to keep: the service then ends every refresh token of the user.
  const header = (refreshToken === null ? {} : { "x-stack-refresh-token": refreshToken }) as { "x-stack-refresh-token": string };
  const body = { old_password: options.oldPassword, new_password: options.newPassword };
  return errorOf(
    () => ctx.client.api.POST("/auth/password/update", { params: { header }, body, ...signalOf(options) }),
    ["PASSWORD_CONFIRMATION_MISMATCH", "PASSWORD_REQUIREMENTS_NOT_MET"],
  );
}

/** Gives a password to a signed-in user who has none (one who signed up with OAuth or a magic link). */
export async function setPassword(
  ctx: ClientAppContext,
  options: { readonly password: string } & CallOptions,
): Promise<PasswordRequirementsNotMet | undefined> {
  return errorOf(
    () => ctx.client.api.POST("/auth/password/set", { body: { password: options.password }, ...signalOf(options) }),
    ["PASSWORD_REQUIREMENTS_NOT_MET"],
  );
}
