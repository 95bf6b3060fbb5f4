// The reference SDK's Result: expected failures (a wrong password, a used code)
// come back as values; everything else is thrown.
import { isKnownError } from "../../generated/known-error-guard.js";
import type { KnownErrorCode, KnownErrorOf } from "../../generated/known-errors.js";

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

/** True when `error` is a known error of one of `codes` or of their families. */
export function isKnownErrorOf<C extends KnownErrorCode>(error: unknown, codes: readonly C[]): error is KnownErrorOf<C> {
  return codes.some((code) => isKnownError(error, code));
}

/**
 * Runs `call`; a known error of one of `codes` (or of their families) becomes
 * an error Result typed by those codes' classes (`["VERIFICATION_ERROR"]`:
 * `Result<T, VerificationCodeError>`), anything else is thrown as it was.
 */
export async function resultOf<T, C extends KnownErrorCode>(
  call: () => Promise<T>,
  codes: readonly C[],
): Promise<Result<T, KnownErrorOf<C>>> {
  try {
    return Result.ok(await call());
  } catch (error) {
    if (isKnownErrorOf(error, codes)) return Result.error(error);
    throw error;
  }
}

/**
 * The reference SDK's other convention, for calls with nothing to answer
 * (`updatePassword`, `setPassword`, `sendVerificationEmail`): `undefined` on
 * success, a known error of one of `codes` (or of their families) returned rather
 * than thrown, anything else thrown as it was.
 */
export async function errorOf<C extends KnownErrorCode>(
  call: () => Promise<unknown>,
  codes: readonly C[],
): Promise<KnownErrorOf<C> | undefined> {
  const result = await resultOf(call, codes);
  return result.status === "error" ? result.error : undefined;
}
