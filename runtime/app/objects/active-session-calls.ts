// The calls behind the signed-in user's sessions (SPEC §3 "Session", endpoints.md §A).
import type { components } from "../../../generated/schema.js";
import { signalOf } from "../../core.js";
import type { ClientAppContext } from "../context.js";
import { assertAnswered } from "../wire.js";
import type { ActiveSession, UserSessionMethods } from "./active-session.js";

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
