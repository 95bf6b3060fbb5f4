// Where a session's tokens live. A store is synchronous: reading it is how a
// request learns the current tokens, and writing it is how a sign-in, a refresh
// or a sign-out takes effect everywhere that store is read.

/** A session's refresh token and access token; null where there is none. */
export interface TokenPair {
  readonly refreshToken: string | null;
  readonly accessToken: string | null;
}

/** @deprecated Use {@link TokenPair}, the same pair. */
export type StoredTokens = TokenPair;

/** @deprecated Use {@link TokenPair}, the same pair. */
export type SessionTokens = TokenPair;

export const NO_TOKENS: TokenPair = Object.freeze({ refreshToken: null, accessToken: null });

export interface TokenStore {
  /** The tokens now. */
  get(): TokenPair;
  /** Replaces the tokens; `NO_TOKENS` signs out. */
  set(tokens: TokenPair): void;
  /**
   * Calls `listener` when the tokens change, including changes made elsewhere
   * (another tab, another script). Returns the function that stops listening.
   */
  subscribe(listener: (tokens: TokenPair) => void): () => void;
}

/** True when both pairs are the same. */
export function sameTokens(a: TokenPair, b: TokenPair): boolean {
  return a.refreshToken === b.refreshToken && a.accessToken === b.accessToken;
}
