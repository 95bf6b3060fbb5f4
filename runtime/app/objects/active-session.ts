// The signed-in user's sessions (SPEC §3 "Session", endpoints.md §A): the list
// of every device signed in, and revoking one of them.
import type { components } from "../../../generated/schema.js";
import { signalOf, type CallOptions } from "../call-options.js";
import type { ClientAppContext } from "../context.js";
import { assertAnswered } from "../wire.js";

export type GeoInfo = components["schemas"]["GeoInfo"];

export interface ActiveSession {
  readonly id: string;
  readonly userId: string;
  readonly createdAt: Date;
  readonly isImpersonation: boolean;
  /** Undefined when the service has not seen the session used yet. */
  readonly lastUsedAt: Date | undefined;
  readonly isCurrentSession: boolean;
  /** Where the session was last used from; absent when the service does not know. */
  readonly geoInfo?: GeoInfo;
}

export interface UserSessionMethods {
  /**
   * Every session of the signed-in user. The spec-era service may answer
   * HTTP 500 for a user without sessions (wire contract §16); that arrives as
   * the HttpError it is, not as an empty list we would have to guess.
   */
  getActiveSessions(options?: CallOptions): Promise<ActiveSession[]>;
  /**
   * Signs out one session of the signed-in user. The current session cannot
   * be revoked this way: the service refuses with CannotDeleteCurrentSession,
   * which is thrown and leaves the current session as it was (use signOut).
   */
  revokeSession(sessionId: string, options?: CallOptions): Promise<void>;
}

/** An ActiveSession from its wire shape; the server app maps other users' sessions with it too. */
export function activeSessionFromWire(wire: components["schemas"]["Session"]): ActiveSession {
  return {
    id: wire.id,
    userId: wire.user_id,
    createdAt: new Date(wire.created_at),
    isImpersonation: wire.is_impersonation,
    lastUsedAt: typeof wire.last_used_at === "number" ? new Date(wire.last_used_at) : undefined,
    isCurrentSession: wire.is_current_session ?? false,
    ...(wire.last_used_at_end_user_ip_info ? { geoInfo: wire.last_used_at_end_user_ip_info } : {}),
  };
}

export function userSessionMethods(ctx: ClientAppContext): UserSessionMethods {
  return {
    async getActiveSessions(options) {
      const { data } = await ctx.client.api.GET("/auth/sessions", { params: { query: { user_id: "me" } }, ...signalOf(options) });
      assertAnswered(data, "GET /auth/sessions");
      return data.items.map(activeSessionFromWire);
    },
    async revokeSession(sessionId, options) {
      // CANNOT_DELETE_CURRENT_SESSION belongs to the REFRESH_TOKEN_ERROR family, but
      // it says nothing about this session's tokens: it is passed on as it is and
      // must not end the session (the runtime only ends sessions on a failed refresh).
      await ctx.client.api.DELETE("/auth/sessions/{session_id}", {
        params: { path: { session_id: sessionId }, query: { user_id: "me" } },
        ...signalOf(options),
      });
    },
  };
}
