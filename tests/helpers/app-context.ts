// A ClientAppContext for testing one flow or object on its own: the runtime
// client on a fake service, a memory token store, an optional fake browser, and
// navigation recorded instead of performed.
import { createStackClient } from "../../runtime/http/client.js";
import type { Browser } from "../../runtime/platform/browser.js";
import type { BotChallengeProvider } from "../../runtime/app/bot-challenge-options.js";
import { createClientAppContext, type ClientAppContext, type RedirectMethod } from "../../runtime/app/context.js";
import { resolveHandlerUrls, type HandlerUrls } from "../../runtime/app/urls.js";
import { createMemoryTokenStore } from "../../runtime/sessions/tokens/memory.js";
import type { TokenPair } from "../../runtime/sessions/tokens/store.js";
import { fakeService, jwt, testEnvironment, type Handler } from "./fake-service.js";

export interface TestAppOptions {
  readonly tokens?: TokenPair | null;
  readonly browser?: Browser | null;
  readonly urls?: Partial<HandlerUrls>;
  readonly redirectMethod?: RedirectMethod;
  readonly oauthScopesOnSignIn?: Record<string, string[]>;
  readonly accessType?: "client" | "server" | "admin";
  /** The app's bot challenge provider (the app's `botChallenge` option); none by default. */
  readonly botChallenge?: BotChallengeProvider;
}

/** Tokens of a signed-in user whose access token is good for an hour. */
export function signedInTokens(refreshToken = "rt-user"): TokenPair {
  return { refreshToken, accessToken: jwt({ exp: Math.floor(Date.now() / 1000) + 3600 }) };
}

export function testAppContext(handler: Handler, options: TestAppOptions = {}) {
  const service = fakeService(handler);
  const { env, waits } = testEnvironment(service.fetch);
  const store = options.tokens === null ? null : createMemoryTokenStore(options.tokens ?? signedInTokens());
  const client = createStackClient({
    projectId: "proj-1",
    publishableClientKey: "pck-1",
    tokenStore: store,
    environment: env,
    accessType: options.accessType ?? "client",
  });
  const navigations: string[] = [];
  const browser = options.browser ?? null;
  const ctx: ClientAppContext = {
    client,
    env,
    projectId: "proj-1",
    publishableClientKey: "pck-1",
    baseUrl: "https://api.stack-auth.com",
    urls: resolveHandlerUrls(options.urls),
    redirectMethod: options.redirectMethod ?? "none",
    oauthScopesOnSignIn: options.oauthScopesOnSignIn ?? {},
    botChallenge: options.botChallenge,
    browser,
    sessions: () => client.requireSessions(),
    signIn: (tokens) => client.requireSessions().signIn({ refreshToken: tokens.refresh_token, accessToken: tokens.access_token }),
    redirect: async (url) => {
      navigations.push(url);
    },
    absoluteUrl: (pathOrUrl) => new URL(pathOrUrl, browser?.location.href ?? "https://app.example.com/").toString(),

    boundTo: (view) => createClientAppContext(client.boundTo(view), ctx),
  };
  return { ctx, service, store, env, waits, navigations };
}

/** A fake browser on one URL, with a cookie jar that keeps what is assigned (attributes dropped). */
export function fakeBrowser(href = "https://app.example.com/") {
  const jar = new Map<string, string>();
  const writes: string[] = [];
  const assigned: string[] = [];
  const replaced: string[] = [];
  const url = new URL(href);
  const location = {
    get href() {
      return url.href;
    },
    get origin() {
      return url.origin;
    },
    get hostname() {
      return url.hostname;
    },
    get protocol() {
      return url.protocol;
    },
    assign: (to: string) => void assigned.push(to),
    replace: (to: string) => void replaced.push(to),
  };
  const history = {
    replaceState: (_data: unknown, _unused: string, to: string) => {
      const next = new URL(to, url);
      url.href = next.href;
    },
  };
  const document = {
    get cookie() {
      return [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
    },
    set cookie(assignment: string) {
      writes.push(assignment);
      const [pair, ...attributes] = assignment.split(";").map((s) => s.trim());
      const eq = pair!.indexOf("=");
      const name = pair!.slice(0, eq);
      const expired = attributes.some((a) => /^max-age=0$/i.test(a) || /^expires=thu, 01 jan 1970/i.test(a));
      if (expired) jar.delete(name);
      else jar.set(name, pair!.slice(eq + 1));
    },
  };
  const browser: Browser = { location, history, document };
  return { browser, jar, writes, assigned, replaced };
}
