// The one read of "who is signed in" that both apps' getUser use, loaded with
// the first getUser rather than with the app.
import { isKnownError } from "../../generated/known-error-guard.js";
import { StackAssertionError, signalOf, untilAborted, type CallOptions } from "../core.js";
import type { ClientAppContext } from "./context.js";
import type { SessionContext } from "./session-contexts.js";

/** `GET /users/me` in the session of `ctx`: the raw answer, or null when nobody is signed in. */
async function readCurrentUser(ctx: ClientAppContext, call: CallOptions): Promise<unknown> {
  if (ctx.sessions().current().isKnownInvalid) return null;
  try {
    const { data } = await ctx.client.send("GET /users/me", signalOf(call));
    return data ?? null;
  } catch (error) {
    if (isKnownError(error, "CANNOT_GET_OWN_USER_WITHOUT_USER")) return null;
    throw error;
  }
}

/**
 * The signed-in user of `session` as `check` reads the wire answer, or null
 * when nobody is. Anonymous users count as nobody unless `or` asks for them;
 * `or: "anonymous"` signs one up when nobody is signed in (once, however many
 * calls wait; an aborted call stops waiting for it, the others do not).
 */
export async function signedInUserWire<W extends { readonly is_anonymous: boolean }>(
  session: SessionContext,
  or: string,
  check: (answer: NonNullable<unknown>) => W,
  call: CallOptions = {},
): Promise<W | null> {
  const sessions = session.ctx.sessions();
  const asked = sessions.current();
  const read = async () => {
    const answer = await readCurrentUser(session.ctx, call);
    return answer === null || answer === undefined ? null : check(answer);
  };
  let wire = await read();
  if (wire?.is_anonymous && or !== "anonymous" && or !== "anonymous-if-exists") wire = null;
  if (wire === null && or === "anonymous") {
    // Another call may have signed up while this one waited; then use that user.
    if (sessions.current() === asked) await untilAborted(session.anonymousSignUp(), call);
    wire = await read();
    if (wire === null) throw new StackAssertionError("The anonymous sign-up succeeded, but the service does not know its user.");
  }
  return wire;
}
