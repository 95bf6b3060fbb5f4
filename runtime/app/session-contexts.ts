// A session as the app reads its user: the context on that session's runtime
// client, and its single-flight anonymous sign-up. The app's own session is
// one; `getUser({ tokenStore })` names others per call (session-cache.ts).
import type { ClientAppContext } from "./context.js";
import { createAnonymousSignUp } from "./flows/anonymous.js";

export interface SessionContext {
  /** The app's context on this session's runtime client. */
  readonly ctx: ClientAppContext;
  /** Single-flight anonymous sign-up into this session's store. */
  readonly anonymousSignUp: () => Promise<void>;
}

/** The session whose context is `ctx`. */
export function sessionContextOf(ctx: ClientAppContext): SessionContext {
  return { ctx, anonymousSignUp: createAnonymousSignUp(ctx) };
}
