// The reference SDK's Result: expected failures (a wrong password, a used code)
// come back as values; everything else is thrown. The helpers are those of the
// reference's `Result` (`@stackframe/stack-shared/dist/utils/results`) that an app
// calls, so that code importing it from there needs only its import changed.

/**
 * The outcome of a call whose expected failures are values rather than throws (a wrong password, a
 * used code): `{ status: "ok", data }` or `{ status: "error", error }`. `Result.orThrow` and the
 * other helpers of the `Result` object read it.
 */
export type Result<T, E = unknown> = { readonly status: "ok"; readonly data: T } | { readonly status: "error"; readonly error: E };

/** The helpers that make and read a {@link Result} (those of the reference SDK's `Result`). */
export const Result = {
  /** An ok result carrying `data`. */
  ok<T>(data: T): Result<T, never> {
    return { status: "ok", data };
  },
  /** An error result carrying `error`. */
  error<E>(error: E): Result<never, E> {
    return { status: "error", error };
  },
  /** The data of an ok result; throws the error of an error result. */
  orThrow<T>(result: Result<T, unknown>): T {
    if (result.status === "ok") return result.data;
    throw result.error;
  },
  /** orThrow of the result a promise resolves to. */
  async orThrowAsync<T>(result: Promise<Result<T, unknown>>): Promise<T> {
    return Result.orThrow(await result);
  },
  /** The data of an ok result; `fallback` for an error result. */
  or<T, U>(result: Result<T, unknown>, fallback: U): T | U {
    return result.status === "ok" ? result.data : fallback;
  },
  /** An ok result's data passed through `fn`; an error result as it is. */
  map<T, U, E>(result: Result<T, E>, fn: (data: T) => U): Result<U, E> {
    return result.status === "ok" ? Result.ok(fn(result.data)) : Result.error(result.error);
  },
  /** What `fn` returns as an ok result, or what it throws as an error result. */
  fromThrowing<T>(fn: () => T): Result<T, unknown> {
    try {
      return Result.ok(fn());
    } catch (error) {
      return Result.error(error);
    }
  },
  /** What `fn`'s promise resolves to as an ok result, or what it rejects with as an error result. */
  async fromThrowingAsync<T>(fn: () => Promise<T>): Promise<Result<T, unknown>> {
    try {
      return Result.ok(await fn());
    } catch (error) {
      return Result.error(error);
    }
  },
  /** The promise's value as an ok result, or its rejection as an error result. */
  async fromPromise<T>(promise: Promise<T>): Promise<Result<T, unknown>> {
    try {
      return Result.ok(await promise);
    } catch (error) {
      return Result.error(error);
    }
  },
};
