// The typed error behind a known-error answer: the catalogue's class for the
// code in the `x-hexclave-known-error` or `x-stack-known-error` header (answer-headers.ts),
// its details checked against the catalogue.
import { createKnownError, type KnownError } from "../../generated/known-errors.js";
import { StackAssertionError } from "../errors.js";
import { answerHeader } from "./answer-headers.js";
import { ResponseFormatError } from "./request-errors.js";
import type { ReadResponse } from "./response.js";
import { describeMismatch, detailsShapeOf, mismatchOf } from "./shape.js";

const MISMATCH = "Mismatch between x-stack-known-error header and error code in body; the server's response is invalid";

/**
 * The typed error of a known-error answer, or undefined when the answer carries
 * no known-error header (`x-hexclave-known-error`, read first, or `x-stack-known-error`). The header must equal the body's `code`, and
 * the `details` must be what the catalogue says that code carries (`operation`
 * names the call in the error when they are not).
 */
export function readKnownError(answer: ReadResponse, operation: string): KnownError | undefined {
  const header = answerHeader(answer.headers, "known-error");
  if (header === null) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(answer.text);
  } catch {
    throw new StackAssertionError(`${MISMATCH} (the body is not JSON; header: ${header}, status: ${answer.status})`);
  }
  const { code, details, error } = (typeof body === "object" && body !== null ? body : {}) as Record<string, unknown>;
  if (code !== header) {
    throw new StackAssertionError(`${MISMATCH} (header: ${header}, body: ${typeof code === "string" ? code : String(code)})`);
  }
  const shape = details === undefined ? undefined : detailsShapeOf(header);
  const mismatch = shape === undefined ? undefined : mismatchOf(shape, details, "$.details");
  if (mismatch) {
    throw new ResponseFormatError(
      operation,
      answer.status,
      `${operation}: the service answered with known error ${header} whose details the API does not allow: ${describeMismatch(mismatch)}`,
      mismatch.path,
    );
  }
  return createKnownError(header, details, {
    status: answer.status,
    message: typeof error === "string" ? error : undefined,
  });
}
