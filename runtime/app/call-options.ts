// Cancellation for every public async call (issue: "every public async method
// accepts an AbortSignal"). A call takes its signal in its options object, or
// in a trailing `options` when it has none; the signal reaches every request
// the call sends (the runtime's fetch honours it: retries and Retry-After waits
// included) and every wait of its own. Objects a call returns do not keep it.
// A call's options object is checked to be one (requireOptions).
import { StackConfigurationError } from "../errors.js";
import { raceAbort, throwIfAborted } from "../platform/abort.js";

/**
 * What every public async call takes to be cancelled: an `AbortSignal`, in its options object or in a
 * trailing `options` argument.
 *
 * @example
 * ```ts
 * const options: CallOptions = { signal: AbortSignal.timeout(5_000) };
 * const user = await app.getUser(options);
 * const teams = (await user?.listTeams(options)) ?? [];
 * ```
 */
export interface CallOptions {
  /**
   * Cancels the call: it rejects at once with the signal's reason (a
   * DOMException named "AbortError" unless the caller gave another) and leaves
   * no timer behind. Work shared with other callers (a cached read, a refresh)
   * goes on for them.
   */
  readonly signal?: AbortSignal | undefined;
}

/**
 * The signal of `options` as a request-init field for `client.send("GET /users/me", { ...signalOf(options) })`;
 * nothing at all when there is none (RequestInit takes no `signal: undefined`).
 */
export function signalOf(options: CallOptions | null | undefined): { signal?: AbortSignal } {
  const signal = options?.signal;
  return signal ? { signal } : {};
}

/** Only the signal of `options`, for handing on to a helper without the rest of the caller's options. */
export function callOf(options: CallOptions | null | undefined): CallOptions {
  return signalOf(options);
}

/**
 * Waits for `promise` (work the call does not own, e.g. a shared token refresh
 * or the caller's own callback) until `options.signal` aborts; an already
 * aborted signal rejects before anything is waited for.
 */
export function untilAborted<T>(promise: Promise<T>, options: CallOptions | null | undefined): Promise<T> {
  return raceAbort(promise, options?.signal);
}

/** Throws the abort reason when the call's signal has already aborted. */
export function checkAborted(options: CallOptions | null | undefined): void {
  throwIfAborted(options?.signal);
}

/** Options must be an object: a call without them is a clear error, not a TypeError. */
export function requireOptions(value: unknown, method: string, shape: string): void {
  if (typeof value !== "object" || value === null) throw new StackConfigurationError(`${method} needs options: ${shape}.`);
}
