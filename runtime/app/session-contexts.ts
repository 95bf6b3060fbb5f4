// Sessions named per call: `app.getUser({ tokenStore })` (most often a
// server's, for the caller of a request) names the user's tokens per call (a request of the app's own backend, or a
// token pair). Each distinct session gets one runtime client, kept in a
// bounded LRU cache: calls with the same tokens share one Session (and so one
// refresh), and a server that sees many users keeps at most `limit` of them
// (wire contract §14: caches keyed by users must not grow without limit, and
// an explicit token pair must not build a new session on every call).
import { SESSION_CACHE_LIMIT } from "../constants.js";
import { createStackClient, type StackClientOptions } from "../client.js";
import { LruMap } from "../lru.js";
import { readRequestTokens, type RequestLike } from "../tokens/request.js";
import { resolveTokenStore, type TokenStoreInit } from "../tokens/resolve.js";
import type { StoredTokens, TokenStore } from "../tokens/store.js";
import { signalOf, untilAborted, type CallOptions } from "./call-options.js";
import type { ClientAppContext } from "./context.js";
import { isKnownError } from "../../generated/known-error-guard.js";
import { StackAssertionError } from "../errors.js";
import { createAnonymousSignUp } from "./flows/anonymous.js";

export interface SessionContext {
  /** The app's context on this session's runtime client. */
  readonly ctx: ClientAppContext;
  /** Single-flight anonymous sign-up into this session's store. */
  readonly anonymousSignUp: () => Promise<void>;
}

export interface SessionContexts {
  /** The context of the session `init` describes. */
  of(init: TokenStoreInit): SessionContext;
  /** How many sessions are cached now (at most the limit). */
  readonly size: number;
}

/** The context of `base` with `client` (and its sessions) in place of the app's own. */
export function sessionContextOf(base: ClientAppContext, client: ClientAppContext["client"]): SessionContext {
  const ctx: ClientAppContext = {
    ...base,
    client,
    sessions: () => client.requireSessions(),
    signIn: (tokens) => void client.requireSessions().signIn({ refreshToken: tokens.refresh_token, accessToken: tokens.access_token }),
  };
  return { ctx, anonymousSignUp: createAnonymousSignUp(ctx) };
}

export function createSessionContexts(
  base: ClientAppContext,
  runtime: Omit<StackClientOptions, "tokenStore">,
  limit: number = SESSION_CACHE_LIMIT,
): SessionContexts {
  const cache = new LruMap<unknown, SessionContext>(limit);
  const make = (tokenStore: TokenStoreInit) => sessionContextOf(base, createStackClient({ ...runtime, tokenStore }));
  return {
    get size() {
      return cache.size;
    },
    of(init) {
      const { store, key } = storeFor(init, base.projectId);
      if (key === null) return make(store);
      const known = cache.get(key);
      if (known) return known;
      const made = make(store);
      cache.set(key, made);
      return made;
    },
  };
}

/**
 * The store for `init` and the key it is cached under, or key null when it must
 * not be shared: a store without tokens is filled by an anonymous sign-up, and
 * sharing it would hand that anonymous user to every other caller without tokens.
 */
function storeFor(init: TokenStoreInit, projectId: string): { store: TokenStoreInit; key: unknown } {
  if (init === "cookie") return { store: init, key: init };
  if (typeof init !== "object" || init === null) return { store: init, key: null };
  if (isTokenStore(init)) return { store: init, key: init };
  if (isRequest(init)) return sharedPair(readRequestTokens(init, projectId), projectId);
  if ("accessToken" in init || "refreshToken" in init) {
    const pair = init as { accessToken?: unknown; refreshToken?: unknown };
    const empty = (pair.accessToken ?? null) === null && (pair.refreshToken ?? null) === null;
    // Equal pairs resolve to the same explicit store, which makes a stable key.
    return empty ? { store: "memory", key: null } : sharedStore(init, projectId);
  }
  return { store: init, key: null };
}

function sharedPair(tokens: StoredTokens, projectId: string): { store: TokenStoreInit; key: unknown } {
  if (tokens.accessToken === null && tokens.refreshToken === null) return { store: "memory", key: null };
  return sharedStore({ accessToken: tokens.accessToken, refreshToken: tokens.refreshToken }, projectId);
}

function sharedStore(init: TokenStoreInit, projectId: string): { store: TokenStoreInit; key: unknown } {
  const store = resolveTokenStore(init, { projectId });
  return { store, key: store };
}

function isTokenStore(value: object): value is TokenStore {
  const v = value as Partial<Record<keyof TokenStore, unknown>>;
  return typeof v.get === "function" && typeof v.set === "function" && typeof v.subscribe === "function";
}

function isRequest(value: object): value is RequestLike {
  const headers = (value as { headers?: unknown }).headers;
  return typeof headers === "object" && headers !== null && typeof (headers as { get?: unknown }).get === "function";
}

/** `GET /users/me` in the session of `ctx`: the raw answer, or null when nobody is signed in. */
async function readCurrentUser(ctx: ClientAppContext, call: CallOptions): Promise<unknown> {
  if (ctx.sessions().current().isKnownInvalid) return null;
  try {
    const { data } = await ctx.client.api.GET("/users/me", signalOf(call));
    return data ?? null;
  } catch (error) {
    if (isKnownError(error, "CANNOT_GET_OWN_USER_WITHOUT_USER")) return null;
    throw error;
  }
}

/**
 * The signed-in user of `session` as `check` reads the wire answer, or null
 * when nobody is. Anonymous users count as nobody unless `or` asks for them;
 * `or: "anonymous"` signs one up when nobody is signed in (once, however many
 * calls wait; an aborted call stops waiting for it, the others do not).
 */
export async function signedInUserWire<W extends { readonly is_anonymous: boolean }>(
  session: SessionContext,
  or: string,
  check: (answer: NonNullable<unknown>) => W,
  call: CallOptions = {},
): Promise<W | null> {
  const sessions = session.ctx.sessions();
  const asked = sessions.current();
  const read = async () => {
    const answer = await readCurrentUser(session.ctx, call);
    return answer === null || answer === undefined ? null : check(answer);
  };
  let wire = await read();
  if (wire?.is_anonymous && or !== "anonymous" && or !== "anonymous-if-exists") wire = null;
  if (wire === null && or === "anonymous") {
    // Another call may have signed up while this one waited; then use that user.
    if (sessions.current() === asked) await untilAborted(session.anonymousSignUp(), call);
    wire = await read();
    if (wire === null) throw new StackAssertionError("The anonymous sign-up succeeded, but the service does not know its user.");
  }
  return wire;
}
