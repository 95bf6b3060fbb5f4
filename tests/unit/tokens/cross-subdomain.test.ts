// A session shared by the subdomains of a site, as the official browser SDKs since 2.8.49 keep
// it: when the project trusts a parent domain of the page together with every subdomain of it,
// the cookie store moves the refresh token to `stack-refresh-<projectId>--custom-<base32>` set on
// that domain and deletes the host's own refresh cookies, so that every subdomain's page, of
// stackkit or of an official SDK since 2.8.49, reads the one session. Run in a browser cookie
// jar that applies Domain, Secure and `__Host-` (tests/helpers/official-cookies.ts).
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createCookieTokenStore } from "../../../runtime/sessions/tokens/cookie.js";
import { trustedParentDomain } from "../../../runtime/sessions/tokens/parent-domain.js";
import { NO_TOKENS } from "../../../runtime/sessions/tokens/store.js";
import { browserCookies, READERS } from "../../helpers/official-cookies.js";
import { HTTP, HTTPS, n, NOW, ONE, projectId, SIBLING, TWO } from "../../helpers/official-site.js";

type Browser = ReturnType<typeof browserCookies>;

/** stackkit's store on a page at `href` whose project's trusted parent domain `resolve` answers; the hostnames it was asked for. */
function storeOn(browser: Browser, href: string, resolve: (hostname: string) => Promise<string | null>) {
  const page = browser.page(href);
  const asked: string[] = [];
  const { protocol, hostname } = new URL(href);
  const store = createCookieTokenStore({
    projectId,
    document: page.document,
    location: { protocol, hostname },
    broadcastChannel: null,
    trustedParentDomain: (host) => {
      asked.push(host);
      return resolve(host);
    },
  });
  return { store, asked, writes: page.writes };
}

/** Lets the store's question about the parent domain, and what it does with the answer, run. */
const settle = async () => {
  for (let i = 0; i < 5; i++) await Promise.resolve();
};

const where = (browser: Browser) => browser.stored.map((c) => `${c.name}@${c.domain}${c.hostOnly ? "" : " (domain)"}`);
const exampleCom = async () => "example.com";
const custom = n.custom("example.com");

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(NOW);
});
afterEach(() => vi.useRealTimers());

describe("trustedParentDomain", () => {
  it("is the shortest suffix of the host that the project trusts both as itself and with every subdomain (**.)", () => {
    const trusted = ["https://example.com", "https://**.example.com"];
    expect(trustedParentDomain("app.example.com", trusted)).toBe("example.com");
    expect(trustedParentDomain("deep.app.Example.com", ["https://EXAMPLE.com:443/handler", "**.example.com"])).toBe("example.com");
    expect(trustedParentDomain("app.example.com", ["https://app.example.com", "https://**.app.example.com", ...trusted])).toBe(
      "example.com",
    );
    expect(trustedParentDomain("app.example.com", ["https://app.example.com", "https://**.app.example.com"])).toBe("app.example.com");
  });

  it("is null without both entries, for a one-level wildcard (*.), for another site, and for what is no domain", () => {
    expect(trustedParentDomain("app.example.com", ["https://example.com", "https://tenant.example.com"])).toBeNull();
    expect(trustedParentDomain("app.example.com", ["https://example.com", "https://*.example.com"])).toBeNull();
    expect(trustedParentDomain("app.example.com", ["https://**.example.com"])).toBeNull();
    expect(trustedParentDomain("app.example.org", ["https://example.com", "https://**.example.com"])).toBeNull();
    expect(trustedParentDomain("app.example.com", [42, null, "", "https://"])).toBeNull();
  });
});

describe("a sign-in on a page whose project trusts a parent domain", () => {
  it("keeps the session on the host until the domain is known, then moves it to the parent domain's cookie", async () => {
    const browser = browserCookies();
    const { store, asked } = storeOn(browser, HTTPS, exampleCom);
    store.set(ONE);
    expect(where(browser)).toEqual([`${n.plain}@app.example.com`, `${n.hostDefault}@app.example.com`, "stack-access@app.example.com"]);
    await settle();
    expect(asked).toEqual(["app.example.com"]);
    expect(browser.refused).toEqual([]);
    expect(where(browser)).toEqual(["stack-access@app.example.com", `${custom}@example.com (domain)`]);
    expect(browser.stored.find((c) => c.name === custom)).toMatchObject({ secure: true, path: "/" });
    expect(JSON.parse(browser.decoded(HTTPS)[custom]!)).toEqual({ refresh_token: "rt-1", updated_at_millis: NOW });
    expect(store.get()).toEqual(ONE);
  });

  it("is read by every subdomain, by stackkit and by the official SDKs since 2.8.49 (2.8.11 reads no such cookie)", async () => {
    const browser = browserCookies();
    storeOn(browser, HTTPS, exampleCom).store.set(ONE);
    await settle();
    const sibling = { refreshToken: "rt-1", accessToken: null };
    expect(storeOn(browser, SIBLING, exampleCom).store.get()).toEqual(sibling);
    expect(["2.8.77", "2.8.102", "2.8.108"].map((v) => READERS[v as "2.8.77"](browser.decoded(SIBLING), projectId))).toEqual([
      sibling,
      sibling,
      sibling,
    ]);
    expect(READERS["2.8.11"](browser.decoded(SIBLING), projectId).refreshToken).toBeNull();
  });

  it("a sign-in on a sibling replaces the session the other subdomains read; a later sign-in there writes the parent's cookie at once", async () => {
    const browser = browserCookies();
    const app = storeOn(browser, HTTPS, exampleCom);
    app.store.set(ONE);
    await settle();
    const sibling = storeOn(browser, SIBLING, exampleCom);
    sibling.store.set(TWO);
    await settle();
    expect(app.store.get().refreshToken).toBe("rt-2");
    // The parent domain is known now: the next sign-in goes straight to its cookie, asking nothing more.
    sibling.writes.length = 0;
    sibling.store.set({ refreshToken: "rt-3", accessToken: "at-3" });
    expect(sibling.writes.map((line) => line.slice(0, line.indexOf("=")))).toEqual([custom, "stack-access"]);
    expect(app.store.get().refreshToken).toBe("rt-3");
    expect(sibling.asked).toEqual(["admin.example.com"]);
  });

  it("an access-token refresh rewrites only the access pair, and sign-out deletes the parent's cookie on its domain", async () => {
    const browser = browserCookies();
    const { store, writes } = storeOn(browser, HTTPS, exampleCom);
    store.set(ONE);
    await settle();
    writes.length = 0;
    store.set({ refreshToken: "rt-1", accessToken: "at-fresh" });
    expect(writes.map((line) => line.slice(0, line.indexOf("=")))).toEqual(["stack-access"]);
    store.set(NO_TOKENS);
    expect(browser.stored).toEqual([]);
    expect(storeOn(browser, SIBLING, exampleCom).store.get()).toEqual(NO_TOKENS);
  });

  it("asks nothing at a page load: a session the host kept stays there until the next sign-in, which moves it", async () => {
    const browser = browserCookies();
    storeOn(browser, HTTPS, async () => null).store.set(ONE);
    await settle();
    const reloaded = storeOn(browser, HTTPS, exampleCom);
    await settle();
    expect(reloaded.store.get()).toEqual(ONE);
    // An access-token refresh keeps the refresh token: no new session, nothing asked.
    reloaded.store.set({ refreshToken: "rt-1", accessToken: "at-fresh" });
    await settle();
    expect(reloaded.asked).toEqual([]);
    expect(where(browser)).toEqual([`${n.plain}@app.example.com`, `${n.hostDefault}@app.example.com`, "stack-access@app.example.com"]);
    reloaded.store.set(TWO);
    await settle();
    expect(reloaded.asked).toEqual(["app.example.com"]);
    expect(where(browser)).toEqual(["stack-access@app.example.com", `${custom}@example.com (domain)`]);
  });

  it("a sibling page loaded on the parent's cookie asks nothing, and its access-token refresh rewrites only the access pair", async () => {
    const browser = browserCookies();
    storeOn(browser, HTTPS, exampleCom).store.set(ONE);
    await settle();
    const sibling = storeOn(browser, SIBLING, exampleCom);
    sibling.store.set({ refreshToken: "rt-1", accessToken: "at-sibling" });
    await settle();
    expect(sibling.asked).toEqual([]);
    expect(sibling.writes.map((line) => line.slice(0, line.indexOf("=")))).toEqual(["stack-access"]);
    expect(where(browser)).toContain(`${custom}@example.com (domain)`);
  });
});

describe("a sign-in on a page without a trusted parent domain", () => {
  it("keeps the session in the host's cookies: on http without Secure and without __Host-", async () => {
    const browser = browserCookies();
    const { store, writes } = storeOn(browser, HTTP, async () => null);
    store.set(ONE);
    await settle();
    expect(where(browser)).toEqual([`${n.plain}@app.example.com`, `${n.default}@app.example.com`, "stack-access@app.example.com"]);
    const json = encodeURIComponent(JSON.stringify({ refresh_token: "rt-1", updated_at_millis: NOW }));
    expect(writes).toContain(`${n.default}=${json}; Max-Age=31536000; Path=/; SameSite=Lax`);
  });

  it("keeps it there when the question fails, and asks again at the next sign-in", async () => {
    const browser = browserCookies();
    let answer: () => Promise<string | null> = async () => {
      throw new Error("offline");
    };
    const { store, asked } = storeOn(browser, HTTPS, () => answer());
    store.set(ONE);
    await settle();
    expect(where(browser)).toEqual([`${n.plain}@app.example.com`, `${n.hostDefault}@app.example.com`, "stack-access@app.example.com"]);
    answer = exampleCom;
    store.set(TWO);
    await settle();
    expect(asked).toEqual(["app.example.com", "app.example.com"]);
    expect(where(browser)).toEqual(["stack-access@app.example.com", `${custom}@example.com (domain)`]);
  });

  it("takes no domain the page is not on", async () => {
    const browser = browserCookies();
    storeOn(browser, HTTPS, async () => "example.org").store.set(ONE);
    await settle();
    expect(browser.refused).toEqual([]);
    expect(where(browser)).toEqual([`${n.plain}@app.example.com`, `${n.hostDefault}@app.example.com`, "stack-access@app.example.com"]);
  });
});
