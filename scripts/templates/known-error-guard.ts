// The part of the known errors that every app needs at once: the brand, and the
// family test behind `isKnownError` and `instanceof`. scripts/generate.mjs writes
// it to generated/known-error-guard.ts with isKnownError's typed overloads, apart
// from the catalogue (generated/known-errors.ts), so that code testing an error's
// code does not load the catalogue's classes: the runtime loads those
// when the first known error arrives.

/** Marks our errors so that guards work across two loaded copies of the package. */
export const BRAND = Symbol.for("stackkit.KnownError");

/** The shape every known error has, whichever copy of the package built it. */
export interface KnownErrorLike {
  readonly code: string;
  readonly status: number;
  readonly details: unknown;
  readonly message: string;
  /** The error's own code, then each parent's, up to the root of its family. */
  readonly codeChain: readonly string[];
}

function isBranded(value: unknown): value is KnownErrorLike {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as { [BRAND]?: unknown })[BRAND] === true &&
    Array.isArray((value as { codeChain?: unknown }).codeChain)
  );
}

/**
 * True when `value` is a known error and, if `code` is given, belongs to that
 * code's family. The test behind {@link isKnownError} and `instanceof`.
 */
export function isInFamily(value: unknown, code: string | undefined): value is KnownErrorLike {
  return isBranded(value) && (code === undefined || value.codeChain.includes(code));
}
