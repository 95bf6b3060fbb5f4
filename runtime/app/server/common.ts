// Small guards shared by the server objects: ids that go into a path, option
// objects, and list answers. Server code passes ids it got from anywhere (a
// request, a database), so they are checked before they become a URL.
import { StackAssertionError, StackConfigurationError } from "../../errors.js";
import { answered } from "../wire.js";

/**
 * `value` as one path segment. Segments are percent-encoded by the client, but
 * "", "." and ".." survive encoding and would address another route
 * (`/users/` is the user list), so they are refused like any non-string.
 */
export function segment(value: unknown, method: string, what: string): string {
  if (typeof value !== "string" || value === "" || value === "." || value === "..") {
    throw new StackConfigurationError(`${method} needs ${what} as a non-empty string, got ${describe(value)}.`);
  }
  return value;
}

/** The id of `team` (a team object, or anything with its `id`). */
export function teamIdOf(team: unknown, method: string): string {
  const id = typeof team === "object" && team !== null ? (team as { id?: unknown }).id : undefined;
  return segment(id, method, "a team (an object with the team's id)");
}

/** Options must be an object: a call without them is a clear error, not a TypeError. */
export function requireOptions(value: unknown, method: string, shape: string): void {
  if (typeof value !== "object" || value === null) throw new StackConfigurationError(`${method} needs options: ${shape}.`);
}

/** The `items` of a list answer. */
export function itemsOf<T>(data: { items: T[] } | undefined, call: string): T[] {
  const items = answered(data, call).items;
  if (!Array.isArray(items)) throw new StackAssertionError(`${call} answered without an items list`);
  return items;
}

// Ids of users and teams are UUIDs; the service answers anything else with
// SCHEMA_ERROR. Lookups treat a malformed id as "no such user/team".
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: unknown): value is string {
  return typeof value === "string" && UUID.test(value);
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (typeof value === "string") return JSON.stringify(value);
  return typeof value;
}
