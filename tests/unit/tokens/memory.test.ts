import { describe, expect, it } from "vitest";
import { isStackError } from "../../../runtime/errors.js";
import { createMemoryTokenStore } from "../../../runtime/sessions/tokens/memory.js";
import { NO_TOKENS, type TokenPair } from "../../../runtime/sessions/tokens/store.js";
import { thrownBy } from "../../helpers/outcome.js";

const pair = { refreshToken: "rt-1", accessToken: "at-1" };

describe("createMemoryTokenStore", () => {
  it("starts with no tokens", () => {
    expect(createMemoryTokenStore().get()).toEqual({ refreshToken: null, accessToken: null });
  });

  it("starts with the initial tokens", () => {
    expect(createMemoryTokenStore(pair).get()).toEqual({ refreshToken: "rt-1", accessToken: "at-1" });
  });

  it("returns what set() stored", () => {
    const store = createMemoryTokenStore();
    store.set({ refreshToken: "rt-2", accessToken: null });
    expect(store.get()).toEqual({ refreshToken: "rt-2", accessToken: null });
  });

  it("keeps an access token without a refresh token", () => {
    const store = createMemoryTokenStore();
    store.set({ refreshToken: null, accessToken: "at-only" });
    expect(store.get()).toEqual({ refreshToken: null, accessToken: "at-only" });
  });

  it("is not changed by later edits of the object passed to set()", () => {
    const store = createMemoryTokenStore();
    const tokens = { refreshToken: "rt-1", accessToken: "at-1" };
    store.set(tokens);
    tokens.accessToken = "at-edited";
    expect(store.get().accessToken).toBe("at-1");
  });

  it("tells subscribers of a changed pair", () => {
    const store = createMemoryTokenStore(pair);
    const told: TokenPair[] = [];
    store.subscribe((tokens) => told.push(tokens));
    store.set(NO_TOKENS);
    expect(told).toEqual([{ refreshToken: null, accessToken: null }]);
  });

  it("does not tell subscribers when set() stores the same pair", () => {
    const store = createMemoryTokenStore(pair);
    const told: TokenPair[] = [];
    store.subscribe((tokens) => told.push(tokens));
    store.set({ refreshToken: "rt-1", accessToken: "at-1" });
    expect(told).toEqual([]);
  });

  it("stops telling a subscriber that unsubscribed", () => {
    const store = createMemoryTokenStore(pair);
    const told: TokenPair[] = [];
    const unsubscribe = store.subscribe((tokens) => told.push(tokens));
    unsubscribe();
    store.set(NO_TOKENS);
    expect(told).toEqual([]);
  });

  it("counts each subscription of one function separately", () => {
    const store = createMemoryTokenStore(pair);
    const told: TokenPair[] = [];
    const listener = (tokens: TokenPair) => told.push(tokens);
    store.subscribe(listener);
    const second = store.subscribe(listener);
    second();
    store.set(NO_TOKENS);
    expect(told).toHaveLength(1);
  });

  it('rejects the string "undefined" in set()', () => {
    const store = createMemoryTokenStore();
    let caught: unknown;
    try {
      store.set({ refreshToken: "undefined", accessToken: null });
    } catch (error) {
      caught = error;
    }
    expect(isStackError(caught, "StackConfigurationError")).toBe(true);
    expect((caught as Error).message).toBe(
      'The refresh token from set() is the string "undefined", usually an environment variable that is not set. Pass null when there is no refresh token.',
    );
    expect(store.get()).toEqual(NO_TOKENS);
  });
  // Tokens given to a memory store come from code: a value that cannot be a
  // token is the app's bug, reported at once and never stored (tokens/check.ts).
  const notAToken = "holds a character that a token cannot have (tokens are visible ASCII without spaces, as HTTP headers need)";
  it.each([
    [
      { refreshToken: "null", accessToken: null },
      'The refresh token from set() is the string "null", usually a missing value turned into text. Pass null when there is no refresh token.',
    ],
    [
      { refreshToken: "rt-1", accessToken: "at-\u20ac" },
      `The access token from set() ${notAToken}. Pass null when there is no access token.`,
    ],
    [{ refreshToken: "rt\n1", accessToken: null }, `The refresh token from set() ${notAToken}. Pass null when there is no refresh token.`],
    [{ refreshToken: "rt 1", accessToken: null }, `The refresh token from set() ${notAToken}. Pass null when there is no refresh token.`],
  ])("rejects set(%j) without quoting the token, and keeps what it held", (tokens, message) => {
    const store = createMemoryTokenStore(pair);
    const error = thrownBy(() => store.set(tokens));
    expect(error.message).toBe(message);
    expect(store.get()).toEqual(pair);
  });

  it("rejects initial tokens that cannot be tokens", () => {
    expect(thrownBy(() => createMemoryTokenStore({ refreshToken: "undefined", accessToken: null })).message).toBe(
      'The refresh token from the initial tokens of the memory store is the string "undefined", usually an environment variable that is not set. Pass null when there is no refresh token.',
    );
  });

  it("reads an empty string as no token", () => {
    const store = createMemoryTokenStore({ refreshToken: "", accessToken: "" });
    expect(store.get()).toEqual(NO_TOKENS);
    store.set({ refreshToken: "rt-1", accessToken: "" });
    expect(store.get()).toEqual({ refreshToken: "rt-1", accessToken: null });
  });
});
