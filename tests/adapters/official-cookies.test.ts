// The server adapters and the official SDK's token cookies, both ways: a
// request whose Cookie header a browser running the 2.8.11, 2.8.102 or 2.8.108
// official SDK sends is read by every adapter; the Set-Cookie lines an adapter
// answers, once a browser applies them, are read by each official version's
// reading rule (tests/helpers/official-cookies.ts), and a sign-out leaves none
// of the project's refresh cookies behind.
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { DEMO_KEYS } from "../../emulator/index.js";
import {
  fetchRequestTokenStore,
  getSessionFromRequest,
  nextCookiesTokenStore,
  nodeRequestTokenStore,
  type NextCookieStore,
  type ResponseTokenStore,
} from "../../runtime/sessions/adapters/index.js";
import { parse as parseCookie } from "cookie";
import { NO_TOKENS, type TokenPair } from "../../runtime/sessions/tokens/index.js";
import { useEmulator } from "../helpers/emulator.js";
import { browserCookies, names, readAs2811, readAs2877, readAs28108, officialPage, READERS } from "../helpers/official-cookies.js";
import { PAST_EXPIRY_MS, PROJECT_ID, refreshCount, setCookies, signedIn } from "./helpers.js";

const require = createRequire(import.meta.url);
const n = names(PROJECT_ID);
const hx = names(PROJECT_ID, "hexclave");
const HTTPS = "https://app.example.com/dashboard";
const SIBLING = "https://admin.example.com/";
const ONE: TokenPair = { refreshToken: "rt-1", accessToken: "at-1" };
const TWO: TokenPair = { refreshToken: "rt-2", accessToken: "at-2" };

type Browser = ReturnType<typeof browserCookies>;
type Version = "2.8.11" | "2.8.102" | "2.8.108";

/** A browser in which an official SDK page at `href` holds `tokens`. */
function browserOf(version: Version, tokens: TokenPair, href = HTTPS, parentDomain?: string): Browser {
  const browser = browserCookies();
  officialPage(browser, href, version, tokens, PROJECT_ID, parentDomain);
  return browser;
}

/** The Next 16 cookie store of a route handler over `cookie`, and the Set-Cookie lines it answers with. */
function nextRouteHandlerCookies(cookie: string) {
  const { RequestCookies } = require("next/dist/compiled/@edge-runtime/cookies");
  const { MutableRequestCookiesAdapter } = require("next/dist/server/web/spec-extension/adapters/request-cookies.js");
  const written: string[][] = [];
  const store: NextCookieStore = MutableRequestCookiesAdapter.wrap(new RequestCookies(new Headers({ cookie })), (lines: string[]) =>
    written.push(lines),
  );
  return { store, lines: () => written.at(-1) ?? [] };
}

/** Each adapter's store over the request a browser sends to `href`, and the Set-Cookie lines it ends up answering. */
const adapters: Record<string, (browser: Browser, href: string) => Promise<{ store: ResponseTokenStore; lines: () => string[] }>> = {
  fetchRequestTokenStore: async (browser, href) => {
    const store = fetchRequestTokenStore(new Request(href, { headers: { cookie: browser.header(href) } }), { projectId: PROJECT_ID });
    return { store, lines: () => store.setCookieHeaders() };
  },
  nodeRequestTokenStore: async (browser, href) => {
    let header: readonly string[] = [];
    const response = {
      headersSent: false,
      getHeader: () => header,
      setHeader: (_: string, value: string | readonly string[]) => void (header = [value].flat()),
    };
    const request = { headers: { cookie: browser.header(href) }, socket: { encrypted: href.startsWith("https:") } };
    const store = nodeRequestTokenStore(request, response, { projectId: PROJECT_ID });
    return { store, lines: () => [...header] };
  },
  nextCookiesTokenStore: async (browser, href) => {
    const next = nextRouteHandlerCookies(browser.header(href));
    const store = await nextCookiesTokenStore(Promise.resolve(next.store), { projectId: PROJECT_ID });
    return { store, lines: next.lines };
  },
};

describe.each(Object.keys(adapters))("%s", (adapter) => {
  const open = adapters[adapter]!;

  it.each([
    ["2.8.11", undefined],
    ["2.8.102", undefined],
    ["2.8.102", "example.com"],
    ["2.8.108", undefined],
    ["2.8.108", "example.com"],
  ] as const)("reads the session a %s official SDK wrote (custom domain: %s)", async (version, parentDomain) => {
    const browser = browserOf(version, ONE, parentDomain === undefined ? HTTPS : SIBLING, parentDomain);
    const { store } = await open(browser, HTTPS);
    // A custom-domain cookie travels without the host-only stack-access of the sibling page.
    expect(store.get()).toEqual(parentDomain === undefined ? ONE : { refreshToken: "rt-1", accessToken: null });
  });

  it("signs in so that every official version reads the session from what the browser keeps", async () => {
    const browser = browserCookies();
    const { store, lines } = await open(browser, HTTPS);
    store.set(ONE);
    const set = setCookies(lines());
    // The plain cookie every version reads, and the JSON one the official SDKs since 2.8.49 write.
    expect(Object.keys(set)).toEqual([n.plain, n.hostDefault, "stack-access"]);
    for (const name of [n.plain, n.hostDefault]) {
      expect(set[name]?.attributes).toMatchObject({ path: "/", "max-age": "31536000" });
      expect(set[name]?.attributes).toHaveProperty("secure");
      expect(set[name]?.attributes).not.toHaveProperty("domain");
    }
    browser.receive(HTTPS, lines());
    expect(browser.refused).toEqual([]);
    for (const read of [readAs2811, readAs2877, readAs28108]) expect(read(browser.decoded(HTTPS), PROJECT_ID)).toEqual(ONE);
  });

  it("signs in over a 2.8.108 session under its names too, so that every version reads the new one", async () => {
    const browser = browserOf("2.8.108", ONE);
    const { store, lines } = await open(browser, HTTPS);
    store.set(TWO);
    // Sorted: Next's cookie store lists the names the request carried first.
    expect(Object.keys(setCookies(lines())).sort()).toEqual([hx.hostDefault, n.hostDefault, "hexclave-access", "stack-access", n.plain]);
    browser.receive(HTTPS, lines());
    expect(browser.refused).toEqual([]);
    for (const read of [readAs2811, readAs2877, readAs28108]) expect(read(browser.decoded(HTTPS), PROJECT_ID)).toEqual(TWO);
  });

  it.each([
    ["2.8.11", undefined],
    ["2.8.102", undefined],
    ["2.8.102", "example.com"],
    ["2.8.108", undefined],
    ["2.8.108", "example.com"],
  ] as const)(
    "signs out leaving none of the refresh cookies a %s official SDK wrote (custom domain: %s)",
    async (version, parentDomain) => {
      const browser = browserOf(version, ONE, HTTPS, parentDomain);
      browser.page(HTTPS).document.cookie = "stack-refresh=rt-legacy; path=/";
      const { store, lines } = await open(browser, HTTPS);
      store.set(NO_TOKENS);
      browser.receive(HTTPS, lines());
      expect(browser.refused).toEqual([]);
      expect(browser.stored).toEqual([]);
      expect(readAs28108(browser.decoded(SIBLING), PROJECT_ID)).toEqual(NO_TOKENS);
    },
  );

  it.each(["2.8.102", "2.8.108"] as const)(
    "a new sign-in over a %s official SDK's custom-domain session replaces it for every version",
    async (version) => {
      const browser = browserOf(version, ONE, SIBLING, "example.com");
      const { store, lines } = await open(browser, HTTPS);
      store.set(TWO);
      browser.receive(HTTPS, lines());
      expect(browser.refused).toEqual([]);
      for (const read of [readAs2811, readAs2877, readAs28108]) expect(read(browser.decoded(HTTPS), PROJECT_ID)).toEqual(TWO);
      // The sibling subdomain's page follows through the custom-domain cookie.
      expect(READERS[version](browser.decoded(SIBLING), PROJECT_ID).refreshToken).toBe("rt-2");
    },
  );
});

describe("getSessionFromRequest and a current official SDK's cookies", () => {
  const emulator = useEmulator();
  const options = () => {
    const e = emulator();
    return {
      projectId: PROJECT_ID,
      publishableClientKey: DEMO_KEYS.publishableClientKey,
      baseUrl: e.apiOrigin,
      fetch: e.fetch,
      now: () => e.control.now(),
    };
  };

  it("verifies the session, and refreshes an expired one writing stack-access only", async () => {
    const { user, tokens } = await signedIn(emulator(), "ada@example.com");
    const browser = browserOf("2.8.102", tokens);
    const fresh = await getSessionFromRequest(new Request(HTTPS, { headers: { cookie: browser.header(HTTPS) } }), options());
    expect(fresh).toMatchObject({ session: { userId: user.id }, setCookie: [], error: null });

    emulator().control.advanceClock(PAST_EXPIRY_MS);
    const refreshed = await getSessionFromRequest(new Request(HTTPS, { headers: { cookie: browser.header(HTTPS) } }), options());
    expect(refreshed.session?.userId).toBe(user.id);
    expect(refreshCount(emulator())).toBe(1);
    expect(Object.keys(setCookies(refreshed.setCookie))).toEqual(["stack-access"]);
    browser.receive(HTTPS, refreshed.setCookie);
    expect(readAs2877(browser.decoded(HTTPS), PROJECT_ID).refreshToken).toBe(tokens.refreshToken);
    // The app behind gets the JSON cookie as it came and the new pair.
    expect(readAs2877(parseCookie(refreshed.requestHeaders?.get("cookie") ?? ""), PROJECT_ID)).toEqual(
      readAs2877(browser.decoded(HTTPS), PROJECT_ID),
    );
  });

  it("deletes every refresh cookie of a refresh token the service no longer knows", async () => {
    const { tokens } = await signedIn(emulator(), "ada@example.com");
    emulator().control.advanceClock(PAST_EXPIRY_MS);
    const browser = browserOf("2.8.102", { ...tokens, refreshToken: `${tokens.refreshToken}x` }, SIBLING, "example.com");
    const result = await getSessionFromRequest(new Request(HTTPS, { headers: { cookie: browser.header(HTTPS) } }), options());
    expect(result).toMatchObject({ session: null, error: null });
    browser.receive(HTTPS, result.setCookie);
    expect(browser.refused).toEqual([]);
    expect(readAs2877(browser.decoded(HTTPS), PROJECT_ID)).toEqual(NO_TOKENS);
    expect(readAs2877(browser.decoded(SIBLING), PROJECT_ID)).toEqual(NO_TOKENS);
  });
});
