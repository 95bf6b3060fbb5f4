// Sign-up with e-mail and password (endpoints.md §A), loaded on first use. A
// refused e-mail or password is a Result, as in the reference SDK.
import type {
  BotChallengeFailed,
  BotChallengeRequired,
  PasswordRequirementsNotMet,
  UserWithEmailAlreadyExists,
} from "../../../generated/known-errors.js";
import { StackConfigurationError } from "../../errors.js";
import { isKnownError } from "../../../generated/known-error-guard.js";
import type { BotChallengeOptions } from "../bot-challenge-options.js";
import { signalOf } from "../call-options.js";
import type { ClientAppContext } from "../context.js";
import type { Result } from "../result.js";
import { resultOf } from "../result-of.js";
import { withBotChallenge } from "./bot-challenge.js";
import { completeSignIn, tokensOf, type AfterAuthRedirects, type SignInOptions } from "./sign-in.js";

/**
 * What signUpWithCredential takes besides the call's own options.
 *
 * @example
 * ```ts
 * const result = await app.signUpWithCredential({ email: "ada@example.com", password: "correct horse battery staple", noVerificationCallback: true });
 * if (result.status === "error") showError(result.error);
 * ```
 */
export interface SignUpWithCredentialOptions extends BotChallengeOptions {
  /** The new user's e-mail address, which they sign in with. */
  readonly email: string;
  /** Their password, held to the project's password rules. */
  readonly password: string;
  /** The page the verification e-mail links to; by default this app's e-mail-verification page. */
  readonly verificationCallbackUrl?: string | undefined;
  /** Sends no verification URL, so the service e-mails no link (a 2.8.11 service requires one). */
  readonly noVerificationCallback?: boolean | undefined;
}

/**
 * Creates a user with e-mail and password and signs it in (an anonymous user
 * signed in now is upgraded instead). The verification e-mail links to
 * `verificationCallbackUrl`, by default this app's e-mail-verification page;
 * `noVerificationCallback` sends no URL, and so no e-mail. When the default
 * page is not on a trusted domain (2.8.86 refuses the sign-up with
 * REDIRECT_URL_NOT_WHITELISTED), the sign-up is sent again without it, as the
 * official SDK does: the user is signed up, unverified, as 2.8.11 would have
 * done. A URL the app named is not dropped: that error is thrown.
 *
 * The bot challenge (withBotChallenge) goes with every request: the call's
 * own, or the app's provider's. BOT_CHALLENGE_REQUIRED and BOT_CHALLENGE_FAILED
 * come back as Result errors; a 2.8.11 service's refusal of the challenge is a
 * ServiceVersionError.
 */
export async function signUpWithCredential(
  ctx: ClientAppContext,
  options: SignUpWithCredentialOptions & SignInOptions,
  redirects: AfterAuthRedirects,
): Promise<Result<undefined, UserWithEmailAlreadyExists | PasswordRequirementsNotMet | BotChallengeRequired | BotChallengeFailed>> {
  if (options.noVerificationCallback && options.verificationCallbackUrl !== undefined) {
    throw new StackConfigurationError(
      "signUpWithCredential: verificationCallbackUrl is not allowed when noVerificationCallback is true; pass one or the other.",
    );
  }
  ctx.sessions();
  const credentials = { email: options.email, password: options.password };
  let url = options.noVerificationCallback ? undefined : ctx.absoluteUrl(options.verificationCallbackUrl ?? ctx.urls.emailVerification);
  let defaultUrl = options.verificationCallbackUrl === undefined && !options.noVerificationCallback;
  const send = async (challenge: object) => {
    const body = url === undefined ? { ...credentials, ...challenge } : { ...credentials, verification_callback_url: url, ...challenge };
    return tokensOf((await ctx.client.send("POST /auth/password/sign-up", { body, ...signalOf(options) })).data);
  };
  // A brand-new user has no second factor yet, so MULTI_FACTOR_AUTHENTICATION_REQUIRED is not an expected answer here.
  const result = await resultOf(
    () =>
      withBotChallenge(ctx, "StackClientApp.signUpWithCredential", "sign_up_with_credential", options, async (challenge) => {
        try {
          return await send(challenge);
        } catch (error) {
          if (!defaultUrl || !isKnownError(error, "REDIRECT_URL_NOT_WHITELISTED")) throw error;
          // Dropped for good: a sign-up asked again with a visible challenge need not be refused for it first.
          url = undefined;
          defaultUrl = false;
          // The service checks the URL before the challenge, so the challenge's token is still unused.
          return await send(challenge);
        }
      }),
    ["USER_EMAIL_ALREADY_EXISTS", "PASSWORD_REQUIREMENTS_NOT_MET", "BOT_CHALLENGE_REQUIRED", "BOT_CHALLENGE_FAILED"],
  );
  if (result.status === "error") return result;
  return completeSignIn(ctx, result.data, "sign-up", options, redirects);
}
