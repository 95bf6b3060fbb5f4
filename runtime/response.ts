// Reading an answer of the service: the real status behind the
// override-error-status protocol, and the typed error behind a known-error code.
// The answer checker (the document's shapes) and the error catalogue are loaded
// on first use, not with the app: `loadAnswerCheck()` starts with the first
// request, so the checker arrives while the answer is on its way, and the
// catalogue's classes and messages load only when a known error does.
import type { KnownError } from "../generated/known-errors.js";
import type { OperationId } from "../generated/operations.js";
import { ResponseFormatError } from "./request-errors.js";
import { lazy, type Lazy } from "./lazy.js";
import type { View } from "./shape.js";

type AnswerCheck = typeof import("./shape.js");
type KnownErrorReader = typeof import("./known-error-answer.js");

/** Starts loading the answer checker (or answers it, loaded). Requests call it as they start. */
export const loadAnswerCheck: Lazy<AnswerCheck> = /* @__PURE__ */ lazy("answer checker", () => import("./shape.js"));
const loadKnownErrorReader: () => Promise<KnownErrorReader> = /* @__PURE__ */ lazy(
  "known-error catalogue",
  () => import("./known-error-answer.js"),
);

/** A response read to the end, so several callers (or attempts) can use it. */
export interface Answer {
  /** The real status: `x-stack-actual-status` when present, else the HTTP status. */
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  /**
   * The body as checkAnswer parsed it (see `withBody`). It goes to the first
   * reader only (send's `data`, or the first Response made from this answer):
   * callers sharing a read each get their own object.
   */
  readonly checked?: { readonly value: unknown; taken: boolean } | undefined;
}

export async function readAnswer(response: Response): Promise<Answer> {
  const text = await response.text();
  const actual = response.headers.get("x-stack-actual-status");
  const status = actual !== null && /^\d{3}$/.test(actual.trim()) ? Number(actual.trim()) : response.status;
  return { status, headers: response.headers, text };
}

/** The statuses whose answers have no body, whatever they carry. */
export const NULL_BODY_STATUSES: ReadonlySet<number> = new Set([204, 205, 304]);

/** `answer` with the body checkAnswer parsed from it, for its first reader (send.ts, answer-response.ts). */
export function withBody(answer: Answer, body: unknown): Answer {
  return { status: answer.status, headers: answer.headers, text: answer.text, checked: { value: body, taken: false } };
}

/**
 * The typed error of a known-error answer, or undefined when the answer carries
 * no `x-stack-known-error` header (see runtime/known-error-answer.ts).
 */
export async function knownErrorOf(answer: Answer, operation: string): Promise<KnownError | undefined> {
  if (!answer.headers.has("x-stack-known-error")) return undefined;
  return (await loadKnownErrorReader()).readKnownError(answer, operation);
}

/**
 * A 2xx answer of an operation that answers JSON must be JSON of the shape the
 * document gives (in the `view` of the caller's access type, for answers that
 * depend on it); anything else fails here, naming the operation (`name`) and
 * the first bad field, before any caller reads it. Returns the parsed body.
 */
export async function checkAnswer(answer: Answer, id: OperationId | undefined, name: string, view?: View): Promise<unknown> {
  return checkAnswerWith(await loadAnswerCheck(), answer, id, name, view);
}

/**
 * checkAnswer without waiting, once the checker has loaded (every answer after
 * the first): the body, or undefined when the checker is still on its way.
 */
export function checkAnswerNow(
  answer: Answer,
  id: OperationId | undefined,
  name: string,
  view?: View,
): { readonly body: unknown } | undefined {
  const check = loadAnswerCheck.loaded;
  return check === undefined ? undefined : { body: checkAnswerWith(check, answer, id, name, view) };
}

function checkAnswerWith(check: AnswerCheck, answer: Answer, id: OperationId | undefined, name: string, view?: View): unknown {
  const { answerShapeOf, mismatchOf, describeMismatch } = check;
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
