// Cancellation (AbortSignal) for every wait the runtime makes: a request, a
// retry's backoff, a Retry-After, a refresh shared with other callers. A wait
// that is abandoned rejects at once with the signal's reason (a DOMException
// named AbortError unless the caller gave another) and leaves no timer behind.

/** The error an aborted call rejects with: the signal's reason, as `fetch` does. */
export function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException("This operation was aborted", "AbortError");
}

/** Throws the abort reason when `signal` has already been aborted. */
export function throwIfAborted(signal: AbortSignal | null | undefined): void {
  if (signal?.aborted) throw abortReason(signal);
}

/**
 * Settles as `promise` does, or rejects as soon as `signal` aborts, whichever
 * comes first. The promise itself goes on (it may be shared with other callers);
 * only this caller stops waiting for it.
 */
export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal | null | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) {
    promise.catch(() => {});
    return Promise.reject(abortReason(signal));
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      promise.catch(() => {});
      reject(abortReason(signal));
    };
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}
