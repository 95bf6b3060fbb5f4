// Command-line login (`/auth/cli`, wire contract §11): a tool starts an
// attempt and polls with its `polling_code`; the signed-in browser hands its
// session over with the `login_code`; the next poll answers the refresh token
// once (HTTP 201), later polls `used`. As the service (v2.8.11) does it:
// - an attempt lives `expires_in_millis` (default 2 h, at most 24 h: the
//   document's maximum, checked by the engine) on the emulator's clock, and a
//   poll after that answers `expired` before anything else;
// - an unknown polling code (or one of another project) is INVALID_POLLING_CODE;
// - completing looks the login code up across projects and answers the
//   service's plain-text status errors, not known errors: 400 "Invalid login
//   code or the code has expired" for an unknown, expired or already completed
//   code, and 400 "Project ID mismatch; …" for a code of another project;
// - the refresh token is stored as given, unchecked, as the service stores it
//   (an empty one leaves the attempt waiting).
// 2.8.86 (profile `cliLogin: "anonymous-handover"`) looks the login code up in the
// project only, checks that a completing refresh token is a live session of the
// project, and lets the tool start with its own anonymous session
// (`anon_refresh_token`), which the browser can see (`mode: check`) and take over
// once (`mode: claim-anon-session`); completing drops it, the anonymous user untouched.
import type { EmulatorContext, EmulatorRequest, Handlers } from "../engine/context.js";
import { fail, schemaError, statusFailure } from "../engine/errors.js";
import type { CliLoginRecord, SessionRecord } from "../engine/store.js";
import { randomId, randomString } from "../engine/tokens.js";

/** The service's default lifetime of an attempt: 2 hours. */
export const CLI_LOGIN_DEFAULT_LIFETIME_MS = 2 * 3600 * 1000;

/** The service's codes: 45 random characters (≈224 bits). */
const CODE_LENGTH = 45;

/** A plain-text 400 of the service (its StatusError). */
const badRequest = (text: string) => ({ status: 400, text });

export const cliHandlers = {
  createCliLogin: ({ project, body }, ctx) => {
    const { expires_in_millis, anon_refresh_token } = (body ?? {}) as { expires_in_millis?: number; anon_refresh_token?: string };
    const lifetime = expires_in_millis ?? CLI_LOGIN_DEFAULT_LIFETIME_MS;
    const now = ctx.now();
    if (anon_refresh_token) checkAnonymousSession(ctx, project.id, anon_refresh_token);
    const attempt: CliLoginRecord = {
      id: randomId(),
      project_id: project.id,
      polling_code: randomString(CODE_LENGTH),
      login_code: randomString(CODE_LENGTH),
      created_at_millis: now,
      expires_at_millis: now + lifetime,
      refresh_token: null,
      anon_refresh_token: anon_refresh_token || null,
      used_at_millis: null,
    };
    ctx.store.insert("cliLogins", attempt);
    return {
      body: {
        polling_code: attempt.polling_code,
        login_code: attempt.login_code,
        expires_at: new Date(attempt.expires_at_millis).toISOString(),
      },
    };
  },

  pollCliLogin: ({ project, body }, ctx) => {
    const attempt = ctx.store.cliLoginBy("polling_code", (body as { polling_code: string }).polling_code);
    if (!attempt || attempt.project_id !== project.id) throw fail("INVALID_POLLING_CODE");
    const now = ctx.now();
    if (attempt.expires_at_millis < now) return { body: { status: "expired" } };
    if (attempt.used_at_millis !== null) return { body: { status: "used" } };
    if (!attempt.refresh_token) return { body: { status: "waiting" } };
    ctx.store.updateCliLogin(attempt.id, { used_at_millis: now });
    return { status: 201, body: { status: "success", refresh_token: attempt.refresh_token } };
  },

  completeCliLogin: async (request, ctx) => {
    if (ctx.profile.cliLogin === "plain") return completePlain(request, ctx);
    const { login_code, mode = "complete", refresh_token } = request.body as { login_code: string; mode?: string; refresh_token?: string };
    const attempt = ctx.store.cliLoginBy("login_code", login_code);
    if (
      !attempt ||
      attempt.project_id !== request.project.id ||
      attempt.refresh_token !== null ||
      attempt.used_at_millis !== null ||
      attempt.expires_at_millis < ctx.now()
    )
      throw statusFailure(400, "Invalid login code or the code has expired");
    if (mode === "check") {
      return { body: { cli_session_state: anonymousSessionOf(ctx, attempt) ? "anonymous" : "none" } };
    }
    if (mode === "claim-anon-session") {
      const session = anonymousSessionOf(ctx, attempt);
      if (!session) throw statusFailure(400, "No anonymous session associated with this code");
      // One claim only: the attempt forgets the anonymous session.
      ctx.store.updateCliLogin(attempt.id, { anon_refresh_token: null });
      return { body: { access_token: await ctx.accessTokenFor(session), refresh_token: session.refresh_token } };
    }
    if (!refresh_token) throw statusFailure(400, "refresh_token is required when mode is 'complete'");
    if (!liveSession(ctx, request.project.id, refresh_token)) throw statusFailure(400, "Invalid refresh token");
    ctx.store.updateCliLogin(attempt.id, { refresh_token, anon_refresh_token: null });
    return { body: { success: true } };
  },
} satisfies Handlers;

/** 2.8.11: any project's login code, the refresh token stored unchecked. */
function completePlain({ project, body, method, url }: EmulatorRequest, ctx: EmulatorContext) {
  const { login_code: loginCode, refresh_token: refreshToken } = body as { login_code: string; refresh_token?: string };
  if (refreshToken === undefined) throw schemaError({ method, url }, "body.refresh_token must be defined");
  const attempt = ctx.store.cliLoginBy("login_code", loginCode);
  if (!attempt || attempt.refresh_token !== null || attempt.expires_at_millis <= ctx.now()) {
    return badRequest("Invalid login code or the code has expired");
  }
  if (attempt.project_id !== project.id) return badRequest("Project ID mismatch; please ensure that you are using the correct app url.");
  ctx.store.updateCliLogin(attempt.id, { refresh_token: refreshToken });
  return { body: { success: true } };
}

/** A session of the project by its refresh token, unexpired; another project's is the service's plain-text 400. */
function liveSession(ctx: EmulatorContext, projectId: string, refreshToken: string): SessionRecord | undefined {
  const session = ctx.store.sessionByRefreshToken(refreshToken);
  if (!session) return undefined;
  if (session.project_id !== projectId) throw statusFailure(400, "Refresh token does not belong to this project");
  if (session.expires_at_millis !== null && session.expires_at_millis < ctx.now()) return undefined;
  return session;
}

/** The tool's anonymous session, while it is one: unexpired, and its user still anonymous. */
function anonymousSessionOf(ctx: EmulatorContext, attempt: CliLoginRecord): SessionRecord | undefined {
  if (!attempt.anon_refresh_token) return undefined;
  const session = liveSession(ctx, attempt.project_id, attempt.anon_refresh_token);
  return session && ctx.store.user(session.user_id)?.is_anonymous ? session : undefined;
}

/** `anon_refresh_token` must be an anonymous user's live session of the project (2.8.86's plain-text 400s). */
function checkAnonymousSession(ctx: EmulatorContext, projectId: string, refreshToken: string): void {
  const session = ctx.store.sessionByRefreshToken(refreshToken);
  if (!session) throw statusFailure(400, "Invalid anon refresh token");
  if (session.project_id !== projectId) throw statusFailure(400, "Anon refresh token does not belong to this project");
  if (session.expires_at_millis !== null && session.expires_at_millis < ctx.now())
    throw statusFailure(400, "The provided anon refresh token has expired");
  const user = ctx.store.user(session.user_id);
  if (!user) throw statusFailure(400, "User not found for provided refresh token");
  if (!user.is_anonymous) throw statusFailure(400, "The provided refresh token does not belong to an anonymous user");
}
