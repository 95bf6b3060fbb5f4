// What a client app is made with (StackClientAppOptions) and what getUser
// takes (GetUserOptions), and what the app's constructor makes of its options:
// the runtime client (with the keys its class adds) and the surroundings every
// context of the app shares (its pages, navigation and browser).
import { createStackClient, type StackClient, type StackClientOptions } from "../http/client.js";
import type { Failover } from "../http/origins.js";
import type { Browser } from "../platform/browser.js";
import type { Environment } from "../platform/env.js";
import { StackConfigurationError } from "../errors.js";
import type { TokenStoreInit } from "../sessions/tokens/resolve.js";
import type { RuntimeClientSettings } from "./app-internals.js";
import type { BotChallengeProvider } from "./bot-challenge-options.js";
import type { AppSurroundings, RedirectMethod } from "./context.js";
import { createAppNavigator } from "./redirect-methods.js";
import type { HandlerUrls } from "./urls.js";

/** `"anonymous-if-exists[deprecated]"` is the newer reference SDK's name of `"anonymous-if-exists"`. */
export type GetUserOr = "redirect" | "throw" | "return-null" | "anonymous" | "anonymous-if-exists" | "anonymous-if-exists[deprecated]";

/**
 * What `getUser` answers when nobody is signed in, and whose tokens it reads.
 *
 * @example
 * ```ts
 * const options: GetUserOptions = { or: "return-null", tokenStore: request };
 * const user = await app.getUser(options);
 * if (user === null) return new Response("Sign in first", { status: 401 });
 * console.log(user.primaryEmail);
 * ```
 */
export interface GetUserOptions {
  /**
   * What to do when nobody is signed in. Default "return-null". Anonymous users count as nobody
   * unless "anonymous" or "anonymous-if-exists".
   */
  readonly or?: GetUserOr;
  /**
   * Whether a restricted user (one the service does not yet allow everything: an unverified
   * e-mail the project requires verified, or an administrator's restriction) counts as signed
   * in. Default false: as with anonymous users, `or` decides instead. An anonymous `or`
   * includes restricted users; `{ or: "anonymous", includeRestricted: false }` is refused.
   */
  readonly includeRestricted?: boolean;
  /**
   * The user's tokens for this call, in place of the app's store: a request of
   * your backend (its `x-stack-auth` header or cookies), `{ accessToken, refreshToken }`,
   * or any store. Calls with the same tokens share one session. `"memory"` is the app's
   * one memory store (its own session if it was made with `"memory"`).
   */
  readonly tokenStore?: TokenStoreInit;
}

/**
 * What a {@link StackClientApp} is made with: the project, where the user's tokens live, and how
 * the app reaches the service and navigates.
 *
 * @example
 * ```ts
 * const app = new StackClientApp({
 *   projectId: "<your project id>",
 *   publishableClientKey: "<your publishable client key>",
 *   tokenStore: "cookie",
 *   urls: { afterSignIn: "/dashboard" },
 * });
 * ```
 */
export interface StackClientAppOptions {
  /** The project's id, as the Stack Auth dashboard shows it; sent with every request. */
  readonly projectId: string;
  /** The project's publishable client key, sent as `x-stack-publishable-client-key`; none by default. */
  readonly publishableClientKey?: string;
  /**
   * Where the user's tokens live: "cookie", "memory", a request object, { accessToken, refreshToken },
   * or null for no user. "nextjs-cookie" is "cookie" in a browser; on a server, where stackkit
   * cannot reach Next.js's cookies, what reads the app's own store rejects (pass each request's
   * tokens per call instead).
   */
  readonly tokenStore: TokenStoreInit;
  /** The API's origin; default https://api.stack-auth.com. `{ browser, server }` picks by where the code runs. */
  readonly baseUrl?: string | { readonly browser: string; readonly server: string };
  /**
   * Whether a request that could not be answered goes on to another origin of the API.
   * Unset: on for the hosted service (its fallback origins, and the list it publishes, read once
   * in the background), off for a self-hosted `baseUrl`; `true` turns it on there too, `false`
   * off; `{ origins, discover }` names more origins or leaves out the list. A POST or PATCH
   * moves on only after a 429 or a 508, never after a failure that may follow its processing.
   * See {@link StackClientOptions.failover}.
   */
  readonly failover?: Failover;
  /**
   * The app's pages to override. Those left out are under `handler` (default `/handler`, e.g.
   * `/handler/sign-in`); `home` defaults to `/`, `afterSignIn` and `afterSignOut` to `home`.
   */
  readonly urls?: Partial<HandlerUrls>;
  /** "window" (default in a browser), "none", or `{ navigate(url) }` for a router. */
  readonly redirectMethod?: RedirectMethod;
  /** Headers sent with every request, after (and over) the ones the app sets; none by default. */
  readonly extraRequestHeaders?: Readonly<Record<string, string>>;
  /** Extra provider scopes asked for at OAuth sign-in, per provider. */
  readonly oauthScopesOnSignIn?: Readonly<Partial<Record<string, readonly string[]>>>;
  /**
   * The app's bot challenge (Cloudflare Turnstile, which services since 2.8.86 check on sign-up, the magic-link
   * e-mail and OAuth sign-in): a function that runs the app's widget for `{ action, phase }` and resolves its token,
   * or null when it could not. stackkit loads no script of its own; without this option (and without a call's own
   * `botChallengeToken`) no challenge is sent. A 2.8.11 service has no challenge and refuses one: there the calls
   * reject with a `ServiceVersionError`. See {@link BotChallengeProvider}.
   */
  readonly botChallenge?: BotChallengeProvider;
  /**
   * Kept for apps written for the official SDK, which takes it and ignores it too: the app never
   * fetches the project when constructed, only when something asks for it (getProject).
   */
  readonly noAutomaticPrefetch?: boolean;
  /** Replaces parts of the platform (fetch, clock, timers, randomness). */
  readonly environment?: Partial<Environment>;
  /** The browser to use; default the global window, null where there is none. */
  readonly browser?: Browser | null;
  /**
   * How long one attempt may wait for its answer, in ms (default 30000; 0: no
   * limit). A timed-out GET, PUT or DELETE is retried; a POST or PATCH fails at
   * once with a RequestTimeoutError.
   */
  readonly requestTimeoutMs?: number;
  /**
   * The longest `Retry-After` the app waits, in ms (default 2147483647). A 429
   * asking for longer fails at once with a RateLimitError carrying `retryAfterMs`.
   */
  readonly maxRetryAfterMs?: number;
  /** Called before each request attempt, for logs and traces; tokens and keys are redacted. */
  readonly onRequest?: StackClientOptions["onRequest"];
  /** Called before each retry, with its reason and delay; tokens and keys are redacted. */
  readonly onRetry?: StackClientOptions["onRetry"];
}

/** The `or` of getUser options, with the reference's other name of "anonymous-if-exists" read as it. */
export function orOf(options: { readonly or?: GetUserOr }): Exclude<GetUserOr, "anonymous-if-exists[deprecated]"> {
  return options.or === "anonymous-if-exists[deprecated]" ? "anonymous-if-exists" : (options.or ?? "return-null");
}

/** The runtime client of an app made with `options`, with the settings (access type, keys) of its class. */
export function runtimeClientOf(options: StackClientAppOptions, settings: RuntimeClientSettings, browser: Browser | null): StackClient {
  return createStackClient({
    projectId: options.projectId,
    accessType: settings.accessType,
    ...defined({
      baseUrl: pickBaseUrl(options.baseUrl, browser),
      failover: options.failover,
      publishableClientKey: options.publishableClientKey,
      secretServerKey: settings.secretServerKey,
      superSecretAdminKey: settings.superSecretAdminKey,
      projectOwnerSession: settings.projectOwnerSession,
      extraRequestHeaders: options.extraRequestHeaders,
      environment: options.environment,
      requestTimeoutMs: options.requestTimeoutMs,
      maxRetryAfterMs: options.maxRetryAfterMs,
      onRequest: options.onRequest,
      onRetry: options.onRetry,
    }),
    tokenStore: options.tokenStore,
  });
}

/** What every context of an app made with `options` shares: its pages (`urls`, resolved), navigation and browser. */
export function surroundingsOf(
  options: StackClientAppOptions,
  browser: Browser | null,
  env: Environment,
  urls: HandlerUrls,
): AppSurroundings {
  const redirectMethod = options.redirectMethod ?? (browser ? "window" : "none");
  return {
    urls,
    redirectMethod,
    oauthScopesOnSignIn: Object.fromEntries(
      Object.entries(options.oauthScopesOnSignIn ?? {}).filter((e): e is [string, readonly string[]] => Array.isArray(e[1])),
    ),
    botChallenge: botChallengeOf(options.botChallenge),
    browser,
    redirect: createAppNavigator({ redirectMethod, browser, env, urls }),
    absoluteUrl: (pathOrUrl) => absoluteUrl(pathOrUrl, browser),
  };
}

/** The `botChallenge` option, checked when the app is made rather than on the first sign-up. */
function botChallengeOf(option: unknown): BotChallengeProvider | undefined {
  if (option === undefined || typeof option === "function") return option as BotChallengeProvider | undefined;
  throw new StackConfigurationError("botChallenge must be a function ({ action, phase, signal }) => the challenge's token, or null.");
}

function pickBaseUrl(option: StackClientAppOptions["baseUrl"], browser: Browser | null): string | undefined {
  if (option === undefined || typeof option === "string") return option;
  return browser ? option.browser : option.server;
}

function absoluteUrl(pathOrUrl: string, browser: Browser | null): string {
  if (URL.canParse(pathOrUrl)) return new URL(pathOrUrl).toString();
  if (/^[a-z][a-z0-9+.-]*:/i.test(pathOrUrl)) throw new StackConfigurationError(`"${pathOrUrl}" is not a valid URL.`);
  if (!browser) {
    throw new StackConfigurationError(
      `"${pathOrUrl}" is relative and there is no page to resolve it against here; pass an absolute URL (for example https://your-app.example.com${pathOrUrl}).`,
    );
  }
  return new URL(pathOrUrl, browser.location.href).toString();
}

/** The entries of `o` whose value is not undefined (for exactOptionalPropertyTypes). */
function defined<T extends Record<string, unknown>>(o: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as { [K in keyof T]?: Exclude<T[K], undefined> };
}
