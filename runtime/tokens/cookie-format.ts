// The token cookies' names and values (wire contract §7), as pure functions
// shared by the browser cookie store and the server's request store.

import { ACCESS_COOKIE_MAX_AGE_S, REFRESH_COOKIE_MAX_AGE_S, usableToken, type TokenPair, serializeCookie } from "../core.js";

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
 * The two elements of a `stack-access` value, or null when it is not a JSON
 * `[refreshToken, accessToken]` pair of usable tokens (check.ts).
 */
function accessPairOf(value: string): readonly [string, string] | null {
  let pair: unknown;
  try {
    pair = JSON.parse(value);
  } catch {
    return null;
  }
  if (!Array.isArray(pair) || pair.length !== 2) return null;
  const [owner, accessToken] = (pair as unknown[]).map(usableToken);
  return owner && accessToken ? [owner, accessToken] : null;
}

/**
 * The access token of a `stack-access` value, or null when the value is
 * malformed or pairs the token with another refresh token. A pair without a
 * refresh token is never used: nothing would tie it to this project.
 */
export function decodeAccessPair(value: string | undefined, refreshToken: string | null): string | null {
  if (value === undefined || refreshToken === null) return null;
  const pair = accessPairOf(value);
  return pair !== null && pair[0] === refreshToken ? pair[1] : null;
}

/**
 * The tokens the cookies hold for `projectId`. A cookie whose value cannot be a
 * token (the string "undefined", an empty value, a character a header cannot
 * carry, a `stack-access` that is not a pair of tokens) reads as absent: the
 * cookies are the browser's, and whatever they hold must not lock anyone out.
 * Never throws.
 */
export function readTokenCookies(cookies: CookieJar, projectId: string): TokenPair {
  const refreshToken = usableToken(cookies[refreshCookieName(projectId)]) ?? usableToken(cookies[LEGACY_REFRESH_COOKIE]);
  const accessToken = decodeAccessPair(cookies[ACCESS_COOKIE], refreshToken);
  return { refreshToken, accessToken };
}

/**
 * The names of the token cookies present whose values can never be read
 * (readTokenCookies reads them as absent), for the cookie store to delete. A
 * well-formed `stack-access` pair of another project's refresh token is not
 * among them: that cookie is shared by every project on the host.
 */
export function unusableTokenCookies(cookies: CookieJar, projectId: string): string[] {
  const names: string[] = [];
  for (const name of [refreshCookieName(projectId), LEGACY_REFRESH_COOKIE]) {
    const value = cookies[name];
    if (value !== undefined && usableToken(value) === null) names.push(name);
  }
  const access = cookies[ACCESS_COOKIE];
  if (access !== undefined && accessPairOf(access) === null) names.push(ACCESS_COOKIE);
  return names;
}

export interface CookieAttributes {
  /** Set on https pages so the cookies never travel in clear text. */
  readonly secure: boolean;
}

function write(name: string, value: string, maxAge: number, attributes: CookieAttributes): string {
  return serializeCookie(name, value, { path: "/", sameSite: "lax", secure: attributes.secure, maxAge });
}

/** The `document.cookie` assignment that deletes the cookie `name`. */
export function removeCookie(name: string, attributes: CookieAttributes): string {
  // Max-Age=0 for current browsers, a past Expires for those that ignore Max-Age.
  return serializeCookie(name, "", { path: "/", sameSite: "lax", secure: attributes.secure, maxAge: 0, expires: new Date(0) });
}

/**
 * The `document.cookie` assignments that make `cookies` hold `tokens`, and
 * only those: a cookie that already has the wanted value is not rewritten.
 * An access token without a refresh token is not written (see decodeAccessPair).
 */
export function tokenCookieWrites(cookies: CookieJar, tokens: TokenPair, projectId: string, attributes: CookieAttributes): string[] {
  const writes: string[] = [];
  const name = refreshCookieName(projectId);
  const { refreshToken, accessToken } = tokens;
  if (refreshToken === null) {
    if (cookies[name] !== undefined) writes.push(removeCookie(name, attributes));
  } else if (cookies[name] !== refreshToken) {
    writes.push(write(name, refreshToken, REFRESH_COOKIE_MAX_AGE_S, attributes));
  }
  if (cookies[LEGACY_REFRESH_COOKIE] !== undefined) writes.push(removeCookie(LEGACY_REFRESH_COOKIE, attributes));
  const pair = refreshToken !== null && accessToken !== null ? encodeAccessPair(refreshToken, accessToken) : null;
  if (pair === null) {
    if (cookies[ACCESS_COOKIE] !== undefined) writes.push(removeCookie(ACCESS_COOKIE, attributes));
  } else if (cookies[ACCESS_COOKIE] !== pair) {
    writes.push(write(ACCESS_COOKIE, pair, ACCESS_COOKIE_MAX_AGE_S, attributes));
  }
  return writes;
}
