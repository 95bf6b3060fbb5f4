// Reading an answer of the service: the real status behind the
// override-error-status protocol, and the typed error behind a known-error code.
// The answer checker (the document's shapes) and the error catalogue are loaded
// on first use, not with the app: `loadAnswerCheck()` starts with the first
// request, so the checker arrives while the answer is on its way, and the
// catalogue's classes and messages load only when a known error does.
import type { KnownError } from "../generated/known-errors.js";
import type { OperationId } from "../generated/operations.js";
import { ResponseFormatError } from "./errors.js";
import { lazy, type Lazy } from "./lazy.js";
import type { View } from "./shape.js";

type AnswerCheck = typeof import("./shape.js");
type KnownErrorReader = typeof import("./known-error-answer.js");

/** Starts loading the answer checker (or answers it, loaded). Requests call it as they start. */
export const loadAnswerCheck: Lazy<AnswerCheck> = lazy("answer checker", () => import("./shape.js"));
const loadKnownErrorReader: () => Promise<KnownErrorReader> = lazy("known-error catalogue", () => import("./known-error-answer.js"));

/** A response read to the end, so several callers (or attempts) can use it. */
export interface Answer {
  /** The real status: `x-stack-actual-status` when present, else the HTTP status. */
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  /**
   * The body as checkAnswer parsed it (see `withBody`). It goes to the first
   * Response made from this answer only: callers sharing a read each get their own object.
   */
  readonly checked?: { readonly value: unknown; taken: boolean } | undefined;
}

export async function readAnswer(response: Response): Promise<Answer> {
  const text = await response.text();
  const actual = response.headers.get("x-stack-actual-status");
  const status = actual !== null && /^\d{3}$/.test(actual.trim()) ? Number(actual.trim()) : response.status;
  return { status, headers: response.headers, text };
}

/** `answer` with the body checkAnswer parsed from it, for `toResponse`. */
export function withBody(answer: Answer, body: unknown): Answer {
  return { status: answer.status, headers: answer.headers, text: answer.text, checked: { value: body, taken: false } };
}

/**
 * A Response for a caller, built afresh from an answer. Its body is read from
 * the answer's text (or, for the first reader of `json()`, is the body already
 * parsed and checked), without a stream: a stream is made only for a caller
 * that asks for one (`body`, `arrayBuffer()`, `blob()`, `formData()`, `bytes()`, `clone()` after one).
 */
export function toResponse(answer: Answer): Response {
  let checked: { value: unknown } | undefined;
  if (answer.checked && !answer.checked.taken) {
    answer.checked.taken = true;
    checked = answer.checked;
  }
  return new AnswerResponse(answer, checked);
}

const NULL_BODY_STATUSES = new Set([204, 205, 304]);

class AnswerResponse extends Response {
  readonly #answer: Answer;
  #checked: { value: unknown } | undefined;
  /** The body was read through text() or json() without a stream. */
  #used = false;
  /** The Response with a real body stream, made on demand. */
  #streamed: Response | undefined;

  constructor(answer: Answer, checked: { value: unknown } | undefined) {
    super(null, { status: answer.status, headers: answer.headers });
    this.#answer = answer;
    this.#checked = checked;
  }

  #text(): string {
    return NULL_BODY_STATUSES.has(this.#answer.status) ? "" : this.#answer.text;
  }

  #stream(): Response {
    if (this.#streamed === undefined) {
      const { status, headers } = this.#answer;
      this.#streamed = new Response(NULL_BODY_STATUSES.has(status) ? null : this.#answer.text, { status, headers });
      // Read already: the stream is as a read Response's is (used, locked).
      if (this.#used) this.#streamed.arrayBuffer().catch(() => {});
    }
    return this.#streamed;
  }

  /** Whether text()/json() may answer without a stream. */
  #takeDirect(): boolean {
    if (this.#streamed !== undefined || this.#used) return false;
    this.#used = true;
    return true;
  }

  override get body(): ReadableStream<Uint8Array<ArrayBuffer>> | null {
    return NULL_BODY_STATUSES.has(this.#answer.status) ? null : (this.#stream().body as ReadableStream<Uint8Array<ArrayBuffer>> | null);
  }

  override get bodyUsed(): boolean {
    return this.#streamed !== undefined ? this.#streamed.bodyUsed : this.#used;
  }

  override text(): Promise<string> {
    if (!this.#takeDirect()) return this.#stream().text();
    this.#checked = undefined;
    return Promise.resolve(this.#text());
  }

  override json(): Promise<any> {
    if (!this.#takeDirect()) return this.#stream().json();
    const checked = this.#checked;
    this.#checked = undefined;
    if (checked !== undefined) return Promise.resolve(checked.value);
    try {
      return Promise.resolve(JSON.parse(this.#text()));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  override arrayBuffer(): Promise<ArrayBuffer> {
    return this.#stream().arrayBuffer();
  }

  override blob(): Promise<Blob> {
    return this.#stream().blob();
  }

  override formData(): Promise<FormData> {
    return this.#stream().formData();
  }

  override bytes(): Promise<Uint8Array<ArrayBuffer>> {
    const streamed = this.#stream() as Response & { bytes?: () => Promise<Uint8Array<ArrayBuffer>> };
    return streamed.bytes ? streamed.bytes() : streamed.arrayBuffer().then((buffer) => new Uint8Array(buffer));
  }

  override clone(): Response {
    if (this.bodyUsed) throw new TypeError("Response.clone: Body has already been consumed.");
    return this.#streamed !== undefined ? this.#streamed.clone() : new AnswerResponse(this.#answer, undefined);
  }
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
