// Reading an answer of the service: the real status behind the
// override-error-status protocol, and the typed error behind a known-error code.
import { createKnownError, type KnownError } from "../generated/known-errors.js";
import { ResponseFormatError, StackAssertionError } from "./errors.js";
import type { OperationId } from "../generated/operations.js";
import { answerShapeOf, describeMismatch, detailsShapeOf, mismatchOf, type View } from "./shape.js";

/** A response read to the end, so several callers (or attempts) can use it. */
export interface Answer {
  /** The real status: `x-stack-actual-status` when present, else the HTTP status. */
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
}

export async function readAnswer(response: Response): Promise<Answer> {
  const text = await response.text();
  const actual = response.headers.get("x-stack-actual-status");
  const status = actual !== null && /^\d{3}$/.test(actual.trim()) ? Number(actual.trim()) : response.status;
  return { status, headers: response.headers, text };
}

/** A Response for a caller, built afresh from an answer. */
export function toResponse(answer: Answer): Response {
  const nullBody = answer.status === 204 || answer.status === 205 || answer.status === 304;
  return new Response(nullBody ? null : answer.text, { status: answer.status, headers: answer.headers });
}

const MISMATCH = "Mismatch between x-stack-known-error header and error code in body; the server's response is invalid";

/**
 * The typed error of a known-error answer, or undefined when the answer carries
 * no `x-stack-known-error` header. The header must equal the body's `code`, and
 * the `details` must be what the catalogue says that code carries (`operation`
 * names the call in the error when they are not).
 */
export function knownErrorOf(answer: Answer, operation: string): KnownError | undefined {
  const header = answer.headers.get("x-stack-known-error");
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

/**
 * A 2xx answer of an operation that answers JSON must be JSON of the shape the
 * document gives (in the `view` of the caller's access type, for answers that
 * depend on it); anything else fails here, naming the operation (`name`) and
 * the first bad field, before any caller reads it. Returns the parsed body.
 */
export function checkAnswer(answer: Answer, id: OperationId | undefined, name: string, view?: View): unknown {
  let body: unknown;
  try {
    body = JSON.parse(answer.text);
  } catch {
    throw new ResponseFormatError(
      name,
      answer.status,
      `${name}: the service answered HTTP ${answer.status} with a body that is not JSON (content-type: ${answer.headers.get("content-type") ?? "none"})`,
    );
  }
  const shape = answerShapeOf(id, answer.status);
  const mismatch = shape === undefined ? undefined : mismatchOf(shape, body, "$", view);
  if (mismatch) {
    throw new ResponseFormatError(
      name,
      answer.status,
      `${name}: the service answered HTTP ${answer.status} with a body the API does not allow: ${describeMismatch(mismatch)}`,
      mismatch.path,
    );
  }
  return body;
}
