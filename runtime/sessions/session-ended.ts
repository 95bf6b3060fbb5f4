// SessionEndedError is a known error, so its class comes with the error
// catalogue. Testing for one goes by name, so that it works across two copies
// of the package; making one is for code that acts for a user object of its
// own making (the React bindings' hydrated users).
import { isKnownError } from "../../generated/known-error-guard.js";
import { SessionEndedError } from "../app/bound-session.js";

/**
 * Whether `value` is a {@link SessionEndedError}: a call on an object whose session has ended or
 * was replaced. By name, so it works across two copies of the package and without loading the
 * error catalogue; the service's own CANNOT_GET_OWN_USER_WITHOUT_USER is not one.
 *
 * @example
 * ```ts
 * try {
 *   await keptUser.update({ displayName: "Ada" });
 * } catch (error) {
 *   if (isSessionEndedError(error)) keptUser = await app.getUser();
 * }
 * ```
 */
export function isSessionEndedError(value: unknown): value is SessionEndedError {
  return isKnownError(value, "CANNOT_GET_OWN_USER_WITHOUT_USER") && (value as Error).name === "SessionEndedError";
}

/**
 * A new {@link SessionEndedError}, for code that acts for a user
 * object of its own making (as the React bindings' hydrated users do) and must refuse as a stale
 * user object does.
 *
 * @example
 * ```ts
 * if (user.id !== expectedUserId) throw await sessionEndedError();
 * ```
 */
export async function sessionEndedError(): Promise<SessionEndedError> {
  return new SessionEndedError();
}
