// Sending one request with the retry policy of SPEC §9 / wire contract §12:
// at most five attempts; network errors retried only where resending is safe;
// 429 waits for Retry-After (or backs off); a platform loop guard (508
// INFINITE_LOOP_DETECTED) is retried. Everything else is answered as it came.
import { MAX_ATTEMPTS } from "./constants.js";
import { sleep, type Environment } from "./env.js";
import { HttpError, NetworkError, RateLimitError } from "./errors.js";
import { readAnswer, type Answer } from "./response.js";
import { backoffDelay, retryAfterDelay } from "./retry.js";

export interface SendOptions {
  /** May a request that failed on the network be sent again? */
  readonly retryNetworkErrors: boolean;
  /** What the request is, for messages: `GET https://…/api/v1/users/me`. */
  readonly describe: string;
  readonly signal?: AbortSignal | null | undefined;
}

/** Sends `makeRequest()` (a fresh Request per attempt) until it is answered or the policy gives up. */
export async function sendWithRetries(env: Environment, makeRequest: () => Promise<Request>, options: SendOptions): Promise<Answer> {
  for (let attempt = 1; ; attempt++) {
    const last = attempt >= MAX_ATTEMPTS;
    const request = await makeRequest();
    let answer: Answer;
    try {
      answer = await readAnswer(await env.fetch(request));
    } catch (error) {
      if (options.signal?.aborted || !isNetworkFailure(error)) throw error;
      // A POST or PATCH may have reached the server: sending it again could do it twice.
      if (!options.retryNetworkErrors || last) throw networkError(env, options.describe, attempt, error);
      await sleep(env, backoffDelay(attempt, env.random));
      continue;
    }
    if (answer.status === 429) {
      if (last) {
        throw new RateLimitError(
          429,
          answer.text,
          `The Stack Auth API rate-limited ${options.describe} (HTTP 429) on all ${attempt} attempts. Wait a while before trying again.`,
        );
      }
      // Retry-After replaces the backoff; it is not added to it.
      await sleep(env, retryAfterDelay(answer.headers.get("retry-after"), env.now()) ?? backoffDelay(attempt, env.random));
      continue;
    }
    if (answer.status === 508 && answer.text.includes("INFINITE_LOOP_DETECTED") && !last) {
      await sleep(env, backoffDelay(attempt, env.random));
      continue;
    }
    return answer;
  }
}

/** What fetch throws when no answer came: a TypeError in browsers and undici, a DOMException for timeouts. */
function isNetworkFailure(error: unknown): boolean {
  return error instanceof TypeError || (error instanceof Error && error.name === "TimeoutError");
}

function networkError(env: Environment, describe: string, attempts: number, cause: unknown): NetworkError {
  if (env.isOffline()) return new NetworkError("You seem to be offline", { cause });
  return new NetworkError(
    `Could not reach the Stack Auth API for ${describe} (${attempts === 1 ? "1 attempt" : `${attempts} attempts`}). ` +
      "Check your internet connection and that the API's base URL is right and reachable from here; " +
      "a proxy, firewall, VPN or browser extension may be blocking the request. Then try again.",
    { cause },
  );
}

/** A non-2xx answer without a known-error code, as the error it is. */
export function httpError(describe: string, answer: Answer): HttpError {
  return new HttpError(answer.status, answer.text, `Failed to send request to ${describe}: ${answer.status} ${answer.text}`);
}
