// What the browser-bound flows need in Node, over real HTTP against the
// emulator: a page whose address bar moves (the SDK's injectable Browser), a
// user agent that follows the emulator's redirects and posts the forms of its
// fake OAuth provider page, a software authenticator behind
// `navigator.credentials` (tests/helpers/webauthn.ts) for passkeys, and TOTP
// codes computed at the emulator's clock.
import { generateHOTP } from "@oslojs/otp";
import { expect, vi } from "vitest";
import type { Browser } from "../../runtime/index.js";
import { SoftAuthenticator } from "../helpers/webauthn.js";
import type { E2E } from "./harness.js";
import { formOf } from "../helpers/provider-page.js";

/** A page of the customer's site: assign/replace move it, cookies live in a jar, history.replaceState rewrites the address. */
export class FakePage {
  #url: URL;
  readonly jar = new Map<string, string>();
  /** Where location.assign sent the page, oldest first. */
  readonly assigned: string[] = [];
  readonly replaced: string[] = [];
  readonly browser: Browser;

  constructor(href: string) {
    this.#url = new URL(href);
    const page = this;
    this.browser = {
      location: {
        get href() {
          return page.#url.href;
        },
        get origin() {
          return page.#url.origin;
        },
        get hostname() {
          return page.#url.hostname;
        },
        get protocol() {
          return page.#url.protocol;
        },
        assign: (to: string) => void this.assigned.push((this.#url = new URL(to, this.#url)).href),
        replace: (to: string) => void this.replaced.push((this.#url = new URL(to, this.#url)).href),
      },
      history: { replaceState: (_data: unknown, _unused: string, to: string) => void (this.#url = new URL(to, this.#url)) },
      document: {
        get cookie() {
          return [...page.jar].map(([k, v]) => `${k}=${v}`).join("; ");
        },
        set cookie(assignment: string) {
          const [pair = "", ...attributes] = assignment.split(";").map((s) => s.trim());
          const name = pair.slice(0, pair.indexOf("="));
          if (attributes.some((a) => /^max-age=0$/i.test(a) || /^expires=thu, 01 jan 1970/i.test(a))) page.jar.delete(name);
          else page.jar.set(name, pair.slice(pair.indexOf("=") + 1));
        },
      },
    };
  }

  get href(): string {
    return this.#url.href;
  }

  /** The user opens another address in this tab. */
  goTo(href: string): void {
    this.#url = new URL(href);
  }

  /** The flow's verifier cookies still in the jar. */
  oauthCookies(): string[] {
    return [...this.jar.keys()].filter((k) => k.startsWith("stack-oauth-outer-"));
  }
}

export interface Visit {
  /** Where the redirects left the emulator: a page of the app. */
  readonly landed?: URL;
  readonly status: number;
  readonly text: string;
  readonly url: string;
  readonly headers: Headers;
}

/** Requests `url` and follows the redirects while they stay on the emulator; stops at the first page of another origin. */
export async function browse(e: E2E, url: string, init: RequestInit = {}): Promise<Visit> {
  const origin = new URL(e.url).origin;
  for (let hops = 0; hops < 10; hops++) {
    const response = await fetch(url, { ...init, redirect: "manual" });
    const location = response.headers.get("location");
    if (response.status < 300 || response.status >= 400 || location === null) {
      return { status: response.status, text: await response.text(), url, headers: response.headers };
    }
    await response.body?.cancel();
    const next = new URL(location, url);
    if (next.origin !== origin) return { landed: next, status: response.status, text: "", url, headers: response.headers };
    if (response.status === 303 || response.status === 302) init = {};
    url = next.toString();
  }
  throw new Error("too many redirects");
}

const post = (e: E2E, form: { action: string; fields: URLSearchParams }) =>
  browse(e, form.action, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: form.fields.toString(),
  });

/** On the provider's page: continue as a new identity, as the nth identity it offers, or deny. */
export type Choice = { readonly email: string; readonly name?: string; readonly accountId?: string } | { readonly known: number } | "deny";

function choose(e: E2E, page: Visit, choice: Choice): Promise<Visit> {
  if (choice === "deny") return post(e, formOf(page, { id: "oauth-deny-form" }));
  if ("known" in choice) return post(e, formOf(page, { testid: "oauth-known-identity", index: choice.known }));
  const form = formOf(page, { id: "oauth-identity-form" });
  form.fields.set("email", choice.email);
  form.fields.set("name", choice.name ?? "");
  form.fields.set("account_id", choice.accountId ?? "");
  return post(e, form);
}

/**
 * An OAuth round trip as the user's browser makes it: `start` (an SDK call that
 * sends the page to the authorize URL; it may never settle) runs, the page is
 * followed to the provider's consent page, the choice is posted, and the page
 * lands back on the app. Returns the consent page and where the page landed.
 */
export async function oauthRoundTrip(
  e: E2E,
  page: FakePage,
  start: () => Promise<unknown>,
  choice: Choice,
): Promise<{ consent: Visit; back: Visit }> {
  const before = page.assigned.length;
  void start().catch(() => {});
  await vi.waitFor(() => expect(page.assigned.length).toBeGreaterThan(before), { timeout: 5_000 });
  const authorize = new URL(page.assigned.at(-1)!);
  expect(authorize.origin + authorize.pathname).toMatch(new RegExp(`^${e.url}/api/v1/auth/oauth/authorize/`));
  const consent = await browse(e, authorize.toString());
  expect(consent.status).toBe(200);
  const back = await choose(e, consent, choice);
  if (back.landed) page.goTo(back.landed.toString());
  return { consent, back };
}

/** Puts a software authenticator on the page's origin behind `navigator.credentials`, as a browser with it would. Undo with `vi.unstubAllGlobals()`. */
export function useAuthenticator(origin: string): SoftAuthenticator {
  const authenticator = new SoftAuthenticator(origin);
  vi.stubGlobal("PublicKeyCredential", class PublicKeyCredential {});
  vi.stubGlobal("navigator", { credentials: authenticator.credentialsContainer() });
  return authenticator;
}

const TOTP_STEP = 30_000;

/** The RFC 6238 code of `secret` (HMAC-SHA1, 30-second steps, 6 digits) at `ms`. */
export const totpAt = (secret: Uint8Array, ms: number): string => generateHOTP(secret, BigInt(Math.floor(ms / TOTP_STEP)), 6);

/**
 * The code of `secret` now on the emulator's clock (`GET /emulator/v1/clock`).
 * Near the end of a step the clock is first moved to the start of the next,
 * so the code stays current while it travels.
 */
export async function currentTotp(e: E2E, secret: Uint8Array): Promise<string> {
  let now = await e.now();
  const left = TOTP_STEP - (now % TOTP_STEP);
  if (left < 5_000) {
    await e.advanceClock(left + 1_000);
    now = await e.now();
  }
  return totpAt(secret, now);
}
