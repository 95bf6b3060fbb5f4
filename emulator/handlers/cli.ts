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
import type { Handlers } from "../engine/context.js";
import { fail } from "../engine/errors.js";
import type { CliLoginRecord } from "../engine/store.js";
import { randomId, randomString } from "../engine/tokens.js";

/** The service's default lifetime of an attempt: 2 hours. */
export const CLI_LOGIN_DEFAULT_LIFETIME_MS = 2 * 3600 * 1000;

/** The service's codes: 45 random characters (≈224 bits). */
const CODE_LENGTH = 45;

/** A plain-text 400 of the service (its StatusError). */
const badRequest = (text: string) => ({ status: 400, text });

export const cliHandlers = {
  createCliLogin: ({ project, body }, ctx) => {
    const lifetime = (body as { expires_in_millis?: number } | undefined)?.expires_in_millis ?? CLI_LOGIN_DEFAULT_LIFETIME_MS;
    const now = ctx.now();
    const attempt: CliLoginRecord = {
      id: randomId(),
      project_id: project.id,
      polling_code: randomString(CODE_LENGTH),
      login_code: randomString(CODE_LENGTH),
      created_at_millis: now,
      expires_at_millis: now + lifetime,
      refresh_token: null,
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

  completeCliLogin: ({ project, body }, ctx) => {
    const { login_code: loginCode, refresh_token: refreshToken } = body as { login_code: string; refresh_token: string };
    const attempt = ctx.store.cliLoginBy("login_code", loginCode);
    if (!attempt || attempt.refresh_token !== null || attempt.expires_at_millis <= ctx.now()) {
      return badRequest("Invalid login code or the code has expired");
    }
    if (attempt.project_id !== project.id) return badRequest("Project ID mismatch; please ensure that you are using the correct app url.");
    ctx.store.updateCliLogin(attempt.id, { refresh_token: refreshToken });
    return { body: { success: true } };
  },
} satisfies Handlers;
