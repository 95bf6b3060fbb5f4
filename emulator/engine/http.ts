// The service's HTTP protocol (wire contract §1, §3): JSON answers with
// `x-stack-request-id` and `cache-control: no-store`, known errors as
// `{code, details?, error}` with `x-stack-known-error`, and the
// override-error-status protocol (HTTP 200 with `x-stack-actual-status`).
import type { EmulatorError } from "./errors.js";
import type { ServiceCors } from "./profile.js";

/** What a handler answers: a status (default 200) and a JSON body, or a navigation. */
export type Answer =
  | { readonly status?: number; readonly body: unknown; readonly cacheControl?: string }
  | { readonly redirect: string; readonly status?: 302 | 303 | 307 }
  | { readonly text: string; readonly status?: number; readonly contentType?: string };

/** The response headers a browser app may read: the same on every version. */
const CORS_EXPOSED_HEADERS = "content-type, x-stack-actual-status, x-stack-known-error";

/**
 * The CORS headers the service's middleware puts on every answer under `/api/` (its preflights too), for a version
 * whose preflight allows `allowedRequestHeaders`. A browser sends a request only when every header it carries is in
 * that list, so the list is the version's own, word for word; 2.8.86 also answers `Vary` with it.
 */
export function corsHeaders(cors: ServiceCors): Record<string, string> {
  const list = cors.allowedRequestHeaders.join(", ");
  return {
    "access-control-allow-origin": "*",
    "access-control-allow-methods": "GET, POST, PUT, PATCH, DELETE, OPTIONS",
    "access-control-max-age": "86400",
    "access-control-allow-headers": list,
    "access-control-expose-headers": CORS_EXPOSED_HEADERS,
    ...(cors.varyOnRequestHeaders ? { vary: list } : {}),
  };
}

/** A preflight under `/api/`: 204 with the middleware's headers only (the engine adds them), whatever the path. */
export function preflight(): Response {
  return new Response(null, { status: 204 });
}

/**
 * A known path asked with a method it does not have: the framework answers 405 itself, before any route handler,
 * so without a body, a request id or a content type; only the middleware's CORS headers (the engine adds them).
 */
export function methodNotAllowed(): Response {
  return new Response(null, { status: 405 });
}

/** The text each answer below was made of: the request log reads it here instead of copying the answer's stream. */
const bodyTexts = new WeakMap<Response, string>();

/** The text `response` was made of, when one of these functions made it. */
export function bodyTextOf(response: Response): string | undefined {
  return bodyTexts.get(response);
}

function answerOf(text: string, init: ResponseInit): Response {
  const response = new Response(text, init);
  bodyTexts.set(response, text);
  return response;
}

function baseHeaders(requestId: string): Headers {
  return new Headers({ "x-stack-request-id": requestId, "cache-control": "no-store, max-age=0" });
}

/**
 * A handler's answer as a Response. An error status (4xx, 5xx) without a known
 * error follows the override-error-status protocol too, as the service's
 * status errors do.
 */
export function toResponse(answer: Answer, requestId: string, overrideStatus = false): Response {
  if ("text" in answer && (answer.status ?? 200) >= 400)
    return statusResponse(answer.status ?? 400, answer.text, requestId, overrideStatus);
  const headers = baseHeaders(requestId);
  if ("redirect" in answer) {
    headers.set("location", answer.redirect);
    return new Response(null, { status: answer.status ?? 307, headers });
  }
  if ("text" in answer) {
    headers.set("content-type", answer.contentType ?? "text/plain; charset=utf-8");
    return answerOf(answer.text, { status: answer.status ?? 200, headers });
  }
  headers.set("content-type", "application/json; charset=utf-8");
  if (answer.cacheControl !== undefined) headers.set("cache-control", answer.cacheControl);
  const status = answer.status ?? 200;
  if (overrideStatus && status >= 400) {
    headers.set("x-stack-actual-status", String(status));
    return answerOf(JSON.stringify(answer.body), { status: 200, headers });
  }
  return answerOf(JSON.stringify(answer.body), { status, headers });
}

/**
 * A known error as the service sends it. With `x-stack-override-error-status`
 * on the request, the status travels in `x-stack-actual-status` under HTTP 200.
 */
export function errorResponse(error: EmulatorError, requestId: string, overrideStatus: boolean): Response {
  const headers = baseHeaders(requestId);
  headers.set("content-type", "application/json; charset=utf-8");
  headers.set("x-stack-known-error", error.code);
  const body =
    error.details === undefined
      ? { code: error.code, error: error.message }
      : { code: error.code, details: error.details, error: error.message };
  if (overrideStatus) headers.set("x-stack-actual-status", String(error.status));
  return answerOf(JSON.stringify(body), { status: overrideStatus ? 200 : error.status, headers });
}

/** A failure without a known error (the service's StatusError): plain text. */
export function statusResponse(status: number, text: string, requestId: string, overrideStatus: boolean): Response {
  const headers = baseHeaders(requestId);
  headers.set("content-type", "text/plain; charset=utf-8");
  if (overrideStatus && status >= 400) headers.set("x-stack-actual-status", String(status));
  return answerOf(text, { status: overrideStatus && status >= 400 ? 200 : status, headers });
}
