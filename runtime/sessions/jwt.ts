// The subpath, not the package index: an app whose first load decodes tokens need not carry jose's verification.
import { decodeJwt } from "jose/jwt/decode";
import { LruMap } from "../platform/lru.js";

/**
 * When an access token expires, in milliseconds since the epoch, read from its
 * `exp` claim without checking the signature (the service checks it; the client
 * only needs to know when to refresh). A token without `exp` never expires; one
 * that cannot be decoded counts as already expired, so it is refreshed, not sent.
 */
export function decodeAccessTokenExpiry(token: string): number {
  try {
    const { exp } = decodeJwt(token);
    return typeof exp === "number" ? exp * 1000 : Number.POSITIVE_INFINITY;
  } catch {
    return Number.NEGATIVE_INFINITY;
  }
}

/** How many tokens' expiries are remembered: as many as the sessions a token store keeps. */
export const TOKEN_EXPIRY_CACHE_LIMIT = 1_000;

/**
 * `decode` remembered per token string. A token's expiry is a function of its
 * text, and the session asks for it on every request: decoding it (base64 and
 * JSON) each time would be a measurable part of a call's cost (issue 13 §5).
 * Bounded, as every cache keyed by callers' values is (wire contract §14).
 */
export function tokenExpiryCache(
  decode: (token: string) => number = decodeAccessTokenExpiry,
  limit: number = TOKEN_EXPIRY_CACHE_LIMIT,
): (token: string) => number {
  const expiries = new LruMap<string, number>(limit);
  return (token) => {
    let expiresAt = expiries.get(token);
    if (expiresAt === undefined) {
      expiresAt = decode(token);
      expiries.set(token, expiresAt);
    }
    return expiresAt;
  };
}

/** The expiry of an access token (see decodeAccessTokenExpiry), decoded once per token. */
export const accessTokenExpiresAt: (token: string) => number = tokenExpiryCache();
