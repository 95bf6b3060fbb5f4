// The reference SDK's Result: expected failures (a wrong password, a used code)
// come back as values; everything else is thrown.

export type Result<T, E = unknown> = { readonly status: "ok"; readonly data: T } | { readonly status: "error"; readonly error: E };

export const Result = {
  ok<T>(data: T): Result<T, never> {
    return { status: "ok", data };
  },
  error<E>(error: E): Result<never, E> {
    return { status: "error", error };
  },
  /** The data of an ok result; throws the error of an error result. */
  orThrow<T>(result: Result<T, unknown>): T {
    if (result.status === "ok") return result.data;
    throw result.error;
  },
};
