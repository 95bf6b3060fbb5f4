import { decodeJwt } from "jose";

/**
 * When an access token expires, in milliseconds since the epoch, read from its
 * `exp` claim without checking the signature (the service checks it; the client
 * only needs to know when to refresh). A token without `exp` never expires; one
 * that cannot be decoded counts as already expired, so it is refreshed, not sent.
 */
export function accessTokenExpiresAt(token: string): number {
  try {
    const { exp } = decodeJwt(token);
    return typeof exp === "number" ? exp * 1000 : Number.POSITIVE_INFINITY;
  } catch {
    return Number.NEGATIVE_INFINITY;
  }
}
