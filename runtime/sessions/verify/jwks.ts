// A project's published signing keys (`getProjectJwks`), fetched through the
// injected fetch and cached. jose's createRemoteJWKSet would fetch with the
// global fetch, so the fetching is ours and jose only gets a local key set.
//
// Bounds: one fetch at a time, shared by every caller waiting for it (jose's
// `reload` in src/jwks/remote.ts); a set older than `cacheMaxAgeMs` is fetched
// again; a token with an unknown `kid` (the service rotated its key) refetches
// at most once per `cooldownMs`, so tokens with made-up kids cannot make every
// verification a request; and after a failed fetch the next waits
// FAILURE_COOLDOWN_MS, so an outage of the service costs one request a second,
// not one per verification.
import { createLocalJWKSet, type JSONWebKeySet, type JWTVerifyGetKey } from "jose";
import { raceAbort } from "../../platform/abort.js";
import type { Environment } from "../../platform/env.js";
import { NetworkError } from "../../errors.js";
import { answerHeader } from "../../http/answer-headers.js";
import { HttpError, RequestTimeoutError, UnexpectedRedirectError } from "../../http/request-errors.js";
import type { AudienceKind } from "./claims.js";
import { AccessTokenInvalidError } from "./errors.js";

/** After a failed fetch, further fetches wait this long (as refreshes do, runtime/constants.ts). */
/** The key-set cache of each kind of user: a verifier's own, or verifyAccessToken's shared ones. */
export type KeySets = (kind: AudienceKind) => JwksCache;

export const FAILURE_COOLDOWN_MS = 1_000;
/** More keys than any project publishes; a larger "set" is not the service's and is refused unread. */
const MAX_KEYS = 100;

export interface KeySet {
  readonly getKey: JWTVerifyGetKey;
  /** The `kid`s it holds, for messages. */
  readonly kids: ReadonlySet<string>;
  /** When it was fetched (the environment's clock). */
  readonly fetchedAt: number;
}

export interface JwksCacheOptions {
  readonly url: string;
  readonly env: Pick<Environment, "fetch" | "setTimeout" | "clearTimeout">;
  readonly cacheMaxAgeMs: number;
  readonly cooldownMs: number;
  readonly timeoutMs: number;
}

export class JwksCache {
  readonly options: JwksCacheOptions;
  #current: KeySet | undefined;
  #pending: Promise<KeySet> | undefined;
  #failure: { readonly at: number; readonly error: AccessTokenInvalidError } | undefined;

  constructor(options: JwksCacheOptions) {
    this.options = options;
  }

  /** The cached set while younger than `cacheMaxAgeMs`, else a freshly fetched one. Rejects with a "jwks-unavailable" error. */
  keySet(now: () => number, signal?: AbortSignal | null): Promise<KeySet> {
    const current = this.#current;
    if (current && now() - current.fetchedAt < this.options.cacheMaxAgeMs) return Promise.resolve(current);
    return raceAbort(this.#reload(now), signal);
  }

  /**
   * A set that may hold a `kid` that `seen` lacks: one fetched since `seen` when
   * there is one (a fetch in flight included), `seen` itself within
   * `cooldownMs` of its fetch, else a new fetch.
   */
  refetched(seen: KeySet, now: () => number, signal?: AbortSignal | null): Promise<KeySet> {
    if (this.#pending) return raceAbort(this.#pending, signal);
    const current = this.#current;
    if (current && current !== seen) return Promise.resolve(current);
    if (now() - seen.fetchedAt < this.options.cooldownMs) return Promise.resolve(seen);
    return raceAbort(this.#reload(now), signal);
  }

  #reload(now: () => number): Promise<KeySet> {
    if (this.#pending) return this.#pending;
    const failure = this.#failure;
    if (failure && now() - failure.at < FAILURE_COOLDOWN_MS) return Promise.reject(failure.error);
    const pending: Promise<KeySet> = fetchKeySet(this.options, now)
      .then(
        (set) => {
          this.#current = set;
          this.#failure = undefined;
          return set;
        },
        (error: unknown) => {
          this.#failure = { at: now(), error: error as AccessTokenInvalidError };
          throw error;
        },
      )
      .finally(() => {
        // Only the fetch that is still the current one clears the slot.
        if (this.#pending === pending) this.#pending = undefined;
      });
    this.#pending = pending;
    return pending;
  }
}

/**
 * Cloudflare Workers (where `WebSocketPair` is global) have refused the `cache`
 * and `credentials` request options; the reference SDK leaves them out there
 * (wire contract §1). The service answers `cache-control: no-store` anyway.
 */
function requestInit(signal: AbortSignal): RequestInit {
  const init: RequestInit = { method: "GET", headers: { accept: "application/json" }, redirect: "manual", signal };
  if ("WebSocketPair" in globalThis) return init;
  return { ...init, cache: "no-store", credentials: "omit" };
}

/** One GET of the key set, bounded by `timeoutMs`; every failure is a "jwks-unavailable" error whose cause says what happened. */
async function fetchKeySet(o: JwksCacheOptions, now: () => number): Promise<KeySet> {
  const { env, url, timeoutMs } = o;
  const describe = `GET ${url}`;
  const attempt = new AbortController();
  const timer = env.setTimeout(() => attempt.abort(), timeoutMs);
  try {
    let response: Response;
    try {
      // Raced as well as signalled: an injected fetch that ignores signals cannot hold the verification.
      response = await raceAbort(env.fetch(new Request(url, requestInit(attempt.signal))), attempt.signal);
    } catch (cause) {
      if (attempt.signal.aborted) {
        throw unavailable(
          `no answer within ${timeoutMs} ms`,
          new RequestTimeoutError(`${describe} timed out after ${timeoutMs} ms.`, timeoutMs),
        );
      }
      throw unavailable("the request failed on the network", new NetworkError(`Could not reach ${describe}.`, { cause }));
    }
    // Browsers answer a manual redirect with an opaque one (status 0); Node with the 3xx itself.
    if (response.type === "opaqueredirect" || (response.status >= 300 && response.status <= 399)) {
      void response.body?.cancel().catch(() => {});
      const cause = new UnexpectedRedirectError(response.status, "", `${describe} was redirected; the redirect was not followed.`);
      throw unavailable("it was answered with a redirect, which was not followed (check the base URL)", cause);
    }
    let text: string;
    try {
      text = await raceAbort(response.text(), attempt.signal);
    } catch (cause) {
      throw unavailable("its answer could not be read", new NetworkError(`The answer to ${describe} broke off.`, { cause }));
    }
    if (!response.ok) {
      const code = answerHeader(response.headers, "known-error");
      const status = `HTTP ${response.status}${code ? ` (${code})` : ""}`;
      throw unavailable(`it was answered with ${status}`, new HttpError(response.status, text, `${describe} answered ${status}.`));
    }
    return keySetOf(text, now());
  } finally {
    env.clearTimeout(timer);
  }
}

/** The key set in an answer's body, checked: a JSON object with `keys`, every member a public JWK. */
function keySetOf(text: string, fetchedAt: number): KeySet {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (cause) {
    throw unavailable("its answer is not JSON", cause);
  }
  const keys = typeof body === "object" && body !== null ? (body as { keys?: unknown }).keys : undefined;
  if (!Array.isArray(keys) || keys.length > MAX_KEYS) throw unavailable("its answer is not a JSON Web Key Set");
  for (const key of keys) {
    if (typeof key !== "object" || key === null || typeof (key as { kty?: unknown }).kty !== "string") {
      throw unavailable("a member of its key set is not a JSON Web Key");
    }
    // A published private key would mean the service is broken or impersonated: trust nothing it signed.
    if ("d" in key) throw unavailable("its key set holds a private key");
  }
  let getKey: JWTVerifyGetKey;
  try {
    getKey = createLocalJWKSet(body as JSONWebKeySet);
  } catch (cause) {
    throw unavailable("its key set is malformed", cause);
  }
  const kids = new Set(keys.map((key: { kid?: unknown }) => key.kid).filter((kid): kid is string => typeof kid === "string"));
  return { getKey, kids, fetchedAt };
}

function unavailable(why: string, cause?: unknown): AccessTokenInvalidError {
  return new AccessTokenInvalidError(
    "jwks-unavailable",
    `The project's signing keys (its JWKS) could not be read: ${why}. The token was not judged; try again later.`,
    cause === undefined ? {} : { cause },
  );
}
