// The token cookies' names and values (wire contract §7), as pure functions
// shared by the browser cookie store and the server's request stores.
//
// The official SDKs keep the refresh token under two sets of names
// (service-versions §4):
// - up to 2.8.48 (2.8.11 among them): `stack-refresh-<projectId>`,
//   the plain token, and before that `stack-refresh` for every project;
// - from 2.8.49 (November 2025): JSON `{"refresh_token", "updated_at_millis"}` in
//   `stack-refresh-<projectId>--default` (`__Host-stack-refresh-<projectId>--default`
//   on https) and, for a custom cookie domain, in
//   `stack-refresh-<projectId>--custom-<Crockford base32 of the domain>` set on
//   that domain. These SDKs still read the plain names first, and delete them
//   whenever they write.
// `stack-access` is the same for both.
//
// Reading follows the current official SDK: `stack-refresh-<projectId>`, then
// `stack-refresh`, then of the JSON cookies (`stack-refresh-<projectId>--…`,
// with or without `__Host-`) the one with the greatest `updated_at_millis`
// (none counts as oldest; on a tie the first in the cookie header wins). An older
// SDK that writes the plain cookie is thus read even under an older JSON one,
// and a current SDK that wrote JSON has deleted the plain cookie.
//
// Writing: a new refresh token goes to both `stack-refresh-<projectId>` (the only
// name an older SDK reads) and `--default` (what current SDKs write, so the session
// stays when a later SDK stops reading the plain name); a `--custom-` cookie gets
// the new token on its own domain, so sibling subdomains follow as with the
// official SDK; every other refresh cookie of the project, and `stack-refresh`,
// is deleted. Sign-out deletes every one of them. An access-token refresh leaves
// the refresh cookies as they are and rewrites `stack-access` only.

import { ACCESS_COOKIE_MAX_AGE_S, REFRESH_COOKIE_MAX_AGE_S } from "../../constants.js";
import { usableToken } from "./check.js";
import type { TokenPair } from "./store.js";
import { serialize as serializeCookie } from "cookie";

/** Cookies by name, decoded, as parseCookie returns them. */
export type CookieJar = Record<string, string | undefined>;

export const ACCESS_COOKIE = "stack-access";
/** Written by older versions for every project alike; read only when the per-project cookie is absent. */
export const LEGACY_REFRESH_COOKIE = "stack-refresh";
const HOST = "__Host-";
const BASE32 = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/** The plain refresh cookie. Cookies are per host, not per port, so it carries the project id. */
export function refreshCookieName(projectId: string): string {
  return `stack-refresh-${projectId}`;
}

/** The JSON refresh cookie current official SDKs write: `__Host-` prefixed on https, which requires Secure, Path=/ and no Domain. */
export function defaultRefreshCookieName(projectId: string, secure: boolean): string {
  return `${secure ? HOST : ""}${refreshCookieName(projectId)}--default`;
}

/** True for the project's JSON refresh cookies: `--default`, `--custom-…`, with or without `__Host-`. */
function isJsonRefreshCookie(name: string, projectId: string): boolean {
  const prefix = `${refreshCookieName(projectId)}--`;
  return name.startsWith(prefix) || name.startsWith(HOST + prefix);
}

/**
 * The domain a `--custom-<base32>` refresh cookie lives on, decoded from its
 * name; undefined for any other name, or when the decoded text is no plain
 * lower-case host name (it then cannot be put in a Domain attribute).
 */
export function customCookieDomain(name: string): string | undefined {
  const code = /^stack-refresh-.+--custom-([\dA-HJKMNP-TV-Z]+)$/.exec(name)?.[1] ?? "";
  let domain = "";
  let bits = 0;
  let value = 0;
  for (const char of code) {
    value = (value << 5) | BASE32.indexOf(char);
    bits += 5;
    if (bits > 7) domain += String.fromCharCode((value >> (bits -= 8)) & 255);
  }
  return /^[a-z\d]([a-z\d-]{0,61}[a-z\d])?(\.[a-z\d]([a-z\d-]{0,61}[a-z\d])?)+$/.test(domain) ? domain : undefined;
}

/** The token and `updated_at_millis` (-Infinity when absent) of a JSON refresh cookie; null when it holds no usable token. */
function jsonRefresh(value: string | undefined): [string, number] | null {
  try {
    const data = JSON.parse(value as string);
    const token = usableToken(data?.refresh_token);
    return token === null ? null : [token, typeof data.updated_at_millis === "number" ? data.updated_at_millis : -Infinity];
  } catch {
    return null;
  }
}

/** The refresh token the official SDK's reading rule finds (see the top of this file), the plain cookies tried being `plain`. */
function readRefresh(cookies: CookieJar, projectId: string, plain: readonly string[]): string | null {
  for (const name of plain) {
    const token = usableToken(cookies[name]);
    if (token !== null) return token;
  }
  let found: [string, number] | null = null;
  for (const name in cookies) {
    const entry = isJsonRefreshCookie(name, projectId) ? jsonRefresh(cookies[name]) : null;
    if (entry !== null && (found === null || entry[1] > found[1])) found = entry;
  }
  return found && found[0];
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
 * The tokens the cookies hold for `projectId`, whichever official SDK version
 * wrote them (see the top of this file for which cookie wins). A cookie whose
 * value cannot be a token (the string "undefined", an empty value, a character
 * a header cannot carry, a JSON cookie without `refresh_token`, a `stack-access`
 * that is not a pair of tokens) reads as absent: the cookies are the browser's,
 * and whatever they hold must not lock anyone out. Never throws.
 */
export function readTokenCookies(cookies: CookieJar, projectId: string): TokenPair {
  const refreshToken = readRefresh(cookies, projectId, [refreshCookieName(projectId), LEGACY_REFRESH_COOKIE]);
  const accessToken = decodeAccessPair(cookies[ACCESS_COOKIE], refreshToken);
  return { refreshToken, accessToken };
}

/**
 * The names of the plain token cookies present whose values can never be read
 * (readTokenCookies reads them as absent), for the cookie store to delete. A
 * well-formed `stack-access` pair of another project's refresh token is not
 * among them: that cookie is shared by every project on the host. A JSON refresh
 * cookie that cannot be read is left to the next write, as the official SDK does.
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

/** One token cookie to write: its name and new (decoded) value, or null to delete it. */
export type CookieWrite = readonly [name: string, value: string | null];

/**
 * The attributes of a token cookie write: Path=/, SameSite=Lax, Secure on https
 * (and always for `__Host-`), the lifetime of §7, and the Domain of a
 * `--custom-` cookie. A deletion has Max-Age 0 and a past Expires, for the
 * browsers that ignore Max-Age.
 */
export function tokenCookieOptions(name: string, value: string | null, secure: boolean) {
  const domain = customCookieDomain(name);
  return {
    maxAge: value === null ? 0 : name === ACCESS_COOKIE ? ACCESS_COOKIE_MAX_AGE_S : REFRESH_COOKIE_MAX_AGE_S,
    ...(domain !== undefined && { domain }),
    path: "/" as const,
    ...(value === null && { expires: new Date(0) }),
    secure: secure || name.startsWith(HOST),
    sameSite: "lax" as const,
  };
}

/** The `document.cookie` assignment (or `Set-Cookie` value) of `write`. */
export function tokenCookieLine([name, value]: CookieWrite, secure: boolean): string {
  return serializeCookie(name, value ?? "", tokenCookieOptions(name, value, secure));
}

/**
 * The writes that make `cookies` hold `tokens`, and only those (see the top of
 * this file): the refresh cookies change only when the refresh token they give
 * is not the one wanted, and a cookie that already has the wanted value is not
 * rewritten. An access token without a refresh token is not written (see
 * decodeAccessPair). `now` is the JSON cookies' `updated_at_millis`.
 */
export function tokenCookieWrites(
  cookies: CookieJar,
  tokens: TokenPair,
  projectId: string,
  secure: boolean,
  now = Date.now(),
): CookieWrite[] {
  const { refreshToken, accessToken } = tokens;
  const writes: CookieWrite[] = [];
  const plain = refreshCookieName(projectId);
  const main = defaultRefreshCookieName(projectId, secure);
  // The project's own cookies already giving the token: only a leftover `stack-refresh` goes.
  if (refreshToken !== null && readRefresh(cookies, projectId, [plain]) === refreshToken) {
    if (cookies[LEGACY_REFRESH_COOKIE] !== undefined) writes.push([LEGACY_REFRESH_COOKIE, null]);
  } else {
    const json = refreshToken && JSON.stringify({ refresh_token: refreshToken, updated_at_millis: now });
    if (refreshToken !== null) writes.push([plain, refreshToken], [main, json]);
    for (const name in cookies) {
      if (name !== LEGACY_REFRESH_COOKIE && name !== plain && !isJsonRefreshCookie(name, projectId)) continue;
      if (refreshToken === null) writes.push([name, null]);
      else if (name !== plain && name !== main) writes.push([name, customCookieDomain(name) ? json : null]);
    }
  }
  const pair = refreshToken !== null && accessToken !== null ? encodeAccessPair(refreshToken, accessToken) : null;
  if (cookies[ACCESS_COOKIE] !== (pair ?? undefined)) writes.push([ACCESS_COOKIE, pair]);
  return writes;
}
