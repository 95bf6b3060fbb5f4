import { unverifiedJwtClaims } from "./unverified-jwt.js";
import { LruMap } from "../platform/lru.js";

/** What the client reads of an access token, without checking its signature (the service checks it). */
export interface AccessTokenFacts {
  /**
   * When it expires, in milliseconds since the epoch, from its `exp` claim: the client only needs to know when to
   * refresh. A token without `exp` never expires; one that cannot be decoded counts as already expired, so it is
   * refreshed, not sent.
   */
  readonly expiresAt: number;
  /**
   * Whether the service must be told that the request takes an anonymous or restricted user
   * (`x-stack-allow-anonymous-user: true`): true when the token's own claims say its user is one. Services since
   * 2.8.86 write those claims and refuse such a token without the header; 2.8.11 writes none, ignores the header,
   * and does not allow it in a browser's preflight, so it is never sent there.
   */
  readonly needsAnonymousUserHeader: boolean;
}

/** Reads an access token's {@link AccessTokenFacts}. */
export function decodeAccessToken(token: string): AccessTokenFacts {
  const claims = unverifiedJwtClaims(token);
  if (claims === null) return { expiresAt: Number.NEGATIVE_INFINITY, needsAnonymousUserHeader: false };
  const { exp, is_anonymous, is_restricted, restricted_reason } = claims;
  return {
    expiresAt: typeof exp === "number" ? exp * 1000 : Number.POSITIVE_INFINITY,
    // As the service's gate reads them: a restricted reason, or an anonymous user (restricted by being one).
    needsAnonymousUserHeader:
      is_anonymous === true || is_restricted === true || (restricted_reason !== undefined && restricted_reason !== null),
  };
}

/** How many tokens' facts are remembered: as many as the sessions a token store keeps. */
export const ACCESS_TOKEN_CACHE_LIMIT = 1_000;

/**
 * `decode` remembered per token string. A token's facts are a function of its
 * text, and the pipeline asks for them on every request: decoding it (base64
 * and JSON) each time would be a measurable part of a call's cost (issue 13 §5).
 * Bounded, as every cache keyed by callers' values is (wire contract §14).
 */
export function accessTokenCache(
  decode: (token: string) => AccessTokenFacts = decodeAccessToken,
  limit: number = ACCESS_TOKEN_CACHE_LIMIT,
): (token: string) => AccessTokenFacts {
  const known = new LruMap<string, AccessTokenFacts>(limit);
  return (token) => {
    let facts = known.get(token);
    if (facts === undefined) {
      facts = decode(token);
      known.set(token, facts);
    }
    return facts;
  };
}

/** What the client reads of an access token (see decodeAccessToken), decoded once per token. */
export const accessTokenFacts: (token: string) => AccessTokenFacts = accessTokenCache();
