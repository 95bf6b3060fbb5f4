// How a handler (or the request gate) fails. The service fails in three ways
// and the emulator raises each with one helper, thrown, never returned: the
// engine answers whatever reaches it, so a failure deep in a shared function
// needs no wrapper around the handler that called it.
//   - a known error (`fail`): JSON `{code, details?, error}` with `x-stack-known-error`;
//   - a status error (`statusFailure`): a status and a plain-text message, no code;
//   - a schema error (`schemaError`): the known error SCHEMA_ERROR, worded as yup words it
//     (`handlerSchemaError` for one a handler raises with a sentence of its own).
import { knownErrorMessage } from "../../generated/known-error-messages.js";
import { knownErrorStatus, type KnownErrorCode } from "../../generated/known-errors.js";

/** A known error a handler raises: the engine answers it as the service does. */
export class EmulatorError extends Error {
  readonly code: KnownErrorCode;
  readonly details: Readonly<Record<string, unknown>> | undefined;
  readonly status: number;
  constructor(code: KnownErrorCode, details?: Readonly<Record<string, unknown>>, message?: string) {
    // The service's text: the handler's own sentence, else the code's template filled from the details
    // (which the emulator does not type per code: the template reads what it finds).
    super(message || knownErrorMessage(code, details as never));
    this.code = code;
    this.details = details;
    this.status = knownErrorStatus[code] ?? 400;
  }
}

/** Shorthand: `throw fail("USER_NOT_FOUND")`. */
export function fail(code: KnownErrorCode, details?: Readonly<Record<string, unknown>>, message?: string): EmulatorError {
  return new EmulatorError(code, details, message);
}

/**
 * A status error of the service (its StatusError): a status and a plain-text
 * message, no known-error code (e.g. 400 "Contact channel not found").
 */
export class StatusFailure extends Error {
  constructor(
    readonly status: number,
    readonly text: string,
  ) {
    super(text);
  }
}

/** Shorthand: `throw statusFailure(404, "Session not found.")`. */
export function statusFailure(status: number, text: string): StatusFailure {
  return new StatusFailure(status, text);
}

/**
 * What the service answers for an error its handler did not expect (its InternalServerError, as production words
 * it): 500, plain text naming the request's id.
 */
export function internalError(request: { readonly requestId: string }): StatusFailure {
  return statusFailure(500, `Something went wrong. Please make sure the data you entered is correct.\n\nRequest ID: ${request.requestId}`);
}

/** Where a request went: what a schema error names. */
export interface RequestLine {
  readonly method: string;
  readonly url: URL;
}

/** SCHEMA_ERROR worded as the service words it: `Request validation failed on POST /api/v1/…:\n  - <problem>`, one line a problem. */
export function schemaError(request: RequestLine, ...problems: readonly string[]): EmulatorError {
  const message = `Request validation failed on ${request.method} ${request.url.pathname}:\n${problems.map((p) => `  - ${p}`).join("\n")}`;
  return fail("SCHEMA_ERROR", { message }, message);
}

/** SCHEMA_ERROR that a handler raises itself, in a sentence of its own: no request line, no list (both `error` and `details.message`). */
export function handlerSchemaError(sentence: string): EmulatorError {
  return fail("SCHEMA_ERROR", { message: sentence }, sentence);
}
