// The token store of a Node `http` request (`IncomingMessage`), which is also
// what Express, Fastify's `request.raw` and Koa's `ctx.req` hold. Cookie writes
// go straight onto the `ServerResponse` while its headers are not sent yet.
// Only the shapes are named here, so the package never imports `node:http`.

import { parse as parseCookie } from "cookie";
import { readRequestTokens } from "../tokens/request.js";
import { cameOverHttps, createResponseTokenStore, type CookieChange, type ResponseTokenStore } from "./response-store.js";

/** The part of an `IncomingMessage` the store reads. */
export interface NodeRequestLike {
  readonly headers: Readonly<Record<string, string | readonly string[] | undefined>>;
  /** A TLS socket has `encrypted: true`. */
  readonly socket?: object | null | undefined;
}

/** The part of a `ServerResponse` the store writes. */
export interface NodeResponseLike {
  readonly headersSent: boolean;
  /**
   * The response's header `name` as set so far; the store reads `set-cookie` to keep the app's own cookies.
   *
   * @example
   * ```ts
   * const tokenStore = nodeRequestTokenStore(req, res, { projectId });
   * await stackServerApp.getUser({ tokenStore });
   * const present = res.getHeader("set-cookie"); // the token cookies, if they changed
   * const lines = present === undefined ? [] : Array.isArray(present) ? present : [String(present)];
   * ```
   */
  getHeader(name: string): number | string | readonly string[] | undefined;
  /**
   * Replaces the response's header `name`; the store sets `set-cookie` to every line, its own included.
   *
   * @example
   * ```ts
   * const tokenStore = nodeRequestTokenStore(req, null, { projectId });
   * const user = await stackServerApp.getUser({ tokenStore });
   * res.setHeader("set-cookie", tokenStore.setCookieHeaders());
   * ```
   */
  setHeader(name: string, value: string | readonly string[]): unknown;
}

/**
 * What {@link nodeRequestTokenStore} takes besides the request and response.
 *
 * @example
 * ```ts
 * app.get("/me", async (req, res) => {
 *   const tokenStore = nodeRequestTokenStore(req, res, { projectId, secure: process.env.NODE_ENV === "production" });
 *   res.json({ id: (await stackServerApp.getUser({ tokenStore }))?.id ?? null });
 * });
 * ```
 */
export interface NodeRequestTokenStoreOptions {
  /**
   * The project whose token cookies are read and written: `stack-refresh-<projectId>`
   * and the JSON `hexclave-refresh-<projectId>--default` (`__Host-…` when Secure),
   * as the browser cookie store reads and writes them.
   */
  readonly projectId: string;
  /**
   * Whether written cookies get `Secure`. Default: when the request came over
   * TLS, or a proxy in front says https in `x-forwarded-proto`.
   */
  readonly secure?: boolean;
}

/** A header as `Headers.get` gives it: repeated values joined, absent as null. */
function headerOf(request: NodeRequestLike, name: string): string | null {
  const value = request.headers[name];
  if (value === undefined) return null;
  return typeof value === "string" ? value : value.join(", ");
}

/**
 * Adds `change` to the response's `Set-Cookie` headers, in place of this
 * store's earlier line for the same cookie, so the response says each cookie
 * once. Once the headers are sent nothing can be added: the new tokens then
 * live only for the rest of the request.
 */
function writeTo(response: NodeResponseLike, written: Map<string, string>, change: CookieChange): void {
  if (response.headersSent) return;
  const present = response.getHeader("set-cookie");
  const lines = present === undefined ? [] : Array.isArray(present) ? [...(present as readonly string[])] : [String(present)];
  const earlier = written.get(change.name);
  const kept = earlier === undefined ? lines : lines.filter((line) => line !== earlier);
  response.setHeader("set-cookie", [...kept, change.header]);
  written.set(change.name, change.header);
}

/**
 * A store of the request's tokens (`x-stack-auth` first, the token cookies
 * otherwise; what cannot be read is no user). New tokens are kept for the
 * request and, when they came from cookies, written to `response` as
 * `Set-Cookie` headers (also available from `setCookieHeaders()`). Pass
 * `null` as the response to only collect them.
 *
 * @example
 * ```ts
 * app.get("/me", async (req, res) => {
 *   const user = await stackServerApp.getUser({ tokenStore: nodeRequestTokenStore(req, res, { projectId }) });
 *   res.json({ id: user?.id ?? null });
 * });
 * ```
 */
export function nodeRequestTokenStore(
  request: NodeRequestLike,
  response: NodeResponseLike | null | undefined,
  options: NodeRequestTokenStoreOptions,
): ResponseTokenStore {
  const { projectId } = options;
  const headers = { get: (name: string) => headerOf(request, name.toLowerCase()) };
  const encrypted = (request.socket as { encrypted?: unknown } | null | undefined)?.encrypted === true;
  const written = new Map<string, string>();
  return createResponseTokenStore({
    projectId,
    tokens: readRequestTokens({ headers }, projectId),
    cookies: parseCookie(headers.get("cookie") ?? ""),
    writesCookies: headers.get("x-stack-auth") === null,
    secure: options.secure ?? (encrypted || cameOverHttps(undefined, headers.get("x-forwarded-proto"))),
    ...(response && { write: (change: CookieChange) => writeTo(response, written, change) }),
  });
}
