// What the starter-app suite (../starter.test.ts) adds to the flows' helpers:
// the console of a page split into what the person sees and what the developer
// gets, the error note and banner as the page shows them, the header's layout
// on a phone-width screen, and the demo project's providers set up so that one
// of them can be connected to an account (GitHub shared, Google with its own keys).
import type { BrowserContext, Locator, Page } from "playwright-core";
import { StackAdminApp } from "../../../runtime/index.js";
import { DEMO_KEYS } from "../../../testing/index.js";
import type { FlowsEnvironment } from "./flows.js";

/** Chromium's own line for a request that failed or was answered 5xx; the suite provokes these on purpose. */
const FAILED_LOAD = /^Failed to load resource: (net::ERR_|the server responded with a status of (4|5)\d\d)/;

export interface ConsoleRecord {
  /** console.warn lines (the developer detail of the errors the page shows). */
  readonly warnings: string[];
  /** Uncaught errors and console.error lines, except Chromium's own lines for failed requests. */
  readonly errors: string[];
}

/** Records a page's console from now on, its warnings apart from its errors. */
export function recordConsole(page: Page): ConsoleRecord {
  const record: ConsoleRecord = { warnings: [], errors: [] };
  page.on("pageerror", (error) => record.errors.push(error.message));
  page.on("console", (message) => {
    if (message.type() === "warning") record.warnings.push(message.text());
    if (message.type() === "error" && !FAILED_LOAD.test(message.text())) record.errors.push(message.text());
  });
  return record;
}

/** The error note with `code` (its data-error-code), once it shows. */
export async function errorNote(page: Page, code: string) {
  const note = page.locator(`[role="alert"][data-error-code="${code}"]`).first();
  await note.waitFor();
  return note;
}

/** The words of an error note, a page's error card or the banner: its title and its message. */
export async function wordsOf(element: Locator): Promise<{ title: string; message: string }> {
  const card = (await element.locator(".note-title").count()) === 0;
  const [title, message] = await Promise.all([
    element
      .locator(card ? "h2" : ".note-title")
      .first()
      .innerText(),
    element
      .locator(card ? "p" : ".note-message")
      .first()
      .innerText(),
  ]);
  return { title, message };
}

/**
 * Lets the page read the Retry-After of the sign-in's answers. The emulator's
 * CORS answers expose only its x-stack-* headers, so a browser never sees its
 * Retry-After; the service must expose it for a browser app to say how long to wait.
 */
export async function exposeRetryAfter(page: Page): Promise<() => Promise<void>> {
  const url = "**/api/v1/auth/password/sign-in";
  await page.route(url, async (route) => {
    if (route.request().method() !== "POST") return route.continue();
    const response = await route.fetch();
    const exposed = [response.headers()["access-control-expose-headers"], "retry-after"].filter(Boolean).join(", ");
    await route.fulfill({ response, headers: { ...response.headers(), "access-control-expose-headers": exposed } });
  });
  return () => page.unroute(url);
}

/** The connection banner once it shows `problem` ("offline", "unreachable", "unavailable"). */
export async function banner(page: Page, problem: string): Promise<Locator> {
  const shown = page.locator(`.banner[data-connection="${problem}"]`);
  await shown.waitFor();
  return shown;
}

export interface HeaderLayout {
  readonly height: number;
  /** The distinct top edges of the header's items: one value when they sit on one line. */
  readonly rows: number;
  /** The tallest single item: a label that wrapped onto two lines is taller than one line. */
  readonly tallestItem: number;
  readonly overflow: boolean;
}

/** How the header sits: its height, how many rows its items make, whether the page scrolls sideways. */
export function headerLayout(page: Page): Promise<HeaderLayout> {
  return page.evaluate(() => {
    const topbar = document.querySelector(".topbar")!;
    const items = [...topbar.querySelectorAll(".brand, .menu > *")].map((item) => item.getBoundingClientRect());
    const centres = new Set(items.map((box) => Math.round((box.top + box.height / 2) / 8)));
    return {
      height: topbar.getBoundingClientRect().height,
      rows: centres.size,
      tallestItem: Math.max(...items.map((box) => box.height)),
      overflow: document.documentElement.scrollWidth > window.innerWidth,
    };
  });
}

/** GitHub with the shared keys (no provider tokens: it cannot be connected later), Google with the project's own. */
export async function setUpProviders(env: FlowsEnvironment): Promise<void> {
  const admin = new StackAdminApp({
    projectId: DEMO_KEYS.projectId,
    publishableClientKey: DEMO_KEYS.publishableClientKey,
    secretServerKey: DEMO_KEYS.secretServerKey,
    superSecretAdminKey: DEMO_KEYS.superSecretAdminKey,
    baseUrl: env.apiUrl,
    tokenStore: null,
    browser: null,
    noAutomaticPrefetch: true,
  });
  const project = await admin.getProject();
  await project.update({
    config: {
      oauthProviders: [
        { id: "github", type: "shared" },
        { id: "google", type: "standard", clientId: "example-google-client", clientSecret: "example-google-secret" },
      ],
    },
  });
}

/** Whether the page scrolls sideways (something wider than the window). */
export function scrollsSideways(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
}

/** Lets the page write to and read from the clipboard (the API key's copy button). */
export async function allowClipboard(context: BrowserContext, appUrl: string): Promise<void> {
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: new URL(appUrl).origin });
}
