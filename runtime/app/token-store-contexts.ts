// The user's tokens as the app reads its user through them: a token store's
// context (the app's context on that store's runtime client, and its
// single-flight anonymous sign-up). The app's own store is one;
// `app.getUser({ tokenStore })` (most often a server's, for the caller of a
// request) names others per call: a request of the app's own backend, or a
// token pair. Each distinct store gets one runtime client, kept in a bounded LRU
// cache: calls with the same tokens share one Session (and so one refresh), and
// a server that sees many users keeps at most `limit` of them (wire contract §14:
// caches keyed by users must not grow without limit, and an explicit token pair
// must not build a new session on every call). The named stores are the app's
// own, as in the official SDK: `"memory"` is the app's one memory store (its own
// session when the app was made with it), never a new empty one per call.
import type { TokenPair } from "../sessions/tokens/store.js";
import { LruMap } from "../platform/lru.js";
import { SESSION_CACHE_LIMIT } from "../constants.js";
import { classifyTokenStore, resolveTokenStore, type TokenStoreInit } from "../sessions/tokens/resolve.js";
import { createAnonymousSignUp } from "./flows/anonymous.js";
import { createClientAppContext, type ClientAppContext } from "./context.js";
import { readRequestTokens } from "../sessions/tokens/request.js";

export interface TokenStoreContext {
  /** The app's context on this store's runtime client. */
  readonly ctx: ClientAppContext;
  /** Single-flight anonymous sign-up into this store. */
  readonly anonymousSignUp: () => Promise<void>;
}

/** The token store whose context is `ctx`. */
export function tokenStoreContextOf(ctx: ClientAppContext): TokenStoreContext {
  return { ctx, anonymousSignUp: createAnonymousSignUp(ctx) };
}

export interface TokenStoreContexts {
  /** The context of the token store `init` describes. */
  of(init: TokenStoreInit): TokenStoreContext;
  /** How many stores are cached now (at most the limit). */
  readonly size: number;
}

/** The app's own token store: the `tokenStore` it was made with, and its context. */
export interface OwnTokenStore {
  readonly init: TokenStoreInit;
  readonly context: TokenStoreContext;
}

/** The per-call token stores of the app whose own context is `base` and own store `own`. */
export function createTokenStoreContexts(
  base: ClientAppContext,
  own: OwnTokenStore,
  limit: number = SESSION_CACHE_LIMIT,
): TokenStoreContexts {
  const cache = new LruMap<unknown, TokenStoreContext>(limit);
  const make = (tokenStore: TokenStoreInit) => tokenStoreContextOf(createClientAppContext(base.client.withTokenStore(tokenStore), base));
  // Outside the LRU: the app's memory store holds whoever signed in to it, and must not be forgotten for other users' requests.
  let memory: TokenStoreContext | null = null;
  return {
    get size() {
      return cache.size;
    },
    of(init) {
      if (sameNamedStore(init, own.init)) return own.context;
      if (init === "memory") return (memory ??= make("memory"));
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
 * Whether `init` names the app's own store: the very value the app was made with,
 * `"memory"` for an app made with `"memory"`, and the browser's cookies
 * (`"cookie"`, `"nextjs-cookie"`) for an app made with either.
 */
function sameNamedStore(init: TokenStoreInit, own: TokenStoreInit): boolean {
  if (init === own) return true;
  if (typeof init !== "string" || typeof own !== "string") return false;
  return init === "memory" ? own === "memory" : own !== "memory";
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
      // "nextjs-cookie" is the same cookies as "cookie": one context for both.
      return { store: init, key: "cookie" };
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
