import { describe, expect, it } from "vitest";
import { isStackError } from "../../../runtime/errors.js";
import { LruMap } from "../../../runtime/platform/lru.js";
import { createCookieTokenStore } from "../../../runtime/sessions/tokens/cookie.js";
import { createExplicitTokenStores } from "../../../runtime/sessions/tokens/explicit.js";
import { createMemoryTokenStore } from "../../../runtime/sessions/tokens/memory.js";
import { classifyTokenStore, noTokenStoreError, resolveTokenStore, type TokenStoreInit } from "../../../runtime/sessions/tokens/resolve.js";
import { thrownBy } from "../../helpers/outcome.js";

const options = { projectId: "proj-1" };

// The one reading of the tokenStore option: the app's own store and the per-call
// stores of getUser({ tokenStore }) both classify it here (issue 13 §2).
describe("classifyTokenStore", () => {
  it("names each kind, with its parts read", () => {
    const store = createMemoryTokenStore();
    const request = { headers: new Headers() };
    expect(classifyTokenStore(null)).toEqual({ kind: "none" });
    expect(classifyTokenStore("cookie")).toEqual({ kind: "cookie" });
    expect(classifyTokenStore("nextjs-cookie")).toEqual({ kind: "cookie" });
    expect(classifyTokenStore("memory")).toEqual({ kind: "memory" });
    expect(classifyTokenStore(store)).toEqual({ kind: "store", store });
    expect(classifyTokenStore(request)).toEqual({ kind: "request", request });
    expect(classifyTokenStore({ accessToken: "at-1" } as TokenStoreInit)).toEqual({
      kind: "tokens",
      tokens: { accessToken: "at-1", refreshToken: null },
    });
  });

  it("takes an object with a store's methods as a store, even with headers or tokens beside them", () => {
    const store = { ...createMemoryTokenStore(), headers: new Headers(), accessToken: "at-1" };
    expect(classifyTokenStore(store as unknown as TokenStoreInit)).toEqual({ kind: "store", store });
  });

  it("refuses what is none of them, naming the valid values", () => {
    expect(thrownBy(() => classifyTokenStore("session" as unknown as TokenStoreInit)).message).toContain('Unknown tokenStore "session"');
    expect(thrownBy(() => classifyTokenStore({ accessToken: 42 } as unknown as TokenStoreInit)).message).toBe(
      "tokenStore.accessToken must be a string or null, got a number.",
    );
  });
});

describe("resolveTokenStore", () => {
  it("returns null for null: no user", () => {
    expect(resolveTokenStore(null, options)).toBeNull();
  });

  it('makes a fresh empty store for "memory"', () => {
    const first = resolveTokenStore("memory", options);
    expect(first?.get()).toEqual({ refreshToken: null, accessToken: null });
    expect(resolveTokenStore("memory", options)).not.toBe(first);
  });

  it("returns a given store as it is", () => {
    const store = createMemoryTokenStore({ refreshToken: "rt-1", accessToken: null });
    expect(resolveTokenStore(store, options)).toBe(store);
  });

  it("reads a request object's headers", () => {
    const store = resolveTokenStore({ headers: new Headers({ cookie: "stack-refresh-proj-1=rt-1" }) }, options);
    expect(store?.get()).toEqual({ refreshToken: "rt-1", accessToken: null });
  });

  it("holds an explicit pair", () => {
    const store = resolveTokenStore({ accessToken: "at-explicit", refreshToken: "rt-explicit" }, options);
    expect(store?.get()).toEqual({ refreshToken: "rt-explicit", accessToken: "at-explicit" });
  });

  it("gives equal explicit pairs the same store", () => {
    const first = resolveTokenStore({ accessToken: "at-shared", refreshToken: "rt-shared" }, options);
    expect(resolveTokenStore({ accessToken: "at-shared", refreshToken: "rt-shared" }, options)).toBe(first);
  });

  it("gives different explicit pairs different stores", () => {
    const first = resolveTokenStore({ accessToken: "at-a", refreshToken: "rt-a" }, options);
    expect(resolveTokenStore({ accessToken: "at-b", refreshToken: "rt-a" }, options)).not.toBe(first);
  });

  it.each([
    [{ accessToken: "undefined", refreshToken: "rt-1" }, "access"],
    [{ accessToken: null, refreshToken: "undefined" }, "refresh"],
  ])('rejects the explicit token string "undefined" (%j)', (init, kind) => {
    expect(thrownBy(() => resolveTokenStore(init, options)).message).toBe(
      `The ${kind} token from the { accessToken, refreshToken } token store is the string "undefined", ` +
        `usually an environment variable that is not set. Pass null when there is no ${kind} token.`,
    );
  });

  const notAToken = "holds a character that a token cannot have (tokens are visible ASCII without spaces, as HTTP headers need)";
  it.each([
    [
      { accessToken: "null", refreshToken: "rt-1" },
      'The access token from the { accessToken, refreshToken } token store is the string "null", usually a missing value turned into text. Pass null when there is no access token.',
    ],
    [
      { accessToken: "at-\u20ac", refreshToken: null },
      `The access token from the { accessToken, refreshToken } token store ${notAToken}. Pass null when there is no access token.`,
    ],
    [
      { accessToken: null, refreshToken: "rt\n1" },
      `The refresh token from the { accessToken, refreshToken } token store ${notAToken}. Pass null when there is no refresh token.`,
    ],
  ])("rejects the explicit pair %j that cannot be tokens, without quoting them", (init, message) => {
    const error = thrownBy(() => resolveTokenStore(init, options));
    expect(isStackError(error, "StackConfigurationError")).toBe(true);
    expect(error.message).toBe(message);
  });

  it("reads explicit empty strings as no tokens, in a store of its own", () => {
    const store = resolveTokenStore({ accessToken: "", refreshToken: "" }, options);
    expect(store?.get()).toEqual({ refreshToken: null, accessToken: null });
    expect(resolveTokenStore({ accessToken: "", refreshToken: "" }, options)).not.toBe(store);
  });

  it('reads an x-stack-auth token that is the string "undefined" as absent: the request is no user', () => {
    const init = { headers: new Headers({ "x-stack-auth": '{"refreshToken":"undefined"}' }) };
    expect(resolveTokenStore(init, options)?.get()).toEqual({ refreshToken: null, accessToken: null });
  });

  it.each([
    ["session" as unknown as TokenStoreInit, 'Unknown tokenStore "session".'],
    [{} as TokenStoreInit, "Unknown tokenStore an object without tokens or headers."],
  ])("rejects the unknown value %j, naming the valid ones", (init, start) => {
    expect(thrownBy(() => resolveTokenStore(init, options)).message).toBe(
      `${start} Valid values are "cookie" (or "nextjs-cookie", the same in a browser), "memory", a request object with headers (e.g. a Request), ` +
        "{ accessToken, refreshToken }, or a TokenStore, or null for no user.",
    );
  });

  it('fails clearly for "cookie" on a server', () => {
    expect(thrownBy(() => resolveTokenStore("cookie", options)).message).toBe(
      'The "cookie" token store works only in a browser: there is no document here to hold cookies. ' +
        'On a server, pass tokenStore: "memory", a request object (anything with headers.get, e.g. a Request), ' +
        "or { accessToken, refreshToken }.",
    );
  });

  it('refuses "nextjs-cookie" on a server, naming what a server passes instead', () => {
    const error = thrownBy(() => resolveTokenStore("nextjs-cookie", options));
    expect(isStackError(error, "StackConfigurationError")).toBe(true);
    expect(error.message).toBe(
      'The "nextjs-cookie" token store works only in a browser, as "cookie": stackkit cannot reach Next.js\'s cookies() by itself. ' +
        "On a server, pass the request (anything with headers.get, e.g. a Request), " +
        "or await nextCookiesTokenStore(cookies, { projectId }) with cookies from next/headers.",
    );
  });

  it("fails clearly when the cookie store is made without a document", () => {
    expect(thrownBy(() => createCookieTokenStore({ projectId: "proj-1" })).message).toContain(
      'The "cookie" token store works only in a browser',
    );
  });
});

describe("noTokenStoreError", () => {
  it("names the tokenStore option and its values", () => {
    const error = noTokenStoreError();
    expect(isStackError(error, "StackConfigurationError")).toBe(true);
    expect(error.message).toBe(
      "This call needs a user, but the app has no token store (tokenStore is null). " +
        'Set the tokenStore option to "cookie" (or "nextjs-cookie", the same in a browser), "memory", a request object with headers (e.g. a Request), ' +
        "{ accessToken, refreshToken }, or a TokenStore, or pass one to this call.",
    );
  });
});

describe("explicit store cache", () => {
  it("forgets the least recently used pair beyond its limit", () => {
    const storeFor = createExplicitTokenStores(3);
    const pair = (n: number) => ({ refreshToken: `rt-${n}`, accessToken: `at-${n}` });
    const first = storeFor(pair(1));
    const second = storeFor(pair(2));
    storeFor(pair(3));
    expect(storeFor(pair(1))).toBe(first);
    storeFor(pair(4));
    expect(storeFor(pair(1))).toBe(first);
    expect(storeFor(pair(2))).not.toBe(second);
  });

  it("keys by the pair it started with, not by later set() values", () => {
    const storeFor = createExplicitTokenStores(3);
    const store = storeFor({ refreshToken: "rt-1", accessToken: "at-1" });
    store.set({ refreshToken: "rt-1", accessToken: "at-2" });
    expect(storeFor({ refreshToken: "rt-1", accessToken: "at-1" })).toBe(store);
  });
});

describe("LruMap", () => {
  it("evicts the least recently used entry beyond its limit", () => {
    const map = new LruMap<string, number>(3);
    map.set("a", 1).set("b", 2).set("c", 3);
    map.get("a");
    map.set("d", 4);
    expect([map.get("a"), map.get("b"), map.get("c"), map.get("d")]).toEqual([1, undefined, 3, 4]);
    expect(map.size).toBe(3);
  });

  it("deletes an entry", () => {
    const map = new LruMap<string, number>(3);
    map.set("a", 1);
    expect(map.delete("a")).toBe(true);
    expect(map.size).toBe(0);
  });

  it("rejects a limit that is not a positive integer", () => {
    expect(thrownBy(() => new LruMap(0)).message).toBe("An LRU cache needs a limit that is a positive integer, got 0.");
  });
});
