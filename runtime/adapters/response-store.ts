// The store every framework adapter builds: the tokens a request carried,
// kept in memory, with each change written back as the token cookies of wire
// contract §7. Which cookies change, their names and their attributes are the
// browser cookie store's (tokens/cookie-format.ts), so a session can move
// between the browser and the server without either reading the other's
// cookies wrong. The framework decides how a change reaches the response.

import {
  ACCESS_COOKIE_MAX_AGE_S,
  REFRESH_COOKIE_MAX_AGE_S,
  type TokenPair,
  type TokenStore,
  serializeCookie,
  type SerializeOptions,
} from "../core.js";
import {
  ACCESS_COOKIE,
  encodeAccessPair,
  LEGACY_REFRESH_COOKIE,
  refreshCookieName,
  tokenCookieWrites,
  type CookieJar,
} from "../tokens/cookie-format.js";
import { createMemoryTokenStore } from "../tokens/memory.js";

/** One cookie to set (or, with an empty value and `maxAge: 0`, to delete), as a framework's cookie API takes it. */
export interface CookieChange {
  readonly name: string;
  readonly value: string;
  readonly options: {
    readonly path: "/";
    readonly sameSite: "lax";
    readonly secure: boolean;
    readonly maxAge: number;
    readonly expires?: Date;
  };
  /** The same change as a `Set-Cookie` header value. */
  readonly header: string;
}

/** A token store that remembers the `Set-Cookie` headers its writes produced. */
export interface ResponseTokenStore extends TokenStore {
  /**
   * The `Set-Cookie` values that bring the browser's cookies up to date with
   * this store, one per cookie (its latest write), to add to the response when
   * the adapter could not write them itself. Empty when nothing changed.
   *
   * @example
   * ```ts
   * const tokenStore = fetchRequestTokenStore(request, { projectId });
   * const user = await stackServerApp.getUser({ tokenStore });
   * const response = Response.json({ id: user?.id ?? null });
   * for (const line of tokenStore.setCookieHeaders()) response.headers.append("set-cookie", line);
   * return response;
   * ```
   */
  setCookieHeaders(): string[];
  /**
   * The same changes as name, value and options, for a framework whose cookie
   * API must be used instead of headers (SvelteKit's `cookies.set`; give it
   * `httpOnly: false`, as the browser's store reads these cookies).
   *
   * @example
   * ```ts
   * // SvelteKit: hooks.server.ts, after the SDK calls
   * for (const { name, value, options } of tokenStore.cookieChanges()) {
   *   event.cookies.set(name, value, { ...options, httpOnly: false });
   * }
   * ```
   */
  cookieChanges(): CookieChange[];
}

/**
 * The cookie changes that make `cookies` hold `tokens`, with their attributes.
 * tokenCookieWrites decides which cookies change (the browser store's rule);
 * each change's value follows from the tokens, so that a framework's cookie
 * API can be given name, value and options instead of a header line. Empty when
 * the cookies hold the tokens already.
 *
 * @example
 * ```ts
 * // Sign the browser out: delete the token cookies the request carries.
 * const cookies = parse(request.headers.get("cookie") ?? "");
 * const changes = tokenCookieChanges(cookies, NO_TOKENS, projectId, true);
 * for (const change of changes) response.headers.append("set-cookie", change.header);
 * ```
 */
export function tokenCookieChanges(
  cookies: Readonly<Record<string, string | undefined>>,
  tokens: TokenPair,
  projectId: string,
  secure: boolean,
): CookieChange[] {
  const { refreshToken, accessToken } = tokens;
  const pair = refreshToken !== null && accessToken !== null ? encodeAccessPair(refreshToken, accessToken) : null;
  const wanted: ReadonlyArray<readonly [string, string | null, number]> = [
    [refreshCookieName(projectId), refreshToken, REFRESH_COOKIE_MAX_AGE_S],
    [LEGACY_REFRESH_COOKIE, null, 0],
    [ACCESS_COOKIE, pair, ACCESS_COOKIE_MAX_AGE_S],
  ];
  const lines = tokenCookieWrites(cookies, tokens, projectId, { secure });
  return wanted.flatMap(([name, value, maxAge]) => {
    if (!lines.some((line) => line.startsWith(`${name}=`))) return [];
    const options: SerializeOptions & CookieChange["options"] =
      value === null
        ? { path: "/", sameSite: "lax", secure, maxAge: 0, expires: new Date(0) }
        : { path: "/", sameSite: "lax", secure, maxAge };
    return [{ name, value: value ?? "", options, header: serializeCookie(name, value ?? "", options) }];
  });
}

export interface ResponseStoreOptions {
  readonly projectId: string;
  /** The tokens the request carried. */
  readonly tokens: TokenPair;
  /** The request's cookies, decoded, by name. */
  readonly cookies: CookieJar;
  /**
   * False when the tokens came from `x-stack-auth`: they belong to a frontend
   * that keeps its own store, and cookies written for it would outlive its
   * sign-out there.
   */
  readonly writesCookies: boolean;
  readonly secure: boolean;
  /** Hands a change to the framework; may throw. */
  readonly write?: (change: CookieChange) => void;
}

/**
 * A memory store of the request's tokens whose writes also go to the token
 * cookies. The cookies are compared with what this store last wrote, so a
 * pair written twice produces one set of changes.
 */
export function createResponseTokenStore(o: ResponseStoreOptions): ResponseTokenStore {
  const memory = createMemoryTokenStore(o.tokens);
  const cookies: CookieJar = { ...o.cookies };
  const changes = new Map<string, CookieChange>();
  return {
    get: () => memory.get(),
    subscribe: (listener) => memory.subscribe(listener),
    set(tokens) {
      // The memory store checks the tokens first: one that cannot be a token is never written anywhere.
      memory.set(tokens);
      if (!o.writesCookies) return;
      for (const change of tokenCookieChanges(cookies, memory.get(), o.projectId, o.secure)) {
        if (change.options.maxAge === 0) delete cookies[change.name];
        else cookies[change.name] = change.value;
        // Re-inserted, so the list stays in the order of the latest writes.
        changes.delete(change.name);
        changes.set(change.name, change);
        o.write?.(change);
      }
    },
    setCookieHeaders: () => [...changes.values()].map((change) => change.header),
    cookieChanges: () => [...changes.values()],
  };
}

/** True when the request came over https, as its URL or a proxy's `x-forwarded-proto` says. */
export function cameOverHttps(url: string | undefined, forwardedProto: string | null | undefined): boolean {
  if (forwardedProto?.split(",")[0]?.trim().toLowerCase() === "https") return true;
  if (url === undefined) return false;
  try {
    return new URL(url).protocol === "https:";
  } catch {
    return false;
  }
}
