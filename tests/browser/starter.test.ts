// The example app as a starter a customer copies, in Chromium against the
// emulator (as ./flows.test.ts runs it):
// - errors in the words of describeError, the developer detail in the console
//   only: a wrong password, a rate limit with its wait, a dropped connection,
//   an offline browser, a service answering 503 when the page loads; each with
//   the retry it deserves;
// - the account settings screens: change and set a password, connected OAuth
//   accounts (one connected through the provider page), sessions signed out
//   one by one or all others at once, a new API key copied, and every
//   destructive action asking first (revoke a key, remove an e-mail, leave a
//   team, sign a device out, delete the account);
// - busy states on the pressed button only, a title per page, and a header that
//   stays one line on a phone-width screen;
// - a user without a display name shown by their e-mail address (header, home
//   page, a team's members), the "selected" team badge explained, a taken
//   address on sign-up answered with a link to sign in instead, the error notes
//   under the button, a verification link opened again saying the address is
//   already verified, and the emulator's mailbox page with its own icon.
// Screenshots of each screen and state go to tests/browser/artifacts/ (git-ignored).
import type { Locator } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appsFor, createTestUser, latestEmail, latestLink, signInAs } from "../../testing/index.js";
import { chromiumAvailability } from "./helpers/chromium.js";
import {
  createUser,
  injectFault,
  screenshot,
  signInWithPassword,
  signOut,
  startFlowsEnvironment,
  submitPasswordSignIn,
  uniqueEmail,
  type FlowsEnvironment,
} from "./helpers/flows.js";
import {
  allowClipboard,
  banner,
  errorNote,
  exposeRetryAfter,
  headerLayout,
  recordConsole,
  scrollsSideways,
  setUpProviders,
  wordsOf,
} from "./helpers/starter.js";

const chromium = chromiumAvailability("the example app's error states and account screens");
const title = chromium.skip
  ? `the example app as a starter (SKIPPED: ${chromium.reason})`
  : "the example app as a starter: end-user errors, account settings, titles, phone layout";

describe.skipIf(chromium.skip)(title, { timeout: 60_000 }, () => {
  if (chromium.missing) {
    it("has Chromium to run in", () => {
      throw new Error(`CI=${process.env.CI}: the starter suite must run, but there is ${chromium.reason}.`);
    });
    return;
  }

  let env: FlowsEnvironment;
  const appPath = (path: string) => new URL(path, env.appUrl).href;
  const tabTitle = (page: { title(): Promise<string> }) => page.title();
  /** A client app of the demo project (as a test of the app would make one), its e-mail links pointing at the example app. */
  const clientApp = () => appsFor({ ...env.emulator.emulator, url: env.apiUrl }).client({ urls: { handler: appPath("/handler") } });
  /** Whether `lower` sits wholly under `upper` on the page. */
  const isBelow = async (lower: Locator, upper: Locator) => {
    const [a, b] = await Promise.all([lower.boundingBox(), upper.boundingBox()]);
    return a !== null && b !== null && a.y >= b.y + b.height;
  };

  beforeAll(async () => {
    env = await startFlowsEnvironment();
    await setUpProviders(env);
  }, 120_000);

  afterAll(async () => {
    await env?.close();
  });

  it("shows a wrong password, a rate limit and a dropped connection in plain words, with the developer detail in the console", async () => {
    const { page } = await env.newContext();
    const logs = recordConsole(page);
    const user = await createUser(env, "words", "Wendy Words");
    await page.goto(appPath("/handler/sign-in"));
    await expect.poll(() => tabTitle(page)).toBe("Sign in · stackkit example");

    await submitPasswordSignIn(page, env.appUrl, { email: user.email, password: "not the password" });
    const wrong = await errorNote(page, "EMAIL_PASSWORD_MISMATCH");
    expect(await wordsOf(wrong)).toEqual({
      title: "Wrong e-mail or password",
      message: "Check your e-mail address and password, then try again.",
    });
    // Trying the same again cannot help: no button for it.
    expect(await wrong.getByRole("button", { name: "Try again" }).count()).toBe(0);
    await screenshot(page, "error-wrong-password");

    // Retry-After beyond what the app waits (10 s): the wait is said, and "Try again" sends the same sign-in again.
    const stopExposing = await exposeRetryAfter(page);
    await injectFault(env.apiUrl, "signInWithPassword", { kind: "rate-limit", retryAfterSeconds: 120 });
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    const limited = await errorNote(page, "RATE_LIMITED");
    expect(await wordsOf(limited)).toEqual({ title: "Too many attempts", message: "Please wait 120 seconds, then try again." });
    await screenshot(page, "error-rate-limited");
    await limited.getByRole("button", { name: "Try again" }).click();
    await errorNote(page, "EMAIL_PASSWORD_MISMATCH");
    await stopExposing();

    // The connection drops on the sign-in (a POST is not resent by the SDK): the note and the banner say so at once.
    // Twice: Chromium itself resends a request once when a reused keep-alive connection closes under it.
    await injectFault(env.apiUrl, "signInWithPassword", { kind: "drop" }, 2);
    await submitPasswordSignIn(page, env.appUrl, user);
    const dropped = await errorNote(page, "NETWORK_ERROR");
    const cannotConnect = {
      title: "Can't connect",
      message: "We couldn't reach the sign-in service. Check your internet connection and try again.",
    };
    expect(await wordsOf(dropped)).toEqual(cannotConnect);
    // The note beside the button says it; the connection banner does not say it a second time.
    await expect.poll(() => page.locator(".banner").count()).toBe(0);
    await screenshot(page, "error-network");
    // The person never sees the request, the address of the API or the SDK's advice to developers ...
    const text = await page.locator("body").innerText();
    expect(text).not.toMatch(/127\.0\.0\.1|api\/v1|Stack Auth API|proxy|attempt/);
    // ... which the console has.
    expect(logs.warnings.some((line) => line.includes("EMAIL_PASSWORD_MISMATCH"))).toBe(true);
    expect(logs.warnings.some((line) => line.includes("Could not reach the Stack Auth API for POST"))).toBe(true);

    // Trying again gets through: signed in, and the answer clears the banner.
    env.emulator.emulator.control.clearFaults();
    await dropped.getByRole("button", { name: "Try again" }).click();
    await page.waitForURL(env.appUrl);
    await page.getByRole("heading", { name: "Wendy Words" }).waitFor();
    await page.locator(".banner").waitFor({ state: "detached" });
    expect(logs.errors).toEqual([]);
  });

  it("says the browser is offline, and signs in once it is back online", async () => {
    const { context, page } = await env.newContext();
    const logs = recordConsole(page);
    const user = await createUser(env, "offline", "Otto Offline");
    await page.goto(appPath("/handler/sign-in"));
    await page.getByRole("form", { name: "Sign in with e-mail and password" }).waitFor();
    await context.setOffline(true);
    const offline = { title: "You're offline", message: "Check your internet connection, then try again." };
    expect(await wordsOf(await banner(page, "offline"))).toEqual(offline);
    await submitPasswordSignIn(page, env.appUrl, user);
    const note = await errorNote(page, "OFFLINE");
    expect(await wordsOf(note)).toEqual(offline);
    await expect.poll(() => page.locator(".banner").count()).toBe(0);
    await screenshot(page, "error-offline");

    await context.setOffline(false);
    await page.locator(".banner").waitFor({ state: "detached" });
    await note.getByRole("button", { name: "Try again" }).click();
    await page.waitForURL(env.appUrl);
    await page.getByRole("heading", { name: "Otto Offline" }).waitFor();
    expect(logs.errors).toEqual([]);
  });

  it("shows a service that answers 503 at page load as unavailable, with a retry, and keeps the header free of errors", async () => {
    const { page } = await env.newContext();
    const logs = recordConsole(page);
    await injectFault(env.apiUrl, "getCurrentProject", { kind: "status", status: 503, body: "upstream connect error" }, 50);
    try {
      await page.goto(appPath("/handler/sign-in"));
      const card = await errorNote(page, "SERVICE_UNAVAILABLE");
      const unavailable = {
        title: "Service unavailable",
        message: "The sign-in service is unavailable right now. Please try again in a few minutes.",
      };
      expect(await wordsOf(card)).toEqual(unavailable);
      expect(await card.getByRole("heading").innerText()).toBe("Service unavailable");
      await expect.poll(() => page.locator(".banner").count()).toBe(0);
      // The header shows the app's own name, never an error.
      expect(await page.locator(".topbar").innerText()).toContain("stackkit example");
      expect(await page.locator("body").innerText()).not.toMatch(/upstream|503|Failed to send request/);
      await screenshot(page, "error-service-unavailable");
    } finally {
      env.emulator.emulator.control.clearFaults();
    }
    await page.locator("main").getByRole("button", { name: "Try again" }).click();
    await page.getByRole("form", { name: "Sign in with e-mail and password" }).waitFor();
    await expect.poll(() => page.locator(".brand").innerText()).toContain("Demo");
    await page.locator(".banner").waitFor({ state: "detached" });
    expect(logs.errors).toEqual([]);
  });

  it("shows the banner at the first failed attempt of a read the SDK retries, and clears it at the next answer", async () => {
    const { page } = await env.newContext();
    const logs = recordConsole(page);
    // Twice: Chromium resends once by itself when a reused connection closes; the SDK's own retry then gets through.
    await injectFault(env.apiUrl, "getCurrentProject", { kind: "drop" }, 2);
    await page.goto(appPath("/handler/sign-in"));
    expect(await wordsOf(await banner(page, "unreachable"))).toEqual({
      title: "Can't connect",
      message: "We couldn't reach the sign-in service. Check your internet connection and try again.",
    });
    await screenshot(page, "error-unreachable-retrying");
    await page.getByRole("form", { name: "Sign in with e-mail and password" }).waitFor();
    await page.locator(".banner").waitFor({ state: "detached" });
    expect(logs.errors).toEqual([]);
  });

  it("shows busy only on the button pressed, and a title on every page", async () => {
    const { page, errors } = await env.newContext();
    const user = await createUser(env, "busy", "Bea Busy");
    await page.goto(env.appUrl);
    await expect.poll(() => tabTitle(page)).toBe("Home · stackkit example");
    await page.goto(appPath("/handler/sign-up"));
    await expect.poll(() => tabTitle(page)).toBe("Create an account · stackkit example");
    await page.goto(appPath("/handler/forgot-password"));
    await expect.poll(() => tabTitle(page)).toBe("Reset your password · stackkit example");
    await page.goto(appPath("/nowhere"));
    await expect.poll(() => tabTitle(page)).toBe("Page not found · stackkit example");

    await injectFault(env.apiUrl, "signInWithPassword", { kind: "latency", ms: 800 });
    await submitPasswordSignIn(page, env.appUrl, user);
    const busy = page.getByRole("button", { name: "Please wait…" });
    await busy.waitFor();
    expect(await busy.count()).toBe(1);
    expect(await busy.getAttribute("type")).toBe("submit");
    expect(await page.getByRole("button", { name: "Sign in with a passkey" }).isDisabled()).toBe(true);
    await page.getByRole("heading", { name: "Bea Busy" }).waitFor();
    await page.locator(".menu").getByRole("link", { name: "Account settings" }).click();
    await page.getByRole("heading", { name: "Account settings" }).waitFor();
    await expect.poll(() => tabTitle(page)).toBe("Account settings · stackkit example");
    expect(errors).toEqual([]);
  });

  it("changes the password, signs other devices out one by one or all at once, each after asking", async () => {
    const { page, errors } = await env.newContext();
    const user = await createUser(env, "sessions", "Sam Sessions");
    // Two other devices.
    await env.emulator.emulator.control.createSession(user.id);
    await env.emulator.emulator.control.createSession(user.id);
    await signInWithPassword(page, env.appUrl, user);
    await page.goto(appPath("/handler/account-settings"));

    const sessions = page.locator("#sessions");
    await expect.poll(() => sessions.locator(".item").count()).toBe(3);
    await sessions.locator(".item").getByRole("button", { name: "Sign out" }).first().click();
    const question = sessions.getByRole("group", { name: "Sign this device out?" });
    await question.waitFor();
    await question.getByRole("button", { name: "Cancel" }).click();
    await expect.poll(() => question.count()).toBe(0);
    await sessions.locator(".item").getByRole("button", { name: "Sign out" }).first().click();
    await question.getByRole("button", { name: "Sign it out" }).click();
    await expect.poll(() => sessions.locator(".item").count()).toBe(2);

    await env.emulator.emulator.control.createSession(user.id);
    await page.reload();
    await expect.poll(() => sessions.locator(".item").count()).toBe(3);
    await sessions.getByRole("button", { name: "Sign out of all other devices" }).click();
    const all = sessions.getByRole("group", { name: "Sign out all 2 other devices? This one stays signed in." });
    await all.waitFor();
    await screenshot(page, "account-sessions-confirm");
    expect(await scrollsSideways(page)).toBe(false);
    await all.getByRole("button", { name: "Sign them out" }).click();
    await sessions.getByText("Every other device is signed out.").waitFor();
    await expect.poll(() => sessions.locator(".item").count()).toBe(1);

    // The password: a wrong current one is refused in plain words; the right one changes it.
    const form = page.getByRole("form", { name: "Change your password" });
    await form.getByLabel("Current password").fill("not my password");
    await form.getByLabel("New password", { exact: true }).fill("a brand new passphrase");
    await form.getByLabel("Repeat the new password").fill("a brand new passphrase");
    await form.getByRole("button", { name: "Change password" }).click();
    expect(await wordsOf(await errorNote(page, "PASSWORD_CONFIRMATION_MISMATCH"))).toEqual({
      title: "Wrong current password",
      message: "The current password you entered isn't right.",
    });
    await form.getByLabel("Current password").fill(user.password);
    await form.getByRole("button", { name: "Change password" }).click();
    await page.locator("#password").getByText("Your password is changed. Your other devices were signed out.").waitFor();
    await screenshot(page, "account-password-changed");
    await signOut(page);
    await signInWithPassword(page, env.appUrl, { ...user, password: "a brand new passphrase" });
    expect(errors).toEqual([]);
  });

  it("copies a new API key, and asks before revoking it, removing an e-mail or leaving a team", async () => {
    const { context, page, errors } = await env.newContext();
    await allowClipboard(context, env.appUrl);
    const user = await createUser(env, "keys", "Kai Keys");
    await signInWithPassword(page, env.appUrl, user);
    await page.goto(appPath("/handler/account-settings"));

    const keys = page.locator("#api-keys");
    const create = keys.getByRole("form", { name: "Create an API key" });
    await create.getByLabel("Description").fill("CI deploys");
    await create.getByRole("button", { name: "Create key" }).click();
    const value = await keys.getByTestId("new-api-key").innerText();
    expect(value.length).toBeGreaterThan(20);
    await keys.getByRole("button", { name: "Copy key" }).click();
    await keys.getByRole("button", { name: "Copied" }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(value);
    await screenshot(page, "account-api-key-created");
    await keys.locator(".item").getByRole("button", { name: "Revoke" }).click();
    await keys.getByRole("group", { name: "Revoke this key? Apps using it stop working." }).waitFor();
    await screenshot(page, "account-api-key-revoke-confirm");
    expect(await scrollsSideways(page)).toBe(false);
    await keys.getByRole("button", { name: "Revoke key" }).click();
    await keys.locator(".badge", { hasText: "revoked" }).waitFor();

    const emails = page.locator("#emails");
    const extra = uniqueEmail("second");
    await emails.getByRole("textbox", { name: "Add an e-mail address" }).fill(extra);
    await emails.getByRole("button", { name: "Add", exact: true }).click();
    const row = emails.locator(".item", { hasText: extra });
    await row.getByRole("button", { name: "Remove" }).click();
    await row.getByRole("group", { name: "Remove this address?" }).getByRole("button", { name: "Remove address" }).click();
    await row.waitFor({ state: "detached" });

    const teams = page.locator("#teams");
    await teams.getByLabel("New team name").fill("Rocket crew");
    await teams.getByRole("button", { name: "Create team" }).click();
    const team = teams.locator(".item", { hasText: "Rocket crew" });
    await team.getByRole("button", { name: "Leave" }).click();
    await team.getByRole("group", { name: "Leave Rocket crew? You need a new invitation to join again." }).waitFor();
    await screenshot(page, "account-leave-team-confirm");
    expect(await scrollsSideways(page)).toBe(false);
    await team.getByRole("button", { name: "Leave team" }).click();
    await team.waitFor({ state: "detached" });
    expect(errors).toEqual([]);
  });

  it("connects a second provider to an OAuth user, sets a first password, and deletes the account after asking", async () => {
    const { page, errors } = await env.newContext();
    const email = uniqueEmail("oauth-only");
    await page.goto(appPath("/handler/sign-in"));
    await page.getByRole("button", { name: "Continue with GitHub" }).click();
    await page.waitForURL((url) => url.pathname === "/emulator/oauth/github/authorize");
    await page.getByTestId("oauth-email").fill(email);
    await page.getByTestId("oauth-name").fill("Olga Oauth");
    await page.getByTestId("oauth-continue").click();
    await page.getByRole("heading", { name: "Olga Oauth" }).waitFor();
    await page.goto(appPath("/handler/account-settings"));

    // GitHub (shared keys) is connected; it cannot hand out provider tokens, which the page says in plain words.
    const connected = page.locator("#connected-accounts");
    await connected.locator(".item", { hasText: "GitHub" }).getByText(email).waitFor();
    await connected.getByRole("button", { name: "Connect Google" }).click();
    await page.waitForURL((url) => url.pathname === "/emulator/oauth/google/authorize");
    await page.getByTestId("oauth-email").fill(email);
    await page.getByTestId("oauth-name").fill("Olga Oauth");
    await page.getByTestId("oauth-continue").click();
    await page.waitForURL(appPath("/handler/account-settings"));
    await connected.locator(".item", { hasText: "Google" }).getByText("connected").waitFor();
    await screenshot(page, "account-connected-accounts");

    // No password yet: the section offers to set one, then to change it.
    const set = page.getByRole("form", { name: "Set a password" });
    await set.getByLabel("Password", { exact: true }).fill("first password ever");
    await set.getByLabel("Repeat the password").fill("a different one");
    await set.getByRole("button", { name: "Set password" }).click();
    await set.getByText("The two passwords differ.").waitFor();
    await set.getByLabel("Repeat the password").fill("first password ever");
    await set.getByRole("button", { name: "Set password" }).click();
    await page.locator("#password").getByText("Your password is set.").waitFor();
    await page.getByRole("form", { name: "Change your password" }).waitFor();
    await screenshot(page, "account-password-set");

    const danger = page.locator("#delete-account");
    await danger.getByRole("button", { name: "Delete account" }).click();
    await danger.getByRole("group", { name: "Delete your account and everything in it for good?" }).waitFor();
    await screenshot(page, "account-delete-confirm");
    expect(await scrollsSideways(page)).toBe(false);
    await danger.getByRole("button", { name: "Delete my account" }).click();
    await page.getByRole("heading", { name: "Your account is deleted" }).waitFor();
    await page.locator(".menu").getByRole("link", { name: "Sign in" }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/handler/account-settings");
    await screenshot(page, "account-deleted");
    // The account is gone: its new password no longer signs anyone in.
    await submitPasswordSignIn(page, env.appUrl, { email, password: "first password ever" });
    await errorNote(page, "EMAIL_PASSWORD_MISMATCH");
    expect(errors).toEqual([]);
  });

  it("shows a user without a display name by their e-mail address, and says what the selected team is", async () => {
    const { page, errors } = await env.newContext();
    const user = await createTestUser(env.emulator.emulator, { email: uniqueEmail("nameless") });
    expect(user.displayName).toBeNull();
    // A team of theirs, selected (as the team the service makes at sign-up is, when the project asks for one).
    const app = clientApp();
    await signInAs(app, user);
    const me = await app.getUser({ or: "throw" });
    await me.setSelectedTeam(await me.createTeam({ displayName: "Night shift" }));

    await signInWithPassword(page, env.appUrl, user);
    expect(await page.locator(".menu-name").innerText()).toBe(user.email);
    expect(await page.locator(".profile-name").innerText()).toBe(user.email);
    expect(await page.locator("body").innerText()).not.toContain("(no name)");
    const explained = /^Selected: your current team, the one apps take as the team you are working in\./;
    const homeBadge = page.locator("main .badge", { hasText: "selected" });
    expect(await homeBadge.getAttribute("title")).toMatch(explained);
    await page.getByText(explained).waitFor();
    await screenshot(page, "home-without-display-name");

    await page.locator(".menu").getByRole("link", { name: "Account settings" }).click();
    const team = page.locator("#teams .item", { hasText: "Night shift" });
    expect(await team.locator(".badge", { hasText: "selected" }).getAttribute("title")).toMatch(explained);
    await team.getByRole("button", { name: "Members & invitations" }).click();
    await team.getByText(`Members: ${user.email} (you)`).waitFor();
    await screenshot(page, "team-members-without-display-name");
    expect(errors).toEqual([]);
  });

  it("answers a taken address on sign-up with a link to sign in instead, the notes under the button as on every form", async () => {
    const { page, errors } = await env.newContext();
    const user = await createUser(env, "taken", "Tara Taken");
    await page.goto(appPath("/handler/sign-up"));
    const signUp = page.getByRole("button", { name: "Sign up", exact: true });
    const form = page.locator("form", { has: signUp });
    await form.getByRole("textbox", { name: "E-mail" }).fill(user.email);
    await form.getByLabel("Password", { exact: true }).fill("another good passphrase");
    await form.getByLabel("Repeat the password").fill("another passphrase");
    await signUp.click();
    const differ = form.getByRole("alert").filter({ hasText: "The two passwords differ." });
    await differ.waitFor();
    expect(await isBelow(differ, signUp)).toBe(true);

    await form.getByLabel("Repeat the password").fill("another good passphrase");
    await signUp.click();
    const taken = await errorNote(page, "USER_EMAIL_ALREADY_EXISTS");
    expect(await isBelow(taken, signUp)).toBe(true);
    const instead = taken.getByRole("link", { name: "Sign in instead" });
    expect(await instead.evaluate((element) => element.tagName)).toBe("A");
    expect(new URL((await instead.getAttribute("href"))!, env.appUrl).pathname).toBe("/handler/sign-in");
    await screenshot(page, "sign-up-address-taken");

    await instead.click();
    await page.waitForURL(appPath("/handler/sign-in"));
    // The sign-in form's note sits under its button too.
    await submitPasswordSignIn(page, env.appUrl, { email: user.email, password: "not the password" });
    const wrong = await errorNote(page, "EMAIL_PASSWORD_MISMATCH");
    expect(await isBelow(wrong, page.getByRole("button", { name: "Sign in", exact: true }))).toBe(true);
    expect(errors).toEqual([]);
  });

  it("says a verification link opened a second time is for an address already verified", async () => {
    const { page, errors } = await env.newContext();
    const user = await createTestUser(env.emulator.emulator, {
      email: uniqueEmail("verify"),
      displayName: "Vera Verify",
      emailVerified: false,
    });
    const app = clientApp();
    await signInAs(app, user);
    await (await app.getUser({ or: "throw" })).sendVerificationEmail();
    expect(latestEmail(env.emulator.emulator, user.email)).toMatchObject({ to: [user.email], sentAt: expect.any(Date) });
    const link = latestLink(env.emulator.emulator, user.email);
    expect(new URL(link).pathname).toBe("/handler/email-verification");

    await page.goto(link);
    await page.getByText("Your e-mail address is verified.").waitFor();
    // The same link again: the service answers that its code is used; the page says what that means.
    await page.goto(link);
    await page.getByText("This e-mail address is already verified: this link was used before.").waitFor();
    expect(await page.locator('[role="alert"]').count()).toBe(0);
    await screenshot(page, "email-already-verified");
    expect(errors).toEqual([]);
  });

  it("serves the emulator's mailbox page with an icon of its own, so no request for one fails", async () => {
    const { page, errors } = await env.newContext();
    const failed: string[] = [];
    page.on("response", (response) => {
      if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`);
    });
    await page.goto(`${env.apiUrl}/mailbox`);
    await page.getByRole("heading", { name: /^Mailbox: all mail/ }).waitFor();
    const href = await page.locator('link[rel="icon"]').getAttribute("href");
    expect(href).toMatch(/^data:image\/svg\+xml,/);
    const icon = await page.evaluate(async (url) => {
      const response = await fetch(url);
      return { status: response.status, type: response.headers.get("content-type"), body: await response.text() };
    }, href!);
    expect(icon).toMatchObject({ status: 200, type: expect.stringContaining("image/svg+xml"), body: expect.stringContaining("<svg") });
    expect(failed).toEqual([]);
    expect(errors).toEqual([]);
  });

  it("keeps the header on one line on a phone-width screen, signed out and signed in", async () => {
    const { page, errors } = await env.newContext();
    await page.setViewportSize({ width: 360, height: 740 });
    const user = await createUser(env, "phone", "Philippa Featherstonehaugh-Montgomery");
    await page.goto(env.appUrl);
    await page.getByRole("heading", { name: "You are not signed in." }).waitFor();
    const signedOut = await headerLayout(page);
    expect(signedOut).toMatchObject({ rows: 1, overflow: false });
    await signInWithPassword(page, env.appUrl, user);
    await page.locator(".menu-initial").waitFor();
    const signedIn = await headerLayout(page);
    expect(signedIn.rows).toBe(1);
    expect(signedIn.overflow).toBe(false);
    expect(signedIn.tallestItem).toBeLessThan(40);
    expect(signedIn.height).toBeLessThan(64);
    await screenshot(page, "phone-header-signed-in");
    await page.locator(".menu").getByRole("link", { name: "Account settings" }).click();
    await page.getByRole("heading", { name: "Account settings" }).waitFor();
    expect((await headerLayout(page)).overflow).toBe(false);
    await screenshot(page, "phone-account-settings");
    expect(errors).toEqual([]);
  });
});
