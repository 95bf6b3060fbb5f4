// The forgotten password (endpoints.md §A): the reset e-mail, checking its
// code, and setting a new password with it. Loaded on first use. A used or
// unknown code is a Result, as in the reference SDK.
import type { KnownErrorCode, KnownErrorOf, UserNotFound, VerificationCodeError } from "../../../generated/known-errors.js";
import { signalOf, type CallOptions } from "../call-options.js";
import type { ClientAppContext } from "../context.js";
import type { Result } from "../result.js";
import { resultOf } from "../result-of.js";

/** `resultOf` for a call whose answer the caller does not need. */
function outcome<C extends KnownErrorCode>(call: () => Promise<unknown>, codes: readonly C[]): Promise<Result<undefined, KnownErrorOf<C>>> {
  return resultOf(async () => {
    await call();
    return undefined;
  }, codes);
}

/** E-mails a password-reset link to `callbackUrl` (by default this app's password-reset page). */
export async function sendForgotPasswordEmail(
  ctx: ClientAppContext,
  email: string,
  options: { readonly callbackUrl?: string | undefined } & CallOptions = {},
): Promise<Result<undefined, UserNotFound>> {
  const callback_url = ctx.absoluteUrl(options.callbackUrl ?? ctx.urls.passwordReset);
  return outcome(
    () => ctx.client.send("POST /auth/password/send-reset-code", { body: { email, callback_url }, ...signalOf(options) }),
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
    () => ctx.client.send("POST /auth/password/reset/check-code", { body: { code }, ...signalOf(options) }),
    ["VERIFICATION_ERROR"],
  );
}

/** Sets a new password with the code of a password-reset link; the code works once. */
export async function resetPassword(
  ctx: ClientAppContext,
  options: { readonly code: string; readonly password: string } & CallOptions,
): Promise<Result<undefined, VerificationCodeError>> {
  const body = { code: options.code, password: options.password };
  return outcome(() => ctx.client.send("POST /auth/password/reset", { body, ...signalOf(options) }), ["VERIFICATION_ERROR"]);
}
