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

/** The token pair of no session: both tokens null. */
export const NO_TOKENS: TokenPair = Object.freeze({ refreshToken: null, accessToken: null });

/**
 * Where a session's tokens live; any object with these three methods can be
 * passed as `tokenStore`.
 */
export interface TokenStore {
  /**
   * The tokens now, read synchronously; {@link NO_TOKENS} when nobody is signed in.
   *
   * @example
   * ```ts
   * const { refreshToken, accessToken } = tokenStore.get();
   * if (refreshToken === null && accessToken === null) {
   *   console.log("signed out");
   * }
   * ```
   */
  get(): TokenPair;
  /**
   * Replaces the tokens; `NO_TOKENS` signs out. The built-in stores throw a
   * StackConfigurationError for a value that cannot be a token.
   *
   * @example
   * ```ts
   * tokenStore.set({ refreshToken, accessToken });
   * // Later, to sign out locally:
   * tokenStore.set(NO_TOKENS);
   * ```
   */
  set(tokens: TokenPair): void;
  /**
   * Calls `listener` when the tokens change, including changes made elsewhere
   * (another tab, another script). Returns the function that stops listening.
   *
   * @example
   * ```ts
   * const unsubscribe = tokenStore.subscribe((tokens) => {
   *   if (tokens.refreshToken === null) showSignedOut();
   * });
   * // When the view goes away:
   * unsubscribe();
   * ```
   */
  subscribe(listener: (tokens: TokenPair) => void): () => void;
}

/**
 * True when both pairs hold the same refresh token and the same access token.
 *
 * @example
 * ```ts
 * const before = tokenStore.get();
 * await app.signInWithCredential({ email, password });
 * if (!sameTokens(before, tokenStore.get())) console.log("the tokens changed");
 * ```
 */
export function sameTokens(a: TokenPair, b: TokenPair): boolean {
  return a.refreshToken === b.refreshToken && a.accessToken === b.accessToken;
}
