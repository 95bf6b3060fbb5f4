// Sending one request with the retry policy of SPEC §9 / wire contract §12:
// at most five attempts; network errors (and timed-out attempts) retried only
// where resending is safe; 429 waits for Retry-After (or backs off); a platform
// loop guard (508 INFINITE_LOOP_DETECTED) is retried. Everything else is
// answered as it came.
//
// With failover (origins.ts), the same five attempts go round the API's
// origins: a failure that lets the request be sent again sends it to the next
// origin, at once while the call has an origin it has not tried (another
// server: nothing to back off from), after the backoff once it comes back to
// one, and always after a 429's Retry-After. A 5xx answer (not a known error)
// also moves a request that may be resent on, to an origin not tried yet; a
// request that may not be resent (POST, PATCH) moves on only after a 429 or a
// 508, which the service answers without processing it: a network failure, a
// timeout or a 5xx may come after it was processed.
//
// Every request goes out with `redirect: "manual"`: the service never
// redirects an API call, and following one would hand the tokens, keys or the
// refresh-token form body to whoever the Location names.
import { abortReason, raceAbort, throwIfAborted } from "../platform/abort.js";
import { MAX_ATTEMPTS } from "../constants.js";
import { platformEnvironment, sleep, type Environment, type TimerId } from "../platform/env.js";
import { NetworkError } from "../errors.js";
import { answerHeader } from "./answer-headers.js";
import { HttpError, RateLimitError, RequestTimeoutError, UnexpectedRedirectError } from "./request-errors.js";
import { routeOf, type CallRoute, type Origins } from "./origins.js";
import { readResponse, type ReadResponse } from "./response.js";
import { backoffDelay, retryAfterDelay } from "./retry.js";
import { requestEvent, retryEvent, type RequestHooks, type RetryReason } from "./observe.js";

/** How the app bounds its requests (StackClientOptions). */
export interface TransportPolicy {
  /** Longest wait for one attempt's answer, in ms; 0: no limit. */
  readonly requestTimeoutMs: number;
  /** Longest Retry-After the app waits; a longer one fails the call at once. */
  readonly maxRetryAfterMs: number;
  readonly hooks: RequestHooks;
}

/** What one attempt sends; the transport makes the Request, so every attempt gets the same safe settings. */
export interface OutgoingRequest {
  readonly url: string;
  readonly method: string;
  /** A Headers, or a plain object of lowercase names (what the pipeline builds: the fetch reads it faster). */
  readonly headers: Headers | Readonly<Record<string, string>>;
  readonly body: BodyInit | null;
}

export interface SendOptions {
  /**
   * May the request be sent again after a failure that may have come after the service
   * processed it (a network failure, a timeout, a 5xx answer)? True for idempotent methods.
   */
  readonly resendable: boolean;
  /** What the request is, for messages: `GET https://…/api/v1/users/me`. */
  readonly describe: string;
  /** The operation's id, for hooks. */
  readonly operationId: string | undefined;
  /** The API's origins when the client fails over; absent: every attempt goes to the request's URL. */
  readonly origins?: Origins | undefined;
  readonly signal?: AbortSignal | null | undefined;
}

/**
 * Sends `makeRequest()` (made afresh per attempt: its tokens may have been
 * refreshed meanwhile) until it is answered or the policy gives up.
 */
export async function sendWithRetries(
  env: Environment,
  policy: TransportPolicy,
  makeRequest: () => Promise<OutgoingRequest>,
  options: SendOptions,
): Promise<ReadResponse> {
  const { signal, describe } = options;
  let route: CallRoute | undefined;
  // Waits taken so far: the backoff grows with them, not with moves to origins not tried yet.
  let waited = 0;
  for (let attempt = 1; ; attempt++) {
    const last = attempt >= MAX_ATTEMPTS;
    const made = await raceAbort(makeRequest(), signal);
    route ??= routeOf(options.origins, made.url);
    const outgoing: OutgoingRequest = { ...made, url: route.url(made.url) };
    const at = route;
    /**
     * The next attempt, at the next origin: after `asked` (a Retry-After) when given, else at
     * once to an origin the call has not tried, else after the backoff.
     */
    const retry = async (reason: RetryReason, asked?: number, status?: number) => {
      const fresh = asked === undefined && at.nextUntried;
      const delayMs = asked ?? (fresh ? 0 : backoffDelay(waited + 1, env.random));
      at.moveOn();
      if (policy.hooks.onRetry) {
        const nextUrl = at.url(made.url);
        policy.hooks.onRetry(retryEvent(outgoing, options.operationId, attempt, { reason, delayMs, status, nextUrl }));
      }
      if (fresh) return throwIfAborted(signal);
      waited++;
      await sleep(env, delayMs, signal);
    };
    let answer: ReadResponse;
    try {
      if (policy.hooks.onRequest) policy.hooks.onRequest(requestEvent(outgoing, options.operationId, attempt));
      const answered = sendOnce(env, policy.requestTimeoutMs, outgoing, describe, signal);
      // Once the first request is on its way: the service's list never delays it.
      if (attempt === 1) options.origins?.used();
      answer = await answered;
    } catch (error) {
      if (signal?.aborted) throw abortReason(signal);
      const timedOut = error instanceof AttemptTimedOut;
      if (!timedOut && !isNetworkFailure(error)) throw error;
      // A POST or PATCH may have reached the server: sending it again, here or elsewhere, could do it twice.
      if (!options.resendable || last) {
        throw timedOut
          ? timeoutError(describe, attempt, policy.requestTimeoutMs, at.tried)
          : networkError(env, describe, attempt, error, at.tried);
      }
      await retry(timedOut ? "timeout" : "network");
      continue;
    }
    if (answer.status === 429) {
      const asked = retryAfterDelay(answer.headers.get("retry-after"), env.now());
      if (asked !== undefined && asked > policy.maxRetryAfterMs) {
        throw new RateLimitError(
          429,
          answer.text,
          `The Stack Auth API rate-limited ${describe} (HTTP 429) and asked to wait ${asked} ms, ` +
            `longer than this app waits (maxRetryAfterMs: ${policy.maxRetryAfterMs} ms).`,
          asked,
        );
      }
      if (last) {
        throw new RateLimitError(
          429,
          answer.text,
          `The Stack Auth API rate-limited ${describe} (HTTP 429) on all ${attempt} attempts. Wait a while before trying again.`,
          asked,
        );
      }
      // Retry-After replaces the backoff; it is not added to it. It is waited out whichever
      // origin comes next: the service asked this client to slow down, and its origins are one service.
      await retry("rate-limited", asked ?? backoffDelay(waited + 1, env.random), 429);
      continue;
    }
    if (answer.status === 508 && answer.text.includes("INFINITE_LOOP_DETECTED") && !last) {
      await retry("loop-detected", undefined, 508);
      continue;
    }
    if (answer.status >= 500) {
      // A server error of this origin (not a known error, which the service means) sends a
      // request that may be resent to an origin the call has not tried; else it is the answer.
      if (at.nextUntried && options.resendable && !last && answerHeader(answer.headers, "known-error") === null) {
        await retry("server-error", undefined, answer.status);
        continue;
      }
      return at.elsewhere === undefined ? answer : { ...answer, origin: at.elsewhere };
    }
    at.answered();
    return at.elsewhere === undefined ? answer : { ...answer, origin: at.elsewhere };
  }
}

/** Why an attempt was given up: its own timer, not the caller. */
class AttemptTimedOut extends Error {}

/**
 * One attempt, read to the end, bounded by `timeoutMs`. The attempt has its own
 * controller, so its timer and the caller's signal both cancel the fetch; and
 * either also rejects the wait itself, so an injected fetch that ignores signals
 * cannot hold the call. The wait is ended directly rather than by a listener on
 * the attempt's signal, which every call would pay for (issue 13 §5).
 */
async function sendOnce(
  env: Environment,
  timeoutMs: number,
  outgoing: OutgoingRequest,
  describe: string,
  signal: AbortSignal | null | undefined,
): Promise<ReadResponse> {
  if (signal?.aborted) throw abortReason(signal);
  const attempt = new AbortController();
  let stopWaiting: (reason: unknown) => void = () => {};
  const stopped = new Promise<never>((_, reject) => (stopWaiting = reject));
  const end = (reason: unknown) => {
    attempt.abort(reason);
    stopWaiting(reason);
  };
  const onAbort = () => end(abortReason(signal as AbortSignal));
  signal?.addEventListener("abort", onAbort, { once: true });
  let timer: TimerId | undefined;
  if (timeoutMs > 0) timer = env.setTimeout(() => end(new AttemptTimedOut()), timeoutMs);
  try {
    const init: RequestInit = {
      method: outgoing.method,
      headers: headersInit(outgoing.headers),
      body: outgoing.body,
      cache: "no-store",
      credentials: "omit",
      redirect: "manual",
      signal: attempt.signal,
    };
    // The platform's fetch (the default environment's) builds the one Request
    // itself: building it here too would build, and tie to the signal, two.
    const sent =
      env.fetch === platformEnvironment.fetch ? globalThis.fetch(outgoing.url, init) : env.fetch(new Request(outgoing.url, init));
    // One race for the answer and its body.
    return await Promise.race([answerOf(sent, describe), stopped]);
  } finally {
    if (timer !== undefined) env.clearTimeout(timer);
    signal?.removeEventListener("abort", onAbort);
  }
}

/**
 * The headers as the fetch takes them. A fetch reads plain fields into a plain
 * object, where a header named `__proto__` would be lost: such fields go as pairs.
 */
function headersInit(headers: OutgoingRequest["headers"]): HeadersInit {
  return headers instanceof Headers || !Object.hasOwn(headers, "__proto__") ? headers : Object.entries(headers);
}

/** The answer of a sent request, read to the end; a redirect is refused, not followed. */
async function answerOf(sent: Promise<Response>, describe: string): Promise<ReadResponse> {
  const response = await sent;
  // Browsers answer a manual redirect with an opaque one (status 0); Node with the 3xx itself.
  if (response.type === "opaqueredirect" || (response.status >= 300 && response.status <= 399)) {
    void response.body?.cancel().catch(() => {});
    const status = response.status === 0 ? "a redirect" : `HTTP ${response.status}`;
    throw new UnexpectedRedirectError(
      response.status,
      "",
      `${describe} was answered with ${status}. The Stack Auth API never redirects an API call, so the redirect was not followed ` +
        "and nothing was sent to its location. Check the API's base URL (and any proxy in front of it).",
    );
  }
  return readResponse(response);
}

/** What fetch throws when no answer came: a TypeError in browsers and undici, a DOMException for timeouts. */
function isNetworkFailure(error: unknown): boolean {
  return error instanceof TypeError || (error instanceof Error && error.name === "TimeoutError");
}

function attempts(n: number): string {
  return n === 1 ? "1 attempt" : `${n} attempts`;
}

/** ` at A, B and C` when the attempts went to more than one origin. */
function origins(tried: readonly string[]): string {
  if (tried.length < 2) return "";
  return ` at ${tried.slice(0, -1).join(", ")} and ${tried[tried.length - 1] as string}`;
}

function networkError(env: Environment, describe: string, attempt: number, cause: unknown, tried: readonly string[]): NetworkError {
  if (env.isOffline()) return new NetworkError("You seem to be offline", { cause });
  return new NetworkError(
    `Could not reach the Stack Auth API for ${describe} (${attempts(attempt)}${origins(tried)}). ` +
      "Check your internet connection and that the API's base URL is right and reachable from here; " +
      "a proxy, firewall, VPN or browser extension may be blocking the request. Then try again.",
    { cause },
  );
}

function timeoutError(describe: string, attempt: number, timeoutMs: number, tried: readonly string[]): RequestTimeoutError {
  return new RequestTimeoutError(
    `${describe} timed out: no answer within ${timeoutMs} ms (${attempts(attempt)}${origins(tried)}). ` +
      "The Stack Auth API or the network is slow; try again, or raise requestTimeoutMs.",
    timeoutMs,
  );
}

/** A non-2xx answer without a known-error code, as the error it is: the request was sent, and answered so. */
export function httpError(describe: string, answer: ReadResponse): HttpError {
  const body = answer.text === "" ? "" : `: ${answer.text}`;
  const at = answer.origin === undefined ? "" : ` at ${answer.origin}`;
  return new HttpError(answer.status, answer.text, `The Stack Auth API answered ${describe}${at} with HTTP ${answer.status}${body}`);
}
