// The runtime's errors about one request: an HTTP failure without a known code,
// a redirect refused, a timed-out attempt, a broken answer. Apart from errors.ts
// so that an app's first load, which sends nothing yet, does not carry them.
import { NetworkError, StackError } from "./errors.js";

/** A non-2xx answer without a known-error code. */
export class HttpError extends StackError {
  readonly name: "HttpError" | "RateLimitError" | "UnexpectedRedirectError" = "HttpError";
  readonly status: number;
  /** The response body as text. */
  readonly body: string;
  constructor(status: number, body: string, message: string) {
    super(message);
    this.status = status;
    this.body = body;
  }
}

/**
 * The service kept answering 429 until the attempts ran out, or asked for a
 * longer wait than the app allows (`maxRetryAfterMs`): then `retryAfterMs` is
 * the wait it asked for, so the app can decide what to do.
 */
export class RateLimitError extends HttpError {
  override readonly name = "RateLimitError" as const;
  /** The wait the service asked for with `Retry-After`, when it sent a readable one. */
  readonly retryAfterMs: number | undefined;
  constructor(status: number, body: string, message: string, retryAfterMs?: number) {
    super(status, body, message);
    this.retryAfterMs = retryAfterMs;
  }
}

/**
 * The service answered an API call with a redirect (3xx). API calls are never
 * redirected, so the redirect was not followed: nothing (no token, no key, no
 * body) went to its `Location`.
 */
export class UnexpectedRedirectError extends HttpError {
  override readonly name = "UnexpectedRedirectError" as const;
}

/** An attempt got no answer within the app's `requestTimeoutMs` (and was not, or no longer, retried). */
export class RequestTimeoutError extends NetworkError {
  override readonly name = "RequestTimeoutError" as const;
  readonly timeoutMs: number;
  constructor(message: string, timeoutMs: number) {
    super(message);
    this.timeoutMs = timeoutMs;
  }
}

/**
 * A 2xx answer whose body is not what the operation promises. `path` is the
 * JSON path of the first field that is wrong (`$` for the body itself).
 */
export class ResponseFormatError extends StackError {
  readonly name = "ResponseFormatError" as const;
  readonly operationId: string;
  readonly status: number;
  readonly path: string;
  constructor(operationId: string, status: number, message: string, path = "$") {
    super(message);
    this.operationId = operationId;
    this.status = status;
    this.path = path;
  }
}
