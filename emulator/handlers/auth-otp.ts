// Magic link / one-time code (`/auth/otp/*`) and anonymous sign-up. The
// e-mail carries a link with the 45-character code and the code's first six
// characters, upper-cased, as the one-time code; the rest is the nonce the send
// call answers. A user is created when the code is redeemed, not when it is sent.
import {
  assessBotChallenge,
  requireVisibleChallengePassed,
  type BotChallengeAssessment,
  type BotChallengeFields,
} from "../engine/bot-challenge.js";
import type { EmulatorContext, Handlers } from "../engine/context.js";
import { fail, statusFailure } from "../engine/errors.js";
import { allowsAnonymousSignUp } from "../engine/profile.js";
import { requestCountryCode } from "../engine/sign-up-country.js";
import type { ProjectRecord, UserRecord } from "../engine/store.js";
import { anonymousCaller, checkEmailField, mfaRequired, redeem, requiresMfa, signInTokens, upgradeAnonymousUser } from "./auth-shared.js";
import { checkCallbackUrl, CODE_LIFETIME_MS, createPersonalTeamIfEnabled, createUserRecord, emailTaken } from "./common.js";
import { sendTemplatedEmail } from "./admin-email.js";
import { admitSignUp } from "./sign-up-rules.js";

/**
 * The user a magic link for `email` signs in, as the service decides it: one
 * whose verified e-mail it is (who thereby gets one-time-code sign-in), or
 * nobody yet (null) when sign-up is open. An unverified address of a user is
 * USER_EMAIL_ALREADY_EXISTS; no user and sign-up closed is SIGN_UP_NOT_ENABLED.
 */
function userForMagicLink(ctx: EmulatorContext, project: ProjectRecord, email: string): UserRecord | null {
  const channel = ctx.store.authChannelByEmail(project.id, email);
  const user = channel ? ctx.store.user(channel.user_id) : undefined;
  if (channel && user) {
    // Verifying the address would let the magic link in (2.8.86 says so).
    if (!channel.is_verified) throw emailTaken(ctx, channel.value, true);
    ctx.store.updateUser(user.id, { otp_auth_enabled: true });
    return user;
  }
  if (!project.config.sign_up_enabled) throw fail("SIGN_UP_NOT_ENABLED");
  return null;
}

/** The newest `@stackframe/stack` that signs in by the magic link alone (2.8.11 mails it no one-time code). */
const LAST_LINK_ONLY_SDK = [2, 5, 37] as const;

/**
 * Whether `x-stack-client-version` names `@stackframe/stack` at LAST_LINK_ONLY_SDK or older: `<platform>
 * <sdk>@<version>`, a word, white space, a scoped name, and a version of digits and dots, which must be a strict
 * semantic version (no leading zeros) to count.
 */
function isLinkOnlySdk(header: string | null): boolean {
  const match = /^\w+\s+(@[\w/]+)@([\d.]+)$/.exec(header ?? "");
  if (match?.[1] !== "@stackframe/stack") return false;
  const strict = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$/.exec(match[2] ?? "");
  const parts = strict?.slice(1).map(Number);
  if (parts === undefined || !parts.every(Number.isSafeInteger)) return false;
  const [major = 0, minor = 0, patch = 0] = parts;
  const [lastMajor, lastMinor, lastPatch] = LAST_LINK_ONLY_SDK;
  if (major !== lastMajor) return major < lastMajor;
  return minor !== lastMinor ? minor < lastMinor : patch <= lastPatch;
}

/**
 * Issues the code and mails the link and the one-time code, as the service's magic-link template does (`linkOnly`:
 * the template's first content, the link alone).
 */
function mailMagicLink(
  ctx: EmulatorContext,
  project: ProjectRecord,
  email: string,
  callbackUrl: string,
  botChallenge: BotChallengeAssessment | undefined,
  linkOnly: boolean,
  country: string | null,
): string {
  const code = ctx.issueCode({
    projectId: project.id,
    kind: "magic_link",
    recipient: email,
    callbackUrl,
    lifetimeMs: CODE_LIFETIME_MS.magic_link,
    // A new user signs up from where the e-mail was asked for, not from where the code is redeemed.
    data: {
      ...(botChallenge === undefined ? {} : { bot_challenge: botChallenge }),
      ...(country === null ? {} : { sign_up_country_code: country }),
    },
  });
  const link = ctx.store.code(code)?.link ?? callbackUrl;
  const otp = code.slice(0, 6).toUpperCase();
  sendTemplatedEmail(ctx, project, "magic_link", email, { magicLink: link, otp }, linkOnly ? 1 : 2);
  return code;
}

export const otpHandlers = {
  sendMagicLinkCode(request, ctx) {
    const { project } = request;
    const { email, callback_url: callbackUrl, ...challenge } = request.body as { email: string; callback_url: string } & BotChallengeFields;
    checkEmailField(request, email);
    if (!project.config.magic_link_enabled) throw statusFailure(403, ctx.profile.magicLinkDisabledText);
    userForMagicLink(ctx, project, email);
    const botChallenge = ctx.profile.botChallenge ? assessBotChallenge(request, challenge, "send_magic_link_email") : undefined;
    checkCallbackUrl(project, callbackUrl);
    const linkOnly = ctx.profile.linkOnlyMagicLinkForOldSdks && isLinkOnlySdk(request.headers.get("x-stack-client-version"));
    const country = ctx.profile.signUpRisk ? requestCountryCode(ctx.profile, request.headers) : null;
    const code = mailMagicLink(ctx, project, email, callbackUrl, botChallenge, linkOnly, country);
    return { body: { nonce: code.slice(6) } };
  },

  // The code stays usable and no user is made: the service's check-code route only looks the code up.
  checkMagicLinkCode(request, ctx) {
    redeem(request, ctx, "magic_link", (request.body as { code: string }).code, false);
    return { body: { is_code_valid: true } };
  },

  async signInWithMagicLink(request, ctx) {
    const { project } = request;
    const record = redeem(request, ctx, "magic_link", (request.body as { code: string }).code, true);
    let user = userForMagicLink(ctx, project, record.recipient);
    const isNewUser = user === null;
    // A new user signs up with the challenge the e-mail was sent with.
    const botChallenge = record.data["bot_challenge"] as BotChallengeAssessment | undefined;
    if (isNewUser && botChallenge !== undefined) requireVisibleChallengePassed(botChallenge);
    const anonymous = user === null && ctx.profile.upgradesAnonymousUsers ? await anonymousCaller(request, ctx) : null;
    // Only a new user signs up; the code is spent whatever the rules decide.
    const admitted =
      user === null
        ? admitSignUp(ctx, project, {
            email: record.recipient,
            authMethod: "otp",
            oauthProvider: null,
            requestCountry: (record.data["sign_up_country_code"] as string | undefined) ?? null,
          })
        : undefined;
    if (anonymous) {
      // A new user's magic link redeemed in an anonymous session upgrades that user (2.8.86).
      user = anonymous;
      await upgradeAnonymousUser(ctx, project, user, { email: record.recipient, emailVerified: true });
      ctx.store.updateUser(user.id, { otp_auth_enabled: true });
    } else if (user === null) {
      // A magic link proves the address: the new user's e-mail is verified.
      user = await createUserRecord(ctx, project, { email: record.recipient, emailVerified: true, emailAuth: true });
      ctx.store.updateUser(user.id, { otp_auth_enabled: true });
      createPersonalTeamIfEnabled(ctx, project, user);
    }
    admitted?.(user);
    if (requiresMfa(user)) throw mfaRequired(ctx, project, user, isNewUser);
    return { body: { ...(await signInTokens(ctx, user)), is_new_user: isNewUser } };
  },

  async signUpAnonymously(request, ctx) {
    // Allowed even when sign-up is closed, as the service does; on 2.8.11 only on its three projects.
    if (!allowsAnonymousSignUp(ctx.profile, request.project.id)) throw fail("ANONYMOUS_ACCOUNTS_NOT_ENABLED");
    const user = await createUserRecord(ctx, request.project, { isAnonymous: true, displayName: ctx.profile.anonymousDisplayName });
    createPersonalTeamIfEnabled(ctx, request.project, user);
    return { body: await signInTokens(ctx, user) };
  },
} satisfies Handlers;
