// Magic link and one-time code (endpoints.md §A, /auth/otp/*): the e-mail
// carries a link to the magic-link-callback page and a six-character code; the
// page (or a form taking the code) signs the user in.
import type {
  BotChallengeFailed,
  BotChallengeRequired,
  MultiFactorAuthenticationRequired,
  RedirectUrlNotWhitelisted,
  VerificationCodeError,
} from "../../../generated/known-errors.js";
import type { BotChallengeOptions } from "../bot-challenge-options.js";
import { signalOf, type CallOptions } from "../call-options.js";
import { StackAssertionError } from "../../errors.js";
import type { ClientAppContext } from "../context.js";
import type { Result } from "../result.js";
import { resultOf } from "../result-of.js";
import { withBotChallenge } from "./bot-challenge.js";
import { completeSignIn, signInResultOf, type AfterAuthRedirects, type SignInOptions } from "./sign-in.js";

/**
 * E-mails a magic link to `callbackUrl` (by default this app's
 * magic-link-callback page) and a one-time code. The answer's `nonce`, appended
 * to the one-time code the user types, makes the code signInWithMagicLink takes.
 * The bot challenge (the call's own, or the app's provider's) goes with it:
 * BOT_CHALLENGE_REQUIRED and BOT_CHALLENGE_FAILED come back as Result errors.
 */
export async function sendMagicLinkEmail(
  ctx: ClientAppContext,
  email: string,
  options: { readonly callbackUrl?: string | undefined } & BotChallengeOptions & CallOptions = {},
): Promise<Result<{ nonce: string }, RedirectUrlNotWhitelisted | BotChallengeRequired | BotChallengeFailed>> {
  const callback_url = ctx.absoluteUrl(options.callbackUrl ?? ctx.urls.magicLinkCallback);
  return resultOf(
    () =>
      withBotChallenge(ctx, "StackClientApp.sendMagicLinkEmail", "send_magic_link_email", options, async (challenge) => {
        const { data } = await ctx.client.send("POST /auth/otp/send-sign-in-code", {
          body: { email, callback_url, ...challenge },
          ...signalOf(options),
        });
        if (typeof data?.nonce !== "string") throw new StackAssertionError("POST /auth/otp/send-sign-in-code answered without a nonce");
        return { nonce: data.nonce };
      }),
    ["REDIRECT_URL_NOT_WHITELISTED", "BOT_CHALLENGE_REQUIRED", "BOT_CHALLENGE_FAILED"],
  );
}

/**
 * Signs in with the code of a magic link (or the typed one-time code followed
 * by the nonce), stores the tokens and, unless `noRedirect`, goes to the
 * after-sign-up page for a user this sign-in created, else to after-sign-in.
 */
export async function signInWithMagicLink(
  ctx: ClientAppContext,
  code: string,
  options: SignInOptions = {},
  redirects: AfterAuthRedirects,
): Promise<Result<undefined, VerificationCodeError | MultiFactorAuthenticationRequired>> {
  // Without a token store the tokens could not be kept: fail before the single-use code is spent.
  ctx.sessions();
  const result = await signInResultOf(
    () => ctx.client.send("POST /auth/otp/sign-in", { body: { code }, ...signalOf(options) }),
    ["VERIFICATION_ERROR"],
  );
  if (result.status === "error") return result;
  return completeSignIn(ctx, result.data, result.data.is_new_user ? "sign-up" : "sign-in", options, redirects);
}
