// A token store that lives as long as the object does: one tab, one process,
// one server request. Also the base of the request and explicit stores.

import { assertUsableTokens } from "./check.js";
import { NO_TOKENS, sameTokens, type TokenPair, type TokenStore } from "./store.js";

type Listener = (tokens: TokenPair) => void;

/** The subscriber list every store keeps. Each subscription is its own entry, so subscribing one function twice needs two unsubscribes. */
export class Listeners {
  readonly #entries = new Set<{ readonly listener: Listener }>();

  get size(): number {
    return this.#entries.size;
  }

  add(listener: Listener): () => void {
    const entry = { listener };
    this.#entries.add(entry);
    return () => {
      this.#entries.delete(entry);
    };
  }

  notify(tokens: TokenPair): void {
    // A copy, so a listener that unsubscribes (or subscribes) while being told
    // does not change who else is told this time.
    for (const entry of [...this.#entries]) entry.listener(tokens);
  }
}

function freeze(tokens: TokenPair): TokenPair {
  return Object.freeze({ refreshToken: tokens.refreshToken, accessToken: tokens.accessToken });
}

/**
 * A store holding `initial` (no tokens by default). Subscribers hear of a `set()`
 * only when the pair changed. Its tokens come from code (the app, a sign-in, a
 * refresh, or a request already read leniently), so one that cannot be a token
 * is a StackConfigurationError here (see check.ts); an empty string is no token.
 *
 * @example
 * ```ts
 * const tokenStore = createMemoryTokenStore({ refreshToken: savedRefreshToken, accessToken: null });
 * const app = new StackServerApp({ projectId, secretServerKey, tokenStore });
 * const user = await app.getUser();
 * ```
 */
export function createMemoryTokenStore(initial: TokenPair = NO_TOKENS): TokenStore {
  let current = freeze(assertUsableTokens(initial, "the initial tokens of the memory store"));
  const listeners = new Listeners();
  return {
    get: () => current,
    set(given) {
      const tokens = assertUsableTokens(given, "set()");
      if (sameTokens(tokens, current)) return;
      current = freeze(tokens);
      listeners.notify(current);
    },
    subscribe: (listener) => listeners.add(listener),
  };
}
