// Who is signed in, for code in front of the app (a Next.js middleware, an
// edge function, a gateway): the access token is verified locally (verify/),
// so a request with a current token costs no call to the service. An expired
// or missing access token is refreshed with the refresh token, and the new
// cookies are returned for the response, together with the request headers to
// pass on so that the app behind sees the new tokens and does not refresh
// again. Web APIs only, so it runs on edge runtimes.

import { DEFAULT_BASE_URL, DEFAULT_MIN_TOKEN_LIFE_MS, SESSION_CACHE_LIMIT } from "../../constants.js";
import { environment, platformEnvironment, type Fetch } from "../../platform/env.js";
import { LruMap } from "../../platform/lru.js";
import type { TokenPair } from "../tokens/store.js";
import { parse as parseCookie, serialize as serializeCookie } from "cookie";
import { refreshWithTokenEndpoint } from "../../http/refresh.js";
import { readRequestTokens } from "../tokens/request.js";
import type { AccessTokenClaims } from "../verify/claims.js";
import { verifyAccessToken, type AccessTokenVerification, type AccessTokenVerifier } from "../verify/verify.js";
import { cameOverHttps, tokenCookieChanges, type CookieChange } from "./response-store.js";

/**
 * What {@link getSessionFromRequest} takes: the project, where the API is, and
 * how long a refresh may take.
 *
 * @example
 * ```ts
 * const { session } = await getSessionFromRequest(request, {
 *   projectId: process.env.STACK_PROJECT_ID!,
 *   publishableClientKey: process.env.STACK_PUBLISHABLE_CLIENT_KEY!,
 *   requestTimeoutMs: 3_000,
 * });
 * ```
 */
export interface GetSessionFromRequestOptions {
  /** The project whose tokens are read, verified and refreshed. */
  readonly projectId: string;
  /** Sent with the refresh-token grant (its `client_secret`). */
  readonly publishableClientKey?: string;
  /** The API's origin; default https://api.stack-auth.com. */
  readonly baseUrl?: string;
  /** Fetches the project's keys and refreshes tokens; default the platform's fetch. Keep it the same from call to call (the keys are cached per fetch). */
  readonly fetch?: Fetch;
  /** Verifies access tokens instead of the shared verifier (`createAccessTokenVerifier`, with its own options and key cache). */
  readonly verifier?: AccessTokenVerifier;
  /** Milliseconds since the epoch; default `Date.now`. */
  readonly now?: () => number;
  /** Whether written cookies get `Secure`. Default: when the request's URL is https, or `x-forwarded-proto` says so. */
  readonly secure?: boolean;
  /** Longest wait for one attempt of the refresh, in ms; default 10 000 (code in front of a page must answer quickly). */
  readonly requestTimeoutMs?: number;
  /** Longest `Retry-After` a rate-limited refresh waits, in ms; default 5 000. A longer one gives no session. */
  readonly maxRetryAfterMs?: number;
}

/** What {@link getSessionFromRequest} answers: the verified session of the request, if any, and the cookies to set on the response. */
export interface RequestSession {
  /**
   * The signed-in user's verified token claims; null when nobody is signed in or it could not be told.
   * Anonymous and restricted users have a session too: `isAnonymous` and `isRestricted` say so.
   */
  readonly session: AccessTokenClaims | null;
  /** `Set-Cookie` values to add to the response: the refreshed token cookies, or their deletion when the session is over. */
  readonly setCookie: string[];
  /**
   * The request's headers with the tokens as they are now (the `cookie` header,
   * or `x-stack-auth` when the tokens came in it), to pass on to the app
   * behind; null when they did not change.
   */
  readonly requestHeaders: Headers | null;
  /**
   * Why there is no session when it is not simply nobody signed in: the
   * token's verification failure (an AccessTokenInvalidError), or a refresh
   * that failed for a reason other than a dead refresh token (the network, the
   * service). Never quotes a token.
   */
  readonly error: Error | null;
}

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_RETRY_AFTER_MS = 5_000;

/**
 * The verified session of `request` (its `x-stack-auth` header, else its token
 * cookies), refreshing an access token that is missing, invalid or has less
 * than 20 s to live. Never throws for what the request holds: a bad, absent or
 * revoked token is no session.
 *
 * @example
 * ```ts
 * export async function middleware(request: NextRequest) {
 *   const { session, setCookie, requestHeaders } = await getSessionFromRequest(request, { projectId, publishableClientKey });
 *   const response = session
 *     ? NextResponse.next({ request: { headers: requestHeaders ?? request.headers } })
 *     : NextResponse.redirect(new URL("/sign-in", request.url));
 *   for (const line of setCookie) response.headers.append("set-cookie", line);
 *   return response;
 * }
 * ```
 */
export async function getSessionFromRequest(
  request: { readonly headers: Headers; readonly url?: string },
  options: GetSessionFromRequestOptions,
): Promise<RequestSession> {
  const { projectId } = options;
  const now = options.now ?? platformEnvironment.now;
  const tokens = readRequestTokens(request, projectId);
  const verify = verifierOf(options, now);
  let failure: Error | null = null;
  // A valid token about to expire: the session if the refresh cannot be done now.
  let current: AccessTokenClaims | null = null;

  if (tokens.accessToken !== null) {
    const verified = await verify(tokens.accessToken);
    if (verified.status === "ok") {
      const fresh = verified.data.expiresAt.getTime() - now() >= DEFAULT_MIN_TOKEN_LIFE_MS;
      if (fresh || tokens.refreshToken === null) return { session: verified.data, setCookie: [], requestHeaders: null, error: null };
      current = verified.data;
    } else if (verified.error.reason === "jwks-unavailable") {
      // Without the project's keys no token can be judged, a refreshed one neither.
      return noSession(verified.error);
    } else {
      failure = verified.error;
    }
  }
  if (tokens.refreshToken === null) return noSession(failure);

  let accessToken: string | null;
  try {
    accessToken = await refresh(options, now, tokens.refreshToken);
  } catch (error) {
    if (current !== null) return { session: current, setCookie: [], requestHeaders: null, error: null };
    return noSession(error instanceof Error ? error : new Error("The access token could not be refreshed.", { cause: error }));
  }
  const next: TokenPair = { refreshToken: accessToken === null ? null : tokens.refreshToken, accessToken };
  const verified: AccessTokenVerification | null = accessToken === null ? null : await verify(accessToken);
  return {
    session: verified?.status === "ok" ? verified.data : null,
    ...passOn(request, options, next),
    error: verified?.status === "error" ? verified.error : null,
  };
}

function noSession(error: Error | null): RequestSession {
  return { session: null, setCookie: [], requestHeaders: null, error };
}

/**
 * How the request's access token is verified. Anonymous and restricted users'
 * tokens are accepted too (their claims say `isAnonymous` / `isRestricted`, and
 * the caller decides what they may see): refused, their session would be
 * refreshed on every request and never seen.
 */
function verifierOf(options: GetSessionFromRequestOptions, now: () => number): (token: string) => Promise<AccessTokenVerification> {
  if (options.verifier) return (token) => (options.verifier as AccessTokenVerifier).verify(token, { allowAnonymous: true });
  const { projectId, baseUrl, fetch } = options;
  return (token) =>
    verifyAccessToken(token, { projectId, now, allowAnonymous: true, ...(baseUrl !== undefined && { baseUrl }), ...(fetch && { fetch }) });
}

/**
 * Refreshes per fetch function, then per API and refresh token: a page's parallel
 * requests (its scripts, images, prefetches) arriving with the same expired token
 * share one token request. They are verified first, and one may finish its
 * refresh before another has been verified: a refresh that succeeded therefore
 * answers the same refresh token for a few seconds more. A failed one is not kept.
 * Bounded, as every cache keyed by callers' values is.
 */
const refreshes = new WeakMap<Fetch, LruMap<string, { readonly attempt: Promise<string | null>; settledAt: number | null }>>();

/** How long a finished refresh answers requests that came with the same refresh token. */
const SHARE_FINISHED_REFRESH_MS = 5_000;

function refresh(options: GetSessionFromRequestOptions, now: () => number, refreshToken: string): Promise<string | null> {
  const fetch = options.fetch ?? platformEnvironment.fetch;
  const baseUrl = (options.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, "");
  let shared = refreshes.get(fetch);
  if (!shared) refreshes.set(fetch, (shared = new LruMap(SESSION_CACHE_LIMIT)));
  const key = JSON.stringify([baseUrl, options.projectId, refreshToken]);
  const known = shared.get(key);
  if (known && (known.settledAt === null || now() - known.settledAt < SHARE_FINISHED_REFRESH_MS)) return known.attempt;
  const exchange = refreshWithTokenEndpoint({
    env: environment({ fetch, now }),
    policy: {
      requestTimeoutMs: options.requestTimeoutMs ?? DEFAULT_TIMEOUT_MS,
      maxRetryAfterMs: options.maxRetryAfterMs ?? DEFAULT_MAX_RETRY_AFTER_MS,
      hooks: {},
    },
    baseUrl,
    projectId: options.projectId,
    publishableClientKey: options.publishableClientKey,
  });
  const entry: { readonly attempt: Promise<string | null>; settledAt: number | null } = {
    attempt: exchange(refreshToken).then(
      (accessToken) => {
        entry.settledAt = now();
        return accessToken;
      },
      (error: unknown) => {
        if (shared.get(key) === entry) shared.delete(key);
        throw error;
      },
    ),
    settledAt: null,
  };
  shared.set(key, entry);
  return entry.attempt;
}

/** The cookie writes and the request headers that carry `tokens` on, from the place the request had them. */
function passOn(
  request: { readonly headers: Headers; readonly url?: string },
  options: GetSessionFromRequestOptions,
  tokens: TokenPair,
): Pick<RequestSession, "setCookie" | "requestHeaders"> {
  const requestHeaders = new Headers(request.headers);
  // Tokens from `x-stack-auth` belong to a frontend with its own store: no cookies for them (see fetch.ts).
  if (request.headers.get("x-stack-auth") !== null) {
    const { accessToken, refreshToken } = tokens;
    requestHeaders.set("x-stack-auth", JSON.stringify(accessToken === null ? {} : { accessToken, refreshToken }));
    return { setCookie: [], requestHeaders };
  }
  const header = request.headers.get("cookie") ?? "";
  const secure = options.secure ?? cameOverHttps(request.url, request.headers.get("x-forwarded-proto"));
  const changes = tokenCookieChanges(parseCookie(header), tokens, options.projectId, secure);
  if (changes.length === 0) return { setCookie: [], requestHeaders: null };
  requestHeaders.set("cookie", withChanges(header, changes));
  return { setCookie: changes.map((change) => change.header), requestHeaders };
}

/**
 * The `cookie` request header with `changes` made: the changed cookies' pairs
 * replaced or dropped, every other pair kept exactly as it came (re-encoding
 * another app's cookie could change what it reads).
 */
function withChanges(header: string, changes: readonly CookieChange[]): string {
  const changed = new Set(changes.map((change) => change.name));
  const kept = header
    .split(";")
    .map((pair) => pair.trim())
    .filter((pair) => pair !== "" && !Object.keys(parseCookie(pair)).some((name) => changed.has(name)));
  const added = changes.filter((change) => change.options.maxAge !== 0).map((change) => serializeCookie(change.name, change.value));
  return [...kept, ...added].join("; ");
}
