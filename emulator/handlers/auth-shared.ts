// What the sign-in areas share: the service's schema errors for what its own
// request schemas refuse (and the document does not say), its plain-text
// status errors, redeeming a one-time code as its verification-code handler
// does (lower-cased, 45 characters, a bounded number of attempts per nonce),
// the multi-factor step, and the tokens a sign-in answers.
import type { EmulatorContext, EmulatorRequest } from "../engine/context.js";
import { fail, type EmulatorError, schemaError } from "../engine/errors.js";
import type { CodeKind, CodeRecord, ProjectRecord, SessionRecord, UserRecord } from "../engine/store.js";
import { checkPassword, hashPassword, randomId, verifyIssuedAccessToken } from "../engine/tokens.js";
import { primaryChannelOf } from "../engine/views.js";
import { emailTaken, redeemCode, storedEmail } from "./common.js";

/** The signed-in user of an operation whose schema requires one: the service answers SCHEMA_ERROR "auth.user must be defined" without. */
export function signedInUser(request: EmulatorRequest): UserRecord {
  if (!request.user) throw schemaError(request, "auth.user must be defined");
  return request.user;
}

/** The service refuses an empty e-mail in its schema. */
export function checkEmailField(request: EmulatorRequest, email: string): void {
  if (email.trim() === "") throw schemaError(request, "body.email must not be empty");
}

/** yup's e-mail check, which the service's e-mail schemas start with. */
const YUP_EMAIL =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;
/** The stricter pattern of the service's sign-in e-mail schema: dotted parts, a top-level name of two or more. */
const STRICT_EMAIL = /^[^.]+(\.[^.]+)*@.*\.[^.][^.]+$/;

/** What the service's sign-in e-mail schema (`signInEmailSchema`) finds wrong with a non-empty address, in its order. */
export function checkSignInEmail(email: string): string[] {
  if (email.trim() === "") return [];
  return [
    ...(YUP_EMAIL.test(email) ? [] : ["body.email must be a valid email"]),
    ...(STRICT_EMAIL.test(email) ? [] : [`body.email must match the following: "${String(STRICT_EMAIL)}"`]),
  ];
}

/** A bcrypt hash in Modular Crypt Format, as the service recognises one: `$2a$`, `$2b$` or `$2y$` and 56 characters. */
export const BCRYPT_HASH = /^\$2[ayb]\$.{56}$/;

/**
 * Whether `password` is the one `stored` stands for: an imported bcrypt hash is checked with bcrypt (as the service
 * checks every hash), the emulator's own with its own scheme.
 */
export async function passwordMatches(password: string, stored: string | null): Promise<boolean> {
  if (stored !== null && BCRYPT_HASH.test(stored)) {
    const { default: bcrypt } = await import("bcryptjs");
    try {
      return await bcrypt.compare(password, stored);
    } catch {
      return false;
    }
  }
  return checkPassword(password, stored);
}

/**
 * Whether the service accepts `hash` as an imported password hash: bcrypt of at most 16 rounds that bcrypt can
 * read (it tries a comparison; a hash it cannot read is refused).
 */
export async function isImportableHash(hash: string): Promise<boolean> {
  if (!BCRYPT_HASH.test(hash)) return false;
  const { default: bcrypt } = await import("bcryptjs");
  try {
    if (bcrypt.getRounds(hash) > 16) return false;
    await bcrypt.compare("any string", hash);
    return true;
  } catch {
    return false;
  }
}

/** Codes are 45 characters; the nonce is the part after the first six (the typed one-time code). */
const CODE_LENGTH = 45;
const OTP_LENGTH = 6;
/** After this many attempts on codes sharing a nonce, the code is refused. */
const MAX_ATTEMPTS_PER_CODE = 20;

/**
 * Redeems `rawCode` of `kind` as the service's verification-code handler does:
 * the code is lower-cased (e-mailed one-time codes are upper case) and must
 * have 45 characters; every code of the project ending in the same nonce
 * counts an attempt; then VERIFICATION_CODE_NOT_FOUND, _EXPIRED,
 * _ALREADY_USED and _MAX_ATTEMPTS_REACHED, in that order. `consume: false`
 * only checks (the check-code routes).
 */
export function redeem(request: EmulatorRequest, ctx: EmulatorContext, kind: CodeKind, rawCode: string, consume: boolean): CodeRecord {
  if (rawCode.length !== CODE_LENGTH) throw schemaError(request, `body.code must be exactly ${CODE_LENGTH} characters`);
  const code = rawCode.toLowerCase();
  const project = request.project;
  const attemptsBefore = ctx.store.code(code)?.attempts ?? 0;
  const nonce = code.slice(OTP_LENGTH);
  for (const record of ctx.store.codesOf(project.id)) {
    if (record.code.endsWith(nonce)) ctx.store.updateCode(record.code, { attempts: record.attempts + 1 });
  }
  const record = redeemCode(ctx, project, kind, code, false);
  if (attemptsBefore >= MAX_ATTEMPTS_PER_CODE) throw fail("VERIFICATION_CODE_MAX_ATTEMPTS_REACHED");
  if (consume) ctx.store.markCodeUsed(record.code, ctx.now());
  return record;
}

/**
 * The kind of the attempt code a multi-factor sign-in continues with. The
 * store's CodeKind does not name it yet; the TOTP step (signInWithMfa) redeems it.
 */
export const MFA_ATTEMPT_KIND: CodeKind = "mfa_attempt";
const MFA_ATTEMPT_LIFETIME_MS = 5 * 60 * 1000;

/** Whether signing in needs the TOTP step: the user has a TOTP secret. */
export function requiresMfa(user: UserRecord): boolean {
  return user.totp_secret_base64 !== null;
}

/** MULTI_FACTOR_AUTHENTICATION_REQUIRED with a fresh attempt code (5 minutes) for the TOTP step. */
export function mfaRequired(ctx: EmulatorContext, project: ProjectRecord, user: UserRecord, isNewUser: boolean): EmulatorError {
  const attemptCode = ctx.issueCode({
    projectId: project.id,
    kind: MFA_ATTEMPT_KIND,
    recipient: primaryChannelOf(ctx.store, user.id)?.value ?? "",
    callbackUrl: null,
    lifetimeMs: MFA_ATTEMPT_LIFETIME_MS,
    data: { user_id: user.id, is_new_user: isNewUser },
  });
  return fail("MULTI_FACTOR_AUTHENTICATION_REQUIRED", { attempt_code: attemptCode });
}

/** A new session's tokens, as the sign-in routes answer them (with `user_id`). */
export async function signInTokens(ctx: EmulatorContext, user: UserRecord) {
  const signedIn = await ctx.signIn(user);
  return { access_token: signedIn.access_token, refresh_token: signedIn.refresh_token, user_id: user.id };
}

/**
 * The anonymous user whose access token a request carries, if any: the
 * signed-in user, or for operations the document lists without user tokens
 * (the magic-link sign-in) the token's user, read leniently (a bad token is
 * no one), as the service reads every request's token.
 */
export async function anonymousCaller(request: EmulatorRequest, ctx: EmulatorContext): Promise<UserRecord | null> {
  if (request.user) return request.user.is_anonymous ? request.user : null;
  const token = request.headers.get("x-stack-access-token");
  return token ? anonymousUserOfToken(ctx, request.project.id, token) : null;
}

/** The anonymous user of the project an access token stands for, read leniently (a bad token is no one). */
export async function anonymousUserOfToken(ctx: EmulatorContext, projectId: string, token: string): Promise<UserRecord | null> {
  try {
    const claims = await verifyIssuedAccessToken(ctx, token, projectId, ctx.now());
    const user = ctx.store.user(claims.sub);
    return user?.project_id === projectId && user.is_anonymous ? user : null;
  } catch {
    return null;
  }
}

/**
 * Turns an anonymous user into a regular one in place (same id), as 2.8.86 does
 * when they sign up or first sign in while their session is held: the e-mail
 * becomes their primary, auth-enabled channel; a password is set when given.
 */
export async function upgradeAnonymousUser(
  ctx: EmulatorContext,
  project: ProjectRecord,
  user: UserRecord,
  o: { readonly email: string; readonly emailVerified: boolean; readonly password?: string },
): Promise<void> {
  const email = storedEmail(ctx, o.email);
  if (ctx.store.authChannelByEmail(project.id, email)) throw emailTaken(ctx, email);
  ctx.store.updateUser(user.id, { is_anonymous: false });
  if (o.password !== undefined) ctx.store.updateUser(user.id, { password_hash: await hashPassword(o.password) });
  for (const channel of ctx.store.channelsOf(user.id)) if (channel.is_primary) ctx.store.updateChannel(channel.id, { is_primary: false });
  ctx.store.insert("contactChannels", {
    id: randomId(),
    project_id: project.id,
    user_id: user.id,
    type: "email",
    value: email,
    is_verified: o.emailVerified,
    is_primary: true,
    used_for_auth: true,
  });
}

/** Whether a session can still be refreshed: not expired, and its user still there. */
export function isLive(ctx: EmulatorContext, session: SessionRecord | undefined, projectId: string): session is SessionRecord {
  if (!session || session.project_id !== projectId) return false;
  if (session.expires_at_millis !== null && session.expires_at_millis <= ctx.now()) return false;
  const user = ctx.store.user(session.user_id);
  return user !== undefined && user.project_id === projectId;
}

/** Whether `key` is a live publishable client key of the project (the token endpoint's client secret). */
export function isPublishableKeyOf(ctx: EmulatorContext, projectId: string, key: string): boolean {
  const now = ctx.now();
  for (const set of ctx.store.keySetsOf(projectId)) {
    if (set.publishable_client_key !== key) continue;
    if (set.manually_revoked_at_millis !== undefined || set.expires_at_millis <= now) continue;
    return true;
  }
  return false;
}
