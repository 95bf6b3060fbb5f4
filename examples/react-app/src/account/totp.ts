// Just enough TOTP (RFC 6238: HMAC-SHA1, 30-second steps, six digits) to check
// that the user's authenticator app holds the new secret before it is switched
// on, so nobody locks themselves out with a mistyped setup.

const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/** A new secret: 20 random bytes, as authenticator apps expect. */
export function newTotpSecret(): Uint8Array {
  return crypto.getRandomValues(new Uint8Array(20));
}

/** The secret as authenticator apps take it when typed in. */
export function base32(bytes: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let out = "";
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

/** The otpauth:// link a QR code would carry. */
export function otpauthUri(secret: Uint8Array, account: string, issuer: string): string {
  const label = encodeURIComponent(`${issuer}:${account}`);
  return `otpauth://totp/${label}?secret=${base32(secret)}&issuer=${encodeURIComponent(issuer)}&algorithm=SHA1&digits=6&period=30`;
}

async function codeAt(secret: Uint8Array, step: number): Promise<string> {
  const counter = new DataView(new ArrayBuffer(8));
  counter.setUint32(0, Math.floor(step / 2 ** 32));
  counter.setUint32(4, step >>> 0);
  const key = await crypto.subtle.importKey("raw", Uint8Array.from(secret), { name: "HMAC", hash: "SHA-1" }, false, ["sign"]);
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, counter.buffer));
  const offset = mac[mac.length - 1]! & 15;
  const binary = ((mac[offset]! & 0x7f) << 24) | (mac[offset + 1]! << 16) | (mac[offset + 2]! << 8) | mac[offset + 3]!;
  return String(binary % 1_000_000).padStart(6, "0");
}

/** Whether `code` is the secret's code now, or one step before or after (clock drift). */
export async function verifyTotp(secret: Uint8Array, code: string, now = Date.now()): Promise<boolean> {
  const step = Math.floor(now / 30_000);
  for (const drift of [0, -1, 1]) if ((await codeAt(secret, step + drift)) === code.trim()) return true;
  return false;
}
