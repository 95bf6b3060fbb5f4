// The official SDK's token cookies, as its versions write and read them (facts
// from the published packages @stackframe/js 2.8.77, 2.8.102 and 2.8.108,
// dist/lib/stack-app/apps/implementations/client-app-impl.js and dist/lib/cookie.js,
// and from the 2.8.11 source; shared/reference/service-versions.md §4 and §6),
// and a browser cookie jar that keeps cookies by name, domain and path and
// applies the attribute rules these cookies depend on (Secure, Domain, the
// `__Host-` prefix, expiry). Small re-statements for tests: the official code
// itself is not used.

import { parse as parseCookie } from "cookie";
import type { TokenPair } from "../../runtime/sessions/tokens/store.js";

const DAY_MS = 86_400_000;
const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/** The official browser SDK writes with js-cookie 3: percent-encoding, with these characters left as they are. */
export function jsCookieValue(value: string): string {
  return encodeURIComponent(value).replace(/%(2[346BF]|3[AC-F]|40|5[BDE]|60|7[BCD])/g, decodeURIComponent);
}

/** Crockford base32 of the UTF-8 bytes, upper case, no padding: how the official SDK names a custom-domain cookie. */
export function crockfordBase32(text: string): string {
  let out = "";
  let bits = 0;
  let value = 0;
  for (const byte of new TextEncoder().encode(text)) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) out += CROCKFORD[(value >> (bits -= 5)) & 31];
  }
  return bits > 0 ? out + CROCKFORD[(value << (5 - bits)) & 31] : out;
}

/** The refresh cookie names of `projectId` across the versions: `stack-refresh-…` up to 2.8.102, `hexclave-refresh-…` in 2.8.108. */
export function names(projectId: string, stem: "stack" | "hexclave" = "stack") {
  const base = `${stem}-refresh-${projectId}`;
  return {
    plain: `stack-refresh-${projectId}`,
    default: `${base}--default`,
    hostDefault: `__Host-${base}--default`,
    custom: (domain: string) => `${base}--custom-${crockfordBase32(domain.toLowerCase())}`,
  };
}

/** The JSON every official SDK since 2.8.49 keeps in its refresh cookies. */
export function refreshJson(refreshToken: string, updatedAtMillis: number): string {
  return JSON.stringify({ refresh_token: refreshToken, updated_at_millis: updatedAtMillis });
}

type Cookies = Readonly<Record<string, string | undefined>>;

/** The access token of an access-pair value that starts with `["`, is two strings and names `refreshToken`. */
function accessOf(value: string | undefined, refreshToken: string | null): string | null {
  if (!value?.startsWith('["')) return null;
  let pair: unknown;
  try {
    pair = JSON.parse(value);
  } catch {
    return null;
  }
  if (!Array.isArray(pair) || pair.length !== 2 || typeof pair[0] !== "string" || typeof pair[1] !== "string") return null;
  return pair[0] === refreshToken ? pair[1] : null;
}

/** Of the cookies named with one of `prefixes` whose JSON has a non-empty string `refresh_token`, the first with the greatest numeric `updated_at_millis` (none below any). */
function newestJson(cookies: Cookies, prefixes: readonly string[]): string | null {
  let found: string | null = null;
  let newest = -Infinity;
  for (const [name, value] of Object.entries(cookies)) {
    if (!prefixes.some((prefix) => name.startsWith(prefix))) continue;
    let data: unknown;
    try {
      data = JSON.parse(value ?? "");
    } catch {
      continue;
    }
    if (typeof data !== "object" || data === null) continue;
    const { refresh_token: token, updated_at_millis: at } = data as { refresh_token?: unknown; updated_at_millis?: unknown };
    if (typeof token !== "string" || token === "") continue;
    const updatedAt = typeof at === "number" ? at : -Infinity;
    if (found === null || updatedAt > newest) [found, newest] = [token, updatedAt];
  }
  return found;
}

const prefixesOf = (stem: string, projectId: string) => [`${stem}-refresh-${projectId}--`, `__Host-${stem}-refresh-${projectId}--`];

/**
 * The tokens a 2.8.11 official SDK reads from decoded cookies: the plain
 * per-project cookie, else `stack-refresh`; `stack-access` when its first
 * element is that refresh token.
 */
export function readAs2811(cookies: Cookies, projectId: string): TokenPair {
  const refreshToken = cookies[`stack-refresh-${projectId}`] || cookies["stack-refresh"] || null;
  return { refreshToken, accessToken: accessOf(cookies["stack-access"], refreshToken) };
}

/**
 * The tokens a 2.8.77 or 2.8.102 official SDK reads: the plain names first (per
 * project, then `stack-refresh`); else the newest JSON cookie named
 * `stack-refresh-<id>--…` or `__Host-stack-refresh-<id>--…`; `stack-access`.
 */
export function readAs2877(cookies: Cookies, projectId: string): TokenPair {
  const refreshToken =
    cookies[`stack-refresh-${projectId}`] || cookies["stack-refresh"] || newestJson(cookies, prefixesOf("stack", projectId));
  return { refreshToken, accessToken: accessOf(cookies["stack-access"], refreshToken) };
}

/**
 * The tokens a 2.8.108 official SDK reads: the newest JSON `hexclave-refresh-<id>--…`
 * (`__Host-` or not); else the plain names; else the newest JSON of all four
 * stems; the access pair from `hexclave-access`, or `stack-access` when that is absent.
 */
export function readAs28108(cookies: Cookies, projectId: string): TokenPair {
  const legacy = prefixesOf("stack", projectId);
  const hexclave = prefixesOf("hexclave", projectId);
  const refreshToken =
    newestJson(cookies, hexclave) ||
    cookies[`stack-refresh-${projectId}`] ||
    cookies["stack-refresh"] ||
    newestJson(cookies, [...hexclave, ...legacy]);
  return { refreshToken, accessToken: accessOf(cookies["hexclave-access"] ?? cookies["stack-access"], refreshToken) };
}

/** Each official version's reading rule, by version. */
export const READERS = { "2.8.11": readAs2811, "2.8.77": readAs2877, "2.8.102": readAs2877, "2.8.108": readAs28108 } as const;

type Attributes = Record<string, string | boolean | undefined>;

/** How js-cookie writes `name=value`: `path=/` first (its default), then the attributes given, in their order, false ones left out. */
function jsCookieLine(name: string, value: string, attributes: Attributes): string {
  let line = `${name}=${jsCookieValue(value)}; path=/`;
  for (const [key, given] of Object.entries(attributes)) {
    if (given) line += given === true ? `; ${key}` : `; ${key}=${given}`;
  }
  return line;
}

/** A js-cookie `remove`: the value emptied, the attributes given, and an expiry a day back. */
function jsCookieRemove(name: string, attributes: Attributes, now: number): string {
  return jsCookieLine(name, "", { ...attributes, expires: new Date(now - DAY_MS).toUTCString() });
}

const expiresIn = (now: number, seconds: number) => new Date(now + seconds * 1000).toUTCString();

/**
 * The `document.cookie` assignments of a 2.8.11 official SDK's browser store
 * when its tokens become `tokens`: expiry only (no Secure, no SameSite), then
 * `stack-refresh` removed.
 */
export function writesOf2811(tokens: TokenPair, projectId: string, now = Date.now()): string[] {
  const { refreshToken, accessToken } = tokens;
  const name = `stack-refresh-${projectId}`;
  return [
    refreshToken === null ? jsCookieRemove(name, {}, now) : jsCookieLine(name, refreshToken, { expires: expiresIn(now, 31_536_000) }),
    accessToken === null
      ? jsCookieRemove("stack-access", {}, now)
      : jsCookieLine("stack-access", JSON.stringify([refreshToken, accessToken]), { expires: expiresIn(now, 86_400) }),
    jsCookieRemove("stack-refresh", {}, now),
  ];
}

export interface JsonWriteOptions {
  /** The page is https. */
  readonly secure: boolean;
  /** The project's trusted parent domain, when its config has `**.<domain>` (the custom-domain cookie). */
  readonly parentDomain?: string;
  readonly now?: number;
}

/**
 * The `document.cookie` assignments of a 2.8.77, 2.8.102 or 2.8.108 official
 * SDK's browser store when its tokens become `tokens`, given the (decoded)
 * cookies the page sees: the JSON `--default` cookie (`__Host-` on https) and the
 * access pair (`stack-` names up to 2.8.102, `hexclave-` names in 2.8.108), with
 * SameSite=Lax and Secure on https; every other refresh cookie it knows removed
 * (2.8.108 knows both stems; from 2.8.102 a custom one on its decoded domain
 * too); then, with a trusted parent domain, its follow-up step: the custom
 * cookie written on that domain and the default one removed. (Its removals also
 * repeat with `partitioned`, which this jar does not model.)
 */
export function writesOfJson(
  version: "2.8.77" | "2.8.102" | "2.8.108",
  seen: Cookies,
  tokens: TokenPair,
  projectId: string,
  options: JsonWriteOptions,
): string[] {
  const { refreshToken, accessToken } = tokens;
  const { secure } = options;
  const now = options.now ?? Date.now();
  const stem = version === "2.8.108" ? "hexclave" : "stack";
  const n = names(projectId, stem);
  const access = `${stem}-access`;
  const main = secure ? n.hostDefault : n.default;
  const json = refreshToken === null ? null : refreshJson(refreshToken, now);
  const lines = [
    json === null
      ? jsCookieRemove(main, { secure }, now)
      : jsCookieLine(main, json, { expires: expiresIn(now, 31_536_000), secure, sameSite: "Lax" }),
    refreshToken !== null && accessToken !== null
      ? jsCookieLine(access, JSON.stringify([refreshToken, accessToken]), { expires: expiresIn(now, 86_400), secure, sameSite: "Lax" })
      : jsCookieRemove(access, { secure }, now),
  ];
  const prefixes =
    version === "2.8.108" ? [...prefixesOf("hexclave", projectId), ...prefixesOf("stack", projectId)] : prefixesOf("stack", projectId);
  const stale = [n.plain, "stack-refresh"].filter((name) => seen[name]);
  for (const name of Object.keys(seen)) if (prefixes.some((prefix) => name.startsWith(prefix))) stale.push(name);
  for (const name of new Set(stale)) {
    if (name === main) continue;
    const code = /^(?:stack|hexclave)-refresh-.+--custom-(.+)$/.exec(name)?.[1];
    const domain = code === undefined || version === "2.8.77" ? undefined : decodeCrockford(code);
    if (domain !== undefined) lines.push(jsCookieRemove(name, { domain, secure }, now));
    lines.push(jsCookieRemove(name, { secure }, now));
  }
  if (options.parentDomain !== undefined) {
    const custom = n.custom(options.parentDomain);
    lines.push(
      json === null
        ? jsCookieRemove(custom, { domain: options.parentDomain, secure }, now)
        : jsCookieLine(custom, json, { expires: expiresIn(now, 31_536_000), domain: options.parentDomain, secure, sameSite: "Lax" }),
      jsCookieRemove(main, { secure }, now),
    );
  }
  return lines;
}

function decodeCrockford(code: string): string | undefined {
  const bytes: number[] = [];
  let bits = 0;
  let value = 0;
  for (const char of code) {
    const index = CROCKFORD.indexOf(char.toUpperCase());
    if (index < 0) return undefined;
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) bytes.push((value >> (bits -= 8)) & 255);
  }
  return new TextDecoder().decode(new Uint8Array(bytes));
}

/** One cookie as a browser keeps it. */
export interface StoredCookie {
  readonly name: string;
  readonly value: string;
  /** The host it was set by (host-only), or the Domain attribute. */
  readonly domain: string;
  readonly hostOnly: boolean;
  readonly secure: boolean;
  readonly path: string;
}

/**
 * A browser's cookies across the hosts of one site: `document.cookie` of a page
 * (`page(href)`), the `Cookie` header of a request (`header(href)`), and the
 * `Set-Cookie` lines of a response (`receive(href, lines)`). A cookie is keyed by
 * name, domain and path; an assignment the browser would refuse is dropped
 * (Secure from http, a Domain the host is not in, `__Host-` without Secure or
 * Path=/ or with a Domain), and one with Max-Age ≤ 0 or a past Expires deletes.
 * Replacing a cookie keeps its place, as browsers keep its creation time.
 */
export function browserCookies() {
  const stored: StoredCookie[] = [];
  const refused: string[] = [];

  const visible = (href: string) => {
    const url = new URL(href);
    const host = url.hostname;
    return stored.filter(
      (c) =>
        (c.hostOnly ? host === c.domain : host === c.domain || host.endsWith(`.${c.domain}`)) && (!c.secure || url.protocol === "https:"),
    );
  };

  const apply = (href: string, line: string): void => {
    const url = new URL(href);
    const [pair = "", ...parts] = line.split(";").map((part) => part.trim());
    const at = pair.indexOf("=");
    const name = pair.slice(0, at);
    const value = pair.slice(at + 1);
    const attributes = new Map<string, string>();
    for (const part of parts) {
      const eq = part.indexOf("=");
      attributes.set((eq < 0 ? part : part.slice(0, eq)).toLowerCase(), eq < 0 ? "" : part.slice(eq + 1));
    }
    const secure = attributes.has("secure");
    const domainAttribute = attributes.get("domain")?.replace(/^\./, "").toLowerCase();
    const path = attributes.get("path") ?? "/";
    const host = url.hostname;
    const refuse =
      (secure && url.protocol !== "https:") ||
      (domainAttribute !== undefined && host !== domainAttribute && !host.endsWith(`.${domainAttribute}`)) ||
      (name.startsWith("__Host-") && (!secure || domainAttribute !== undefined || attributes.get("path") !== "/"));
    if (refuse) {
      refused.push(line);
      return;
    }
    const domain = domainAttribute ?? host;
    const hostOnly = domainAttribute === undefined;
    const index = stored.findIndex((c) => c.name === name && c.domain === domain && c.hostOnly === hostOnly && c.path === path);
    const maxAge = attributes.get("max-age");
    const expires = attributes.get("expires");
    const gone = maxAge !== undefined ? Number(maxAge) <= 0 : expires !== undefined && Date.parse(expires) <= Date.now();
    if (gone) {
      if (index >= 0) stored.splice(index, 1);
      return;
    }
    const cookie: StoredCookie = { name, value, domain, hostOnly, secure, path };
    if (index >= 0) stored[index] = cookie;
    else stored.push(cookie);
  };

  const header = (href: string): string =>
    visible(href)
      .map((c) => `${c.name}=${c.value}`)
      .join("; ");

  return {
    stored,
    refused,
    /** The page at `href`: its `document` (a CookieDocument that records assignments) and `location`. */
    page(href: string) {
      const writes: string[] = [];
      const document = {
        get cookie() {
          return header(href);
        },
        set cookie(line: string) {
          writes.push(line);
          apply(href, line);
        },
      };
      return { document, location: { protocol: new URL(href).protocol }, writes };
    },
    /** The `Cookie` header of a request to `href` (values as stored, still encoded). */
    header,
    /** The cookies a page at `href` sees, decoded as js-cookie and the `cookie` package decode them (first of a name wins). */
    decoded(href: string): Record<string, string> {
      const out: Record<string, string> = {};
      for (const c of visible(href)) if (!(c.name in out)) out[c.name] = decodeURIComponent(c.value);
      return out;
    },
    /** Applies a response's `Set-Cookie` lines, as a browser does for a request to `href`. */
    receive(href: string, lines: readonly string[]): void {
      for (const line of lines) apply(href, line);
    },
  };
}

/** The official versions whose cookies the tests write and read. */
export type OfficialVersion = keyof typeof READERS;

/**
 * A page of the official SDK `version` at `href` in `browser` whose tokens
 * become `tokens`: its assignments applied to the cookies that page sees.
 */
export function officialPage(
  browser: ReturnType<typeof browserCookies>,
  href: string,
  version: OfficialVersion,
  tokens: TokenPair,
  projectId: string,
  parentDomain?: string,
): void {
  const { document } = browser.page(href);
  const seen = parseCookie(document.cookie);
  const lines =
    version === "2.8.11"
      ? writesOf2811(tokens, projectId)
      : writesOfJson(version, seen, tokens, projectId, {
          secure: href.startsWith("https:"),
          ...(parentDomain !== undefined && { parentDomain }),
        });
  for (const line of lines) document.cookie = line;
}
