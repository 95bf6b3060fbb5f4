// The token cookies' names and values (wire contract §7), as pure functions
// shared by the browser cookie store and the server's request stores.
//
// The official SDKs keep the refresh token under three sets of names
// (service-versions §4 and §6):
// - up to 2.8.48 (2.8.11 among them): `stack-refresh-<projectId>`, the plain
//   token, and before that `stack-refresh` for every project;
// - 2.8.49 to 2.8.102: JSON `{"refresh_token", "updated_at_millis"}` in
//   `stack-refresh-<projectId>--default` (`__Host-…` on https) and, for a custom
//   cookie domain, `stack-refresh-<projectId>--custom-<Crockford base32 of the
//   domain>` set on that domain; they read the plain names first;
// - 2.8.108: the same JSON under `hexclave-refresh-<projectId>--…`, read before
//   every older name, and every `stack-refresh*` cookie deleted on each write.
// The access pair is `stack-access` up to 2.8.102 and `hexclave-access` in
// 2.8.108, which reads `stack-access` only when `hexclave-access` is absent.
//
// Reading follows 2.8.108: the newest `hexclave-refresh-<projectId>--…` JSON
// cookie (greatest `updated_at_millis`, none counting as oldest, the first in the
// header on a tie), else `stack-refresh-<projectId>`, else `stack-refresh`, else
// the newest `stack-refresh-<projectId>--…` JSON cookie. So a session 2.8.108
// wrote is found after its clean-up of the legacy names, and one an older SDK
// wrote is found as long as no hexclave cookie is there.
//
// Writing: a new refresh token goes to the plain `stack-refresh-<projectId>`,
// which every version reads before its legacy JSON names, and to the JSON
// `stack-refresh-<projectId>--default` (`__Host-…` on https), where the official
// SDKs since 2.8.49 keep it; the access pair goes to `stack-access`. When the
// project trusts a parent domain of the page (parent-domain.ts), the session is
// the site's, not the host's, as the official SDKs since 2.8.49 keep it: the
// refresh token goes to `stack-refresh-<projectId>--custom-<base32 of the
// domain>` set on that domain instead, and the host's own refresh cookies are
// deleted, so that no page of the site reads a token another subdomain has
// replaced (SDKs up to 2.8.48 read no such cookie). Once a 2.8.108 SDK has
// written on the site (a hexclave refresh cookie or `hexclave-access` is
// there), the token also goes to `hexclave-refresh-<projectId>--default`
// (`__Host-…` on https), or its `--custom-` twin on the parent domain, and the
// pair to `hexclave-access`, which 2.8.108 and stackkit read first. Not before:
// a hexclave cookie hides from stackkit and 2.8.108 whatever an SDK up to
// 2.8.102 writes later (its sign-out, a sign-in as someone else), as those SDKs
// neither write nor delete it; and 2.8.108 needs none, since it reads the plain
// cookie and, within one poll, copies it to its own names itself (deleting the
// legacy ones), which stackkit then reads first. Every other `--custom-` cookie
// present, of either name, gets the new token on its domain (and a legacy one
// its hexclave twin once 2.8.108 is in use), so sibling subdomains follow
// whichever SDK runs there; every other refresh cookie of the project is
// deleted. The refresh cookies are left alone while they are laid out so and
// every version reads the wanted token from them (inLayout), so an
// access-token refresh rewrites only the access pair. Sign-out deletes every
// token cookie present.

import { ACCESS_COOKIE_MAX_AGE_S, REFRESH_COOKIE_MAX_AGE_S } from "../../constants.js";
import { usableToken } from "./check.js";
import type { TokenPair } from "./store.js";
import { serialize as serializeCookie } from "cookie";

/** Cookies by name, decoded, as parseCookie returns them. */
export type CookieJar = Record<string, string | undefined>;

/** The access pair as 2.8.108 names it, read before the older name. */
export const ACCESS_COOKIE = "hexclave-access";
/** The access pair as official SDKs up to 2.8.102 name it. */
export const LEGACY_ACCESS_COOKIE = "stack-access";
const ACCESS_COOKIES = [ACCESS_COOKIE, LEGACY_ACCESS_COOKIE] as const;
/** Written by older versions for every project alike; read only when the per-project cookie is absent. */
export const LEGACY_REFRESH_COOKIE = "stack-refresh";
const HOST = "__Host-";
const BASE32 = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/** The plain refresh cookie. Cookies are per host, not per port, so it carries the project id. */
export function refreshCookieName(projectId: string): string {
  return `stack-refresh-${projectId}`;
}

/** The stem of 2.8.108's JSON refresh cookies. */
function hexclaveRefreshName(projectId: string): string {
  return `hexclave-refresh-${projectId}`;
}

/** 2.8.108's JSON refresh cookie of a host: `__Host-` prefixed on https, which requires Secure, Path=/ and no Domain. */
export function defaultRefreshCookieName(projectId: string, secure: boolean): string {
  return `${secure ? HOST : ""}${hexclaveRefreshName(projectId)}--default`;
}

/** The JSON refresh cookie of a host as the official SDKs since 2.8.49 name it: `__Host-` prefixed on https. */
export function legacyDefaultRefreshCookieName(projectId: string, secure: boolean): string {
  return `${secure ? HOST : ""}${refreshCookieName(projectId)}--default`;
}

/**
 * The JSON refresh cookie of a cross-subdomain session, set on `domain`: `<stem>--custom-` and the
 * upper-case Crockford base32 of the lower-cased domain's UTF-8 bytes, as the official SDKs name it.
 */
export function customRefreshCookieName(projectId: string, domain: string, stem: "stack" | "hexclave" = "stack"): string {
  const base = stem === "stack" ? refreshCookieName(projectId) : hexclaveRefreshName(projectId);
  let code = "";
  let bits = 0;
  let value = 0;
  for (const byte of new TextEncoder().encode(domain.toLowerCase())) {
    value = ((value << 8) | byte) & 0xfff;
    bits += 8;
    while (bits >= 5) code += BASE32[(value >> (bits -= 5)) & 31];
  }
  return `${base}--custom-${bits > 0 ? code + BASE32[(value << (5 - bits)) & 31] : code}`;
}

/** True for the project's JSON refresh cookies named after `stem`: `--default`, `--custom-…`, with or without `__Host-`. */
function isJsonRefreshCookie(name: string, stem: string): boolean {
  return name.startsWith(`${stem}--`) || name.startsWith(`${HOST}${stem}--`);
}

/** True for any refresh cookie of the project, of any version. */
function isRefreshCookie(name: string, projectId: string): boolean {
  return (
    name === LEGACY_REFRESH_COOKIE ||
    name === refreshCookieName(projectId) ||
    isJsonRefreshCookie(name, refreshCookieName(projectId)) ||
    isJsonRefreshCookie(name, hexclaveRefreshName(projectId))
  );
}

/**
 * The domain a `--custom-<base32>` refresh cookie (either name) lives on,
 * decoded from its name; undefined for any other name, or when the decoded text
 * is no plain lower-case host name (it then cannot be put in a Domain attribute).
 */
export function customCookieDomain(name: string): string | undefined {
  const code = /^(?:stack|hexclave)-refresh-.+--custom-([\dA-HJKMNP-TV-Z]+)$/.exec(name)?.[1] ?? "";
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

/** The token of the newest readable JSON refresh cookie named after `stem`; the first in `cookies` on a tie. */
function newestJson(cookies: CookieJar, stem: string): string | null {
  let found: [string, number] | null = null;
  for (const name in cookies) {
    const entry = isJsonRefreshCookie(name, stem) ? jsonRefresh(cookies[name]) : null;
    if (entry !== null && (found === null || entry[1] > found[1])) found = entry;
  }
  return found && found[0];
}

/** The refresh token 2.8.108's reading rule finds (see the top of this file). */
function readRefresh(cookies: CookieJar, projectId: string): string | null {
  const hexclave = newestJson(cookies, hexclaveRefreshName(projectId));
  if (hexclave !== null) return hexclave;
  for (const name of [refreshCookieName(projectId), LEGACY_REFRESH_COOKIE]) {
    const token = usableToken(cookies[name]);
    if (token !== null) return token;
  }
  return newestJson(cookies, refreshCookieName(projectId));
}

/** The access pair holds `[refreshToken, accessToken]`: it is shared by all projects on the host, so the pair says whose it is. */
export function encodeAccessPair(refreshToken: string, accessToken: string): string {
  return JSON.stringify([refreshToken, accessToken]);
}

/**
 * The two elements of an access-pair value, or null when it is not a JSON
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
 * The access token of an access-pair value, or null when the value is
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
 * wrote them (see the top of this file for which cookie wins). The access token
 * is that of the first of `hexclave-access`, `stack-access` whose pair names the
 * refresh token found: 2.8.108 looks at `stack-access` only when
 * `hexclave-access` is absent, but a stale `hexclave-access` beside a matching
 * `stack-access` (an older SDK wrote last) only costs it a refresh, and need
 * not cost one here. A cookie whose value cannot be a token (the string
 * "undefined", an empty value, a character a header cannot carry, a JSON cookie
 * without `refresh_token`, an access cookie that is not a pair of tokens) reads
 * as absent: the cookies are the browser's, and whatever they hold must not
 * lock anyone out. Never throws.
 */
export function readTokenCookies(cookies: CookieJar, projectId: string): TokenPair {
  const refreshToken = readRefresh(cookies, projectId);
  let accessToken: string | null = null;
  for (const name of ACCESS_COOKIES) accessToken ??= decodeAccessPair(cookies[name], refreshToken);
  return { refreshToken, accessToken };
}

/**
 * The names of the plain token cookies present whose values can never be read
 * (readTokenCookies reads them as absent), for the cookie store to delete. A
 * well-formed access pair of another project's refresh token is not among
 * them: those cookies are shared by every project on the host. A JSON refresh
 * cookie that cannot be read is left to the next write, as the official SDK does.
 */
export function unusableTokenCookies(cookies: CookieJar, projectId: string): string[] {
  const names: string[] = [];
  for (const name of [refreshCookieName(projectId), LEGACY_REFRESH_COOKIE]) {
    const value = cookies[name];
    if (value !== undefined && usableToken(value) === null) names.push(name);
  }
  for (const name of ACCESS_COOKIES) {
    const access = cookies[name];
    if (access !== undefined && accessPairOf(access) === null) names.push(name);
  }
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
  const access = (ACCESS_COOKIES as readonly string[]).includes(name);
  return {
    maxAge: value === null ? 0 : access ? ACCESS_COOKIE_MAX_AGE_S : REFRESH_COOKIE_MAX_AGE_S,
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
 * True when stackkit (and so 2.8.108) reads `refreshToken` from `cookies` and no
 * official version reads another token: 2.8.11's rule (the plain cookie) and
 * that up to 2.8.102 (the plain cookie, else the newest legacy JSON one) find it
 * or nothing. `stack-refresh` is left out, as every write deletes it. A version
 * that finds nothing is one the last writer already left behind (2.8.11 after a
 * JSON-writing SDK, any older one after 2.8.108's clean-up), and rewriting for it
 * would only be undone by that writer's next write.
 */
function readByEveryVersion(cookies: CookieJar, projectId: string, refreshToken: string): boolean {
  const own: CookieJar = { ...cookies, [LEGACY_REFRESH_COOKIE]: undefined };
  const plain = usableToken(own[refreshCookieName(projectId)]);
  const upTo28102 = plain ?? newestJson(own, refreshCookieName(projectId));
  return readRefresh(own, projectId) === refreshToken && [plain, upTo28102].every((token) => token === null || token === refreshToken);
}

/** True once a 2.8.108 SDK has written on the site: a hexclave refresh cookie of the project, or `hexclave-access`, is there. */
function hexclaveInUse(cookies: CookieJar, projectId: string): boolean {
  return Object.keys(cookies).some((name) => name === ACCESS_COOKIE || isJsonRefreshCookie(name, hexclaveRefreshName(projectId)));
}

/** True when the host keeps a refresh cookie of the project of its own: the session is not (yet) laid out for a parent domain. */
export function hasHostRefreshCookie(cookies: CookieJar, projectId: string): boolean {
  return Object.keys(cookies).some((name) => isRefreshCookie(name, projectId) && customCookieDomain(name) === undefined);
}

/** The token of a JSON refresh cookie's value, or null. */
function jsonToken(value: string | undefined): string | null {
  return jsonRefresh(value)?.[0] ?? null;
}

/**
 * True when the refresh cookies hold `refreshToken` so that they need no write (see the top of this
 * file): without a parent domain, when every version reads it (a session another version wrote
 * keeps its layout until its refresh token changes); with one, when its `--custom-` cookie holds
 * it and the host keeps no refresh cookie of its own.
 */
function inLayout(cookies: CookieJar, projectId: string, refreshToken: string, parent: string | null): boolean {
  if (parent === null) return readByEveryVersion(cookies, projectId, refreshToken);
  return (
    !hasHostRefreshCookie(cookies, projectId) &&
    jsonToken(cookies[customRefreshCookieName(projectId, parent)]) === refreshToken &&
    readRefresh(cookies, projectId) === refreshToken
  );
}

/**
 * The writes that give the refresh cookies `refreshToken` on a page whose trusted parent domain is
 * `parent` (null: none, or not known yet), or delete them all when the token is null (see the top of this file).
 */
function refreshWrites(
  cookies: CookieJar,
  refreshToken: string | null,
  projectId: string,
  secure: boolean,
  now: number,
  parent: string | null,
): CookieWrite[] {
  if (refreshToken === null)
    return Object.keys(cookies).flatMap((name) => (isRefreshCookie(name, projectId) ? [[name, null] as const] : []));
  // Laid out already: only a leftover `stack-refresh` goes, as 2.8.11's writes delete it.
  if (inLayout(cookies, projectId, refreshToken, parent)) {
    return cookies[LEGACY_REFRESH_COOKIE] === undefined ? [] : [[LEGACY_REFRESH_COOKIE, null]];
  }
  const json = JSON.stringify({ refresh_token: refreshToken, updated_at_millis: now });
  const hexclave = hexclaveInUse(cookies, projectId);
  const writes = new Map<string, string | null>();
  if (parent === null) {
    writes.set(refreshCookieName(projectId), refreshToken);
    writes.set(legacyDefaultRefreshCookieName(projectId, secure), json);
    if (hexclave) writes.set(defaultRefreshCookieName(projectId, secure), json);
  } else {
    writes.set(customRefreshCookieName(projectId, parent), json);
    if (hexclave) writes.set(customRefreshCookieName(projectId, parent, "hexclave"), json);
  }
  const legacyCustom = `${refreshCookieName(projectId)}--custom-`;
  for (const name in cookies) {
    if (writes.has(name) || !isRefreshCookie(name, projectId)) continue;
    const custom = customCookieDomain(name) !== undefined;
    writes.set(name, custom ? json : null);
    if (hexclave && custom && name.startsWith(legacyCustom)) {
      writes.set(`${hexclaveRefreshName(projectId)}--custom-${name.slice(legacyCustom.length)}`, json);
    }
  }
  return [...writes];
}

/**
 * The writes that make `cookies` hold `tokens`, and only those (see the top of
 * this file): the refresh cookies change only when they are not laid out as
 * stackkit lays them out for the page's trusted `parentDomain` (null: none, or
 * not known) or some version would not read the wanted refresh token from them,
 * and a cookie that already has the wanted value is not rewritten. An access
 * token without a refresh token is not written (see decodeAccessPair). `now` is
 * the JSON cookies' `updated_at_millis`.
 */
export function tokenCookieWrites(
  cookies: CookieJar,
  tokens: TokenPair,
  projectId: string,
  secure: boolean,
  now = Date.now(),
  parentDomain: string | null = null,
): CookieWrite[] {
  const { refreshToken, accessToken } = tokens;
  const writes = refreshWrites(cookies, refreshToken, projectId, secure, now, parentDomain);
  const pair = refreshToken !== null && accessToken !== null ? encodeAccessPair(refreshToken, accessToken) : undefined;
  if (cookies[LEGACY_ACCESS_COOKIE] !== pair) writes.push([LEGACY_ACCESS_COOKIE, pair ?? null]);
  // 2.8.108 reads `hexclave-access` whenever it is there, so one that is there must hold the pair too.
  if (hexclaveInUse(cookies, projectId) && cookies[ACCESS_COOKIE] !== pair) writes.push([ACCESS_COOKIE, pair ?? null]);
  return writes;
}
