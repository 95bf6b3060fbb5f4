// Debian's Chromium for the browser tests, set up as ../shared/TOOLCHAIN.md says
// and as the smoke test (../example-app.test.ts) does it: launched by
// playwright-core, offline (every host name but localhost fails to resolve),
// and a missing Chromium reported, never silently skipped: under CI (CI=true or
// CI=1) the run fails, elsewhere the suite is skipped with the reason printed.
import { existsSync } from "node:fs";
import { chromium, type Browser } from "playwright-core";

/** Debian's Chromium, or the binary STACKKIT_CHROMIUM names. */
export const CHROMIUM = process.env.STACKKIT_CHROMIUM || "/usr/bin/chromium";

/** Never touches the network: every host name but localhost fails to resolve. */
export const CHROMIUM_ARGS = [
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

export interface ChromiumAvailability {
  /** No Chromium at CHROMIUM. */
  readonly missing: boolean;
  readonly inCI: boolean;
  /** Skip the suite: Chromium is missing and this is not CI. */
  readonly skip: boolean;
  /** Why, and how to install it. */
  readonly reason: string;
}

const INSTALL_HINT =
  "install it with `apt-get update && apt-get install -y chromium` (Debian/Ubuntu), or set STACKKIT_CHROMIUM to the path of a Chromium binary";

/** Whether the browser suites can run here; prints the warning of a skipped suite (`what` names it). */
export function chromiumAvailability(what: string): ChromiumAvailability {
  const inCI = ["true", "1"].includes((process.env.CI ?? "").toLowerCase());
  const lookedFor = process.env.STACKKIT_CHROMIUM ? `${CHROMIUM} (from STACKKIT_CHROMIUM)` : CHROMIUM;
  const missing = !existsSync(CHROMIUM);
  const reason = `no Chromium at ${lookedFor}; ${INSTALL_HINT}`;
  if (missing && !inCI) console.warn(`[stackkit] SKIPPED ${what}: ${reason}. (With CI=true a missing Chromium fails the run.)`);
  return { missing, inCI, skip: missing && !inCI, reason };
}

/**
 * One headless Chromium; each flow opens its own context (its own cookies and
 * storage, as a fresh browser profile would have). Playwright gives the browser
 * a new temporary profile of its own.
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
}
