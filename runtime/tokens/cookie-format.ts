// The token cookies' names and values (wire contract §7), as pure functions
// shared by the browser cookie store and the server's request store.

import { serialize } from "cookie";
import { ACCESS_COOKIE_MAX_AGE_S, REFRESH_COOKIE_MAX_AGE_S } from "../constants.js";
import { assertUsableTokens } from "./check.js";
import type { StoredTokens } from "./store.js";

/** Cookies by name, as `cookie`'s `parse` returns them. */
export type CookieJar = Record<string, string | undefined>;

export const ACCESS_COOKIE = "stack-access";
/** Written by older versions for every project alike; read only when the per-project cookie is absent. */
export const LEGACY_REFRESH_COOKIE = "stack-refresh";

/** Cookies are per host, not per port, so the refresh cookie carries the project id. */
export function refreshCookieName(projectId: string): string {
  return `stack-refresh-${projectId}`;
}

/** `stack-access` holds `[refreshToken, accessToken]`: it is shared by all projects on the host, so the pair says whose it is. */
export function encodeAccessPair(refreshToken: string, accessToken: string): string {
  return JSON.stringify([refreshToken, accessToken]);
}

/**
 * The access token of a `stack-access` value, or null when the value is
 * malformed or pairs the token with another refresh token. A pair without a
 * refresh token is never used: nothing would tie it to this project.
 */
export function decodeAccessPair(value: string | undefined, refreshToken: string | null): string | null {
  if (value === undefined || refreshToken === null) return null;
  let pair: unknown;
  try {
    pair = JSON.parse(value);
  } catch {
    return null;
  }
  if (!Array.isArray(pair) || pair.length !== 2) return null;
  const [owner, accessToken] = pair as unknown[];
  if (owner !== refreshToken || typeof accessToken !== "string" || accessToken === "") return null;
  return accessToken;
}

function present(value: string | undefined): string | null {
  return value === undefined || value === "" ? null : value;
}

/** The tokens the cookies hold for `projectId`. Throws only for a token that is the string "undefined". */
export function readTokenCookies(cookies: CookieJar, projectId: string): StoredTokens {
  const name = refreshCookieName(projectId);
  const own = present(cookies[name]);
  const refreshToken = own ?? present(cookies[LEGACY_REFRESH_COOKIE]);
  const source = own !== null ? `the "${name}" cookie` : `the "${LEGACY_REFRESH_COOKIE}" cookie`;
  assertUsableTokens({ refreshToken, accessToken: null }, source);
  const accessToken = decodeAccessPair(cookies[ACCESS_COOKIE], refreshToken);
  assertUsableTokens({ refreshToken, accessToken }, `the "${ACCESS_COOKIE}" cookie`);
  return { refreshToken, accessToken };
}

export interface CookieAttributes {
  /** Set on https pages so the cookies never travel in clear text. */
  readonly secure: boolean;
}

function write(name: string, value: string, maxAge: number, attributes: CookieAttributes): string {
  return serialize(name, value, { path: "/", sameSite: "lax", secure: attributes.secure, maxAge });
}

function remove(name: string, attributes: CookieAttributes): string {
  // Max-Age=0 for current browsers, a past Expires for those that ignore Max-Age.
  return serialize(name, "", { path: "/", sameSite: "lax", secure: attributes.secure, maxAge: 0, expires: new Date(0) });
}

/**
 * The `document.cookie` assignments that make `cookies` hold `tokens`, and
 * only those: a cookie that already has the wanted value is not rewritten.
 * An access token without a refresh token is not written (see decodeAccessPair).
 */
export function tokenCookieWrites(
  cookies: CookieJar,
  tokens: StoredTokens,
  projectId: string,
  attributes: CookieAttributes,
): string[] {
  const writes: string[] = [];
  const name = refreshCookieName(projectId);
  const { refreshToken, accessToken } = tokens;
  if (refreshToken === null) {
    if (cookies[name] !== undefined) writes.push(remove(name, attributes));
  } else if (cookies[name] !== refreshToken) {
    writes.push(write(name, refreshToken, REFRESH_COOKIE_MAX_AGE_S, attributes));
  }
  if (cookies[LEGACY_REFRESH_COOKIE] !== undefined) writes.push(remove(LEGACY_REFRESH_COOKIE, attributes));
  const pair = refreshToken !== null && accessToken !== null ? encodeAccessPair(refreshToken, accessToken) : null;
  if (pair === null) {
    if (cookies[ACCESS_COOKIE] !== undefined) writes.push(remove(ACCESS_COOKIE, attributes));
  } else if (cookies[ACCESS_COOKIE] !== pair) {
    writes.push(write(ACCESS_COOKIE, pair, ACCESS_COOKIE_MAX_AGE_S, attributes));
  }
  return writes;
}
