// getUser({ verify: "local" }) and verifyAccessToken on a server app: the
// identity an access token proves, checked against the project's published keys
// (runtime/sessions/verify) instead of asking the service with GET /users/me. Loaded with
// the first such call, with jose's verification.
import { signalOf, untilAborted, type CallOptions } from "../call-options.js";
import { StackConfigurationError, UserNotSignedInError } from "../../errors.js";
import type { AccessTokenClaims } from "../../sessions/verify/claims.js";
import { createAccessTokenVerifier, type AccessTokenVerifier } from "../../sessions/verify/verify.js";
import type { ClientAppContext } from "../context.js";
import type { TokenStoreContext } from "../token-store-contexts.js";

/**
 * What getUser({ verify: "local" }) answers: who the request's access token
 * proves it is, as data. The full user is one `getUser({ tokenStore })` away,
 * read from the service only when it is needed.
 */
export interface VerifiedServerUser {
  /** The user's id (the token's `sub`). */
  readonly id: string;
  /** Whether the token is an anonymous user's (which only `or: "anonymous-if-exists"` answers). */
  readonly isAnonymous: boolean;
  /** Whether the token is a restricted user's, anonymous users included (which only `or: "anonymous-if-exists"` answers). */
  readonly isRestricted: boolean;
  /**
   * Everything the token proves: project, session (refresh-token) id, issue and expiry
   * times, what newer services add (e-mail, name, selected team, …), the raw payload.
   */
  readonly claims: AccessTokenClaims;
}

/**
 * What `or` may be with `verify: "local"`: nothing that needs a request of its own.
 * "anonymous-if-exists" also accepts the tokens of anonymous and restricted users
 * (their audiences `<projectId>:anon` and `<projectId>:restricted`); the others count
 * such a user as nobody signed in.
 */
export type VerifiedUserOr = "return-null" | "throw" | "anonymous-if-exists";

const VERIFIED_OR: readonly string[] = ["return-null", "throw", "anonymous-if-exists", "anonymous-if-exists[deprecated]"];

/** One verifier per app context, so the project's keys are fetched once and cached; each call says which users it accepts. */
const verifiers = new WeakMap<ClientAppContext, AccessTokenVerifier>();

export function verifierOf(ctx: ClientAppContext): AccessTokenVerifier {
  let verifier = verifiers.get(ctx);
  if (verifier === undefined) {
    verifier = createAccessTokenVerifier({ projectId: ctx.projectId, baseUrl: ctx.baseUrl, fetch: ctx.env.fetch, now: ctx.env.now });
    verifiers.set(ctx, verifier);
  }
  return verifier;
}

/**
 * The verified identity of `session`'s access token (refreshed through the token
 * endpoint first when it is due, as every call does), or what `or` asks for when
 * there is none: no token, an invalid one, or an anonymous or restricted user unless
 * "anonymous-if-exists" (whose tokens are refused by their audience otherwise). A
 * token that cannot be judged because the project's keys could not be read rejects
 * with that AccessTokenInvalidError ("jwks-unavailable").
 */
export async function verifiedUserOf(
  appCtx: ClientAppContext,
  session: TokenStoreContext,
  or: string | undefined,
  call: CallOptions,
): Promise<VerifiedServerUser | null> {
  const wanted = or ?? "return-null";
  if (!VERIFIED_OR.includes(wanted)) {
    throw new StackConfigurationError(
      `getUser({ verify: "local" }) takes or: "return-null", "throw" or "anonymous-if-exists", not ${JSON.stringify(or)}: the others need requests of their own.`,
    );
  }
  // As the reference SDK's getUser: anonymous users only with "anonymous-if-exists", which takes restricted ones too.
  const acceptsAnonymous = wanted.startsWith("anonymous-if-exists");
  const tokens = await untilAborted(session.ctx.sessions().current().getTokens(), call);
  let claims: AccessTokenClaims | null = null;
  if (tokens?.accessToken) {
    const result = await verifierOf(appCtx).verify(tokens.accessToken, { ...signalOf(call), allowAnonymous: acceptsAnonymous });
    if (result.status === "ok") claims = result.data;
    else if (result.error.reason === "jwks-unavailable") throw result.error;
  }
  if (claims !== null && (!claims.isRestricted || acceptsAnonymous)) {
    const verified = claims;
    return Object.freeze({ id: verified.userId, isAnonymous: verified.isAnonymous, isRestricted: verified.isRestricted, claims: verified });
  }
  if (wanted === "throw") {
    throw new UserNotSignedInError("User is not signed in but getUser was called with { verify: 'local', or: 'throw' }");
  }
  return null;
}
