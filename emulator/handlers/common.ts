// What several areas of the API share: finding the user a path means (`me` or
// an id), requiring a signed-in user, making a user record, checking a
// callback URL against the project's trusted domains, and mailing a code as a
// link with the service's template.
import type { EmulatorContext, EmulatorRequest } from "../engine/context.js";
import { fail } from "../engine/errors.js";
import type { CodeKind, ProjectRecord, UserRecord } from "../engine/store.js";
import { hashPassword, randomId } from "../engine/tokens.js";
import { sendTemplatedEmail } from "./admin-email.js";
import { grantDefaultProjectPermissions } from "./permissions.js";

/** The signed-in user, or the service's USER_AUTHENTICATION_REQUIRED. */
export function requireUser(request: EmulatorRequest): UserRecord {
  if (!request.user) throw fail("USER_AUTHENTICATION_REQUIRED");
  return request.user;
}

/**
 * The user a `user_id` (path or query) names: `me` is the signed-in user
 * (CANNOT_GET_OWN_USER_WITHOUT_USER without one); a client may name only
 * itself; an unknown id is USER_NOT_FOUND.
 */
export function userOf(request: EmulatorRequest, ctx: EmulatorContext, userId: string): UserRecord {
  if (userId === "me") {
    if (!request.user) throw fail("CANNOT_GET_OWN_USER_WITHOUT_USER");
    return request.user;
  }
  const user = ctx.store.user(userId);
  if (!user || user.project_id !== request.project.id) throw fail("USER_NOT_FOUND");
  if (request.accessType === "client" && request.user?.id !== user.id) throw fail("USER_NOT_FOUND");
  return user;
}

export interface NewUser {
  readonly email?: string | null;
  readonly emailVerified?: boolean;
  readonly emailAuth?: boolean;
  readonly password?: string | null;
  readonly displayName?: string | null;
  readonly profileImageUrl?: string | null;
  readonly isAnonymous?: boolean;
  readonly clientMetadata?: unknown;
  readonly clientReadOnlyMetadata?: unknown;
  readonly serverMetadata?: unknown;
}

/** An e-mail address as the version stores it: trimmed and lower-cased on 2.8.86, as sent on 2.8.11. */
export function storedEmail(ctx: EmulatorContext, email: string): string {
  return ctx.profile.normalizesContactEmails ? email.trim().toLowerCase() : email;
}

/**
 * USER_EMAIL_ALREADY_EXISTS for `email`, as the version details it: 2.8.86 always says whether the flow would have
 * worked had the holder verified the address (`wouldWorkIfVerified`: a magic link to an unverified address).
 */
export function emailTaken(ctx: EmulatorContext, email: string, wouldWorkIfVerified = false) {
  return fail("USER_EMAIL_ALREADY_EXISTS", {
    email,
    ...(ctx.profile.emailTakenSaysVerification ? { would_work_if_email_was_verified: wouldWorkIfVerified } : {}),
  });
}

/**
 * CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE, naming the address or not (null), as the version details it:
 * 2.8.86 always says whether linking would have worked had the holder verified it (an OAuth merge by e-mail).
 */
export function authChannelTaken(ctx: EmulatorContext, value: string | null, wouldWorkIfVerified = false) {
  return fail("CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE", {
    type: "email",
    contact_channel_value: value,
    ...(ctx.profile.emailTakenSaysVerification ? { would_work_if_email_was_verified: wouldWorkIfVerified } : {}),
  });
}

/** Makes a user (and their primary e-mail channel); USER_EMAIL_ALREADY_EXISTS when another user signs in with it. */
export async function createUserRecord(ctx: EmulatorContext, project: ProjectRecord, options: NewUser): Promise<UserRecord> {
  const o = { ...options, email: options.email ? storedEmail(ctx, options.email) : options.email };
  const emailAuth = o.emailAuth ?? true;
  if (o.email && emailAuth && ctx.store.authChannelByEmail(project.id, o.email)) throw emailTaken(ctx, o.email);
  const now = ctx.now();
  const user: UserRecord = {
    id: randomId(),
    project_id: project.id,
    display_name: o.displayName ?? null,
    profile_image_url: o.profileImageUrl ?? null,
    signed_up_at_millis: now,
    last_active_at_millis: now,
    client_metadata: o.clientMetadata ?? null,
    client_read_only_metadata: o.clientReadOnlyMetadata ?? null,
    server_metadata: o.serverMetadata ?? null,
    selected_team_id: null,
    is_anonymous: o.isAnonymous ?? false,
    otp_auth_enabled: false,
    passkey_auth_enabled: false,
    totp_secret_base64: null,
    password_hash: o.password ? await hashPassword(o.password) : null,
    oauth_providers: [],
  };
  ctx.store.insert("users", user);
  // As the service does on every creation (sign-up, server create, OAuth, anonymous).
  grantDefaultProjectPermissions(ctx.store, project, user.id);
  if (o.email) {
    ctx.store.insert("contactChannels", {
      id: randomId(),
      project_id: project.id,
      user_id: user.id,
      type: "email",
      value: o.email,
      is_verified: o.emailVerified ?? false,
      is_primary: true,
      used_for_auth: emailAuth,
    });
  }
  return user;
}

/** Password rules of the service: 8 to 70 characters. */
export function checkPasswordRules(password: string): void {
  if (password.length < 8) throw fail("PASSWORD_TOO_SHORT", { min_length: 8 });
  if (password.length > 70) throw fail("PASSWORD_TOO_LONG", { maxLength: 70 });
}

/**
 * A callback URL the service will mail must be on a trusted domain of the
 * project (or localhost, when the project allows it): REDIRECT_URL_NOT_WHITELISTED otherwise.
 */
export function checkCallbackUrl(project: ProjectRecord, url: string): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw fail("REDIRECT_URL_NOT_WHITELISTED");
  }
  const local = parsed.hostname === "localhost" || parsed.hostname === "127.0.0.1" || parsed.hostname.endsWith(".localhost");
  if (local && project.config.allow_localhost) return;
  const trusted = project.config.domains.some(({ domain }) => {
    try {
      return new URL(domain).origin === parsed.origin;
    } catch {
      return false;
    }
  });
  if (!trusted) throw fail("REDIRECT_URL_NOT_WHITELISTED");
}

/** The codes the service mails (MFA attempt codes and passkey challenges are answered, never mailed). */
type MailedKind = Exclude<CodeKind, "mfa_attempt" | "passkey_registration" | "passkey_authentication">;

/** The Handlebars variable of the link in each kind's template (the service's names). */
const LINK_VARIABLE: Record<MailedKind, string> = {
  email_verification: "emailVerificationLink",
  password_reset: "passwordResetLink",
  magic_link: "magicLink",
  team_invitation: "teamInvitationLink",
};

/** How long each kind of code lives, as the service sets it. */
export const CODE_LIFETIME_MS: Record<CodeKind, number> = {
  mfa_attempt: 5 * 60 * 1000,
  // A passkey challenge lives for the ceremony's timeout (60 s) and 5 s more.
  passkey_registration: 65 * 1000,
  passkey_authentication: 65 * 1000,
  email_verification: 7 * 24 * 3600 * 1000,
  password_reset: 24 * 3600 * 1000,
  magic_link: 10 * 60 * 1000,
  team_invitation: 7 * 24 * 3600 * 1000,
};

/** Issues a code of `kind` for `to`, mails it as a link to `callbackUrl`, and returns the code. */
export function mailCode(
  ctx: EmulatorContext,
  project: ProjectRecord,
  o: { readonly kind: MailedKind; readonly to: string; readonly callbackUrl: string; readonly data: Readonly<Record<string, unknown>> },
): string {
  const code = ctx.issueCode({
    projectId: project.id,
    kind: o.kind,
    recipient: o.to,
    callbackUrl: o.callbackUrl,
    lifetimeMs: CODE_LIFETIME_MS[o.kind],
    data: o.data,
  });
  const record = ctx.store.code(code);
  // Rendered from the project's template of that kind (its own, or the service's default).
  const user = typeof o.data["user_id"] === "string" ? ctx.store.user(o.data["user_id"]) : undefined;
  const team = typeof o.data["team_id"] === "string" ? ctx.store.team(o.data["team_id"]) : undefined;
  sendTemplatedEmail(ctx, project, o.kind, o.to, {
    [LINK_VARIABLE[o.kind]]: record?.link ?? o.callbackUrl,
    userDisplayName: user?.display_name ?? null,
    teamDisplayName: team?.display_name ?? null,
    otp: code.slice(0, 6).toUpperCase(),
  });
  return code;
}

/**
 * Redeems a code of `kind`: VERIFICATION_CODE_NOT_FOUND, _EXPIRED or
 * _ALREADY_USED as the service answers; `consume: false` only checks it.
 */
export function redeemCode(ctx: EmulatorContext, project: ProjectRecord, kind: CodeKind, code: string, consume = true) {
  const record = ctx.store.code(code);
  if (!record || record.kind !== kind || record.project_id !== project.id) throw fail("VERIFICATION_CODE_NOT_FOUND");
  if (record.expires_at_millis <= ctx.now()) throw fail("VERIFICATION_CODE_EXPIRED");
  if (record.used_at_millis !== null) throw fail("VERIFICATION_CODE_ALREADY_USED");
  if (consume) ctx.store.markCodeUsed(record.code, ctx.now());
  return record;
}

/**
 * With `create_team_on_sign_up`, the service gives every new user (sign-up or
 * server-created) a team of their own and selects it: "<name>'s Team" after the
 * display name, else the primary e-mail, else "Personal Team"; the user is its
 * creator, with the project's team-creator default permissions.
 */
export function createPersonalTeamIfEnabled(ctx: EmulatorContext, project: ProjectRecord, user: UserRecord): void {
  if (!project.config.create_team_on_sign_up) return;
  const email = ctx.store.channelsOf(user.id).find((channel) => channel.is_primary)?.value ?? null;
  const name = user.display_name ? `${user.display_name}'s Team` : email ? `${email}'s Team` : "Personal Team";
  const team = {
    id: randomId(),
    project_id: project.id,
    display_name: name,
    profile_image_url: null,
    client_metadata: null,
    client_read_only_metadata: null,
    server_metadata: null,
    created_at_millis: ctx.now(),
  };
  ctx.store.insert("teams", team);
  ctx.store.insert("memberships", {
    project_id: project.id,
    team_id: team.id,
    user_id: user.id,
    display_name: null,
    profile_image_url: null,
  });
  for (const { id } of project.config.team_creator_default_permissions) {
    ctx.store.insert("grants", { project_id: project.id, scope: "team", team_id: team.id, user_id: user.id, permission_id: id });
  }
  ctx.store.updateUser(user.id, { selected_team_id: team.id });
}
