// Smoke test of the example app in a real browser: the app is built and served
// on 127.0.0.1 against the mock of the API, and Debian's Chromium (driven by
// playwright-core, set up as ../shared/TOOLCHAIN.md says) signs in with e-mail
// and password, sees the user, opens account settings and signs out.
// Screenshots (the signed-in home page, sign-in, account settings) are kept in
// tests/browser/artifacts/ (not committed).
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type BrowserContext, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMock } from "../../scripts/mock.mjs";
import { buildExample, serveStatic } from "../../scripts/serve-example.mjs";

const CHROMIUM = "/usr/bin/chromium";
const ARTIFACTS = path.join(path.dirname(fileURLToPath(import.meta.url)), "artifacts");
// Never touches the network: every host name but localhost fails to resolve.
const ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-sync",
  "--disable-background-networking",
  "--disable-component-update",
  "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1",
];

// Locally the test needs Chromium (`apt-get install chromium`); CI installs it, so there it must run.
const missing = !existsSync(CHROMIUM) && process.env.CI !== "true";
const title = missing
  ? `the example app in Chromium (skipped: ${CHROMIUM} is missing; install it with apt-get install chromium)`
  : "the example app in Chromium";

describe.skipIf(missing)(title, { timeout: 120_000 }, () => {
  let mock: Awaited<ReturnType<typeof startMock>> | undefined;
  let server: Awaited<ReturnType<typeof serveStatic>> | undefined;
  let context: BrowserContext | undefined;
  let page: Page;
  const dirs: string[] = [];
  const pageErrors: string[] = [];

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: .ci/run installs it with apt-get install chromium`);
    mock = await startMock({ quiet: true });
    const outDir = mkdtempSync(path.join(tmpdir(), "stackkit-example-"));
    dirs.push(outDir);
    await buildExample({ apiUrl: mock.baseUrl, outDir, quiet: true });
    server = await serveStatic(outDir);
    const profile = mkdtempSync(path.join(tmpdir(), "stackkit-chromium-"));
    dirs.push(profile);
    context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: ARGS });
    context.setDefaultTimeout(15_000);
    page = context.pages()[0] ?? (await context.newPage());
    await page.setViewportSize({ width: 1100, height: 760 });
    page.on("pageerror", (error) => pageErrors.push(error.message));
    page.on("console", (message) => {
      if (message.type() === "error") pageErrors.push(message.text());
    });
  }, 120_000);

  afterAll(async () => {
    await context?.close();
    await server?.close();
    await mock?.stop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it("shows the signed-out home page at first", async () => {
    // localhost, never 127.0.0.1: the origin passkeys and cookies are meant for.
    await page.goto(server!.url);
    await expect.poll(() => page.getByRole("heading", { name: "You are not signed in." }).isVisible()).toBe(true);
    await expect.poll(() => page.locator(".brand").innerText()).toContain("Acme");
  });

  it("signs in with e-mail and password on /handler/sign-in and shows the user on the home page", async () => {
    await page.getByRole("link", { name: "Sign in", exact: true }).first().click();
    await page.waitForURL("**/handler/sign-in");
    await page.getByRole("button", { name: "Continue with GitHub" }).waitFor();
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: path.join(ARTIFACTS, "sign-in.png"), fullPage: true });
    await page.getByRole("textbox", { name: "E-mail", exact: true }).fill("ada@example.com");
    await page.getByLabel("Password", { exact: true }).fill("correct horse battery staple");
    await page.getByRole("button", { name: "Sign in", exact: true }).click();

    await page.waitForURL(server!.url);
    await page.getByRole("heading", { name: "Ada Lovelace" }).waitFor();
    expect(await page.locator(".menu-user").innerText()).toBe("Ada Lovelace");
    await page.getByText("Your teams").waitFor();
    await page.locator(".plain-list li").first().waitFor();
    await page.screenshot({ path: path.join(ARTIFACTS, "signed-in-home.png"), fullPage: true });
  });

  it("opens account settings and shows the profile", async () => {
    await page.getByRole("link", { name: "Account settings" }).first().click();
    await page.waitForURL("**/handler/account-settings");
    await page.getByRole("heading", { name: "Account settings" }).waitFor();
    await expect.poll(() => page.getByLabel("Display name").inputValue()).toBe("Ada Lovelace");
    // The lists of the other sections load too.
    await page.getByRole("heading", { name: "E-mail addresses" }).waitFor();
    await page.locator("#sessions .item").first().waitFor();
    await page.locator("#api-keys .item").first().waitFor();
    await page.screenshot({ path: path.join(ARTIFACTS, "account-settings.png"), fullPage: true });
  });

  it("signs out and shows the signed-out home page", async () => {
    await page.getByRole("link", { name: "Sign out" }).first().click();
    await page.getByRole("heading", { name: "You are not signed in." }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/");
    // The session is gone: a reload still shows nobody signed in.
    await page.reload();
    await page.getByRole("heading", { name: "You are not signed in." }).waitFor();
  });

  it("raised no error in the page", () => {
    expect(pageErrors).toEqual([]);
  });
});
