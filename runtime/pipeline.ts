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
import { abortReason, raceAbort, throwIfAborted } from "./abort.js";
import { StackAssertionError } from "./errors.js";
import { randomNonce, stackHeaders, type AppIdentity } from "./headers.js";
import { matchOperation, type MatchedOperation } from "./operations.js";
import { checkAnswer, knownErrorOf, toResponse, type Answer } from "./response.js";
import type { Session, SessionManager, SessionTokens } from "./session.js";
import { httpError, sendWithRetries, type TransportPolicy } from "./transport.js";

/** What an admin app built on a project owner's session needs of that session. */
export type OwnerSession = Pick<Session, "getTokens" | "markAccessTokenExpired">;

export interface PipelineOptions extends AppIdentity {
  readonly env: Environment;
  readonly baseUrl: string;
  readonly projectOwnerSession?: OwnerSession | undefined;
  /** Null when the app has no token store: requests go without user tokens. */
  readonly sessions: SessionManager | null;
  readonly policy: TransportPolicy;
}

export function createStackFetch(o: PipelineOptions): (request: Request) => Promise<Response> {
  const root = `${o.baseUrl}${API_PREFIX}`;
  const rootPath = new URL(root).pathname;
  // Identical reads in flight at the same time share one request, which is
  // cancelled only when every caller has stopped waiting for it.
  const reads = new Map<string, SharedRead>();

  return async function stackFetch(request: Request): Promise<Response> {
    const signal = request.signal;
    throwIfAborted(signal);
    const url = new URL(request.url);
    const path = request.url.startsWith(root) ? url.pathname.slice(rootPath.length) : url.pathname;
    const op = matchOperation(request.method, path);
    const body = request.body === null ? undefined : await request.arrayBuffer();
    if (request.method !== "GET") return toResponse(await sendOperation(o, op, request, body, signal));
    const key = readKey(o, request);
    let shared = reads.get(key);
    if (!shared) {
      const controller = new AbortController();
      const read: SharedRead = {
        controller,
        callers: 0,
        answer: sendOperation(o, op, request, body, controller.signal).finally(() => {
          if (reads.get(key) === read) reads.delete(key);
        }),
      };
      read.answer.catch(() => {});
      reads.set(key, read);
      shared = read;
    }
    const read = shared;
    read.callers++;
    try {
      return toResponse(await raceAbort(read.answer, signal));
    } finally {
      read.callers--;
      if (read.callers === 0 && signal.aborted && !read.controller.signal.aborted) {
        if (reads.get(key) === read) reads.delete(key);
        read.controller.abort(abortReason(signal));
      }
    }
  };
}

interface SharedRead {
  readonly controller: AbortController;
  readonly answer: Promise<Answer>;
  callers: number;
}

function readKey(o: PipelineOptions, request: Request): string {
  const tokens = o.sessions?.store.get();
  const headers = [...request.headers].sort(([a], [b]) => a.localeCompare(b));
  return JSON.stringify([request.url, tokens?.refreshToken ?? null, tokens?.accessToken ?? null, headers]);
}

async function sendOperation(
  o: PipelineOptions,
  op: MatchedOperation,
  request: Request,
  body: ArrayBuffer | undefined,
  signal: AbortSignal,
): Promise<Answer> {
  const describe = `${request.method} ${request.url}`;
  const renewed = { user: false, owner: false };
  for (;;) {
    let session: Session | undefined;
    let sent: SessionTokens | null = null;
    let sentAdmin: string | null | undefined;
    const answer = await sendWithRetries(
      o.env,
      o.policy,
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
        return { url: request.url, method: request.method, headers, body: body ?? null };
      },
      { retryNetworkErrors: op.idempotent, describe, operationId: op.operationId, signal },
    );
    const known = knownErrorOf(answer, operationName(op));
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
    if (op.responseBody === "json") checkAnswer(answer, op.operationId, operationName(op), VIEWS[o.accessType]);
    return answer;
  }
}

const VIEWS = { client: 0, server: 1, admin: 2 } as const;

function isOwnerTokenRejection(error: KnownError): boolean {
  return isKnownError(error, "INVALID_ADMIN_ACCESS_TOKEN") || isKnownError(error, "API_KEY_NOT_FOUND");
}

/** The operation's name in messages: its operationId, or its method and path. */
function operationName(op: MatchedOperation): string {
  return op.operationId ?? `${op.method} ${op.path}`;
}
