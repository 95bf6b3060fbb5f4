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
