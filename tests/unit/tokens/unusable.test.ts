// A bad stored token never locks the user out (SPEC §5, wire contract §4, §7):
// whatever a store holds, getUser() reads an unusable token as absent without
// sending it, the store forgets it, and signOut() succeeds.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import "../../helpers/lazy-modules.js";
import { StackClientApp } from "../../../runtime/app/client-app.js";
import { StackAssertionError } from "../../../runtime/errors.js";
import { stackHeaders } from "../../../runtime/http/headers.js";
import { matchOperation } from "../../../runtime/http/operations.js";
import { createCookieTokenStore, type CookieDocument } from "../../../runtime/sessions/tokens/cookie.js";
import { NO_TOKENS, type TokenPair, type TokenStore } from "../../../runtime/sessions/tokens/store.js";
import { doc } from "../../fixtures/document.js";
import { fakeService, json, jwt, testEnvironment, useFakeClock, type Handler, type SentRequest } from "../../helpers/fake-service.js";
import { rejectionOf, settleOnFakeTime } from "../../helpers/outcome.js";

const exampleUser = doc.components.examples["ClientUser"]!.value as Record<string, unknown>;
const DELETED = "Max-Age=0; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; SameSite=Lax";
const fresh = () => jwt({ exp: Math.floor(Date.now() / 1000) + 3600 });

/** The service: the token endpoint issues a fresh access token, `/users/me` knows the user, sign-out succeeds. */
const service: Handler = (r) => {
  if (r.path === "/api/v1/auth/oauth/token") return json({ access_token: fresh() });
  if (r.path === "/api/v1/users/me") return json(exampleUser);
  return json({ success: true });
};

/** What was sent, with the token headers, so a test sees exactly which tokens went on the wire. */
const sent = (requests: readonly SentRequest[]) =>
  requests.map((r) => ({
    request: `${r.method} ${r.path}`,
    accessToken: r.headers["x-stack-access-token"] ?? null,
    refreshToken: r.headers["x-stack-refresh-token"] ?? new URLSearchParams(r.body).get("refresh_token"),
  }));

function appOn(tokenStore: TokenStore, handler: Handler = service) {
  const s = fakeService(handler);
  const { env } = testEnvironment(s.fetch);
  const navigations: string[] = [];
  const app = new StackClientApp({
    projectId: "proj-1",
    publishableClientKey: "pck-1",
    tokenStore,
    environment: env,
    browser: null,
    redirectMethod: { navigate: (url) => void navigations.push(url) },
    noAutomaticPrefetch: true,
  });
  return { app, service: s, navigations };
}

/** A browser's cookies, raw, with every `document.cookie` assignment recorded, attributes included. */
function cookieJar(initial: Record<string, string>) {
  const jar = new Map(Object.entries(initial));
  const writes: string[] = [];
  const document: CookieDocument = {
    get cookie() {
      return [...jar].map(([name, value]) => `${name}=${value}`).join("; ");
    },
    set cookie(assignment: string) {
      writes.push(assignment);
      const [first = "", ...attributes] = assignment.split("; ");
      const at = first.indexOf("=");
      if (attributes.includes("Max-Age=0")) jar.delete(first.slice(0, at));
      else jar.set(first.slice(0, at), first.slice(at + 1));
    },
  };
  const store = createCookieTokenStore({ projectId: "proj-1", document, location: { protocol: "http:" }, broadcastChannel: null });
  return { jar, writes, store };
}

/** A store as an app may write one: it holds whatever it is given and records every set(). */
function customStore(held: unknown, options: { getThrows?: boolean; setThrows?: boolean } = {}) {
  const sets: TokenPair[] = [];
  let current = held;
  const store: TokenStore = {
    get() {
      if (options.getThrows) throw new Error("storage unavailable");
      return current as TokenPair;
    },
    set(tokens) {
      sets.push(tokens);
      if (options.setThrows) throw new Error("storage is read-only");
      current = tokens;
    },
    subscribe: () => () => undefined,
  };
  return { store, sets, held: () => current };
}

beforeEach(() => useFakeClock());
afterEach(() => vi.useRealTimers());

describe("the cookie store holding a token that cannot be one", () => {
  const deleted = (name: string) => `${name}=; ${DELETED}`;

  it.each([
    ["stack-refresh-proj-1=undefined", { "stack-refresh-proj-1": "undefined" }, ["stack-refresh-proj-1"]],
    ["stack-refresh-proj-1=null", { "stack-refresh-proj-1": "null" }, ["stack-refresh-proj-1"]],
    ["stack-refresh-proj-1 empty", { "stack-refresh-proj-1": "" }, ["stack-refresh-proj-1"]],
    ["the legacy stack-refresh=undefined", { "stack-refresh": "undefined" }, ["stack-refresh"]],
    ["a refresh token with a character above U+00FF", { "stack-refresh-proj-1": "rt-%E2%82%AC" }, ["stack-refresh-proj-1"]],
    ["a refresh token with a newline", { "stack-refresh-proj-1": "rt%0A1" }, ["stack-refresh-proj-1"]],
    ["a refresh token with a space", { "stack-refresh-proj-1": "rt%201" }, ["stack-refresh-proj-1"]],
    ["stack-access=undefined", { "stack-access": "undefined" }, ["stack-access"]],
    ["stack-access=[1,2]", { "stack-access": "[1,2]" }, ["stack-access"]],
    ["stack-access=not json", { "stack-access": "not json" }, ["stack-access"]],
    [
      "both, as an unset environment variable writes them",
      { "stack-refresh-proj-1": "undefined", "stack-access": '["undefined","undefined"]' },
      ["stack-refresh-proj-1", "stack-access"],
    ],
    [
      "an access token with a character above U+00FF",
      { "stack-refresh-proj-1": "undefined", "stack-access": "%5B%22undefined%22%2C%22at-%E2%82%AC%22%5D" },
      ["stack-refresh-proj-1", "stack-access"],
    ],
  ])("%s: getUser() is null without a request, the cookies are deleted, signOut() resolves", async (_name, cookies, deletedNames) => {
    const { jar, writes, store } = cookieJar(cookies);
    const { app, service: s, navigations } = appOn(store);

    expect(await app.getUser()).toBeNull();
    expect(sent(s.requests)).toEqual([]);
    expect(writes).toEqual(deletedNames.map(deleted));
    expect([...jar]).toEqual([]);

    await settleOnFakeTime(app.signOut());
    expect(sent(s.requests)).toEqual([]);
    expect(writes).toEqual(deletedNames.map(deleted));
    expect(navigations).toEqual(["/"]);
  });

  it.each([
    ["stack-access=undefined", "undefined"],
    ["stack-access=[1,2]", "[1,2]"],
    ["stack-access=not json", "not json"],
    ["an access token with a newline", "%5B%22rt-1%22%2C%22at%0A1%22%5D"],
    ["an access token with a character above U+00FF", "%5B%22rt-1%22%2C%22at-%E2%82%AC%22%5D"],
  ])("%s beside a good refresh token: the refresh token gets a new access token, the bad one is never sent", async (_name, access) => {
    const { jar, writes, store } = cookieJar({ "stack-refresh-proj-1": "rt-1", "stack-access": access });
    const { app, service: s } = appOn(store);

    expect((await app.getUser())?.id).toBe(exampleUser["id"]);
    const accessToken = s.requests[1]!.headers["x-stack-access-token"]!;
    expect(sent(s.requests)).toEqual([
      { request: "POST /api/v1/auth/oauth/token", accessToken: null, refreshToken: "rt-1" },
      { request: "GET /api/v1/users/me", accessToken, refreshToken: null },
    ]);
    expect(writes).toEqual([
      `stack-access=; ${DELETED}`,
      `stack-access=${encodeURIComponent(JSON.stringify(["rt-1", accessToken]))}; Max-Age=86400; Path=/; SameSite=Lax`,
    ]);

    await settleOnFakeTime(app.signOut());
    expect(sent(s.requests).slice(2)).toEqual([{ request: "DELETE /api/v1/auth/sessions/current", accessToken, refreshToken: null }]);
    expect([...jar]).toEqual([]);
  });

  it("deletes a cookie once, not on every read, when the deletion cannot reach it (another Path or Domain)", () => {
    const writes: string[] = [];
    const stuck: CookieDocument = {
      get cookie() {
        return "stack-refresh-proj-1=undefined";
      },
      set cookie(assignment: string) {
        writes.push(assignment);
      },
    };
    const store = createCookieTokenStore({ projectId: "proj-1", document: stuck, location: { protocol: "http:" }, broadcastChannel: null });
    for (let i = 0; i < 3; i++) expect(store.get()).toEqual(NO_TOKENS);
    expect(writes).toEqual([`stack-refresh-proj-1=; ${DELETED}`]);
  });
});

describe("a custom store holding a token that cannot be one", () => {
  it.each([
    ["the string undefined", { refreshToken: "undefined", accessToken: "undefined" }],
    ["the string null", { refreshToken: "null", accessToken: null }],
    ["a refresh token with a newline", { refreshToken: "rt\n1", accessToken: fresh() }],
    ["an access token alone with a character above U+00FF", { refreshToken: null, accessToken: "at-\u20ac" }],
    ["a value that is not a pair at all", undefined],
    ["tokens that are not strings", { refreshToken: 42, accessToken: ["at"] }],
  ])("%s: getUser() is null without a request, the store is cleared, signOut() resolves", async (_name, held) => {
    const custom = customStore(held);
    const { app, service: s, navigations } = appOn(custom.store);

    expect(await app.getUser()).toBeNull();
    expect(sent(s.requests)).toEqual([]);
    expect(custom.sets).toEqual([NO_TOKENS]);
    expect(custom.held()).toEqual(NO_TOKENS);

    await settleOnFakeTime(app.signOut());
    expect(sent(s.requests)).toEqual([]);
    expect(custom.held()).toEqual(NO_TOKENS);
    expect(navigations).toEqual(["/"]);
  });

  it("an unusable access token beside a good refresh token: the store keeps the refresh token and gets a new access token", async () => {
    const custom = customStore({ refreshToken: "rt-1", accessToken: "undefined" });
    const { app, service: s } = appOn(custom.store);

    expect((await app.getUser())?.id).toBe(exampleUser["id"]);
    const accessToken = s.requests[1]!.headers["x-stack-access-token"]!;
    expect(sent(s.requests)).toEqual([
      { request: "POST /api/v1/auth/oauth/token", accessToken: null, refreshToken: "rt-1" },
      { request: "GET /api/v1/users/me", accessToken, refreshToken: null },
    ]);
    expect(custom.sets).toEqual([
      { refreshToken: "rt-1", accessToken: null },
      { refreshToken: "rt-1", accessToken },
    ]);
  });

  it("a store that refuses the write: getUser() is still null without a request, and the write is not retried on every read", async () => {
    const custom = customStore({ refreshToken: "undefined", accessToken: null }, { setThrows: true });
    const { app, service: s } = appOn(custom.store);
    expect(await app.getUser()).toBeNull();
    expect(await app.getUser()).toBeNull();
    expect(sent(s.requests)).toEqual([]);
    expect(custom.sets).toEqual([NO_TOKENS]);
    // Signing out must write; the store's own failure is the caller's to know, after the session ended here.
    expect(await rejectionOf(settleOnFakeTime(app.signOut()))).toMatchObject({ message: "storage is read-only" });
    expect(await app.getUser()).toBeNull();
  });

  it("a store whose get() throws: signOut() still clears it and resolves, without a request", async () => {
    const custom = customStore(NO_TOKENS, { getThrows: true });
    const { app, service: s, navigations } = appOn(custom.store);
    await settleOnFakeTime(app.signOut());
    expect(sent(s.requests)).toEqual([]);
    expect(custom.sets).toEqual([NO_TOKENS]);
    expect(navigations).toEqual(["/"]);
  });
});

describe("a request of the app's own backend carrying a token that cannot be one", () => {
  const request = (headers: Record<string, string>) => ({ headers: new Headers(headers) });

  it.each([
    ["x-stack-auth that is not JSON", { "x-stack-auth": "{not json" }],
    ["x-stack-auth that is not an object", { "x-stack-auth": '["rt","at"]' }],
    ["x-stack-auth with the string undefined", { "x-stack-auth": '{"accessToken":"undefined","refreshToken":"undefined"}' }],
    ["x-stack-auth with a newline", { "x-stack-auth": '{"accessToken":"at\\n1"}' }],
    ["x-stack-auth with a character above U+00FF", { "x-stack-auth": '{"accessToken":"at-\\u20ac"}' }],
    ["stack-refresh-proj-1=undefined", { cookie: "stack-refresh-proj-1=undefined" }],
    ["stack-access=not json", { cookie: "stack-access=not json" }],
    ["stack-access=[1,2]", { cookie: "stack-access=[1,2]" }],
  ])("%s is no user: getUser({ tokenStore }) is null without a request", async (_name, headers) => {
    const { app, service: s } = appOn(customStore(NO_TOKENS).store);
    expect(await app.getUser({ tokenStore: request(headers) })).toBeNull();
    expect(sent(s.requests)).toEqual([]);
  });

  it("an app made with such a request as its token store is signed out, and signOut() resolves", async () => {
    const s = fakeService(service);
    const { env } = testEnvironment(s.fetch);
    const app = new StackClientApp({
      projectId: "proj-1",
      publishableClientKey: "pck-1",
      tokenStore: request({ "x-stack-auth": '{"accessToken":"undefined","refreshToken":"undefined"}' }),
      environment: env,
      browser: null,
      redirectMethod: "none",
    });
    expect(await app.getUser()).toBeNull();
    await settleOnFakeTime(app.signOut());
    expect(sent(s.requests)).toEqual([]);
  });
});

describe("the last guard before the wire", () => {
  it("sends no token header with a value that is not a token, and names the header, not the value", () => {
    const op = matchOperation("GET", "/users/me");
    const identity = { projectId: "proj-1", accessType: "client" as const, clientVersion: "test", nonce: "n" };
    for (const accessToken of ["undefined", "at\n1", "at-\u20ac"]) {
      const error = (() => {
        try {
          stackHeaders(op, { ...identity, accessToken });
        } catch (caught) {
          return caught as Error;
        }
        throw new Error("expected a throw");
      })();
      expect(error).toBeInstanceOf(StackAssertionError);
      expect(error.message).toBe("The x-stack-access-token header was given a value that is not a usable token; it was not sent");
    }
    expect(stackHeaders(op, { ...identity, accessToken: "at-1" }).get("x-stack-access-token")).toBe("at-1");
  });
});
