// The token cookies the official SDKs write, read by stackkit: the exact bytes
// 2.8.11, 2.8.77, 2.8.102 and 2.8.108 put in `document.cookie`, read by the
// browser cookie store and by a request store from the Cookie header; and which
// cookie wins when several versions have written. The other direction is in
// official-cookies-write.test.ts.
import { describe, expect, it } from "vitest";
import { parse as parseCookie } from "cookie";
import { createCookieTokenStore } from "../../../runtime/sessions/tokens/cookie.js";
import { createRequestTokenStore } from "../../../runtime/sessions/tokens/request.js";
import { NO_TOKENS } from "../../../runtime/sessions/tokens/store.js";
import {
  browserCookies,
  crockfordBase32,
  names,
  officialPage,
  readAs28108,
  READERS,
  refreshJson,
  writesOf2811,
  writesOfJson,
} from "../../helpers/official-cookies.js";
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

/** The tokens and clock of the official packages' worked examples. */
const RT = "rt_123";
const AT = "at.jwt.sig";
const AT_1700 = 1_700_000_000_000;
const JSON_1700 = "{%22refresh_token%22:%22rt_123%22%2C%22updated_at_millis%22:1700000000000}";
const PAIR_1700 = "[%22rt_123%22%2C%22at.jwt.sig%22]";

const requestStore = (cookie: string, id = projectId) => createRequestTokenStore({ headers: new Headers({ cookie }) }, id);

useFrozenClock();

describe("the official SDKs' cookies, byte for byte", () => {
  it("names a custom-domain cookie by the Crockford base32 of the lower-cased domain", () => {
    expect(crockfordBase32("example.com")).toBe("CNW62VBGDHJJWRVFDM");
    expect(crockfordBase32("app.example.com")).toBe("C5R70BK5F1GPTW3CCMQ66VVD");
    expect(names("PID", "hexclave").custom("Example.COM")).toBe("hexclave-refresh-PID--custom-CNW62VBGDHJJWRVFDM");
  });

  it.each([
    ["2.8.77", "stack-refresh", "stack-access"],
    ["2.8.102", "stack-refresh", "stack-access"],
    ["2.8.108", "hexclave-refresh", "hexclave-access"],
  ] as const)("a %s sign-in over https writes these lines", (version, refresh, access) => {
    const lines = writesOfJson(version, {}, { refreshToken: RT, accessToken: AT }, "PID", { secure: true, now: AT_1700 });
    expect(lines).toEqual([
      `__Host-${refresh}-PID--default=${JSON_1700}; path=/; expires=Wed, 13 Nov 2024 22:13:20 GMT; secure; sameSite=Lax`,
      `${access}=${PAIR_1700}; path=/; expires=Wed, 15 Nov 2023 22:13:20 GMT; secure; sameSite=Lax`,
    ]);
  });

  it("a 2.8.108 sign-in with a trusted parent domain moves the refresh token to the custom-domain cookie", () => {
    const lines = writesOfJson("2.8.108", {}, { refreshToken: RT, accessToken: AT }, "PID", {
      secure: true,
      parentDomain: "example.com",
      now: AT_1700,
    });
    expect(lines.slice(2)).toEqual([
      `hexclave-refresh-PID--custom-CNW62VBGDHJJWRVFDM=${JSON_1700}; path=/; expires=Wed, 13 Nov 2024 22:13:20 GMT; domain=example.com; secure; sameSite=Lax`,
      "__Host-hexclave-refresh-PID--default=; path=/; secure; expires=Mon, 13 Nov 2023 22:13:20 GMT",
    ]);
  });

  it("2.8.11 writes the plain token, expiry only", () => {
    expect(writesOf2811({ refreshToken: RT, accessToken: AT }, "PID", AT_1700).slice(0, 2)).toEqual([
      "stack-refresh-PID=rt_123; path=/; expires=Wed, 13 Nov 2024 22:13:20 GMT",
      `stack-access=${PAIR_1700}; path=/; expires=Wed, 15 Nov 2023 22:13:20 GMT`,
    ]);
  });
});

describe("stackkit reads what each official version wrote", () => {
  const SESSION = { refreshToken: RT, accessToken: AT };
  it.each([
    ["2.8.11", `stack-refresh-PID=rt_123; stack-access=${PAIR_1700}`],
    ["2.8.77 and 2.8.102 over http", `stack-refresh-PID--default=${JSON_1700}; stack-access=${PAIR_1700}`],
    ["2.8.77 and 2.8.102 over https", `__Host-stack-refresh-PID--default=${JSON_1700}; stack-access=${PAIR_1700}`],
    ["2.8.108 over http", `hexclave-refresh-PID--default=${JSON_1700}; hexclave-access=${PAIR_1700}`],
    ["2.8.108 over https", `__Host-hexclave-refresh-PID--default=${JSON_1700}; hexclave-access=${PAIR_1700}`],
    ["2.8.108 on a custom domain", `hexclave-refresh-PID--custom-CNW62VBGDHJJWRVFDM=${JSON_1700}; hexclave-access=${PAIR_1700}`],
    [
      "2.8.108 after its clean-up, beside the stack-access it leaves",
      `stack-access=[%22rt_old%22%2C%22at.old%22]; __Host-hexclave-refresh-PID--default=${JSON_1700}; hexclave-access=${PAIR_1700}`,
    ],
  ])("%s: the Cookie header and document.cookie both give the session", (_, cookie) => {
    expect(requestStore(cookie, "PID").get()).toEqual(SESSION);
    const document = { cookie };
    expect(createCookieTokenStore({ projectId: "PID", document, location: { protocol: "https:" }, broadcastChannel: null }).get()).toEqual(
      SESSION,
    );
    expect(document.cookie).toBe(cookie);
  });

  it.each(VERSIONS.flatMap((version) => [HTTP, HTTPS].map((href) => [version, href] as const)))(
    "%s at %s: the browser store and a request store find the session the SDK's own writes left",
    (version, href) => {
      const browser = browserCookies();
      officialPage(browser, href, version, ONE, projectId);
      expect(browser.refused).toEqual([]);
      expect(stackkitStore(browser, href).get()).toEqual(ONE);
      expect(requestStore(browser.header(href)).get()).toEqual(ONE);
    },
  );

  it.each(["2.8.102", "2.8.108"] as const)("a session %s moved to its custom-domain cookie is read on every subdomain", (version) => {
    const browser = browserCookies();
    officialPage(browser, SIBLING, version, ONE, projectId, "example.com");
    const custom = names(projectId, version === "2.8.108" ? "hexclave" : "stack").custom("example.com");
    expect(browser.stored.map((c) => [c.name, c.domain, c.hostOnly])).toEqual([
      [version === "2.8.108" ? "hexclave-access" : "stack-access", "admin.example.com", true],
      [custom, "example.com", false],
    ]);
    // The access pair is host-only on the sibling, so this host gets a refresh token alone.
    expect(stackkitStore(browser, HTTPS).get()).toEqual({ refreshToken: "rt-1", accessToken: null });
    expect(requestStore(browser.header(HTTPS)).get()).toEqual({ refreshToken: "rt-1", accessToken: null });
  });
});

describe("which refresh cookie wins, as 2.8.108 decides", () => {
  const json = (token: string, at?: number) =>
    encodeURIComponent(JSON.stringify(at === undefined ? { refresh_token: token } : { refresh_token: token, updated_at_millis: at }));
  it.each([
    ["a hexclave JSON cookie, however old, before the plain one", `${n.plain}=rt-plain; ${hx.default}=${json("rt-hx", 1)}`, "rt-hx"],
    [
      "a hexclave JSON cookie before a newer legacy JSON one",
      `${n.hostDefault}=${json("rt-new", 9)}; ${hx.hostDefault}=${json("rt-hx", 1)}`,
      "rt-hx",
    ],
    [
      "of the hexclave ones, the greatest updated_at_millis",
      `${hx.default}=${json("rt-old", 1)}; ${hx.custom("example.com")}=${json("rt-new", 2)}`,
      "rt-new",
    ],
    [
      "the plain per-project cookie before any legacy JSON one, however new",
      `${n.hostDefault}=${json("rt-new", NOW)}; ${n.plain}=rt-plain`,
      "rt-plain",
    ],
    ["the plain stack-refresh before any legacy JSON one", `${n.default}=${json("rt-new", NOW)}; stack-refresh=rt-legacy`, "rt-legacy"],
    [
      "of the legacy JSON ones, the greatest updated_at_millis",
      `${n.default}=${json("rt-old", 1)}; ${n.hostDefault}=${json("rt-new", 2)}`,
      "rt-new",
    ],
    [
      "one with updated_at_millis before one without",
      `${n.default}=${json("rt-none")}; ${n.hostDefault}=${json("rt-dated", 0)}`,
      "rt-dated",
    ],
    ["on a tie, the first in the header", `${hx.hostDefault}=${json("rt-first", 5)}; ${hx.default}=${json("rt-second", 5)}`, "rt-first"],
    ["not a hexclave cookie without refresh_token", `${hx.hostDefault}=${json("", 9)}; ${n.plain}=rt-ok`, "rt-ok"],
    ["not a hexclave cookie that is no JSON", `${hx.hostDefault}=rt-plain-text; ${n.plain}=rt-ok`, "rt-ok"],
    ["not another project's hexclave cookie", `hexclave-refresh-proj-10--default=${json("rt-other", 9)}; ${n.plain}=rt-ok`, "rt-ok"],
  ])("%s", (_, cookie, refreshToken) => {
    expect(requestStore(cookie).get().refreshToken).toBe(refreshToken);
    expect(readAs28108(parseCookie(cookie), projectId).refreshToken).toBe(refreshToken);
  });

  it("the access pair: hexclave-access first, stack-access when that one names another refresh token", () => {
    const pair = (rt: string, at: string) => encodeURIComponent(JSON.stringify([rt, at]));
    const both = `${n.plain}=rt-1; hexclave-access=${pair("rt-1", "at-hx")}; stack-access=${pair("rt-1", "at-stack")}`;
    expect(requestStore(both).get()).toEqual({ refreshToken: "rt-1", accessToken: "at-hx" });
    const stale = `${n.plain}=rt-1; hexclave-access=${pair("rt-0", "at-hx")}; stack-access=${pair("rt-1", "at-stack")}`;
    expect(requestStore(stale).get()).toEqual({ refreshToken: "rt-1", accessToken: "at-stack" });
    // 2.8.108 itself reads no access token there, and refreshes.
    expect(readAs28108(parseCookie(stale), projectId)).toEqual({ refreshToken: "rt-1", accessToken: null });
  });
});

describe("a stackkit tab following official tabs", () => {
  it("follows each version that signs in after another, up to 2.8.108", () => {
    const browser = browserCookies();
    const store = stackkitStore(browser, HTTPS);
    store.set(ONE);
    officialPage(browser, HTTPS, "2.8.102", TWO, projectId);
    expect(store.get()).toEqual(TWO);
    officialPage(browser, HTTPS, "2.8.11", ONE, projectId);
    expect(store.get()).toEqual(ONE);
    officialPage(browser, HTTPS, "2.8.77", NO_TOKENS, projectId);
    expect(store.get()).toEqual(NO_TOKENS);
    officialPage(browser, HTTPS, "2.8.108", TWO, projectId);
    expect(store.get()).toEqual(TWO);
  });

  it("once 2.8.108 has written, reads as 2.8.108 does: an older SDK's later sign-in is seen by neither", () => {
    const browser = browserCookies();
    officialPage(browser, HTTPS, "2.8.108", ONE, projectId);
    officialPage(browser, HTTPS, "2.8.11", TWO, projectId);
    const cookies = browser.decoded(HTTPS);
    expect(cookies[hx.hostDefault]).toBe(refreshJson("rt-1", NOW));
    expect(stackkitStore(browser, HTTPS).get()).toEqual({ refreshToken: "rt-1", accessToken: "at-1" });
    expect(readAs28108(cookies, projectId)).toEqual({ refreshToken: "rt-1", accessToken: "at-1" });
    expect(READERS["2.8.11"](cookies, projectId)).toEqual(TWO);
  });
});
