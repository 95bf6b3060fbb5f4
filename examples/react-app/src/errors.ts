// What the app shows for an error, and what it tells the developer. People see
// only describeError's words (a title, a plain message, whether trying again
// may help); the console gets the error itself, whose developer message names
// the request, its attempts and what the service said.
import { describeError, type DescribeErrorOptions, type ErrorMessages, type UserFacingError } from "stackkit";

/**
 * The app's own words, by error code, over describeError's English ones. A
 * translation goes here, for example
 * `{ EMAIL_PASSWORD_MISMATCH: { title: "Falsche E-Mail oder falsches Passwort", message: "…" } }`;
 * every code it leaves out keeps the English words.
 */
export const errorMessages: ErrorMessages = {};

export function userFacing(error: unknown, options: Omit<DescribeErrorOptions, "messages"> = {}): UserFacingError {
  return describeError(error, { ...options, messages: errorMessages });
}

/** Codes only the app's developer can do something about: logged as errors; the rest (a wrong password, the network) as warnings. */
const FOR_THE_DEVELOPER = new Set(["UNKNOWN_ERROR", "INVALID_RESPONSE", "CONFIGURATION_ERROR"]);
const logged = new WeakSet<object>();

/** Puts the error, with its developer message, in the console, once however often it is rendered. */
export function logError(error: unknown, described: UserFacingError = userFacing(error)): void {
  if (typeof error === "object" && error !== null) {
    if (logged.has(error)) return;
    logged.add(error);
  }
  const log = FOR_THE_DEVELOPER.has(described.code) ? console.error : console.warn;
  log(`[example] ${described.code}: ${described.title}.`, error);
}
