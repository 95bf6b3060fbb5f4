// The runtime's own calls. Each names its operation by method and path
// (`send("GET /users/me", { signal })`), takes openapi-fetch's init (`params.path`,
// `params.query`, `body`, `headers`, `signal`), typed from the document the same
// way, and answers `{ data }`. The request goes straight to the pipeline: no URL
// to match against the route table, no Request to build and read again, and no
// typed client in an app's first load (`client.api` loads it on first use). It is
// part of the engine (runtime/engine.ts), which loads as the client is made.
//
// It serialises as openapi-fetch does by default, for what the runtime sends:
// path parameters (simple style, percent-encoded), query parameters (form style,
// arrays exploded, undefined and null left out) and a JSON body, or a form body
// for the operations the document says take one.
import type { FetchResponse, MaybeOptionalInit } from "openapi-fetch";
import type { OperationRoute } from "../generated/operations.js";
import type { paths } from "../generated/schema.js";
import { operationOfRoute, type MatchedOperation } from "./operations.js";
import type { Pipeline } from "./pipeline.js";
import { NULL_BODY_STATUSES, type Answer } from "./response.js";

type Route = OperationRoute;
type PathItem<R extends Route> = paths[R extends `${string} ${infer P extends keyof paths}` ? P : never];
type Method<R extends Route> = (R extends `${infer M} ${string}` ? Lowercase<M> : never) & keyof PathItem<R>;

/** What a call of `route` takes: openapi-fetch's init for its path and method. */
export type RouteInit<R extends Route> = MaybeOptionalInit<PathItem<R>, Method<R>>;

/** The body of a 2xx answer of `route`, as openapi-fetch types its `data`. */
export type RouteData<R extends Route> = FetchResponse<
  PathItem<R>[Method<R>] & Record<string | number, any>,
  RouteInit<R>,
  `${string}/${string}`
>["data"];

/** Sends one operation; known errors and failed requests are thrown as typed errors. */
export type Send = <R extends Route>(
  route: R,
  ...init: undefined extends RouteInit<R> ? [init?: RouteInit<R>] : [init: RouteInit<R>]
) => Promise<{ readonly data: RouteData<R> }>;

interface SendInit {
  readonly params?: { readonly path?: Readonly<Record<string, unknown>>; readonly query?: Readonly<Record<string, unknown>> };
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
  readonly signal?: AbortSignal | null;
}

export function createSend(pipeline: Pipeline): Send {
  return async function send(route: Route, init: SendInit = {}) {
    const op = operationOfRoute(route);
    const { params, body } = init;
    let url = pipeline.root + (params?.path ? pathOf(op.path, params.path) : op.path);
    if (params?.query) url += queryOf(params.query);
    let headers = init.headers ?? NO_HEADERS;
    let sent: string | null = null;
    if (body !== undefined) {
      sent = op.formBody ? new URLSearchParams(body as Record<string, string>).toString() : JSON.stringify(body);
      headers = { "content-type": op.formBody ? "application/x-www-form-urlencoded" : "application/json", ...lowercased(headers) };
    }
    const answer = await pipeline.answer(op, { url, method: op.method, headers, body: sent, signal: init.signal });
    return { data: dataOf(op, answer) };
  } as Send;
}

const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({});

function lowercased(headers: Readonly<Record<string, string>>): Record<string, string> {
  const result: Record<string, string> = {};
  for (const name in headers) result[name.toLowerCase()] = headers[name] as string;
  return result;
}

/** `/users/{user_id}` with its parameters filled in; one without a value stays as it is, percent-encoded. */
function pathOf(template: string, values: Readonly<Record<string, unknown>>): string {
  return template.replace(/\{([^}]+)\}/g, (match, name: string) => {
    const value = values[name];
    return value === undefined || value === null ? encodeURIComponent(match) : encodeURIComponent(String(value));
  });
}

/** `?a=1&b=x&b=y`, or "" when every value is undefined or null. */
function queryOf(query: Readonly<Record<string, unknown>>): string {
  let search = "";
  for (const name in query) {
    const value = query[name];
    if (value === undefined || value === null) continue;
    for (const item of Array.isArray(value) ? value : [value])
      search += `${search === "" ? "?" : "&"}${name}=${encodeURIComponent(String(item))}`;
  }
  return search;
}

/**
 * What openapi-fetch would answer as `data`: nothing for an answer without a
 * body; the checked body for the first caller of a JSON answer, and a fresh
 * copy for others sharing the read; the text of a text answer.
 */
function dataOf(op: MatchedOperation, answer: Answer): unknown {
  if (NULL_BODY_STATUSES.has(answer.status) || answer.headers.get("content-length") === "0") return undefined;
  if (op.responseBody === "text") return answer.text;
  const checked = answer.checked;
  if (checked && !checked.taken) {
    checked.taken = true;
    return checked.value;
  }
  return answer.text === "" ? undefined : JSON.parse(answer.text);
}
