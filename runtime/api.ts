// The typed client over every operation (`client.api`, openapi-fetch); an app's
// own calls go through runtime/send.ts instead. Its fetch is the pipeline. The
// operation of each request is found from its URL (runtime/operations.ts, the
// route table).
import createClient, { type Client } from "openapi-fetch";
import type { paths } from "../generated/schema.js";
import { toResponse } from "./answer-response.js";
import { matchOperation, type MatchedOperation } from "./operations.js";
import type { Pipeline, PipelineRequest } from "./pipeline.js";

/** openapi-fetch's client for `pipeline`. */
export function createApi(pipeline: Pipeline): Client<paths> {
  const root = pipeline.root;
  const rootPath = pathnameOf(root);
  // The operation of each URL seen (the route table is scanned once per URL, not per call).
  const operations = new Map<string, MatchedOperation>();
  const operationOf = (method: string, url: string): MatchedOperation => {
    const key = `${method} ${url}`;
    let op = operations.get(key);
    if (op === undefined) {
      const parsed = new URL(url);
      op = matchOperation(method, url.startsWith(root) ? parsed.pathname.slice(rootPath.length) : parsed.pathname);
      // URLs with ids or queries in them are many; the cache stays small by starting over when full.
      if (operations.size >= CACHE_LIMIT) operations.clear();
      operations.set(key, op);
    }
    return op;
  };
  const fetch = async (request: Request | StackRequest): Promise<Response> => {
    // A Request (made for middleware, or for a body that is not text) is read into the pipeline's form.
    const plain: PipelineRequest =
      request instanceof StackRequest
        ? request
        : {
            url: request.url,
            method: request.method,
            headers: request.headers,
            body: request.body === null ? null : await request.arrayBuffer(),
            signal: request.signal,
          };
    return toResponse(await pipeline.answer(operationOf(plain.method, plain.url), plain));
  };
  // openapi-fetch builds a StackRequest, which the pipeline reads as it is, rather
  // than a Request it would read and build again. Middleware registered on the
  // client may expect a Request: from then on, it gets one.
  let middleware = false;
  const makeRequest = function (input: string | URL, init?: RequestInit) {
    return StackRequest.create(input, init, middleware);
  };
  // openapi-fetch checks what middleware returns with `instanceof` this option.
  Object.defineProperty(makeRequest, Symbol.hasInstance, {
    value: (value: unknown) => value instanceof Request || value instanceof StackRequest,
  });
  const api = createClient<paths>({ baseUrl: root, fetch, Request: makeRequest as unknown as typeof Request });
  const use = api.use;
  api.use = (...middlewares) => {
    middleware = true;
    use(...middlewares);
  };
  return api;
}

const CACHE_LIMIT = 512;

function pathnameOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return "";
  }
}

/**
 * The request the typed client builds (openapi-fetch's `Request` option): its
 * URL (parsed and normalised as a Request would), method, headers, body and
 * signal, checked as a Request checks them. Anything a StackRequest does not
 * hold the way a Request would (a body that is not text, a method outside the
 * usual ones, a signal that is not an AbortSignal) makes a real Request
 * instead, as does middleware registered on the client (`createRequest(init, true)`),
 * which may expect one.
 */
export class StackRequest {
  readonly url: string;
  readonly method: string;
  readonly headers: Headers;
  readonly body: string | null;
  readonly signal: AbortSignal | null;

  private constructor(url: string, method: string, headers: Headers, body: string | null, signal: AbortSignal | null) {
    this.url = url;
    this.method = method;
    this.headers = headers;
    this.body = body;
    this.signal = signal;
  }

  /** A StackRequest, or a Request when one is needed (see above). */
  static create(input: string | URL, init: RequestInit = {}, real = false): Request | StackRequest {
    const method = typeof init.method === "string" ? init.method.toUpperCase() : init.method === undefined ? "GET" : undefined;
    const body = init.body === undefined || init.body === null ? null : typeof init.body === "string" ? init.body : undefined;
    const signal = init.signal === undefined || init.signal === null ? null : init.signal instanceof AbortSignal ? init.signal : undefined;
    if (
      real ||
      typeof input !== "string" ||
      method === undefined ||
      !PLAIN_METHODS.has(method) ||
      body === undefined ||
      (body !== null && (method === "GET" || method === "HEAD")) ||
      signal === undefined
    ) {
      return new Request(input, init);
    }
    const headers = init.headers instanceof Headers ? init.headers : new Headers(init.headers);
    // What a Request adds to a text body that has no content type.
    if (body !== null && !headers.has("content-type")) headers.set("content-type", "text/plain;charset=UTF-8");
    return new StackRequest(normalizedUrl(input), method, headers, body, signal);
  }
}

const PLAIN_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/** `new URL(url).href` (the URL as a Request holds it), parsed once per URL: the same few come back call after call. */
function normalizedUrl(url: string): string {
  let href = hrefs.get(url);
  if (href === undefined) {
    href = new URL(url).href;
    if (hrefs.size >= CACHE_LIMIT) hrefs.clear();
    hrefs.set(url, href);
  }
  return href;
}

const hrefs = new Map<string, string>();
