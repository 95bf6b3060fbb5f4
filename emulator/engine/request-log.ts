// The request log: one line per request answered under /api/v1 (what
// `control.requests()` lists), and the headers and bodies of the latest
// exchanges (what the emulator's page shows of one exchange). Lines carry a
// sequence number that never goes back, so that a reader can ask for what came
// after the last line it saw (`since`), and polling misses nothing. Bodies are
// kept as they came and masked when read: tokens, keys, passwords and codes
// never leave the log in the clear.
import type { OperationId } from "../../generated/operations.js";

/** One request the emulator answered, from its log (`control.requests()`). */
export interface LoggedRequest {
  /** Its place in the log: every request gets the next number, also after the log is cleared. */
  readonly id: number;
  readonly at: number;
  readonly method: string;
  readonly path: string;
  readonly operationId: OperationId | null;
  /** The project the request named (`x-stack-project-id`), null for none. */
  readonly projectId: string | null;
  /** `client`, `server` or `admin` as the request said (`x-stack-access-type`), null for none. */
  readonly accessType: string | null;
  readonly status: number;
  readonly knownError: string | null;
  /** How long the emulator took to answer, in milliseconds (of real time, not of the emulator's clock). */
  readonly durationMs: number;
}

/** One exchange of the log with its headers and bodies, secrets masked (`control.requestExchange(id)`). */
export interface LoggedExchange extends LoggedRequest {
  readonly request: { readonly headers: Readonly<Record<string, string>>; readonly body: string | null };
  readonly response: { readonly headers: Readonly<Record<string, string>>; readonly body: string | null };
}

/** What the log keeps of an exchange besides its line: its headers (copied: a Headers object would hold on to its request) and bodies. */
interface KeptBodies {
  readonly requestHeaders: readonly [string, string][];
  readonly requestBody: string;
  readonly responseHeaders: readonly [string, string][];
  readonly responseBody: string;
}

/** Lines kept; older ones are dropped. */
const LOG_LIMIT = 10_000;
/** Exchanges whose headers and bodies are kept: the latest ones, enough for a page of the log. */
const BODIES_LIMIT = 500;
/** A body longer than this is kept cut, with a note. */
const BODY_LIMIT = 64 * 1024;

export class RequestLog {
  readonly lines: LoggedRequest[] = [];
  readonly #bodies = new Map<number, KeptBodies>();
  #next = 1;

  /** The number the next line gets. */
  nextId(): number {
    return this.#next++;
  }

  add(line: LoggedRequest, bodies: KeptBodies): void {
    this.lines.push(line);
    if (this.lines.length > LOG_LIMIT) this.lines.splice(0, this.lines.length - LOG_LIMIT);
    this.#bodies.set(line.id, { ...bodies, requestBody: cut(bodies.requestBody), responseBody: cut(bodies.responseBody) });
    // A Map iterates in insertion order: the first key is the oldest.
    while (this.#bodies.size > BODIES_LIMIT) this.#bodies.delete(this.#bodies.keys().next().value as number);
  }

  clear(): void {
    this.lines.length = 0;
    this.#bodies.clear();
  }

  /** The line `id` with its headers and bodies, masked; undefined when the line or its bodies are no longer kept. */
  exchange(id: number): LoggedExchange | undefined {
    const kept = this.#bodies.get(id);
    const line = kept && this.lines.find((entry) => entry.id === id);
    if (!kept || !line) return undefined;
    return {
      ...line,
      request: { headers: maskedHeaders(kept.requestHeaders), body: maskedBody(kept.requestBody) },
      response: { headers: maskedHeaders(kept.responseHeaders), body: maskedBody(kept.responseBody) },
    };
  }
}

/**
 * The text of an answer, for the log: the text it was made of when engine/http.ts made it (`madeOf`), else read once,
 * the answer then made again from what was read (cheaper than a copy of its stream).
 */
export async function readAnswer(response: Response, madeOf: string | undefined): Promise<{ response: Response; text: string }> {
  if (response.body === null) return { response, text: "" };
  if (madeOf !== undefined) return { response, text: madeOf };
  const text = await response.text();
  return { response: new Response(text, { status: response.status, statusText: response.statusText, headers: response.headers }), text };
}

/** Query values that are credentials (the link flow's access token, codes, secrets) never enter the log. */
const SECRET_QUERY = /^(token|code|code_verifier|client_secret|refresh_token|access_token|state)$/;

export function redactedSearch(url: URL): string {
  if (url.search === "") return "";
  const params = new URLSearchParams(url.search);
  for (const name of [...new Set(params.keys())]) if (SECRET_QUERY.test(name)) params.set(name, MASK);
  return `?${params.toString()}`;
}

function cut(body: string): string {
  return body.length <= BODY_LIMIT ? body : `${body.slice(0, BODY_LIMIT)}\n[… ${body.length - BODY_LIMIT} more characters not kept]`;
}

/** What stands in for a secret. */
export const MASK = "[redacted]";

/** Headers that carry a credential: their values never leave the log. */
const SECRET_HEADERS =
  /^(authorization|cookie|set-cookie|x-stack-access-token|x-stack-refresh-token|x-stack-secret-server-key|x-stack-super-secret-admin-key|x-stack-admin-access-token)$/i;

/** Fields whose string values are credentials: tokens, keys, passwords, codes, verifiers, one-time passwords. */
const SECRET_FIELDS = /token|password|secret|verifier|^code$|^otp$|totp|^nonce$|_key$/i;

/** A field named `code` that holds a known error's code (`USER_NOT_FOUND`) is no secret. */
const KNOWN_ERROR_CODE = /^[A-Z][A-Z0-9_]+$/;

/** Only the publishable key is meant to be seen: every other `…_key` is masked. */
const PUBLIC_FIELDS = /^publishable_client_key$/i;

function isSecretField(name: string, value: string): boolean {
  if (PUBLIC_FIELDS.test(name) || !SECRET_FIELDS.test(name)) return false;
  return !(name.toLowerCase() === "code" && KNOWN_ERROR_CODE.test(value));
}

export function maskedHeaders(headers: readonly [string, string][]): Record<string, string> {
  return Object.fromEntries(headers.map(([name, value]) => [name, SECRET_HEADERS.test(name) ? MASK : value]));
}

/** A body with its secrets masked: JSON field by field, a form parameter by parameter, anything else as it is. */
export function maskedBody(body: string): string | null {
  if (body === "") return null;
  try {
    return JSON.stringify(maskedValue(JSON.parse(body)), null, 2);
  } catch {
    // Not JSON.
  }
  if (/^[\w.%+-]+=[^&\s]*(&[\w.%+-]+=[^&\s]*)*$/.test(body)) {
    const form = new URLSearchParams(body);
    for (const [name, value] of [...form]) if (isSecretField(name, value)) form.set(name, MASK);
    return form.toString();
  }
  return body;
}

function maskedValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(maskedValue);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value).map(([name, field]) => [
      name,
      typeof field === "string" && isSecretField(name, field) ? MASK : maskedValue(field),
    ]),
  );
}
