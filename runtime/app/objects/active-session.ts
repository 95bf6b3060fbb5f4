// The signed-in user's sessions (SPEC §3 "Session", endpoints.md §A): the list
// of every device signed in, and revoking one of them. The calls
// (active-session-calls.ts) load with the first of them.
import type { components } from "../../../generated/schema.js";
import { lazy, type CallOptions } from "../../core.js";
import type { ClientAppContext } from "../context.js";
import { lazyMethods } from "../lazy-methods.js";

const loadSessions = /* @__PURE__ */ lazy("sessions", () => import("./active-session-calls.js"));

/**
 * Where a session was last used from, as the service located its IP address.
 *
 * @interface
 */
export type GeoInfo = components["schemas"]["GeoInfo"];

/** One signed-in session of the user, one per device or browser (`user.getActiveSessions()`). */
export interface ActiveSession {
  readonly id: string;
  readonly userId: string;
  readonly createdAt: Date;
  readonly isImpersonation: boolean;
  /** Undefined when the service has not seen the session used yet. */
  readonly lastUsedAt: Date | undefined;
  readonly isCurrentSession: boolean;
  /** Where the session was last used from; undefined when the service does not know. */
  readonly geoInfo?: GeoInfo;
}

export interface UserSessionMethods {
  /**
   * Every session of the user, one per signed-in device (`GET /auth/sessions` with
   * `user_id=me`, or the user's id on a ServerUser). The spec-era service may answer
   * HTTP 500 for a user without sessions (wire contract §16); that arrives as
   * the HttpError it is, not as an empty list we would have to guess.
   *
   * @example
   * ```ts
   * const user = await app.getUser({ or: "throw" });
   * const sessions = await user.getActiveSessions();
   * for (const session of sessions) {
   *   console.log(session.id, session.isCurrentSession, session.lastUsedAt?.toISOString() ?? "never used");
   * }
   * ```
   */
  getActiveSessions(options?: CallOptions): Promise<ActiveSession[]>;
  /**
   * Signs out one session of the signed-in user. The current session cannot
   * be revoked this way: the service refuses with CannotDeleteCurrentSession,
   * which is thrown and leaves the current session as it was (use signOut).
   * The call is `DELETE /auth/sessions/{session_id}`; it resolves with nothing.
   *
   * @example
   * ```ts
   * const sessions = await user.getActiveSessions();
   * for (const session of sessions) {
   *   // Sign out every other device; the current session stays.
   *   if (!session.isCurrentSession) await user.revokeSession(session.id);
   * }
   * ```
   */
  revokeSession(sessionId: string, options?: CallOptions): Promise<void>;
}

export function userSessionMethods(ctx: ClientAppContext): UserSessionMethods {
  return lazyMethods(loadSessions, (m) => m.userSessionMethods(ctx), { getActiveSessions: true, revokeSession: true });
}
