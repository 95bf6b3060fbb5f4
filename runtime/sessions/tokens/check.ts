// What counts as a token, for every token that enters a store, whatever its source.
//
// A token is a non-empty string of visible ASCII (0x21–0x7E: no space, no control
// character, nothing above U+007E) that is not the literal "undefined" or "null".
// Real tokens (JWTs, the service's random refresh tokens) always are. Anything
// else cannot be one: the literals are what `${process.env.X}` or String(x) give
// for a missing value (SPEC §5, wire contract §4), and a value that is not a
// valid HTTP header value makes `new Headers()` throw a TypeError that quotes it
// when it is put into `x-stack-access-token`.
//
// Two ways to deal with such a value, by where it comes from:
// - Tokens the developer gives in code (an explicit `{ accessToken, refreshToken }`
//   store, the initial tokens of a memory store, a store's `set()`) are checked
//   with `assertUsableTokens`: a bad one is a bug in the app, reported at once as
//   a StackConfigurationError (SPEC §5: rejected at construction).
// - Tokens read from storage or from a request (cookies, the `x-stack-auth`
//   header of the app's own backend, whatever a custom store's `get()` returns)
//   go through `usableTokens`: a stale browser or an attacker controls them, so a
//   bad one reads as absent, never as an error, and never reaches the wire.
// An empty string is "no token" on both ways.

import { StackConfigurationError } from "../../errors.js";
import { NO_TOKENS, type TokenPair } from "./store.js";

const TOKEN_CHARACTERS = /^[\x21-\x7e]+$/;

/** Why `token` cannot be a token, or null when it can. Never quotes the token. */
function tokenProblem(token: string): string | null {
  if (token === "undefined") return 'is the string "undefined", usually an environment variable that is not set';
  if (token === "null") return 'is the string "null", usually a missing value turned into text';
  if (!TOKEN_CHARACTERS.test(token)) {
    return "holds a character that a token cannot have (tokens are visible ASCII without spaces, as HTTP headers need)";
  }
  return null;
}

/** `value` when it is a usable token; null for anything else, an empty string included. */
export function usableToken(value: unknown): string | null {
  return typeof value === "string" && value !== "" && tokenProblem(value) === null ? value : null;
}

/** True when `value` is a token that may be sent. */
export function isUsableToken(value: unknown): value is string {
  return usableToken(value) !== null;
}

/**
 * The usable part of stored tokens (see the top of this file): an unusable
 * access token reads as absent and the refresh token stays (it can get a new
 * one); an unusable refresh token takes its access token with it, as the
 * `stack-access` cookie does, since that token belongs to the broken session.
 * Anything that is not a token pair at all reads as no tokens.
 */
export function usableTokens(tokens: unknown): TokenPair {
  if (typeof tokens !== "object" || tokens === null) return NO_TOKENS;
  const { refreshToken: rawRefresh, accessToken: rawAccess } = tokens as { refreshToken?: unknown; accessToken?: unknown };
  const refreshToken = usableToken(rawRefresh);
  if (refreshToken === null && rawRefresh !== null && rawRefresh !== undefined && rawRefresh !== "") return NO_TOKENS;
  const accessToken = usableToken(rawAccess);
  if (refreshToken === null && accessToken === null) return NO_TOKENS;
  return { refreshToken, accessToken };
}

/**
 * Rejects tokens given in code that cannot be tokens (see the top of this file)
 * with a StackConfigurationError that says what is wrong without quoting them,
 * and returns the pair with empty strings read as null.
 */
export function assertUsableTokens(tokens: TokenPair, source: string): TokenPair {
  for (const kind of ["refresh", "access"] as const) {
    const token = kind === "refresh" ? tokens.refreshToken : tokens.accessToken;
    if (token === null || token === "") continue;
    const problem = typeof token === "string" ? tokenProblem(token) : `is a ${typeof token}, not a string`;
    if (problem !== null) {
      throw new StackConfigurationError(`The ${kind} token from ${source} ${problem}. Pass null when there is no ${kind} token.`);
    }
  }
  const refreshToken = tokens.refreshToken === "" ? null : tokens.refreshToken;
  const accessToken = tokens.accessToken === "" ? null : tokens.accessToken;
  return refreshToken === tokens.refreshToken && accessToken === tokens.accessToken ? tokens : { refreshToken, accessToken };
}
