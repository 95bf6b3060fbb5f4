// Failover (issue 31 §4): the API origins a request may go to, the configured
// base URL first. The hosted service answers the same API at fallback origins
// (api1./api2.stack-auth.com, …) and, from 2.8.102 on, lists its origins at
// `GET /internal/backend-urls`; a request the transport could not get answered
// at one origin goes to the next (transport.ts decides when).
//
// Every origin of the list is sent the app's keys and the user's tokens, so the
// list holds only origins the app trusts: the base URL, the origins the app
// names, the hosted service's own fallbacks, and what the service lists,
// accepted only over https (http only from and to a loopback address) and, for
// the hosted service, only under stack-auth.com and hexclave.com.
import { API_PREFIX } from "../constants.js";
import { StackConfigurationError } from "../errors.js";
import type { Environment, Fetch } from "../platform/env.js";
import { askForList, parsed, plainOrigin } from "./origin-list.js";

/**
 * How an app fails over to other origins of the service's API
 * ({@link StackClientOptions.failover} as an object; `true` is `{}`).
 *
 * @example
 * ```ts
 * // A self-hosted service answering at two origins, and no background request for its list.
 * const failover: FailoverOptions = { origins: ["https://auth-eu.example.com"], discover: false };
 * const app = new StackServerApp({ projectId, secretServerKey, tokenStore: null, baseUrl: "https://auth.example.com", failover });
 * ```
 */
export interface FailoverOptions {
  /**
   * More origins of the same service (without `/api/v1`), tried after the base URL in this
   * order. They are sent the app's keys and the user's tokens, like the base URL. None by default.
   */
  readonly origins?: readonly string[];
  /**
   * Whether to read the list of origins the service publishes (`GET /internal/backend-urls`,
   * 2.8.102 on): once, in the background, when the app sends its first request, without any
   * key or token. Default true.
   */
  readonly discover?: boolean;
}

/** The `failover` option: `true` (`{}`), `false`, or {@link FailoverOptions}; unset, on for the hosted service only. */
export type Failover = boolean | FailoverOptions;

/** The origins a client's requests go to; shared by every client on the same fetch, base URL and option. */
export interface Origins {
  /** The base URL as requests are made with it (no trailing slash, no `/api/v1`). */
  readonly primary: string;
  /** The origins in the order a call starting now tries them: the one that answered last first (sticky), then the rest in turn. */
  forCall(): readonly string[];
  /** A request has gone out: the service's list is asked for, once. */
  used(): void;
  /** `origin` answered an attempt: calls start there for a while (the primary: at once again). */
  answered(origin: string): void;
}

/** The hosted service's API hosts, each with the fallback hosts the official SDK has (stack-shared 2.8.109). */
const HOSTED: Readonly<Record<string, readonly string[]>> = {
  "api.stack-auth.com": ["api1.stack-auth.com", "api2.stack-auth.com"],
  "api.hexclave.com": ["api1.hexclave.com", "api2.hexclave.com"],
  "api.dev.stack-auth.com": ["api1.dev.stack-auth.com", "api2.dev.stack-auth.com"],
  "api.dev.hexclave.com": ["api1.dev.hexclave.com", "api2.dev.hexclave.com"],
  "api.staging.stack-auth.com": [],
  "api.staging.hexclave.com": [],
};
/** How long calls start at a fallback origin that answered, before the base URL is tried first again. */
export const STICKY_ORIGIN_MS = 300_000;

interface SharedState {
  /** The configured origins, then those the service lists once its list has been read and accepted. */
  all: readonly string[];
  asked: boolean;
  sticky: { readonly origin: string; readonly until: number } | undefined;
}

// One state per fetch (an app's environment; tests each have their own) and
// configuration: apps and derived clients of the same service ask for its list once.
const states = new WeakMap<Fetch, Map<string, SharedState>>();

/** What {@link originsOf} made, per fetch, base URL and option: a client made per call finds it at once. */
interface Made {
  readonly byValue: Map<boolean | undefined, Origins | undefined>;
  readonly byObject: WeakMap<FailoverOptions, Origins | undefined>;
}
const made = new WeakMap<Fetch, Map<string, Made>>();

/**
 * The origins of a client on `baseUrl` (as requests use it) with the app's `failover` option,
 * or undefined when its requests go to the base URL only. A bad option is a StackConfigurationError.
 */
export function originsOf(env: Environment, baseUrl: string, option: Failover | undefined): Origins | undefined {
  let byBase = made.get(env.fetch);
  if (!byBase) made.set(env.fetch, (byBase = new Map()));
  let known = byBase.get(baseUrl);
  if (!known) byBase.set(baseUrl, (known = { byValue: new Map(), byObject: new WeakMap() }));
  const object = typeof option === "object" && option !== null;
  if (object ? known.byObject.has(option) : known.byValue.has(option)) {
    return object ? known.byObject.get(option) : known.byValue.get(option);
  }
  const origins = makeOrigins(env, baseUrl, option);
  if (object) known.byObject.set(option, origins);
  else known.byValue.set(option, origins);
  return origins;
}

function makeOrigins(env: Environment, baseUrl: string, option: Failover | undefined): Origins | undefined {
  const hosted = hostedFallbacks(baseUrl);
  if (option === false || (option === undefined && hosted === undefined)) return undefined;
  const settings: FailoverOptions = option === undefined || option === true ? {} : checkedOption(option);
  const configured = dedupe([baseUrl, ...(settings.origins ?? []).map(configuredOrigin), ...(hosted ?? [])]);
  const discover = settings.discover ?? true;
  if (configured.length === 1 && !discover) return undefined;
  let byConfig = states.get(env.fetch);
  if (!byConfig) states.set(env.fetch, (byConfig = new Map()));
  const key = JSON.stringify([configured, discover]);
  let state = byConfig.get(key);
  if (!state) byConfig.set(key, (state = { all: configured, asked: !discover, sticky: undefined }));
  const shared = state;
  return {
    primary: baseUrl,
    forCall() {
      const all = shared.all;
      const sticky = shared.sticky;
      if (sticky === undefined || env.now() >= sticky.until) return all;
      const at = all.indexOf(sticky.origin);
      return at <= 0 ? all : [...all.slice(at), ...all.slice(0, at)];
    },
    used() {
      if (shared.asked) return;
      shared.asked = true;
      void askForList(env, baseUrl, hosted !== undefined).then((listed) => void (shared.all = dedupe([...configured, ...listed])));
    },
    answered(origin) {
      const now = env.now();
      if (origin === baseUrl) shared.sticky = undefined;
      // Kept from the failover on, not renewed by each answer: the base URL is tried first again after a while.
      else if (shared.sticky?.origin !== origin || now >= shared.sticky.until) shared.sticky = { origin, until: now + STICKY_ORIGIN_MS };
    },
  };
}

/** The fallback hosts' origins of a base URL of the hosted service; undefined for any other base URL. */
function hostedFallbacks(baseUrl: string): string[] | undefined {
  const url = parsed(baseUrl);
  if (!url || plainOrigin(baseUrl) !== `https://${url.hostname}`) return undefined;
  return HOSTED[url.hostname]?.map((host) => `https://${host}`);
}

/** An origin the app names, checked as the base URL is: an http(s) URL without credentials, query or fragment. */
function configuredOrigin(raw: unknown, index: number): string {
  const origin = typeof raw === "string" ? plainOrigin(raw) : undefined;
  if (origin === undefined) {
    throw new StackConfigurationError(
      `failover.origins[${index}] must be the origin of the service's API (an http(s) URL without /api/v1, credentials, query or fragment, such as "https://auth-eu.example.com"); got ${JSON.stringify(raw)}.`,
    );
  }
  return origin;
}

function checkedOption(option: unknown): FailoverOptions {
  if (typeof option !== "object" || option === null || Array.isArray(option)) {
    throw new StackConfigurationError(`failover must be true, false or { origins?, discover? }; got ${JSON.stringify(option)}.`);
  }
  const { origins, discover } = option as FailoverOptions;
  if (origins !== undefined && !Array.isArray(origins)) {
    throw new StackConfigurationError(`failover.origins must be an array of origins; got ${JSON.stringify(origins)}.`);
  }
  if (discover !== undefined && typeof discover !== "boolean") {
    throw new StackConfigurationError(`failover.discover must be true or false; got ${JSON.stringify(discover)}.`);
  }
  return option as FailoverOptions;
}

/** The origins without repeats (the same origin written differently counts once: the first spelling is kept). */
function dedupe(origins: readonly string[]): string[] {
  const seen = new Set<string>();
  return origins.filter((origin) => {
    const key = plainOrigin(origin) ?? origin;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Where the attempts of one call go: its origins in turn, from the one the call starts at. */
export interface CallRoute {
  /** `requestUrl` on the origin of the current attempt (after {@link CallRoute.moveOn}, the next). */
  url(requestUrl: string): string;
  /** Whether the call has another origin it has not tried yet: the next attempt goes there. */
  readonly nextUntried: boolean;
  /** The origins tried so far, in order (empty for a URL outside the base URL's API root, which does not fail over). */
  readonly tried: readonly string[];
  /** The next attempt goes to the next origin (back to the first after the last). */
  moveOn(): void;
  /** The current origin answered: calls start there for a while ({@link Origins.answered}). */
  answered(): void;
  /** The current origin when it is not the base URL; undefined when it is, or when the call does not fail over. */
  readonly elsewhere: string | undefined;
}

/**
 * The route of a call to `requestUrl`. Only a URL under the base URL's API root fails over;
 * any other goes where it points, every attempt.
 */
export function routeOf(origins: Origins | undefined, requestUrl: string): CallRoute {
  const list = origins && requestUrl.startsWith(`${origins.primary}${API_PREFIX}/`) ? origins.forCall() : [];
  const cut = origins?.primary.length ?? 0;
  let at = 0;
  const tried = list.slice(0, 1);
  return {
    url: (url) => (list.length === 0 ? url : `${list[at] as string}${url.slice(cut)}`),
    get nextUntried() {
      return tried.length < list.length;
    },
    tried,
    moveOn() {
      if (list.length === 0) return;
      at = (at + 1) % list.length;
      if (tried.length < list.length) tried.push(list[at] as string);
    },
    answered() {
      if (list.length > 0) origins?.answered(list[at] as string);
    },
    get elsewhere() {
      const origin = list[at];
      return origin === origins?.primary ? undefined : origin;
    },
  };
}
