// Server code's token store, built from the incoming request of the
// developer's own backend (wire contract §8): `x-stack-auth` first, the token
// cookies otherwise.

import { usableTokens } from "./check.js";
import { NO_TOKENS, type TokenPair, type TokenStore } from "./store.js";
import { parse as parseCookie } from "cookie";
import { readTokenCookies } from "./cookie-format.js";
import { createMemoryTokenStore } from "./memory.js";

/** Anything with request headers: a fetch `Request`, a framework's request, `{ headers: new Headers(…) }`. */
export interface RequestLike {
  readonly headers: { get(name: string): string | null };
}

/**
 * The tokens of an `x-stack-auth` header value. The header comes from the
 * browser, so whoever controls it (a stale page, an attacker) must not make the
 * server throw: a value that is not a JSON object, or a token in it that cannot
 * be a token (check.ts), reads as absent, as if the request had no user. This
 * departs on purpose from the reference's `Invalid x-stack-auth header` error
 * (wire contract §8). Nothing of the value is ever quoted or logged.
 */
export function parseStackAuthHeader(value: string): TokenPair {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return NO_TOKENS;
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return NO_TOKENS;
  return usableTokens(parsed);
}

/**
 * The tokens a request carries: `x-stack-auth` when it is there (even when it
 * reads as no tokens: it is what the app's own frontend sent), the token
 * cookies otherwise. Never throws for what the request holds.
 */
export function readRequestTokens(request: RequestLike, projectId: string): TokenPair {
  const header = request.headers.get("x-stack-auth");
  if (header !== null) return parseStackAuthHeader(header);
  return readTokenCookies(parseCookie(request.headers.get("cookie") ?? ""), projectId);
}

/**
 * A store holding the request's tokens. The request is read once, here; what
 * cannot be read is no user (see readRequestTokens). A request cannot be written
 * back, so `set()` keeps new tokens (a refreshed access token) in memory for
 * the life of the store.
 *
 * @example
 * ```ts
 * export async function GET(request: Request) {
 *   const tokenStore = createRequestTokenStore(request, projectId);
 *   const user = await stackServerApp.getUser({ tokenStore });
 *   return Response.json({ id: user?.id ?? null });
 * }
 * ```
 */
export function createRequestTokenStore(request: RequestLike, projectId: string): TokenStore {
  return createMemoryTokenStore(readRequestTokens(request, projectId));
}
