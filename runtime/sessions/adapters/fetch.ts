// The token store of a Fetch API request: what Hono, Remix / React Router,
// SvelteKit, Next.js route handlers, Bun, Deno and Workers hand a handler. A
// Request cannot carry a response, so the cookie writes are collected as
// `Set-Cookie` values for the handler to add to the response it returns.

import { parse as parseCookie } from "cookie";
import { readRequestTokens, type RequestLike } from "../tokens/request.js";
import { cameOverHttps, createResponseTokenStore, type ResponseTokenStore } from "./response-store.js";

/**
 * What {@link fetchRequestTokenStore} takes besides the request.
 *
 * @example
 * ```ts
 * // Behind a proxy that does not send x-forwarded-proto: say that the site is https.
 * const tokenStore = fetchRequestTokenStore(request, { projectId, secure: true });
 * const user = await stackServerApp.getUser({ tokenStore });
 * ```
 */
export interface FetchRequestTokenStoreOptions {
  /**
   * The project whose token cookies are read and written: `stack-refresh-<projectId>`
   * and the JSON `hexclave-refresh-<projectId>--default` (`__Host-…` when Secure),
   * as the browser cookie store reads and writes them.
   */
  readonly projectId: string;
  /**
   * Whether written cookies get `Secure`. Default: when the request's URL is
   * https, or a proxy in front says so in `x-forwarded-proto`.
   */
  readonly secure?: boolean;
}

/**
 * A store of the request's tokens (`x-stack-auth` first, the token cookies
 * otherwise; what cannot be read is no user). New tokens (a refresh, a
 * sign-in, a sign-out) are kept for the request and, when the tokens came
 * from cookies, turned into `Set-Cookie` values: add
 * `store.setCookieHeaders()` to the response after the SDK calls.
 *
 * @example
 * ```ts
 * app.get("/me", async (c) => {
 *   const tokenStore = fetchRequestTokenStore(c.req.raw, { projectId });
 *   const user = await stackServerApp.getUser({ tokenStore });
 *   for (const line of tokenStore.setCookieHeaders()) c.header("Set-Cookie", line, { append: true });
 *   return c.json({ id: user?.id ?? null });
 * });
 * ```
 */
export function fetchRequestTokenStore(
  request: RequestLike & { readonly url?: string },
  options: FetchRequestTokenStoreOptions,
): ResponseTokenStore {
  const { projectId } = options;
  const cookies = parseCookie(request.headers.get("cookie") ?? "");
  return createResponseTokenStore({
    projectId,
    tokens: readRequestTokens(request, projectId),
    cookies,
    writesCookies: request.headers.get("x-stack-auth") === null,
    secure: options.secure ?? cameOverHttps(request.url, request.headers.get("x-forwarded-proto")),
  });
}
