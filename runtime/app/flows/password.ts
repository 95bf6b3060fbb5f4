// E-mail and password: signing in, and changing or setting the signed-in
// user's password (endpoints.md §A). Signing up is sign-up.ts; the
// forgotten-password e-mail and reset are password-reset.ts. Expected failures
// (a wrong password) are Results, as in the reference SDK; everything else is thrown.
import type {
  EmailPasswordMismatch,
  MultiFactorAuthenticationRequired,
  PasswordConfirmationMismatch,
  PasswordRequirementsNotMet,
} from "../../../generated/known-errors.js";
import { signalOf, type CallOptions } from "../call-options.js";
import type { ClientAppContext } from "../context.js";
import type { Result } from "../result.js";
import { errorOf } from "../result-of.js";
import { completeSignIn, signInResultOf, type AfterAuthRedirects, type SignInOptions } from "./sign-in.js";

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
      ctx.client.send("POST /auth/password/sign-in", { body: { email: options.email, password: options.password }, ...signalOf(options) }),
    ["EMAIL_PASSWORD_MISMATCH"],
  );
  if (result.status === "error") return result;
  return completeSignIn(ctx, result.data, "sign-in", options, redirects);
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
    () => ctx.client.send("POST /auth/password/update", { params: { header }, body, ...signalOf(options) }),
    ["PASSWORD_CONFIRMATION_MISMATCH", "PASSWORD_REQUIREMENTS_NOT_MET"],
  );
}

/** Gives a password to a signed-in user who has none (one who signed up with OAuth or a magic link). */
export async function setPassword(
  ctx: ClientAppContext,
  options: { readonly password: string } & CallOptions,
): Promise<PasswordRequirementsNotMet | undefined> {
  return errorOf(
    () => ctx.client.send("POST /auth/password/set", { body: { password: options.password }, ...signalOf(options) }),
    ["PASSWORD_REQUIREMENTS_NOT_MET"],
  );
}
