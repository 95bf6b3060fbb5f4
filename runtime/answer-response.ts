// A Response made from an answer the pipeline read (for the typed client, whose
// callers may read it any way a Response can be read), without a stream unless
// one is asked for.
import { NULL_BODY_STATUSES, type Answer } from "./response.js";

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
