// OAuth sign-in, account linking and the callback (wire contract §5, §6, §15;
// SPEC §2). The browser leaves for the service's authorize URL with a PKCE
// challenge; it comes back to the oauth-callback page with `code` and `state`,
// which the callback consumes at once and exchanges for tokens.
import { requireBrowser, type Browser } from "../../platform/browser.js";
import { callOf, checkAborted, signalOf, untilAborted, type CallOptions } from "../call-options.js";
import { API_PREFIX } from "../../constants.js";
import { sleep } from "../../platform/env.js";
import { createKnownError, type KnownError } from "../../../generated/known-errors.js";
import type { operations } from "../../../generated/schema.js";
import { StackAssertionError, StackConfigurationError } from "../../errors.js";
import type { BotChallengeOptions } from "../bot-challenge-options.js";
import type { ClientAppContext } from "../context.js";
import { hasOwnChallenge, withBotChallenge } from "./bot-challenge.js";
import { consumeVerifier, createPkcePair, pkceChallenge, saveVerifier } from "./pkce.js";

/** Where a completed sign-in goes: the app's after-sign-in / after-sign-up page, or a URL the server named. */
export type SignInRedirectTarget = { readonly kind: "sign-in" | "sign-up" } | { readonly url: string };
/**
 * Performs the redirect after a sign-in; the app supplies it (it knows
 * `after_auth_return_to`). `options.signal` is the sign-in call's.
 */
export type RedirectAfterSignIn = (target: SignInRedirectTarget, options?: CallOptions) => Promise<void>;

/** Like the app's redirects: code after a navigation should not run while the page unloads. */
const NAVIGATION_WAIT_MS = 2000;

export interface OAuthAuthorizeOptions {
  readonly provider: string;
  /** `authenticate` signs in; `link` connects the provider account to the signed-in user. */
  readonly type: "authenticate" | "link";
  readonly state: string;
  readonly codeChallenge: string;
  /** Where to land after the callback; absolute, or relative to the current page. */
  readonly afterCallbackRedirectUrl?: string | undefined;
  /** Extra scopes to ask the provider for, space-separated. */
  readonly providerScope?: string | undefined;
  /** `link` only: the user's access token. */
  readonly token?: string | undefined;
}

/** The API's root URL; `ctx.baseUrl` is the runtime client's, already without trailing slashes. */
function apiRoot(ctx: ClientAppContext): URL {
  let root: URL;
  try {
    root = new URL(`${ctx.baseUrl}${API_PREFIX}`);
  } catch {
    throw new StackConfigurationError(`baseUrl "${ctx.baseUrl}" is not a URL; give the API's origin, e.g. https://api.stack-auth.com.`);
  }
  if (root.protocol !== "https:" && root.protocol !== "http:") {
    throw new StackConfigurationError(`baseUrl "${ctx.baseUrl}" must be an http(s) URL.`);
  }
  return root;
}

/** The redirect_uri of a flow: the absolute oauth-callback URL without any `code` or `state` already on it. */
export function oauthRedirectUri(ctx: ClientAppContext): string {
  const url = new URL(ctx.absoluteUrl(ctx.urls.oauthCallback));
  url.searchParams.delete("code");
  url.searchParams.delete("state");
  return url.toString();
}

function absoluteHttpUrl(ctx: ClientAppContext, value: string, what: string): string {
  const absolute = ctx.absoluteUrl(value);
  const protocol = new URL(absolute).protocol;
  if (protocol !== "https:" && protocol !== "http:") {
    throw new StackConfigurationError(`${what} "${value}" must be a page of the app (a relative path or an http(s) URL).`);
  }
  return absolute;
}

/**
 * The authorize URL of wire contract §6, every query parameter included. Pure:
 * the caller keeps the verifier (see signInWithOAuth / linkOAuthAccount).
 */
export function getOAuthAuthorizeUrl(ctx: ClientAppContext, options: OAuthAuthorizeOptions): string {
  const { provider, type } = options;
  if (typeof provider !== "string" || provider.trim() === "") {
    throw new StackConfigurationError('An OAuth provider id is required, e.g. "google" or "github".');
  }
  if (ctx.publishableClientKey === undefined || ctx.publishableClientKey === "") {
    throw new StackConfigurationError(
      "OAuth needs the project's publishable client key (it is the OAuth client_secret): pass publishableClientKey to the app.",
    );
  }
  if (type === "link" && !options.token) {
    throw new StackConfigurationError("Linking an OAuth account needs the signed-in user's access token.");
  }
  const root = apiRoot(ctx);
  const url = new URL(`${root.href}/auth/oauth/authorize/${encodeURIComponent(provider.toLowerCase())}`);
  const query = url.searchParams;
  query.set("client_id", ctx.projectId);
  query.set("client_secret", ctx.publishableClientKey);
  query.set("redirect_uri", oauthRedirectUri(ctx));
  query.set("scope", "legacy");
  query.set("state", options.state);
  query.set("grant_type", "authorization_code");
  query.set("code_challenge", options.codeChallenge);
  query.set("code_challenge_method", "S256");
  query.set("response_type", "code");
  query.set("type", type);
  query.set("error_redirect_url", ctx.absoluteUrl(ctx.urls.error));
  if (options.afterCallbackRedirectUrl !== undefined) {
    query.set("after_callback_redirect_url", absoluteHttpUrl(ctx, options.afterCallbackRedirectUrl, "The return URL"));
  }
  // The one token allowed in a URL (§15): the v1 link flow requires it.
  if (type === "link" && options.token) query.set("token", options.token);
  if (options.providerScope) query.set("provider_scope", options.providerScope);
  return url.toString();
}

/** Space-separated scopes, each once, in the order given. */
function joinScopes(...lists: (readonly string[] | undefined)[]): string | undefined {
  const scopes = [
    ...new Set(
      lists
        .flatMap((list) => list ?? [])
        .flatMap((s) => String(s).split(/\s+/))
        .filter(Boolean),
    ),
  ];
  return scopes.length > 0 ? scopes.join(" ") : undefined;
}

/**
 * Starts a flow: saves the verifier under its state, then leaves for the
 * authorize URL. That URL is on the API's origin, not the app's, so it does not
 * go through ctx.redirect (which allows only the app's origins); it is checked
 * against the API origin here instead. With a bot challenge (`challenge`), the
 * authorize call is fetched first and the browser goes where it answers.
 */
async function startFlow(
  ctx: ClientAppContext,
  browser: Browser,
  options: Omit<OAuthAuthorizeOptions, "state" | "codeChallenge">,
  call: CallOptions,
  challenge?: BotChallengeOptions,
) {
  const pair = createPkcePair(ctx.env);
  const codeChallenge = await pkceChallenge(pair.verifier);
  const url = getOAuthAuthorizeUrl(ctx, { ...options, state: pair.state, codeChallenge });
  const root = apiRoot(ctx);
  if (new URL(url).origin !== root.origin || !url.startsWith(`${root.href}/`)) {
    throw new StackAssertionError(`The OAuth authorize URL left the API root ${root.href}`);
  }
  const target = challenge === undefined ? url : await providerPageOf(ctx, new URL(url), challenge, call);
  // Once the browser is sent away the call cannot be taken back: check before, not after.
  checkAborted(call);
  saveVerifier(browser, pair);
  browser.location.assign(target);
  await sleep(ctx.env, NAVIGATION_WAIT_MS, call.signal);
}

/**
 * The provider's page a flow goes to, asked of the authorize call with `stack_response_mode=json` (2.8.86) and the
 * bot challenge. A navigation would show the service's refusal (BOT_CHALLENGE_REQUIRED, which wants a visible
 * challenge and another try) to the user as a bare JSON page; a fetch reads it first. Still no x-stack headers, as
 * for the navigation (the operation takes none), and a GET, so nothing is done twice whatever is sent again.
 */
async function providerPageOf(ctx: ClientAppContext, url: URL, challenge: BotChallengeOptions, call: CallOptions): Promise<string> {
  const provider = decodeURIComponent(url.pathname.slice(url.pathname.lastIndexOf("/") + 1));
  // The navigation's query, in its order: the operation's required parameters are all in it.
  const query = Object.fromEntries(url.searchParams) as operations["startOAuthAuthorization"]["parameters"]["query"];
  const location = await withBotChallenge(
    ctx,
    "StackClientApp.signInWithOAuth",
    "oauth_authenticate",
    { ...challenge, ...call },
    async (fields) => {
      const { data } = await ctx.client.send("GET /auth/oauth/authorize/{provider}", {
        params: { path: { provider }, query: { ...query, stack_response_mode: "json", ...fields } },
        ...signalOf(call),
      });
      return (data as { location?: unknown } | undefined)?.location;
    },
  );
  // The page is the provider's, on its own origin; only an http(s) URL may take the browser there.
  const page = typeof location === "string" && URL.canParse(location) ? new URL(location) : undefined;
  if (page?.protocol !== "https:" && page?.protocol !== "http:") {
    throw new StackAssertionError("GET /auth/oauth/authorize/{provider} answered a location that is not an http(s) URL");
  }
  return page.toString();
}

/**
 * Signs in with an OAuth provider: the browser leaves for the provider and
 * comes back to the oauth-callback page (see callOAuthCallback). `returnTo` is
 * where to land after the callback instead of after-sign-in / after-sign-up.
 * With a bot challenge (the call's own, or the app's provider), the authorize
 * call is fetched first: BOT_CHALLENGE_REQUIRED and BOT_CHALLENGE_FAILED are
 * thrown as typed known errors, and the browser stays on the page.
 */
export async function signInWithOAuth(
  ctx: ClientAppContext,
  provider: string,
  options: { readonly returnTo?: string } & BotChallengeOptions & CallOptions = {},
): Promise<void> {
  const browser = requireBrowser(ctx.browser, "signInWithOAuth");
  const scopes = typeof provider === "string" ? ctx.oauthScopesOnSignIn[provider] : undefined;
  const flow = { provider, type: "authenticate" as const, afterCallbackRedirectUrl: options?.returnTo, providerScope: joinScopes(scopes) };
  const challenged = hasOwnChallenge(options) || ctx.botChallenge !== undefined;
  await startFlow(ctx, browser, flow, callOf(options), challenged ? options : undefined);
}

/**
 * Connects a provider account (or more scopes of it) to the signed-in user, and
 * comes back to the current page. The scopes asked for on sign-in are asked for
 * again, so linking does not narrow what the app already has.
 */
export async function linkOAuthAccount(
  ctx: ClientAppContext,
  provider: string,
  options: { readonly scopes?: readonly string[] } & CallOptions = {},
): Promise<void> {
  const browser = requireBrowser(ctx.browser, "linkOAuthAccount");
  // The token travels in the URL and is checked when the service handles the
  // callback; 20 s of life (the default) covers the round trip.
  checkAborted(options);
  const tokens = await untilAborted(ctx.sessions().current().getTokens(), options);
  if (!tokens?.accessToken) {
    throw new StackConfigurationError("Connecting an OAuth account needs a signed-in user; sign in first.");
  }
  const onSignIn = typeof provider === "string" ? ctx.oauthScopesOnSignIn[provider] : undefined;
  const flow = {
    provider,
    type: "link" as const,
    token: tokens.accessToken,
    afterCallbackRedirectUrl: browser.location.href,
    providerScope: joinScopes(options?.scopes, onSignIn),
  };
  await startFlow(ctx, browser, flow, callOf(options));
}

/** Checked up front: finding out after the tokens are stored would leave a signed-in user on the callback page. */
export function assertRedirectAfter(options: { readonly redirectAfter?: unknown } | undefined, what: string): void {
  if (typeof options?.redirectAfter !== "function") {
    throw new StackConfigurationError(`${what} needs { redirectAfter }: the function that performs the redirect after sign-in.`);
  }
}

/** The query a service since 2.8.86 sends a failed sign-in back to the oauth-callback page with. */
const ERROR_PARAMS = ["error", "error_description", "errorCode", "message", "details"] as const;

/**
 * The known error a callback carries instead of a code (2.8.86 sends a failed sign-in back to the app's
 * oauth-callback page, as `errorCode`, `message` and `details`; 2.8.11 sends it to the error page instead), taken
 * out of the address bar; null when there is none. `details` that is not JSON is left out rather than trusted.
 */
function consumeCallbackError(browser: Browser): KnownError | null {
  const current = new URL(browser.location.href);
  const code = current.searchParams.get("errorCode");
  const message = current.searchParams.get("message");
  if (!code || message === null) return null;
  let details: unknown;
  try {
    details = JSON.parse(current.searchParams.get("details") ?? "");
  } catch {
    details = undefined;
  }
  for (const name of ERROR_PARAMS) current.searchParams.delete(name);
  browser.history.replaceState({}, "", current.toString());
  return createKnownError(code, details, { message });
}

/** The code and verifier of a callback meant for this browser, taken so that no one else can use them. */
function consumeCallback(browser: Browser): { code: string; verifier: string } | null {
  const current = new URL(browser.location.href);
  const code = current.searchParams.get("code");
  const state = current.searchParams.get("state");
  if (!code || !state) return null;
  // No verifier for this state: the flow was not started here (another OAuth
  // library, an old history entry, an expired or already used flow). Leave the URL alone.
  const verifier = consumeVerifier(browser, state);
  if (verifier === null) return null;
  // The code must not stay in the address bar or history, even if the exchange fails.
  current.searchParams.delete("code");
  current.searchParams.delete("state");
  browser.history.replaceState({}, "", current.toString());
  return { code, verifier };
}

/**
 * Completes an OAuth sign-in on the oauth-callback page. Resolves false when
 * the page is not a callback of a flow this browser started; otherwise stores
 * the tokens, redirects, and resolves true.
 *
 * A user with TOTP enabled makes it throw KnownErrors.MultiFactorAuthenticationRequired,
 * whose `details.attempt_code` completes the sign-in with signInWithMfa. Other
 * failures throw their typed errors; the verifier is gone either way (single use).
 * A sign-in the service failed and sent back here (2.8.86: `errorCode`, `message`,
 * `details` in the query) throws that known error, its query taken out of the URL.
 */
export async function callOAuthCallback(
  ctx: ClientAppContext,
  options: { readonly redirectAfter: RedirectAfterSignIn } & CallOptions,
): Promise<boolean> {
  const browser = requireBrowser(ctx.browser, "callOAuthCallback");
  assertRedirectAfter(options, "callOAuthCallback");
  // The code is single-use: an aborted call must leave it for a later one.
  checkAborted(options);
  const call = callOf(options);
  // Synchronous up to here: of two handlers on the same page, only the first
  // finds the cookie and the code.
  const failed = consumeCallbackError(browser);
  if (failed !== null) throw failed;
  const consumed = consumeCallback(browser);
  if (consumed === null) return false;
  const body = {
    grant_type: "authorization_code" as const,
    code: consumed.code,
    redirect_uri: oauthRedirectUri(ctx),
    code_verifier: consumed.verifier,
    client_id: ctx.projectId,
    client_secret: ctx.publishableClientKey ?? "",
  };
  const { data } = await ctx.client.send("POST /auth/oauth/token", {
    body,
    ...signalOf(call),
  });
  if (!data || typeof data.access_token !== "string" || typeof data.refresh_token !== "string") {
    throw new StackAssertionError("The authorization-code grant answered without an access_token and a refresh_token");
  }
  ctx.signIn({ access_token: data.access_token, refresh_token: data.refresh_token });
  const after = data.after_callback_redirect_url;
  if (typeof after === "string" && after !== "") await options.redirectAfter({ url: after }, call);
  else await options.redirectAfter({ kind: data.is_new_user === true ? "sign-up" : "sign-in" }, call);
  return true;
}
