// Verifying an access token where it arrives, without asking the service: the
// signature against the project's published keys (jwks.ts), then `exp`, `nbf`,
// the issuer and the audience as the service sets them. Web APIs and jose only,
// so it runs in Node, browsers and edge runtimes.
//
// The service has set two forms (apps/backend/src/lib/tokens.tsx; the key sets
// in projects/[project_id]/.well-known/jwks.json/route.ts):
// - 2.8.11: `aud` the project id, `iss` https://access-token.jwt-signature.stack-auth.com
//   for every project; one key per project.
// - 2.8.86: an audience and an issuer per kind of user: `<id>` with
//   `<api>/api/v1/projects/<id>`, `<id>:restricted` with
//   `…/projects-restricted-users/<id>`, `<id>:anon` with
//   `…/projects-anonymous-users/<id>`; two keys per audience, those of the last
//   two only with `?include_restricted=true` / `?include_anonymous=true` (which
//   includes the restricted ones). The normal audience's first key is 2.8.11's.
// A token is accepted only with the issuer that goes with its audience, and the
// restricted and anonymous audiences only when the caller accepts those users.
//
// An invalid token is an expected outcome, so it comes back as an error
// Result (as the apps' expected failures do, runtime/app/result.ts); misuse
// throws a StackConfigurationError and a cancelled call rejects with its
// signal's reason.
import { decodeJwt, decodeProtectedHeader, jwtVerify, type JWTPayload } from "jose";
import { throwIfAborted } from "../../platform/abort.js";
import { API_PREFIX, DEFAULT_BASE_URL } from "../../constants.js";
import { platformEnvironment, type Fetch } from "../../platform/env.js";
import { StackConfigurationError } from "../../errors.js";
import { LruMap } from "../../platform/lru.js";
import type { Result } from "../../app/result.js";
import { claimsOf, malformed, type AccessTokenClaims, type AudienceKind } from "./claims.js";
import { AccessTokenInvalidError, isAccessTokenInvalidError } from "./errors.js";
import { JwksCache, type KeySet } from "./jwks.js";

/**
 * What {@link createAccessTokenVerifier} and {@link verifyAccessToken} take: the
 * project, where its keys are published, how long they are cached, and whether
 * tokens of anonymous and restricted users are accepted (by default they are not).
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
   * The `iss` the service sets in its users' tokens; default
   * `<baseUrl>/api/v1/projects/<projectId>`. Set it when the API is reached through a
   * URL that is not the service's own (a proxy). Tokens of 2.8.11's form, whose `iss`
   * is `https://access-token.jwt-signature.stack-auth.com` for every project, are
   * accepted as well (their `aud` must be the project). The issuers of restricted and
   * anonymous users' tokens (`…/api/v1/projects-restricted-users/<projectId>`,
   * `…/api/v1/projects-anonymous-users/<projectId>`) are made from the same base URL,
   * or from each `issuer` that ends in `/api/v1/projects/<projectId>`.
   */
  readonly issuer?: string | readonly string[];
  /**
   * Accept tokens of anonymous users (audience `<projectId>:anon`, or an `is_anonymous`
   * claim), and with them those of restricted users; their keys are fetched with
   * `?include_anonymous=true`. Default false: such a token is refused ("audience").
   * A call's own `allowAnonymous` takes precedence.
   */
  readonly allowAnonymous?: boolean;
  /**
   * Accept tokens of restricted users (audience `<projectId>:restricted`, or an
   * `is_restricted` claim: an e-mail the project requires verified is not, or an
   * administrator restricted the user); their keys are fetched with
   * `?include_restricted=true`. Default false: such a token is refused ("audience").
   * A call's own `allowRestricted` takes precedence.
   */
  readonly allowRestricted?: boolean;
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
 * The options of one verification: a signal that stops waiting for the key set, and
 * whether this call accepts anonymous and restricted users' tokens (in place of the
 * verifier's setting).
 *
 * @example
 * ```ts
 * // Give up waiting for the project's keys after two seconds.
 * const result = await verifier.verify(token, { signal: AbortSignal.timeout(2_000) });
 * if (result.status === "error") console.warn(result.error.reason);
 * // A route that anonymous users may call too.
 * const guest = await verifier.verify(token, { allowAnonymous: true });
 * if (guest.status === "ok" && guest.data.isAnonymous) console.log("a guest");
 * ```
 */
export interface VerifyAccessTokenCallOptions {
  /** Cancels the wait for the key set (a fetch shared with other callers goes on for them). */
  readonly signal?: AbortSignal | null | undefined;
  /** Accept an anonymous (or restricted) user's token in this call; default the verifier's `allowAnonymous`. */
  readonly allowAnonymous?: boolean | undefined;
  /** Accept a restricted user's token in this call; default the verifier's `allowRestricted`. */
  readonly allowRestricted?: boolean | undefined;
}

/** What verifying an access token answers: its claims, or the error saying why it was refused. */
export type AccessTokenVerification = Result<AccessTokenClaims, AccessTokenInvalidError>;

/** Verifies the project's access tokens locally, against its published key set (fetched once and cached): what {@link createAccessTokenVerifier} makes. */
export interface AccessTokenVerifier {
  /**
   * The token's claims when the project signed it and it is current, else an
   * error Result with an AccessTokenInvalidError saying why not. Tokens of 2.8.11's
   * form and of today's are both read; an anonymous or restricted user's token only
   * when `allowAnonymous` / `allowRestricted` says so. Never calls `/users/me`; only
   * the project's key set is fetched, and cached. A cancelled call rejects with its
   * signal's reason.
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
/** How many key sets `verifyAccessToken` keeps per fetch function (up to three per base URL and project). */
const SHARED_CACHE_LIMIT = 100;
/** The `iss` of every project's access tokens up to May 2025 (2.8.11 included); their `aud` is the project. */
const GLOBAL_ISSUER = "https://access-token.jwt-signature.stack-auth.com";
/** The path under the API of each kind of user's issuer (followed by `/<projectId>`), and the suffix of its audience. */
const KINDS: Readonly<Record<AudienceKind, { readonly issuerPath: string; readonly audienceSuffix: string; readonly query: string }>> = {
  normal: { issuerPath: "/projects", audienceSuffix: "", query: "" },
  restricted: { issuerPath: "/projects-restricted-users", audienceSuffix: ":restricted", query: "?include_restricted=true" },
  anonymous: { issuerPath: "/projects-anonymous-users", audienceSuffix: ":anon", query: "?include_anonymous=true" },
};

interface Settings {
  readonly projectId: string;
  /** The issuers accepted with each kind's audience. */
  readonly issuers: Readonly<Record<AudienceKind, readonly string[]>>;
  /** Where each kind's keys are published (the normal users' set, or it with the restricted or anonymous ones). */
  readonly jwksUrls: Readonly<Record<AudienceKind, string>>;
  readonly accepts: Accepts;
  readonly fetch: Fetch;
  readonly now: () => number;
  readonly cacheMaxAgeMs: number;
  readonly cooldownMs: number;
  readonly timeoutMs: number;
  readonly clockToleranceSec: number;
}

/** Which kinds of user's tokens a verification accepts. */
interface Accepts {
  readonly anonymous: boolean;
  readonly restricted: boolean;
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
  const caches = new Map<AudienceKind, JwksCache>();
  const cacheOf = (kind: AudienceKind): JwksCache => {
    let cache = caches.get(kind);
    if (!cache) caches.set(kind, (cache = cacheFor(settings, kind)));
    return cache;
  };
  return { verify: (token, callOptions) => verifyWith(cacheOf, settings, token, callOptions) };
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
  return verifyWith((kind) => sharedCacheFor(settings, kind), settings, token, options);
}

async function verifyWith(
  cacheOf: (kind: AudienceKind) => JwksCache,
  s: Settings,
  token: unknown,
  call: VerifyAccessTokenCallOptions | undefined,
): Promise<AccessTokenVerification> {
  const signal = call?.signal;
  throwIfAborted(signal);
  const accepts = acceptsOf(s, call);
  const checked = precheck(token, s, accepts);
  if (checked instanceof AccessTokenInvalidError) return { status: "error", error: checked };
  const { kind, audience } = checked;
  const cache = cacheOf(kind);
  try {
    const keys = await cache.keySet(s.now, signal);
    let outcome = await verifiedBy(token as string, keys, s, kind, audience);
    if (outcome === UNKNOWN_KEY) {
      // The service may have rotated its key since the set was fetched: one more look, within the cooldown.
      const newer = await cache.refetched(keys, s.now, signal);
      if (newer !== keys) outcome = await verifiedBy(token as string, newer, s, kind, audience);
      if (outcome === UNKNOWN_KEY) {
        outcome = new AccessTokenInvalidError(
          "unknown-key",
          "The access token names a signing key the project does not publish (not a key of this project, or one retired).",
        );
      }
    }
    const claims = outcome instanceof AccessTokenInvalidError ? outcome : claimsOf(outcome, s.projectId, kind);
    if (claims instanceof AccessTokenInvalidError) return { status: "error", error: claims };
    // The audience was accepted; a claim may still say the user is one the caller does not accept.
    const refused = claims.isAnonymous
      ? userKindError(s, "anonymous", accepts)
      : claims.isRestricted
        ? userKindError(s, "restricted", accepts)
        : undefined;
    return refused ? { status: "error", error: refused } : { status: "ok", data: claims };
  } catch (error) {
    if (isAccessTokenInvalidError(error, "jwks-unavailable")) return { status: "error", error };
    throw error;
  }
}

/** The kinds of user a call accepts: its own options, else the verifier's. Anonymous users are restricted users too. */
function acceptsOf(s: Settings, call: VerifyAccessTokenCallOptions | undefined): Accepts {
  const flag = (name: "allowAnonymous" | "allowRestricted", fallback: boolean): boolean => {
    const value = call?.[name];
    if (value === undefined) return fallback;
    if (typeof value !== "boolean") {
      throw new StackConfigurationError(`verify: ${name} must be true or false, got ${JSON.stringify(value)}.`);
    }
    return value;
  };
  const anonymous = flag("allowAnonymous", s.accepts.anonymous);
  return { anonymous, restricted: anonymous || flag("allowRestricted", s.accepts.restricted) };
}

/**
 * What can be refused before any key is fetched, read from the unverified
 * token: it is not a JWT, its algorithm is not the service's (`none` and HS*
 * included), it names no key, it is not for this project or for a kind of user
 * the caller accepts, or its issuer is not the one of its audience. Unknown
 * tokens thus never trigger a fetch; nothing read here is trusted for
 * acceptance (the signature, the audience and the issuer are checked again
 * with the keys).
 */
function precheck(token: unknown, s: Settings, accepts: Accepts): AccessTokenInvalidError | { kind: AudienceKind; audience: string } {
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
  // One audience, as the service sets it (it refuses any other `aud` itself).
  const audience = payload.aud;
  const kind = typeof audience === "string" ? kindOf(audience, s.projectId) : undefined;
  if (typeof audience !== "string" || kind === undefined) return audienceError(s);
  const refused = userKindError(s, kind, accepts);
  if (refused) return refused;
  if (typeof payload.iss !== "string" || !s.issuers[kind].includes(payload.iss)) return issuerError(s, kind);
  return { kind, audience };
}

/** The kind of user `audience` names for `projectId`, or undefined when it is not one of the project's. */
function kindOf(audience: string, projectId: string): AudienceKind | undefined {
  return (Object.keys(KINDS) as AudienceKind[]).find((kind) => audience === projectId + KINDS[kind].audienceSuffix);
}

/** The refusal of a token of `kind` when the call does not accept such users, else undefined. */
function userKindError(s: Settings, kind: AudienceKind, accepts: Accepts): AccessTokenInvalidError | undefined {
  if (kind === "normal" || (kind === "anonymous" ? accepts.anonymous : accepts.restricted)) return undefined;
  const option = kind === "anonymous" ? "allowAnonymous" : "allowRestricted";
  return new AccessTokenInvalidError(
    "audience",
    `The access token belongs to ${kind === "anonymous" ? "an anonymous" : "a restricted"} user of project ${s.projectId}, ` +
      `and ${kind} users are not accepted: pass \`${option}: true\` to accept them.`,
  );
}

const UNKNOWN_KEY = Symbol("unknown key");

/** The verified payload, UNKNOWN_KEY when `keys` has no key for the token, or why it fails. */
async function verifiedBy(
  token: string,
  keys: KeySet,
  s: Settings,
  kind: AudienceKind,
  audience: string,
): Promise<JWTPayload | typeof UNKNOWN_KEY | AccessTokenInvalidError> {
  try {
    const { payload } = await jwtVerify(token, keys.getKey, {
      algorithms: ALGORITHMS,
      issuer: [...s.issuers[kind]],
      audience,
      requiredClaims: ["sub", "exp"],
      currentDate: new Date(s.now()),
      clockTolerance: s.clockToleranceSec,
    });
    return payload;
  } catch (error) {
    return joseFailure(error, s, kind);
  }
}

/** jose's error as ours, matched on its `code` (stable across copies of jose). Anything else is not the token's fault: rethrown. */
function joseFailure(error: unknown, s: Settings, kind: AudienceKind): typeof UNKNOWN_KEY | AccessTokenInvalidError {
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
      if (claim === "iss") return issuerError(s, kind);
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

function issuerError(s: Settings, kind: AudienceKind): AccessTokenInvalidError {
  const issuers = s.issuers[kind];
  const expected =
    issuers.length > 0 ? issuers.join(" or ") : `the service's issuer of ${kind} users' tokens, which no \`issuer\` given names`;
  return new AccessTokenInvalidError(
    "issuer",
    `The access token was not issued by ${expected} (its \`iss\`). If the API is reached through a proxy, set \`issuer\`.`,
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
  const given: readonly unknown[] | undefined = o.issuer === undefined ? undefined : typeof o.issuer === "string" ? [o.issuer] : o.issuer;
  if (
    given !== undefined &&
    (!Array.isArray(given) || given.length === 0 || given.some((issuer) => typeof issuer !== "string" || issuer === ""))
  ) {
    throw new StackConfigurationError(`${where}: issuer must be a non-empty string or a list of them.`);
  }
  const accepts = (name: "allowAnonymous" | "allowRestricted"): boolean => {
    const value = o[name] ?? false;
    if (typeof value !== "boolean") {
      throw new StackConfigurationError(`${where}: ${name} must be true or false, got ${JSON.stringify(value)}.`);
    }
    return value;
  };
  const anonymous = accepts("allowAnonymous");
  const number = (name: keyof typeof DEFAULTS, least: number): number => {
    const value = o[name] ?? DEFAULTS[name];
    if (typeof value !== "number" || !Number.isFinite(value) || value < least) {
      throw new StackConfigurationError(`${where}: ${name} must be a finite number of at least ${least}, got ${String(value)}.`);
    }
    return value;
  };
  const jwks = `${baseUrl}${API_PREFIX}/projects/${encodeURIComponent(o.projectId)}/.well-known/jwks.json`;
  return {
    projectId: o.projectId,
    issuers: issuersOf(o.projectId, baseUrl, given as readonly string[] | undefined),
    jwksUrls: { normal: jwks, restricted: jwks + KINDS.restricted.query, anonymous: jwks + KINDS.anonymous.query },
    accepts: { anonymous, restricted: anonymous || accepts("allowRestricted") },
    fetch: o.fetch ?? platformEnvironment.fetch,
    now: o.now ?? platformEnvironment.now,
    cacheMaxAgeMs: number("cacheMaxAgeMs", 0),
    cooldownMs: number("cooldownMs", 0),
    timeoutMs: number("timeoutMs", 1),
    clockToleranceSec: number("clockToleranceSec", 0),
  };
}

/**
 * The issuers accepted with each kind's audience. The service makes them from its
 * API's URL: `<api>/api/v1/projects/<id>` and its `-restricted-users` and
 * `-anonymous-users` siblings; 2.8.11's global issuer goes with the project's
 * own audience only (its `aud` is all that ties it to a project).
 */
function issuersOf(projectId: string, baseUrl: string, given: readonly string[] | undefined): Record<AudienceKind, readonly string[]> {
  const normalPath = `${API_PREFIX}${KINDS.normal.issuerPath}/${projectId}`;
  const bases =
    given === undefined
      ? [baseUrl]
      : given.filter((issuer) => issuer.endsWith(normalPath)).map((issuer) => issuer.slice(0, -normalPath.length));
  const issuersFor = (kind: AudienceKind) => bases.map((base) => `${base}${API_PREFIX}${KINDS[kind].issuerPath}/${projectId}`);
  return {
    normal: [...new Set([...(given ?? issuersFor("normal")), GLOBAL_ISSUER])],
    restricted: issuersFor("restricted"),
    anonymous: issuersFor("anonymous"),
  };
}

function isHttpUrl(url: string): boolean {
  try {
    return /^https?:$/.test(new URL(url).protocol);
  } catch {
    return false;
  }
}

function cacheFor(s: Settings, kind: AudienceKind): JwksCache {
  const { fetch, cacheMaxAgeMs, cooldownMs, timeoutMs } = s;
  const { setTimeout, clearTimeout } = platformEnvironment;
  return new JwksCache({ url: s.jwksUrls[kind], env: { fetch, setTimeout, clearTimeout }, cacheMaxAgeMs, cooldownMs, timeoutMs });
}

/** verifyAccessToken's key sets: per fetch function (collected with it), then per URL and bounds, least recently used forgotten first. */
const sharedCaches = new WeakMap<Fetch, LruMap<string, JwksCache>>();

function sharedCacheFor(s: Settings, kind: AudienceKind): JwksCache {
  let byKey = sharedCaches.get(s.fetch);
  if (!byKey) sharedCaches.set(s.fetch, (byKey = new LruMap(SHARED_CACHE_LIMIT)));
  const key = [s.jwksUrls[kind], s.cacheMaxAgeMs, s.cooldownMs, s.timeoutMs].join("\n");
  let cache = byKey.get(key);
  if (!cache) byKey.set(key, (cache = cacheFor(s, kind)));
  return cache;
}
