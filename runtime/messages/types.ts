// The shapes of describeError: what it answers, and the map of words an app
// passes to translate it. Kept apart from the function so that the English
// table and the function can both use them without importing each other.
import type { KnownErrorCode } from "../../generated/known-errors.js";

/**
 * The codes describeError gives to what is not a known error of the service:
 * the network, slow or refused answers, cancelled calls, broken answers and
 * mistakes of the app itself. None of them is a catalogue code.
 */
export type GenericErrorCode =
  | "OFFLINE"
  | "NETWORK_ERROR"
  | "TIMEOUT"
  | "RATE_LIMITED"
  | "SERVICE_UNAVAILABLE"
  | "SERVER_ERROR"
  | "REQUEST_FAILED"
  | "INVALID_RESPONSE"
  | "ABORTED"
  | "CONFIGURATION_ERROR"
  | "NOT_SIGNED_IN"
  | "UNKNOWN_ERROR";

/** A catalogue code (its own, or a family's) or a generic one: the keys of an {@link ErrorMessages} map. */
export type UserFacingErrorCode = KnownErrorCode | GenericErrorCode;

/**
 * The numbers a message may show, taken from the error. Only numbers: nothing
 * the error carries as text (addresses, tokens, the service's words) is handed on.
 */
export interface MessageParams {
  /** RATE_LIMITED: the wait the service asked for, in whole seconds (rounded up), when it said. */
  readonly seconds?: number;
  /** PASSWORD_TOO_SHORT: the shortest password the project accepts, when the service said. */
  readonly minLength?: number;
  /** PASSWORD_TOO_LONG: the longest password the project accepts, when the service said. */
  readonly maxLength?: number;
}

/**
 * A text of a message map: a string, where `{seconds}`, `{minLength}` and
 * `{maxLength}` are replaced by those numbers (a string that names a number the
 * error does not have is skipped, and the next candidate is used); or a function
 * of the numbers, for wording that depends on them (plurals, a missing wait).
 */
export type MessageText = string | ((params: MessageParams) => string);

/** What to show for one code; either half may be left out (the next candidate fills it). */
export interface ErrorMessage {
  readonly title?: MessageText;
  readonly message?: MessageText;
}

/** A map of words by code, as describeError's `messages` option takes it; every key is optional. */
export type ErrorMessages = { readonly [C in UserFacingErrorCode]?: ErrorMessage };

/** An error as an end user should see it. */
export interface UserFacingError {
  /**
   * The known error's own code (`"EMAIL_PASSWORD_MISMATCH"`), or a
   * {@link GenericErrorCode}. A known error from a newer copy of the package
   * may carry a code this one does not list.
   */
  readonly code: UserFacingErrorCode | (string & {});
  /** A few words for a heading. */
  readonly title: string;
  /** One or two plain sentences: what happened and what the person can do. */
  readonly message: string;
  /**
   * Whether doing the same thing again, unchanged, may work (the network, a
   * slow or busy service, a cancelled call): worth a "Try again" button. False
   * when the person has to change something first (a wrong password).
   */
  readonly retryable: boolean;
}

/**
 * What {@link describeError} takes besides the error: the app's own words, and
 * how to tell that the device is offline.
 *
 * @example
 * ```ts
 * const shown = describeError(error, {
 *   messages: { EMAIL_PASSWORD_MISMATCH: { title: "Mauvais identifiants", message: "Vérifiez l'e-mail et le mot de passe." } },
 *   isOffline: () => !navigator.onLine,
 * });
 * ```
 */
export interface DescribeErrorOptions {
  /**
   * The app's words, by code (a translation, or its own tone). A code whose
   * entry is missing, in whole or in part, takes its family's entry, then the
   * English one.
   */
  readonly messages?: ErrorMessages;
  /**
   * Whether the device is offline; by default `navigator.onLine === false`
   * where there is a navigator. A network failure while offline is `OFFLINE`.
   */
  readonly isOffline?: () => boolean;
}
