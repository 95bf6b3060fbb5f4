// Observability: the app may watch every attempt and every retry (to log them,
// count them, trace them). What it is shown is redacted here, in one place:
// header values are shown only for headers known to carry nothing secret, and
// query values only for parameters known to be identifiers, so a header or
// parameter added later is hidden until someone decides it is safe.

/**
 * Why an attempt is sent again: a network failure, a timeout, a 429 (rate limited), a 508
 * (loop detected), or a 5xx answer, after which failover tries another origin of the API.
 */
export type RetryReason = "network" | "timeout" | "rate-limited" | "loop-detected" | "server-error";

/** What the `onRequest` hook is shown of one attempt, before it is sent: tokens and keys are redacted. */
export interface RequestEvent {
  /** The operation's id from the document; undefined for a path it does not list. */
  readonly operationId: string | undefined;
  readonly method: string;
  /** The URL, with the values of query parameters that could be secret replaced by `[redacted]`. */
  readonly url: string;
  /** 1 for the first attempt. */
  readonly attempt: number;
  /** The request's headers; every value that could be a token or a key is `[redacted]`. */
  readonly headers: Readonly<Record<string, string>>;
}

/** What the `onRetry` hook is shown when an attempt failed and another will be sent: why, and after how long. */
export interface RetryEvent extends RequestEvent {
  /** Why attempt `attempt` is sent again. */
  readonly reason: RetryReason;
  /** How long the runtime waits before the next attempt. */
  readonly delayMs: number;
  /** The status that caused the retry (429, 508, a 5xx); undefined after a network failure or timeout. */
  readonly status: number | undefined;
  /**
   * Where the next attempt goes, redacted as `url` is: the same URL, or the same request at
   * another origin of the API when the client fails over (the `failover` option).
   */
  readonly nextUrl: string;
}

/** The `onRequest` and `onRetry` hooks a client was made with. */
export interface RequestHooks {
  /** Called before each attempt is sent. Must not throw; what it throws is ignored. */
  readonly onRequest?: ((event: RequestEvent) => void) | undefined;
  /** Called when an attempt failed and another will be sent after `delayMs`. */
  readonly onRetry?: ((event: RetryEvent) => void) | undefined;
}

export const REDACTED = "[redacted]";

const PUBLIC_HEADERS = new Set([
  "accept",
  "content-type",
  "content-length",
  "x-stack-project-id",
  "x-stack-access-type",
  "x-stack-client-version",
  "x-stack-override-error-status",
  "x-stack-allow-anonymous-user",
]);

const PUBLIC_QUERY =
  /^(?:user_id|team_id|project_id|provider_id|contact_channel_id|session_id|api_key_id|permission_id|type|direct|recursive|limit|cursor|order_by|desc|query|include_anonymous|include_expired|is_verified)$/;

/** The event for one attempt, redacted. */
export function requestEvent(
  request: { readonly url: string; readonly method: string; readonly headers: Headers | Readonly<Record<string, string>> },
  operationId: string | undefined,
  attempt: number,
): RequestEvent {
  const headers: Record<string, string> = {};
  // Sorted by name, lowercase, as a Headers iterates, whichever form the request holds them in.
  const entries = request.headers instanceof Headers ? [...request.headers] : Object.entries(request.headers).sort(byName);
  for (const [name, value] of entries) {
    Object.defineProperty(headers, name, {
      value: PUBLIC_HEADERS.has(name) ? value : REDACTED,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return { operationId, method: request.method, url: redactedUrl(request.url), attempt, headers };
}

/** The event for a retry of attempt `attempt`, redacted. */
export function retryEvent(
  request: Parameters<typeof requestEvent>[0],
  operationId: string | undefined,
  attempt: number,
  retry: { readonly reason: RetryReason; readonly delayMs: number; readonly status: number | undefined; readonly nextUrl: string },
): RetryEvent {
  return { ...requestEvent(request, operationId, attempt), ...retry, nextUrl: redactedUrl(retry.nextUrl) };
}

function byName([a]: [string, string], [b]: [string, string]): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function redactedUrl(url: string): string {
  const parsed = new URL(url);
  const names = [...new Set(parsed.searchParams.keys())];
  for (const name of names) {
    if (PUBLIC_QUERY.test(name)) continue;
    const count = parsed.searchParams.getAll(name).length;
    parsed.searchParams.delete(name);
    for (let i = 0; i < count; i++) parsed.searchParams.append(name, REDACTED);
  }
  return parsed.toString();
}

/**
 * The app's hooks, each guarded: a hook that throws must not change what the
 * request does. A hook the app did not give stays undefined, so no event is made for it.
 */
export function guardedHooks(hooks: RequestHooks): RequestHooks {
  const guard = <E>(hook: ((event: E) => void) | undefined) =>
    hook &&
    ((event: E) => {
      try {
        hook(event);
      } catch {
        // Observability must never break the call it observes.
      }
    });
  return { onRequest: guard(hooks.onRequest), onRetry: guard(hooks.onRetry) };
}
