// Objects act only for the session they were read in. A user read while Alice
// was signed in must not rename, list or delete Bob once Bob has signed in on
// the same app, nor sign him out. So every object the app hands out is built on
// a context bound to its session (a BoundSessions view): its client sends that
// session's tokens, and refuses, before anything is sent, once the session has
// ended or the store holds another one (even the same user's, signed in again).
// A refreshed access token is the same session. Loaded with the first getUser.
import { CannotGetOwnUserWithoutUser } from "../../generated/known-errors.js";
import { NO_TOKENS, type TokenPair } from "../sessions/tokens/store.js";
import type { Session, Sessions } from "../sessions/session.js";
import type { ClientAppContext } from "./context.js";

/**
 * A call on an object (a user, or anything reached through one: its teams,
 * contact channels, sessions, API keys, permissions, connected accounts, owned
 * projects) whose session has ended or was replaced by another sign-in. Nothing
 * was sent. It is a `CANNOT_GET_OWN_USER_WITHOUT_USER`, as the reference SDK
 * answers such a call, with a message that says what happened: get the user
 * again (`app.getUser()`) to act for whoever is signed in now.
 *
 * @example
 * ```ts
 * const user = await app.getUser({ or: "throw" });
 * await app.signOut();
 * try {
 *   await user.update({ displayName: "Ada" });
 * } catch (error) {
 *   if (error instanceof SessionEndedError) console.log(error.code); // "CANNOT_GET_OWN_USER_WITHOUT_USER"
 * }
 * ```
 */
export class SessionEndedError extends CannotGetOwnUserWithoutUser {
  static override readonly className: string = "SessionEndedError";

  /**
   * Only this error, not the service's own CANNOT_GET_OWN_USER_WITHOUT_USER (which
   * `instanceof KnownErrors.CannotGetOwnUserWithoutUser` still tests); by name, so
   * that it works across two copies of the package as the known errors' test does.
   *
   * @example
   * ```ts
   * const error = await keptUser.listTeams().catch((e: unknown) => e);
   * if (error instanceof SessionEndedError) keptUser = await app.getUser();
   * ```
   */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return super[Symbol.hasInstance](value) && (value as Error).name === "SessionEndedError";
  }

  constructor() {
    super(undefined, {
      message:
        "This object was read in a session that has ended (signed out, or replaced by another sign-in), so it no longer acts for anyone and nothing was sent. Get the user again with app.getUser().",
    });
  }
}

/**
 * The sessions of a store as an object read in one session sees them: that
 * session while the store holds it, valid (a refreshed access token is the same
 * session: the same refresh token), and a SessionEndedError once it has ended
 * or the store holds another pair, even the same user's. Its signOut ends that
 * session only; the store is cleared only while it still holds it.
 */
export class BoundSessions implements Sessions {
  readonly store: Sessions["store"];
  readonly #of: Sessions;
  readonly #session: Session;
  /** What identifies the session in the store: its refresh token, or for a session without one its access token. */
  readonly #refreshToken: string | null;
  readonly #accessToken: string | null;

  constructor(of: Sessions, session: Session) {
    this.store = of.store;
    this.#of = of;
    this.#session = session;
    this.#refreshToken = session.refreshToken;
    this.#accessToken = session.peek().accessToken;
  }

  current(): Session {
    const now = this.#of.current();
    if (!this.#holds(now)) throw new SessionEndedError();
    return now;
  }

  peekCurrent(): TokenPair {
    let now: Session;
    try {
      now = this.#of.current();
    } catch {
      // As SessionManager's: an unreadable store holds nobody to act for.
      return NO_TOKENS;
    }
    if (!this.#holds(now)) throw new SessionEndedError();
    return now.peek();
  }

  signIn(tokens: TokenPair): Session {
    return this.#of.signIn(tokens);
  }

  signOut(): void {
    this.#session.invalidate();
    try {
      const now = this.#of.current();
      // The same session under another object (the manager's cache let the first one go).
      if (this.#holds(now)) now.invalidate();
    } catch {
      // An unreadable store holds no session of this one's to end.
    }
  }

  /** Whether `now`, the store's session, is this view's one, and it is still valid. */
  #holds(now: Session): boolean {
    if (this.#session.isKnownInvalid || now.isKnownInvalid) return false;
    return this.#refreshToken !== null
      ? now.refreshToken === this.#refreshToken
      : now.refreshToken === null && now.peek().accessToken === this.#accessToken;
  }
}

/** One view per session, so that everything read in it shares one bound client. */
const views = new WeakMap<Session, Sessions>();
/** Per context, its bound copy per view. */
const contexts = new WeakMap<ClientAppContext, WeakMap<Sessions, ClientAppContext>>();

/**
 * `ctx` acting only through `view`'s session: on a client with user tokens it
 * sends that session's, on one without (the server's context) it sends none;
 * either stops with a SessionEndedError once the session is over.
 */
export function boundContext(ctx: ClientAppContext, view: Sessions): ClientAppContext {
  let byView = contexts.get(ctx);
  if (byView === undefined) contexts.set(ctx, (byView = new WeakMap()));
  let bound = byView.get(view);
  if (bound === undefined) byView.set(view, (bound = ctx.boundTo(view)));
  return bound;
}

/** `ctx` bound to `session`, one of its own sessions. */
export function contextOfSession(ctx: ClientAppContext, session: Session): ClientAppContext {
  let view = views.get(session);
  if (view === undefined) views.set(session, (view = new BoundSessions(ctx.sessions(), session)));
  return boundContext(ctx, view);
}
