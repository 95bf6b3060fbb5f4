// The runtime's own calls: a thin typed wrapper over the pipeline. Each names its
// operation by method and path (`send("GET /users/me", { signal })`), takes
// openapi-fetch's init (`params.path`, `params.query`, `body`, `headers`,
// `signal`), typed from the document the same way, and answers `{ data }`.
// The URL and body are made by openapi-fetch's own serialisers, so a call sends
// exactly what `client.api` sends for the same init; what it skips is the URL
// match against the route table and a Request built only to be read again.
import {
  createFinalURL,
  createQuerySerializer,
  defaultBodySerializer,
  defaultPathSerializer,
  type FetchResponse,
  type MaybeOptionalInit,
} from "openapi-fetch";
import type { OperationRoute } from "../../generated/operations.js";
import type { paths } from "../../generated/schema.js";
import { operationOfRoute, type MatchedOperation } from "./operations.js";
import type { Pipeline } from "./pipeline.js";
import { NULL_BODY_STATUSES, type ReadResponse } from "./response.js";

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

const querySerializer = createQuerySerializer();
// openapi-fetch's body serialiser also takes the request's headers, and writes a
// form for a form content type; its declaration names the body only.
const serializeBody = defaultBodySerializer as (body: unknown, headers: Readonly<Record<string, string>>) => string;
const JSON_BODY = { "content-type": "application/json" } as const;
const FORM_BODY = { "content-type": "application/x-www-form-urlencoded" } as const;

export function createSend(pipeline: Pipeline): Send {
  return async function send(route: Route, init: SendInit = {}) {
    const op = operationOfRoute(route);
    const url = createFinalURL(op.path, {
      baseUrl: pipeline.root,
      params: init.params ?? {},
      querySerializer,
      pathSerializer: defaultPathSerializer,
    });
    let headers = init.headers ?? NO_HEADERS;
    let body: string | null = null;
    if (init.body !== undefined) {
      const type = op.formBody ? FORM_BODY : JSON_BODY;
      body = serializeBody(init.body, type);
      headers = { ...type, ...lowercased(headers) };
    }
    const answer = await pipeline.answer(op, { url, method: op.method, headers, body, signal: init.signal });
    return { data: dataOf(op, answer) };
  } as Send;
}

const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({});

function lowercased(headers: Readonly<Record<string, string>>): Record<string, string> {
  const result: Record<string, string> = {};
  for (const name in headers) result[name.toLowerCase()] = headers[name] as string;
  return result;
}

/**
 * What openapi-fetch would answer as `data`: nothing for an answer without a
 * body; the checked body for the first caller of a JSON answer, and a fresh
 * copy for others sharing the read; the text of a text answer.
 */
function dataOf(op: MatchedOperation, answer: ReadResponse): unknown {
  if (NULL_BODY_STATUSES.has(answer.status) || answer.headers.get("content-length") === "0") return undefined;
  if (op.responseBody === "text") return answer.text;
  const checked = answer.checked;
  if (checked && !checked.taken) {
    checked.taken = true;
    return checked.value;
  }
  return answer.text === "" ? undefined : JSON.parse(answer.text);
}
