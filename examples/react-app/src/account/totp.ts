// Two-factor setup with @oslojs/otp (RFC 6238: HMAC-SHA1, 30-second steps, six
// digits, as the service verifies them) and a QR code of the otpauth:// URI
// drawn by `qrcode`. The code the user types is checked here, against the new
// secret, before the secret is saved: a mistyped setup must not lock anyone out.
import { createTOTPKeyURI, verifyTOTPWithGracePeriod } from "@oslojs/otp";
import type { QRCodeToStringOptions } from "qrcode";

export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_DIGITS = 6;

/** How the QR code is drawn; the browser test draws the URI with the same options and compares. */
export const QR_OPTIONS = { type: "svg", margin: 1, errorCorrectionLevel: "M" } as const satisfies QRCodeToStringOptions;

/** A new secret: 20 random bytes (160 bits), as authenticator apps expect for SHA-1. */
export function newTotpSecret(): Uint8Array {
  return crypto.getRandomValues(new Uint8Array(20));
}

/** The otpauth:// URI authenticator apps scan: the secret, its issuer and account, the algorithm, digits and period. */
export function otpauthUri(secret: Uint8Array, account: string, issuer: string): string {
  return createTOTPKeyURI(issuer, account, secret, TOTP_PERIOD_SECONDS, TOTP_DIGITS);
}

/** The secret as a person types it into an app (the URI's base32 `secret`), in groups of four. */
export function typedSecret(uri: string): string {
  const secret = new URL(uri).searchParams.get("secret") ?? "";
  return secret.replace(/(.{4})/g, "$1 ").trim();
}

/** Whether `code` is the secret's code now, or one step before or after (the device's clock may drift). */
export function verifyTotp(secret: Uint8Array, code: string): boolean {
  const digits = code.replace(/\s+/g, "");
  return /^\d{6}$/.test(digits) && verifyTOTPWithGracePeriod(secret, TOTP_PERIOD_SECONDS, TOTP_DIGITS, digits, TOTP_PERIOD_SECONDS);
}

/** The QR code of `text` as an SVG data URL, for an <img>. The QR library is loaded when a setup first needs it. */
export async function qrCodeDataUrl(text: string): Promise<string> {
  const QRCode = (await import("qrcode")).default;
  const svg = await QRCode.toString(text, QR_OPTIONS);
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}
