// The handler URL set of SPEC §2 / wire contract §13. Pages derive from the
// (possibly overridden) handler path; after-sign-in falls back to home, and
// after-sign-up to after-sign-in.

/**
 * The app's pages that flows send the user to (`app.urls`): absolute paths or URLs. Those not
 * overridden by the `urls` option are under `handler` (default `/handler`, e.g. `/handler/sign-in`);
 * `home` defaults to `/`, `afterSignIn` and `afterSignOut` to `home`, `afterSignUp` to `afterSignIn`.
 */
export interface HandlerUrls {
  readonly handler: string;
  readonly signIn: string;
  readonly signUp: string;
  readonly signOut: string;
  readonly afterSignIn: string;
  readonly afterSignUp: string;
  readonly afterSignOut: string;
  readonly emailVerification: string;
  readonly passwordReset: string;
  readonly forgotPassword: string;
  readonly oauthCallback: string;
  readonly magicLinkCallback: string;
  readonly accountSettings: string;
  readonly teamInvitation: string;
  readonly error: string;
  readonly home: string;
  readonly cliAuthConfirm: string;
}

export const DEFAULT_HANDLER_PATH = "/handler";

const PAGES = {
  signIn: "sign-in",
  signUp: "sign-up",
  signOut: "sign-out",
  emailVerification: "email-verification",
  passwordReset: "password-reset",
  forgotPassword: "forgot-password",
  oauthCallback: "oauth-callback",
  magicLinkCallback: "magic-link-callback",
  accountSettings: "account-settings",
  teamInvitation: "team-invitation",
  error: "error",
  cliAuthConfirm: "cli-auth-confirm",
} as const;

/** The URL set with the app's overrides applied; computed once per app. */
export function resolveHandlerUrls(overrides: Partial<HandlerUrls> = {}): HandlerUrls {
  const handler = (overrides.handler ?? DEFAULT_HANDLER_PATH).replace(/\/+$/, "") || "/";
  const page = (name: string) => `${handler === "/" ? "" : handler}/${name}`;
  const pages = Object.fromEntries(Object.entries(PAGES).map(([key, name]) => [key, overrides[key as keyof typeof PAGES] ?? page(name)]));
  const home = overrides.home ?? "/";
  const afterSignIn = overrides.afterSignIn ?? home;
  return Object.freeze({
    ...(pages as Record<keyof typeof PAGES, string>),
    handler,
    home,
    afterSignIn,
    afterSignUp: overrides.afterSignUp ?? afterSignIn,
    afterSignOut: overrides.afterSignOut ?? home,
  });
}
