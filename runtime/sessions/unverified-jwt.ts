// A JWT's header and claims, read without checking its signature: the client
// reads its own access token's expiry and user this way (the service checks the
// signature), and the verifier reads them to refuse a token before it fetches
// any key (jose then verifies the signature). Reading is base64url, UTF-8 and
// JSON, nothing more, so it is ours: it is on every app's first load, which
// need not carry jose.

/** A JSON object read from a token: nothing in it has been checked or can be trusted. */
export type UnverifiedJwtObject = Readonly<Record<string, unknown>>;

/** A compact JWS part (RFC 7515 §7.1): base64url, padding tolerated when it is well placed (atob checks where). */
const BASE64URL = /^[\w-]+={0,2}$/;

/** Invalid UTF-8 is refused rather than read as U+FFFD, as jose reads it. */
const utf8 = /* @__PURE__ */ new TextDecoder("utf-8", { fatal: true });

/** The claims (payload) of the compact JWS `token`, or null when it is not one whose claims are a JSON object. */
export function unverifiedJwtClaims(token: unknown): UnverifiedJwtObject | null {
  return jsonPart(token, 1);
}

/** The header of the compact JWS `token`, or null when it is not one whose header is a JSON object. */
export function unverifiedJwtHeader(token: unknown): UnverifiedJwtObject | null {
  return jsonPart(token, 0);
}

/** Part `index` of a three-part `token` as a JSON object; null for anything else (never a throw). */
function jsonPart(token: unknown, index: 0 | 1): UnverifiedJwtObject | null {
  if (typeof token !== "string") return null;
  const parts = token.split(".", 4);
  const part = parts[index];
  if (parts.length !== 3 || part === undefined || !BASE64URL.test(part)) return null;
  let value: unknown;
  try {
    const binary = atob(part.replace(/-/g, "+").replace(/_/g, "/"));
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    value = JSON.parse(utf8.decode(bytes));
  } catch {
    // Not base64 (atob's InvalidCharacterError), not UTF-8 (TypeError), or not JSON (SyntaxError).
    return null;
  }
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as UnverifiedJwtObject) : null;
}
