// The signed-in user's sessions (SPEC §3 "Session", endpoints.md §A): the list
// of every device signed in, and revoking one of them.
import type { components } from "../../../generated/schema.js";
import { signalOf, type CallOptions } from "../call-options.js";
import type { ClientAppContext } from "../context.js";
import { assertAnswered } from "../wire.js";

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

/** An ActiveSession from its wire shape; the server app maps other users' sessions with it too. */
export function activeSessionFromWire(wire: components["schemas"]["Session"]): ActiveSession {
  // `geoInfo` is a member of every session, undefined when the service does not know where it was used,
  // as on the reference's sessions, whose declaration also calls it optional (hence the assertion).
  return {
    id: wire.id,
    userId: wire.user_id,
    createdAt: new Date(wire.created_at),
    isImpersonation: wire.is_impersonation,
    lastUsedAt: typeof wire.last_used_at === "number" ? new Date(wire.last_used_at) : undefined,
    isCurrentSession: wire.is_current_session ?? false,
    geoInfo: wire.last_used_at_end_user_ip_info ?? undefined,
  } as ActiveSession;
}

export function userSessionMethods(ctx: ClientAppContext): UserSessionMethods {
  return {
    async getActiveSessions(options) {
      const { data } = await ctx.client.send("GET /auth/sessions", { params: { query: { user_id: "me" } }, ...signalOf(options) });
      assertAnswered(data, "GET /auth/sessions");
      return data.items.map(activeSessionFromWire);
    },
    async revokeSession(sessionId, options) {
      // CANNOT_DELETE_CURRENT_SESSION belongs to the REFRESH_TOKEN_ERROR family, but
      // it says nothing about this session's tokens: it is passed on as it is and
      // must not end the session (the runtime only ends sessions on a failed refresh).
      await ctx.client.send("DELETE /auth/sessions/{session_id}", {
        params: { path: { session_id: sessionId }, query: { user_id: "me" } },
        ...signalOf(options),
      });
    },
  };
}
