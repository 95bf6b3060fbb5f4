// Guards for what the service answers. The typed client promises a body for
// these calls; a service that sends none has broken the protocol, which is an
// assertion error naming the call, not a TypeError further down.
import { isKnownError } from "../../generated/known-error-guard.js";
import { StackAssertionError } from "../errors.js";

/** Narrows `data` to a body, or throws saying `call` answered without `what`. */
export function assertAnswered<T>(data: T, call: string, what = "a body"): asserts data is NonNullable<T> {
  if (data === undefined || data === null) throw new StackAssertionError(`${call} answered without ${what}`);
}

/** The body of `call`'s answer (see {@link assertAnswered}). */
export function answered<T>(data: T, call: string): NonNullable<T> {
  assertAnswered(data, call);
  return data;
}

/**
 * The problems a SCHEMA_ERROR lists, one per "- " line of its message (the
 * details' message when it has one), or undefined for any other error. Where the
 * service version decides what a request may carry, these say which.
 */
export function schemaProblems(error: unknown): string[] | undefined {
  if (!isKnownError(error, "SCHEMA_ERROR")) return undefined;
  const message = typeof error.details?.message === "string" ? error.details.message : error.message;
  return message
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line.startsWith("- "));
}
