// Turns the `tokenStore` option into a store. Every place that reads the option
// (the app's own store, a per-call `getUser({ tokenStore })`) classifies it
// here, with one set of guards.

import type { Environment } from "../../platform/env.js";
import { StackConfigurationError } from "../../errors.js";
import type { TokenPair, TokenStore } from "./store.js";
import { createCookieTokenStore } from "./cookie.js";
import { explicitTokenStore } from "./explicit.js";
import { createMemoryTokenStore } from "./memory.js";
import { createRequestTokenStore, type RequestLike } from "./request.js";

/**
 * Where a session's tokens live: `"cookie"` (browser), `"memory"`, a request of
 * the app's own backend, explicit tokens, a custom store, or `null` for no user.
 * `"nextjs-cookie"`, the official SDK's name for Next.js apps, is `"cookie"` in a
 * browser; on a server {@link resolveTokenStore} refuses it, and an app made with it
 * refuses where its own store is read.
 */
export type TokenStoreInit = "cookie" | "nextjs-cookie" | "memory" | TokenPair | RequestLike | TokenStore | null;

/** What a `tokenStore` option is, its parts read and checked. */
export type TokenStoreKind =
  | { readonly kind: "none" }
  | { readonly kind: "cookie" }
  | { readonly kind: "memory" }
  | { readonly kind: "store"; readonly store: TokenStore }
  | { readonly kind: "request"; readonly request: RequestLike }
  | { readonly kind: "tokens"; readonly tokens: TokenPair };

/**
 * What {@link resolveTokenStore} needs besides the `tokenStore` value itself.
 *
 * @example
 * ```ts
 * const store = resolveTokenStore("cookie", {
 *   projectId,
 *   env: platformEnvironment,
 * });
 * ```
 */
export interface ResolveTokenStoreOptions {
  /** The project whose tokens the store keeps: names the cookies and reads a request's token cookies. */
  readonly projectId: string;
  /** Timers for the cookie store's polling; default the platform's. */
  readonly env?: Pick<Environment, "setTimeout" | "clearTimeout">;
  /** The cookie store's trusted parent domain of the page (see CookieTokenStoreOptions); default none. */
  readonly trustedParentDomain?: (hostname: string) => Promise<string | null>;
}

const VALID_VALUES =
  '"cookie" (or "nextjs-cookie", the same in a browser), "memory", a request object with headers (e.g. a Request), { accessToken, refreshToken }, or a TokenStore';

/**
 * The error for a call that needs a user when the app was made with
 * `tokenStore: null`: a StackConfigurationError naming the values that would work.
 *
 * @example
 * ```ts
 * function sessionsOf(client: StackClient): SessionManager {
 *   if (client.sessions === null) throw noTokenStoreError();
 *   return client.sessions;
 * }
 * ```
 */
export function noTokenStoreError(): StackConfigurationError {
  return new StackConfigurationError(
    "This call needs a user, but the app has no token store (tokenStore is null). " +
      `Set the tokenStore option to ${VALID_VALUES}, or pass one to this call.`,
  );
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

function explicitToken(value: Record<string, unknown>, key: "accessToken" | "refreshToken"): string | null {
  const token = value[key];
  if (token === undefined || token === null) return null;
  if (typeof token !== "string") {
    throw new StackConfigurationError(`tokenStore.${key} must be a string or null, got a ${typeof token}.`);
  }
  return token;
}

function unknownInit(init: unknown): StackConfigurationError {
  const shown = typeof init === "string" ? JSON.stringify(init) : isObject(init) ? "an object without tokens or headers" : String(init);
  return new StackConfigurationError(`Unknown tokenStore ${shown}. Valid values are ${VALID_VALUES}, or null for no user.`);
}

/**
 * `"nextjs-cookie"` on a server: the official SDK reads and writes it through Next.js's
 * `cookies()`, which stackkit does not use (it has no dependency on Next.js), and its
 * `@stackframe/js` throws there too. The request's cookies are what a server reads.
 */
function nextjsCookieOnServer(): StackConfigurationError {
  return new StackConfigurationError(
    'The "nextjs-cookie" token store works only in a browser, as "cookie": stackkit cannot reach Next.js\'s cookies() by itself. ' +
      "On a server, pass the request (anything with headers.get, e.g. a Request), " +
      "or await nextCookiesTokenStore(cookies, { projectId }) with cookies from next/headers.",
  );
}

/**
 * The error that an app's token store `init` gives on first use rather than when the app is
 * made, or null when it works here: `"nextjs-cookie"` on a server. The official SDK makes such an
 * app and fails only where the app's own store is read (its `getUser()`), so that a server app
 * shared by a Next.js project can still be given each request's tokens per call. The runtime
 * client then has no store of its own (requests go without user tokens) and names this error
 * where a call needs one.
 */
export function tokenStoreUnavailableHere(init: TokenStoreInit): StackConfigurationError | null {
  return init === "nextjs-cookie" && (globalThis as { document?: unknown }).document === undefined ? nextjsCookieOnServer() : null;
}

/** What `init` is; a value that is none of the valid ones is a StackConfigurationError. */
export function classifyTokenStore(init: TokenStoreInit): TokenStoreKind {
  if (init === null) return { kind: "none" };
  if (init === "cookie" || init === "memory") return { kind: init };
  if (init === "nextjs-cookie") return { kind: "cookie" };
  if (!isObject(init)) throw unknownInit(init);
  // A store first: it is the more specific shape, and it is used as given.
  if (typeof init["get"] === "function" && typeof init["set"] === "function" && typeof init["subscribe"] === "function") {
    return { kind: "store", store: init as unknown as TokenStore };
  }
  const headers = init["headers"];
  if (isObject(headers) && typeof headers["get"] === "function") return { kind: "request", request: init as unknown as RequestLike };
  if ("accessToken" in init || "refreshToken" in init) {
    return {
      kind: "tokens",
      tokens: { accessToken: explicitToken(init, "accessToken"), refreshToken: explicitToken(init, "refreshToken") },
    };
  }
  throw unknownInit(init);
}

/**
 * The store `init` describes, or null when it is null (no user): `"cookie"` and
 * `"memory"` make a new store, a request is read once, `{ accessToken, refreshToken }`
 * finds the shared store of that pair, and a store is used as given. Any other
 * value is a StackConfigurationError.
 *
 * @example
 * ```ts
 * const store = resolveTokenStore(request, { projectId });
 * const { refreshToken } = store?.get() ?? NO_TOKENS;
 * console.log(refreshToken === null ? "no user" : "a user");
 * ```
 */
export function resolveTokenStore(init: TokenStoreInit, options: ResolveTokenStoreOptions): TokenStore | null {
  const found = classifyTokenStore(init);
  switch (found.kind) {
    case "none":
      return null;
    case "cookie": {
      if (init === "nextjs-cookie" && (globalThis as { document?: unknown }).document === undefined) throw nextjsCookieOnServer();
      const { projectId, env, trustedParentDomain } = options;
      return createCookieTokenStore({
        projectId,
        ...(env !== undefined && { env }),
        ...(trustedParentDomain !== undefined && { trustedParentDomain }),
      });
    }
    case "memory":
      return createMemoryTokenStore();
    case "store":
      return found.store;
    case "request":
      return createRequestTokenStore(found.request, options.projectId);
    case "tokens":
      return explicitTokenStore(found.tokens);
  }
}
