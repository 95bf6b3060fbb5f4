// Known errors returned as values: the reference SDK's Result for the calls
// that answer one, and an error or undefined for the calls with nothing to answer.
import { isKnownError } from "../../generated/known-error-guard.js";
import type { KnownErrorCode, KnownErrorOf } from "../../generated/known-errors.js";
import { Result } from "./result.js";

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
