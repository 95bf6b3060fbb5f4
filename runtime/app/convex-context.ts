// What stackkit reads of Convex, typed by the parts used (no dependency on
// convex): a function's context, the identity Convex made of the caller's
// access token, and what its client's `setAuth` calls a token getter with. Apart
// from convex.ts, which is loaded on first use, so that the apps can name them.

/**
 * The user Convex made of an access token it accepted (its `UserIdentity`): `subject` is the
 * user's id, and the token's other claims are there by name (`name`, `email`, `email_verified`,
 * `is_anonymous`, `is_restricted`, `restricted_reason`, `requires_totp_mfa`, `signed_up_at`).
 */
export interface ConvexUserIdentity {
  readonly subject: string;
  readonly [claim: string]: unknown;
}

/**
 * The context of a Convex query, mutation or action (`GenericQueryCtx` and the others), as far as
 * stackkit reads it: its `auth.getUserIdentity()`. Any Convex context fits.
 */
export interface ConvexCtx {
  readonly auth: { getUserIdentity(): Promise<ConvexUserIdentity | null> };
}

/** What the Convex client's `setAuth` calls the token getter with. */
export interface ConvexAuthArgs {
  /** True when Convex refused the last token: a newly issued one is wanted. */
  readonly forceRefreshToken: boolean;
}
