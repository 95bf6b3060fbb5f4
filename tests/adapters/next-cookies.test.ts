// nextCookiesTokenStore with Next's own cookie stores, from Next 16 (`next`)
// and Next 15 (`next15`): what `cookies()` gives a server component (read-only,
// `RequestCookiesAdapter.seal`) and a route handler or server action (writable,
// `MutableRequestCookiesAdapter.wrap`), each as a promise (Next 15 and 16),
// as the synchronous object (Next 14, Next 15's compatibility form) and as the
// function. The built example (next-app.test.ts) runs the real `cookies()`.
import { createRequire } from "node:module";
import { describe, expect, expectTypeOf, it } from "vitest";
import type { cookies as next16Cookies } from "next/headers.js";
import type { cookies as next15Cookies } from "next15/headers.js";
import type { NextResponse as Next16Response } from "next/server.js";
import { nextCookiesTokenStore, type NextCookieStore, type NextCookiesInput } from "../../runtime/sessions/adapters/index.js";
import { NO_TOKENS } from "../../runtime/sessions/tokens/index.js";
import { PROJECT_ID, REFRESH_COOKIE, setCookies, tokenCookieHeader } from "./helpers.js";

const require = createRequire(import.meta.url);

interface NextCookieModules {
  readonly RequestCookies: new (headers: Headers) => { getAll(): { name: string; value: string }[] };
  readonly RequestCookiesAdapter: { seal(cookies: object): NextCookieStore };
  readonly MutableRequestCookiesAdapter: { wrap(cookies: object, onUpdate: (lines: string[]) => void): NextCookieStore };
}

function nextModules(pkg: "next" | "next15"): NextCookieModules {
  const { RequestCookies } = require(`${pkg}/dist/compiled/@edge-runtime/cookies`);
  const adapters = require(`${pkg}/dist/server/web/spec-extension/adapters/request-cookies.js`);
  return { RequestCookies, ...adapters };
}

const OLD = { refreshToken: "rt-1", accessToken: "at-1" };
const NEW = { refreshToken: "rt-1", accessToken: "at-2" };

describe("the cookie stores of Next 15 and 16 are accepted as they are typed", () => {
  it("cookies, its promise and its store, and NextResponse.cookies", () => {
    expectTypeOf<typeof next16Cookies>().toExtend<NextCookiesInput>();
    expectTypeOf<typeof next15Cookies>().toExtend<NextCookiesInput>();
    expectTypeOf<ReturnType<typeof next16Cookies>>().toExtend<NextCookiesInput>();
    expectTypeOf<ReturnType<typeof next15Cookies>>().toExtend<NextCookiesInput>();
    expectTypeOf<Awaited<ReturnType<typeof next16Cookies>>>().toExtend<NextCookiesInput>();
    expectTypeOf<Awaited<ReturnType<typeof next15Cookies>>>().toExtend<NextCookiesInput>();
    expectTypeOf<Next16Response["cookies"]>().toExtend<NextCookiesInput>();
  });
});

describe.each([
  ["Next 16", "next"],
  ["Next 15", "next15"],
] as const)("%s", (_, pkg) => {
  const next = nextModules(pkg);
  const requestCookies = (cookie: string) => new next.RequestCookies(new Headers({ cookie }));
  const serverComponentCookies = (cookie: string) => next.RequestCookiesAdapter.seal(requestCookies(cookie));
  const routeHandlerCookies = (cookie: string) => {
    const written: string[][] = [];
    const store = next.MutableRequestCookiesAdapter.wrap(requestCookies(cookie), (lines) => written.push(lines));
    return { store, written };
  };

  it.each([
    ["the promise cookies() returns", (store: NextCookieStore): NextCookiesInput => Promise.resolve(store)],
    ["the synchronous store", (store: NextCookieStore): NextCookiesInput => store],
    [
      "the cookies function, async",
      (store: NextCookieStore): NextCookiesInput =>
        () =>
          Promise.resolve(store),
    ],
    [
      "the cookies function, synchronous",
      (store: NextCookieStore): NextCookiesInput =>
        () =>
          store,
    ],
  ])("reads the token cookies from %s", async (_, form) => {
    const tokenStore = await nextCookiesTokenStore(form(serverComponentCookies(tokenCookieHeader(OLD, "theme=dark"))), {
      projectId: PROJECT_ID,
    });
    expect(tokenStore.get()).toEqual(OLD);
  });

  it("awaits a promise that also has the store's methods, as Next 15's does, without touching them", async () => {
    const store = serverComponentCookies(tokenCookieHeader(OLD));
    const touched: string[] = [];
    const unsafe = Object.assign(Promise.resolve(store), {
      getAll: () => {
        touched.push("getAll");
        return [];
      },
      set: () => touched.push("set"),
    });
    const tokenStore = await nextCookiesTokenStore(unsafe, { projectId: PROJECT_ID });
    expect(tokenStore.get()).toEqual(OLD);
    expect(touched).toEqual([]);
  });

  it("writes a refresh through the route handler's cookie store, as the browser store would", async () => {
    const { store, written } = routeHandlerCookies(tokenCookieHeader(OLD));
    const tokenStore = await nextCookiesTokenStore(Promise.resolve(store), { projectId: PROJECT_ID });
    tokenStore.set(NEW);
    const lines = written.at(-1) ?? [];
    const cookies = setCookies(lines);
    expect(Object.keys(cookies)).toEqual(["stack-access"]);
    expect(JSON.parse(cookies["stack-access"]!.value)).toEqual(["rt-1", "at-2"]);
    expect(cookies["stack-access"]?.attributes).toMatchObject({ path: "/", "max-age": "86400", samesite: "lax" });
    expect(cookies["stack-access"]?.attributes).toHaveProperty("secure");
    expect(tokenStore.setCookieHeaders()).toHaveLength(1);
  });

  it("deletes the token cookies at sign-out through the route handler's cookie store", async () => {
    const { store, written } = routeHandlerCookies(tokenCookieHeader(OLD));
    const tokenStore = await nextCookiesTokenStore(store, { projectId: PROJECT_ID, secure: false });
    tokenStore.set(NO_TOKENS);
    const cookies = setCookies(written.at(-1) ?? []);
    expect(Object.keys(cookies).sort()).toEqual(["stack-access", REFRESH_COOKIE].sort());
    for (const cookie of Object.values(cookies)) {
      expect(cookie.value).toBe("");
      expect(cookie.attributes["max-age"]).toBe("0");
      expect(cookie.attributes).not.toHaveProperty("secure");
    }
  });

  it("keeps the new tokens when a server component's store refuses the write (Next's ReadonlyRequestCookiesError)", async () => {
    const tokenStore = await nextCookiesTokenStore(Promise.resolve(serverComponentCookies(tokenCookieHeader(OLD))), {
      projectId: PROJECT_ID,
    });
    expect(() => tokenStore.set(NEW)).not.toThrow();
    expect(tokenStore.get()).toEqual(NEW);
    expect(() => tokenStore.set(NO_TOKENS)).not.toThrow();
    expect(tokenStore.get()).toEqual(NO_TOKENS);
  });

  it("lets any other failure of the cookie store through", async () => {
    const store = {
      getAll: () => [],
      set: () => {
        throw new TypeError("the store is broken");
      },
    };
    const tokenStore = await nextCookiesTokenStore(store, { projectId: PROJECT_ID });
    expect(() => tokenStore.set(OLD)).toThrow("the store is broken");
  });

  it("reads no user from absent or unusable cookies", async () => {
    for (const cookie of ["", `${REFRESH_COOKIE}=undefined`, "stack-access=%5B%22a%22%5D"]) {
      const tokenStore = await nextCookiesTokenStore(Promise.resolve(serverComponentCookies(cookie)), { projectId: PROJECT_ID });
      expect(tokenStore.get()).toEqual(NO_TOKENS);
    }
  });
});
