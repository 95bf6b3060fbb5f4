// OAuth sign-in, linking and callback (SPEC §2; wire contract §5, §6, §15).
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { KnownErrors } from "../../../../generated/known-errors.js";
import type { ClientAppContext } from "../../../../runtime/app/context.js";
import {
  callOAuthCallback,
  getOAuthAuthorizeUrl,
  linkOAuthAccount,
  signInWithOAuth,
  type SignInRedirectTarget,
} from "../../../../runtime/app/flows/oauth.js";
import { isStackError } from "../../../../runtime/errors.js";
import { fakeBrowser, testAppContext, type TestAppOptions } from "../../../helpers/app-context.js";
import { json, jwt, knownError, useFakeClock, type Handler, type SentRequest } from "../../../helpers/fake-service.js";
import { AUTHORIZE_QUERY, b64url, CHALLENGE, range, STATE, VERIFIER } from "../../../helpers/oauth-flow.js";
import { rejectionOf } from "../../../helpers/outcome.js";

/** An access token as the service issues them: a JWT (this one has no `exp`, so it never expires here). */
const AT_NEW = "eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ1c2VyLTEifQ.YXQtbmV3";

beforeEach(() => useFakeClock());
afterEach(() => vi.useRealTimers());

const COOKIE = `stack-oauth-outer-${STATE}`;

const noService: Handler = () => {
  throw new Error("no request expected");
};

function setup(href = "https://app.example.com/page?tab=1", handler: Handler = noService, options: TestAppOptions = {}) {
  const fake = fakeBrowser(href);
  const app = testAppContext(handler, { browser: fake.browser, ...options });
  return { ...fake, ...app };
}

/** Runs a flow that navigates away and then waits 2000 ms, to its end. */
async function navigated(promise: Promise<void>, waits: number[]): Promise<void> {
  // The flow hashes the verifier (WebCrypto) before it navigates, so its wait starts after this call.
  const before = waits.length;
  await vi.waitFor(() => expect(waits.slice(before)).toContain(2000));
  await vi.advanceTimersByTimeAsync(2000);
  await promise;
}

const queryOf = (url: string) => [...new URL(url).searchParams];

describe("signInWithOAuth", () => {
  it("navigates to the authorize URL under the API root with every query parameter of wire contract §6", async () => {
    const t = setup();
    await navigated(signInWithOAuth(t.ctx, "google"), t.waits);
    expect(t.assigned).toHaveLength(1);
    const url = new URL(t.assigned[0]!);
    expect(url.origin + url.pathname).toBe("https://api.stack-auth.com/api/v1/auth/oauth/authorize/google");
    expect(queryOf(t.assigned[0]!)).toEqual(AUTHORIZE_QUERY);
  });

  it("uses the browser's location.assign, not the app's redirect, and waits 2000 ms after it", async () => {
    const t = setup();
    await navigated(signInWithOAuth(t.ctx, "google"), t.waits);
    expect(t.navigations).toEqual([]);
    expect(t.waits).toEqual([2000]);
    expect(t.service.requests).toEqual([]);
  });

  it("lower-cases and encodes the provider in the path", async () => {
    const t = setup();
    await navigated(signInWithOAuth(t.ctx, "GitHub Enterprise/x"), t.waits);
    expect(new URL(t.assigned[0]!).pathname).toBe("/api/v1/auth/oauth/authorize/github%20enterprise%2Fx");
  });

  it("strips any code and state already on the oauth-callback URL from redirect_uri", async () => {
    const t = setup(undefined, noService, { urls: { oauthCallback: "/cb?code=old&keep=1&state=old#top" } });
    await navigated(signInWithOAuth(t.ctx, "google"), t.waits);
    expect(new URL(t.assigned[0]!).searchParams.get("redirect_uri")).toBe("https://app.example.com/cb?keep=1#top");
  });

  it("sends after_callback_redirect_url, absolute, only when a returnTo is given", async () => {
    const t = setup();
    await navigated(signInWithOAuth(t.ctx, "google", { returnTo: "/dashboard?x=1" }), t.waits);
    expect(new URL(t.assigned[0]!).searchParams.get("after_callback_redirect_url")).toBe("https://app.example.com/dashboard?x=1");
  });

  it("sends the oauthScopesOnSignIn of the provider as provider_scope, joined by spaces", async () => {
    const t = setup(undefined, noService, { oauthScopesOnSignIn: { github: ["repo", "read:org"] } });
    await navigated(signInWithOAuth(t.ctx, "github"), t.waits);
    expect(queryOf(t.assigned[0]!).at(-1)).toEqual(["provider_scope", "repo read:org"]);
  });

  it("derives a 43-character verifier from 32 random bytes, a state from 16, and the S256 challenge from the verifier", async () => {
    const t = setup();
    await navigated(signInWithOAuth(t.ctx, "google"), t.waits);
    expect(VERIFIER).toHaveLength(43);
    expect(t.jar.get(COOKIE)).toBe(VERIFIER);
    expect(new URL(t.assigned[0]!).searchParams.get("code_challenge")).toBe(CHALLENGE);
  });

  it("keeps the verifier in the cookie stack-oauth-outer-<state> for 3600 s, Path=/, SameSite=Lax, Secure on https", async () => {
    const t = setup();
    await navigated(signInWithOAuth(t.ctx, "google"), t.waits);
    expect(t.writes).toEqual([`${COOKIE}=${VERIFIER}; Max-Age=3600; Path=/; Secure; SameSite=Lax`]);
  });

  it("leaves Secure out on an http page (localhost)", async () => {
    const t = setup("http://localhost:3000/");
    await navigated(signInWithOAuth(t.ctx, "google"), t.waits);
    expect(t.writes).toEqual([`${COOKIE}=${VERIFIER}; Max-Age=3600; Path=/; SameSite=Lax`]);
  });

  it("keeps one cookie per flow, so two flows (two tabs) do not overwrite each other", async () => {
    const t = setup();
    await navigated(signInWithOAuth(t.ctx, "google"), t.waits);
    await navigated(signInWithOAuth(t.ctx, "github"), t.waits);
    const states = t.assigned.map((url) => new URL(url).searchParams.get("state"));
    expect(states[0]).not.toBe(states[1]);
    expect([...t.jar.keys()]).toEqual(states.map((s) => `stack-oauth-outer-${s}`));
    expect(t.jar.get(`stack-oauth-outer-${states[1]}`)).toBe(b64url(range(48, 32)));
  });

  it("needs a browser", async () => {
    const { ctx } = testAppContext(noService);
    const error = await rejectionOf(signInWithOAuth(ctx, "google"));
    expect(isStackError(error, "StackConfigurationError")).toBe(true);
    expect((error as Error).message).toMatch(/signInWithOAuth runs in a browser only/);
  });

  it("needs the publishable client key, and says so before leaving the page", async () => {
    const t = setup();
    const ctx: ClientAppContext = { ...t.ctx, publishableClientKey: undefined };
    const error = await rejectionOf(signInWithOAuth(ctx, "google"));
    expect(isStackError(error, "StackConfigurationError")).toBe(true);
    expect(t.assigned).toEqual([]);
    expect(t.writes).toEqual([]);
  });

  it.each([[""], [undefined as unknown as string], [42 as unknown as string]])(
    "rejects the provider %j with a configuration error",
    async (provider) => {
      const t = setup();
      const error = await rejectionOf(signInWithOAuth(t.ctx, provider));
      expect(isStackError(error, "StackConfigurationError")).toBe(true);
      expect(t.assigned).toEqual([]);
    },
  );

  it("rejects a baseUrl that is not an http(s) URL instead of navigating to it", async () => {
    const t = setup();
    const error = await rejectionOf(signInWithOAuth({ ...t.ctx, baseUrl: "javascript:alert(1)//" }, "google"));
    expect(isStackError(error, "StackConfigurationError")).toBe(true);
    expect(t.assigned).toEqual([]);
  });

  it("rejects a returnTo that is not a page (javascript:)", async () => {
    const t = setup();
    const error = await rejectionOf(signInWithOAuth(t.ctx, "google", { returnTo: "javascript:alert(1)" }));
    expect(isStackError(error, "StackConfigurationError")).toBe(true);
    expect(t.assigned).toEqual([]);
  });
});

describe("getOAuthAuthorizeUrl for linking", () => {
  it("adds the access token as token and the provider_scope for type=link", () => {
    const t = setup();
    const url = getOAuthAuthorizeUrl(t.ctx, {
      provider: "github",
      type: "link",
      state: "s".repeat(22),
      codeChallenge: "c".repeat(43),
      token: "at-1",
      providerScope: "repo",
      afterCallbackRedirectUrl: "https://app.example.com/settings",
    });
    expect(Object.fromEntries(queryOf(url))).toMatchObject({
      type: "link",
      after_callback_redirect_url: "https://app.example.com/settings",
      token: "at-1",
      provider_scope: "repo",
    });
  });

  it("refuses type=link without a token", () => {
    const t = setup();
    expect(() => getOAuthAuthorizeUrl(t.ctx, { provider: "github", type: "link", state: "s", codeChallenge: "c" })).toThrow(/access token/);
  });
});

describe("linkOAuthAccount", () => {
  it("sends type=link, the user's access token, the current page as after_callback_redirect_url, and the merged scopes", async () => {
    const t = setup("https://app.example.com/settings?tab=accounts", noService, { oauthScopesOnSignIn: { github: ["read:user", "repo"] } });
    const accessToken = (await t.ctx.sessions().current().getTokens())!.accessToken;
    await navigated(linkOAuthAccount(t.ctx, "github", { scopes: ["repo", "gist"] }), t.waits);
    expect(queryOf(t.assigned[0]!).slice(9)).toEqual([
      ["type", "link"],
      ["error_redirect_url", "https://app.example.com/handler/error"],
      ["after_callback_redirect_url", "https://app.example.com/settings?tab=accounts"],
      ["token", accessToken],
      ["provider_scope", "repo gist read:user"],
    ]);
  });

  it("refreshes an access token with less than 20 s of life before putting it in the URL", async () => {
    const fresh = jwt({ exp: Math.floor(Date.now() / 1000) + 600 });
    const t = setup(undefined, (r) => (r.path === "/api/v1/auth/oauth/token" ? json({ access_token: fresh }) : noService(r)), {
      tokens: { refreshToken: "rt-1", accessToken: jwt({ exp: Math.floor(Date.now() / 1000) + 10 }) },
    });
    await navigated(linkOAuthAccount(t.ctx, "github"), t.waits);
    expect(t.service.requests.map((r) => r.path)).toEqual(["/api/v1/auth/oauth/token"]);
    expect(new URL(t.assigned[0]!).searchParams.get("token")).toBe(fresh);
  });

  it("needs a signed-in user", async () => {
    const t = setup(undefined, noService, { tokens: { refreshToken: null, accessToken: null } });
    const error = await rejectionOf(linkOAuthAccount(t.ctx, "github"));
    expect(isStackError(error, "StackConfigurationError")).toBe(true);
    expect(t.assigned).toEqual([]);
  });
});

const TOKENS = { access_token: AT_NEW, refresh_token: "rt-new", is_new_user: false };
const callbackHref = (extra = "") => `https://app.example.com/handler/oauth-callback?code=the-code&keep=1&state=${STATE}${extra}#frag`;

/** A browser back from the provider: the callback URL, and the verifier cookie of its flow. */
function callback(handler: Handler, href = callbackHref(), cookie: string | null = VERIFIER) {
  const t = setup(href, handler, { tokens: { refreshToken: null, accessToken: null } });
  if (cookie !== null) t.jar.set(COOKIE, cookie);
  const targets: SignInRedirectTarget[] = [];
  const redirectAfter = async (target: SignInRedirectTarget) => void targets.push(target);
  return { ...t, targets, redirectAfter };
}

describe("callOAuthCallback", () => {
  it("deletes the verifier cookie and strips code and state from the address bar before the token request is sent", async () => {
    let seen: { cookie: string | undefined; href: string } | undefined;
    const t = callback(() => {
      seen = { cookie: t.jar.get(COOKIE), href: t.browser.location.href };
      return json(TOKENS);
    });
    expect(await callOAuthCallback(t.ctx, { redirectAfter: t.redirectAfter })).toBe(true);
    expect(seen).toEqual({ cookie: undefined, href: "https://app.example.com/handler/oauth-callback?keep=1#frag" });
    expect(t.writes).toEqual([`${COOKIE}=; Max-Age=0; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Secure; SameSite=Lax`]);
  });

  it("exchanges the code with the form authorization_code grant, without x-stack-* headers", async () => {
    const t = callback(() => json(TOKENS));
    await callOAuthCallback(t.ctx, { redirectAfter: t.redirectAfter });
    expect(t.service.requests).toHaveLength(1);
    const sent: SentRequest = t.service.requests[0]!;
    expect(sent).toMatchObject({
      method: "POST",
      url: "https://api.stack-auth.com/api/v1/auth/oauth/token",
      cache: "no-store",
      credentials: "omit",
    });
    expect(sent.headers).toEqual({ "content-type": "application/x-www-form-urlencoded" });
    expect([...new URLSearchParams(sent.body)]).toEqual([
      ["grant_type", "authorization_code"],
      ["code", "the-code"],
      ["redirect_uri", "https://app.example.com/handler/oauth-callback"],
      ["code_verifier", VERIFIER],
      ["client_id", "proj-1"],
      ["client_secret", "pck-1"],
    ]);
  });

  it("sends the redirect_uri that the authorize URL carried", async () => {
    const t = setup(undefined, () => json(TOKENS), { urls: { oauthCallback: "/cb?code=x&state=y&keep=1" } });
    await navigated(signInWithOAuth(t.ctx, "google"), t.waits);
    const authorize = new URL(t.assigned[0]!);
    t.browser.history.replaceState({}, "", `/cb?keep=1&code=c1&state=${authorize.searchParams.get("state")}`);
    expect(await callOAuthCallback(t.ctx, { redirectAfter: async () => {} })).toBe(true);
    expect(new URLSearchParams(t.service.requests[0]!.body).get("redirect_uri")).toBe(authorize.searchParams.get("redirect_uri"));
    expect(new URLSearchParams(t.service.requests[0]!.body).get("code_verifier")).toBe(VERIFIER);
  });

  it("stores the tokens", async () => {
    const t = callback(() => json(TOKENS));
    await callOAuthCallback(t.ctx, { redirectAfter: t.redirectAfter });
    expect(t.store!.get()).toEqual({ refreshToken: "rt-new", accessToken: AT_NEW });
  });

  it("redirects an existing user to after-sign-in", async () => {
    const t = callback(() => json(TOKENS));
    await callOAuthCallback(t.ctx, { redirectAfter: t.redirectAfter });
    expect(t.targets).toEqual([{ kind: "sign-in" }]);
  });

  it("redirects a new user to after-sign-up", async () => {
    const t = callback(() => json({ ...TOKENS, is_new_user: true }));
    await callOAuthCallback(t.ctx, { redirectAfter: t.redirectAfter });
    expect(t.targets).toEqual([{ kind: "sign-up" }]);
  });

  it("redirects to after_callback_redirect_url when the server gives one", async () => {
    const t = callback(() => json({ ...TOKENS, is_new_user: true, after_callback_redirect_url: "https://app.example.com/settings" }));
    await callOAuthCallback(t.ctx, { redirectAfter: t.redirectAfter });
    expect(t.targets).toEqual([{ url: "https://app.example.com/settings" }]);
  });

  it.each([
    ["no code", `https://app.example.com/handler/oauth-callback?state=${STATE}`, VERIFIER],
    ["no state", "https://app.example.com/handler/oauth-callback?code=the-code", VERIFIER],
    ["no verifier cookie for the state", callbackHref(), null],
    ["a state this library never makes", "https://app.example.com/handler/oauth-callback?code=c&state=a%3B%20b", VERIFIER],
  ])("is not a callback with %s: resolves false and touches nothing", async (_, href, cookie) => {
    const t = callback(noService, href, cookie);
    expect(await callOAuthCallback(t.ctx, { redirectAfter: t.redirectAfter })).toBe(false);
    expect(t.service.requests).toEqual([]);
    expect(t.writes).toEqual([]);
    expect(t.browser.location.href).toBe(new URL(href).href);
    expect(t.targets).toEqual([]);
  });

  it("throws the known error a service sent back instead of a code (2.8.86), taking its query out of the URL", async () => {
    const href =
      "https://app.example.com/handler/oauth-callback?after=1&error=server_error&error_description=Denied.&errorCode=OAUTH_PROVIDER_ACCESS_DENIED" +
      "&message=The+OAuth+provider+denied+access+to+the+user.&details=%7B%7D";
    const t = callback(noService, href, null);
    const error = await rejectionOf(callOAuthCallback(t.ctx, { redirectAfter: t.redirectAfter }));
    expect(error).toBeInstanceOf(KnownErrors.OAuthProviderAccessDenied);
    expect((error as Error).message).toBe("The OAuth provider denied access to the user.");
    expect(t.browser.location.href).toBe("https://app.example.com/handler/oauth-callback?after=1");
    expect([t.service.requests, t.writes, t.targets]).toEqual([[], [], []]);
  });

  it("keeps a code it does not know as a typed error, and details that are not JSON out", async () => {
    const href = "https://app.example.com/handler/oauth-callback?errorCode=SOMETHING_NEWER&message=Later.&details=%7Bnot-json";
    const t = callback(noService, href, null);
    const error = await rejectionOf(callOAuthCallback(t.ctx, { redirectAfter: t.redirectAfter }));
    expect(error).toBeInstanceOf(KnownErrors.UnsupportedError);
    expect(error).toMatchObject({ message: "Later.", details: { originalErrorCode: "SOMETHING_NEWER" } });
    expect(t.browser.location.href).toBe("https://app.example.com/handler/oauth-callback");
  });

  it("lets only one of two handlers running at once use the code", async () => {
    const t = callback(() => json(TOKENS));
    const results = await Promise.all([
      callOAuthCallback(t.ctx, { redirectAfter: t.redirectAfter }),
      callOAuthCallback(t.ctx, { redirectAfter: t.redirectAfter }),
    ]);
    expect(results).toEqual([true, false]);
    expect(t.service.requests).toHaveLength(1);
  });

  it("surfaces MULTI_FACTOR_AUTHENTICATION_REQUIRED as a typed error carrying the attempt code, with nothing stored", async () => {
    const t = callback(() =>
      knownError(400, "MULTI_FACTOR_AUTHENTICATION_REQUIRED", "Multi-factor authentication is required for this user.", {
        attempt_code: "att-1",
      }),
    );
    const error = await rejectionOf(callOAuthCallback(t.ctx, { redirectAfter: t.redirectAfter }));
    expect(error).toBeInstanceOf(KnownErrors.MultiFactorAuthenticationRequired);
    expect((error as InstanceType<typeof KnownErrors.MultiFactorAuthenticationRequired>).details).toEqual({ attempt_code: "att-1" });
    expect(t.store!.get()).toEqual({ refreshToken: null, accessToken: null });
    expect(t.targets).toEqual([]);
  });

  it("throws other failures as typed errors, with the verifier already gone and the code out of the address bar", async () => {
    const t = callback(() => knownError(400, "INVALID_AUTHORIZATION_CODE", "The given authorization code is invalid."));
    const error = await rejectionOf(callOAuthCallback(t.ctx, { redirectAfter: t.redirectAfter }));
    expect(error).toBeInstanceOf(KnownErrors.InvalidAuthorizationCode);
    expect(t.jar.has(COOKIE)).toBe(false);
    expect(t.browser.location.href).toBe("https://app.example.com/handler/oauth-callback?keep=1#frag");
    expect(t.service.requests).toHaveLength(1);
  });

  it("throws an assertion error when the grant answers without a refresh token", async () => {
    const t = callback(() => json({ access_token: AT_NEW }));
    const error = await rejectionOf(callOAuthCallback(t.ctx, { redirectAfter: t.redirectAfter }));
    expect(isStackError(error, "StackAssertionError")).toBe(true);
    expect((error as Error).message).toBe("The authorization-code grant answered without an access_token and a refresh_token");
    expect(t.targets).toEqual([]);
  });

  it("needs redirectAfter, and says so before consuming anything", async () => {
    const t = callback(noService);
    const error = await rejectionOf(callOAuthCallback(t.ctx, {} as never));
    expect(isStackError(error, "StackConfigurationError")).toBe(true);
    expect(t.writes).toEqual([]);
    expect(t.browser.location.href).toBe(callbackHref());
  });

  it("needs a browser", async () => {
    const { ctx } = testAppContext(noService);
    const error = await rejectionOf(callOAuthCallback(ctx, { redirectAfter: async () => {} }));
    expect(isStackError(error, "StackConfigurationError")).toBe(true);
  });
});
