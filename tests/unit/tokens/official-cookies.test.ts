// The token cookies shared with the official SDK, both ways: what its 2.8.11
// and current browser stores write, read by stackkit's cookie store and request
// store; and what stackkit writes, read by each version's reading rule
// (tests/helpers/official-cookies.ts), in a browser cookie jar that applies
// Secure, Domain and `__Host-`.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { parse as parseCookie } from "cookie";
import { createCookieTokenStore } from "../../../runtime/sessions/tokens/cookie.js";
import { createRequestTokenStore } from "../../../runtime/sessions/tokens/request.js";
import { NO_TOKENS, type TokenPair, type TokenStore } from "../../../runtime/sessions/tokens/store.js";
import { fakeBrowser } from "../../helpers/app-context.js";
import {
  browserCookies,
  names,
  readAs2811,
  readAsCurrent,
  refreshJson,
  writesOf2811,
  writesOfCurrent,
} from "../../helpers/official-cookies.js";

const projectId = "proj-1";
const n = names(projectId);
const NOW = Date.UTC(2026, 0, 15, 12);
const HTTP = "http://app.example.com/";
const HTTPS = "https://app.example.com/";
const SIBLING = "https://admin.example.com/";
const ONE: TokenPair = { refreshToken: "rt-1", accessToken: "at-1" };
const TWO: TokenPair = { refreshToken: "rt-2", accessToken: "at-2" };

type Browser = ReturnType<typeof browserCookies>;

function stackkitStore(browser: Browser, href: string): TokenStore {
  const { document, location } = browser.page(href);
  return createCookieTokenStore({ projectId, document, location, broadcastChannel: null });
}

/** A page of the official SDK at `href` whose tokens become `tokens`. */
function official(browser: Browser, href: string, version: "2.8.11" | "current", tokens: TokenPair, parentDomain?: string) {
  const { document } = browser.page(href);
  const lines =
    version === "2.8.11"
      ? writesOf2811(tokens, projectId)
      : writesOfCurrent(parseCookie(document.cookie), tokens, projectId, {
          secure: href.startsWith("https:"),
          ...(parentDomain !== undefined && { parentDomain }),
        });
  for (const line of lines) document.cookie = line;
}

const requestStore = (cookie: string) => createRequestTokenStore({ headers: new Headers({ cookie }) }, projectId);

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(NOW);
});
afterEach(() => vi.useRealTimers());

describe("the official SDK writes, stackkit reads", () => {
  it.each([
    ["2.8.11 over http", "2.8.11", HTTP],
    ["2.8.11 over https", "2.8.11", HTTPS],
    ["the current SDK over http (stack-refresh-<id>--default)", "current", HTTP],
    ["the current SDK over https (__Host-stack-refresh-<id>--default)", "current", HTTPS],
  ] as const)("%s: the browser store and a request store both find the session", (_, version, href) => {
    const browser = browserCookies();
    official(browser, href, version, ONE);
    expect(browser.refused).toEqual([]);
    expect(stackkitStore(browser, href).get()).toEqual(ONE);
    expect(requestStore(browser.header(href)).get()).toEqual(ONE);
  });

  it("the current SDK leaves exactly its JSON cookie and stack-access, as js-cookie encodes them", () => {
    const browser = browserCookies();
    official(browser, HTTPS, "current", ONE);
    expect(browser.stored.map(({ name, value, secure, hostOnly }) => ({ name, value, secure, hostOnly }))).toEqual([
      {
        name: n.hostDefault,
        value: `{%22refresh_token%22:%22rt-1%22%2C%22updated_at_millis%22:${NOW}}`,
        secure: true,
        hostOnly: true,
      },
      { name: "stack-access", value: "[%22rt-1%22%2C%22at-1%22]", secure: true, hostOnly: true },
    ]);
  });

  it("a session the current SDK moved to its custom-domain cookie is read on every subdomain", () => {
    const browser = browserCookies();
    official(browser, SIBLING, "current", ONE, "example.com");
    // Only the Domain=example.com cookie is left: the follow-up step removed the default one.
    expect(browser.stored.map((c) => [c.name, c.domain, c.hostOnly])).toEqual([
      ["stack-access", "admin.example.com", true],
      [n.custom("example.com"), "example.com", false],
    ]);
    expect(stackkitStore(browser, HTTPS).get()).toEqual({ refreshToken: "rt-1", accessToken: null });
    expect(requestStore(browser.header(HTTPS)).get()).toEqual({ refreshToken: "rt-1", accessToken: null });
  });

  it("a Cookie header with the JSON cookie as Next's server writes it (fully percent-encoded) is read too", () => {
    const cookie = `${n.hostDefault}=${encodeURIComponent(refreshJson("rt-1", NOW))}; stack-access=${encodeURIComponent('["rt-1","at-1"]')}`;
    expect(requestStore(cookie).get()).toEqual(ONE);
  });

  describe("which refresh cookie wins, as the current SDK decides", () => {
    const json = (token: string, at?: number) =>
      encodeURIComponent(JSON.stringify(at === undefined ? { refresh_token: token } : { refresh_token: token, updated_at_millis: at }));
    it.each([
      [
        "the plain per-project cookie before any JSON one, however new",
        `${n.hostDefault}=${json("rt-new", NOW)}; ${n.plain}=rt-plain`,
        "rt-plain",
      ],
      ["the plain stack-refresh before any JSON one", `${n.default}=${json("rt-new", NOW)}; stack-refresh=rt-legacy`, "rt-legacy"],
      [
        "of the JSON ones, the greatest updated_at_millis",
        `${n.default}=${json("rt-old", 1)}; ${n.hostDefault}=${json("rt-new", 2)}; ${n.custom("example.com")}=${json("rt-mid", 1.5)}`,
        "rt-new",
      ],
      [
        "one with updated_at_millis before one without",
        `${n.default}=${json("rt-none")}; ${n.hostDefault}=${json("rt-dated", 0)}`,
        "rt-dated",
      ],
      ["on a tie, the first in the header", `${n.hostDefault}=${json("rt-first", 5)}; ${n.default}=${json("rt-second", 5)}`, "rt-first"],
      ["not a JSON cookie without refresh_token", `${n.hostDefault}=${json("", 9)}; ${n.default}=${json("rt-ok", 1)}`, "rt-ok"],
      ["not a JSON cookie that is no JSON", `${n.hostDefault}=rt-plain-text; ${n.default}=${json("rt-ok", 1)}`, "rt-ok"],
      [
        "not another project's JSON cookie",
        `stack-refresh-proj-10--default=${json("rt-other", 9)}; ${n.default}=${json("rt-ok", 1)}`,
        "rt-ok",
      ],
    ])("%s", (_, cookie, refreshToken) => {
      const store = requestStore(cookie);
      expect(store.get().refreshToken).toBe(refreshToken);
      expect(readAsCurrent(parseCookie(cookie), projectId).refreshToken).toBe(refreshToken);
    });
  });

  it("follows an official page that signs in again over stackkit's cookies", () => {
    const browser = browserCookies();
    const store = stackkitStore(browser, HTTPS);
    store.set(ONE);
    official(browser, HTTPS, "current", TWO);
    expect(store.get()).toEqual(TWO);
    official(browser, HTTPS, "2.8.11", ONE);
    // 2.8.11 writes only the plain cookie; the current SDK's rule reads it first, and so does stackkit.
    expect(store.get()).toEqual(ONE);
    expect(readAsCurrent(browser.decoded(HTTPS), projectId)).toEqual(ONE);
  });
});

describe("stackkit writes, the official SDK reads", () => {
  it.each([
    ["http", HTTP, [n.plain, n.default, "stack-access"], false],
    ["https", HTTPS, [n.plain, n.hostDefault, "stack-access"], true],
  ])("a sign-in over %s: the plain cookie for 2.8.11, the JSON one for the current SDK", (_, href, cookieNames, secure) => {
    const browser = browserCookies();
    stackkitStore(browser, href).set(ONE);
    expect(browser.refused).toEqual([]);
    expect(browser.stored.map((c) => c.name)).toEqual(cookieNames);
    for (const cookie of browser.stored) expect(cookie).toMatchObject({ hostOnly: true, path: "/", secure });
    expect(browser.decoded(href)[cookieNames[1]!]).toBe(refreshJson("rt-1", NOW));
    expect(readAs2811(browser.decoded(href), projectId)).toEqual(ONE);
    expect(readAsCurrent(browser.decoded(href), projectId)).toEqual(ONE);
  });

  it("the same in the fake browser of the app tests", () => {
    const page = fakeBrowser(HTTPS);
    createCookieTokenStore({ projectId, document: page.browser.document, location: page.browser.location, broadcastChannel: null }).set(
      ONE,
    );
    const cookies = parseCookie(page.browser.document.cookie);
    expect(readAs2811(cookies, projectId)).toEqual(ONE);
    expect(readAsCurrent(cookies, projectId)).toEqual(ONE);
    expect(page.writes.map((line) => line.slice(0, line.indexOf("=")))).toEqual([n.plain, n.hostDefault, "stack-access"]);
    expect(page.writes[1]).toMatch(/; Path=\/; Secure; SameSite=Lax$/);
    expect(page.writes[1]).not.toMatch(/Domain=/);
  });

  it("an access-token refresh rewrites stack-access only, whichever SDK wrote the refresh cookie", () => {
    for (const version of ["2.8.11", "current"] as const) {
      const browser = browserCookies();
      official(browser, HTTPS, version, ONE);
      const page = browser.page(HTTPS);
      createCookieTokenStore({ projectId, document: page.document, location: page.location, broadcastChannel: null }).set({
        refreshToken: "rt-1",
        accessToken: "at-fresh",
      });
      expect(page.writes.map((line) => line.slice(0, line.indexOf("=")))).toEqual(["stack-access"]);
      expect(readAsCurrent(browser.decoded(HTTPS), projectId)).toEqual({ refreshToken: "rt-1", accessToken: "at-fresh" });
      if (version === "2.8.11") expect(readAs2811(browser.decoded(HTTPS), projectId).accessToken).toBe("at-fresh");
    }
  });

  it("a sign-in over the current SDK's custom-domain cookie carries the new token to the other subdomains", () => {
    const browser = browserCookies();
    official(browser, SIBLING, "current", ONE, "example.com");
    stackkitStore(browser, HTTPS).set(TWO);
    expect(browser.refused).toEqual([]);
    const custom = browser.stored.find((c) => c.name === n.custom("example.com"));
    expect(custom).toMatchObject({ domain: "example.com", hostOnly: false, secure: true });
    expect(readAsCurrent(browser.decoded(SIBLING), projectId).refreshToken).toBe("rt-2");
    expect(readAsCurrent(browser.decoded(HTTPS), projectId)).toEqual(TWO);
  });

  it.each([
    ["2.8.11", undefined],
    ["current", undefined],
    ["current", "example.com"],
  ] as const)("sign-out clears every refresh cookie the %s SDK left (custom domain: %s), on every host", (version, parentDomain) => {
    const browser = browserCookies();
    official(browser, SIBLING, version, ONE, parentDomain);
    official(browser, HTTPS, version, ONE, parentDomain);
    // Cookies of every generation at once: a plain one from 2.8.11 and JSON ones from the current SDK.
    browser.page(HTTP).document.cookie = `${n.default}=${encodeURIComponent(refreshJson("rt-0", 1))}; Path=/`;
    browser.page(HTTPS).document.cookie = "stack-refresh=rt-legacy; Path=/";
    const store = stackkitStore(browser, HTTPS);
    store.set(NO_TOKENS);
    expect(browser.refused).toEqual([]);
    for (const href of [HTTPS, HTTP]) expect(readAsCurrent(browser.decoded(href), projectId)).toEqual(NO_TOKENS);
    expect(browser.stored.filter((c) => c.domain !== "admin.example.com")).toEqual([]);
    expect(store.get()).toEqual(NO_TOKENS);
  });
});

describe("a request store reads what stackkit's browser store wrote", () => {
  it("from the Cookie header the browser sends", () => {
    const browser = browserCookies();
    stackkitStore(browser, HTTPS).set(ONE);
    expect(requestStore(browser.header(HTTPS)).get()).toEqual(ONE);
  });
});
