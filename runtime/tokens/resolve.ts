// Turns the `tokenStore` option into a store.

import type { Environment } from "../env.js";
import { StackConfigurationError } from "../errors.js";
import { createCookieTokenStore } from "./cookie.js";
import { explicitTokenStore } from "./explicit.js";
import { createMemoryTokenStore } from "./memory.js";
import { createRequestTokenStore, type RequestLike } from "./request.js";
import type { TokenStore } from "./store.js";

/**
 * Where a session's tokens live: `"cookie"` (browser), `"memory"`, a request of
 * the app's own backend, explicit tokens, a custom store, or `null` for no user.
 */
export type TokenStoreInit =
  "cookie" | "memory" | { accessToken: string | null; refreshToken: string | null } | RequestLike | TokenStore | null;

export interface ResolveTokenStoreOptions {
  readonly projectId: string;
  readonly env?: Pick<Environment, "setTimeout" | "clearTimeout">;
}

const VALID_VALUES = '"cookie", "memory", a request object with headers (e.g. a Request), { accessToken, refreshToken }, or a TokenStore';

/** The error for a call that needs a user when the app was made with `tokenStore: null`. */
export function noTokenStoreError(): StackConfigurationError {
  return new StackConfigurationError(
    "This call needs a user, but the app has no token store (tokenStore is null). " +
      `Set the tokenStore option to ${VALID_VALUES}, or pass one to this call.`,
  );
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

function isTokenStore(value: Record<string, unknown>): value is TokenStore & Record<string, unknown> {
  return typeof value["get"] === "function" && typeof value["set"] === "function" && typeof value["subscribe"] === "function";
}

function isRequest(value: Record<string, unknown>): value is RequestLike & Record<string, unknown> {
  const headers = value["headers"];
  return isObject(headers) && typeof headers["get"] === "function";
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

/** The store `init` describes, or null when it is null (no user). */
export function resolveTokenStore(init: TokenStoreInit, options: ResolveTokenStoreOptions): TokenStore | null {
  if (init === null) return null;
  if (init === "cookie") {
    const { projectId, env } = options;
    return createCookieTokenStore(env === undefined ? { projectId } : { projectId, env });
  }
  if (init === "memory") return createMemoryTokenStore();
  if (!isObject(init)) throw unknownInit(init);
  // A store first: it is the more specific shape, and it is used as given.
  if (isTokenStore(init)) return init;
  if (isRequest(init)) return createRequestTokenStore(init, options.projectId);
  if ("accessToken" in init || "refreshToken" in init) {
    return explicitTokenStore({ accessToken: explicitToken(init, "accessToken"), refreshToken: explicitToken(init, "refreshToken") });
  }
  throw unknownInit(init);
}
