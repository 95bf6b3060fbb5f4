// The runtime's errors about one request: an HTTP failure without a known code,
// a redirect refused, a timed-out attempt, a broken answer. Apart from errors.ts
// so that an app's first load, which sends nothing yet, does not carry them.
import { NetworkError, StackError } from "../errors.js";

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

/**
 * The service's version cannot do what the call asks, and nothing was changed: an operation
 * that version removed with no equivalent (2.8.86's e-mail templates are TSX source, not
 * 2.8.11's documents), or an option it does not know (2.8.11 has no owner teams; 2.8.86 does
 * not page teams, which the hosted service does since 2.8.102). The version is read from the
 * service's answer (a route it no longer has, a field it refuses or requires), never
 * configured. `message` says all of it: the method, the version and what to do instead.
 *
 * @example
 * ```ts
 * try {
 *   await admin.updateEmailTemplate("magic_link", { subject: "Your sign-in link" });
 * } catch (error) {
 *   if (isStackError(error, "ServiceVersionError")) console.warn(error.message);
 *   else throw error;
 * }
 * ```
 */
export class ServiceVersionError extends StackError {
  readonly name = "ServiceVersionError" as const;
  /** The method that cannot work there, as an app calls it: `"StackAdminApp.listEmailTemplates"`. */
  readonly method: string;
  /**
   * The service version whose behaviour the answer showed: `"2.8.11"`, or `"2.8.86"` (for what
   * 2.8.86 removed, 2.8.86 and later; for an option the hosted service took in 2.8.102, which
   * 2.8.86 and 2.8.11 refuse alike, any service before 2.8.102).
   */
  readonly serviceVersion: string;
  /** What to use instead on that version. */
  readonly replacement: string;
  constructor(method: string, serviceVersion: string, why: string, replacement: string) {
    super(`${method} cannot work with this Stack Auth service, which answers as ${serviceVersion} does: ${why}. Instead: ${replacement}`);
    this.method = method;
    this.serviceVersion = serviceVersion;
    this.replacement = replacement;
  }
}
