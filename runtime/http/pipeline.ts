// Where every request goes: the runtime's own calls (runtime/http/send.ts) and the
// typed client's (runtime/http/api.ts, as its fetch). It is a wrapper rather than
// middleware because it must be able to send a request again: after a retryable
// failure, and after refreshing a rejected access token.
//
// For each request of a known operation it adds the headers the wire contract
// asks for, sends it under the retry policy, turns known errors into their typed
// classes (thrown), and answers with the real status and the checked body.
import { isKnownError } from "../../generated/known-error-guard.js";
import type { KnownError } from "../../generated/known-errors.js";
import { abortReason, raceAbort, throwIfAborted } from "../platform/abort.js";
import { API_PREFIX, NONCE_BITS } from "../constants.js";
import type { Environment } from "../platform/env.js";
import { NetworkError, StackAssertionError } from "../errors.js";
import { assertUsableTokens } from "../sessions/tokens/check.js";
import type { TokenPair } from "../sessions/tokens/store.js";
import { randomNonce, setHeaderField, stackHeaderFields, type AppIdentity } from "./headers.js";
import type { Origins } from "./origins.js";
import type { MatchedOperation } from "./operations.js";
import { RequestTimeoutError } from "./request-errors.js";
import { readKnownError } from "./known-error-answer.js";
import { checkAnswer, withBody, type ReadResponse } from "./response.js";
import type { Session, Sessions } from "../sessions/session.js";
import { httpError, sendWithRetries, type OutgoingRequest, type TransportPolicy } from "./transport.js";

/** What an admin app built on a project owner's session needs of that session. */
export type OwnerSession = Pick<Session, "getTokens" | "markAccessTokenExpired">;

/**
 * The official SDK's other form of a project owner's session: a function answering the owner's
 * current access token (null, or nothing, when there is none), asked before each request. It
 * keeps the token fresh itself: a token the service rejects is not asked for again.
 */
export type OwnerAccessTokenGetter = () => Promise<string | null | undefined>;

export interface PipelineOptions extends AppIdentity {
  readonly env: Environment;
  readonly baseUrl: string;
  readonly projectOwnerSession?: OwnerSession | OwnerAccessTokenGetter | undefined;
  /** Null when the app has no token store: requests go without user tokens. */
  readonly sessions: Sessions | null;
  /**
   * A view answering one session only (app/bound-session.ts) whose session must still be current for
   * a request to go, on a client that sends no user tokens (a server user's calls by id).
   */
  readonly guard?: Sessions | undefined;
  readonly policy: TransportPolicy;
  /** The API's origins when the client fails over (origins.ts); absent: the base URL only. */
  readonly origins?: Origins | undefined;
}

/**
 * One request as the pipeline takes it: from the runtime's own calls (runtime/http/send.ts)
 * or from the typed client (runtime/http/api.ts), which reads a Request into one.
 */
export interface PipelineRequest {
  /** The whole URL: the base URL's, with the path and query percent-encoded (a Request may normalise it further). */
  readonly url: string;
  readonly method: string;
  /** What the caller set (content type, per-call headers): a Headers, or lowercase names. */
  readonly headers: Headers | Readonly<Record<string, string>>;
  readonly body: BodyInit | null;
  readonly signal: AbortSignal | null | undefined;
}

/** Sends requests the wire contract's way; made once per client. */
export interface Pipeline {
  /** `<baseUrl>/api/v1`. */
  readonly root: string;
  /** Sends `request` for `op` and answers it read, checked and with its real status; known errors and HTTP errors are thrown. */
  answer(op: MatchedOperation, request: PipelineRequest): Promise<ReadResponse>;
}

export function createPipeline(o: PipelineOptions): Pipeline {
  // Identical reads in flight at the same time share one request, which is
  // cancelled only when every caller has stopped waiting for it.
  const reads = new Map<string, SharedRead>();
  const nonces = noncePool(o.env);

  const answer = async (op: MatchedOperation, request: PipelineRequest): Promise<ReadResponse> => {
    const signal = request.signal;
    throwIfAborted(signal);
    if (request.method !== "GET") return sendOperation(o, op, request, signal, nonces);
    const key = readKey(o, request);
    let shared = reads.get(key);
    if (!shared) {
      // A read started by a caller that cannot give up (no signal) is never
      // cancelled: that caller waits for it to the end. It needs no controller.
      const controller = signal ? new AbortController() : undefined;
      const read: SharedRead = { controller, callers: 0, answer: sendOperation(o, op, request, controller?.signal, nonces) };
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
      return await raceAbort(read.answer, signal);
    } finally {
      read.callers--;
      if (read.callers === 0 && signal?.aborted && read.controller && !read.controller.signal.aborted) {
        if (reads.get(key) === read) reads.delete(key);
        read.controller.abort(abortReason(signal));
      }
    }
  };
  return { root: `${o.baseUrl}${API_PREFIX}`, answer };
}

/** Calls `visit` with each header of `headers` (a Headers, or a record of lowercase names). */
function forEachHeader(headers: PipelineRequest["headers"], visit: (value: string, name: string) => void): void {
  if (headers instanceof Headers) headers.forEach(visit);
  else for (const name in headers) visit(headers[name] as string, name);
}

interface SharedRead {
  /** Absent when the read cannot be cancelled (its first caller had no signal). */
  readonly controller: AbortController | undefined;
  readonly answer: Promise<ReadResponse>;
  callers: number;
}

/**
 * What makes two reads the same: the URL, the session's tokens and every
 * header, in the order the caller set them (a call site sets them alike each
 * time; a Headers iterates sorted by name). No part can hold a line break.
 */
function readKey(o: PipelineOptions, request: PipelineRequest): string {
  const tokens = o.sessions?.store.get();
  let key = `${request.url}\n${tokens?.refreshToken ?? ""}\n${tokens?.accessToken ?? ""}`;
  forEachHeader(request.headers, (value, name) => (key += `\n${name}:${value}`));
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
  signal: AbortSignal | null | undefined,
  nonce: () => string,
): Promise<ReadResponse> {
  const describe = `${request.method} ${request.url}`;
  const renewed = { user: false, owner: false };
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
      forEachHeader(request.headers, (value, name) => setHeaderField(headers, name, value));
      return { url: request.url, method: request.method, headers, body: request.body };
    };
    const answer = await sendWithRetries(
      o.env,
      o.policy,
      async () => {
        // A bound view throws here, before anything is sent, once its session is over.
        o.guard?.current();
        session = o.sessions?.current();
        sent = op.stackHeaders && session ? await tokensBefore(o, session, describe) : null;
        sentAdmin = o.projectOwnerSession ? await ownerAccessToken(o.projectOwnerSession) : undefined;
        return outgoing();
      },
      { resendable: op.idempotent, describe, operationId: op.operationId, origins: o.origins, signal },
    );
    const known = readKnownError(answer, operationName(op));
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
      // A session renews its token; a getter's token is the getter's to renew, as in the official SDK.
      if (typeof o.projectOwnerSession === "object" && sentAdmin && !renewed.owner && isOwnerTokenRejection(known)) {
        renewed.owner = true;
        o.projectOwnerSession.markAccessTokenExpired(sentAdmin);
        continue;
      }
      throw known;
    }
    if (answer.status < 200 || answer.status > 299) throw httpError(describe, answer);
    if (op.responseBody === "json") {
      // The checked body goes with the answer, so its first reader need not parse it again.
      return withBody(answer, checkAnswer(answer, op.operationId, operationName(op), VIEWS[o.accessType]));
    }
    return answer;
  }
}

const VIEWS = { client: 0, server: 1, admin: 2 } as const;

/**
 * The session's tokens for the request `describe`. A refresh that could not
 * reach the service fails this request: the message names the call the app
 * made first and the refresh second, with the same error class (a timeout
 * stays a RequestTimeoutError). Offline, the message stays "You seem to be offline".
 */
async function tokensBefore(o: PipelineOptions, session: Session, describe: string): Promise<TokenPair | null> {
  try {
    return await session.getTokens();
  } catch (error) {
    if (!(error instanceof NetworkError) || o.env.isOffline()) throw error;
    const message = `${describe} was not sent: its access token had to be refreshed first, and that failed. ${error.message}`;
    throw error instanceof RequestTimeoutError
      ? Object.assign(new RequestTimeoutError(message, error.timeoutMs), { cause: error })
      : new NetworkError(message, { cause: error });
  }
}

/**
 * The project owner's access token for a request: the session's, refreshed when due, or what the
 * getter answers (an empty answer is none). A getter's answer that cannot be a token is the
 * app's bug: a StackConfigurationError, before anything is sent.
 */
async function ownerAccessToken(owner: OwnerSession | OwnerAccessTokenGetter): Promise<string | null> {
  if (typeof owner !== "function") return (await owner.getTokens())?.accessToken ?? null;
  const token = await owner();
  return assertUsableTokens({ accessToken: token ?? null, refreshToken: null }, "projectOwnerSession()").accessToken;
}

function isOwnerTokenRejection(error: KnownError): boolean {
  return isKnownError(error, "INVALID_ADMIN_ACCESS_TOKEN") || isKnownError(error, "API_KEY_NOT_FOUND");
}

/** The operation's name in messages: its operationId, or its method and path. */
function operationName(op: MatchedOperation): string {
  return op.operationId ?? `${op.method} ${op.path}`;
}
