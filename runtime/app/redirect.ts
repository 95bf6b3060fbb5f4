// Redirects (wire contract §13, §15): which targets the app may follow, how it
// navigates, and the after_auth_return_to round trip behind the reference's
// redirectTo… methods (redirect-methods.ts).
// Every target is checked before navigating even though the service checks
// email callback URLs too: an open redirect on the app's own origin is the
// app's problem, not the service's.
import { requireBrowser, type Browser } from "../platform/browser.js";
import { checkAborted, untilAborted, type CallOptions } from "./call-options.js";
import { sleep, type Environment } from "../platform/env.js";
import { StackConfigurationError } from "../errors.js";
import type { ClientAppContext, RedirectMethod } from "./context.js";
import type { HandlerUrls } from "./urls.js";

/** How long a redirect waits after navigating, so code after it does not run while the page unloads. */
export const REDIRECT_WAIT_MS = 2000;

/** The query parameter that carries the page to return to after signing in or up. */
export const AFTER_AUTH_RETURN_TO = "after_auth_return_to";

export interface RedirectAllowance {
  /** The page's origin; null outside a browser (then only trusted origins are allowed for absolute URLs). */
  readonly origin: string | null;
  readonly trustedOrigins: readonly string[];
}

// A URL never needs these raw; browsers silently drop tab/CR/LF anywhere and
// C0 controls or spaces at the ends, which turns `/\t/evil.com` into `//evil.com`.
const RAW_FORBIDDEN = /[\u0000-\u001f\u007f-\u009f\\]|\s/u;
// After decoding, a space may be real content (`?q=a%20b`); controls and backslashes are not.
const DECODED_FORBIDDEN = /[\u0000-\u001f\u007f\\]/;
const ABSOLUTE_HTTP = /^https?:\/\/[^/]/i;
// More layers than any honest URL has; a target still changing after this many decodings is refused.
const MAX_DECODINGS = 8;
// Stands in for "this page" when checking where a relative path resolves.
const PLACEHOLDER_ORIGIN = "https://placeholder.invalid";

/**
 * The target and each of its percent-decodings until it stops changing, or
 * null when it keeps changing. Decodes byte by byte so that a malformed `%`
 * elsewhere cannot hide an encoded `//` (decodeURIComponent would give up).
 */
function decodingLayers(target: string): string[] | null {
  const layers = [target];
  let current = target;
  for (let i = 0; i < MAX_DECODINGS; i++) {
    const next = current.replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    if (next === current) return layers;
    layers.push(next);
    current = next;
  }
  return null;
}

function parseAbsolute(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

/** Origins as the URL parser sees them; anything that is not an http(s) origin is dropped. */
function parsedOrigins(allowed: RedirectAllowance): Set<string> {
  const origins = new Set<string>();
  for (const candidate of [allowed.origin, ...(Array.isArray(allowed.trustedOrigins) ? allowed.trustedOrigins : [])]) {
    if (typeof candidate !== "string") continue;
    const url = parseAbsolute(candidate);
    if (url && (url.protocol === "https:" || url.protocol === "http:")) origins.add(url.origin);
  }
  return origins;
}

// A path that reaches `//…` (directly or through `/..//`) is an open redirect
// for any server or router that later echoes the path into a Location header.
function isSingleSlashPath(pathname: string): boolean {
  return pathname.startsWith("/") && !pathname.startsWith("//");
}

function isSafeRelativeLayer(layer: string): boolean {
  if (!layer.startsWith("/") || layer[1] === "/") return false;
  const resolved = parseAbsolute(PLACEHOLDER_ORIGIN + layer);
  return resolved !== null && resolved.origin === PLACEHOLDER_ORIGIN && isSingleSlashPath(resolved.pathname);
}

function isSafeAbsoluteLayer(layer: string, origins: Set<string>): boolean {
  const url = parseAbsolute(layer);
  return (
    url !== null &&
    (url.protocol === "https:" || url.protocol === "http:") &&
    url.username === "" &&
    url.password === "" &&
    origins.has(url.origin) &&
    isSingleSlashPath(url.pathname)
  );
}

/**
 * Whether the app may navigate to `target`: a path starting with exactly one
 * `/`, or an absolute http(s) URL whose parsed origin is the page's or a
 * trusted one (never a string prefix), without credentials. Each
 * percent-decoding of the target must pass too, and may hold no control
 * character or backslash anywhere, query included. Query-only (`?x=1`), fragment-only (`#x`) and
 * slash-less relative targets (`dashboard`) are refused: they depend on the
 * page they run on, and nothing in the app produces them.
 */
export function isSafeRedirectTarget(target: string, allowed: RedirectAllowance): boolean {
  if (typeof target !== "string" || target === "" || RAW_FORBIDDEN.test(target)) return false;
  const layers = decodingLayers(target);
  if (layers === null || layers.some((layer) => DECODED_FORBIDDEN.test(layer))) return false;
  if (target.startsWith("/")) return layers.every(isSafeRelativeLayer);
  if (!ABSOLUTE_HTTP.test(target)) return false;
  const origins = parsedOrigins(allowed ?? { origin: null, trustedOrigins: [] });
  return layers.every((layer) => isSafeAbsoluteLayer(layer, origins));
}

/** Throws the reference's error for a target that is neither relative nor trusted. */
export function assertSafeRedirectTarget(target: string, allowed: RedirectAllowance): void {
  if (isSafeRedirectTarget(target, allowed)) return;
  // The URL is echoed as the reference does, with controls escaped so a
  // hostile target cannot forge lines in a log.
  const shown = String(target).replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/gu, (c) => encodeURIComponent(c));
  throw new StackConfigurationError(`Redirect URL ${shown} is not trusted; should be relative.`);
}

/** The origins of the absolute URLs in the URL set: the app configured them, so it may go there. */
export function trustedOriginsOf(urls: HandlerUrls): string[] {
  const origins = new Set<string>();
  for (const value of Object.values(urls) as unknown[]) {
    if (typeof value !== "string" || !ABSOLUTE_HTTP.test(value)) continue;
    const url = parseAbsolute(value);
    if (url && url.username === "" && url.password === "") origins.add(url.origin);
  }
  return [...origins];
}

export type Navigate = (url: string, options?: { readonly replace?: boolean } & CallOptions) => Promise<void>;

/** The app's navigation: checks the target, navigates with the redirect method, then waits REDIRECT_WAIT_MS. */
export function createNavigator(o: {
  readonly redirectMethod: RedirectMethod;
  readonly browser: Browser | null;
  readonly env: Environment;
  readonly trustedOrigins: readonly string[];
}): Navigate {
  return async (url, options) => {
    assertSafeRedirectTarget(url, { origin: o.browser?.location.origin ?? null, trustedOrigins: o.trustedOrigins });
    // An aborted call must not start a navigation it can no longer report on.
    checkAborted(options);
    const method = o.redirectMethod;
    if (method === "none") return;
    if (method === "window") {
      const { location } = requireBrowser(o.browser, 'redirectMethod "window"');
      if (options?.replace) location.replace(url);
      else location.assign(url);
    } else if (typeof method === "object" && method !== null && typeof method.navigate === "function") {
      await untilAborted(Promise.resolve(method.navigate(url)), options);
    } else {
      throw new StackConfigurationError('redirectMethod must be "window", "none" or an object with a navigate(url) function.');
    }
    await sleep(o.env, REDIRECT_WAIT_MS, options?.signal);
  };
}

function currentUrl(browser: Browser | null): URL | null {
  return browser === null ? null : parseAbsolute(browser.location.href);
}

const relativePart = (url: URL) => url.pathname + url.search + url.hash;

/**
 * `target` (a sign-in or sign-up URL) carrying after_auth_return_to: the
 * current page's own value when it is safe, else the current page's relative
 * URL (path, query and hash) — the latter only when the target is on the
 * page's origin, since a relative return-to means nothing to another site,
 * and only when that URL is itself a safe target. Unsafe targets come back unchanged so that the redirect's error names what
 * was configured.
 */
export function withReturnTo(target: string, browser: Browser | null, trustedOrigins: readonly string[] = []): string {
  const current = currentUrl(browser);
  if (current === null) return target;
  const allowed = { origin: current.origin, trustedOrigins };
  if (!isSafeRedirectTarget(target, allowed)) return target;
  const next = new URL(target, current);
  const sameOrigin = next.origin === current.origin;
  const kept = current.searchParams.get(AFTER_AUTH_RETURN_TO);
  if (kept !== null && isSafeRedirectTarget(kept, allowed)) {
    // A relative return-to would point into the other site, so only an absolute one crosses origins.
    if (sameOrigin || !kept.startsWith("/")) next.searchParams.set(AFTER_AUTH_RETURN_TO, kept);
  } else if (sameOrigin) {
    // An unsafe return-to is not passed along; the query is only rewritten when there is one to drop.
    if (kept !== null) current.searchParams.delete(AFTER_AUTH_RETURN_TO);
    // A page whose own URL is not a safe target (say, an encoded backslash in
    // its query) gets no return-to: a sign-in redirect that would then be
    // refused is worse than landing on after-sign-in.
    const back = relativePart(current);
    if (isSafeRedirectTarget(back, allowed)) next.searchParams.set(AFTER_AUTH_RETURN_TO, back);
  }
  return target.startsWith("/") ? relativePart(next) : next.href;
}

/** The current page's after_auth_return_to when it is a safe target; null when absent or unsafe. */
export function returnToTarget(browser: Browser | null, trustedOrigins: readonly string[] = []): string | null {
  const current = currentUrl(browser);
  const value = current?.searchParams.get(AFTER_AUTH_RETURN_TO) ?? null;
  if (current === null || value === null) return null;
  return isSafeRedirectTarget(value, { origin: current.origin, trustedOrigins }) ? value : null;
}

/**
 * How a `redirectTo…` method of the apps navigates.
 *
 * @example
 * ```ts
 * // A signed-out visitor leaves this page for good: no history entry, no return after sign-in.
 * const user = await app.getUser();
 * if (user === null) await app.redirectToSignIn({ replace: true, noRedirectBack: true });
 * ```
 */
export interface RedirectToOptions extends CallOptions {
  /** Replace the current history entry instead of adding one (`location.replace`); default false. */
  readonly replace?: boolean;
  /** Sign-in/up: do not add after_auth_return_to. After-sign-in/up: ignore it. */
  readonly noRedirectBack?: boolean;
}

/**
 * Where a redirectTo… method goes: the page's URL, with after_auth_return_to
 * added for sign-in and sign-up, and followed for after-sign-in and after-sign-up.
 */
export function pageTarget(
  ctx: Pick<ClientAppContext, "urls" | "browser">,
  page: keyof HandlerUrls,
  options: RedirectToOptions | undefined,
): string {
  const target = ctx.urls[page];
  if (options?.noRedirectBack) return target;
  const trusted = trustedOriginsOf(ctx.urls);
  if (page === "signIn" || page === "signUp") return withReturnTo(target, ctx.browser, trusted);
  if (page === "afterSignIn" || page === "afterSignUp") return returnToTarget(ctx.browser, trusted) ?? target;
  return target;
}
