// Verifying an access token where it arrives, without asking the service: the
// signature against the project's published keys (jwks.ts), then `exp`, `nbf`,
// the issuer and the audience as the service sets them (`iss`
// `<baseUrl>/api/v1/projects/<projectId>`, `aud` the project id; see
// emulator/engine/tokens.ts). Web APIs and jose only, so it runs in Node,
// browsers and edge runtimes.
//
// An invalid token is an expected outcome, so it comes back as an error
// Result (as the apps' expected failures do, runtime/app/result.ts); misuse
// throws a StackConfigurationError and a cancelled call rejects with its
// signal's reason.
import { decodeJwt, decodeProtectedHeader, jwtVerify, type JWTPayload } from "jose";
import { throwIfAborted, API_PREFIX, DEFAULT_BASE_URL, platformEnvironment, type Fetch, StackConfigurationError, LruMap } from "../core.js";
import type { Result } from "../app/result.js";
import { claimsOf, malformed, type AccessTokenClaims } from "./claims.js";
import { AccessTokenInvalidError, isAccessTokenInvalidError } from "./errors.js";
import { JwksCache, type KeySet } from "./jwks.js";

/**
 * What {@link createAccessTokenVerifier} and {@link verifyAccessToken} take: the
 * project, where its keys are published, and how long they are cached.
 *
 * @example
 * ```ts
 * const verifier = createAccessTokenVerifier({
 *   projectId: process.env.STACK_PROJECT_ID!,
 *   baseUrl: "https://auth.example.com",
 *   cacheMaxAgeMs: 5 * 60_000,
 *   clockToleranceSec: 10,
 * });
 * ```
 */
export interface AccessTokenVerifierOptions {
  /** The project whose access tokens are accepted. */
  readonly projectId: string;
  /** The API's base URL, as the apps take it; default `https://api.stack-auth.com`. */
  readonly baseUrl?: string;
  /**
   * The `iss` the service sets; default `<baseUrl>/api/v1/projects/<projectId>`.
   * Set it when the API is reached through a URL that is not the service's own (a proxy).
   */
  readonly issuer?: string | readonly string[];
  /** Sends the key-set request; default the platform's fetch. */
  readonly fetch?: Fetch;
  /** Milliseconds since the epoch: judges `exp` and ages the cached keys. Default `Date.now`. */
  readonly now?: () => number;
  /** How long fetched keys are used before they are fetched again; default 10 minutes. */
  readonly cacheMaxAgeMs?: number;
  /** A token with an unknown `kid` refetches the keys at most once per this long; default 30 s. */
  readonly cooldownMs?: number;
  /** Longest wait for the key set's answer; default 5 s. */
  readonly timeoutMs?: number;
  /** Clock skew allowed between the service and this machine for `exp` and `nbf`, in seconds; default 5. */
  readonly clockToleranceSec?: number;
}

/**
 * The options of one verification: a signal that stops waiting for the key set.
 *
 * @example
 * ```ts
 * // Give up waiting for the project's keys after two seconds.
 * const result = await verifier.verify(token, { signal: AbortSignal.timeout(2_000) });
 * if (result.status === "error") console.warn(result.error.reason);
 * ```
 */
export interface VerifyAccessTokenCallOptions {
  /** Cancels the wait for the key set (a fetch shared with other callers goes on for them). */
  readonly signal?: AbortSignal | null | undefined;
}

/** What verifying an access token answers: its claims, or the error saying why it was refused. */
export type AccessTokenVerification = Result<AccessTokenClaims, AccessTokenInvalidError>;

/** Verifies the project's access tokens locally, against its published key set (fetched once and cached): what {@link createAccessTokenVerifier} makes. */
export interface AccessTokenVerifier {
  /**
   * The token's claims when the project signed it and it is current, else an
   * error Result with an AccessTokenInvalidError saying why not. Never calls
   * `/users/me`; only the project's key set is fetched, and cached. A cancelled
   * call rejects with its signal's reason.
   *
   * @example
   * ```ts
   * const result = await verifier.verify(request.headers.get("x-stack-access-token") ?? "");
   * if (result.status === "error") return new Response(result.error.reason, { status: 401 });
   * console.log(result.data.userId, result.data.expiresAt.toISOString());
   * ```
   */
  verify(token: string, options?: VerifyAccessTokenCallOptions): Promise<AccessTokenVerification>;
}

const DEFAULTS = { cacheMaxAgeMs: 600_000, cooldownMs: 30_000, timeoutMs: 5_000, clockToleranceSec: 5 } as const;
/** Access tokens are a few hundred bytes; far longer input is not one, and is refused before it is decoded. */
const MAX_TOKEN_LENGTH = 16_384;
/** The only algorithm the service signs access tokens with (getProjectJwks: "ES256, `kid` in its header"). */
const ALGORITHMS = ["ES256"];
/** How many key sets `verifyAccessToken` keeps per fetch function (one per base URL and project). */
const SHARED_CACHE_LIMIT = 100;

interface Settings {
  readonly projectId: string;
  readonly issuers: readonly string[];
  readonly jwksUrl: string;
  readonly fetch: Fetch;
  readonly now: () => number;
  readonly cacheMaxAgeMs: number;
  readonly cooldownMs: number;
  readonly timeoutMs: number;
  readonly clockToleranceSec: number;
}

/**
 * A verifier for one project's access tokens, with its own cache of the
 * project's keys: make one per process (or per isolate) and reuse it. Throws a
 * StackConfigurationError for options that cannot work (no project id, a
 * `baseUrl` that is not http(s), a negative cache time).
 *
 * @example
 * ```ts
 * const verifier = createAccessTokenVerifier({ projectId });
 * const result = await verifier.verify(accessToken);
 * if (result.status === "ok") console.log("signed in as", result.data.userId);
 * ```
 * @see getProjectJwks
 */
export function createAccessTokenVerifier(options: AccessTokenVerifierOptions): AccessTokenVerifier {
  const settings = settingsOf(options);
  const cache = cacheFor(settings);
  return { verify: (token, callOptions) => verifyWith(cache, settings, token, callOptions?.signal) };
}

/**
 * One verification, for code that keeps no verifier (an edge function). The
 * keys are cached in the module, per fetch function, base URL and project (at
 * most 100 sets per fetch), so pass a fetch that stays the same from call to
 * call, or keep a `createAccessTokenVerifier` instead. Answers the claims, or an
 * error Result with an AccessTokenInvalidError.
 *
 * @example
 * ```ts
 * const token = request.headers.get("authorization")?.replace(/^Bearer /, "") ?? "";
 * const result = await verifyAccessToken(token, { projectId });
 * if (result.status === "error") return new Response("Unauthorized", { status: 401 });
 * return Response.json({ userId: result.data.userId });
 * ```
 */
export async function verifyAccessToken(
  token: string,
  options: AccessTokenVerifierOptions & VerifyAccessTokenCallOptions,
): Promise<AccessTokenVerification> {
  const settings = settingsOf(options);
  return verifyWith(sharedCacheFor(settings), settings, token, options.signal);
}

async function verifyWith(
  cache: JwksCache,
  s: Settings,
  token: unknown,
  signal: AbortSignal | null | undefined,
): Promise<AccessTokenVerification> {
  throwIfAborted(signal);
  const refused = precheck(token, s);
  if (refused) return { status: "error", error: refused };
  try {
    const keys = await cache.keySet(s.now, signal);
    let outcome = await verifiedBy(token as string, keys, s);
    if (outcome === UNKNOWN_KEY) {
      // The service may have rotated its key since the set was fetched: one more look, within the cooldown.
      const newer = await cache.refetched(keys, s.now, signal);
      if (newer !== keys) outcome = await verifiedBy(token as string, newer, s);
      if (outcome === UNKNOWN_KEY) {
        outcome = new AccessTokenInvalidError(
          "unknown-key",
          "The access token names a signing key the project does not publish (not a key of this project, or one retired).",
        );
      }
    }
    const claims = outcome instanceof AccessTokenInvalidError ? outcome : claimsOf(outcome, s.projectId);
    return claims instanceof AccessTokenInvalidError ? { status: "error", error: claims } : { status: "ok", data: claims };
  } catch (error) {
    if (isAccessTokenInvalidError(error, "jwks-unavailable")) return { status: "error", error };
    throw error;
  }
}

/**
 * What can be refused before any key is fetched, read from the unverified
 * token: it is not a JWT, its algorithm is not the service's (`none` and HS*
 * included), it names no key, or it is not for this project. Unknown tokens
 * thus never trigger a fetch; nothing read here is trusted for acceptance.
 */
function precheck(token: unknown, s: Settings): AccessTokenInvalidError | undefined {
  if (typeof token !== "string" || token === "") return malformed("it is empty or not a string");
  if (token.length > MAX_TOKEN_LENGTH) return malformed(`it is longer than ${MAX_TOKEN_LENGTH} characters`);
  let header: ReturnType<typeof decodeProtectedHeader>;
  let payload: JWTPayload;
  try {
    header = decodeProtectedHeader(token);
    payload = decodeJwt(token);
  } catch (cause) {
    return malformed("it is not a signed JWT", cause);
  }
  if (typeof header.alg !== "string" || !ALGORITHMS.includes(header.alg)) {
    return new AccessTokenInvalidError(
      "algorithm",
      `The access token is not signed with ${ALGORITHMS.join(" or ")}, the only algorithm accepted.`,
    );
  }
  if (typeof header.kid !== "string" || header.kid === "") return malformed("its header names no key (`kid`)");
  const audiences = typeof payload.aud === "string" ? [payload.aud] : Array.isArray(payload.aud) ? payload.aud : [];
  if (!audiences.includes(s.projectId)) return audienceError(s);
  if (typeof payload.iss !== "string" || !s.issuers.includes(payload.iss)) return issuerError(s);
  return undefined;
}

const UNKNOWN_KEY = Symbol("unknown key");

/** The verified payload, UNKNOWN_KEY when `keys` has no key for the token, or why it fails. */
async function verifiedBy(token: string, keys: KeySet, s: Settings): Promise<JWTPayload | typeof UNKNOWN_KEY | AccessTokenInvalidError> {
  try {
    const { payload } = await jwtVerify(token, keys.getKey, {
      algorithms: ALGORITHMS,
      issuer: [...s.issuers],
      audience: s.projectId,
      requiredClaims: ["sub", "exp"],
      currentDate: new Date(s.now()),
      clockTolerance: s.clockToleranceSec,
    });
    return payload;
  } catch (error) {
    return joseFailure(error, s);
  }
}

/** jose's error as ours, matched on its `code` (stable across copies of jose). Anything else is not the token's fault: rethrown. */
function joseFailure(error: unknown, s: Settings): typeof UNKNOWN_KEY | AccessTokenInvalidError {
  const { code, claim, payload } = (typeof error === "object" && error !== null ? error : {}) as {
    code?: unknown;
    claim?: unknown;
    payload?: { exp?: unknown };
  };
  switch (code) {
    case "ERR_JWKS_NO_MATCHING_KEY":
      return UNKNOWN_KEY;
    case "ERR_JWKS_MULTIPLE_MATCHING_KEYS":
      return new AccessTokenInvalidError("unknown-key", "The access token's key id names more than one of the project's keys.", {
        cause: error,
      });
    case "ERR_JWS_SIGNATURE_VERIFICATION_FAILED":
      return new AccessTokenInvalidError(
        "signature",
        "The access token's signature does not match the project's key: it was altered or forged.",
      );
    case "ERR_JOSE_ALG_NOT_ALLOWED":
      return new AccessTokenInvalidError("algorithm", `The access token is not signed with ${ALGORITHMS.join(" or ")}.`);
    case "ERR_JWT_EXPIRED": {
      const exp = payload?.exp;
      const expiredAt = typeof exp === "number" ? new Date(exp * 1000) : undefined;
      const when = expiredAt ? ` at ${expiredAt.toISOString()}` : "";
      return new AccessTokenInvalidError("expired", `The access token expired${when}; refresh it.`, expiredAt ? { expiredAt } : {});
    }
    case "ERR_JWT_CLAIM_VALIDATION_FAILED":
      if (claim === "aud") return audienceError(s);
      if (claim === "iss") return issuerError(s);
      if (claim === "nbf") return new AccessTokenInvalidError("not-yet-valid", "The access token is not valid yet (its `nbf` is ahead).");
      return malformed(`a claim is missing or of the wrong type (${String(claim)})`, error);
    case "ERR_JWKS_INVALID":
    case "ERR_JWK_INVALID":
      return new AccessTokenInvalidError(
        "jwks-unavailable",
        "The project's key for this token could not be used; the token was not judged.",
        {
          cause: error,
        },
      );
    case "ERR_JWS_INVALID":
    case "ERR_JWT_INVALID":
    case "ERR_JOSE_NOT_SUPPORTED":
      return malformed("it is not a valid signed JWT", error);
    default:
      throw error;
  }
}

function audienceError(s: Settings): AccessTokenInvalidError {
  return new AccessTokenInvalidError(
    "audience",
    `The access token is not for project ${s.projectId} (its \`aud\`): a token of another project.`,
  );
}

function issuerError(s: Settings): AccessTokenInvalidError {
  return new AccessTokenInvalidError(
    "issuer",
    `The access token was not issued by ${s.issuers.join(" or ")} (its \`iss\`). If the API is reached through a proxy, set \`issuer\`.`,
  );
}

function settingsOf(o: AccessTokenVerifierOptions): Settings {
  const where = "createAccessTokenVerifier / verifyAccessToken";
  if (typeof o !== "object" || o === null || typeof o.projectId !== "string" || o.projectId === "") {
    throw new StackConfigurationError(`${where} needs the project's id: { projectId: "…" }.`);
  }
  const baseUrl = (o.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, "");
  if (!isHttpUrl(baseUrl)) {
    throw new StackConfigurationError(`${where}: baseUrl must be an http(s) URL, got ${JSON.stringify(o.baseUrl)}.`);
  }
  const issuers: readonly unknown[] =
    o.issuer === undefined ? [`${baseUrl}${API_PREFIX}/projects/${o.projectId}`] : typeof o.issuer === "string" ? [o.issuer] : o.issuer;
  if (issuers.length === 0 || issuers.some((issuer) => typeof issuer !== "string" || issuer === "")) {
    throw new StackConfigurationError(`${where}: issuer must be a non-empty string or a list of them.`);
  }
  const number = (name: keyof typeof DEFAULTS, least: number): number => {
    const value = o[name] ?? DEFAULTS[name];
    if (typeof value !== "number" || !Number.isFinite(value) || value < least) {
      throw new StackConfigurationError(`${where}: ${name} must be a finite number of at least ${least}, got ${String(value)}.`);
    }
    return value;
  };
  return {
    projectId: o.projectId,
    issuers: issuers as readonly string[],
    jwksUrl: `${baseUrl}${API_PREFIX}/projects/${encodeURIComponent(o.projectId)}/.well-known/jwks.json`,
    fetch: o.fetch ?? platformEnvironment.fetch,
    now: o.now ?? platformEnvironment.now,
    cacheMaxAgeMs: number("cacheMaxAgeMs", 0),
    cooldownMs: number("cooldownMs", 0),
    timeoutMs: number("timeoutMs", 1),
    clockToleranceSec: number("clockToleranceSec", 0),
  };
}

function isHttpUrl(url: string): boolean {
  try {
    return /^https?:$/.test(new URL(url).protocol);
  } catch {
    return false;
  }
}

function cacheFor(s: Settings): JwksCache {
  const { fetch, jwksUrl: url, cacheMaxAgeMs, cooldownMs, timeoutMs } = s;
  const { setTimeout, clearTimeout } = platformEnvironment;
  return new JwksCache({ url, env: { fetch, setTimeout, clearTimeout }, cacheMaxAgeMs, cooldownMs, timeoutMs });
}

/** verifyAccessToken's key sets: per fetch function (collected with it), then per URL and bounds, least recently used forgotten first. */
const sharedCaches = new WeakMap<Fetch, LruMap<string, JwksCache>>();

function sharedCacheFor(s: Settings): JwksCache {
  let byKey = sharedCaches.get(s.fetch);
  if (!byKey) sharedCaches.set(s.fetch, (byKey = new LruMap(SHARED_CACHE_LIMIT)));
  const key = [s.jwksUrl, s.cacheMaxAgeMs, s.cooldownMs, s.timeoutMs].join("\n");
  let cache = byKey.get(key);
  if (!cache) byKey.set(key, (cache = cacheFor(s)));
  return cache;
}
