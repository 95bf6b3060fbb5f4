// E-mail and password: sign-up (upgrading an anonymous user), sign-in, the
// password-reset e-mail and its code, changing and setting the signed-in
// user's password. Checks run in the service's order, so that a request with
// several faults gets the error the service gives.
import { assessBotChallenge, requireVisibleChallengePassed, type BotChallengeFields } from "../engine/bot-challenge.js";
import type { EmulatorRequest, Handlers } from "../engine/context.js";
import { fail, schemaError, statusFailure } from "../engine/errors.js";
import { requestCountryCode } from "../engine/sign-up-country.js";
import type { ProjectRecord } from "../engine/store.js";
import { hashPassword } from "../engine/tokens.js";
import {
  checkEmailField,
  checkSignInEmail,
  mfaRequired,
  passwordMatches,
  redeem,
  requiresMfa,
  signedInUser,
  signInTokens,
  upgradeAnonymousUser,
} from "./auth-shared.js";
import { checkCallbackUrl, checkPasswordRules, createPersonalTeamIfEnabled, createUserRecord, mailCode } from "./common.js";
import { admitSignUp } from "./sign-up-rules.js";

/** Whether the project trusts `url` as a callback (what checkCallbackUrl refuses is not). */
function isTrustedUrl(project: ProjectRecord, url: string): boolean {
  try {
    checkCallbackUrl(project, url);
    return true;
  } catch {
    return false;
  }
}

function requireCredential(project: ProjectRecord): void {
  if (!project.config.credential_enabled) throw fail("PASSWORD_AUTHENTICATION_NOT_ENABLED");
}

/** The longest password the service's schemas take (both versions' passwordSchema). */
const MAX_PASSWORD_LENGTH = 70;

/**
 * What the service's schema finds wrong with the password fields of a body, in yup's words: a password longer than
 * it takes is a schema problem, before any handler could call it PASSWORD_TOO_LONG.
 */
function passwordProblems(fields: Readonly<Record<string, unknown>>): string[] {
  return Object.entries(fields).flatMap(([name, value]) =>
    typeof value === "string" && value.length > MAX_PASSWORD_LENGTH
      ? [`body.${name} must be at most ${MAX_PASSWORD_LENGTH} characters`]
      : [],
  );
}

/** SCHEMA_ERROR for the password fields of a body, when one is too long. */
function checkPasswordFields(request: EmulatorRequest, fields: Readonly<Record<string, unknown>>): void {
  const problems = passwordProblems(fields);
  if (problems.length > 0) throw schemaError(request, ...problems);
}

/** What send-reset-code answers whether or not someone signs in with the address (it reveals nothing). */
const RESET_CODE_SENT = { success: "maybe, only if user with e-mail exists" } as const;

export const passwordHandlers = {
  async signUpWithPassword(request, ctx) {
    const { project } = request;
    const {
      email,
      password,
      verification_callback_url: callbackUrl,
      ...challenge
    } = request.body as { email: string; password: string; verification_callback_url?: string } & BotChallengeFields;
    checkEmailField(request, email);
    const lenient = ctx.profile.signUpVerificationUrl === "required-lenient";
    // One schema error lists every problem, the e-mail's first.
    const problems = [
      ...checkSignInEmail(email),
      ...passwordProblems({ password }),
      ...(lenient && callbackUrl === undefined ? ["body.verification_callback_url must be defined"] : []),
    ];
    if (problems.length > 0) throw schemaError(request, ...problems);
    requireCredential(project);
    // 2.8.86 refuses an untrusted URL; 2.8.11 signs up and only the e-mail (sent afterwards) fails.
    if (callbackUrl !== undefined && !lenient) checkCallbackUrl(project, callbackUrl);
    if (!project.config.sign_up_enabled) throw fail("SIGN_UP_NOT_ENABLED");
    checkPasswordRules(password);
    if (ctx.profile.botChallenge) requireVisibleChallengePassed(assessBotChallenge(request, challenge, "sign_up_with_credential"));
    // The rules come before the e-mail is checked for a user who has it already.
    const admitted = admitSignUp(ctx, project, {
      email,
      authMethod: "password",
      oauthProvider: null,
      requestCountry: requestCountryCode(ctx.profile, request.headers),
    });

    let user = request.user;
    if (user?.is_anonymous && ctx.profile.upgradesAnonymousUsers) {
      // Signing up while signed in as an anonymous user upgrades that user (2.8.86).
      await upgradeAnonymousUser(ctx, project, user, { email, emailVerified: false, password });
    } else {
      user = await createUserRecord(ctx, project, { email, emailVerified: false, emailAuth: true, password });
      createPersonalTeamIfEnabled(ctx, project, user);
    }
    admitted(user);

    if (callbackUrl !== undefined && isTrustedUrl(project, callbackUrl)) {
      mailCode(ctx, project, { kind: "email_verification", to: email, callbackUrl, data: { user_id: user.id, email } });
    }
    if (requiresMfa(user)) throw mfaRequired(ctx, project, user, true);
    return { body: await signInTokens(ctx, user) };
  },

  async signInWithPassword(request, ctx) {
    const { project } = request;
    const { email, password } = request.body as { email: string; password: string };
    checkEmailField(request, email);
    checkPasswordFields(request, { password });
    requireCredential(project);
    const channel = ctx.store.authChannelByEmail(project.id, email);
    const user = channel ? ctx.store.user(channel.user_id) : undefined;
    // Unknown e-mail and wrong password are one answer, so that it reveals nothing.
    if (!user || !(await passwordMatches(password, user.password_hash))) throw fail("EMAIL_PASSWORD_MISMATCH");
    if (requiresMfa(user)) throw mfaRequired(ctx, project, user, false);
    return { body: await signInTokens(ctx, user) };
  },

  sendPasswordResetCode(request, ctx) {
    const { project } = request;
    const { email, callback_url: callbackUrl } = request.body as { email: string; callback_url: string };
    checkEmailField(request, email);
    requireCredential(project);
    const channel = ctx.store.authChannelByEmail(project.id, email);
    const user = channel ? ctx.store.user(channel.user_id) : undefined;
    // The service answers the same for an unknown address (after a random delay), without checking the URL or mailing.
    if (!user) return { body: RESET_CODE_SENT };
    checkCallbackUrl(project, callbackUrl);
    mailCode(ctx, project, { kind: "password_reset", to: email, callbackUrl, data: { user_id: user.id } });
    return { body: RESET_CODE_SENT };
  },

  checkPasswordResetCode(request, ctx) {
    redeem(request, ctx, "password_reset", (request.body as { code: string }).code, false);
    return { body: { is_code_valid: true } };
  },

  async resetPassword(request, ctx) {
    const { project } = request;
    const { code, password } = request.body as { code: string; password: string };
    checkPasswordFields(request, { password });
    // Past the schema, the code is used up before the password rules are looked at: a refused password spends it all the same.
    const record = redeem(request, ctx, "password_reset", code, true);
    requireCredential(project);
    checkPasswordRules(password);
    const user = ctx.store.user(String(record.data["user_id"]));
    if (!user || user.project_id !== project.id) throw fail("USER_NOT_FOUND");
    ctx.store.updateUser(user.id, { password_hash: await hashPassword(password) });
    return { body: { success: true } };
  },

  async updatePassword(request, ctx) {
    const user = signedInUser(request);
    const { project } = request;
    const { old_password: oldPassword, new_password: newPassword } = request.body as { old_password: string; new_password: string };
    checkPasswordFields(request, { old_password: oldPassword, new_password: newPassword });
    requireCredential(project);
    checkPasswordRules(newPassword);
    if (user.password_hash === null) throw fail("USER_DOES_NOT_HAVE_PASSWORD");
    if (!(await passwordMatches(oldPassword, user.password_hash))) throw fail("PASSWORD_CONFIRMATION_MISMATCH");
    ctx.store.updateUser(user.id, { password_hash: await hashPassword(newPassword) });
    // Every other session ends; the one whose refresh token came along stays (without one, all end).
    const keep = request.headers.get("x-stack-refresh-token");
    ctx.store.deleteSessionsOf(user.id, (session) => session.refresh_token === keep);
    return { body: { success: true } };
  },

  async setPassword(request, ctx) {
    const user = signedInUser(request);
    const { password } = request.body as { password: string };
    checkPasswordFields(request, { password });
    requireCredential(request.project);
    checkPasswordRules(password);
    if (user.password_hash !== null) throw statusFailure(400, "User already has a password set.");
    ctx.store.updateUser(user.id, { password_hash: await hashPassword(password) });
    return { body: { success: true } };
  },
} satisfies Handlers;
