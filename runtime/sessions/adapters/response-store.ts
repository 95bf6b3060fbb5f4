// The store every framework adapter builds: the tokens a request carried,
// kept in memory, with each change written back as the token cookies of wire
// contract §7. Which cookies change, their names and their attributes are the
// browser cookie store's (tokens/cookie-format.ts), so a session can move
// between the browser and the server without either reading the other's
// cookies wrong. The framework decides how a change reaches the response.

import type { TokenPair, TokenStore } from "../tokens/store.js";
import { tokenCookieLine, tokenCookieOptions, tokenCookieWrites, type CookieJar } from "../tokens/cookie-format.js";
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
    /** Set only for the official SDK's `…-refresh-<projectId>--custom-…` cookies, which live on that domain. */
    readonly domain?: string;
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
 * The cookie changes that make `cookies` hold `tokens`, with their attributes:
 * the browser cookie store's writes (tokens/cookie-format.ts), as name, value
 * and options for a framework's cookie API and as a `Set-Cookie` line. A new
 * refresh token is written both as `stack-refresh-<projectId>` (plain, read first
 * by official SDKs up to 2.8.102) and as JSON in `hexclave-refresh-<projectId>--default`
 * (`__Host-…` when `secure`; read first by 2.8.108); a sign-out deletes every
 * token cookie of the project that `cookies` holds, the official SDK's
 * `--custom-` ones on their domain included. Empty when the cookies hold the
 * tokens already.
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
  return tokenCookieWrites(cookies, tokens, projectId, secure).map((write) => {
    const [name, value] = write;
    return { name, value: value ?? "", options: tokenCookieOptions(name, value, secure), header: tokenCookieLine(write, secure) };
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
