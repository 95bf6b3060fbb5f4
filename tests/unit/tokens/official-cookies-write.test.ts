// What stackkit's browser cookie store writes, read by each official version's
// reading rule (2.8.11, 2.8.77, 2.8.102, 2.8.108; tests/helpers/official-cookies.ts)
// in a browser cookie jar that applies Secure, Domain and `__Host-`; 2.8.108's
// clean-up of the legacy names; and a sign-out that leaves no token cookie of
// any version behind.
import { describe, expect, it, vi } from "vitest";
import { parse as parseCookie } from "cookie";
import { createCookieTokenStore } from "../../../runtime/sessions/tokens/cookie.js";
import { createRequestTokenStore } from "../../../runtime/sessions/tokens/request.js";
import { NO_TOKENS } from "../../../runtime/sessions/tokens/store.js";
import { fakeBrowser } from "../../helpers/app-context.js";
import { browserCookies, names, officialPage, readAs28108, READERS, refreshJson, writesOfJson } from "../../helpers/official-cookies.js";
import {
  HTTP,
  HTTPS,
  hx,
  n,
  NOW,
  ONE,
  projectId,
  SIBLING,
  stackkitStore,
  TWO,
  useFrozenClock,
  VERSIONS,
} from "../../helpers/official-site.js";

type Browser = ReturnType<typeof browserCookies>;

/** Every official version's reading of the cookies a page at `href` sees. */
const readings = (browser: Browser, href: string) => VERSIONS.map((version) => READERS[version](browser.decoded(href), projectId));

const names_ = (lines: readonly string[]) => lines.map((line) => line.slice(0, line.indexOf("=")));

useFrozenClock();

describe("stackkit writes, every official version reads", () => {
  it.each([
    ["http", HTTP, false],
    ["https", HTTPS, true],
  ])("a sign-in over %s on a fresh site: the plain refresh cookie, its JSON twin of 2.8.49 on, and stack-access", (_, href, secure) => {
    const browser = browserCookies();
    stackkitStore(browser, href).set(ONE);
    expect(browser.refused).toEqual([]);
    expect(browser.stored.map((c) => c.name)).toEqual([n.plain, secure ? n.hostDefault : n.default, "stack-access"]);
    for (const cookie of browser.stored) expect(cookie).toMatchObject({ hostOnly: true, path: "/", secure });
    expect(readings(browser, href)).toEqual([ONE, ONE, ONE, ONE]);
  });

  it.each(VERSIONS)("a sign-in over a %s session: every version reads the new one", (version) => {
    const browser = browserCookies();
    officialPage(browser, HTTPS, version, ONE, projectId);
    stackkitStore(browser, HTTPS).set(TWO);
    expect(browser.refused).toEqual([]);
    expect(readings(browser, HTTPS)).toEqual([TWO, TWO, TWO, TWO]);
  });

  it("over a 2.8.108 session, the exact lines: the plain cookie and its JSON twin, 2.8.108's own names, and both access pairs", () => {
    const page = fakeBrowser(HTTPS);
    const { document } = page.browser;
    for (const line of writesOfJson("2.8.108", {}, ONE, projectId, { secure: true })) document.cookie = line;
    page.writes.length = 0;
    createCookieTokenStore({ projectId, document, location: page.browser.location, broadcastChannel: null }).set(TWO);
    const pair = "%5B%22rt-2%22%2C%22at-2%22%5D";
    expect(page.writes).toEqual([
      "stack-refresh-proj-1=rt-2; Max-Age=31536000; Path=/; Secure; SameSite=Lax",
      `__Host-stack-refresh-proj-1--default=${encodeURIComponent(refreshJson("rt-2", NOW))}; Max-Age=31536000; Path=/; Secure; SameSite=Lax`,
      `__Host-hexclave-refresh-proj-1--default=${encodeURIComponent(refreshJson("rt-2", NOW))}; Max-Age=31536000; Path=/; Secure; SameSite=Lax`,
      `stack-access=${pair}; Max-Age=86400; Path=/; Secure; SameSite=Lax`,
      `hexclave-access=${pair}; Max-Age=86400; Path=/; Secure; SameSite=Lax`,
    ]);
    // What 2.8.108 parses from them, value for value.
    const cookies = parseCookie(document.cookie);
    expect(JSON.parse(cookies[hx.hostDefault]!)).toEqual({ refresh_token: "rt-2", updated_at_millis: NOW });
    expect(readAs28108(cookies, projectId)).toEqual(TWO);
  });

  it.each(VERSIONS)("an access-token refresh over a %s session rewrites only the access pair", (version) => {
    const browser = browserCookies();
    officialPage(browser, HTTPS, version, ONE, projectId);
    const page = browser.page(HTTPS);
    const fresh = { refreshToken: "rt-1", accessToken: "at-fresh" };
    createCookieTokenStore({ projectId, document: page.document, location: page.location, broadcastChannel: null }).set(fresh);
    expect(names_(page.writes)).toEqual(version === "2.8.108" ? ["stack-access", "hexclave-access"] : ["stack-access"]);
    expect(READERS[version](browser.decoded(HTTPS), projectId)).toEqual(fresh);
  });

  it.each(["2.8.102", "2.8.108"] as const)(
    "a sign-in over a %s custom-domain session carries the new token to the other subdomains",
    (version) => {
      const browser = browserCookies();
      officialPage(browser, SIBLING, version, ONE, projectId, "example.com");
      stackkitStore(browser, HTTPS).set(TWO);
      expect(browser.refused).toEqual([]);
      const custom = names(projectId, version === "2.8.108" ? "hexclave" : "stack").custom("example.com");
      expect(browser.stored.find((c) => c.name === custom)).toMatchObject({ domain: "example.com", hostOnly: false, secure: true });
      expect(READERS[version](browser.decoded(SIBLING), projectId).refreshToken).toBe("rt-2");
      expect(readings(browser, HTTPS)).toEqual([TWO, TWO, TWO, TWO]);
    },
  );

  it("a legacy custom-domain cookie gets its hexclave twin once 2.8.108 is in use, for a sibling that reads hexclave first", () => {
    const browser = browserCookies();
    // Each host ran 2.8.108 once (host-only cookies), then the sibling 2.8.102 with a custom domain.
    officialPage(browser, SIBLING, "2.8.108", ONE, projectId);
    officialPage(browser, HTTPS, "2.8.108", ONE, projectId);
    officialPage(browser, SIBLING, "2.8.102", ONE, projectId, "example.com");
    vi.setSystemTime(NOW + 1000);
    stackkitStore(browser, HTTPS).set(TWO);
    expect(browser.stored.find((c) => c.name === hx.custom("example.com"))).toMatchObject({ domain: "example.com", hostOnly: false });
    // 2.8.108 on the sibling reads the twin, newer than its own host-only cookie; 2.8.102 the legacy one.
    expect(readings(browser, SIBLING).map((tokens) => tokens.refreshToken)).toEqual([null, "rt-2", "rt-2", "rt-2"]);
  });
});

describe("2.8.108's clean-up of the legacy names", () => {
  it("a 2.8.108 tab copying stackkit's session to its names and deleting the legacy ones keeps the session for stackkit", () => {
    const browser = browserCookies();
    const store = stackkitStore(browser, HTTPS);
    store.set(ONE);
    // What a 2.8.108 tab's 100 ms poll does on seeing the change: write the tokens it read, under its own names.
    officialPage(browser, HTTPS, "2.8.108", readAs28108(browser.decoded(HTTPS), projectId), projectId);
    expect(browser.stored.map((c) => c.name)).toEqual(["stack-access", hx.hostDefault, "hexclave-access"]);
    expect(store.get()).toEqual(ONE);
    expect(createRequestTokenStore({ headers: new Headers({ cookie: browser.header(HTTPS) }) }, projectId).get()).toEqual(ONE);
  });

  it("after stackkit wrote over a 2.8.108 session, deleting every legacy refresh cookie leaves the session", () => {
    const browser = browserCookies();
    officialPage(browser, HTTPS, "2.8.108", ONE, projectId);
    const store = stackkitStore(browser, HTTPS);
    store.set(TWO);
    const { document } = browser.page(HTTPS);
    for (const name of [n.plain, "stack-refresh", n.hostDefault, n.default]) {
      document.cookie = `${name}=; path=/; secure; expires=${new Date(NOW - 86_400_000).toUTCString()}`;
    }
    expect(browser.stored.some((c) => c.name.startsWith("stack-refresh"))).toBe(false);
    expect(store.get()).toEqual(TWO);
    expect(readAs28108(browser.decoded(HTTPS), projectId)).toEqual(TWO);
  });
});

describe("sign-out", () => {
  it("clears every token cookie of every version, on every host of the site", () => {
    const browser = browserCookies();
    officialPage(browser, SIBLING, "2.8.108", ONE, projectId, "example.com");
    officialPage(browser, HTTPS, "2.8.11", ONE, projectId);
    const { document } = browser.page(HTTPS);
    // Names no single version leaves together: every generation's at once.
    const json = encodeURIComponent(refreshJson("rt-0", 1));
    for (const line of [
      `${n.custom("example.com")}=${json}; path=/; secure; domain=example.com`,
      `${n.hostDefault}=${json}; path=/; secure`,
      `${hx.hostDefault}=${json}; path=/; secure`,
      `${hx.default}=${json}; path=/`,
      "stack-refresh=rt-legacy; path=/",
      `hexclave-access=${encodeURIComponent('["rt-1","at-1"]')}; path=/`,
    ]) {
      document.cookie = line;
    }
    expect(browser.stored.map((c) => `${c.name}@${c.domain}`).sort()).toEqual(
      [
        `${hx.custom("example.com")}@example.com`,
        `${n.custom("example.com")}@example.com`,
        `${n.plain}@app.example.com`,
        `${n.hostDefault}@app.example.com`,
        `${hx.hostDefault}@app.example.com`,
        `${hx.default}@app.example.com`,
        "stack-refresh@app.example.com",
        "stack-access@app.example.com",
        "hexclave-access@app.example.com",
        "hexclave-access@admin.example.com",
      ].sort(),
    );
    const store = stackkitStore(browser, HTTPS);
    store.set(NO_TOKENS);
    expect(browser.refused).toEqual([]);
    // Only the access pair the sibling host keeps for itself (host-only there) is left.
    expect(browser.stored.map((c) => `${c.name}@${c.domain}`)).toEqual(["hexclave-access@admin.example.com"]);
    for (const href of [HTTPS, HTTP, SIBLING]) expect(readings(browser, href)).toEqual([NO_TOKENS, NO_TOKENS, NO_TOKENS, NO_TOKENS]);
    expect(store.get()).toEqual(NO_TOKENS);
  });
});
