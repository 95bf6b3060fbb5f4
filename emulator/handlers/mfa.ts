// The TOTP step of a sign-in (wire contract §10): a sign-in of a user with a
// TOTP secret answered MULTI_FACTOR_AUTHENTICATION_REQUIRED with an attempt
// code (auth-shared.ts `mfaRequired`); POST /auth/mfa/sign-in redeems it with
// the six digits of the user's authenticator app. The code is checked as RFC
// 6238 TOTP (HMAC-SHA1, 30-second steps, 6 digits) at the emulator's clock, in
// the current step only: the service verifies without a grace period.
import { verifyHOTP } from "@oslojs/otp";
import type { Handlers } from "../engine/context.js";
import { fail, statusFailure } from "../engine/errors.js";
import { MFA_ATTEMPT_KIND, redeem, signInTokens } from "./auth-shared.js";

/** The TOTP step, as the service sets it. */
export const TOTP_PERIOD_MS = 30_000;
const TOTP_DIGITS = 6;

/** The bytes of a secret kept as base64 (the wire's `totp_secret_base64`). */
export function totpSecretBytes(base64: string): Uint8Array {
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
}

/** Whether `totp` is the code of `secret` in the step of `nowMs`. */
export function isCurrentTotp(secret: Uint8Array, totp: string, nowMs: number): boolean {
  return verifyHOTP(secret, BigInt(Math.floor(nowMs / TOTP_PERIOD_MS)), TOTP_DIGITS, totp);
}

export const mfaHandlers = {
  async signInWithMfa(request, ctx) {
    const { totp, code } = request.body as { type: "totp"; totp: string; code: string };
    // Checked, not spent: a wrong TOTP code leaves the attempt code usable (each try counts an attempt).
    const record = redeem(request, ctx, MFA_ATTEMPT_KIND, code, false);
    const user = ctx.store.user(String(record.data["user_id"]));
    // The service has no answer of its own for these (an internal error): the user went away, or turned TOTP off, meanwhile.
    if (!user || user.project_id !== request.project.id) throw statusFailure(500, "The user of this sign-in attempt no longer exists.");
    if (user.totp_secret_base64 === null) throw statusFailure(500, "User does not have a TOTP secret");
    if (!isCurrentTotp(totpSecretBytes(user.totp_secret_base64), totp, ctx.now())) throw fail("INVALID_TOTP_CODE");
    ctx.store.markCodeUsed(record.code, ctx.now());
    return { body: { ...(await signInTokens(ctx, user)), is_new_user: record.data["is_new_user"] === true } };
  },
} satisfies Handlers;
