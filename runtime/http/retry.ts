// The retry policy of SPEC §9 and wire contract §12, as pure functions; the
// pipeline decides when to retry, these decide how long to wait.
import { MAX_SINGLE_WAIT_MS, RETRY_BASE_DELAY_MS } from "../constants.js";

/** Methods that are safe to send again after a network error: the request may have arrived. */
const IDEMPOTENT = new Set(["GET", "PUT", "DELETE", "OPTIONS", "HEAD", "TRACE"]);

export function isIdempotentMethod(method: string): boolean {
  return IDEMPOTENT.has(method.toUpperCase());
}

/**
 * The wait after failed attempt `attempt` (1-based): 1000 ms × 2^(attempt−1),
 * times a jitter drawn uniformly from [0.5, 1.5) so that clients that failed
 * together do not come back together.
 */
export function backoffDelay(attempt: number, random: () => number): number {
  return Math.min(RETRY_BASE_DELAY_MS * 2 ** (attempt - 1) * (0.5 + random()), MAX_SINGLE_WAIT_MS);
}

/**
 * The wait a `Retry-After` header asks for (RFC 9110 §10.2.3): delta-seconds or
 * an HTTP-date, as asked (the transport refuses waits longer than the app
 * allows). Undefined when the header is absent or unreadable, in which case the
 * caller backs off instead (an unreadable date must not become a NaN wait).
 */
export function retryAfterDelay(value: string | null, now: number): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // Only the date forms of HTTP-date; Date.parse would also accept "1", "tomorrow"-ish strings.
  if (!/^[A-Za-z]{3},? /.test(text) && !/^[A-Za-z]+day, /.test(text)) return undefined;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(at - now, 0);
}
