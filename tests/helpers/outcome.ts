// What a call threw, for tests that assert on the error itself.
import { expect, vi } from "vitest";
import { isStackError, type StackErrorName } from "../../runtime/errors.js";

/** The error `action` throws, checked to be one of the runtime's errors of that kind. */
export function thrownBy(action: () => unknown, name: StackErrorName = "StackConfigurationError"): Error {
  try {
    action();
  } catch (error) {
    expect(isStackError(error, name)).toBe(true);
    return error as Error;
  }
  throw new Error("expected a throw");
}

/** What `promise` rejects with; fails the test if it resolves. */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected the call to fail");
}

/**
 * Runs `promise` to its end on vitest's fake timers (a redirect waits 2000 ms,
 * a retry backs off) and hands back its value or throws its error.
 */
export async function settleOnFakeTime<T>(promise: Promise<T>): Promise<T> {
  const outcome = promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  await vi.runAllTimersAsync();
  const done = await outcome;
  if ("error" in done) throw done.error;
  return done.value;
}
