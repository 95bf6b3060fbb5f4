// OAuth against the emulator, driven as a browser would in Node: the SDK's
// signInWithOAuth sends the browser to the authorize URL; we follow it to the
// fake provider's page, post its form, follow the service's callback back to
// the app's redirect_uri with code and state, and let callOAuthCallback run the
// code exchange. Every API exchange is checked against the document.
import { generateHOTP } from "@oslojs/otp";
import { describe, expect, it, vi } from "vitest";
import { DEMO_KEYS, type Emulator } from "../../emulator/index.js";
import type { ProjectConfigRecord } from "../../emulator/engine/store.js";
import { isKnownError, SessionEndedError, StackAdminApp, StackClientApp, StackServerApp, type Browser } from "../../runtime/index.js";
import { checkedEmulator, useEmulator } from "../helpers/emulator.js";
import { formOf, rawAuthorizeUrl } from "../helpers/provider-page.js";

const emulator = useEmulator();
const APP = "http://localhost:3000";
const MINUTE = 60_000;
const store = () => emulator().engine.ctx.store;

/** A browser whose address bar moves: assign() records the navigation and goes there. */
function fakeBrowser(href = `${APP}/handler/sign-in`) {
  let url = new URL(href);
  const jar = new Map<string, string>();
  const assigned: string[] = [];
  const replaced: string[] = [];
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
    assign: (to: string) => void assigned.push((url = new URL(to, url)).href),
    replace: (to: string) => void replaced.push((url = new URL(to, url)).href),
  };
  const document = {
    get cookie() {
      return [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
    },
    set cookie(assignment: string) {
      const [pair = "", ...attributes] = assignment.split(";").map((s) => s.trim());
      const name = pair.slice(0, pair.indexOf("="));
      if (attributes.some((a) => /^max-age=0$/i.test(a))) jar.delete(name);
      else jar.set(name, pair.slice(pair.indexOf("=") + 1));
    },
  };
  const browser: Browser = { location, document, history: { replaceState: (_d, _u, to) => void (url = new URL(to, url)) } };
  return { browser, jar, assigned, replaced, goTo: (to: string) => void (url = new URL(to)) };
}
type FakeBrowser = ReturnType<typeof fakeBrowser>;

function env() {
  const e = emulator();
  // Navigation waits (2000 ms) pass at once here; other timers keep their length.
  const setTimeout = (callback: () => void, ms: number) => globalThis.setTimeout(callback, ms === 2000 ? 0 : ms);
  return { fetch: e.fetch, now: () => e.control.now(), setTimeout, clearTimeout: (id: unknown) => globalThis.clearTimeout(id as never) };
}
const common = () => ({
  projectId: DEMO_KEYS.projectId,
  publishableClientKey: DEMO_KEYS.publishableClientKey,
  baseUrl: emulator().apiOrigin,
  environment: env(),
  noAutomaticPrefetch: true,
});
const clientApp = (fake: FakeBrowser) =>
  new StackClientApp({
    ...common(),
    browser: fake.browser,
    tokenStore: "memory",
    urls: { afterSignIn: "/after-sign-in", afterSignUp: "/after-sign-up" },
  });
const serverApp = () => new StackServerApp({ ...common(), browser: null, tokenStore: null, secretServerKey: DEMO_KEYS.secretServerKey });

/** GitHub with the project's own keys, Google with shared ones, and the rest of the config as given, through the admin API. */
async function configure(config: Partial<ProjectConfigRecord> = {}) {
  const admin = new StackAdminApp({
    ...common(),
    browser: null,
    tokenStore: null,
    secretServerKey: DEMO_KEYS.secretServerKey,
    superSecretAdminKey: DEMO_KEYS.superSecretAdminKey,
  });
  const oauth_providers = [
    { id: "github", type: "standard" as const, client_id: "gh-client", client_secret: "gh-secret" },
    { id: "google", type: "shared" as const },
  ];
  await admin.api.PATCH("/internal/projects/current", { body: { config: { oauth_providers, ...config } } });
}

interface Visit {
  readonly landed?: URL;
  readonly status: number;
  readonly text: string;
  readonly url: string;
  readonly headers: Headers;
}

/** Requests `url` on the emulator and follows its redirects while they stay there; stops at the first page of the app. */
async function browse(url: string, init: RequestInit = {}): Promise<Visit> {
  const e = emulator();
  for (let hops = 0; hops < 10; hops++) {
    const response = await e.fetch(new Request(url, { ...init, redirect: "manual" }));
    const location = response.headers.get("location");
    if (response.status < 300 || response.status >= 400 || location === null) {
      return { status: response.status, text: await response.text(), url, headers: response.headers };
    }
    const next = new URL(location, url);
    if (next.origin !== new URL(e.apiOrigin).origin)
      return { landed: next, status: response.status, text: "", url, headers: response.headers };
    if (response.status === 303) init = {};
    url = next.toString();
  }
  throw new Error("too many redirects");
}

const post = (form: { action: string; fields: URLSearchParams }) =>
  browse(form.action, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: form.fields.toString() });

type Choice = { email?: string; name?: string; accountId?: string; verified?: boolean } | { known: number } | "deny";

/** On the provider's page: continue as someone, or deny. */
function choose(page: Visit, choice: Choice) {
  if (choice === "deny") return post(formOf(page, { id: "oauth-deny-form" }));
  if ("known" in choice) return post(formOf(page, { testid: "oauth-known-identity", index: choice.known }));
  const form = formOf(page, { id: "oauth-identity-form" });
  form.fields.set("email", choice.email ?? "");
  form.fields.set("name", choice.name ?? "");
  form.fields.set("account_id", choice.accountId ?? "");
  if (choice.verified === false) form.fields.delete("email_verified");
  return post(form);
}

/** Starts a flow in the SDK (which sends the browser away) and follows it to the provider's page. */
async function consentPage(fake: FakeBrowser, start: () => Promise<unknown>): Promise<Visit> {
  const before = fake.assigned.length;
  void start().catch(() => {});
  await vi.waitFor(() => expect(fake.assigned.length).toBeGreaterThan(before));
  const page = await browse(fake.assigned.at(-1)!);
  expect(page.status).toBe(200);
  return page;
}

/** The whole flow: authorize, consent, callback; `landed` is where the browser ends up on the app. */
async function oauth(fake: FakeBrowser, start: () => Promise<unknown>, choice: Choice) {
  const page = await consentPage(fake, start);
  const back = await choose(page, choice);
  if (back.landed) fake.goTo(back.landed.toString());
  return back;
}

/** Signs in or up with GitHub through the flow and the SDK's callback; where the app redirected after. */
async function signInWithGitHub(choice: Choice, fake = fakeBrowser()) {
  const app = clientApp(fake);
  const back = await oauth(fake, () => app.signInWithOAuth("github"), choice);
  expect(back.landed?.pathname).toBe("/handler/oauth-callback");
  expect(await app.callOAuthCallback()).toBe(true);
  return { app, fake, landedOn: new URL(fake.replaced.at(-1)!).pathname, user: await app.getUser({ or: "throw" }) };
}

/** A password user signed in on the app's settings page. */
async function signedInWithPassword(fake = fakeBrowser(`${APP}/settings`)) {
  await emulator().control.createUser({ projectId: DEMO_KEYS.projectId, email: "bob@example.com", password: "correct horse battery" });
  const app = clientApp(fake);
  expect((await app.signInWithCredential({ email: "bob@example.com", password: "correct horse battery" })).status).toBe("ok");
  fake.goTo(`${APP}/settings`);
  return { app, fake, user: await app.getUser({ or: "throw" }) };
}

const errorOf = (visit: Visit) => Object.fromEntries(visit.landed?.searchParams ?? []);

describe("OAuth sign-in through the fake provider", () => {
  it("signs a new user up: is_new_user lands on after-sign-up, with the provider account and a verified e-mail", async () => {
    await configure();
    const fake = fakeBrowser();
    const { landedOn, user } = await signInWithGitHub({ email: "ada@example.com", name: "Ada" }, fake);
    expect(landedOn).toBe("/after-sign-up");
    expect(user).toMatchObject({ primaryEmail: "ada@example.com", primaryEmailVerified: true, displayName: "Ada" });
    expect(user.oauthProviders).toEqual([{ id: "github", accountId: "ada@example.com", email: "ada@example.com" }]);
    // The verifier cookie is gone and the address bar has no code or state.
    expect([...fake.jar.keys()].filter((k) => k.startsWith("stack-oauth-outer-"))).toEqual([]);
    expect(fake.browser.location.href).not.toMatch(/code=|state=/);
  });

  it("signs an existing account in: the page offers it, and the user lands on after-sign-in", async () => {
    await configure();
    const first = await signInWithGitHub({ email: "ada@example.com", name: "Ada" });
    const fake = fakeBrowser();
    const page = await consentPage(fake, () => clientApp(fake).signInWithOAuth("github"));
    expect(page.text).toContain("Continue as Ada (ada@example.com)");
    for (const id of ["oauth-email", "oauth-name", "oauth-account-id", "oauth-continue", "oauth-deny"])
      expect(page.text).toContain(`data-testid="${id}"`);
    const again = await signInWithGitHub({ known: 0 });
    expect(again.landedOn).toBe("/after-sign-in");
    expect(again.user.id).toBe(first.user.id);
  });

  it("honours returnTo as after_callback_redirect_url", async () => {
    await configure();
    const fake = fakeBrowser();
    const app = clientApp(fake);
    await oauth(fake, () => app.signInWithOAuth("github", { returnTo: "/dashboard?tab=2" }), { email: "ada@example.com" });
    await app.callOAuthCallback();
    expect(fake.replaced.at(-1)).toBe(`${APP}/dashboard?tab=2`);
  });

  it("asks a TOTP user for the second factor, which completes the sign-in", async () => {
    await configure();
    const { user } = await signInWithGitHub({ email: "ada@example.com" });
    const secret = Uint8Array.from({ length: 20 }, (_, i) => i + 1);
    store().updateUser(user.id, { totp_secret_base64: Buffer.from(secret).toString("base64") });
    const fake = fakeBrowser();
    const app = clientApp(fake);
    await oauth(fake, () => app.signInWithOAuth("github"), { known: 0 });
    const error = await app.callOAuthCallback().catch((e: unknown) => e);
    expect(isKnownError(error, "MULTI_FACTOR_AUTHENTICATION_REQUIRED")).toBe(true);
    const attemptCode = (error as { details: { attempt_code: string } }).details.attempt_code;
    const totp = generateHOTP(secret, BigInt(Math.floor(emulator().control.now() / 30_000)), 6);
    expect((await app.signInWithMfa(totp, attemptCode)).status).toBe("ok");
    expect((await app.getUser({ or: "throw" })).id).toBe(user.id);
  });
});

describe("account merging by e-mail", () => {
  async function withPasswordUser(strategy: ProjectConfigRecord["oauth_account_merge_strategy"], emailVerified = true) {
    await configure({ oauth_account_merge_strategy: strategy });
    return emulator().control.createUser({
      projectId: DEMO_KEYS.projectId,
      email: "ada@example.com",
      password: "correct horse battery",
      emailVerified,
    });
  }

  it("link_method links the account to the user with that verified e-mail", async () => {
    const existing = await withPasswordUser("link_method");
    const { landedOn, user } = await signInWithGitHub({ email: "ada@example.com", accountId: "4242" });
    expect(landedOn).toBe("/after-sign-in");
    expect(user.id).toBe(existing.id);
    expect(user.oauthProviders).toEqual([{ id: "github", accountId: "4242", email: "ada@example.com" }]);
  });

  it("link_method refuses an e-mail the user has not verified, sending the browser back to the trusted redirect_uri (2.8.86)", async () => {
    await withPasswordUser("link_method", false);
    const fake = fakeBrowser();
    const back = await oauth(fake, () => clientApp(fake).signInWithOAuth("github"), { email: "ada@example.com" });
    expect(back.landed?.pathname).toBe("/handler/oauth-callback");
    expect(errorOf(back)).toMatchObject({ error: "server_error", errorCode: "CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE" });
    // Verifying the address would let the account link: 2.8.86 says so.
    expect(JSON.parse(errorOf(back)["details"]!)).toEqual({
      type: "email",
      contact_channel_value: "ada@example.com",
      would_work_if_email_was_verified: true,
    });
  });

  it("raise_error answers CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE", async () => {
    await withPasswordUser("raise_error");
    const fake = fakeBrowser();
    const back = await oauth(fake, () => clientApp(fake).signInWithOAuth("github"), { email: "ada@example.com" });
    expect(errorOf(back)).toMatchObject({
      errorCode: "CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE",
      message: 'This email "(ada@example.com)" is already used for authentication by another account.',
    });
  });

  it("allow_duplicates makes a second user, whose e-mail does not sign in", async () => {
    const existing = await withPasswordUser("allow_duplicates");
    const { landedOn, user } = await signInWithGitHub({ email: "ada@example.com" });
    expect(landedOn).toBe("/after-sign-up");
    expect(user.id).not.toBe(existing.id);
    expect((await user.listContactChannels()).map((c) => [c.value, c.usedForAuth])).toEqual([["ada@example.com", false]]);
  });
});

describe("linking and connected accounts", () => {
  it("links GitHub with extra scopes to the signed-in user, whose token then has them", async () => {
    await configure();
    const { app, fake, user } = await signedInWithPassword();
    expect(await user.getConnectedAccount("github")).toBeNull();
    const page = await consentPage(fake, () => user.getConnectedAccount("github", { or: "redirect", scopes: ["repo"] }));
    expect(page.text).toContain("user:email repo");
    const back = await choose(page, { email: "bob@users.github.example", accountId: "777" });
    fake.goTo(back.landed!.toString());
    expect(await app.callOAuthCallback()).toBe(true);
    expect(fake.replaced.at(-1)).toBe(`${APP}/settings`);
    const linked = await app.getUser({ or: "throw" });
    expect(linked.id).toBe(user.id);
    expect(linked.oauthProviders).toEqual([{ id: "github", accountId: "777", email: "bob@users.github.example" }]);
    const account = await linked.getConnectedAccount("github", { scopes: ["repo"] });
    expect((await account!.getAccessToken()).accessToken).toMatch(/^emulated_github_/);
    expect(await linked.getConnectedAccount("github", { scopes: ["admin:org"] })).toBeNull();
    const error = await linked.getConnectedAccount("github", { scopes: ["admin:org"], or: "throw" }).catch((e: unknown) => e);
    expect(isKnownError(error, "OAUTH_CONNECTION_DOES_NOT_HAVE_REQUIRED_SCOPE")).toBe(true);
    // Server code reads the same connection by user id.
    expect(await (await serverApp().getUser(user.id))!.getConnectedAccount("github", { scopes: ["repo"] })).not.toBeNull();
    // The connection acts for the session it was read in: once that has ended, it sends nothing.
    await app.signOut();
    emulator().control.clearRequests();
    await expect(account!.getAccessToken()).rejects.toBeInstanceOf(SessionEndedError);
    expect(emulator().control.requests()).toEqual([]);
  });

  it("answers OAUTH_CONNECTION_NOT_CONNECTED_TO_USER without a connection, and no token with shared keys", async () => {
    await configure();
    const { user } = await signedInWithPassword();
    const notConnected = await user.getConnectedAccount("github", { or: "throw" }).catch((e: unknown) => e);
    expect(isKnownError(notConnected, "OAUTH_CONNECTION_NOT_CONNECTED_TO_USER")).toBe(true);
    const shared = await user.getConnectedAccount("google", { or: "throw" }).catch((e: unknown) => e);
    expect(isKnownError(shared, "OAUTH_ACCESS_TOKEN_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS")).toBe(true);
  });

  it("refuses to link an account that another user signs in with", async () => {
    await configure();
    await signInWithGitHub({ email: "ada@example.com" });
    const { user, fake } = await signedInWithPassword();
    const back = await oauth(fake, () => user.getConnectedAccount("github", { or: "redirect" }), { known: 0 });
    expect(errorOf(back)).toMatchObject({ errorCode: "OAUTH_CONNECTION_ALREADY_CONNECTED_TO_ANOTHER_USER" });
  });
});

describe("what the flow refuses", () => {
  /** A flow up to the app's callback page, and the code and verifier it carries. */
  async function atCallback() {
    await configure();
    const fake = fakeBrowser();
    const app = clientApp(fake);
    const back = await oauth(fake, () => app.signInWithOAuth("github"), { email: "ada@example.com" });
    const state = back.landed!.searchParams.get("state")!;
    return { app, fake, code: back.landed!.searchParams.get("code")!, verifier: fake.jar.get(`stack-oauth-outer-${state}`)! };
  }

  const exchange = (fields: Record<string, string>) =>
    browse(`${emulator().apiOrigin}/api/v1/auth/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "authorization_code",
        redirect_uri: `${APP}/handler/oauth-callback`,
        client_id: DEMO_KEYS.projectId,
        client_secret: DEMO_KEYS.publishableClientKey,
        ...fields,
      }).toString(),
    });
  const codeOf = (visit: Visit) => visit.headers.get("x-stack-known-error");

  it("refuses a verifier that does not match the challenge", async () => {
    const { app, fake, code } = await atCallback();
    const state = new URL(fake.browser.location.href).searchParams.get("state")!;
    fake.jar.set(`stack-oauth-outer-${state}`, "a-verifier-of-another-flow-aaaaaaaaaaaaaaaaaaaa");
    const error = await app.callOAuthCallback().catch((e: unknown) => e);
    expect(isKnownError(error, "INVALID_AUTHORIZATION_CODE")).toBe(true);
    expect(codeOf(await exchange({ code, code_verifier: "x".repeat(43) }))).toBe("INVALID_AUTHORIZATION_CODE");
  });

  it("takes a code once, within 5 minutes, and only with the redirect_uri it was issued for", async () => {
    const { app, code, verifier } = await atCallback();
    expect(await app.callOAuthCallback()).toBe(true);
    expect(codeOf(await exchange({ code, code_verifier: verifier }))).toBe("INVALID_AUTHORIZATION_CODE");
    // Another redirect_uri is refused once the code is spent, as the service's OAuth library spends it first.
    const wrong = await atCallback();
    const wrongRedirect = await exchange({ code: wrong.code, code_verifier: wrong.verifier, redirect_uri: `${APP}/elsewhere` });
    expect([wrongRedirect.status, wrongRedirect.text]).toEqual([
      400,
      "Invalid redirect URI. Your redirect URI must be the same as the one used to get the authorization code.",
    ]);
    expect(codeOf(await exchange({ code: wrong.code, code_verifier: wrong.verifier }))).toBe("INVALID_AUTHORIZATION_CODE");
    const late = await atCallback();
    emulator().control.advanceClock(5 * MINUTE + 1000);
    const error = await late.app.callOAuthCallback().catch((e: unknown) => e);
    expect(isKnownError(error, "INVALID_AUTHORIZATION_CODE")).toBe(true);
  });

  it("refuses a redirect_uri outside the trusted domains at the callback, before any account is made", async () => {
    await configure({ allow_localhost: false, domains: [{ domain: "https://app.example.com", handler_path: "/handler" }] });
    const untrusted = fakeBrowser("https://evil.example.net/handler/sign-in");
    // The authorize call takes it; its error URL is off the trusted domains too, so the error is answered as it is.
    const refused = await oauth(untrusted, () => clientApp(untrusted).signInWithOAuth("github"), { email: "eve@example.com" });
    expect([refused.status, refused.landed, refused.headers.get("x-stack-known-error")]).toEqual([
      400,
      undefined,
      "REDIRECT_URL_NOT_WHITELISTED",
    ]);
    expect(
      store()
        .channelsOfProject(DEMO_KEYS.projectId)
        .some((c) => c.value === "eve@example.com"),
    ).toBe(false);
    const trusted = fakeBrowser("https://app.example.com/handler/sign-in");
    const back = await oauth(trusted, () => clientApp(trusted).signInWithOAuth("github"), { email: "ada@example.com" });
    expect(back.landed?.origin + back.landed!.pathname).toBe("https://app.example.com/handler/oauth-callback");
  });

  it("refuses an unknown client, a provider the project has not enabled, and extra scopes on shared keys", async () => {
    await configure();
    const fake = fakeBrowser();
    void clientApp(fake).signInWithOAuth("github");
    await vi.waitFor(() => expect(fake.assigned).toHaveLength(1));
    const url = new URL(fake.assigned[0]!);
    url.searchParams.set("client_id", "no-such-project");
    expect((await browse(url.toString())).headers.get("x-stack-known-error")).toBe("INVALID_OAUTH_CLIENT_ID_OR_SECRET");
    const discord = fake.assigned[0]!.replace("/authorize/github", "/authorize/discord");
    expect((await browse(discord)).headers.get("x-stack-known-error")).toBe("OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED");
    const { user } = await signedInWithPassword(fake);
    // The SDK never links a shared-keys provider (its token call refuses first): the link URL of GitHub, sent for Google.
    void user.getConnectedAccount("github", { or: "redirect", scopes: ["drive"] });
    await vi.waitFor(() => expect(fake.assigned).toHaveLength(2));
    const google = fake.assigned[1]!.replace("/authorize/github", "/authorize/google");
    expect((await browse(google)).headers.get("x-stack-known-error")).toBe("OAUTH_EXTRA_SCOPE_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS");
  });

  it("sends a denial back to the trusted redirect_uri as OAUTH_PROVIDER_ACCESS_DENIED (2.8.86)", async () => {
    await configure();
    const fake = fakeBrowser();
    const back = await oauth(fake, () => clientApp(fake).signInWithOAuth("github"), "deny");
    expect(back.landed?.origin + back.landed!.pathname).toBe(`${APP}/handler/oauth-callback`);
    expect(errorOf(back)).toEqual({
      error: "server_error",
      error_description: "The OAuth provider denied access to the user.",
      errorCode: "OAUTH_PROVIDER_ACCESS_DENIED",
      message: "The OAuth provider denied access to the user.",
      details: "{}",
    });
  });

  it("times the flow out after 10 minutes on the emulator's clock (OUTER_OAUTH_TIMEOUT), and takes its callback once", async () => {
    await configure();
    const fake = fakeBrowser();
    const page = await consentPage(fake, () => clientApp(fake).signInWithOAuth("github"));
    emulator().control.advanceClock(10 * MINUTE + 1000);
    const form = formOf(page, { id: "oauth-identity-form" });
    form.fields.set("email", "ada@example.com");
    const toCallback = await emulator().fetch(
      new Request(form.action, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: form.fields.toString(),
      }),
    );
    const callback = toCallback.headers.get("location")!;
    const back = await browse(callback);
    expect(errorOf(back)).toMatchObject({
      errorCode: "OUTER_OAUTH_TIMEOUT",
      message: "The OAuth flow has timed out. Please sign in again.",
    });
    const again = await browse(callback);
    expect([again.status, again.text]).toEqual([400, expect.stringContaining("Inner OAuth cookie not found")]);
  });
});

describe("the authorize call's own checks on 2.8.86 (after_callback_redirect_url, stack_response_mode)", () => {
  const authorizeUrl = (origin: string, extra: Record<string, string>) =>
    rawAuthorizeUrl(origin, { redirect_uri: `${APP}/handler/oauth-callback`, ...extra }).toString();
  const ask = async (e: Emulator, extra: Record<string, string>) => {
    const response = await e.fetch(new Request(authorizeUrl(e.apiOrigin, extra), { redirect: "manual" }));
    const text = await response.text();
    return { status: response.status, location: response.headers.get("location"), body: text === "" ? undefined : JSON.parse(text) };
  };

  it("refuses an after_callback_redirect_url off the trusted domains (REDIRECT_URL_NOT_WHITELISTED), and one that is no URL", async () => {
    const untrusted = await ask(emulator(), { after_callback_redirect_url: "https://evil.example.net/settings" });
    expect([untrusted.status, untrusted.body]).toEqual([
      400,
      {
        code: "REDIRECT_URL_NOT_WHITELISTED",
        error: "Redirect URL not whitelisted. Did you forget to add this domain to the trusted domains list on the Stack Auth dashboard?",
      },
    ]);
    const notUrl = await ask(emulator(), { after_callback_redirect_url: "/settings" });
    expect([notUrl.status, notUrl.body.code, notUrl.body.error]).toEqual([
      400,
      "SCHEMA_ERROR",
      "Request validation failed on GET /api/v1/auth/oauth/authorize/github:\n  - query.after_callback_redirect_url is not a valid URL",
    ]);
    const trusted = await ask(emulator(), { after_callback_redirect_url: `${APP}/settings` });
    expect([trusted.status, new URL(trusted.location!).pathname]).toEqual([307, "/emulator/oauth/github/authorize"]);
    const mobile = await ask(emulator(), { after_callback_redirect_url: "stack-auth-mobile-oauth-url://callback" });
    expect(mobile.status).toBe(307);
  });

  it("checks it after a link without token (the plain-text 400 comes first)", async () => {
    const linkless = await emulator().fetch(
      new Request(authorizeUrl(emulator().apiOrigin, { type: "link", after_callback_redirect_url: "https://evil.example.net/" }), {
        redirect: "manual",
      }),
    );
    expect([linkless.status, await linkless.text()]).toEqual([400, "?token= query parameter is required for link type"]);
  });

  it("answers stack_response_mode=json with 200 { location }, the provider's page the redirect would go to", async () => {
    const e = emulator();
    const json = await ask(e, { stack_response_mode: "json" });
    expect(json.status).toBe(200);
    expect(Object.keys(json.body)).toEqual(["location"]);
    const location = new URL(json.body.location);
    expect(location.origin + location.pathname).toBe(`${e.apiOrigin}/emulator/oauth/github/authorize`);
    expect(location.searchParams.get("client_id")).toBe("stack-shared-github");
    const page = await e.fetch(new Request(json.body.location));
    expect(page.status).toBe(200);
    const redirect = await ask(e, { stack_response_mode: "redirect" });
    expect(redirect.status).toBe(307);
    const bad = await ask(e, { stack_response_mode: "popup" });
    expect([bad.status, bad.body.error]).toEqual([
      400,
      "Request validation failed on GET /api/v1/auth/oauth/authorize/github:\n  - query.stack_response_mode must be one of the following values: json, redirect",
    ]);
  });

  it("2.8.11 takes an after_callback_redirect_url off the trusted domains", async () => {
    const old = await checkedEmulator({ serviceVersion: "2.8.11" });
    expect((await ask(old, { after_callback_redirect_url: "https://evil.example.net/settings" })).status).toBe(307);
    expect(old.violations).toEqual([]);
  });
});
