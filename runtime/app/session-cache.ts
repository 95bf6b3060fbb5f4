// Sessions named per call: `app.getUser({ tokenStore })` (most often a
// server's, for the caller of a request) names the user's tokens per call (a
// request of the app's own backend, or a token pair). Each distinct session
// gets one runtime client, kept in a bounded LRU cache: calls with the same
// tokens share one Session (and so one refresh), and a server that sees many
// users keeps at most `limit` of them (wire contract §14: caches keyed by users
// must not grow without limit, and an explicit token pair must not build a new
// session on every call). Loaded with the first such call.
import { SESSION_CACHE_LIMIT } from "../constants.js";
import { LruMap } from "../lru.js";
import type { TokenPair } from "../tokens/store.js";
import { readRequestTokens } from "../tokens/request.js";
import { classifyTokenStore, resolveTokenStore, type TokenStoreInit } from "../tokens/resolve.js";
import { createClientAppContext, type ClientAppContext } from "./context.js";
import { sessionContextOf, type SessionContext } from "./session-contexts.js";

export interface SessionContexts {
  /** The context of the session `init` describes. */
  of(init: TokenStoreInit): SessionContext;
  /** How many sessions are cached now (at most the limit). */
  readonly size: number;
}

/** The per-call sessions of the app whose own context is `base`. */
export function createSessionContexts(base: ClientAppContext, limit: number = SESSION_CACHE_LIMIT): SessionContexts {
  const cache = new LruMap<unknown, SessionContext>(limit);
  const make = (tokenStore: TokenStoreInit) => sessionContextOf(createClientAppContext(base.client.withTokenStore(tokenStore), base));
  return {
    get size() {
      return cache.size;
    },
    of(init) {
      const { store, key } = storeFor(init, base.projectId);
      if (key === null) return make(store);
      const known = cache.get(key);
      if (known) return known;
      const made = make(store);
      cache.set(key, made);
      return made;
    },
  };
}

/**
 * The store for `init` and the key it is cached under, or key null when it must
 * not be shared: a store without tokens is filled by an anonymous sign-up, and
 * sharing it would hand that anonymous user to every other caller without tokens.
 */
function storeFor(init: TokenStoreInit, projectId: string): { store: TokenStoreInit; key: unknown } {
  const found = classifyTokenStore(init);
  switch (found.kind) {
    case "cookie":
      return { store: init, key: init };
    case "store":
      return { store: found.store, key: found.store };
    case "request":
      return sharedPair(readRequestTokens(found.request, projectId), projectId);
    case "tokens":
      return sharedPair(found.tokens, projectId);
    default:
      return { store: init, key: null };
  }
}

/** Equal pairs resolve to the same explicit store, which makes a stable key. */
function sharedPair(tokens: TokenPair, projectId: string): { store: TokenStoreInit; key: unknown } {
  if (!tokens.accessToken && !tokens.refreshToken) return { store: "memory", key: null };
  const store = resolveTokenStore(tokens, { projectId });
  return { store, key: store };
}
