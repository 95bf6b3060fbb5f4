// What an app gives for the bot challenge of sign-up, the magic-link e-mail and OAuth sign-in (services since
// 2.8.86 check a Cloudflare Turnstile token there). stackkit loads no third-party script: the app runs the widget
// and hands over its token, per call or through the app's `botChallenge` provider. Apart from the flow
// (flows/bot-challenge.ts) so that the app's context can name the provider without importing the flow.

/**
 * The action a challenge token is issued for, as the service names it: the widget's `action` must be this, or the
 * service refuses the token.
 */
export type BotChallengeAction = "sign_up_with_credential" | "send_magic_link_email" | "oauth_authenticate";

/**
 * Which challenge a token answers. A failed `"invisible"` one is `BOT_CHALLENGE_REQUIRED` (nothing was done: show a
 * visible challenge and ask again); a failed `"visible"` one is `BOT_CHALLENGE_FAILED`.
 */
export type BotChallengePhase = "invisible" | "visible";

/**
 * What the app's {@link BotChallengeProvider} is asked for: a token for `action`, from a challenge of `phase`.
 *
 * @example
 * ```ts
 * const request: BotChallengeRequest = { action: "sign_up_with_credential", phase: "invisible" };
 * console.log(`${request.phase} challenge for ${request.action}`);
 * ```
 */
export interface BotChallengeRequest {
  /** The action to give the widget (Turnstile's `action`). */
  readonly action: BotChallengeAction;
  /** `"invisible"` first; `"visible"` when there was no invisible token, or the service asked for a visible challenge. */
  readonly phase: BotChallengePhase;
  /** The signal of the call that asks, when it has one: stop the widget when it aborts. */
  readonly signal?: AbortSignal | undefined;
}

/**
 * The app's bot challenge (the `botChallenge` option of the app): resolves the token of a challenge it ran for
 * `request` (a Cloudflare Turnstile widget with the project's site key and `request.action`), or null when it could
 * not run one. stackkit asks it before `signUpWithCredential`, `sendMagicLinkEmail` and `signInWithOAuth` send
 * anything: first for an invisible challenge; for a visible one when that gave null, and again, once, when the
 * service answers `BOT_CHALLENGE_REQUIRED`. Null for both phases sends `bot_challenge_unavailable`. What it throws,
 * the call rejects with (a user who closed the widget, say), and nothing is sent.
 *
 * @example
 * ```ts
 * const botChallenge: BotChallengeProvider = async ({ action, phase, signal }) => {
 *   // Your own widget code: render Turnstile (invisibly, or in a dialog for "visible") and wait for its token.
 *   return await runTurnstile({ siteKey: phase === "visible" ? VISIBLE_SITE_KEY : INVISIBLE_SITE_KEY, action, signal });
 * };
 * const app = new StackClientApp({ projectId, publishableClientKey, tokenStore: "cookie", botChallenge });
 * ```
 */
export type BotChallengeProvider = (request: BotChallengeRequest) => Promise<string | null> | string | null;

/**
 * The bot challenge of one call, in place of the app's provider: what the call sends, once, as it is. Leave all out
 * to use the app's `botChallenge` (or, without one, to send no challenge at all).
 *
 * @example
 * ```ts
 * const token = await runTurnstile({ action: "sign_up_with_credential" }); // your widget code
 * const result = await app.signUpWithCredential({ email, password, botChallengeToken: token, botChallengePhase: "invisible" });
 * if (result.status === "error" && result.error instanceof KnownErrors.BotChallengeRequired) {
 *   const visible = await runTurnstile({ action: "sign_up_with_credential", visible: true });
 *   await app.signUpWithCredential({ email, password, botChallengeToken: visible, botChallengePhase: "visible" });
 * }
 * ```
 */
export interface BotChallengeOptions {
  /** The token of a challenge the app ran for this call's action (`bot_challenge_token`). */
  readonly botChallengeToken?: string | undefined;
  /**
   * Which challenge `botChallengeToken` answers (`bot_challenge_phase`); needs the token. Without it the service
   * only records the token's verdict and refuses nothing.
   */
  readonly botChallengePhase?: BotChallengePhase | undefined;
  /**
   * True when the challenge could not be shown at all (`bot_challenge_unavailable`); never with a token or phase.
   * The service then lets the e-mail or the OAuth sign-in go ahead, but refuses to sign up a new user with it
   * (`BOT_CHALLENGE_FAILED`).
   */
  readonly botChallengeUnavailable?: boolean | undefined;
}
