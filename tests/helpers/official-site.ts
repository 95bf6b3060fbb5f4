// The site the cookie-sharing tests run on: one project on two subdomains of
// example.com, the tokens signed in, and stackkit's browser cookie store on a
// page of a browserCookies() jar (official-cookies.ts).

import { afterEach, beforeEach, vi } from "vitest";
import { createCookieTokenStore } from "../../runtime/sessions/tokens/cookie.js";
import type { TokenPair, TokenStore } from "../../runtime/sessions/tokens/store.js";
import { names, READERS, type browserCookies, type OfficialVersion } from "./official-cookies.js";

export const projectId = "proj-1";
/** The refresh cookie names up to 2.8.102 (and the plain one). */
export const n = names(projectId);
/** 2.8.108's refresh cookie names. */
export const hx = names(projectId, "hexclave");
/** The frozen clock: the JSON refresh cookies' updated_at_millis. */
export const NOW = Date.UTC(2026, 0, 15, 12);
export const HTTP = "http://app.example.com/";
export const HTTPS = "https://app.example.com/";
export const SIBLING = "https://admin.example.com/";
export const ONE: TokenPair = { refreshToken: "rt-1", accessToken: "at-1" };
export const TWO: TokenPair = { refreshToken: "rt-2", accessToken: "at-2" };
export const VERSIONS = Object.keys(READERS) as OfficialVersion[];

/** stackkit's browser cookie store on a page at `href`, no cross-tab channel. */
export function stackkitStore(browser: ReturnType<typeof browserCookies>, href: string): TokenStore {
  const { document, location } = browser.page(href);
  return createCookieTokenStore({ projectId, document, location, broadcastChannel: null });
}

/** Freezes the clock at NOW around each test of the calling file. */
export function useFrozenClock(): void {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(NOW);
  });
  afterEach(() => vi.useRealTimers());
}
