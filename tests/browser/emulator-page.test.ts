// The emulator's page (/emulator/ui/) in Debian's Chromium, on both service versions: each view loads,
// each action of the page changes what the control API then reports, the request log shows an app's
// sign-in as it happens, and the page asks nothing of any origin but the emulator's. The page is built
// once (scripts/lib/emulator-page.mjs) into a temporary folder the server is pointed at; the page is
// opened at http://localhost:<port>, a loopback Host as the control API wants. Screenshots of each view
// go to tests/browser/artifacts/ (git-ignored), as the other browser tests keep theirs.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_KEYS, SERVICE_VERSIONS, type ServiceVersion } from "../../emulator/index.js";
import { pageFilesIn } from "../../emulator/page-files.js";
import { startEmulatorServer, type EmulatorServer } from "../../emulator/server.js";
import { StackClientApp } from "../../runtime/index.js";
import { buildEmulatorPage } from "../../scripts/lib/emulator-page.mjs";
import { documentChecker } from "../helpers/emulator.js";
import { chromiumAvailability, launchChromium } from "./helpers/chromium.js";

const ARTIFACTS = path.join(path.dirname(fileURLToPath(import.meta.url)), "artifacts");

const chromium = chromiumAvailability("the emulator's page");
const title = chromium.skip ? `the emulator's page (SKIPPED: ${chromium.reason})` : "the emulator's page";

let pageDir: string;
let browser: Browser;
beforeAll(async () => {
  if (chromium.skip) return;
  pageDir = mkdtempSync(path.join(tmpdir(), "stackkit-page-ui-"));
  [browser] = await Promise.all([launchChromium(), buildEmulatorPage(pageDir)]);
  mkdirSync(ARTIFACTS, { recursive: true });
}, 120_000);
afterAll(async () => {
  await browser?.close();
  if (pageDir) rmSync(pageDir, { recursive: true, force: true });
});

describe.skipIf(chromium.skip).each(SERVICE_VERSIONS)(
  `${title}, service version %s`,
  { timeout: 60_000 },
  (serviceVersion: ServiceVersion) => {
    if (chromium.missing) {
      it("has Chromium to run in", () => {
        throw new Error(`CI=${process.env.CI}: the page's tests must run, but there is ${chromium.reason}.`);
      });
      return;
    }

    const checker = documentChecker(serviceVersion);
    let server: EmulatorServer;
    let context: BrowserContext;
    let page: Page;
    let origin: string;
    /** Every URL the page asked for, and every error it logged: both checked after each view. */
    const requested: string[] = [];
    const errors: string[] = [];

    beforeAll(async () => {
      server = await startEmulatorServer({ port: 0, serviceVersion, page: pageFilesIn(pageDir), onExchange: checker.onExchange });
      origin = `http://localhost:${server.port}`;
      context = await browser.newContext({ viewport: { width: 1200, height: 800 }, acceptDownloads: true });
      context.setDefaultTimeout(10_000);
      page = await context.newPage();
      page.on("request", (request) => requested.push(request.url()));
      page.on("pageerror", (error) => errors.push(error.message));
      page.on("console", (message) => message.type() === "error" && errors.push(message.text()));
      page.on("dialog", (dialog) => void dialog.accept());
    }, 60_000);

    afterAll(async () => {
      await context?.close();
      await server?.close();
      expect(checker.violations).toEqual([]);
    });

    /** The control API, as a test in another language would call it. */
    async function control(method: string, route: string, body?: unknown): Promise<any> {
      const response = await fetch(`${server.url}/emulator/v1/${route}`, {
        method,
        ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { "content-type": "application/json" } }),
      });
      return response.json();
    }
    const usersMatching = async (query: string) =>
      (await control("GET", `projects/${DEMO_KEYS.projectId}/users?query=${encodeURIComponent(query)}`)).items as { id: string }[];
    const open = async (view: string) => {
      await page.goto(`${origin}/emulator/ui/#/${view}`);
      await page.locator("h1", { hasText: `service ${serviceVersion}` }).waitFor();
    };
    const shoot = (view: string) =>
      page.screenshot({ path: path.join(ARTIFACTS, `emulator-page-${view}-${serviceVersion}.png`), fullPage: true });
    const onlyOwnOrigin = () => {
      // Its own origin, and what the page made itself (the icon's data: URL, an exported file's blob: URL).
      expect(
        requested.filter((url) => !url.startsWith(`${origin}/`) && !url.startsWith("data:") && !url.startsWith(`blob:${origin}/`)),
      ).toEqual([]);
      expect(errors).toEqual([]);
    };

    it("lists a project's users a page at a time, searches them, and creates one", async () => {
      for (let i = 0; i < 60; i++) await control("POST", "users", { email: `user${i}@example.com`, displayName: `User ${i}` });
      await open("users");
      await expect.poll(() => page.getByTestId("users-range").textContent()).toBe("1–25 of 60");
      await expect(page.locator("tbody tr").first().textContent()).resolves.toContain("User 59");
      await shoot("users");
      await page.getByRole("button", { name: "Next" }).click();
      await expect.poll(() => page.getByTestId("users-range").textContent()).toBe("26–50 of 60");
      await page.getByRole("searchbox", { name: "Search users" }).fill("user42@");
      await expect.poll(() => page.locator("tbody tr").allTextContents()).toEqual([expect.stringContaining("user42@example.com")]);

      await open("users");
      await page.getByLabel("New user's e-mail").fill("grace@example.com");
      await page.getByLabel("New user's display name").fill("Grace");
      await page.getByLabel("verified").uncheck();
      await page.getByRole("button", { name: "Create user" }).click();
      await page.getByRole("heading", { name: "Grace" }).waitFor();
      const [grace] = await usersMatching("grace@");
      expect(await control("GET", `users/${grace!.id}`)).toMatchObject({ display_name: "Grace", primary_email_verified: false });
      onlyOwnOrigin();
    });

    it("shows one user as the server API does, and edits, verifies, restricts, signs in as and deletes them", async () => {
      const [grace] = await usersMatching("grace@");
      await open(`user/${grace!.id}`);
      await page.getByText(`"primary_email": "grace@example.com"`).waitFor();
      await page.getByLabel("Display name").fill("Grace H.");
      await page.getByLabel("Server metadata").fill('{ "plan": "pro" }');
      await page.getByRole("button", { name: "Save" }).click();
      await expect.poll(async () => (await control("GET", `users/${grace!.id}`)).display_name).toBe("Grace H.");
      expect((await control("GET", `users/${grace!.id}`)).server_metadata).toEqual({ plan: "pro" });

      await page.getByRole("button", { name: "Verify e-mail" }).click();
      await expect.poll(async () => (await control("GET", `users/${grace!.id}`)).primary_email_verified).toBe(true);
      if (serviceVersion === "2.8.11") {
        // 2.8.11 restricts no user: the page offers no restriction.
        expect(await page.getByRole("button", { name: "Restrict" }).count()).toBe(0);
      } else {
        await page.getByRole("button", { name: "Restrict" }).click();
        await expect.poll(async () => (await control("GET", `users/${grace!.id}`)).is_restricted).toBe(true);
        await page.getByRole("button", { name: "Lift restriction" }).click();
        await expect.poll(async () => (await control("GET", `users/${grace!.id}`)).is_restricted).toBe(false);
      }

      await page.getByRole("button", { name: "Get tokens" }).click();
      await page.getByTestId("sign-in-result").getByRole("button", { name: "Copy access token" }).waitFor();
      await expect.poll(async () => (await control("GET", `users/${grace!.id}/sessions`)).length).toBe(1);
      await page.getByLabel("The app's magic-link callback URL").fill("http://localhost:5173/handler/magic-link-callback");
      await page.getByRole("button", { name: "Make a sign-in link" }).click();
      const link = new URL((await page.getByRole("link", { name: "Open the app as this user" }).getAttribute("href"))!);
      const [code] = await control("GET", "codes?recipient=grace@example.com&kind=magic_link");
      expect(link.searchParams.get("code")).toBe(code.code);
      await expect.poll(() => page.locator("section[aria-label='Sessions'] tbody tr").count()).toBe(2);
      await shoot("user");
      await page.locator("section[aria-label='Sessions'] tbody tr").first().getByRole("button", { name: "Revoke" }).click();
      await expect.poll(async () => (await control("GET", `users/${grace!.id}/sessions`)).length).toBe(1);

      await page.getByRole("button", { name: "Delete user" }).click();
      await page.getByTestId("users-range").waitFor();
      expect(await control("GET", `users/${grace!.id}`)).toEqual({ error: `No user ${grace!.id} in the emulator` });
      onlyOwnOrigin();
    });

    it("shows the teams, and a team's members with their permissions", async () => {
      const [member] = await usersMatching("user1@");
      const team = await fetch(`${server.url}/api/v1/teams`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "x-stack-project-id": DEMO_KEYS.projectId,
          "x-stack-access-type": "server",
          "x-stack-secret-server-key": DEMO_KEYS.secretServerKey,
        },
        body: JSON.stringify({ display_name: "Design", creator_user_id: member!.id }),
      }).then((response) => response.json() as Promise<{ id: string }>);
      await open("teams");
      await page.getByRole("link", { name: "Design" }).click();
      await page.getByRole("heading", { name: "Design" }).waitFor();
      await page.getByText("$update_team", { exact: true }).waitFor();
      expect(await page.locator("tbody tr").allTextContents()).toEqual([expect.stringContaining("user1@example.com")]);
      expect(page.url()).toBe(`${origin}/emulator/ui/#/teams/${team.id}`);
      await shoot("team");
      onlyOwnOrigin();
    });

    it("shows the e-mails with their links and codes, where /mailbox leads", async () => {
      const app = new StackClientApp({
        projectId: DEMO_KEYS.projectId,
        publishableClientKey: DEMO_KEYS.publishableClientKey,
        baseUrl: server.url,
        tokenStore: "memory",
        browser: null,
        noAutomaticPrefetch: true,
      });
      await app.sendForgotPasswordEmail("user3@example.com", { callbackUrl: "http://localhost:5173/handler/password-reset" });
      await page.goto(`${origin}/mailbox/user3`);
      expect(page.url()).toBe(`${origin}/emulator/ui/#/emails?to=user3`);
      const email = page.locator("article.email");
      await email.first().waitFor();
      expect(await email.count()).toBe(1);
      const [code] = await control("GET", "codes?recipient=user3@example.com&kind=password_reset");
      expect(await email.getByRole("link", { name: "Open link" }).getAttribute("href")).toBe(code.link);
      await email.getByRole("button", { name: "Copy code" }).waitFor();
      await shoot("emails");
      onlyOwnOrigin();
    });

    it("shows an app's sign-in in the request log as it happens, with the exchange's secrets masked", async () => {
      await open("requests");
      await page.getByText("No request yet").or(page.locator("table.requests tbody tr").first()).waitFor();
      const app = new StackClientApp({
        projectId: DEMO_KEYS.projectId,
        publishableClientKey: DEMO_KEYS.publishableClientKey,
        baseUrl: server.url,
        tokenStore: "memory",
        browser: null,
        noAutomaticPrefetch: true,
      });
      await control("POST", "users", { email: "linus@example.com", password: "correct-horse-battery" });
      const result = await app.signInWithCredential({ email: "linus@example.com", password: "correct-horse-battery" });
      expect(result.status).toBe("ok");
      // No reload: the page's next poll brings the line.
      const row = page.locator("table.requests tbody tr", { hasText: "signInWithPassword" });
      await row.waitFor();
      expect((await row.locator("td").allTextContents()).slice(1, 7)).toEqual([
        "POST",
        "/auth/password/sign-in",
        "signInWithPassword",
        "client",
        "200",
        "",
      ]);
      await row.click();
      const exchange = page.locator("section[aria-label='POST /auth/password/sign-in → 200']");
      await exchange.getByText('"password": "[redacted]"').waitFor();
      await exchange.getByText('"refresh_token": "[redacted]"').waitFor();
      expect(await exchange.textContent()).not.toContain("correct-horse-battery");
      await page.getByRole("searchbox", { name: "Filter requests" }).fill("sign-in");
      await expect.poll(() => page.locator("table.requests tbody tr").count()).toBe(1);
      await shoot("requests");
      onlyOwnOrigin();
    });

    it("moves the clock, injects and clears faults, and exports, imports and resets the state", async () => {
      await open("tools");
      const before = (await control("GET", "clock")).now as number;
      await page.getByRole("button", { name: "+1 hour" }).click();
      await expect.poll(async () => (await control("GET", "clock")).now - before).toBeGreaterThanOrEqual(3_600_000);

      await page.getByLabel("Operation").fill("listTeams");
      await page.getByLabel("Fault kind").selectOption("status");
      await page.getByLabel("Fault value").fill("503");
      await page.getByLabel("Times").selectOption("always");
      await page.getByRole("button", { name: "Inject fault" }).click();
      await page.getByText('{"kind":"status","status":503} · always').waitFor();
      expect(await control("GET", "faults")).toEqual([
        { operationId: "listTeams", fault: { kind: "status", status: 503 }, remaining: "always" },
      ]);
      await shoot("tools");
      await page.getByRole("button", { name: "Clear faults" }).click();
      await expect.poll(() => control("GET", "faults")).toEqual([]);

      const download = page.waitForEvent("download");
      await page.getByRole("button", { name: "Export state" }).click();
      const file = path.join(pageDir, "state.json");
      await (await download).saveAs(file);
      const exported = JSON.parse(readFileSync(file, "utf8"));
      expect(exported.version).toBe(1);
      expect(exported.tables.users.length).toBe((await control("GET", "state")).tables.users.length);

      await page.getByRole("button", { name: "Reset" }).click();
      await page.getByRole("status").getByText("Reset.").waitFor();
      expect((await control("GET", `projects/${DEMO_KEYS.projectId}/users`)).total).toBe(0);
      writeFileSync(file, JSON.stringify(exported));
      await page.getByLabel("Import state").setInputFiles(file);
      await page.getByRole("status").getByText("Imported state.json.").waitFor();
      expect((await control("GET", `projects/${DEMO_KEYS.projectId}/users`)).total).toBe(
        exported.tables.users.filter((user: { project_id: string }) => user.project_id === DEMO_KEYS.projectId).length,
      );
      onlyOwnOrigin();
    });

    it("shows the service version and the project's keys, to copy", async () => {
      await open("project");
      await expect.poll(() => page.getByTestId("service-version").textContent()).toBe(serviceVersion);
      for (const key of [DEMO_KEYS.publishableClientKey, DEMO_KEYS.secretServerKey, DEMO_KEYS.superSecretAdminKey]) {
        await page.getByText(key, { exact: true }).waitFor();
      }
      await page.getByRole("button", { name: "Copy" }).first().waitFor();
      await shoot("project");
      onlyOwnOrigin();
    });

    it("keeps to one page from the emulator with 20,000 users", async () => {
      for (let i = 0; i < 20_000; i++)
        await server.emulator.control.createUser({ projectId: DEMO_KEYS.projectId, email: `many${i}@example.com` });
      const { total } = await control("GET", `projects/${DEMO_KEYS.projectId}/users?limit=1`);
      expect(total).toBeGreaterThanOrEqual(20_000);
      const answer = page.waitForResponse((response) => response.url().includes(`/emulator/v1/projects/${DEMO_KEYS.projectId}/users?`));
      await open("users");
      const body = (await (await answer).json()) as { items: unknown[]; total: number };
      // The browser gets the page it shows, never the whole table.
      expect([body.items.length, body.total]).toEqual([25, total]);
      await expect.poll(() => page.getByTestId("users-range").textContent()).toBe(`1–25 of ${total}`);
      await expect(page.locator("tbody tr").first().textContent()).resolves.toContain("many19999@example.com");
      onlyOwnOrigin();
    }, 120_000);
  },
);
