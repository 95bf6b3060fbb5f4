// The verification of an access token, loaded with a verifier's first verify()
// (verify.ts): the project's key sets (jwks.ts), jose's signature and time checks
// (checks.ts) and the claims (claims.ts), in the order the service's tokens need.
import { LruMap } from "../../platform/lru.js";
import { platformEnvironment, type Fetch } from "../../platform/env.js";
import { precheck, UNKNOWN_KEY, userKindError, verifiedBy } from "./checks.js";
import { claimsOf, type AccessTokenClaims, type AudienceKind } from "./claims.js";
import { AccessTokenInvalidError, isAccessTokenInvalidError } from "./errors.js";
import { JwksCache, type KeySets } from "./jwks.js";
import type { Accepts, Settings } from "./settings.js";
import type { Result } from "../../app/result.js";

/** A verifier's own key-set caches, one per kind of user, made when first needed. */
export function keySetsOf(s: Settings): KeySets {
  const caches = new Map<AudienceKind, JwksCache>();
  return (kind) => {
    let cache = caches.get(kind);
    if (!cache) caches.set(kind, (cache = cacheFor(s, kind)));
    return cache;
  };
}

/** verifyAccessToken's key-set caches, shared among calls with the same fetch, URL and bounds. */
export function sharedKeySetsOf(s: Settings): KeySets {
  return (kind) => sharedCacheFor(s, kind);
}

/** One verification of `token` with the key sets of `keySets`, accepting the users `accepts` allows. */
export async function verifyWith(
  keySets: KeySets,
  s: Settings,
  accepts: Accepts,
  token: unknown,
  signal: AbortSignal | null | undefined,
): Promise<Result<AccessTokenClaims, AccessTokenInvalidError>> {
  const checked = precheck(token, s, accepts);
  if (checked instanceof AccessTokenInvalidError) return { status: "error", error: checked };
  const { kind, audience } = checked;
  const cache = keySets(kind);
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

/** A key-set cache of its own for the keys of `kind`'s users (a verifier keeps one per kind). */
function cacheFor(s: Settings, kind: AudienceKind): JwksCache {
  const { fetch, cacheMaxAgeMs, cooldownMs, timeoutMs } = s;
  const { setTimeout, clearTimeout } = platformEnvironment;
  return new JwksCache({ url: s.jwksUrls[kind], env: { fetch, setTimeout, clearTimeout }, cacheMaxAgeMs, cooldownMs, timeoutMs });
}

/** How many key sets `verifyAccessToken` keeps per fetch function (up to three per base URL and project). */
const SHARED_CACHE_LIMIT = 100;

/** verifyAccessToken's key sets: per fetch function (collected with it), then per URL and bounds, least recently used forgotten first. */
const sharedCaches = new WeakMap<Fetch, LruMap<string, JwksCache>>();

/** The key-set cache verifyAccessToken shares among calls with the same fetch, URL and bounds. */
function sharedCacheFor(s: Settings, kind: AudienceKind): JwksCache {
  let byKey = sharedCaches.get(s.fetch);
  if (!byKey) sharedCaches.set(s.fetch, (byKey = new LruMap(SHARED_CACHE_LIMIT)));
  const key = [s.jwksUrls[kind], s.cacheMaxAgeMs, s.cooldownMs, s.timeoutMs].join("\n");
  let cache = byKey.get(key);
  if (!cache) byKey.set(key, (cache = cacheFor(s, kind)));
  return cache;
}
