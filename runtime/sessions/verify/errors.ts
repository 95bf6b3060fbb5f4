// Why an access token was not accepted by local verification. One class with a
// `reason`, rather than one class per reason: a server answers every reason the
// same way (401), except "expired" (the client may refresh and retry) and
// "jwks-unavailable" (the service's keys could not be read: a 503, not the
// token's fault), and a `reason` switch covers both.

import { isStackError, StackError } from "../../errors.js";

/** Why an access token was refused (an {@link AccessTokenInvalidError}'s `reason`). */
export type AccessTokenInvalidReason =
  /** Not a compact JWS, undecodable, no `kid`, or claims of the wrong type or missing (`sub`, `exp`). */
  | "malformed"
  /** The signature does not match the key the `kid` names: the token was altered or forged. */
  | "signature"
  /** Past its `exp` (beyond the clock tolerance); `expiredAt` says when. */
  | "expired"
  /** Its `nbf` is still ahead (beyond the clock tolerance). */
  | "not-yet-valid"
  /** Its `iss` is not the issuer that goes with its audience (the project's, of that kind of user, or 2.8.11's for the project's own audience). */
  | "issuer"
  /**
   * Its `aud` is not the project: a token of another project. Or it is an anonymous or
   * restricted user's (by its audience `<id>:anon` / `<id>:restricted`, or its claims)
   * and the caller does not accept such users (`allowAnonymous`, `allowRestricted`).
   */
  | "audience"
  /** The project's key set, even refetched, has no key with the token's `kid`. */
  | "unknown-key"
  /** The header's `alg` is not ES256 (the service signs with nothing else): `none` and HS* included. */
  | "algorithm"
  /** The project's key set could not be fetched or was not a key set: the token was not judged. */
  | "jwks-unavailable";

/** An access token that {@link verifyAccessToken} or an {@link AccessTokenVerifier} refused, with the `reason`. */
export class AccessTokenInvalidError extends StackError {
  override readonly name = "AccessTokenInvalidError" as const;
  readonly reason: AccessTokenInvalidReason;
  /** For "expired": when the token expired (its `exp`). */
  readonly expiredAt: Date | undefined;

  constructor(reason: AccessTokenInvalidReason, message: string, options: { readonly cause?: unknown; readonly expiredAt?: Date } = {}) {
    super(message, "cause" in options ? { cause: options.cause } : undefined);
    this.reason = reason;
    this.expiredAt = options.expiredAt;
  }

  /**
   * Name, reason and message (and `expiredAt` as an ISO string, for "expired"):
   * what a log or an API answer may carry (never the token, which no field holds).
   *
   * @example
   * ```ts
   * const result = await verifyAccessToken(token, { projectId });
   * if (result.status === "error") {
   *   return Response.json({ error: result.error.toJSON() }, { status: 401 });
   * }
   * ```
   */
  toJSON(): { name: "AccessTokenInvalidError"; reason: AccessTokenInvalidReason; message: string; expiredAt?: string } {
    return {
      name: this.name,
      reason: this.reason,
      message: this.message,
      ...(this.expiredAt !== undefined && { expiredAt: this.expiredAt.toISOString() }),
    };
  }
}

/**
 * True when `value` is an AccessTokenInvalidError (of one of `reasons`, when
 * given). Checks the brand and name, not `instanceof`, so an error made by
 * another copy of the package counts too.
 *
 * @example
 * ```ts
 * const { session, error } = await getSessionFromRequest(request, { projectId });
 * if (isAccessTokenInvalidError(error, "jwks-unavailable")) {
 *   return new Response("Try again later", { status: 503 });
 * }
 * ```
 */
export function isAccessTokenInvalidError(
  value: unknown,
  ...reasons: readonly AccessTokenInvalidReason[]
): value is AccessTokenInvalidError {
  if (!isStackError(value, "AccessTokenInvalidError")) return false;
  return reasons.length === 0 || reasons.includes((value as { reason?: unknown }).reason as AccessTokenInvalidReason);
}
