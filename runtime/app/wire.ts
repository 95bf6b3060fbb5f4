// Guards for what the service answers, and for the ids it takes. The typed
// client promises a body for these calls; a service that sends none has broken
// the protocol, which is an assertion error naming the call, not a TypeError
// further down.
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

/** The `items` of a list answer, or an assertion error naming `call` when it has none. */
export function itemsOf<D extends { items: unknown[] }>(data: D | undefined, call: string): D["items"] {
  const items = answered(data, call).items;
  if (!Array.isArray(items)) throw new StackAssertionError(`${call} answered without an items list`);
  return items;
}

/** Option names → the wire's names of the same values (`{ displayName: "display_name" }`). */
export type WireNames = Readonly<Record<string, string>>;

/** The fields of `options` that are given (not undefined), under their wire names: a body that changes only what the caller named. */
export function wireFields(options: object, names: WireNames): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const [key, wireKey] of Object.entries(names)) {
    const value = (options as Record<string, unknown>)[key];
    if (value !== undefined) body[wireKey] = value;
  }
  return body;
}

// Ids of users and teams are UUIDs; the service answers anything else with SCHEMA_ERROR.
// Lookups treat a malformed id as "no such user/team", which also keeps "", "." and ".."
// out of a path, where they would name other routes.
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: unknown): value is string {
  return typeof value === "string" && UUID.test(value);
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
