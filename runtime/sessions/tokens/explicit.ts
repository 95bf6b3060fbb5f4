// Stores for tokens the app passes in directly, e.g. `{ accessToken, refreshToken }`
// from its own session. Equal pairs yield the same store, so a session built on
// it (and its refresh single-flight, its cache) is shared instead of rebuilt on
// every call (wire contract §14).

import { SESSION_CACHE_LIMIT } from "../../constants.js";
import { LruMap } from "../../platform/lru.js";
import { assertUsableTokens } from "./check.js";
import type { TokenPair, TokenStore } from "./store.js";
import { createMemoryTokenStore } from "./memory.js";

/** A function like `explicitTokenStore` with its own cache of at most `limit` pairs. */
export function createExplicitTokenStores(limit: number): (tokens: TokenPair) => TokenStore {
  const stores = new LruMap<string, TokenStore>(limit);
  return (given) => {
    // Tokens written in the app's code: one that cannot be a token (the string
    // "undefined" of an unset environment variable) is a configuration error, not
    // a signed-out user (check.ts). An empty string is no token.
    const tokens = assertUsableTokens(given, "the { accessToken, refreshToken } token store");
    // No tokens at all: a store that a sign-in fills, so never one shared with another caller.
    if (tokens.refreshToken === null && tokens.accessToken === null) return createMemoryTokenStore();
    // JSON keeps null apart from "null" and cannot be confused by a token containing a separator.
    const key = JSON.stringify([tokens.refreshToken, tokens.accessToken]);
    const known = stores.get(key);
    if (known !== undefined) return known;
    const store = createMemoryTokenStore(tokens);
    stores.set(key, store);
    return store;
  };
}

/**
 * The store for this pair: the same object for equal pairs, as long as the
 * pair is among the SESSION_CACHE_LIMIT most recently used. The store is keyed
 * by the pair it started with; a refresh that `set()`s a new access token does
 * not change which pair finds it.
 */
export const explicitTokenStore: (tokens: TokenPair) => TokenStore = createExplicitTokenStores(SESSION_CACHE_LIMIT);
