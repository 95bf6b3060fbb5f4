// The fetch that the typed client (openapi-fetch) is given. It is a fetch
// wrapper, not middleware, because it must be able to send a request again:
// after a retryable failure, and after refreshing a rejected access token.
//
// For each request it finds the operation, adds the headers the wire contract
// asks for, sends it under the retry policy, turns known errors into their typed
// classes (thrown), and hands back a Response with the real status.
import { isKnownError, type KnownError } from "../generated/known-errors.js";
import { API_PREFIX, NONCE_BITS } from "./constants.js";
import type { Environment } from "./env.js";
import { ResponseFormatError, StackAssertionError } from "./errors.js";
import { randomNonce, stackHeaders, type AppIdentity } from "./headers.js";
import { matchOperation, type MatchedOperation } from "./operations.js";
import { knownErrorOf, toResponse, type Answer } from "./response.js";
import type { Session, SessionManager, SessionTokens } from "./session.js";
import { httpError, sendWithRetries } from "./transport.js";

/** What an admin app built on a project owner's session needs of that session. */
export type OwnerSession = Pick<Session, "getTokens" | "markAccessTokenExpired">;

export interface PipelineOptions extends AppIdentity {
  readonly env: Environment;
  readonly baseUrl: string;
  readonly projectOwnerSession?: OwnerSession | undefined;
  /** Null when the app has no token store: requests go without user tokens. */
  readonly sessions: SessionManager | null;
}

export function createStackFetch(o: PipelineOptions): (request: Request) => Promise<Response> {
  const root = `${o.baseUrl}${API_PREFIX}`;
  const rootPath = new URL(root).pathname;
  // Identical reads in flight at the same time share one request.
  const reads = new Map<string, Promise<Answer>>();

  return async function stackFetch(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const path = request.url.startsWith(root) ? url.pathname.slice(rootPath.length) : url.pathname;
    const op = matchOperation(request.method, path);
    const body = request.body === null ? undefined : await request.arrayBuffer();
    const send = () => sendOperation(o, op, request, body);
    if (request.method !== "GET") return toResponse(await send());
    const key = readKey(o, request);
    let shared = reads.get(key);
    if (!shared) {
      shared = send().finally(() => reads.delete(key));
      reads.set(key, shared);
    }
    return toResponse(await shared);
  };
}

function readKey(o: PipelineOptions, request: Request): string {
  const tokens = o.sessions?.store.get();
  const headers = [...request.headers].sort(([a], [b]) => a.localeCompare(b));
  return JSON.stringify([request.url, tokens?.refreshToken ?? null, tokens?.accessToken ?? null, headers]);
}

async function sendOperation(o: PipelineOptions, op: MatchedOperation, request: Request, body: ArrayBuffer | undefined): Promise<Answer> {
  const describe = `${request.method} ${request.url}`;
  const renewed = { user: false, owner: false };
  for (;;) {
    let session: Session | undefined;
    let sent: SessionTokens | null = null;
    let sentAdmin: string | null | undefined;
    const answer = await sendWithRetries(
      o.env,
      async () => {
        session = o.sessions?.current();
        sent = op.stackHeaders && session ? await session.getTokens() : null;
        sentAdmin = o.projectOwnerSession ? ((await o.projectOwnerSession.getTokens())?.accessToken ?? null) : undefined;
        const headers = op.stackHeaders
          ? stackHeaders(op, {
              ...o,
              adminAccessToken: sentAdmin,
              accessToken: sent?.accessToken,
              refreshToken: sent?.refreshToken,
              nonce: randomNonce(o.env.randomBytes, NONCE_BITS),
            })
          : new Headers();
        // What the caller set on this request (its content type, per-call headers) comes last.
        request.headers.forEach((value, name) => headers.set(name, value));
        return new Request(request.url, {
          method: request.method,
          headers,
          body: body ?? null,
          cache: "no-store",
          credentials: "omit",
          redirect: request.redirect,
          signal: request.signal,
        });
      },
      { retryNetworkErrors: op.idempotent, describe, signal: request.signal },
    );
    const known = knownErrorOf(answer);
    if (known) {
      if (isKnownError(known, "INVALID_ACCESS_TOKEN")) {
        const tokens = sent as SessionTokens | null;
        if (!tokens?.accessToken) {
          throw new StackAssertionError(`${describe} was answered ${known.code} although it carried no access token`, { cause: known });
        }
        if (!renewed.user && tokens.refreshToken !== null && session) {
          renewed.user = true;
          session.markAccessTokenExpired(tokens.accessToken);
          continue;
        }
      }
      if (o.projectOwnerSession && sentAdmin && !renewed.owner && isOwnerTokenRejection(known)) {
        renewed.owner = true;
        o.projectOwnerSession.markAccessTokenExpired(sentAdmin);
        continue;
      }
      throw known;
    }
    if (answer.status < 200 || answer.status > 299) throw httpError(describe, answer);
    assertBody(op, answer);
    return answer;
  }
}

function isOwnerTokenRejection(error: KnownError): boolean {
  return isKnownError(error, "INVALID_ADMIN_ACCESS_TOKEN") || isKnownError(error, "API_KEY_NOT_FOUND");
}

/** A 2xx whose body is not the JSON the operation promises fails here, by name, not deep inside a caller. */
function assertBody(op: MatchedOperation, answer: Answer): void {
  if (op.responseBody !== "json" || answer.text.trim() === "") return;
  try {
    JSON.parse(answer.text);
  } catch {
    const name = op.operationId ?? `${op.method} ${op.path}`;
    throw new ResponseFormatError(
      name,
      answer.status,
      `${name}: the service answered HTTP ${answer.status} with a body that is not JSON (content-type: ${answer.headers.get("content-type") ?? "none"})`,
    );
  }
}
