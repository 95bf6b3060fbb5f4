// What the browser flows share: the emulator over HTTP (in this process, on
// 127.0.0.1), the example app built against it and served on 127.0.0.1 (opened
// as http://localhost:<port>, the origin passkeys and cookies are meant for),
// one Chromium, and helpers that do what a user or a test of an app does: sign
// in through the page, read the mailbox, compute TOTP codes at the emulator's
// clock, add a virtual authenticator, move the emulator's clock.
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { generateHOTP } from "@oslojs/otp";
import type { Browser, BrowserContext, CDPSession, Page } from "playwright-core";
import { startEmulatorServer, type EmulatorServer } from "../../../emulator/server.js";
import type { Fault } from "../../../emulator/engine/engine.js";
import { DEFAULT_SERVICE_VERSION, type ServiceVersion } from "../../../emulator/index.js";
import type { OperationId } from "../../../generated/operations.js";
import { StackAdminApp } from "../../../runtime/index.js";
import { buildExample, serveStatic } from "../../../scripts/serve-example.mjs";
import { createTestUser, DEMO_KEYS, type TestUser } from "../../../testing/index.js";
import { documentChecker } from "../../helpers/emulator.js";
import { launchChromium } from "./chromium.js";

export const ARTIFACTS = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "artifacts");

/** The OAuth providers the flows enable in the demo project (the seed enables none). */
export const OAUTH_PROVIDERS = ["github", "google"] as const;

export interface FlowsEnvironment {
  readonly emulator: EmulatorServer;
  /** Violations of the document (in the view of the emulator's service version) its exchanges showed so far. */
  readonly violations: string[];
  /** How many exchanges under /api/v1 were checked against the document. */
  checkedExchanges(): number;
  /** The emulator's origin (the app's `baseUrl`), `http://127.0.0.1:<port>`. */
  readonly apiUrl: string;
  /** The example app, `http://localhost:<port>/`. */
  readonly appUrl: string;
  readonly browser: Browser;
  /** A new browser context (a fresh profile's cookies and storage) with its first page; errors in its pages are recorded. */
  newContext(): Promise<FlowContext>;
  close(): Promise<void>;
}

export interface FlowContext {
  readonly context: BrowserContext;
  readonly page: Page;
  /** Uncaught errors and console errors of every page of the context (failed requests the flows provoke left out). */
  readonly errors: string[];
  /** Another page (tab) of the same context, its errors recorded too. */
  newPage(): Promise<Page>;
}

/** `serviceVersion`: the service version the emulator answers as (its default unless told). */
export async function startFlowsEnvironment(options: { readonly serviceVersion?: ServiceVersion } = {}): Promise<FlowsEnvironment> {
  const cleanups: (() => Promise<void> | void)[] = [];
  const close = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  };
  try {
    // Every exchange under /api/v1 (the page's and the tests') is checked against the version's view of the document.
    const checker = documentChecker(options.serviceVersion ?? DEFAULT_SERVICE_VERSION);
    const emulator = await startEmulatorServer({
      port: 0,
      ...(options.serviceVersion === undefined ? {} : { serviceVersion: options.serviceVersion }),
      onExchange: checker.onExchange,
    });
    cleanups.push(() => emulator.close());
    const apiUrl = emulator.url;
    await enableOAuthProviders(apiUrl);

    const outDir = mkdtempSync(path.join(tmpdir(), "stackkit-flows-"));
    cleanups.push(() => rmSync(outDir, { recursive: true, force: true }));
    // The browser starts while vite builds: the two together take the time of the slower one.
    const [browser] = await Promise.all([launchChromium(), buildExample({ apiUrl, outDir, quiet: true })]);
    cleanups.push(() => browser.close());
    const served = await serveStatic(outDir);
    cleanups.push(() => served.close());
    mkdirSync(ARTIFACTS, { recursive: true });

    const contexts: BrowserContext[] = [];
    cleanups.push(async () => {
      for (const context of contexts) await context.close().catch(() => undefined);
    });
    return {
      emulator,
      violations: checker.violations,
      checkedExchanges: checker.checked,
      apiUrl,
      appUrl: served.url,
      browser,
      async newContext() {
        const context = await browser.newContext({ viewport: { width: 1100, height: 760 } });
        contexts.push(context);
        context.setDefaultTimeout(10_000);
        const errors: string[] = [];
        const watch = (page: Page) => {
          page.on("pageerror", (error) => errors.push(`${page.url()}: ${error.message}`));
          page.on("console", (message) => {
            // A known error of the service is an HTTP 4xx, which Chromium logs; the flows provoke some on purpose
            // (a second factor asked for, a wrong code, an expired access token). What the app does with them is checked.
            if (
              message.type() === "error" &&
              !/^Failed to load resource: the server responded with a status of 4\d\d/.test(message.text())
            ) {
              errors.push(`${page.url()}: ${message.text()}`);
            }
          });
          return page;
        };
        const page = watch(await context.newPage());
        return { context, page, errors, newPage: async () => watch(await context.newPage()) };
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/** Turns GitHub and Google sign-in on in the demo project, through the admin API, as a developer would in the dashboard. */
async function enableOAuthProviders(apiUrl: string): Promise<void> {
  const admin = new StackAdminApp({
    projectId: DEMO_KEYS.projectId,
    publishableClientKey: DEMO_KEYS.publishableClientKey,
    secretServerKey: DEMO_KEYS.secretServerKey,
    superSecretAdminKey: DEMO_KEYS.superSecretAdminKey,
    baseUrl: apiUrl,
    tokenStore: null,
    browser: null,
    noAutomaticPrefetch: true,
  });
  const project = await admin.getProject();
  await project.update({ config: { oauthProviders: OAUTH_PROVIDERS.map((id) => ({ id, type: "shared" as const })) } });
}

// THE EMULATOR'S CONTROL AND MAILBOX APIS (over HTTP, as a test in another process would use them)

async function controlCall<T>(apiUrl: string, method: string, route: string, body?: unknown): Promise<T> {
  const response = await fetch(`${apiUrl}/emulator/v1/${route}`, {
    method,
    ...(body === undefined ? {} : { headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
  });
  const answer = (await response.json()) as T & { error?: string };
  if (!response.ok) throw new Error(`${method} /emulator/v1/${route}: ${response.status} ${answer.error ?? ""}`);
  return answer;
}

/** The emulator's clock (ms since the epoch). */
export async function emulatorNow(apiUrl: string): Promise<number> {
  return (await controlCall<{ now: number }>(apiUrl, "GET", "clock")).now;
}

export async function advanceEmulatorClock(apiUrl: string, ms: number): Promise<number> {
  return (await controlCall<{ now: number }>(apiUrl, "POST", "clock/advance", { ms })).now;
}

export function injectFault(apiUrl: string, operationId: OperationId, fault: Fault, times = 1): Promise<unknown> {
  return controlCall(apiUrl, "POST", "faults", { operationId, fault, times });
}

export interface LoggedRequest {
  readonly operationId: string | null;
  readonly status: number;
  readonly knownError: string | null;
}

export function emulatorRequests(apiUrl: string): Promise<LoggedRequest[]> {
  return controlCall<LoggedRequest[]>(apiUrl, "GET", "requests");
}

export function clearEmulatorRequests(apiUrl: string): Promise<unknown> {
  return controlCall(apiUrl, "DELETE", "requests");
}

/** The newest message of an Inbucket mailbox (the local part of the address) that `matches`, waiting up to 5 s for it. */
export async function latestMail(
  apiUrl: string,
  address: string,
  matches: (subject: string) => boolean = () => true,
): Promise<{ subject: string; text: string }> {
  const mailbox = encodeURIComponent(address.split("@")[0]!.toLowerCase());
  const deadline = Date.now() + 5000;
  for (;;) {
    const headers = (await (await fetch(`${apiUrl}/api/v1/mailbox/${mailbox}`)).json()) as { id: string; subject: string }[];
    const header = headers.filter((message) => matches(message.subject)).at(-1);
    if (header) {
      const message = (await (await fetch(`${apiUrl}/api/v1/mailbox/${mailbox}/${encodeURIComponent(header.id)}`)).json()) as {
        subject: string;
        body: { text: string };
      };
      return { subject: message.subject, text: message.body.text };
    }
    if (Date.now() > deadline) throw new Error(`No e-mail in the mailbox ${mailbox} (of ${address})`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

// USERS AND SIGN-IN

let counter = 0;
/** An address no other flow uses, `<prefix>-<unique>@example.com`. */
export function uniqueEmail(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}${(counter++).toString(36)}@example.com`;
}

/** A user of the demo project with a verified e-mail and a password, made directly in the emulator. */
export function createUser(env: FlowsEnvironment, prefix: string, displayName: string): Promise<TestUser> {
  return createTestUser(env.emulator.emulator, { email: uniqueEmail(prefix), displayName });
}

/** Signs in with e-mail and password on the sign-in page the browser is on (or opens it). Does not wait for the landing. */
export async function submitPasswordSignIn(
  page: Page,
  appUrl: string,
  user: { readonly email: string; readonly password: string },
): Promise<void> {
  if (!new URL(page.url(), appUrl).pathname.endsWith("/handler/sign-in")) await page.goto(new URL("/handler/sign-in", appUrl).href);
  const form = page.getByRole("form", { name: "Sign in with e-mail and password" });
  await form.getByRole("textbox", { name: "E-mail" }).fill(user.email);
  await form.getByLabel("Password", { exact: true }).fill(user.password);
  await form.getByRole("button", { name: "Sign in", exact: true }).click();
}

/** Signs in with e-mail and password and waits for the home page to show the user. */
export async function signInWithPassword(page: Page, appUrl: string, user: TestUser): Promise<void> {
  await submitPasswordSignIn(page, appUrl, user);
  await page.waitForURL(appUrl);
  // The home page names the user by their display name, else by their e-mail address.
  await page.getByRole("heading", { name: user.displayName ?? user.email }).waitFor();
}

/** Signs out through the menu's link and waits for the signed-out home page. */
export async function signOut(page: Page): Promise<void> {
  await page.locator(".menu").getByRole("link", { name: "Sign out" }).click();
  await page.getByRole("heading", { name: "You are not signed in." }).waitFor();
}

/** The app's cookies whose name starts with `prefix`. */
export async function cookiesNamed(context: BrowserContext, appUrl: string, prefix: string): Promise<{ name: string; value: string }[]> {
  return (await context.cookies(appUrl)).filter((cookie) => cookie.name.startsWith(prefix));
}

/** A full-page screenshot in tests/browser/artifacts/, once the page's lists have loaded (up to 3 s). */
export async function screenshot(page: Page, name: string): Promise<void> {
  const deadline = Date.now() + 3000;
  while ((await page.locator(".loading").count()) > 0 && Date.now() < deadline) await page.waitForTimeout(50);
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });
}

// TOTP

const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/** The bytes of a base32 secret (RFC 4648, no padding), as otpauth:// URIs carry it. */
export function base32Decode(text: string): Uint8Array {
  const clean = text.replace(/[\s=]/g, "").toUpperCase();
  const bytes: number[] = [];
  let bits = 0;
  let value = 0;
  for (const char of clean) {
    const index = BASE32.indexOf(char);
    if (index < 0) throw new Error(`"${char}" is not a base32 character`);
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Uint8Array.from(bytes);
}

const TOTP_STEP_MS = 30_000;

/** The RFC 6238 code of `secret` at `nowMs` (30-second steps, six digits), as an authenticator app shows it. */
export function totpAt(secret: Uint8Array, nowMs: number): string {
  return generateHOTP(secret, BigInt(Math.floor(nowMs / TOTP_STEP_MS)), 6);
}

/**
 * The code of `secret` at the emulator's clock, which verifies in the current
 * step only: close to the end of a step this waits for the next one, so the code
 * is still current when the request arrives.
 */
export async function totpAtEmulatorClock(apiUrl: string, secret: Uint8Array): Promise<string> {
  let now = await emulatorNow(apiUrl);
  const left = TOTP_STEP_MS - (now % TOTP_STEP_MS);
  if (left < 1500) {
    await new Promise((resolve) => setTimeout(resolve, left + 100));
    now = await emulatorNow(apiUrl);
  }
  return totpAt(secret, now);
}

// PASSKEYS

export interface VirtualAuthenticator {
  readonly cdp: CDPSession;
  readonly authenticatorId: string;
  credentials(): Promise<{ credentialId: string; rpId?: string; signCount: number; isResidentCredential: boolean; userHandle?: string }[]>;
}

/**
 * Chromium's virtual authenticator on `page` (one per page: another page of the
 * context sees none): a platform authenticator with resident keys and user
 * verification, that answers every ceremony at once.
 */
export async function addVirtualAuthenticator(context: BrowserContext, page: Page): Promise<VirtualAuthenticator> {
  const cdp = await context.newCDPSession(page);
  await cdp.send("WebAuthn.enable", { enableUI: false });
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return {
    cdp,
    authenticatorId,
    credentials: async () => (await cdp.send("WebAuthn.getCredentials", { authenticatorId })).credentials,
  };
}
