// PKCE and state for the OAuth flows (wire contract §6, §15), and the cookie
// that keeps each flow's verifier until the callback: one cookie per flow,
// named by its state, so two tabs signing in at once do not overwrite each other.
import type { Browser } from "../../platform/browser.js";
import { OAUTH_VERIFIER_COOKIE_MAX_AGE_S } from "../../constants.js";
import type { Environment } from "../../platform/env.js";
import { StackConfigurationError } from "../../errors.js";
import { parse as parseCookie, serialize as serializeCookie } from "cookie";

/** 32 bytes give a 43-character verifier, the shortest RFC 7636 allows, with 256 random bits. */
const VERIFIER_BYTES = 32;
/** 128 random bits, the floor of wire contract §15. */
const STATE_BYTES = 16;
const COOKIE_PREFIX = "stack-oauth-outer-";

/**
 * What we generate (and so what a callback may carry): base64url only. A state
 * from the address bar becomes part of a cookie name, so anything else (`;`, `=`,
 * spaces) is refused rather than written into `document.cookie`.
 */
const STATE_PATTERN = /^[A-Za-z0-9_-]{22,128}$/;

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/** Base64url without padding (RFC 4648 §5), without relying on Buffer or btoa. */
export function base64url(bytes: Uint8Array): string {
  let out = "";
  for (let i = 0; i < bytes.length; i += 3) {
    const a = bytes[i]!;
    const b = bytes[i + 1];
    const c = bytes[i + 2];
    out += ALPHABET[a >> 2]!;
    out += ALPHABET[((a & 0x03) << 4) | ((b ?? 0) >> 4)]!;
    if (b !== undefined) out += ALPHABET[((b & 0x0f) << 2) | ((c ?? 0) >> 6)]!;
    if (c !== undefined) out += ALPHABET[c & 0x3f]!;
  }
  return out;
}

export interface PkcePair {
  readonly verifier: string;
  readonly state: string;
}

/** A fresh verifier and state, from the environment's cryptographic randomness. */
export function createPkcePair(env: Pick<Environment, "randomBytes">): PkcePair {
  return { verifier: base64url(env.randomBytes(VERIFIER_BYTES)), state: base64url(env.randomBytes(STATE_BYTES)) };
}

/** base64url(SHA-256(verifier)): the S256 challenge. */
export async function pkceChallenge(verifier: string): Promise<string> {
  const subtle = (globalThis as { crypto?: { subtle?: SubtleCrypto } }).crypto?.subtle;
  if (subtle === undefined) {
    throw new StackConfigurationError(
      "OAuth sign-in needs WebCrypto (crypto.subtle) for its PKCE challenge. Browsers offer it only in secure contexts: " +
        "serve the app over https, or open it at http://localhost during development.",
    );
  }
  const digest = await subtle.digest("SHA-256", new TextEncoder().encode(verifier));
  return base64url(new Uint8Array(digest));
}

/** True when `state` has the shape of a state this library made. */
export function isWellFormedState(state: string): boolean {
  return STATE_PATTERN.test(state);
}

export function verifierCookieName(state: string): string {
  return `${COOKIE_PREFIX}${state}`;
}

// Script-set cookies cannot be HttpOnly; the rest of §15 applies: Path=/, SameSite=Lax, Secure on https.
function attributes(browser: Browser) {
  return { path: "/", sameSite: "lax" as const, secure: browser.location.protocol === "https:" };
}

/** Keeps the verifier of the flow `state` for an hour. */
export function saveVerifier(browser: Browser, pair: PkcePair): void {
  browser.document.cookie = serializeCookie(verifierCookieName(pair.state), pair.verifier, {
    ...attributes(browser),
    maxAge: OAUTH_VERIFIER_COOKIE_MAX_AGE_S,
  });
}

/**
 * Reads and deletes the verifier of the flow `state`, synchronously, so that a
 * second handler running on the same page finds nothing. Null when this
 * browser started no such flow (or it expired, or was already used).
 */
export function consumeVerifier(browser: Browser, state: string): string | null {
  if (!isWellFormedState(state)) return null;
  const name = verifierCookieName(state);
  const verifier = parseCookie(browser.document.cookie)[name];
  if (verifier === undefined || verifier === "") return null;
  // Max-Age=0 for current browsers, a past Expires for those that ignore Max-Age.
  browser.document.cookie = serializeCookie(name, "", { ...attributes(browser), maxAge: 0, expires: new Date(0) });
  return verifier;
}
