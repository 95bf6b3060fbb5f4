// The reference's redirectTo… methods and the app's navigation, as an app
// holds them from construction on; what a redirect checks and where it goes is
// redirect.ts.
import type { Browser } from "../platform/browser.js";
import type { Environment } from "../platform/env.js";
import type { ClientAppContext, RedirectMethod } from "./context.js";
import { createNavigator, pageTarget, trustedOriginsOf, type RedirectToOptions } from "./redirect.js";
import type { HandlerUrls } from "./urls.js";

/**
 * A `redirectTo…` method of the apps: goes to one of the app's pages ({@link HandlerUrls}) with the
 * app's `redirectMethod`, then resolves after two seconds (the time a page has to unload); at once
 * with `redirectMethod: "none"`, which does not navigate.
 */
export type RedirectTo = (options?: RedirectToOptions) => Promise<void>;

export interface RedirectMethods {
  /** Goes to the sign-in page (`urls.signIn`), which brings the user back to this page after signing in unless `noRedirectBack`. */
  redirectToSignIn: RedirectTo;
  /** Goes to the sign-up page (`urls.signUp`), which brings the user back to this page after signing up unless `noRedirectBack`. */
  redirectToSignUp: RedirectTo;
  /** Goes to the sign-out page (`urls.signOut`). */
  redirectToSignOut: RedirectTo;
  /** Goes to the e-mail verification page (`urls.emailVerification`). */
  redirectToEmailVerification: RedirectTo;
  /** Goes to the password reset page (`urls.passwordReset`). */
  redirectToPasswordReset: RedirectTo;
  /** Goes to the forgot-password page (`urls.forgotPassword`). */
  redirectToForgotPassword: RedirectTo;
  /** Goes to the app's home page (`urls.home`). */
  redirectToHome: RedirectTo;
  /** Goes to the OAuth callback page (`urls.oauthCallback`). */
  redirectToOAuthCallback: RedirectTo;
  /** Goes to the magic-link callback page (`urls.magicLinkCallback`). */
  redirectToMagicLinkCallback: RedirectTo;
  /** Goes to the page the sign-in page was asked to return to (`after_auth_return_to`), or else `urls.afterSignIn`. */
  redirectToAfterSignIn: RedirectTo;
  /** Goes to the page the sign-up page was asked to return to (`after_auth_return_to`), or else `urls.afterSignUp`. */
  redirectToAfterSignUp: RedirectTo;
  /** Goes to the page after sign-out (`urls.afterSignOut`). */
  redirectToAfterSignOut: RedirectTo;
  /** Goes to the account settings page (`urls.accountSettings`). */
  redirectToAccountSettings: RedirectTo;
  /** Goes to the error page (`urls.error`). */
  redirectToError: RedirectTo;
  /** Goes to the team invitation page (`urls.teamInvitation`). */
  redirectToTeamInvitation: RedirectTo;
}

/** The app's navigation (ClientAppContext.redirect): checks the target, navigates, then waits (redirect.ts, createNavigator). */
export function createAppNavigator(o: {
  readonly redirectMethod: RedirectMethod;
  readonly browser: Browser | null;
  readonly env: Environment;
  readonly urls: HandlerUrls;
}): ClientAppContext["redirect"] {
  return async (url, options) => {
    const { redirectMethod, browser, env } = o;
    return createNavigator({ redirectMethod, browser, env, trustedOrigins: trustedOriginsOf(o.urls) })(url, options);
  };
}

/** The reference's redirectTo… methods over the app's URL set; all navigate through ctx.redirect. */
export function createRedirectMethods(ctx: ClientAppContext): RedirectMethods {
  const to =
    (page: keyof HandlerUrls): RedirectTo =>
    async (options) => {
      await ctx.redirect(pageTarget(ctx, page, options), { replace: options?.replace ?? false, signal: options?.signal });
    };
  return {
    redirectToSignIn: to("signIn"),
    redirectToSignUp: to("signUp"),
    redirectToSignOut: to("signOut"),
    redirectToEmailVerification: to("emailVerification"),
    redirectToPasswordReset: to("passwordReset"),
    redirectToForgotPassword: to("forgotPassword"),
    redirectToHome: to("home"),
    redirectToOAuthCallback: to("oauthCallback"),
    redirectToMagicLinkCallback: to("magicLinkCallback"),
    redirectToAfterSignIn: to("afterSignIn"),
    redirectToAfterSignUp: to("afterSignUp"),
    redirectToAfterSignOut: to("afterSignOut"),
    redirectToAccountSettings: to("accountSettings"),
    redirectToError: to("error"),
    redirectToTeamInvitation: to("teamInvitation"),
  };
}
