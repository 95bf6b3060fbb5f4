// Sessions: refreshing and ending the current session, listing and revoking a
// user's sessions, and server-made sessions (impersonation). A session is what a
// refresh token stands for (the token endpoint's refresh grant is oauth-token.ts);
// access tokens are stateless JWTs of a session and live until their `exp`.
import type { EmulatorRequest, Handlers } from "../engine/context.js";
import { fail, schemaError, statusFailure } from "../engine/errors.js";
import type { SessionRecord } from "../engine/store.js";
import { list } from "../engine/views.js";
import { isLive } from "./auth-shared.js";

/** The service's default lifetime of a session made with POST /auth/sessions: 365 days. */
const DEFAULT_SESSION_LIFETIME_MS = 365 * 24 * 3600 * 1000;

function sessionView(session: SessionRecord, request: EmulatorRequest) {
  return {
    id: session.id,
    user_id: session.user_id,
    created_at: session.created_at_millis,
    is_impersonation: session.is_impersonation,
    last_used_at: session.last_used_at_millis ?? session.created_at_millis,
    is_current_session: session.id === request.session?.id,
  };
}

/** The required `user_id` query parameter; `me` is the signed-in user. */
function userIdQuery(request: EmulatorRequest): string {
  const userId = request.query.get("user_id");
  if (userId === null) throw schemaError(request, "query.user_id must be defined");
  if (userId !== "me") return userId;
  if (!request.user) throw fail("CANNOT_GET_OWN_USER_WITHOUT_USER");
  return request.user.id;
}

export const sessionHandlers = {
  async refreshCurrentSession(request, ctx) {
    const refreshToken = request.headers.get("x-stack-refresh-token");
    if (refreshToken === null || refreshToken === "") throw schemaError(request, "headers.x-stack-refresh-token must be defined");
    const session = ctx.store.sessionByRefreshToken(refreshToken);
    if (!isLive(ctx, session, request.project.id)) throw fail("REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED");
    ctx.store.updateSession(session.id, { last_used_at_millis: ctx.now() });
    return { body: { access_token: await ctx.accessTokenFor(session) } };
  },

  signOutCurrentSession(request, ctx) {
    // The session is the one the access token names, not that of x-stack-refresh-token.
    if (!request.headers.get("x-stack-access-token")) throw fail("ACCESS_TOKEN_EXPIRED", { expired_at_millis: ctx.now() });
    const session = request.session;
    if (!session || ctx.store.session(session.id) === undefined) throw fail("REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED");
    ctx.store.deleteSession(session.id);
    return { body: { success: true } };
  },

  listSessions(request, ctx) {
    const userId = userIdQuery(request);
    if (request.accessType === "client") {
      if (!request.user) throw fail("CANNOT_GET_OWN_USER_WITHOUT_USER");
      if (request.user.id !== userId) throw statusFailure(403, "Client can only list sessions for their own user.");
    }
    // Impersonation sessions are shown to admin callers only.
    const showImpersonation = request.accessType === "admin";
    const sessions = ctx.store
      .sessions()
      .filter((s) => s.project_id === request.project.id && s.user_id === userId && (showImpersonation || !s.is_impersonation))
      .sort((a, b) => b.created_at_millis - a.created_at_millis);
    return { body: list(sessions.map((s) => sessionView(s, request))) };
  },

  async createSession(request, ctx) {
    const { project } = request;
    const body = request.body as { user_id: string; expires_in_millis?: number; is_impersonation?: boolean };
    const user = ctx.store.user(body.user_id);
    if (!user || user.project_id !== project.id) throw fail("USER_ID_DOES_NOT_EXIST", { user_id: body.user_id });
    const signedIn = await ctx.signIn(user, {
      isImpersonation: body.is_impersonation ?? false,
      expiresAtMillis: ctx.now() + (body.expires_in_millis ?? DEFAULT_SESSION_LIFETIME_MS),
    });
    return { body: { access_token: signedIn.access_token, refresh_token: signedIn.refresh_token } };
  },

  deleteSession(request, ctx) {
    userIdQuery(request);
    const session = ctx.store.session(request.params["session_id"] ?? "");
    const theirs = session !== undefined && session.project_id === request.project.id;
    if (!theirs || (request.accessType === "client" && request.user?.id !== session.user_id))
      throw statusFailure(404, "Session not found.");
    if (request.session?.id === session.id) throw fail("CANNOT_DELETE_CURRENT_SESSION");
    ctx.store.deleteSession(session.id);
    return { body: { success: true } };
  },
} satisfies Handlers;
