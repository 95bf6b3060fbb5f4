// Sessions (SPEC §4, wire contract §4): a refresh token and an access token,
// refreshed on demand, one refresh at a time.
//
// The token store is the shared truth; a Session is the live view of one token
// pair in it. SessionManager hands out the Session of whatever pair the store
// holds now, so equal pairs share one Session (and so one refresh), and a
// sign-in elsewhere simply yields a new Session.
import { DEFAULT_MIN_TOKEN_LIFE_MS, MAX_REQUIRED_TOKEN_LIFE_MS, REFRESH_FAILURE_COOLDOWN_MS, SESSION_CACHE_LIMIT } from "../constants.js";
import type { Environment } from "../platform/env.js";
import { StackAssertionError, StackConfigurationError } from "../errors.js";
import { accessTokenFacts } from "./jwt.js";
import { LruMap } from "../platform/lru.js";
import { isUsableToken, usableTokens } from "./tokens/check.js";
import { NO_TOKENS, sameTokens, type TokenPair, type TokenStore } from "./tokens/store.js";

/**
 * Asks the service for a new access token. Resolves null when the refresh token
 * is no good any more (a `REFRESH_TOKEN_ERROR`); rejects on anything transient.
 */
export type RefreshAccessToken = (refreshToken: string) => Promise<string | null>;

interface SessionHost {
  readonly env: Environment;
  readonly refresh: RefreshAccessToken;
  /** A refresh produced a new access token. */
  onRefreshed(session: Session, accessToken: string): void;
  /** The session became invalid. */
  onInvalidated(session: Session): void;
}

/** One signed-in session: its refresh token and its current access token, refreshed when needed (one refresh however many calls wait for it). Apps reach it through `user.currentSession` and `client.requireSessions()`. */
export class Session {
  readonly refreshToken: string | null;
  #accessToken: string | null;
  #invalid: boolean;
  #refreshing: Promise<string | null> | null = null;
  #cooldownUntil = 0;
  #lastFailure: unknown;
  readonly #expired = new Set<string>();
  readonly #host: SessionHost;

  constructor(tokens: TokenPair, host: SessionHost) {
    this.refreshToken = tokens.refreshToken;
    this.#accessToken = tokens.accessToken;
    this.#host = host;
    // A session that starts with neither token has no user, and never will.
    this.#invalid = tokens.refreshToken === null && tokens.accessToken === null;
  }

  /** True once the session cannot authenticate anybody again. */
  get isKnownInvalid(): boolean {
    return this.#invalid;
  }

  /**
   * The tokens as they are now, without refreshing; both null once the session
   * is invalid. The access token may have expired.
   *
   * @example
   * ```ts
   * const session = client.requireSessions().current();
   * const { accessToken, refreshToken } = session.peek();
   * if (refreshToken === null && accessToken === null) console.log("nobody is signed in");
   * ```
   */
  peek(): TokenPair {
    return { accessToken: this.#invalid ? null : this.#accessToken, refreshToken: this.#invalid ? null : this.refreshToken };
  }

  /**
   * Tokens whose access token has at least `minMillisLeft` of life, refreshing
   * first when needed. Null when the session is (or becomes) invalid. A session
   * without a refresh token returns its access token as it is: it cannot do better.
   * Rejects with the refresh's error when the token endpoint cannot be reached, and
   * with a StackConfigurationError when `minMillisLeft` is 60 s or more.
   *
   * @example
   * ```ts
   * const tokens = await client.requireSessions().current().getTokens();
   * if (tokens?.accessToken == null) throw new Error("Signed out");
   * await fetch("https://api.example.com/orders", { headers: { authorization: `Bearer ${tokens.accessToken}` } });
   * ```
   */
  async getTokens(minMillisLeft = DEFAULT_MIN_TOKEN_LIFE_MS): Promise<TokenPair | null> {
    if (minMillisLeft >= MAX_REQUIRED_TOKEN_LIFE_MS) {
      throw new StackConfigurationError(
        `Required access token expiry ${minMillisLeft}ms is too long; access tokens are too short to be used for more than 60s`,
      );
    }
    const now = this.#tokensWithoutRefresh(minMillisLeft);
    if (now !== undefined) return now;
    const accessToken = await this.#refresh();
    if (accessToken === null) return null;
    if (this.#lifeLeft(accessToken) < minMillisLeft) {
      throw new StackAssertionError(
        `A freshly refreshed access token has ${this.#lifeLeft(accessToken)}ms of life left, less than the ${minMillisLeft}ms asked for`,
      );
    }
    return { accessToken, refreshToken: this.refreshToken };
  }

  #tokensWithoutRefresh(minMillisLeft: number): TokenPair | null | undefined {
    if (this.#invalid) return null;
    const current = this.#accessToken;
    if (current !== null && this.#lifeLeft(current) >= minMillisLeft) return this.peek();
    if (this.refreshToken === null) return this.peek();
    return undefined;
  }

  /**
   * The store holds another access token for this session (another tab, or
   * another app on the same store, refreshed it): use it when it lives longer
   * than the one held, so that a refresh anywhere is a refresh everywhere.
   * Ignored when the session is invalid or the token was marked expired.
   *
   * @example
   * ```ts
   * const sessions = client.requireSessions();
   * const { accessToken } = sessions.store.get();
   * if (accessToken !== null) sessions.current().adopt(accessToken);
   * ```
   */
  adopt(accessToken: string): void {
    if (this.#invalid || accessToken === this.#accessToken || this.#expired.has(accessToken)) return;
    if (this.#accessToken === null || this.#lifeLeft(accessToken) > this.#lifeLeft(this.#accessToken)) this.#accessToken = accessToken;
  }

  /**
   * The service rejected this access token: the next getTokens() refreshes
   * instead of handing it out again.
   *
   * @example
   * ```ts
   * const session = client.requireSessions().current();
   * const { accessToken } = session.peek();
   * const response = await fetch(url, { headers: { authorization: `Bearer ${accessToken}` } });
   * if (response.status === 401 && accessToken !== null) session.markAccessTokenExpired(accessToken);
   * ```
   */
  markAccessTokenExpired(accessToken: string): void {
    this.#expired.add(accessToken);
  }

  /**
   * Ends the session for good: sign-out, a deleted user, or a dead refresh token.
   * The store is cleared when it still holds this session's tokens; calling it
   * again does nothing.
   *
   * @example
   * ```ts
   * const session = client.requireSessions().current();
   * session.invalidate();
   * console.log(session.isKnownInvalid); // true
   * ```
   */
  invalidate(): void {
    if (this.#invalid) return;
    this.#invalid = true;
    this.#accessToken = null;
    this.#host.onInvalidated(this);
  }

  #lifeLeft(accessToken: string): number {
    if (this.#expired.has(accessToken)) return Number.NEGATIVE_INFINITY;
    return accessTokenFacts(accessToken).expiresAt - this.#host.env.now();
  }

  /** One refresh at a time: concurrent callers share the request in flight. */
  #refresh(): Promise<string | null> {
    if (this.#refreshing) return this.#refreshing;
    if (this.#host.env.now() < this.#cooldownUntil) return Promise.reject(this.#lastFailure);
    const refreshToken = this.refreshToken as string;
    const attempt: Promise<string | null> = this.#host
      .refresh(refreshToken)
      .then(
        (accessToken) => {
          if (accessToken === null) {
            this.invalidate();
            return null;
          }
          // Signed out while the refresh was on its way: the new token must not come back.
          if (this.#invalid) return null;
          // Never sent, never stored: a header cannot carry it (check.ts), and the error must not quote it.
          if (!isUsableToken(accessToken)) {
            const error = new StackAssertionError("The token endpoint answered with an access token that is not a usable token");
            this.#cooldownUntil = this.#host.env.now() + REFRESH_FAILURE_COOLDOWN_MS;
            this.#lastFailure = error;
            throw error;
          }
          // The service vouches for what it just issued, even if it is a token it rejected before.
          this.#expired.delete(accessToken);
          this.#accessToken = accessToken;
          this.#host.onRefreshed(this, accessToken);
          return accessToken;
        },
        (error: unknown) => {
          // A transient failure must not stick (one bad request would end the
          // session), nor turn every call into a new token request: a short cooldown.
          this.#cooldownUntil = this.#host.env.now() + REFRESH_FAILURE_COOLDOWN_MS;
          this.#lastFailure = error;
          throw error;
        },
      )
      .finally(() => {
        if (this.#refreshing === attempt) this.#refreshing = null;
      });
    this.#refreshing = attempt;
    return attempt;
  }
}

/**
 * The Sessions of one token store. Whatever the store holds, it is read through
 * `usableTokens` (tokens/check.ts): a token that cannot be one (the string
 * "undefined", a value a header cannot carry) reads as absent, and the store is
 * told to forget it, so that no stored value can lock the user out.
 */
export class SessionManager {
  readonly store: TokenStore;
  readonly #sessions: LruMap<string, Session>;
  readonly #host: SessionHost;
  /** The unusable pair last cleared, so that a store that keeps it is not written on every read. */
  #cleared: unknown = null;
  /** The pair the store last handed back, a copy of its tokens then, what it read as, and that pair's cache key. */
  #lastRead: { readonly held: TokenPair; readonly copy: TokenPair; readonly tokens: TokenPair; readonly key: string } | null = null;

  constructor(store: TokenStore, env: Environment, refresh: RefreshAccessToken, limit = SESSION_CACHE_LIMIT) {
    this.store = store;
    this.#sessions = new LruMap(limit);
    this.#host = {
      env,
      refresh,
      onRefreshed: (session, accessToken) => {
        // Write back only if the store still holds this session; another sign-in may have replaced it.
        if (this.#read().refreshToken === session.refreshToken) {
          this.store.set({ refreshToken: session.refreshToken, accessToken });
        }
      },
      onInvalidated: (session) => {
        // The session is over whatever the store does: a store that cannot be
        // read or written here must not turn a sign-out into an error.
        try {
          const now = this.#read();
          if (now.refreshToken === session.refreshToken && (session.refreshToken !== null || now.accessToken !== null)) {
            this.store.set(NO_TOKENS);
          }
        } catch {
          // signOut() writes NO_TOKENS once more; the invalid Session stays cached meanwhile.
        }
      },
    };
  }

  /** The usable tokens the store holds; an unusable pair is cleared from it, once. */
  #read(): TokenPair {
    return this.#readWithKey().tokens;
  }

  /**
   * `#read()`, with the key of the pair's Session. Stores hand back the same
   * pair until it changes, and every request reads it (issue 13 §5): the same
   * pair, still holding the same tokens, reads as it did, without checking it again.
   */
  #readWithKey(): { readonly tokens: TokenPair; readonly key: string } {
    const held: unknown = this.store.get();
    const last = this.#lastRead;
    if (last !== null && held === last.held && sameTokens(last.held, last.copy)) return last;
    const tokens = this.#readAnew(held);
    const key = tokens.refreshToken !== null ? `r:${tokens.refreshToken}` : `a:${tokens.accessToken ?? ""}`;
    const pair = typeof held === "object" && held !== null ? (held as TokenPair) : null;
    this.#lastRead = pair && { held: pair, copy: { refreshToken: pair.refreshToken, accessToken: pair.accessToken }, tokens, key };
    return { tokens, key };
  }

  #readAnew(held: unknown): TokenPair {
    const tokens = usableTokens(held);
    const same = typeof held === "object" && held !== null && sameTokens(tokens, held as TokenPair);
    if (!same && !this.#isCleared(held)) {
      this.#cleared = typeof held === "object" && held !== null ? { ...held } : held;
      try {
        this.store.set(tokens);
      } catch {
        // A custom store that refuses the write still reads as `tokens` here.
      }
    }
    return tokens;
  }

  #isCleared(held: unknown): boolean {
    const cleared = this.#cleared;
    if (typeof held !== "object" || held === null || typeof cleared !== "object" || cleared === null) return held === cleared;
    return sameTokens(held as TokenPair, cleared as TokenPair);
  }

  /**
   * The Session of the tokens the store holds now: the same object for the same
   * pair, so that callers share one refresh. Throws what the store's `get()` throws.
   *
   * @example
   * ```ts
   * const sessions = client.requireSessions();
   * const tokens = await sessions.current().getTokens();
   * console.log(tokens === null ? "signed out" : "signed in");
   * ```
   */
  current(): Session {
    const { tokens, key } = this.#readWithKey();
    let session = this.#sessions.get(key);
    // An invalid session stays invalid, even if a store cannot forget its tokens.
    if (!session) {
      session = new Session(tokens, this.#host);
      this.#sessions.set(key, session);
    } else if (tokens.refreshToken !== null && tokens.accessToken !== null) {
      session.adopt(tokens.accessToken);
    }
    return session;
  }

  /**
   * Stores new tokens (a sign-in) and returns their Session. Throws a
   * StackConfigurationError when a token cannot be one (the stores check it).
   *
   * @example
   * ```ts
   * // Tokens the app's own backend handed out, e.g. after a custom sign-in.
   * const { refreshToken, accessToken } = await (await fetch("/api/stack-tokens")).json();
   * const session = client.requireSessions().signIn({ refreshToken, accessToken });
   * const tokens = await session.getTokens();
   * ```
   */
  signIn(tokens: TokenPair): Session {
    this.store.set(tokens);
    return this.current();
  }

  /**
   * The current session's tokens as they are, without refreshing; none when the
   * store cannot even be read, so that signing out still works.
   *
   * @example
   * ```ts
   * const sessions = client.requireSessions();
   * const { refreshToken } = sessions.peekCurrent();
   * console.log(refreshToken === null ? "signed out" : "signed in");
   * ```
   */
  peekCurrent(): TokenPair {
    try {
      return this.current().peek();
    } catch {
      return NO_TOKENS;
    }
  }

  /**
   * Ends the current session and clears the store, whatever is in flight and
   * whatever the store holds, even when reading it throws. Only a store whose
   * `set()` throws makes this throw, after the session has ended here. Only
   * the local session ends: the service is not called.
   *
   * @example
   * ```ts
   * const sessions = client.requireSessions();
   * sessions.signOut();
   * console.log(sessions.peekCurrent()); // { accessToken: null, refreshToken: null }
   * ```
   */
  signOut(): void {
    let session: Session | null = null;
    try {
      session = this.current();
    } catch {
      // Nothing readable to end but what the store holds, which the write below clears.
    }
    session?.invalidate();
    this.store.set(NO_TOKENS);
  }
}

/**
 * The sessions of a token store as the runtime's parts use them: a
 * SessionManager, or a view of one that answers a single session only (what
 * the objects an app hands out act through: runtime/app/bound-session.ts).
 *
 * @example
 * ```ts
 * const sessions: Sessions = client.requireSessions();
 * const tokens = await sessions.current().getTokens();
 * ```
 */
export type Sessions = Pick<SessionManager, "store" | "current" | "peekCurrent" | "signIn" | "signOut">;
