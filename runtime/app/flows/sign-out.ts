// Sign-out (wire contract §14: the reference looks the user up first and so
// never signs out an anonymous user, or one whose user lookup fails). Here any
// session that holds a token is ended on the service, and the local session
// always ends: invalid, store cleared.
import { callOf, checkAborted, signalOf, type CallOptions } from "../call-options.js";
import type { ClientAppContext } from "../context.js";
import { isKnownErrorOf } from "../result-of.js";

export interface SignOutRedirects {
  /** The app's redirect to the after-sign-out page. */
  readonly redirectAfterSignOut: (options?: CallOptions) => Promise<void>;
}

/**
 * Known errors that mean the session is already over on the service (its
 * refresh token revoked or expired, its access token unusable, or no token
 * left to send after a failed refresh): signing out has nothing left to do there.
 */
const SESSION_ALREADY_OVER = ["REFRESH_TOKEN_ERROR", "SESSION_AUTHENTICATION_ERROR", "USER_AUTHENTICATION_REQUIRED"] as const;

/**
 * Ends the current session (`DELETE /auth/sessions/current`), clears the token
 * store, then goes to `redirectUrl`, or to the after-sign-out page.
 *
 * If the service cannot be told (the network, a server error), the session
 * still ends here, so that this device is signed out whatever happened; the
 * error is then thrown instead of redirecting, because the refresh token may
 * still be alive on the service and the caller should know.
 */
export async function signOut(
  ctx: ClientAppContext,
  options: { readonly redirectUrl?: string | URL | undefined } & CallOptions = {},
  redirects: SignOutRedirects,
): Promise<void> {
  // Aborted before it began, a sign-out does nothing (not even locally); once
  // begun, an abort is a failure to tell the service like any other (see above).
  checkAborted(options);
  const call = callOf(options);
  const sessions = ctx.sessions();
  // Never throws for what the store holds (SessionManager): an unusable or unreadable store is no one to tell the service about.
  const tokens = sessions.peekCurrent();
  let failure: { readonly error: unknown } | null = null;
  if (tokens.accessToken !== null || tokens.refreshToken !== null) {
    try {
      await ctx.client.send("DELETE /auth/sessions/current", { body: {}, ...signalOf(call) });
    } catch (error) {
      if (!isKnownErrorOf(error, SESSION_ALREADY_OVER)) failure = { error };
    }
  }
  sessions.signOut();
  if (failure) throw failure.error;
  if (options.redirectUrl !== undefined) await ctx.redirect(String(options.redirectUrl), { replace: true, ...call });
  else await redirects.redirectAfterSignOut(call);
}
