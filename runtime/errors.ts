// Errors the runtime raises itself. Known errors of the service are generated
// (generated/known-errors.ts); these cover what happens around them: the network,
// HTTP failures without a known code, broken responses and misuse.
// Every class carries a brand, so `isStackError` works across package copies.

const BRAND = Symbol.for("stackkit.StackError");

/** The `name` of each of stackkit's own errors (not the service's known errors): what `isStackError(error, name)` tests. */
export type StackErrorName =
  | "StackAssertionError"
  | "StackConfigurationError"
  | "HttpError"
  | "RateLimitError"
  | "UnexpectedRedirectError"
  | "NetworkError"
  | "RequestTimeoutError"
  | "ResponseFormatError"
  | "ServiceVersionError"
  | "UserNotSignedInError"
  | "AccessTokenInvalidError";

/** The base of the runtime's own errors (not exported from the package: test with `isStackError`). */
export abstract class StackError extends Error {
  abstract override readonly name: StackErrorName;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    Object.defineProperty(this, BRAND, { value: true });
  }
}

/**
 * True when `value` is one of the runtime's own errors, optionally of one kind
 * (`name`). Checks a brand rather than `instanceof`, so errors made by another
 * copy of the package count too.
 *
 * @example
 * ```ts
 * try {
 *   await app.getUser({ or: "throw" });
 * } catch (error) {
 *   if (isStackError(error, "NetworkError")) showOfflineBanner();
 *   else throw error;
 * }
 * ```
 */
export function isStackError(value: unknown, name?: StackErrorName): value is StackError {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as { [BRAND]?: unknown })[BRAND] === true &&
    (name === undefined || (value as { name?: unknown }).name === name)
  );
}

/** Something that cannot happen did: the service answered in a way its protocol rules out. */
export class StackAssertionError extends StackError {
  readonly name = "StackAssertionError" as const;
}

/** The app was configured or called in a way that cannot work; the message says how to fix it. */
export class StackConfigurationError extends StackError {
  readonly name = "StackConfigurationError" as const;
}

/** The request never got an answer: the network failed. `cause` is what fetch threw. */
export class NetworkError extends StackError {
  readonly name: "NetworkError" | "RequestTimeoutError" = "NetworkError";
}

/** A user was required (`getUser({ or: "throw" })`) and nobody is signed in. */
export class UserNotSignedInError extends StackError {
  readonly name = "UserNotSignedInError" as const;
}
