// Multi-factor (TOTP) sign-in, wire contract §10: a sign-in that answered
// MULTI_FACTOR_AUTHENTICATION_REQUIRED finishes here with the six digits of the
// user's authenticator app and the error's attempt code (sign-in.ts).
import type { InvalidTotpCode, VerificationCodeError } from "../../../generated/known-errors.js";
import { signalOf } from "../call-options.js";
import type { ClientAppContext } from "../context.js";
import type { Result } from "../result.js";
import { resultOf } from "../result-of.js";
import { completeSignIn, tokensOf, type AfterAuthRedirects, type SignInOptions } from "./sign-in.js";

/**
 * Finishes a sign-in that answered MULTI_FACTOR_AUTHENTICATION_REQUIRED:
 * `totp` is the six digits of the user's authenticator app, `attemptCode` the
 * error's `details.attempt_code` (valid for 5 minutes). A wrong code is an
 * INVALID_TOTP_CODE Result; a stale or used attempt code one of the
 * VERIFICATION_ERROR family.
 */
export async function signInWithMfa(
  ctx: ClientAppContext,
  totp: string,
  attemptCode: string,
  options: SignInOptions = {},
  redirects: AfterAuthRedirects,
): Promise<Result<undefined, InvalidTotpCode | VerificationCodeError>> {
  // Without a token store there is nowhere to keep the tokens: fail before the attempt code is spent.
  ctx.sessions();
  const result = await resultOf(
    async () =>
      tokensOf(
        (await ctx.client.send("POST /auth/mfa/sign-in", { body: { type: "totp", totp, code: attemptCode }, ...signalOf(options) })).data,
      ),
    ["INVALID_TOTP_CODE", "VERIFICATION_ERROR"],
  );
  if (result.status === "error") return result;
  return completeSignIn(ctx, result.data, result.data.is_new_user ? "sign-up" : "sign-in", options, redirects);
}
