// Server code's token store, built from the incoming request of the
// developer's own backend (wire contract §8): `x-stack-auth` first, the token
// cookies otherwise.

import { parse } from "cookie";
import { StackConfigurationError } from "../errors.js";
import { assertUsableTokens } from "./check.js";
import { readTokenCookies } from "./cookie-format.js";
import { createMemoryTokenStore } from "./memory.js";
import type { StoredTokens, TokenStore } from "./store.js";

/** Anything with request headers: a fetch `Request`, a framework's request, `{ headers: new Headers(…) }`. */
export interface RequestLike {
  readonly headers: { get(name: string): string | null };
}

// Messages say what is wrong with the header, never what it contains: it holds tokens.
function invalidHeader(reason: string): StackConfigurationError {
  return new StackConfigurationError(`Invalid x-stack-auth header: ${reason}`);
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return `a ${typeof value}`;
}

function headerToken(header: Record<string, unknown>, key: "accessToken" | "refreshToken"): string | null {
  const value = header[key];
  if (value === undefined || value === null || value === "") return null;
  if (typeof value !== "string") throw invalidHeader(`${key} must be a string or null, got ${describe(value)}.`);
  return value;
}

/** The tokens of an `x-stack-auth` header value. */
export function parseStackAuthHeader(value: string): StoredTokens {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    // The SyntaxError is left out (also as `cause`): V8 quotes the input in it.
    throw invalidHeader("it is not valid JSON.");
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw invalidHeader(`expected a JSON object, got ${describe(parsed)}.`);
  }
  const header = parsed as Record<string, unknown>;
  const tokens = { accessToken: headerToken(header, "accessToken"), refreshToken: headerToken(header, "refreshToken") };
  assertUsableTokens(tokens, "the x-stack-auth header");
  return tokens;
}

/** The tokens a request carries. */
export function readRequestTokens(request: RequestLike, projectId: string): StoredTokens {
  const header = request.headers.get("x-stack-auth");
  if (header !== null) return parseStackAuthHeader(header);
  return readTokenCookies(parse(request.headers.get("cookie") ?? ""), projectId);
}

/**
 * A store holding the request's tokens. The request is read once, here, so a
 * malformed header fails when the store is made. A request cannot be written
 * back, so `set()` keeps new tokens (a refreshed access token) in memory for
 * the life of the store.
 */
export function createRequestTokenStore(request: RequestLike, projectId: string): TokenStore {
  return createMemoryTokenStore(readRequestTokens(request, projectId));
}
