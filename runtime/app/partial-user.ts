// getPartialUser({ from: "token" }): the signed-in user as the session's access
// token describes it, read without a request (the newest official SDK's API);
// `from: "convex"` reads it from a Convex function's context (convex.ts, loaded
// with its first call).
import { StackConfigurationError } from "../errors.js";
import type { TokenStoreInit } from "../sessions/tokens/resolve.js";
import { unverifiedJwtClaims } from "../sessions/unverified-jwt.js";
import type { RestrictedReason } from "./objects/user.js";
import { restrictionOf } from "./objects/user.js";
import type { TokenStoreContext } from "./token-store-contexts.js";
import type { ConvexCtx } from "./convex-context.js";
import { loadConvex } from "./flows/loaders.js";

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
  /** When the user signed up (`signed_up_at`, in seconds): sent since 2.8.86, null in older tokens. */
  readonly signedUpAt: Date | null;
}

/**
 * What `getPartialUser` takes: where the user is read from, whether an anonymous user counts, and
 * whose tokens. `from: "token"` reads the session's access token; `from: "convex"` the identity
 * Convex made of the token a Convex function was called with (`ctx`, the function's context).
 *
 * @example
 * ```ts
 * const options: GetPartialUserOptions = { from: "token", or: "anonymous-if-exists" };
 * const partial = await app.getPartialUser(options);
 * ```
 */
export type GetPartialUserOptions =
  | {
      /** Where the user is read from: `"token"`, the session's access token. */
      readonly from: "token";
      /** `"return-null"` (default): an anonymous user reads as null; `"anonymous-if-exists"`: it is answered too. */
      readonly or?: "return-null" | "anonymous-if-exists";
      /** The tokens to read, in place of the app's store (as getUser's `tokenStore`). */
      readonly tokenStore?: TokenStoreInit;
    }
  | {
      /** Where the user is read from: `"convex"`, the identity of a Convex function's caller. */
      readonly from: "convex";
      /** The Convex function's context; its `auth.getUserIdentity()` is read. */
      readonly ctx: ConvexCtx;
      /** Taken for the official SDK's sake; an anonymous caller Convex accepted is answered whatever it says. */
      readonly or?: "return-null" | "anonymous-if-exists";
      /** Not read: the identity is Convex's. */
      readonly tokenStore?: TokenStoreInit;
    };

/**
 * getPartialUser of an app whose session `options` names (read with `sessionOf`,
 * as getUser reads it): the options checked, then the session's access token read,
 * or the Convex identity.
 */
export async function partialUser(
  options: GetPartialUserOptions,
  sessionOf: (options: GetPartialUserOptions) => Promise<TokenStoreContext>,
): Promise<TokenPartialUser | null> {
  const from = typeof options === "object" && options !== null ? (options as { from?: unknown }).from : undefined;
  if (from !== "token" && from !== "convex") {
    throw new StackConfigurationError(
      `getPartialUser reads the user from the access token or from Convex: pass { from: "token" } or { from: "convex", ctx }, got ${JSON.stringify(from)}.`,
    );
  }
  const or = options.or ?? "return-null";
  if (or !== "return-null" && or !== "anonymous-if-exists") {
    throw new StackConfigurationError(`getPartialUser: or must be "return-null" or "anonymous-if-exists", got ${JSON.stringify(or)}.`);
  }
  if (options.from === "convex") return (await loadConvex()).convexPartialUser(options.ctx);
  const { ctx } = await sessionOf(options);
  return partialUserOf(ctx.sessions().peekCurrent().accessToken, ctx.env.now(), or);
}

/**
 * The partial user of `accessToken` at `now`: null without a token, with one that has
 * expired or cannot be read, and for an anonymous user unless `or` is "anonymous-if-exists".
 */
export function partialUserOf(accessToken: string | null, now: number, or: "return-null" | "anonymous-if-exists"): TokenPartialUser | null {
  const claims = accessToken === null ? null : unverifiedJwtClaims(accessToken);
  if (claims === null) return null;
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
  const signedUpAt = claims["signed_up_at"];
  const text = (name: string) => (typeof claims[name] === "string" ? (claims[name] as string) : null);
  return Object.freeze({
    id: claims.sub,
    displayName: text("name"),
    primaryEmail: text("email"),
    primaryEmailVerified: claims["email_verified"] === true,
    isAnonymous,
    isMultiFactorRequired: claims["requires_totp_mfa"] === true,
    ...restriction,
    signedUpAt: typeof signedUpAt === "number" && Number.isFinite(signedUpAt) ? new Date(signedUpAt * 1000) : null,
  });
}
