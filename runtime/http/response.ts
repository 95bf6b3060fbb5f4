// Reading an answer of the service: the real status behind the
// override-error-status protocol, and the check of a 2xx body against the
// document's shapes (the typed error behind a known-error code is
// runtime/http/known-error-answer.ts).
import type { OperationId } from "../../generated/operations.js";
import { answerHeader } from "./answer-headers.js";
import { ResponseFormatError } from "./request-errors.js";
import { answerShapeOf, describeMismatch, mismatchOf, type View } from "./shape.js";

/** A response read to the end, so several callers (or attempts) can use it. */
export interface ReadResponse {
  /** The real status: `x-hexclave-actual-status` or `x-stack-actual-status` when present (answer-headers.ts), else the HTTP status. */
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  /**
   * The body as checkAnswer parsed it (see `withBody`). It goes to the first
   * reader only (send's `data`; `client.api` parses the text, as openapi-fetch does):
   * callers sharing a read each get their own object.
   */
  readonly checked?: { readonly value: unknown; taken: boolean } | undefined;
  /** The API origin that answered, when failover sent the request to one other than the base URL (transport.ts). */
  readonly origin?: string | undefined;
}

export async function readResponse(response: Response): Promise<ReadResponse> {
  const text = await response.text();
  const actual = answerHeader(response.headers, "actual-status");
  const status = actual !== null && /^\d{3}$/.test(actual.trim()) ? Number(actual.trim()) : response.status;
  return { status, headers: response.headers, text };
}

/** The statuses whose answers have no body, whatever they carry. */
export const NULL_BODY_STATUSES: ReadonlySet<number> = new Set([204, 205, 304]);

/** `answer` with the body checkAnswer parsed from it, for its first reader (send.ts). */
export function withBody(answer: ReadResponse, body: unknown): ReadResponse {
  return { status: answer.status, headers: answer.headers, text: answer.text, checked: { value: body, taken: false } };
}

/**
 * A 2xx answer of an operation that answers JSON must be JSON of the shape the
 * document gives (in the `view` of the caller's access type, for answers that
 * depend on it); anything else fails here, naming the operation (`name`) and
 * the first bad field, before any caller reads it. Returns the parsed body.
 */
export function checkAnswer(answer: ReadResponse, id: OperationId | undefined, name: string, view?: View): unknown {
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
