// The fetch that the typed client (openapi-fetch) is given. It is a fetch
// wrapper, not middleware, because it must be able to send a request again:
// after a retryable failure, and after refreshing a rejected access token.
//
// For each request it finds the operation, adds the headers the wire contract
// asks for, sends it under the retry policy, turns known errors into their typed
// classes (thrown), and hands back a Response with the real status.
import { isKnownError } from "../generated/known-error-guard.js";
import type { KnownError } from "../generated/known-errors.js";
import { API_PREFIX, NONCE_BITS } from "./constants.js";
import type { Environment } from "./env.js";
import { abortReason, raceAbort, throwIfAborted } from "./abort.js";
import { StackAssertionError } from "./errors.js";
import { randomNonce, setHeaderField, stackHeaderFields, type AppIdentity } from "./headers.js";
import { matchOperation, type MatchedOperation } from "./operations.js";
import { checkAnswer, checkAnswerNow, knownErrorOf, loadAnswerCheck, toResponse, withBody, type Answer } from "./response.js";
import type { Session, SessionManager } from "./session.js";
import type { TokenPair } from "./tokens/store.js";
import { httpError, sendWithRetries, type OutgoingRequest, type TransportPolicy } from "./transport.js";

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

/**
 * What the typed client hands the pipeline: a Request, or (the usual case) a
 * StackRequest, which holds the same parts without building a Request that
 * the transport would only read and build again.
 */
export type PipelineRequest = Request | StackRequest;

export function createStackFetch(o: PipelineOptions): (request: PipelineRequest) => Promise<Response> {
  const root = `${o.baseUrl}${API_PREFIX}`;
  const rootPath = new URL(root).pathname;
  // Identical reads in flight at the same time share one request, which is
  // cancelled only when every caller has stopped waiting for it.
  const reads = new Map<string, SharedRead>();
  // The operation of each URL seen (the route table is scanned once per URL, not per call).
  const operations = new Map<string, MatchedOperation>();
  const nonces = noncePool(o.env);

  const operationOf = (method: string, url: string): MatchedOperation => {
    const key = `${method} ${url}`;
    let op = operations.get(key);
    if (op === undefined) {
      const parsed = new URL(url);
      op = matchOperation(method, url.startsWith(root) ? parsed.pathname.slice(rootPath.length) : parsed.pathname);
      // URLs with ids or queries in them are many; the cache stays small by starting over when full.
      if (operations.size >= OPERATION_CACHE_LIMIT) operations.clear();
      operations.set(key, op);
    }
    return op;
  };

  return async function stackFetch(request: PipelineRequest): Promise<Response> {
    const signal = request.signal;
    throwIfAborted(signal);
    const op = operationOf(request.method, request.url);
    const body = request instanceof StackRequest ? request.body : request.body === null ? null : await request.arrayBuffer();
    if (request.method !== "GET") return toResponse(await sendOperation(o, op, request, body, signal, nonces));
    const key = readKey(o, request);
    let shared = reads.get(key);
    if (!shared) {
      // A read started by a caller that cannot give up (no signal) is never
      // cancelled: that caller waits for it to the end. It needs no controller.
      const controller = signal ? new AbortController() : undefined;
      const read: SharedRead = { controller, callers: 0, answer: sendOperation(o, op, request, body, controller?.signal, nonces) };
      // Forgotten once settled (before any caller resumes); a branch beside the
      // callers' wait rather than a step in it. It also handles a failure nobody waits for.
      const forget = () => {
        if (reads.get(key) === read) reads.delete(key);
      };
      read.answer.then(forget, forget);
      reads.set(key, read);
      shared = read;
    }
    const read = shared;
    read.callers++;
    try {
      return toResponse(await raceAbort(read.answer, signal));
    } finally {
      read.callers--;
      if (read.callers === 0 && signal?.aborted && read.controller && !read.controller.signal.aborted) {
        if (reads.get(key) === read) reads.delete(key);
        read.controller.abort(abortReason(signal));
      }
    }
  };
}

const OPERATION_CACHE_LIMIT = 512;

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
  static create(input: string | URL, init: RequestInit = {}, real = false): PipelineRequest {
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
    if (hrefs.size >= OPERATION_CACHE_LIMIT) hrefs.clear();
    hrefs.set(url, href);
  }
  return href;
}

const hrefs = new Map<string, string>();

interface SharedRead {
  /** Absent when the read cannot be cancelled (its first caller had no signal). */
  readonly controller: AbortController | undefined;
  readonly answer: Promise<Answer>;
  callers: number;
}

/**
 * What makes two reads the same: the URL, the session's tokens and every
 * header. Headers iterate sorted by name; no part can hold a line break.
 */
function readKey(o: PipelineOptions, request: PipelineRequest): string {
  const tokens = o.sessions?.store.get();
  let key = `${request.url}\n${tokens?.refreshToken ?? ""}\n${tokens?.accessToken ?? ""}`;
  for (const [name, value] of request.headers) key += `\n${name}:${value}`;
  return key;
}

/**
 * Nonces made a few requests ahead: one call to the platform's generator, and
 * one loop that encodes them, per 32 requests instead of per request.
 */
function noncePool(env: Environment): () => string {
  const size = Math.ceil(NONCE_BITS / 8);
  let nonces: string[] = [];
  return () => {
    if (nonces.length === 0) {
      const pool = env.randomBytes(size * NONCES_AHEAD);
      nonces = Array.from({ length: NONCES_AHEAD }, (_, i) => randomNonce(() => pool.subarray(i * size, (i + 1) * size), NONCE_BITS));
    }
    return nonces.pop() as string;
  };
}

const NONCES_AHEAD = 32;

async function sendOperation(
  o: PipelineOptions,
  op: MatchedOperation,
  request: PipelineRequest,
  body: BodyInit | null,
  signal: AbortSignal | null | undefined,
  nonce: () => string,
): Promise<Answer> {
  const describe = `${request.method} ${request.url}`;
  const renewed = { user: false, owner: false };
  // The answer checker loads while the request is on its way (a failure shows where it is used).
  if (loadAnswerCheck.loaded === undefined) loadAnswerCheck().catch(() => {});
  for (;;) {
    let session: Session | undefined;
    let sent: TokenPair | null = null;
    let sentAdmin: string | null | undefined;
    const outgoing = (): OutgoingRequest => {
      const headers = op.stackHeaders
        ? stackHeaderFields(op, {
            projectId: o.projectId,
            accessType: o.accessType,
            clientVersion: o.clientVersion,
            publishableClientKey: o.publishableClientKey,
            secretServerKey: o.secretServerKey,
            superSecretAdminKey: o.superSecretAdminKey,
            extraRequestHeaders: o.extraRequestHeaders,
            adminAccessToken: sentAdmin,
            accessToken: sent?.accessToken,
            refreshToken: sent?.refreshToken,
            nonce: nonce(),
          })
        : {};
      // What the caller set on this request (its content type, per-call headers) comes last.
      request.headers.forEach((value, name) => setHeaderField(headers, name, value));
      return { url: request.url, method: request.method, headers, body };
    };
    const answer = await sendWithRetries(
      o.env,
      o.policy,
      () => {
        session = o.sessions?.current();
        // Tokens that need no refresh (the usual case): the request is made without a wait.
        const now = op.stackHeaders && session ? session.tokensNow() : null;
        if (now !== undefined && !o.projectOwnerSession) {
          sent = now;
          sentAdmin = undefined;
          return outgoing();
        }
        return (async () => {
          sent = now === undefined ? await (session as Session).getTokens() : now;
          sentAdmin = o.projectOwnerSession ? ((await o.projectOwnerSession.getTokens())?.accessToken ?? null) : undefined;
          return outgoing();
        })();
      },
      { retryNetworkErrors: op.idempotent, describe, operationId: op.operationId, signal },
    );
    // Most answers are no known error: they are read on without waiting.
    const known = answer.headers.has("x-stack-known-error") ? await knownErrorOf(answer, operationName(op)) : undefined;
    if (known) {
      if (isKnownError(known, "INVALID_ACCESS_TOKEN")) {
        const tokens = sent as TokenPair | null;
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
    if (op.responseBody === "json") {
      // The checked body goes with the answer, so its first reader need not parse it again.
      const view = VIEWS[o.accessType];
      const now = checkAnswerNow(answer, op.operationId, operationName(op), view);
      return withBody(answer, now ? now.body : await checkAnswer(answer, op.operationId, operationName(op), view));
    }
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
