// The typed client over every operation (`client.api`): openapi-fetch's own
// client, whose fetch is the pipeline. openapi-fetch builds a Request as it
// always does (middleware sees that Request); the pipeline reads it, finds its
// operation from its URL (runtime/http/operations.ts), sends it the wire contract's
// way and hands back a Response of the answer.
import createClient, { type Client } from "openapi-fetch";
import type { paths } from "../../generated/schema.js";
import { matchOperation, type MatchedOperation } from "./operations.js";
import type { Pipeline } from "./pipeline.js";
import { NULL_BODY_STATUSES } from "./response.js";

/** openapi-fetch's client for `pipeline`. */
export function createApi(pipeline: Pipeline): Client<paths> {
  const rootPath = pathnameOf(pipeline.root);
  // The operation of each URL seen: the route table is scanned once per URL, not per call.
  const operations = new Map<string, MatchedOperation>();
  const operationOf = (method: string, url: string): MatchedOperation => {
    const key = `${method} ${url}`;
    let op = operations.get(key);
    if (op === undefined) {
      const { pathname } = new URL(url);
      op = matchOperation(method, url.startsWith(pipeline.root) ? pathname.slice(rootPath.length) : pathname);
      // URLs with ids or queries in them are many; the cache stays small by starting over when full.
      if (operations.size >= CACHE_LIMIT) operations.clear();
      operations.set(key, op);
    }
    return op;
  };
  const fetch = async (request: Request): Promise<Response> => {
    const { url, method, headers, signal } = request;
    const body = request.body === null ? null : await request.arrayBuffer();
    const answer = await pipeline.answer(operationOf(method, url), { url, method, headers, body, signal });
    const status = answer.status;
    return new Response(NULL_BODY_STATUSES.has(status) ? null : answer.text, { status, headers: answer.headers });
  };
  return createClient<paths>({ baseUrl: pipeline.root, fetch });
}

const CACHE_LIMIT = 512;

/** The path of the API's root; "" for a base URL that does not parse (its requests fail as they are sent). */
function pathnameOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return "";
  }
}
