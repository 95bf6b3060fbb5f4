// What an OAuth sign-in run on testEnvironment sends: its randomBytes count up from 0, so the
// first flow's PKCE verifier is bytes 0-31 and its state bytes 32-47 (base64url), and the
// authorize navigation carries them in the query of wire contract §6.
import { createHash } from "node:crypto";

export const b64url = (bytes: number[]) => Buffer.from(bytes).toString("base64url");
export const range = (from: number, count: number) => Array.from({ length: count }, (_, i) => (from + i) % 256);

export const VERIFIER = b64url(range(0, 32));
export const STATE = b64url(range(32, 16));
export const CHALLENGE = createHash("sha256").update(VERIFIER).digest("base64url");

/** The first flow's authorize query, in its order, for project proj-1 (key pck-1) on https://app.example.com. */
export const AUTHORIZE_QUERY: readonly (readonly [string, string])[] = [
  ["client_id", "proj-1"],
  ["client_secret", "pck-1"],
  ["redirect_uri", "https://app.example.com/handler/oauth-callback"],
  ["scope", "legacy"],
  ["state", STATE],
  ["grant_type", "authorization_code"],
  ["code_challenge", CHALLENGE],
  ["code_challenge_method", "S256"],
  ["response_type", "code"],
  ["type", "authenticate"],
  ["error_redirect_url", "https://app.example.com/handler/error"],
];
