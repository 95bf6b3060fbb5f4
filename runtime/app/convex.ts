// The Convex integration of the official SDK: a Convex function's caller read
// from its context (`ctx.auth.getUserIdentity()`, the identity Convex made of
// the access token it was sent), and the access tokens a Convex client sends.
// No dependency on convex: its context is typed by the one method used
// (convex-context.ts).
// Loaded with the first call that needs it.
import { DEFAULT_MIN_TOKEN_LIFE_MS } from "../constants.js";
import { StackConfigurationError } from "../errors.js";
import { accessTokenFacts } from "../sessions/jwt.js";
import type { Session } from "../sessions/session.js";
import { unverifiedJwtClaims } from "../sessions/unverified-jwt.js";
import type { TokenPartialUser } from "./partial-user.js";
import type { RestrictedReason } from "./objects/user.js";
import { restrictionOf } from "./objects/user.js";
import type { TokenStoreContext } from "./token-store-contexts.js";
import type { ConvexAuthArgs, ConvexCtx, ConvexUserIdentity } from "./convex-context.js";

/** How long ago a token handed to Convex may have been issued, in ms: older ones are refreshed first, as the official SDK does. */
export const CONVEX_MAX_TOKEN_AGE_MS = 75_000;

/** `ctx.auth.getUserIdentity()` of a Convex context, the context checked first. */
async function identityOf(ctx: ConvexCtx, what: string): Promise<ConvexUserIdentity | null> {
  if (typeof ctx !== "object" || ctx === null || typeof ctx.auth?.getUserIdentity !== "function") {
    throw new StackConfigurationError(`${what} needs the Convex function's context: pass { from: "convex", ctx } with its ctx.`);
  }
  const identity = await ctx.auth.getUserIdentity();
  if (identity === null || identity === undefined) return null;
  if (typeof identity.subject !== "string") {
    throw new StackConfigurationError(`${what}: the Convex identity has no subject; is Convex's auth config getConvexProvidersConfig's?`);
  }
  return identity;
}

/**
 * `getPartialUser({ from: "convex", ctx })`: the caller of a Convex function as the identity Convex
 * made of its access token, without a request; null when the caller is not signed in. As in the
 * official SDK an anonymous caller is answered too (with `isAnonymous`): Convex accepts anonymous
 * users' tokens only when its auth config has their issuer.
 */
export async function convexPartialUser(ctx: ConvexCtx): Promise<TokenPartialUser | null> {
  const identity = await identityOf(ctx, "getPartialUser");
  if (identity === null) return null;
  const text = (name: string) => (typeof identity[name] === "string" ? (identity[name] as string) : null);
  const flag = (name: string) => identity[name] === true;
  const reason = identity["restricted_reason"] as { type?: unknown } | null | undefined;
  const restriction = restrictionOf({
    is_anonymous: flag("is_anonymous"),
    ...(typeof identity["is_restricted"] === "boolean" && { is_restricted: identity["is_restricted"] }),
    ...(reason && typeof reason.type === "string" && { restricted_reason: reason as RestrictedReason }),
  });
  const signedUpAt = identity["signed_up_at"];
  return Object.freeze({
    id: identity.subject,
    displayName: text("name"),
    primaryEmail: text("email"),
    // Convex names the standard claim emailVerified; the custom-claim spelling is read first, as the official SDK reads it.
    primaryEmailVerified: typeof identity["email_verified"] === "boolean" ? identity["email_verified"] : flag("emailVerified"),
    isAnonymous: flag("is_anonymous"),
    isMultiFactorRequired: flag("requires_totp_mfa"),
    ...restriction,
    signedUpAt: typeof signedUpAt === "number" && Number.isFinite(signedUpAt) ? new Date(signedUpAt * 1000) : null,
  });
}

/**
 * The server's `getUser({ from: "convex", ctx, or })`: the user whose id Convex's identity names,
 * read with `getUserById` (`GET /users/{id}`); null without an identity, for an unknown user, and
 * for an anonymous user unless `or` is `"anonymous"`.
 */
export async function convexServerUser<U extends { readonly isAnonymous: boolean }>(
  ctx: ConvexCtx,
  or: unknown,
  getUserById: (id: string) => Promise<U | null>,
): Promise<U | null> {
  if (or !== undefined && or !== "return-null" && or !== "anonymous") {
    throw new StackConfigurationError(`getUser({ from: "convex" }): or must be "return-null" or "anonymous", got ${JSON.stringify(or)}.`);
  }
  const identity = await identityOf(ctx, "getUser");
  if (identity === null) return null;
  const user = await getUserById(identity.subject);
  return user !== null && user.isAnonymous && or !== "anonymous" ? null : user;
}

/** When `accessToken` was issued, in ms since the epoch; null when it does not say. */
function issuedAt(accessToken: string): number | null {
  const iat = unverifiedJwtClaims(accessToken)?.iat;
  return typeof iat === "number" ? iat * 1000 : null;
}

/**
 * An access token of `session` for Convex: with at least 20 s left and issued at most 75 s ago,
 * refreshed first otherwise (or always when `force`); null when nobody is signed in or the
 * session cannot get one. A session without a refresh token gives its token while it has 20 s left.
 */
async function convexAccessToken(session: Session, now: number, force: boolean): Promise<string | null> {
  const { accessToken, refreshToken } = session.peek();
  if (refreshToken === null) {
    // Nothing can renew it: handed out as long as it lives, as the request stores' tokens are.
    if (force || accessToken === null) return null;
    return accessTokenFacts(accessToken).expiresAt - now >= DEFAULT_MIN_TOKEN_LIFE_MS ? accessToken : null;
  }
  const issued = accessToken === null ? null : issuedAt(accessToken);
  if (accessToken !== null && (force || (issued !== null && now - issued > CONVEX_MAX_TOKEN_AGE_MS))) {
    session.markAccessTokenExpired(accessToken);
  }
  return (await session.getTokens(DEFAULT_MIN_TOKEN_LIFE_MS))?.accessToken ?? null;
}

/** What `getConvexClientAuth`'s getter answers on the session of `store`: see convexAccessToken. */
export function convexClientAuthToken(store: TokenStoreContext, args: ConvexAuthArgs): Promise<string | null> {
  return convexAccessToken(store.ctx.sessions().current(), store.ctx.env.now(), args?.forceRefreshToken === true);
}

/** `getConvexHttpClientAuth`: the token of `store`'s session, or `""` when there is none. */
export async function convexHttpClientAuth(store: TokenStoreContext): Promise<string> {
  return (await convexAccessToken(store.ctx.sessions().current(), store.ctx.env.now(), false)) ?? "";
}
