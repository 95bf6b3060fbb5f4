// The store under every framework adapter: the request's tokens in memory,
// each change written as the browser cookie store writes it (wire contract §7).
import { parse } from "cookie";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { fetchRequestTokenStore, tokenCookieChanges } from "../../runtime/sessions/adapters/index.js";
import { NO_TOKENS } from "../../runtime/sessions/tokens/index.js";
import { tokenCookieLine, tokenCookieWrites } from "../../runtime/sessions/tokens/cookie-format.js";
import { PROJECT_ID, REFRESH_COOKIE, setCookies, tokenCookieHeader } from "./helpers.js";

const OLD = { refreshToken: "rt-old", accessToken: "at-old" };
const NEW = { refreshToken: "rt-old", accessToken: "at-new" };

function request(headers: Record<string, string>, url = "http://app.test/me") {
  return new Request(url, { headers });
}

describe("tokenCookieChanges", () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(Date.UTC(2026, 0, 15));
  });
  afterEach(() => vi.useRealTimers());

  const cases = {
    "a first sign-in": [{}, OLD],
    "a refresh": [parse(tokenCookieHeader(OLD)), NEW],
    "a sign-out": [parse(tokenCookieHeader(OLD)), NO_TOKENS],
    "a sign-in over a legacy cookie": [{ "stack-refresh": "rt-legacy" }, OLD],
    "nothing new": [parse(tokenCookieHeader(OLD)), OLD],
    "a sign-out of a current official SDK's cookies": [
      {
        [`__Host-${REFRESH_COOKIE}--default`]: JSON.stringify({ refresh_token: "rt-old", updated_at_millis: 1 }),
        [`${REFRESH_COOKIE}--custom-CNW62VBGDHJJWRVFDM`]: JSON.stringify({ refresh_token: "rt-old", updated_at_millis: 1 }),
      },
      NO_TOKENS,
    ],
  } as const;

  it.each(Object.entries(cases))(
    "%s: the same Set-Cookie lines as the browser store, name, value and options apart",
    (_, [jar, tokens]) => {
      for (const secure of [false, true]) {
        const changes = tokenCookieChanges(jar, tokens, PROJECT_ID, secure);
        const lines = tokenCookieWrites(jar, tokens, PROJECT_ID, secure).map((write) => tokenCookieLine(write, secure));
        expect(changes.map((c) => c.header)).toEqual(lines);
        for (const change of changes) expect(change.header.startsWith(`${change.name}=`)).toBe(true);
      }
    },
  );

  it("gives deletions an empty value, Max-Age 0 and a past expiry", () => {
    const [refresh, access] = tokenCookieChanges(parse(tokenCookieHeader(OLD)), NO_TOKENS, PROJECT_ID, false);
    expect(refresh).toMatchObject({ name: REFRESH_COOKIE, value: "", options: { maxAge: 0, expires: new Date(0), path: "/" } });
    expect(access).toMatchObject({ name: "stack-access", value: "", options: { maxAge: 0 } });
  });

  it("deletes the official SDK's custom-domain cookie on its domain and its __Host- cookie with Secure, even over http", () => {
    const custom = `${REFRESH_COOKIE}--custom-CNW62VBGDHJJWRVFDM`; // Crockford base32 of "example.com"
    const json = JSON.stringify({ refresh_token: "rt-old", updated_at_millis: 1 });
    const changes = tokenCookieChanges({ [custom]: json, [`__Host-${REFRESH_COOKIE}--default`]: json }, NO_TOKENS, PROJECT_ID, false);
    expect(changes.map((c) => [c.name, c.options.domain, c.options.secure, c.options.maxAge])).toEqual([
      [custom, "example.com", false, 0],
      [`__Host-${REFRESH_COOKIE}--default`, undefined, true, 0],
    ]);
    expect(changes[0]!.header).toBe(
      `${custom}=; Max-Age=0; Domain=example.com; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; SameSite=Lax`,
    );
  });
});

describe("a request's store", () => {
  it("holds the token cookies' tokens and writes nothing until set", () => {
    const store = fetchRequestTokenStore(request({ cookie: tokenCookieHeader(OLD) }), { projectId: PROJECT_ID });
    expect(store.get()).toEqual(OLD);
    expect(store.setCookieHeaders()).toEqual([]);
  });

  it("answers a refresh with the access cookie only, and each cookie once however often it is written", () => {
    const store = fetchRequestTokenStore(request({ cookie: tokenCookieHeader(OLD) }), { projectId: PROJECT_ID });
    store.set(NEW);
    store.set({ ...NEW, accessToken: "at-newer" });
    const lines = store.setCookieHeaders();
    expect(lines).toHaveLength(1);
    expect(JSON.parse(setCookies(lines)["stack-access"]!.value)).toEqual(["rt-old", "at-newer"]);
    expect(store.cookieChanges().map((c) => c.name)).toEqual(["stack-access"]);
  });

  it("writes nothing when the pair set is the one the cookies hold", () => {
    const store = fetchRequestTokenStore(request({ cookie: tokenCookieHeader(OLD) }), { projectId: PROJECT_ID });
    store.set(OLD);
    expect(store.setCookieHeaders()).toEqual([]);
  });

  it("deletes both cookies at sign-out", () => {
    const store = fetchRequestTokenStore(request({ cookie: tokenCookieHeader(OLD) }), { projectId: PROJECT_ID });
    store.set(NO_TOKENS);
    const cookies = setCookies(store.setCookieHeaders());
    expect(Object.keys(cookies).sort()).toEqual(["stack-access", REFRESH_COOKIE].sort());
    expect(cookies[REFRESH_COOKIE]?.attributes["max-age"]).toBe("0");
  });

  it("never writes cookies for tokens that came in x-stack-auth: they are another store's", () => {
    const store = fetchRequestTokenStore(request({ "x-stack-auth": JSON.stringify(OLD), cookie: tokenCookieHeader(NEW) }), {
      projectId: PROJECT_ID,
    });
    expect(store.get()).toEqual(OLD);
    store.set({ ...OLD, accessToken: "at-refreshed" });
    expect(store.get().accessToken).toBe("at-refreshed");
    expect(store.setCookieHeaders()).toEqual([]);
  });

  it("tells subscribers of a change", () => {
    const store = fetchRequestTokenStore(request({ cookie: tokenCookieHeader(OLD) }), { projectId: PROJECT_ID });
    const heard: unknown[] = [];
    store.subscribe((tokens) => heard.push(tokens));
    store.set(NEW);
    expect(heard).toEqual([NEW]);
  });

  it("refuses a token that cannot be one, and writes nothing for it", () => {
    const store = fetchRequestTokenStore(request({}), { projectId: PROJECT_ID });
    expect(() => store.set({ refreshToken: "undefined", accessToken: null })).toThrow(/"undefined"/);
    expect(store.setCookieHeaders()).toEqual([]);
  });

  it("reads unusable cookies as no user", () => {
    const store = fetchRequestTokenStore(request({ cookie: `${REFRESH_COOKIE}=undefined; stack-access=%5B1%5D` }), {
      projectId: PROJECT_ID,
    });
    expect(store.get()).toEqual(NO_TOKENS);
  });

  it.each([
    ["an http URL", "http://app.test/", {}, false],
    ["an https URL", "https://app.test/", {}, true],
    ["x-forwarded-proto https behind a proxy", "http://app.test/", { "x-forwarded-proto": "https, http" }, true],
  ])("marks cookies Secure by the request: %s", (_, url, headers, secure) => {
    const store = fetchRequestTokenStore(request(headers, url), { projectId: PROJECT_ID });
    store.set(OLD);
    for (const cookie of Object.values(setCookies(store.setCookieHeaders()))) {
      expect("secure" in cookie.attributes).toBe(secure);
      expect(cookie.attributes).toMatchObject({ path: "/", samesite: "Lax" });
    }
  });

  it("marks cookies Secure as told, whatever the request", () => {
    const store = fetchRequestTokenStore(request({}, "https://app.test/"), { projectId: PROJECT_ID, secure: false });
    store.set(OLD);
    expect(store.setCookieHeaders().some((line) => /Secure/.test(line))).toBe(false);
  });
});
