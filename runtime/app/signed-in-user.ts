// The one read of "who is signed in" that both apps' getUser use, and what
// getUser answers when nobody is (its `or`). The user is read through a
// context bound to the session it is read in (bound-session.ts), and the
// object made of it keeps that context: it acts for that session only.
import { isKnownError } from "../../generated/known-error-guard.js";
import { callOf, signalOf, untilAborted, type CallOptions } from "./call-options.js";
import { StackAssertionError, StackConfigurationError, UserNotSignedInError } from "../errors.js";
import { contextOfSession, SessionEndedError } from "./bound-session.js";
import { orOf, type GetUserOptions, type GetUserOr } from "./client-app-options.js";
import type { ClientAppContext } from "./context.js";
import type { RedirectTo } from "./redirect-methods.js";
import type { TokenStoreContext } from "./token-store-contexts.js";

/** What a signed-in user was read as, and the context bound to the session it was read in. */
export interface SignedInUserWire<W> {
  readonly wire: W;
  readonly ctx: ClientAppContext;
}

/** How often a read starts again because the store changed while it was on its way. */
const MAX_READS = 3;

/**
 * `GET /users/me` in the session the store of `ctx` holds now, through a
 * context bound to it: the raw answer and that context, or null when nobody is
 * signed in. A sign-in or sign-out while the read is on its way makes the bound
 * read stop unsent or unread; the session the store holds then is read instead.
 */
async function readCurrentUser(ctx: ClientAppContext, call: CallOptions): Promise<SignedInUserWire<NonNullable<unknown>> | null> {
  const sessions = ctx.sessions();
  for (let read = 1; ; read++) {
    const session = sessions.current();
    if (session.isKnownInvalid) return null;
    const bound = contextOfSession(ctx, session);
    try {
      const { data } = await bound.client.send("GET /users/me", signalOf(call));
      return data === undefined || data === null ? null : { wire: data, ctx: bound };
    } catch (error) {
      if (error instanceof SessionEndedError) {
        if (read < MAX_READS) continue;
        throw error;
      }
      if (isKnownError(error, "CANNOT_GET_OWN_USER_WITHOUT_USER")) return null;
      throw error;
    }
  }
}

/** Who counts as signed in: `or` of getUser, and its `includeRestricted`. */
export interface WhoCounts {
  readonly or: string;
  readonly includeRestricted?: boolean | undefined;
}

/**
 * Whether `wire`'s user counts as signed in for `who`, as the newest official SDK
 * decides it: anonymous users only for an anonymous `or`; restricted users (anonymous
 * ones among them) only with `includeRestricted` or an anonymous `or`.
 */
function counts(wire: { readonly is_anonymous: boolean; readonly is_restricted?: boolean }, who: WhoCounts): boolean {
  const includeAnonymous = who.or === "anonymous" || who.or === "anonymous-if-exists";
  const includeRestricted = who.includeRestricted === true || includeAnonymous;
  return (!wire.is_anonymous || includeAnonymous) && (!(wire.is_restricted ?? wire.is_anonymous) || includeRestricted);
}

/**
 * The signed-in user of `session` as `check` reads the wire answer, with the
 * context bound to the session it was read in; null when nobody is signed in,
 * or the user does not count for `who` (see counts). `or: "anonymous"` signs
 * one up when nobody is signed in (once, however many calls wait; an aborted
 * call stops waiting for it, the others do not).
 */
export async function signedInUserWire<W extends { readonly is_anonymous: boolean; readonly is_restricted?: boolean }>(
  session: TokenStoreContext,
  who: WhoCounts,
  check: (answer: NonNullable<unknown>) => W,
  call: CallOptions = {},
): Promise<SignedInUserWire<W> | null> {
  const sessions = session.ctx.sessions();
  const asked = sessions.current();
  const read = async (): Promise<SignedInUserWire<W> | null> => {
    const answer = await readCurrentUser(session.ctx, call);
    return answer === null ? null : { wire: check(answer.wire), ctx: answer.ctx };
  };
  let user = await read();
  if (user !== null && !counts(user.wire, who)) user = null;
  if (user === null && who.or === "anonymous") {
    // Another call may have signed up while this one waited; then use that user.
    if (sessions.current() === asked) await untilAborted(session.anonymousSignUp(), call);
    user = await read();
    if (user === null) throw new StackAssertionError("The anonymous sign-up succeeded, but the service does not know its user.");
  }
  return user;
}

/**
 * The getUser of both apps, on the session `options` names: its `GET /users/me`
 * answer read with `read` and made into a user with `build` on the context bound
 * to the session it was read in (so that the user acts for that session only);
 * when nobody is signed in, what `signedOut` answers for `or`.
 */
export async function currentUserOf<W extends { readonly is_anonymous: boolean; readonly is_restricted?: boolean }, U>(
  session: TokenStoreContext,
  options: GetUserOptions & CallOptions,
  read: (answer: NonNullable<unknown>) => W,
  build: (ctx: ClientAppContext, wire: W) => U | Promise<U>,
  signedOut: (or: GetUserOr, call: CallOptions) => Promise<null>,
): Promise<U | null> {
  const or = orOf(options);
  if (or === "anonymous" && options.includeRestricted === false) {
    throw new StackConfigurationError(
      "getUser cannot take { or: 'anonymous' } with { includeRestricted: false }: every anonymous user is a restricted user.",
    );
  }
  const call = callOf(options);
  const user = await signedInUserWire(session, { or, includeRestricted: options.includeRestricted }, read, call);
  if (user !== null) return build(user.ctx, user.wire);
  return signedOut(or, call);
}

/**
 * What getUser answers when nobody is signed in: `or: "throw"` throws; `or:
 * "redirect"` goes to sign-in (`redirectToSignIn`) and then, as in the reference
 * SDK, resolves null once the navigation is handed over (the page is leaving).
 * Where nothing can navigate (redirectMethod "none") that redirect is reported by
 * throwing instead of handing back null where a user was promised.
 */
export async function signedOutUser(ctx: ClientAppContext, or: GetUserOr, call: CallOptions, redirectToSignIn: RedirectTo): Promise<null> {
  if (or === "throw") throw new UserNotSignedInError("User is not signed in but getUser was called with { or: 'throw' }");
  if (or === "redirect") {
    if (ctx.redirectMethod === "none") {
      throw new UserNotSignedInError(
        "User is not signed in; getUser({ or: 'redirect' }) cannot go to the sign-in page because this app's redirectMethod is \"none\".",
      );
    }
    await redirectToSignIn({ replace: true, ...call });
  }
  return null;
}
