// The bot challenge around one request of sign-up, the magic-link e-mail or OAuth sign-in (2.8.86:
// lib/turnstile.tsx). The token comes from the call's own options, else from the app's provider, asked first for an
// invisible challenge; a failed invisible one is BOT_CHALLENGE_REQUIRED, which means the service did nothing, so that
// is the one answer after which the request is sent again, with a visible challenge's token. Without either nothing
// is added: the request is exactly what it was before the service had a challenge.
import { KnownErrors } from "../../../generated/known-errors.js";
import { isKnownError } from "../../../generated/known-error-guard.js";
import { StackConfigurationError } from "../../errors.js";
import { ServiceVersionError } from "../../http/request-errors.js";
import type { BotChallengeAction, BotChallengeOptions, BotChallengePhase, BotChallengeProvider } from "../bot-challenge-options.js";
import { checkAborted, untilAborted, type CallOptions } from "../call-options.js";
import type { ClientAppContext } from "../context.js";
import { schemaProblems } from "../wire.js";

/** The request fields of a challenge (the body's, or the authorize call's query). */
export interface BotChallengeFields {
  readonly bot_challenge_token?: string;
  readonly bot_challenge_phase?: BotChallengePhase;
  readonly bot_challenge_unavailable?: "true";
}

const NO_FIELDS: BotChallengeFields = Object.freeze({});
const PHASES: readonly unknown[] = ["invisible", "visible"];

// The names 2.8.11 refuses as unknown properties, one "- body|query contains unknown properties: a, b" line (the
// authorize call's `stack_response_mode` comes with the challenge: see oauth.ts).
const ADDED_IN_2_8_86 = new Set(["bot_challenge_token", "bot_challenge_phase", "bot_challenge_unavailable", "stack_response_mode"]);
const UNKNOWN_PROPERTIES = /^- (?:body|query) contains unknown properties: (.+)$/;

/** What the service says when the visible challenge could not be completed; the same words when the app has no token for it. */
const VISIBLE_NOT_COMPLETED = "Visible bot challenge could not be completed";

/** Whether a call gave a challenge of its own, or leaves it to the app's provider (`botChallengeUnavailable: false` gives none). */
export function hasOwnChallenge(options: BotChallengeOptions | undefined): boolean {
  const unavailable = options?.botChallengeUnavailable;
  return (
    options?.botChallengeToken !== undefined ||
    options?.botChallengePhase !== undefined ||
    (unavailable !== undefined && unavailable !== false)
  );
}

/** The fields of a call's own challenge, checked before anything is sent; the service would refuse (or fail on) the others. */
export function ownChallengeFields(options: BotChallengeOptions, method: string): BotChallengeFields {
  const { botChallengeToken: token, botChallengePhase: phase, botChallengeUnavailable: unavailable } = options;
  if (unavailable !== undefined && typeof unavailable !== "boolean") {
    throw new StackConfigurationError(`${method}: botChallengeUnavailable is true or false.`);
  }
  if (unavailable) {
    if (token !== undefined || phase !== undefined) {
      throw new StackConfigurationError(
        `${method}: botChallengeUnavailable goes alone, without botChallengeToken or botChallengePhase (the service cannot take both).`,
      );
    }
    return { bot_challenge_unavailable: "true" };
  }
  if (phase !== undefined && !PHASES.includes(phase)) {
    throw new StackConfigurationError(`${method}: botChallengePhase is "invisible" or "visible", not ${JSON.stringify(phase)}.`);
  }
  if (token === undefined) {
    if (phase !== undefined)
      throw new StackConfigurationError(`${method}: botChallengePhase needs the botChallengeToken it is the phase of.`);
    return NO_FIELDS;
  }
  if (typeof token !== "string" || token.trim() === "") {
    throw new StackConfigurationError(`${method}: botChallengeToken must be the challenge's token, a non-empty string.`);
  }
  return phase === undefined ? { bot_challenge_token: token } : { bot_challenge_token: token, bot_challenge_phase: phase };
}

/**
 * Sends `request` with the call's bot challenge (its own options, else the app's provider, else none) and answers
 * what it answers. With the provider: an invisible challenge's token (or, when it has none, a visible one's; when
 * neither, `bot_challenge_unavailable`), and after BOT_CHALLENGE_REQUIRED a visible one's, once; with no visible
 * token then, BOT_CHALLENGE_FAILED without a second request. A 2.8.11 service's refusal of the fields is a
 * ServiceVersionError naming `method`. Known errors are thrown, for the caller's Result.
 */
export async function withBotChallenge<T>(
  ctx: ClientAppContext,
  method: string,
  action: BotChallengeAction,
  options: BotChallengeOptions & CallOptions,
  request: (fields: BotChallengeFields) => Promise<T>,
): Promise<T> {
  const send = (fields: BotChallengeFields) => versioned(method, fields, request);
  if (hasOwnChallenge(options)) return send(ownChallengeFields(options, method));
  const provider = ctx.botChallenge;
  if (provider === undefined) return request(NO_FIELDS);
  const ask = (phase: BotChallengePhase) => tokenFrom(provider, action, phase, method, options);
  let phase: BotChallengePhase = "invisible";
  let token = await ask(phase);
  if (token === null) token = await ask((phase = "visible"));
  if (token === null) return send({ bot_challenge_unavailable: "true" });
  try {
    return await send({ bot_challenge_token: token, bot_challenge_phase: phase });
  } catch (error) {
    if (phase !== "invisible" || !isKnownError(error, "BOT_CHALLENGE_REQUIRED")) throw error;
  }
  const visible = await ask("visible");
  if (visible === null) throw new KnownErrors.BotChallengeFailed({ message: VISIBLE_NOT_COMPLETED }, { message: VISIBLE_NOT_COMPLETED });
  return send({ bot_challenge_token: visible, bot_challenge_phase: "visible" });
}

/** The provider's token for one phase, or null; anything but a non-empty string or null is the app's mistake. */
async function tokenFrom(
  provider: BotChallengeProvider,
  action: BotChallengeAction,
  phase: BotChallengePhase,
  method: string,
  options: CallOptions,
): Promise<string | null> {
  checkAborted(options);
  const signal = options.signal;
  const token = await untilAborted(
    Promise.resolve().then(() => provider(signal ? { action, phase, signal } : { action, phase })),
    options,
  );
  // The call may have been cancelled while the widget ran: send nothing then.
  checkAborted(options);
  if (token === null || token === undefined) return null;
  if (typeof token !== "string" || token.trim() === "") {
    throw new StackConfigurationError(
      `${method}: the app's botChallenge answered ${token === "" ? "an empty string" : typeof token} for the ${phase} challenge of ${action}; it must answer the challenge's token (a non-empty string) or null.`,
    );
  }
  return token;
}

/** `request(fields)`, with a 2.8.11 service's refusal of the challenge's fields said as what it is. */
async function versioned<T>(method: string, fields: BotChallengeFields, request: (fields: BotChallengeFields) => Promise<T>): Promise<T> {
  try {
    return await request(fields);
  } catch (error) {
    const refused = refusedNames(error);
    if (refused === undefined) throw error;
    throw new ServiceVersionError(
      method,
      "2.8.11",
      `it has no bot challenge and refused ${refused.join(", ")}, so nothing was done`,
      "send no bot challenge to this service: leave botChallengeToken, botChallengePhase and botChallengeUnavailable out of the call, and botChallenge out of the app's options",
    );
  }
}

/** The challenge's names a SCHEMA_ERROR refuses as unknown properties (2.8.11's answer), or undefined for any other error. */
function refusedNames(error: unknown): string[] | undefined {
  for (const line of schemaProblems(error) ?? []) {
    const names = UNKNOWN_PROPERTIES.exec(line)?.[1]?.split(", ");
    if (names && names.every((name) => ADDED_IN_2_8_86.has(name))) return names;
  }
  return undefined;
}
