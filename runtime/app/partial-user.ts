// getPartialUser({ from: "token" }): the signed-in user as the session's access
// token describes it, read without a request (the newest official SDK's API).
// Loaded with its first call.
import { decodeJwt } from "jose/jwt/decode";
import type { JWTPayload } from "jose";
import type { RestrictedReason } from "./objects/user.js";
import { restrictionOf } from "./objects/user.js";

/**
 * The user as the access token describes it (`getPartialUser({ from: "token" })`): no request,
 * so only what the token carries. Tokens of services since 2.8.86 carry all of it; 2.8.11's
 * carry the id alone, and the other fields then read as null and false.
 */
export interface TokenPartialUser {
  readonly id: string;
  readonly displayName: string | null;
  readonly primaryEmail: string | null;
  readonly primaryEmailVerified: boolean;
  readonly isAnonymous: boolean;
  readonly isMultiFactorRequired: boolean;
  readonly isRestricted: boolean;
  readonly restrictedReason: RestrictedReason | null;
}

/**
 * The partial user of `accessToken` at `now`: null without a token, with one that has
 * expired or cannot be read, and for an anonymous user unless `or` is "anonymous-if-exists".
 */
export function partialUserOf(accessToken: string | null, now: number, or: "return-null" | "anonymous-if-exists"): TokenPartialUser | null {
  if (accessToken === null) return null;
  let claims: JWTPayload;
  try {
    claims = decodeJwt(accessToken);
  } catch {
    return null;
  }
  if (typeof claims.sub !== "string" || (typeof claims.exp === "number" && claims.exp * 1000 <= now)) return null;
  const audiences = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
  const isAnonymous = claims["is_anonymous"] === true || audiences.some((aud) => typeof aud === "string" && aud.endsWith(":anon"));
  if (isAnonymous && or !== "anonymous-if-exists") return null;
  const reason = claims["restricted_reason"] as { type?: unknown } | null | undefined;
  const restriction = restrictionOf({
    is_anonymous: isAnonymous,
    ...(typeof claims["is_restricted"] === "boolean" && { is_restricted: claims["is_restricted"] }),
    ...(reason && typeof reason.type === "string" && { restricted_reason: reason as RestrictedReason }),
  });
  const text = (name: string) => (typeof claims[name] === "string" ? (claims[name] as string) : null);
  return Object.freeze({
    id: claims.sub,
    displayName: text("name"),
    primaryEmail: text("email"),
    primaryEmailVerified: claims["email_verified"] === true,
    isAnonymous,
    isMultiFactorRequired: claims["requires_totp_mfa"] === true,
    ...restriction,
  });
}
