// Anonymous users: `getUser({ or: "anonymous" })` creates one when nobody is
// signed in. Concurrent callers must share one sign-up (each would otherwise
// create a user and the last one would win), and a failed sign-up must not
// stick: the reference caches the rejected promise, so one network error makes
// anonymous sign-up fail for the rest of the page's life (wire contract §14).
import type { ClientAppContext } from "../context.js";
import { tokensOf } from "./sign-in.js";

/** Creates an anonymous user (`POST /auth/anonymous/sign-up`) and signs it in. */
export async function signUpAnonymously(ctx: ClientAppContext): Promise<void> {
  // Without a token store the new user's tokens could not be kept: fail before creating it.
  ctx.sessions();
  const { data } = await ctx.client.send("POST /auth/anonymous/sign-up");
  const tokens = tokensOf(data);
  ctx.signIn({ access_token: tokens.access_token, refresh_token: tokens.refresh_token });
}

/**
 * A single-flight anonymous sign-up: callers that arrive while one is on its
 * way share it; once it settles the next call starts a new one, so a failure
 * can be retried.
 */
export function createAnonymousSignUp(ctx: ClientAppContext): () => Promise<void> {
  let inFlight: Promise<void> | null = null;
  return () => {
    if (inFlight) return inFlight;
    const attempt: Promise<void> = signUpAnonymously(ctx).finally(() => {
      if (inFlight === attempt) inFlight = null;
    });
    inFlight = attempt;
    return attempt;
  };
}
