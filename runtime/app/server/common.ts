// Guards of the ids server objects put into a path. Server code passes ids it
// got from anywhere (a request, a database), so they are checked before they
// become a URL.
import { StackConfigurationError } from "../../errors.js";

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

function describe(value: unknown): string {
  if (value === null) return "null";
  if (typeof value === "string") return JSON.stringify(value);
  return typeof value;
}
