// What every part of the client app shares: the runtime client, the resolved
// options, the browser (when there is one) and navigation. Flows and objects
// are functions of this context, so each can be tested on its own.
import type { StackClient } from "../http/client.js";
import type { BotChallengeProvider } from "./bot-challenge-options.js";
import type { Browser } from "../platform/browser.js";
import type { CallOptions } from "./call-options.js";
import type { Environment } from "../platform/env.js";
import type { Sessions } from "../sessions/session.js";
import type { HandlerUrls } from "./urls.js";

/** How the app goes to another page: `"window"` (`location.assign`, the default in a browser), `"none"` (never), or `{ navigate(url) }`, a router's navigation. */
export type RedirectMethod = "window" | "none" | { readonly navigate: (url: string) => void | Promise<void> };

export interface ClientAppContext {
  readonly client: StackClient;
  readonly env: Environment;
  readonly projectId: string;
  readonly publishableClientKey: string | undefined;
  /** Without `/api/v1`. */
  readonly baseUrl: string;
  readonly urls: HandlerUrls;
  readonly redirectMethod: RedirectMethod;
  readonly oauthScopesOnSignIn: Readonly<Record<string, readonly string[]>>;
  /** The app's bot challenge (its `botChallenge` option), asked for tokens by the flows that take one; none by default. */
  readonly botChallenge?: BotChallengeProvider | undefined;
  /** Null outside a browser (and in tests that give none). */
  readonly browser: Browser | null;
  /** The session manager; throws the tokenStore error when the app has no token store. */
  sessions(): Sessions;
  /** Stores the tokens of a sign-in and tells whoever watches the user. */
  signIn(tokens: { readonly access_token: string; readonly refresh_token: string }): void;
  /**
   * Navigates to `url` with the app's redirect method after checking that it is
   * relative or trusted, then waits 2000 ms so that code after a redirect does
   * not run while the page unloads (a wait that `signal` cuts short). With
   * redirectMethod "none" it does nothing.
   */
  redirect(url: string, options?: { readonly replace?: boolean } & CallOptions): Promise<void>;
  /** An absolute URL for a path of this app (e.g. an email callback_url); uses the page's origin. */
  absoluteUrl(pathOrUrl: string): string;
  /** This context acting for one session only: its client bound to `view` (StackClient.boundTo). */
  boundTo(view: Sessions): ClientAppContext;
}

/** What an app's contexts share whatever client they run on: its pages, browser and navigation. */
export type AppSurroundings = Pick<
  ClientAppContext,
  "urls" | "redirectMethod" | "oauthScopesOnSignIn" | "botChallenge" | "browser" | "redirect" | "absoluteUrl"
>;

/**
 * The context of an app on `client`. The app's own context, a per-call
 * session's and the server objects' differ only in their client, so every one
 * of them is made here: the project, keys and base URL are the client's, the
 * rest is the app's (`app` may be another context of the same app).
 */
export function createClientAppContext(client: StackClient, app: AppSurroundings): ClientAppContext {
  const ctx: ClientAppContext = {
    client,
    env: client.env,
    projectId: client.projectId,
    publishableClientKey: client.publishableClientKey,
    baseUrl: client.baseUrl,
    urls: app.urls,
    redirectMethod: app.redirectMethod,
    oauthScopesOnSignIn: app.oauthScopesOnSignIn,
    botChallenge: app.botChallenge,
    browser: app.browser,
    sessions: () => client.requireSessions(),
    signIn: (tokens) => void client.requireSessions().signIn({ refreshToken: tokens.refresh_token, accessToken: tokens.access_token }),
    redirect: app.redirect,
    absoluteUrl: app.absoluteUrl,
    boundTo: (view) => createClientAppContext(client.boundTo(view), ctx),
  };
  return ctx;
}
