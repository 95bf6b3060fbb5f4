// Token stores: where a session's tokens live. Re-exports only.
export { NO_TOKENS, sameTokens, type SessionTokens, type StoredTokens, type TokenPair, type TokenStore } from "./store.js";
export { createMemoryTokenStore } from "./memory.js";
export { createCookieTokenStore, type BroadcastChannelLike, type CookieDocument, type CookieTokenStoreOptions } from "./cookie.js";
export { createRequestTokenStore, type RequestLike } from "./request.js";
export { explicitTokenStore } from "./explicit.js";
export { noTokenStoreError, resolveTokenStore, type ResolveTokenStoreOptions, type TokenStoreInit } from "./resolve.js";
