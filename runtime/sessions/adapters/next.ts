// The token store of a Next.js App Router request, from `cookies()` of
// `next/headers`. Next 15 made `cookies()` return a promise (Next 15 still lets
// it be used synchronously, with a warning; Next 16 does not), and the
// reference SDK, which read it synchronously, saw no cookies and so no user:
// getUser() returned null and protected pages redirected in a loop. Here
// whatever is given is awaited before it is read, so the synchronous form
// (Next 14, the compatibility form of 15), the promise and the function all work.
//
// Writes go through the cookie store's own `set()`, which Next allows in route
// handlers, server actions and middleware. During a server component's render
// Next refuses it (`ReadonlyRequestCookiesError`): the new tokens then live
// for the rest of the render only, and the next request refreshes again. A
// middleware (getSessionFromRequest) is the place to refresh for pages.
// Only the shapes are named here, so the package never imports `next`.

import { readTokenCookies } from "../tokens/cookie-format.js";
import { createResponseTokenStore, type CookieChange, type ResponseTokenStore } from "./response-store.js";

/** The part of Next's cookie store (`ReadonlyRequestCookies`, `RequestCookies`, `ResponseCookies`) the store uses. */
export interface NextCookieStore {
  /**
   * Every cookie of the request, as name and value; the store reads the token cookies from them once.
   *
   * @example
   * ```ts
   * import { cookies } from "next/headers";
   *
   * const jar = await cookies();
   * const names = jar.getAll().map((cookie) => cookie.name);
   * ```
   */
  getAll(): ReadonlyArray<{ readonly name: string; readonly value: string }>;
  /**
   * Sets one cookie on the response. Next throws `ReadonlyRequestCookiesError`
   * while a server component renders; the store then stops writing.
   *
   * @example
   * ```ts
   * import { cookies } from "next/headers";
   *
   * const jar = await cookies();
   * jar.set("stack-access", "", { path: "/", sameSite: "lax", secure: true, maxAge: 0 });
   * ```
   */
  set(name: string, value: string, options: CookieChange["options"]): unknown;
}

/** `cookies` itself, what it returns (a promise on Next 15 and 16), or a cookie store. */
export type NextCookiesInput = NextCookieStore | PromiseLike<NextCookieStore> | (() => NextCookieStore | PromiseLike<NextCookieStore>);

/**
 * What {@link nextCookiesTokenStore} takes besides `cookies`.
 *
 * @example
 * ```ts
 * // A development server reached as http://my-machine.local:3000 (plain http, not localhost).
 * const tokenStore = await nextCookiesTokenStore(cookies, { projectId, secure: false });
 * const user = await stackServerApp.getUser({ tokenStore });
 * ```
 */
export interface NextCookiesTokenStoreOptions {
  /**
   * The project whose token cookies are read and written: `stack-refresh-<projectId>`
   * and the JSON `hexclave-refresh-<projectId>--default` (`__Host-…` when Secure),
   * as the browser cookie store reads and writes them.
   */
  readonly projectId: string;
  /**
   * Whether written cookies get `Secure`; default true. Browsers keep Secure
   * cookies from https pages and from http://localhost; set false for an app
   * served over plain http on another host.
   */
  readonly secure?: boolean;
}

/** Next's refusal to write cookies while a server component renders; matched on its name and message, which are stable since Next 13. */
function isReadOnlyCookiesError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return (
    error.constructor.name === "ReadonlyRequestCookiesError" ||
    /Cookies can only be modified in a Server Action or Route Handler/.test(error.message)
  );
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === "object" || typeof value === "function") && value !== null && typeof (value as { then?: unknown }).then === "function"
  );
}

/**
 * A store of the token cookies of the current Next.js request (what cannot be
 * read is no user), whose writes go back through Next's cookie API where Next
 * allows it (see the top of this file). Always await it, whichever form
 * `cookies` takes.
 *
 * @example
 * ```ts
 * import { cookies } from "next/headers";
 *
 * const tokenStore = await nextCookiesTokenStore(cookies, { projectId });
 * const user = await stackServerApp.getUser({ tokenStore });
 * ```
 */
export async function nextCookiesTokenStore(cookies: NextCookiesInput, options: NextCookiesTokenStoreOptions): Promise<ResponseTokenStore> {
  const { projectId } = options;
  // The promise is checked before the store's methods: Next 15's promise has them too, and using them warns.
  const given: unknown = typeof cookies === "function" ? cookies() : cookies;
  const store = (isThenable(given) ? await given : given) as NextCookieStore;
  const jar: Record<string, string> = {};
  for (const { name, value } of store.getAll()) jar[name] = value;
  let writable = true;
  return createResponseTokenStore({
    projectId,
    // Read as the browser store reads them: a cookie that cannot hold a token is no token.
    tokens: readTokenCookies(jar, projectId),
    cookies: jar,
    writesCookies: true,
    secure: options.secure ?? true,
    write(change) {
      if (!writable) return;
      try {
        store.set(change.name, change.value, change.options);
      } catch (error) {
        if (!isReadOnlyCookiesError(error)) throw error;
        writable = false;
      }
    },
  });
}
