// StackClientApp end to end over a fake service: the user with each `or`
// option, anonymous sign-up, sign-in and sign-out with their redirects.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import "../../helpers/lazy-modules.js";
import { StackClientApp, type StackClientAppOptions } from "../../../runtime/app/client-app.js";
import { StackConfigurationError, UserNotSignedInError } from "../../../runtime/errors.js";
import { VERSION } from "../../../runtime/version.js";
import { createMemoryTokenStore } from "../../../runtime/sessions/tokens/memory.js";
import type { TokenPair } from "../../../runtime/sessions/tokens/store.js";
import { doc } from "../../fixtures/document.js";
import { fakeBrowser, signedInTokens } from "../../helpers/app-context.js";
import { answerAsDocumented, wireTokens } from "../../helpers/documented-answers.js";
import { fakeService, json, jwt, knownError, testEnvironment, useFakeClock, type Handler } from "../../helpers/fake-service.js";
import { rejectionOf, settleOnFakeTime } from "../../helpers/outcome.js";

const exampleUser = doc.components.examples["ClientUser"]!.value as Record<string, unknown>;
const tokens = (sub: string) =>
  wireTokens({ access_token: jwt({ exp: Math.floor(Date.now() / 1000) + 3600, sub }), refresh_token: `rt-${sub}` });

function setup(handler: Handler, options: { tokens?: TokenPair; href?: string; app?: Partial<StackClientAppOptions> } = {}) {
  const service = fakeService(handler);
  const { env, waits } = testEnvironment(service.fetch);
  const store = createMemoryTokenStore(options.tokens ?? { refreshToken: null, accessToken: null });
  const page = fakeBrowser(options.href ?? "https://app.example.com/dashboard?tab=1");
  const navigations: string[] = [];
  const app = new StackClientApp({
    projectId: "proj-1",
    publishableClientKey: "pck-1",
    tokenStore: store,
    environment: env,
    browser: page.browser,
    redirectMethod: { navigate: (url) => void navigations.push(url) },
    noAutomaticPrefetch: true,
    ...options.app,
  });
  return { app, service, store, waits, navigations };
}

const settle = settleOnFakeTime;

beforeEach(() => useFakeClock());
afterEach(() => vi.useRealTimers());

describe("getUser", () => {
  it("returns the signed-in user with the reference's field names", async () => {
    const { app, service } = setup(() => json(exampleUser), { tokens: signedInTokens() });
    const user = await app.getUser();
    expect(service.requests.map((r) => `${r.method} ${r.path}`)).toEqual(["GET /api/v1/users/me"]);
    expect(user).toMatchObject({
      id: exampleUser["id"],
      primaryEmail: "ada@example.com",
      displayName: "Ada Lovelace",
      primaryEmailVerified: true,
      isAnonymous: false,
      signedUpAt: new Date(1763251200000),
    });
  });

  it("returns null without a request when nobody is signed in", async () => {
    const { app, service } = setup(() => json(exampleUser));
    expect(await app.getUser()).toBeNull();
    expect(service.requests).toHaveLength(0);
  });

  it("returns null when the service says the tokens have no user", async () => {
    const { app } = setup(() => knownError(400, "CANNOT_GET_OWN_USER_WITHOUT_USER", "No user."), { tokens: signedInTokens() });
    expect(await app.getUser({ or: "return-null" })).toBeNull();
  });

  it("with or: 'throw' fails with the spec's message", async () => {
    const { app } = setup(() => json(exampleUser));
    await expect(app.getUser({ or: "throw" })).rejects.toThrow(
      new UserNotSignedInError("User is not signed in but getUser was called with { or: 'throw' }"),
    );
  });

  it("with or: 'redirect' calls the app's navigate with sign-in and after_auth_return_to, then resolves null after 2000 ms, as the reference does", async () => {
    const { app, navigations, waits } = setup(() => json(exampleUser));
    await expect(settle(app.getUser({ or: "redirect" }))).resolves.toBeNull();
    expect(navigations).toEqual([`/handler/sign-in?after_auth_return_to=${encodeURIComponent("/dashboard?tab=1")}`]);
    expect(waits).toContain(2000);
  });

  it("with or: 'redirect' and redirectMethod 'none' throws UserNotSignedInError, since nothing can navigate", async () => {
    const { app, navigations } = setup(() => json(exampleUser), { app: { redirectMethod: "none" } });
    const error = await rejectionOf(app.getUser({ or: "redirect" }));
    expect(error).toBeInstanceOf(UserNotSignedInError);
    expect((error as Error).message).toBe(
      "User is not signed in; getUser({ or: 'redirect' }) cannot go to the sign-in page because this app's redirectMethod is \"none\".",
    );
    expect(navigations).toEqual([]);
  });

  it("with tokenStore reads the user of those tokens, not of the app's store, as the reference does", async () => {
    const theirs = signedInTokens("rt-theirs");
    const { app, service } = setup((r) =>
      r.headers["x-stack-access-token"] ? json(exampleUser) : knownError(400, "CANNOT_GET_OWN_USER_WITHOUT_USER", "No user."),
    );
    expect(await app.getUser()).toBeNull();
    const user = await app.getUser({ tokenStore: { accessToken: theirs.accessToken!, refreshToken: theirs.refreshToken! } });
    expect(user?.id).toBe(exampleUser["id"]);
    expect(service.requests.map((r) => r.headers["x-stack-access-token"])).toEqual([theirs.accessToken]);
  });

  it("reads or: 'anonymous-if-exists[deprecated]' (the newer reference's name) as 'anonymous-if-exists'", async () => {
    const { app } = setup(() => json({ ...exampleUser, is_anonymous: true }), { tokens: signedInTokens() });
    expect(await app.getUser({ or: "anonymous-if-exists[deprecated]" })).toMatchObject({ isAnonymous: true });
  });

  it("counts an anonymous user as signed out unless anonymous access is asked for", async () => {
    const { app } = setup(() => json({ ...exampleUser, is_anonymous: true }), { tokens: signedInTokens() });
    expect(await app.getUser()).toBeNull();
    expect(await app.getUser({ or: "anonymous-if-exists" })).toMatchObject({ isAnonymous: true });
    expect(await app.getUser({ or: "anonymous" })).toMatchObject({ isAnonymous: true });
  });

  it("with or: 'anonymous' signs up once for ten concurrent calls", async () => {
    const handler: Handler = (r) => {
      if (r.path === "/api/v1/auth/anonymous/sign-up") return json(tokens("anon"));
      return r.headers["x-stack-access-token"]
        ? json({ ...exampleUser, is_anonymous: true })
        : knownError(400, "CANNOT_GET_OWN_USER_WITHOUT_USER", "No user.");
    };
    const { app, service, store } = setup(handler);
    const users = await Promise.all(Array.from({ length: 10 }, () => app.getUser({ or: "anonymous" })));
    expect(service.requests.filter((r) => r.path === "/api/v1/auth/anonymous/sign-up")).toHaveLength(1);
    expect(users.every((u) => u.isAnonymous)).toBe(true);
    expect(store.get().refreshToken).toBe("rt-anon");
  });

  it("with or: 'anonymous' can try again after a failed sign-up", async () => {
    let signUps = 0;
    const { app } = setup((r) => {
      if (r.path === "/api/v1/auth/anonymous/sign-up")
        return ++signUps === 1 ? new Response("down", { status: 503 }) : json(tokens("anon"));
      return r.headers["x-stack-access-token"]
        ? json({ ...exampleUser, is_anonymous: true })
        : knownError(400, "CANNOT_GET_OWN_USER_WITHOUT_USER", "No user.");
    });
    await expect(app.getUser({ or: "anonymous" })).rejects.toMatchObject({ name: "HttpError", status: 503 });
    expect(await app.getUser({ or: "anonymous" })).toMatchObject({ isAnonymous: true });
  });

  it("names the tokenStore option when the app has none", async () => {
    const { app } = setup(() => json(exampleUser), { app: { tokenStore: null } });
    await expect(app.getUser()).rejects.toBeInstanceOf(StackConfigurationError);
    await expect(app.getUser()).rejects.toThrow(/tokenStore/);
  });
});

describe("sign-in and sign-out", () => {
  it("signInWithCredential stores the tokens and returns to after_auth_return_to", async () => {
    const { app, store, navigations, service } = setup(() => json(tokens("ada")), {
      href: "https://app.example.com/handler/sign-in?after_auth_return_to=%2Fbilling",
    });
    const result = await settle(app.signInWithCredential({ email: "ada@example.com", password: "pw" }));
    expect(result).toEqual({ status: "ok", data: undefined });
    expect(JSON.parse(service.requests[0]!.body)).toEqual({ email: "ada@example.com", password: "pw" });
    expect(store.get().refreshToken).toBe("rt-ada");
    expect(navigations).toEqual(["/billing"]);
  });

  it("signInWithCredential returns EMAIL_PASSWORD_MISMATCH as a Result error and stores nothing", async () => {
    const { app, store, navigations } = setup(() => knownError(400, "EMAIL_PASSWORD_MISMATCH", "Wrong e-mail or password."));
    const result = await settle(app.signInWithCredential({ email: "ada@example.com", password: "bad" }));
    expect(result).toMatchObject({ status: "error", error: { code: "EMAIL_PASSWORD_MISMATCH" } });
    expect(store.get()).toEqual({ refreshToken: null, accessToken: null });
    expect(navigations).toEqual([]);
  });

  it("signOut ends the session, clears the store and goes to after-sign-out", async () => {
    const { app, store, navigations, service } = setup(() => json({ success: true }), { tokens: signedInTokens() });
    await settle(app.signOut());
    expect(service.requests.map((r) => `${r.method} ${r.path}`)).toEqual(["DELETE /api/v1/auth/sessions/current"]);
    expect(store.get()).toEqual({ refreshToken: null, accessToken: null });
    expect(navigations).toEqual(["/"]);
  });

  it("user.signOut works for an anonymous user", async () => {
    const { app, store } = setup((r) => (r.method === "GET" ? json({ ...exampleUser, is_anonymous: true }) : json({ success: true })), {
      tokens: signedInTokens(),
    });
    const user = await app.getUser({ or: "anonymous-if-exists" });
    await settle(user!.signOut());
    expect(store.get()).toEqual({ refreshToken: null, accessToken: null });
  });
});

describe("the app", () => {
  it("has the handler URL set with its defaults and overrides", () => {
    const { app } = setup(() => json({}), { app: { urls: { handler: "/auth", home: "/start" } } });
    expect(app.urls).toMatchObject({
      signIn: "/auth/sign-in",
      oauthCallback: "/auth/oauth-callback",
      afterSignIn: "/start",
      afterSignUp: "/start",
      afterSignOut: "/start",
    });
  });

  it("sends nothing when constructed in a browser, and reads the project once, when asked", async () => {
    const { app, service } = setup(() => json(doc.components.examples["ClientProject"]!.value), {
      app: { noAutomaticPrefetch: false },
    });
    await settle(Promise.resolve());
    expect(service.requests).toEqual([]);
    const project = await app.getProject();
    expect(project.config.signUpEnabled).toBe(true);
    expect((await app.getProject()).displayName).toBe(project.displayName);
    expect(service.requests.map((r) => `${r.method} ${r.path}`)).toEqual(["GET /api/v1/projects/current"]);
  });

  it("sends only GET /users/me on a page load that asks for the user", async () => {
    const { app, service } = setup(() => json(exampleUser), { tokens: signedInTokens(), app: { noAutomaticPrefetch: false } });
    await app.getUser();
    await app.getPartialUser({ from: "token" });
    expect(service.requests.map((r) => `${r.method} ${r.path}`)).toEqual(["GET /api/v1/users/me"]);
  });

  it("picks the browser base URL in a browser", async () => {
    const { app, service } = setup(answerAsDocumented, {
      app: { baseUrl: { browser: "https://auth.example.com", server: "http://auth.internal" } },
    });
    await app.api.GET("/projects/current");
    expect(service.requests[0]!.url).toBe("https://auth.example.com/api/v1/projects/current");
  });

  it("answers as its version the x-stack-client-version it sends", async () => {
    const { app, service } = setup(answerAsDocumented);
    await app.api.GET("/projects/current");
    expect(app.version).toBe(`js stackkit@${VERSION}`);
    expect(service.requests[0]!.headers["x-stack-client-version"]).toBe(app.version);
  });

  it("exposes the typed low-level client with the app's headers", async () => {
    const { app, service } = setup(answerAsDocumented);
    await app.api.GET("/projects/current");
    expect(service.requests[0]!.headers).toMatchObject({
      "x-stack-access-type": "client",
      "x-stack-publishable-client-key": "pck-1",
      "x-stack-project-id": "proj-1",
    });
  });

  it("refuses a relative callback URL when there is no page to resolve it against", async () => {
    const { app } = setup(() => json({}), { app: { browser: null } });
    await expect(app.sendForgotPasswordEmail("ada@example.com")).rejects.toBeInstanceOf(StackConfigurationError);
  });
});

describe("the constructor", () => {
  // Issue 13 §2: the second argument was meant for the server and admin apps only,
  // yet any caller could hand secret keys to a client app through it.
  it.each([
    ["the secret server key", { secretServerKey: "ssk-leak" }],
    ["the keys and another access type", { accessType: "server", secretServerKey: "ssk-leak", superSecretAdminKey: "sak-leak" }],
  ])("takes no settings beside its options: %s given as a second argument are not sent", async (_, settings) => {
    const service = fakeService(answerAsDocumented);
    const { env } = testEnvironment(service.fetch);
    const options: StackClientAppOptions = {
      projectId: "proj-1",
      publishableClientKey: "pck-1",
      tokenStore: null,
      environment: env,
      browser: null,
    };
    // @ts-expect-error the constructor takes the options only
    const app = new StackClientApp(options, settings);
    await app.api.GET("/projects/current");
    const headers = service.requests[0]!.headers;
    expect(headers["x-stack-access-type"]).toBe("client");
    expect(headers).not.toHaveProperty("x-stack-secret-server-key");
    expect(headers).not.toHaveProperty("x-stack-super-secret-admin-key");
    expect(JSON.stringify(service.requests[0])).not.toContain("-leak");
  });

  it("reads no keys but the publishable one from its options", async () => {
    const service = fakeService(answerAsDocumented);
    const { env } = testEnvironment(service.fetch);
    const options = {
      projectId: "proj-1",
      tokenStore: null,
      environment: env,
      browser: null,
      secretServerKey: "ssk-leak",
      accessType: "server",
    };
    const app = new StackClientApp(options as StackClientAppOptions);
    await app.api.GET("/projects/current");
    expect(service.requests[0]!.headers["x-stack-access-type"]).toBe("client");
    expect(JSON.stringify(service.requests[0])).not.toContain("-leak");
  });
});

describe("getAccessToken and getRefreshToken", () => {
  it("read the signed-in user (GET /users/me) and answer its session's tokens", async () => {
    const signedIn = signedInTokens("rt-ada");
    const { app, service } = setup(() => json(exampleUser), { tokens: signedIn });
    expect(await app.getAccessToken()).toBe(signedIn.accessToken);
    expect(await app.getRefreshToken()).toBe("rt-ada");
    expect(service.requests.map((r) => `${r.method} ${r.path}`)).toEqual(["GET /api/v1/users/me", "GET /api/v1/users/me"]);
  });

  it("answer null without a request when nobody is signed in", async () => {
    const { app, service } = setup(() => json(exampleUser));
    expect(await app.getAccessToken()).toBeNull();
    expect(await app.getRefreshToken()).toBeNull();
    expect(service.requests).toEqual([]);
  });

  it("answer null for an anonymous user, whom getUser leaves out", async () => {
    const { app } = setup(() => json({ ...exampleUser, is_anonymous: true }), { tokens: signedInTokens() });
    expect(await app.getAccessToken()).toBeNull();
    expect(await app.getRefreshToken()).toBeNull();
  });

  it("read the tokens of the token store named in the call", async () => {
    const other = signedInTokens("rt-other");
    const { app, service } = setup(() => json(exampleUser));
    expect(await app.getAccessToken({ tokenStore: other })).toBe(other.accessToken);
    expect(await app.getRefreshToken({ tokenStore: other })).toBe("rt-other");
    expect(service.requests.map((r) => r.headers["x-stack-access-token"])).toEqual([other.accessToken, other.accessToken]);
  });
});

describe("onSessionChange", () => {
  it("tells of sign-in and sign-out, not of access-token refreshes of the same session", () => {
    const { app, store } = setup(() => json({}));
    const seen: number[] = [];
    const stop = app.onSessionChange(() => seen.push(seen.length));
    store.set({ refreshToken: "rt-1", accessToken: "at-1" });
    store.set({ refreshToken: "rt-1", accessToken: "at-2" });
    store.set({ refreshToken: null, accessToken: null });
    stop();
    store.set({ refreshToken: "rt-2", accessToken: null });
    expect(seen).toEqual([0, 1]);
  });
});
