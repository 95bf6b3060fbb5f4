// Where a session's tokens live. A store is synchronous: reading it is how a
// request learns the current tokens, and writing it is how a sign-in, a refresh
// or a sign-out takes effect everywhere that store is read.

export interface StoredTokens {
  readonly refreshToken: string | null;
  readonly accessToken: string | null;
}

export const NO_TOKENS: StoredTokens = Object.freeze({ refreshToken: null, accessToken: null });

export interface TokenStore {
  /** The tokens now. */
  get(): StoredTokens;
  /** Replaces the tokens; `NO_TOKENS` signs out. */
  set(tokens: StoredTokens): void;
  /**
   * Calls `listener` when the tokens change, including changes made elsewhere
   * (another tab, another script). Returns the function that stops listening.
   */
  subscribe(listener: (tokens: StoredTokens) => void): () => void;
}

/** True when both stores hold the same pair. */
export function sameTokens(a: StoredTokens, b: StoredTokens): boolean {
  return a.refreshToken === b.refreshToken && a.accessToken === b.accessToken;
}
