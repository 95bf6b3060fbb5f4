// The official SDK's token cookies, as its two generations write and read them
// (facts from its source: packages/template/src/lib/stack-app/apps/implementations/
// client-app-impl.ts and packages/template/src/lib/cookie.ts, at 2.8.11 and at
// 2.8.86; shared/reference/service-versions.md §4), and a browser cookie jar that
// keeps cookies by name, domain and path and applies the attribute rules these
// cookies depend on (Secure, Domain, the `__Host-` prefix, expiry). Small
// re-statements for tests: the official code itself is not used.

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

/** The refresh cookie names of `projectId` across the versions. */
export function names(projectId: string) {
  return {
    plain: `stack-refresh-${projectId}`,
    default: `stack-refresh-${projectId}--default`,
    hostDefault: `__Host-stack-refresh-${projectId}--default`,
    custom: (domain: string) => `stack-refresh-${projectId}--custom-${crockfordBase32(domain.toLowerCase())}`,
  };
}

/** The JSON a current official SDK keeps in its refresh cookies. */
export function refreshJson(refreshToken: string, updatedAtMillis: number): string {
  return JSON.stringify({ refresh_token: refreshToken, updated_at_millis: updatedAtMillis });
}

function accessOf(cookies: Readonly<Record<string, string | undefined>>, refreshToken: string | null): string | null {
  const value = cookies["stack-access"];
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

/**
 * The tokens a 2.8.11 official SDK reads from decoded cookies: the plain
 * per-project cookie, else `stack-refresh`; `stack-access` when its first
 * element is that refresh token.
 */
export function readAs2811(cookies: Readonly<Record<string, string | undefined>>, projectId: string): TokenPair {
  const refreshToken = cookies[`stack-refresh-${projectId}`] || cookies["stack-refresh"] || null;
  return { refreshToken, accessToken: accessOf(cookies, refreshToken) };
}

/**
 * The tokens a current official SDK reads: the plain names first (per project,
 * then `stack-refresh`); else, of the cookies named `stack-refresh-<id>--…` or
 * `__Host-stack-refresh-<id>--…` whose JSON object has a string `refresh_token`,
 * the first with the greatest numeric `updated_at_millis` (none below any).
 */
export function readAsCurrent(cookies: Readonly<Record<string, string | undefined>>, projectId: string): TokenPair {
  let refreshToken = cookies[`stack-refresh-${projectId}`] || cookies["stack-refresh"] || null;
  if (refreshToken === null) {
    let newest = -Infinity;
    for (const [name, value] of Object.entries(cookies)) {
      if (!name.startsWith(`stack-refresh-${projectId}--`) && !name.startsWith(`__Host-stack-refresh-${projectId}--`)) continue;
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
      if (refreshToken === null || updatedAt > newest) [refreshToken, newest] = [token, updatedAt];
    }
  }
  return { refreshToken, accessToken: accessOf(cookies, refreshToken) };
}

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

export interface CurrentWriteOptions {
  /** The page is https. */
  readonly secure: boolean;
  /** The project's trusted parent domain, when its config has `**.<domain>` (the custom-domain cookie). */
  readonly parentDomain?: string;
  readonly now?: number;
}

/**
 * The `document.cookie` assignments of a current official SDK's browser store
 * when its tokens become `tokens`, given the (decoded) cookies the page sees:
 * the JSON `--default` cookie (`__Host-` on https) and `stack-access`, with
 * SameSite=Lax and Secure on https; every other refresh cookie it knows
 * removed (a custom one on its domain too); then, with a trusted parent domain,
 * its follow-up step: the custom cookie written on that domain and the default
 * one removed. (Its removals also repeat with `partitioned`, which this jar
 * does not model.)
 */
export function writesOfCurrent(
  seen: Readonly<Record<string, string | undefined>>,
  tokens: TokenPair,
  projectId: string,
  options: CurrentWriteOptions,
): string[] {
  const { refreshToken, accessToken } = tokens;
  const { secure } = options;
  const now = options.now ?? Date.now();
  const n = names(projectId);
  const main = secure ? n.hostDefault : n.default;
  const json = refreshToken === null ? null : refreshJson(refreshToken, now);
  const lines = [
    json === null
      ? jsCookieRemove(main, { secure }, now)
      : jsCookieLine(main, json, { expires: expiresIn(now, 31_536_000), secure, sameSite: "Lax" }),
    refreshToken !== null && accessToken !== null
      ? jsCookieLine("stack-access", JSON.stringify([refreshToken, accessToken]), {
          expires: expiresIn(now, 86_400),
          secure,
          sameSite: "Lax",
        })
      : jsCookieRemove("stack-access", { secure }, now),
  ];
  const stale = [n.plain, "stack-refresh"].filter((name) => seen[name]);
  for (const name of Object.keys(seen)) if (name.startsWith(`${n.plain}--`) || name.startsWith(`__Host-${n.plain}--`)) stale.push(name);
  for (const name of new Set(stale)) {
    if (name === main) continue;
    const domain = name.startsWith(`${n.plain}--custom-`) ? decodeCrockford(name.slice(`${n.plain}--custom-`.length)) : undefined;
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
