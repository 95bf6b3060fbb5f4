// Sign-up with e-mail and password (endpoints.md §A), loaded on first use. A
// refused e-mail or password is a Result, as in the reference SDK.
import type { PasswordRequirementsNotMet, UserWithEmailAlreadyExists } from "../../../generated/known-errors.js";
import { signalOf } from "../call-options.js";
import type { ClientAppContext } from "../context.js";
import type { Result } from "../result.js";
import { resultOf } from "../result-of.js";
import { completeSignIn, tokensOf, type AfterAuthRedirects, type SignInOptions } from "./sign-in.js";

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
    async () => tokensOf((await ctx.client.send("POST /auth/password/sign-up", { body, ...signalOf(options) })).data),
    ["USER_EMAIL_ALREADY_EXISTS", "PASSWORD_REQUIREMENTS_NOT_MET"],
  );
  if (result.status === "error") return result;
  return completeSignIn(ctx, result.data, "sign-up", options, redirects);
}
