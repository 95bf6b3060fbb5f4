// The bot challenge of sign-up, magic-link e-mail and OAuth (2.8.86: lib/turnstile.tsx). The service asks
// Cloudflare Turnstile's siteverify about the token; in its development and test environment that is a local stub,
// and the emulator answers as that stub does (it reaches nothing outside the machine): `mock-turnstile-error` cannot
// be verified, `mock-turnstile-invalid` and an empty token are invalid, `mock-turnstile-ok:<action>` and
// `mock-turnstile-visible-ok:<action>` pass for that action only, and any other token passes (development keys).
import { fail, internalError } from "./errors.js";

/** The action a challenge token was issued for. */
export type BotChallengeAction = "sign_up_with_credential" | "send_magic_link_email" | "oauth_authenticate";

/** The request fields of a flow that takes a challenge (body or query). */
export interface BotChallengeFields {
  readonly bot_challenge_token?: string | undefined;
  readonly bot_challenge_phase?: string | undefined;
  readonly bot_challenge_unavailable?: string | undefined;
}

type Verdict = "ok" | "invalid" | "error";

/** What the flow records of a challenge (a user's sign-up risk reads it). */
export interface BotChallengeAssessment {
  readonly status: Verdict;
  readonly visibleChallengeResult?: Verdict;
}

export const BOT_CHALLENGE_PHASES = ["invisible", "visible"] as const;

function verdict(token: string | undefined, action: BotChallengeAction): Verdict {
  const trimmed = token?.trim() ?? "";
  if (trimmed === "") return "invalid";
  if (trimmed === "mock-turnstile-error") return "error";
  if (trimmed === "mock-turnstile-invalid") return "invalid";
  for (const prefix of ["mock-turnstile-ok:", "mock-turnstile-visible-ok:"]) {
    if (trimmed.startsWith(prefix)) return trimmed.slice(prefix.length) === action ? "ok" : "invalid";
  }
  return "ok";
}

/**
 * Assesses a flow's challenge as the service does. Without a phase (a client older than the two-phase flow) the
 * assessment is only recorded; a failed invisible phase is 409 BOT_CHALLENGE_REQUIRED (the client shows a visible
 * challenge and asks again), a failed visible one 400 BOT_CHALLENGE_FAILED. `bot_challenge_unavailable` (the widget
 * could not load) records an error, and with a token or phase beside it is the service's assertion failure.
 */
export function assessBotChallenge(
  request: { readonly requestId: string },
  fields: BotChallengeFields,
  action: BotChallengeAction,
): BotChallengeAssessment {
  const phase = fields.bot_challenge_phase;
  if (fields.bot_challenge_unavailable === "true") {
    if (fields.bot_challenge_token !== undefined || phase !== undefined) throw internalError(request);
    return { status: "error", visibleChallengeResult: "error" };
  }
  const status = verdict(fields.bot_challenge_token, action);
  if (phase === undefined) return { status };
  if (phase === "invisible") {
    if (status !== "ok") throw fail("BOT_CHALLENGE_REQUIRED");
    return { status };
  }
  if (status !== "ok") throw challengeFailed("Visible bot challenge verification failed");
  // The visible phase passed after the invisible one failed: recorded as invalid whatever the client says.
  return { status: "invalid", visibleChallengeResult: "ok" };
}

/** A sign-up whose visible challenge could not be completed (the widget did not load) is refused. */
export function requireVisibleChallengePassed(assessment: BotChallengeAssessment): void {
  if (assessment.visibleChallengeResult !== undefined && assessment.visibleChallengeResult !== "ok")
    throw challengeFailed("Visible bot challenge could not be completed");
}

const challengeFailed = (message: string) => fail("BOT_CHALLENGE_FAILED", { message }, message);
