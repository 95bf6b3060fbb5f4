// The browser's token store: the token cookies of wire contract §7, shared by
// every tab of the site. Other tabs' changes arrive through a BroadcastChannel
// notice at once, and through polling `document.cookie` otherwise (a tab of an
// older version, a server response setting cookies). Both run only while
// someone subscribes.

import { COOKIE_POLL_INTERVAL_MS } from "../../constants.js";
import { platformEnvironment, type Environment, type TimerId } from "../../platform/env.js";
import { StackConfigurationError } from "../../errors.js";
import { assertUsableTokens } from "./check.js";
import { sameTokens, type TokenPair, type TokenStore } from "./store.js";
import { parse as parseCookie } from "cookie";
import {
  customCookieDomain,
  customRefreshCookieName,
  hasHostRefreshCookie,
  readTokenCookies,
  tokenCookieLine,
  tokenCookieWrites,
  unusableTokenCookies,
} from "./cookie-format.js";
import { Listeners } from "./memory.js";

/** The part of `document` the store uses. Reading `cookie` gives `name=value; …`; assigning it sets one cookie. */
export interface CookieDocument {
  cookie: string;
}

/** The part of `BroadcastChannel` the store uses. */
export interface BroadcastChannelLike {
  /**
   * Sends `message` to the other tabs' channels of the same name; the store
   * sends only a change notice, never a token.
   *
   * @example
   * ```ts
   * const tokenStore = createCookieTokenStore({ projectId });
   * // Writing posts { type: "tokens-changed" } on the channel `stack-tokens-<projectId>`;
   * // the other tabs then read the cookies again.
   * tokenStore.set(NO_TOKENS);
   * ```
   */
  postMessage(message: unknown): void;
  /**
   * Closes the channel; the store calls it when its last subscriber leaves.
   *
   * @example
   * ```ts
   * const tokenStore = createCookieTokenStore({ projectId });
   * const unsubscribe = tokenStore.subscribe((tokens) => console.log(tokens.refreshToken !== null));
   * unsubscribe(); // the last subscriber left: the store closes its channel
   * ```
   */
  close(): void;
  onmessage: ((event: { readonly data: unknown }) => void) | null;
}

/**
 * What {@link createCookieTokenStore} takes: the project, and the browser parts
 * it uses (each defaults to the global one).
 *
 * @example
 * ```ts
 * const store = createCookieTokenStore({
 *   projectId,
 *   // No cross-tab notices: other tabs' changes arrive by polling the cookies.
 *   broadcastChannel: null,
 * });
 * ```
 */
export interface CookieTokenStoreOptions {
  /**
   * The project whose tokens are kept; it names the refresh-token cookies. Read:
   * those of every official SDK version (the newest JSON
   * `hexclave-refresh-<projectId>--…` first, then `stack-refresh-<projectId>`, then
   * the newest JSON `stack-refresh-<projectId>--…`, `__Host-` prefixed or not).
   * Written: a new refresh token goes to `stack-refresh-<projectId>` and its JSON twin
   * `stack-refresh-<projectId>--default` (`__Host-…` on https; and to
   * `hexclave-refresh-<projectId>--default` once a 2.8.108 SDK has written on the site),
   * or, on a page whose project trusts a parent domain (`trustedParentDomain`), to
   * `stack-refresh-<projectId>--custom-<base32 of it>` set on that domain instead; the
   * access pair to `stack-access` (and `hexclave-access`), so official SDKs old and new
   * find the session; sign-out deletes all of them.
   */
  readonly projectId: string;
  /** Defaults to `globalThis.document`. */
  readonly document?: CookieDocument;
  /** Decides `Secure`, and its `hostname` the trusted parent domain; defaults to the page's (`location`, or `window.location`). */
  readonly location?: { readonly protocol: string; readonly hostname?: string };
  /**
   * The parent domain of `hostname` the project trusts with every subdomain (`P` and `**.P` among
   * its trusted domains), or null; the apps read it from the project (`GET /projects/current`).
   * Given, a session is kept in `stack-refresh-<projectId>--custom-<base32 of P>` set on P, which
   * every subdomain's page reads, as the official SDKs keep a cross-subdomain session, instead of
   * in the host's own cookies. Asked once, when a new session is written (a sign-in), never at a
   * page load or an access-token refresh, so that a signed-in page costs no request; a session the
   * host kept before stays there until the next sign-in. A failure is asked again at the next
   * sign-in. Default: none.
   */
  readonly trustedParentDomain?: (hostname: string) => Promise<string | null>;
  /** Timers for polling; defaults to the platform's. */
  readonly env?: Pick<Environment, "setTimeout" | "clearTimeout">;
  /** Opens the channel to other tabs; defaults to `new BroadcastChannel(name)` where it exists. `null` turns it off. */
  readonly broadcastChannel?: ((name: string) => BroadcastChannelLike) | null;
}

/**
 * The only message sent to other tabs. Tokens never travel over the channel:
 * receivers re-read the cookies, which they can read anyway.
 */
const CHANGE_NOTICE = Object.freeze({ type: "tokens-changed" });

function isChangeNotice(data: unknown): boolean {
  return typeof data === "object" && data !== null && (data as { type?: unknown }).type === CHANGE_NOTICE.type;
}

function platformChannel(): ((name: string) => BroadcastChannelLike) | null {
  if (typeof globalThis.BroadcastChannel !== "function") return null;
  // A real BroadcastChannel has this shape; its `onmessage` is typed with
  // MessageEvent, which the narrower interface above does not name.
  return (name) => new globalThis.BroadcastChannel(name) as unknown as BroadcastChannelLike;
}

/** Runs `action`, which only improves the cookies' layout: a document that cannot be read now must not fail what called it. */
function tryQuietly(action: () => void): void {
  try {
    action();
  } catch {
    // Tried again at the next write.
  }
}

function resolveDocument(document: CookieDocument | undefined): CookieDocument {
  const found = document ?? (globalThis as { document?: CookieDocument }).document;
  if (found === undefined) {
    throw new StackConfigurationError(
      'The "cookie" token store works only in a browser: there is no document here to hold cookies. ' +
        'On a server, pass tokenStore: "memory", a request object (anything with headers.get, e.g. a Request), ' +
        "or { accessToken, refreshToken }.",
    );
  }
  return found;
}

/**
 * Keeps tokens in the §7 cookies. `get()` returns the last `set()` value until
 * the cookies change elsewhere; then the cookies win. That keeps a token the
 * cookies cannot hold (an access token without a refresh token) for this tab.
 * Throws a StackConfigurationError where there is no `document` (on a server).
 *
 * @example
 * ```ts
 * const tokenStore = createCookieTokenStore({ projectId });
 * const app = new StackClientApp({ projectId, publishableClientKey, tokenStore });
 * tokenStore.subscribe((tokens) => console.log("signed in:", tokens.refreshToken !== null));
 * ```
 */
export function createCookieTokenStore(options: CookieTokenStoreOptions): TokenStore {
  const { projectId, trustedParentDomain } = options;
  const document = resolveDocument(options.document);
  const page = globalThis as {
    location?: CookieTokenStoreOptions["location"];
    window?: { location?: CookieTokenStoreOptions["location"] };
  };
  const location = options.location ?? page.location ?? page.window?.location;
  const secure = location?.protocol === "https:";
  // The page's trusted parent domain: undefined until known (the host's own cookies meanwhile).
  let parent: string | null | undefined = trustedParentDomain === undefined ? null : undefined;
  let asking = false;
  const env = options.env ?? platformEnvironment;
  const openChannel = options.broadcastChannel === undefined ? platformChannel() : options.broadcastChannel;
  const channelName = `stack-tokens-${projectId}`;

  // Token cookies that can never be read (a stale version's "undefined", a
  // mangled pair) read as absent and are deleted here, once per value: a cookie
  // the deletion cannot reach (set with another Path or Domain) is not rewritten
  // on every poll.
  const deleted = new Map<string, string>();
  const deleteUnusable = (cookies: Record<string, string | undefined>): void => {
    const unusable = unusableTokenCookies(cookies, projectId);
    for (const name of deleted.keys()) if (!unusable.includes(name)) deleted.delete(name);
    for (const name of unusable) {
      const value = cookies[name] as string;
      if (deleted.get(name) === value) continue;
      deleted.set(name, value);
      document.cookie = tokenCookieLine([name, null], secure);
    }
  };

  const readCookies = (): TokenPair => {
    const cookies = parseCookie(document.cookie);
    deleteUnusable(cookies);
    return readTokenCookies(cookies, projectId);
  };

  /** Writes what makes the cookies hold `tokens`, laid out for `layout` (a parent domain, or null); true when anything was written. */
  const write = (tokens: TokenPair, layout: string | null): boolean => {
    const writes = tokenCookieWrites(parseCookie(document.cookie), tokens, projectId, secure, Date.now(), layout);
    for (const entry of writes) document.cookie = tokenCookieLine(entry, secure);
    return writes.length > 0;
  };

  /** Lays the session the cookies hold out for the parent domain, once known: the same tokens, nothing another tab or a listener needs to hear of. */
  const moveToParent = (): void => {
    if (typeof parent !== "string") return;
    tryQuietly(() => {
      const tokens = readCookies();
      if (tokens.refreshToken !== null && write(tokens, parent ?? null)) seen = readCookies();
    });
  };

  /**
   * Asks for the trusted parent domain while the host keeps a session in cookies of its own (a
   * session laid out for a parent domain already needs no asking); once known, the session is
   * laid out for it (moved to the parent domain's cookie). Called when a sign-in writes a new
   * session; a failure is asked again at the next one. Nothing here rejects.
   */
  const learnParent = (): void => {
    const hostname = location?.hostname;
    if (parent !== undefined || asking || trustedParentDomain === undefined || !hostname) return;
    // A host of one label (localhost) has no parent domain: nothing to ask.
    if (!hostname.includes(".")) {
      parent = null;
      return;
    }
    if (!hasHostRefreshCookie(parseCookie(document.cookie), projectId)) return;
    asking = true;
    void Promise.resolve()
      .then(() => trustedParentDomain(hostname))
      .then(
        (domain) => {
          asking = false;
          // Only a domain the page is on can hold its cookie (and a Domain attribute takes a host name).
          const valid = typeof domain === "string" && customCookieDomain(customRefreshCookieName(projectId, domain)) === domain;
          parent = valid && (hostname === domain || hostname.endsWith(`.${domain}`)) ? domain : null;
          moveToParent();
        },
        () => {
          asking = false;
        },
      );
  };

  // What the cookies held when this store last looked or wrote; a difference means someone else wrote.
  let seen = readCookies();
  let current = seen;
  // What subscribers were last told, so each change is told once whichever path finds it.
  let told = current;
  const listeners = new Listeners();
  let timer: TimerId | undefined;
  let channel: BroadcastChannelLike | null = null;

  /** Adopts the cookies when they changed since this store last looked. */
  const sync = (): void => {
    const cookies = readCookies();
    if (sameTokens(cookies, seen)) return;
    seen = cookies;
    current = cookies;
  };

  const tell = (): void => {
    if (listeners.size === 0 || sameTokens(current, told)) return;
    told = current;
    listeners.notify(current);
  };

  // For the background paths (poll, channel, subscribe): a document whose
  // cookies cannot be read right now must not end the polling.
  const syncQuietly = (): boolean => {
    try {
      sync();
      return true;
    } catch {
      return false;
    }
  };

  const poll = (): void => {
    // Scheduled before telling, so a listener that throws does not end the polling.
    timer = env.setTimeout(poll, COOKIE_POLL_INTERVAL_MS);
    if (syncQuietly()) tell();
  };

  const announce = (): void => {
    if (openChannel === null) return;
    if (channel !== null) {
      channel.postMessage(CHANGE_NOTICE);
      return;
    }
    // Nobody listens in this tab, but other tabs may: a short-lived channel still delivers.
    const once = openChannel(channelName);
    once.postMessage(CHANGE_NOTICE);
    once.close();
  };

  const start = (): void => {
    syncQuietly();
    told = current;
    timer = env.setTimeout(poll, COOKIE_POLL_INTERVAL_MS);
    if (openChannel === null) return;
    channel = openChannel(channelName);
    channel.onmessage = (event) => {
      if (isChangeNotice(event.data) && syncQuietly()) tell();
    };
  };

  const stop = (): void => {
    if (timer !== undefined) env.clearTimeout(timer);
    timer = undefined;
    if (channel !== null) {
      channel.onmessage = null;
      channel.close();
      channel = null;
    }
  };

  return {
    get() {
      sync();
      return current;
    },
    set(given) {
      // Only tokens are ever written: a bad one given here is the caller's bug (check.ts).
      const tokens = assertUsableTokens(given, "set()");
      // A new session (a sign-in) is when the parent domain is learnt; a page load or an access-token refresh asks nothing.
      const newSession = tokens.refreshToken !== null && tokens.refreshToken !== seen.refreshToken;
      const wrote = write(tokens, parent ?? null);
      current = Object.freeze({ refreshToken: tokens.refreshToken, accessToken: tokens.accessToken });
      seen = readCookies();
      // Other tabs first, so a listener here that throws cannot keep them uninformed.
      if (wrote) announce();
      tell();
      if (newSession) tryQuietly(learnParent);
    },
    subscribe(listener) {
      if (listeners.size === 0) start();
      const remove = listeners.add(listener);
      let active = true;
      return () => {
        if (!active) return;
        active = false;
        remove();
        if (listeners.size === 0) stop();
      };
    },
  };
}
