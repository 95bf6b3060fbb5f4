// The SDK's browser-bound flows in a real Chromium, end to end: the emulator
// over HTTP (in this process, 127.0.0.1), the example app built against it and
// served on 127.0.0.1, opened as http://localhost:<port>. Each flow runs in its
// own browser context (its own cookies), with its own users:
// - passkey registration in account settings, sign-out, sign-in with the
//   passkey (Chromium's virtual authenticator over CDP; the SDK puts the page's
//   hostname where the service sends its rp-id placeholder);
// - OAuth through the emulator's fake provider page: the PKCE verifier cookie,
//   code and state gone from the address bar, after-sign-up for a new user,
//   after-sign-in for a known one, after_auth_return_to honoured;
// - a magic link opened from the mailbox (the Inbucket API);
// - TOTP: set up in account settings from the QR code's secret, then asked for
//   after a password sign-in, then turned off;
// - CLI login: promptCliLogin in this process, confirmed on the app's page;
// - two tabs of one browser: a sign-in, a token refresh and a sign-out in one
//   are seen by the other without a reload.
// Every flow runs against both service versions the emulator plays (2.8.11 and 2.8.86).
// Screenshots of each flow's end state go to tests/browser/artifacts/ (git-ignored).
// The cookie flow moves the emulator's clock forward, so it runs last.
import { createHash } from "node:crypto";
import QRCode from "qrcode";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { QR_OPTIONS } from "../../examples/react-app/src/account/totp.js";
import { StackClientApp } from "../../runtime/index.js";
import { SERVICE_VERSIONS } from "../../emulator/index.js";
import { DEMO_KEYS } from "../../testing/index.js";
import { chromiumAvailability } from "./helpers/chromium.js";
import {
  addVirtualAuthenticator,
  advanceEmulatorClock,
  base32Decode,
  clearEmulatorRequests,
  cookiesNamed,
  createUser,
  emulatorNow,
  emulatorRequests,
  injectFault,
  latestMail,
  screenshot,
  signInWithPassword,
  signOut,
  startFlowsEnvironment,
  submitPasswordSignIn,
  totpAt,
  totpAtEmulatorClock,
  uniqueEmail,
  type FlowsEnvironment,
} from "./helpers/flows.js";

const chromium = chromiumAvailability("the browser flows (passkey, OAuth, magic link, TOTP, CLI login, cookies across tabs)");
const title = chromium.skip
  ? `the SDK's browser flows against the emulator (SKIPPED: ${chromium.reason})`
  : "the SDK's browser flows against the emulator";

// Every flow runs against each service version the emulator plays (2.8.11 and 2.8.86), one environment each.
describe.skipIf(chromium.skip).each(SERVICE_VERSIONS)(`${title}, service version %s`, { timeout: 60_000 }, (serviceVersion) => {
  if (chromium.missing) {
    it("has Chromium to run in", () => {
      throw new Error(`CI=${process.env.CI}: the browser flows must run, but there is ${chromium.reason}.`);
    });
    return;
  }

  let env: FlowsEnvironment;
  const newContext = () => env.newContext();
  const appPath = (path: string) => new URL(path, env.appUrl).href;

  beforeAll(async () => {
    env = await startFlowsEnvironment({ serviceVersion });
  }, 120_000);

  afterAll(async () => {
    await env?.close();
    console.log(
      `browser flows on ${serviceVersion}: exchanges checked against the document: ${env?.checkedExchanges()}, violations: ${env?.violations.length}`,
    );
    expect(env?.violations ?? []).toEqual([]);
  });

  it("registers a passkey in account settings, signs out, and signs in with it", async () => {
    const { context, page, errors } = await newContext();
    const user = await createUser(env, "passkey", "Pat Passkey");
    await page.goto(env.appUrl);
    const authenticator = await addVirtualAuthenticator(context, page);
    await signInWithPassword(page, env.appUrl, user);

    await page.locator(".menu").getByRole("link", { name: "Account settings" }).click();
    const section = page.locator("#passkey");
    await section.getByRole("heading", { name: /Passkey\s*off/ }).waitFor();
    const options = page.waitForResponse((response) => response.url().endsWith("/api/v1/auth/passkey/initiate-passkey-registration"));
    await section.getByRole("button", { name: "Register a passkey" }).click();
    // The service names no relying party, only its placeholder; the SDK fills in the page's hostname.
    expect(((await (await options).json()) as { options_json: { rp: { id: string } } }).options_json.rp.id).toBe(
      "THIS_VALUE_WILL_BE_REPLACED.example.com",
    );
    await section.getByText("Passkey registered. You can sign in with it from now on.").waitFor();
    await section.getByRole("heading", { name: /Passkey\s*on/ }).waitFor();
    // The credential is scoped to the page's hostname, which the SDK put in place of the service's placeholder.
    const [credential, ...others] = await authenticator.credentials();
    expect(others).toEqual([]);
    expect(credential).toMatchObject({ rpId: "localhost", isResidentCredential: true });
    expect(Buffer.from(credential!.userHandle ?? "", "base64").length).toBeGreaterThan(0);

    await signOut(page);
    await page.goto(appPath("/handler/sign-in"));
    await screenshot(page, `flow-sign-in-methods-${serviceVersion}`);
    // Held back a moment, the ceremony shows that it is busy on the button pressed, and only there.
    await injectFault(env.apiUrl, "initiatePasskeyAuthentication", { kind: "latency", ms: 600 });
    await page.getByRole("button", { name: "Sign in with a passkey" }).click();
    const busy = page.getByRole("button", { name: "Please wait…" });
    await busy.waitFor();
    expect(await busy.count()).toBe(1);
    expect(await page.getByRole("button", { name: "Continue with GitHub" }).isDisabled()).toBe(true);
    await page.waitForURL(env.appUrl);
    await page.getByRole("heading", { name: "Pat Passkey" }).waitFor();
    await expect.poll(() => page.locator(".facts").innerText()).toMatch(/Sign-in methods\s+password, passkey/);
    // The authenticator signed the sign-in: its counter moved.
    expect((await authenticator.credentials())[0]?.signCount).toBeGreaterThan(credential!.signCount);
    await screenshot(page, `flow-passkey-signed-in-${serviceVersion}`);
    expect(errors).toEqual([]);
  });

  it("signs a new user up with OAuth through the provider page: verifier cookie set then removed, code and state stripped, after-sign-up", async () => {
    const { context, page, errors } = await newContext();
    // Records every address the app's page shows (load, pushState, replaceState), so that the callback's URLs can be checked afterwards.
    await context.addInitScript(() => {
      const seen: string[] = ((window as unknown as { __urls: string[] }).__urls = [location.href]);
      for (const method of ["pushState", "replaceState"] as const) {
        const original = history[method].bind(history);
        history[method] = (data: unknown, unused: string, url?: string | URL | null) => {
          original(data, unused, url);
          seen.push(location.href);
        };
      }
    });
    await page.goto(appPath("/handler/sign-in"));
    const authorize = page.waitForRequest((request) => request.url().includes("/api/v1/auth/oauth/authorize/github"));
    await page.getByRole("button", { name: "Continue with GitHub" }).click();
    const authorizeUrl = new URL((await authorize).url());
    const state = authorizeUrl.searchParams.get("state")!;
    expect(state).toMatch(/^[A-Za-z0-9_-]{22,}$/);
    expect(authorizeUrl.searchParams.get("code_challenge_method")).toBe("S256");

    // The fake provider's consent page, on the emulator's origin; the app's origin keeps the flow's verifier meanwhile.
    await page.waitForURL((url) => url.pathname === "/emulator/oauth/github/authorize");
    await page.getByRole("heading", { name: "Sign in with GitHub" }).waitFor();
    const verifiers = await cookiesNamed(context, env.appUrl, "stack-oauth-outer-");
    expect(verifiers.map((cookie) => cookie.name)).toEqual([`stack-oauth-outer-${state}`]);
    const challenge = createHash("sha256").update(verifiers[0]!.value).digest("base64url");
    expect(challenge).toBe(authorizeUrl.searchParams.get("code_challenge"));

    const email = uniqueEmail("octo");
    await page.getByTestId("oauth-email").fill(email);
    await page.getByTestId("oauth-name").fill("Olivia Octocat");
    // The token exchange is held back a moment: long enough to see the callback page's address bar without code and state.
    await injectFault(env.apiUrl, "exchangeOAuthToken", { kind: "latency", ms: 1500 });
    await page.getByTestId("oauth-continue").click();
    await page.waitForURL((url) => url.pathname === "/handler/oauth-callback" && url.search === "");
    await page.getByRole("heading", { name: "Signing you in" }).waitFor();

    // A new user: after-sign-up, the example app's welcome page.
    await page.waitForURL(appPath("/welcome"));
    await page.getByRole("heading", { name: "Olivia Octocat" }).waitFor();
    await page.getByText("Welcome to Demo! Your account is ready.").waitFor();
    await expect.poll(() => page.locator(".facts").innerText()).toMatch(/Sign-in methods\s+github/);
    expect(await cookiesNamed(context, env.appUrl, "stack-oauth-outer-")).toEqual([]);
    const urls = await page.evaluate(() => (window as unknown as { __urls: string[] }).__urls);
    const arrival = urls.findIndex((url) => new URL(url).pathname === "/handler/oauth-callback");
    expect(new URL(urls[arrival]!).searchParams.get("state")).toBe(state);
    expect(new URL(urls[arrival]!).searchParams.has("code")).toBe(true);
    // The callback's next address is its own, without code and state; none after it carries them.
    expect(urls[arrival + 1]).toBe(appPath("/handler/oauth-callback"));
    expect(urls.slice(arrival + 1).filter((url) => /[?&](code|state)=/.test(url))).toEqual([]);
    await screenshot(page, `flow-oauth-new-user-${serviceVersion}`);
    expect(errors).toEqual([]);
  });

  it("signs a known OAuth user in to after-sign-in, honours after_auth_return_to, and shows a denied sign-in on the error page", async () => {
    const { context, page, errors } = await newContext();
    const known = await createUser(env, "known-octo", "Kim Known");
    await page.goto(appPath("/handler/sign-in"));
    await page.getByRole("button", { name: "Continue with GitHub" }).click();
    await page.waitForURL((url) => url.pathname === "/emulator/oauth/github/authorize");
    await page.getByTestId("oauth-email").fill(known.email);
    await page.getByTestId("oauth-name").fill("Kim Known");
    await page.getByTestId("oauth-continue").click();
    // Its verified e-mail matches the user's verified e-mail: the project's merge strategy (link_method) signs that user in.
    await page.waitForURL(env.appUrl);
    await page.getByRole("heading", { name: "Kim Known" }).waitFor();
    expect(await page.getByText("Welcome to Demo!").count()).toBe(0);
    await signOut(page);

    // Again, now through the account the provider page offers ("Continue as …"): a known account, after-sign-in.
    await page.goto(appPath("/handler/sign-in"));
    await page.getByRole("button", { name: "Continue with GitHub" }).click();
    await page.waitForURL((url) => url.pathname === "/emulator/oauth/github/authorize");
    await page.locator(`form[data-account-id="${known.email}"]`).getByRole("button").click();
    await page.waitForURL(env.appUrl);
    await page.getByRole("heading", { name: "Kim Known" }).waitFor();
    await signOut(page);

    // A page that needs a user sends the visitor to sign in with after_auth_return_to; the OAuth sign-in comes back to it,
    // even for a new account (after_auth_return_to wins over after-sign-up).
    await page.goto(appPath("/handler/account-settings"));
    await page.waitForURL((url) => url.pathname === "/handler/sign-in");
    expect(new URL(page.url()).searchParams.get("after_auth_return_to")).toBe("/handler/account-settings");
    await page.getByRole("button", { name: "Continue with Google" }).click();
    await page.waitForURL((url) => url.pathname === "/emulator/oauth/google/authorize");
    await page.getByTestId("oauth-email").fill(uniqueEmail("goo"));
    await page.getByTestId("oauth-name").fill("Gus Google");
    await page.getByTestId("oauth-continue").click();
    await page.waitForURL(appPath("/handler/account-settings"));
    await page.getByRole("heading", { name: "Account settings" }).waitFor();
    await expect.poll(() => page.getByLabel("Display name").inputValue()).toBe("Gus Google");
    expect(await cookiesNamed(context, env.appUrl, "stack-oauth-outer-")).toEqual([]);
    await screenshot(page, `flow-oauth-return-to-${serviceVersion}`);

    // Denied at the provider: the service sends the browser to the app's error page with its known error.
    await signOut(page);
    await page.goto(appPath("/handler/sign-in"));
    await page.getByRole("button", { name: "Continue with GitHub" }).click();
    await page.waitForURL((url) => url.pathname === "/emulator/oauth/github/authorize");
    await page.getByTestId("oauth-deny").click();
    await page.waitForURL((url) => url.pathname === "/handler/error");
    await page.getByRole("heading", { name: "Sign-in cancelled" }).waitFor();
    await page.getByText("The provider didn't grant access. Try again if you want to continue.").waitFor();
    expect(await page.locator("main code").innerText()).toBe("OAUTH_PROVIDER_ACCESS_DENIED");
    await page.locator(".menu").getByRole("link", { name: "Sign in" }).waitFor();
    expect(errors).toEqual([]);
  });

  it("sends a magic link, and the link from the mailbox signs the user in", async () => {
    const { page, errors } = await newContext();
    const user = await createUser(env, "magic", "Max Magic");
    await page.goto(appPath("/handler/sign-in"));
    await page.getByRole("tab", { name: "Magic link" }).click();
    const form = page.getByRole("form", { name: "Sign in with a magic link" });
    await form.getByRole("textbox", { name: "E-mail" }).fill(user.email);
    await form.getByRole("button", { name: "Send me a sign-in link" }).click();
    await page.getByText(`We sent a link to ${user.email}.`).waitFor();

    const mail = await latestMail(env.apiUrl, user.email);
    const link = [...mail.text.matchAll(/https?:\/\/[^\s<>"'[\]]+/g)].map((match) => match[0]).find((url) => url.includes("code="));
    expect(link, `a link with a code in "${mail.subject}":\n${mail.text}`).toBeDefined();
    expect(new URL(link!).origin + "/").toBe(env.appUrl);
    expect(new URL(link!).pathname).toBe("/handler/magic-link-callback");
    await page.goto(link!);
    await page.waitForURL(env.appUrl);
    await page.getByRole("heading", { name: "Max Magic" }).waitFor();
    await screenshot(page, `flow-magic-link-signed-in-${serviceVersion}`);
    expect(errors).toEqual([]);
  });

  it("turns TOTP on from the QR code in account settings, asks for the code after a password sign-in, and turns it off", async () => {
    const { page, errors } = await newContext();
    const user = await createUser(env, "totp", "Tess Totp");
    await signInWithPassword(page, env.appUrl, user);
    await page.goto(appPath("/handler/account-settings"));
    const section = page.locator("#two-factor");
    await section.getByRole("heading", { name: /Two-factor authentication\s*off/ }).waitFor();
    await section.getByRole("button", { name: "Set up two-factor authentication" }).click();

    // The QR code carries the otpauth:// URI of the new secret, drawn by `qrcode`; the typed key is the same secret.
    const qr = section.getByRole("img", { name: /QR code/ });
    await qr.waitFor();
    const uri = await section.getByRole("link", { name: "open the key in your authenticator app" }).getAttribute("href");
    expect(uri).toMatch(/^otpauth:\/\/totp\/Demo:/);
    const params = new URL(uri!).searchParams;
    expect(Object.fromEntries(params)).toMatchObject({ issuer: "Demo", algorithm: "SHA1", digits: "6", period: "30" });
    expect(decodeURIComponent(new URL(uri!).pathname)).toBe(`/Demo:${user.email}`);
    const secret = base32Decode(params.get("secret")!);
    expect(secret.length).toBe(20);
    expect((await section.getByTestId("totp-secret").innerText()).replace(/\s/g, "")).toBe(params.get("secret"));
    const svg = decodeURIComponent((await qr.getAttribute("src"))!.replace(/^data:image\/svg\+xml;charset=utf-8,/, ""));
    expect(svg).toBe(await QRCode.toString(uri!, QR_OPTIONS));
    expect(await qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    await screenshot(page, `flow-totp-setup-${serviceVersion}`);

    // A wrong code is refused by the page itself; the authenticator's code (the device's clock) turns it on.
    const field = section.getByLabel("Code from the app");
    const right = totpAt(secret, Date.now());
    await field.fill(String((Number(right) + 1) % 1_000_000).padStart(6, "0"));
    await section.getByRole("button", { name: "Turn on" }).click();
    await section.getByText("That code does not match").waitFor();
    await field.fill(totpAt(secret, Date.now()));
    await section.getByRole("button", { name: "Turn on" }).click();
    await section.getByRole("heading", { name: /Two-factor authentication\s*on/ }).waitFor();
    await section.getByText("Two-factor authentication is on").waitFor();

    // The next sign-in asks for the second factor; the emulator checks it at its own clock.
    await signOut(page);
    await submitPasswordSignIn(page, env.appUrl, user);
    await page.getByRole("heading", { name: "Two-factor authentication" }).waitFor();
    const codeField = page.getByLabel("Authentication code");
    const current = totpAt(secret, await emulatorNow(env.apiUrl));
    await codeField.fill(String((Number(current) + 1) % 1_000_000).padStart(6, "0"));
    await page.getByRole("button", { name: "Verify" }).click();
    await page.getByRole("alert").waitFor();
    await codeField.fill(await totpAtEmulatorClock(env.apiUrl, secret));
    await page.getByRole("button", { name: "Verify" }).click();
    await page.waitForURL(env.appUrl);
    await page.getByRole("heading", { name: "Tess Totp" }).waitFor();
    await expect.poll(() => page.locator(".facts").innerText()).toMatch(/Two-factor\s+on/);
    await screenshot(page, `flow-totp-signed-in-${serviceVersion}`);

    await page.locator(".menu").getByRole("link", { name: "Account settings" }).click();
    await section.getByRole("button", { name: "Turn off" }).click();
    await section.getByRole("heading", { name: /Two-factor authentication\s*off/ }).waitFor();
    await signOut(page);
    await signInWithPassword(page, env.appUrl, user);
    expect(errors).toEqual([]);
  });

  it("completes a command-line login started with promptCliLogin on the cli-auth-confirm page", async () => {
    const { page, errors } = await newContext();
    const user = await createUser(env, "cli", "Cleo Cli");
    const cli = new StackClientApp({
      projectId: DEMO_KEYS.projectId,
      publishableClientKey: DEMO_KEYS.publishableClientKey,
      baseUrl: env.apiUrl,
      tokenStore: "memory",
      browser: null,
      noAutomaticPrefetch: true,
    });
    let showLink!: (url: string) => void;
    const linkShown = new Promise<string>((resolve) => (showLink = resolve));
    const login = cli.promptCliLogin({ appUrl: env.appUrl, waitTimeMillis: 100, maxAttempts: 400, promptLink: (url) => showLink(url) });
    const link = await linkShown;
    expect(new URL(link).pathname).toBe("/handler/cli-auth-confirm");

    // Nobody is signed in in this browser yet: the page sends the user to sign in, and back.
    await page.goto(link);
    await page.waitForURL((url) => url.pathname === "/handler/sign-in");
    await submitPasswordSignIn(page, env.appUrl, user);
    await page.waitForURL(link);
    await page.getByText("A command-line tool asks to sign in as").waitFor();
    await page.getByRole("button", { name: "Confirm sign-in" }).click();
    await page.getByText(`The command-line tool is signed in as ${user.email}.`).waitFor();
    await screenshot(page, `flow-cli-confirmed-${serviceVersion}`);

    const result = await login;
    expect(result.status).toBe("ok");
    const refreshToken = result.status === "ok" ? result.data : "";
    // The refresh token is a session of that user.
    const signedIn = await new StackClientApp({
      projectId: DEMO_KEYS.projectId,
      publishableClientKey: DEMO_KEYS.publishableClientKey,
      baseUrl: env.apiUrl,
      tokenStore: { refreshToken, accessToken: null },
      browser: null,
      noAutomaticPrefetch: true,
    }).getUser({ or: "throw" });
    expect(signedIn.id).toBe(user.id);
    expect(errors).toEqual([]);
  });

  it("shares the session between two tabs: a sign-in, a refresh and a sign-out in one are seen by the other without a reload", async () => {
    const { context, page: first, errors, newPage } = await newContext();
    const user = await createUser(env, "tabs", "Tab Tabby");
    const second = await newPage();
    await second.goto(env.appUrl);
    await second.getByRole("heading", { name: "You are not signed in." }).waitFor();
    // Marks the second tab's document: a reload would lose it.
    await second.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));
    const sameDocument = () => second.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument === true);

    // Chromium throttles a tab in the background; the one acted in is brought to the front, as a user's click would.
    await first.bringToFront();
    await first.goto(env.appUrl);
    await signInWithPassword(first, env.appUrl, user);
    await second.getByRole("heading", { name: "Tab Tabby" }).waitFor();
    expect(await sameDocument()).toBe(true);

    // The access token outlives its 10 minutes on the emulator's clock; the first tab's next request refreshes it.
    const accessCookie = async () => (await cookiesNamed(context, env.appUrl, "stack-access"))[0]?.value;
    const before = await accessCookie();
    await clearEmulatorRequests(env.apiUrl);
    await advanceEmulatorClock(env.apiUrl, 11 * 60 * 1000);
    await first.locator(".menu").getByRole("link", { name: "Account settings" }).click();
    await first.locator("#sessions .item").first().waitFor();
    // The requests sent with the old token are answered ACCESS_TOKEN_EXPIRED; one refresh-token grant renews it, and they are sent again.
    const refreshed = (await emulatorRequests(env.apiUrl)).filter((request) => request.operationId === "exchangeOAuthToken");
    expect(refreshed.map((request) => request.status)).toEqual([200]);
    const after = await accessCookie();
    expect(after).toBeDefined();
    expect(after).not.toBe(before);

    // The second tab uses the refreshed token: its requests should be answered without an expired token and a refresh of its own.
    await clearEmulatorRequests(env.apiUrl);
    await second.bringToFront();
    await second.locator(".menu").getByRole("link", { name: "Account settings" }).click();
    await second.locator("#sessions .item").first().waitFor();
    await second.locator("#api-keys").getByRole("heading", { name: "API keys" }).waitFor();
    const seen = await emulatorRequests(env.apiUrl);
    expect(seen.filter((request) => request.status === 200).length).toBeGreaterThan(0);
    const ownRenewal = seen.filter((request) => request.operationId === "exchangeOAuthToken" || request.knownError !== null);
    // The refresh made by the first tab is used by the second: no expired-token answer, no refresh of its own.
    expect(ownRenewal).toEqual([]);
    expect(await accessCookie()).toBe(after);
    expect(await sameDocument()).toBe(true);

    // Signing out in the first tab signs the second out: its home page turns to the signed-out one.
    await second.locator(".brand").click();
    await second.getByRole("heading", { name: "Tab Tabby" }).waitFor();
    await first.bringToFront();
    await signOut(first);
    await second.getByRole("heading", { name: "You are not signed in." }).waitFor();
    await second.locator(".menu").getByRole("link", { name: "Sign in" }).waitFor();
    expect(await sameDocument()).toBe(true);
    expect(await cookiesNamed(context, env.appUrl, "stack-")).toEqual([]);
    await screenshot(second, "flow-tabs-signed-out");
    expect(errors).toEqual([]);
  });
});
