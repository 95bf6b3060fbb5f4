// Puts the runtime together: options in, a typed client over every operation out.
import type { Client } from "openapi-fetch";
import type { AccessType } from "../../generated/operations.js";
import type { paths } from "../../generated/schema.js";
import { API_PREFIX, DEFAULT_BASE_URL, DEFAULT_REQUEST_TIMEOUT_MS, MAX_SINGLE_WAIT_MS } from "../constants.js";
import { environment, type Environment } from "../platform/env.js";
import { StackConfigurationError } from "../errors.js";
import type { RequestHooks } from "./observe.js";
import { createApi } from "./api.js";
import { guardedHooks } from "./observe.js";
import { originsOf, type Failover, type FailoverOptions } from "./origins.js";
import { createPipeline, type OwnerAccessTokenGetter, type OwnerSession, type PipelineOptions } from "./pipeline.js";
import { refreshWithTokenEndpoint } from "./refresh.js";
import { createSend, type Send } from "./send.js";
import { SessionManager, type RefreshAccessToken, type Sessions } from "../sessions/session.js";
import type { TransportPolicy } from "./transport.js";
import { noTokenStoreError, resolveTokenStore, tokenStoreUnavailableHere, type TokenStoreInit } from "../sessions/tokens/resolve.js";
import { trustedParentDomain } from "../sessions/tokens/parent-domain.js";
import { CLIENT_VERSION } from "../version.js";

/**
 * What {@link createStackClient} takes: the project, the keys to send, where the
 * user's tokens live, and how requests are sent (timeouts, retries, hooks).
 *
 * @example
 * ```ts
 * const client = createStackClient({
 *   projectId: process.env.STACK_PROJECT_ID!,
 *   accessType: "server",
 *   secretServerKey: process.env.STACK_SECRET_SERVER_KEY!,
 *   tokenStore: null,
 *   requestTimeoutMs: 10_000,
 * });
 * ```
 */
export interface StackClientOptions {
  /** The id of the project on the Stack Auth dashboard, sent as `x-stack-project-id`; required. */
  readonly projectId: string;
  /** Which kind of app calls: `client` (default), `server` or `admin`. */
  readonly accessType?: AccessType;
  /** Default `https://api.stack-auth.com`; `/api/v1` is added. */
  readonly baseUrl?: string;
  /**
   * Whether a request that could not be answered goes on to another origin of the API
   * (failover). Unset: on for the hosted service (no `baseUrl`, or `https://api.stack-auth.com`,
   * `https://api.hexclave.com` and their `dev` and `staging` hosts), whose fallback origins and
   * published list (`GET /internal/backend-urls`, read once in the background) are used; off for
   * any other `baseUrl`. `true` turns it on there too (the service's list only), `false` off
   * everywhere; {@link FailoverOptions} names more origins or leaves out the list.
   *
   * A request moves on after a network failure, a timeout, a 5xx answer, a 429 or a 508 loop
   * guard, within the same five attempts; a POST or PATCH only after a 429 or a 508, which the
   * service answers without processing it. Known errors and other 4xx answers never move on.
   */
  readonly failover?: Failover;
  /** The project's publishable client key, sent as `x-stack-publishable-client-key`; none by default. */
  readonly publishableClientKey?: string;
  /** The project's secret server key, sent as `x-stack-secret-server-key` when `accessType` is `server` or `admin`. */
  readonly secretServerKey?: string;
  /** The project's super secret admin key, sent as `x-stack-super-secret-admin-key` when `accessType` is `admin`. */
  readonly superSecretAdminKey?: string;
  /**
   * For admin apps acting as a project owner instead of with a key: the owner's session, or a
   * function answering the owner's access token before each request.
   */
  readonly projectOwnerSession?: OwnerSession | OwnerAccessTokenGetter;
  /**
   * Where the user's tokens live. `null`: no user. Default `"memory"`. `"nextjs-cookie"` on a
   * server (where stackkit cannot reach Next.js's cookies) makes a client without a store whose
   * calls that need a user reject with a StackConfigurationError saying what to pass instead.
   */
  readonly tokenStore?: TokenStoreInit;
  /** Sent with every request, after (and over) the headers the runtime sets. */
  readonly extraRequestHeaders?: Readonly<Record<string, string>>;
  /** Replaces parts of the platform: fetch, clock, timers, randomness. */
  readonly environment?: Partial<Environment>;
  /**
   * How long one attempt may wait for its answer, in ms (default 30000; 0: no
   * limit). A timed-out attempt counts as a network failure: GET, PUT and DELETE
   * are retried, POST and PATCH fail at once with a RequestTimeoutError.
   */
  readonly requestTimeoutMs?: number;
  /**
   * The longest `Retry-After` the runtime waits before retrying a 429, in ms
   * (default, and at most, 2147483647). When the service asks for longer, the
   * call fails at once with a RateLimitError whose `retryAfterMs` is the wait asked for.
   */
  readonly maxRetryAfterMs?: number;
  /** Called before each attempt is sent; sees no token or key (they are redacted). */
  readonly onRequest?: RequestHooks["onRequest"];
  /** Called before each retry, with its reason and delay; sees no token or key. */
  readonly onRetry?: RequestHooks["onRetry"];
}

/** The runtime client that {@link createStackClient} makes: every operation of the API as a typed call (`api`, `send`), with the project's keys, the session's tokens, retries and refresh; the apps are built on it. */
export interface StackClient {
  /**
   * Typed calls over every operation of the document (openapi-fetch, loaded on
   * first use). Failures are thrown as typed errors.
   */
  readonly api: Client<paths>;
  /**
   * One operation, named by its method and path: what the app classes call. It
   * takes and types what `api` does for the same operation and answers `{ data }`,
   * without building a Request, and without loading `api`.
   *
   * @example
   * ```ts
   * const { data: me } = await client.send("GET /users/me");
   * const { data: team } = await client.send("GET /teams/{team_id}", { params: { path: { team_id: teamId } } });
   * ```
   */
  readonly send: Send;
  readonly projectId: string;
  /** The API's origin as requests use it: the default filled in, without trailing slashes and without `/api/v1`. */
  readonly baseUrl: string;
  /** The `failover` option the client was made with (undefined: the default). */
  readonly failover: Failover | undefined;
  readonly accessType: AccessType;
  readonly publishableClientKey: string | undefined;
  readonly env: Environment;
  /** The timeout, Retry-After limit and hooks the client was made with. */
  readonly policy: TransportPolicy;
  /** Null when the app was made with `tokenStore: null`. */
  readonly sessions: Sessions | null;
  /**
   * The session manager; throws a StackConfigurationError that explains how to
   * get one when the client was made with `tokenStore: null`.
   *
   * @example
   * ```ts
   * const session = client.requireSessions().current();
   * const tokens = await session.getTokens();
   * if (tokens === null) console.log("nobody is signed in");
   * ```
   */
  requireSessions(): Sessions;
  /**
   * A client with everything of this one (keys, environment, timeouts, hooks)
   * but its own `tokenStore`: a per-call user's session, or none for calls
   * that act by id. Keys are handed on here rather than exposed.
   *
   * @example
   * ```ts
   * // Act as the user whose tokens came with the incoming request.
   * const asUser = client.withTokenStore(request);
   * const { data: me } = await asUser.api.GET("/users/me");
   * ```
   */
  withTokenStore(tokenStore: TokenStoreInit): StackClient;
  /**
   * A client with everything of this one whose requests act for one session
   * only: `sessions` is a view of this client's sessions that answers it alone. A client with
   * user tokens sends that session's; one without (a server's calls by id)
   * sends none. Either way a request stops, unsent, with the view's error once
   * that session has ended or the store holds another.
   *
   * @example
   * ```ts
   * const sessions = client.requireSessions();
   * const mine = client.boundTo(sessions.bind(sessions.current(), () => new Error("Signed out meanwhile.")));
   * const { data: me } = await mine.send("GET /users/me");
   * ```
   */
  boundTo(sessions: Sessions): StackClient;
}

/**
 * Makes the low-level client: typed calls over every operation of the API
 * (`api`), with the project's headers, the user's tokens, refreshes, retries and
 * timeouts. Throws a StackConfigurationError for options that cannot work (no
 * `projectId`, a key a header cannot carry, an unknown `tokenStore`).
 *
 * @example
 * ```ts
 * const client = createStackClient({ projectId, publishableClientKey, tokenStore: "memory" });
 * const { data: project } = await client.api.GET("/projects/current");
 * console.log(project?.display_name);
 * ```
 */
export function createStackClient(options: StackClientOptions): StackClient {
  if (typeof options.projectId !== "string" || options.projectId === "") {
    throw new StackConfigurationError("projectId is required: the id of your project on the Stack Auth dashboard.");
  }
  checkHeaderValues(options);
  const env = environment(options.environment);
  const baseUrl = (options.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, "");
  if (baseUrl.endsWith(API_PREFIX)) {
    // Every path would be sent under /api/v1/api/v1 and answered 404: say so now, not on the first call.
    throw new StackConfigurationError(
      `baseUrl ${JSON.stringify(options.baseUrl)} ends with ${API_PREFIX}, which stackkit adds itself; pass the API's origin, ${JSON.stringify(baseUrl.slice(0, -API_PREFIX.length) || "https://your-api.example.com")}.`,
    );
  }
  const accessType = options.accessType ?? "client";
  const policy = transportPolicy(options);
  const init = options.tokenStore === undefined ? "memory" : options.tokenStore;
  // Refused on first use, not here: the app is still usable with per-call token stores.
  const unavailable = tokenStoreUnavailableHere(init);
  // A browser's cookies keep a session on the parent domain the project trusts, read from the project once needed.
  let self: StackClient | undefined;
  const trustedParentDomain = (hostname: string) => projectParentDomain(self as StackClient, hostname);
  const store = unavailable ? null : resolveTokenStore(init, { projectId: options.projectId, env, trustedParentDomain });
  // Refreshes go through this client's pipeline, also for the clients bound from it.
  let refresh: RefreshAccessToken | undefined;
  const sessions = store ? new SessionManager(store, env, (refreshToken) => (refresh as RefreshAccessToken)(refreshToken)) : null;
  const wiring: PipelineOptions = {
    env,
    baseUrl,
    projectId: options.projectId,
    accessType,
    clientVersion: CLIENT_VERSION,
    publishableClientKey: options.publishableClientKey,
    secretServerKey: options.secretServerKey,
    superSecretAdminKey: options.superSecretAdminKey,
    projectOwnerSession: options.projectOwnerSession,
    extraRequestHeaders: options.extraRequestHeaders,
    sessions,
    policy,
    origins: originsOf(env, baseUrl, options.failover),
  };
  refresh = refreshWithTokenEndpoint(wiring);
  self = clientOn(wiring, options, unavailable);
  return self;
}

/** The parent domain of `hostname` that the project trusts with every subdomain, from its client view (`config.domains`, 2.8.86 on; none on 2.8.11). */
async function projectParentDomain(client: StackClient, hostname: string): Promise<string | null> {
  const { data } = await client.send("GET /projects/current");
  return trustedParentDomain(hostname, data?.config.domains?.map((domain) => domain.domain) ?? []);
}

/**
 * A client sending with `wiring`, through a pipeline of its own: `api` and `send` share it.
 * `unavailable` is why a client without sessions has none, when it is not `tokenStore: null`.
 */
function clientOn(wiring: PipelineOptions, options: StackClientOptions, unavailable: StackConfigurationError | null): StackClient {
  const pipeline = createPipeline(wiring);
  const { sessions, env } = wiring;
  return {
    api: createApi(pipeline),
    send: createSend(pipeline),
    projectId: wiring.projectId,
    baseUrl: wiring.baseUrl,
    failover: options.failover,
    accessType: wiring.accessType,
    publishableClientKey: wiring.publishableClientKey,
    env,
    policy: wiring.policy,
    sessions,
    requireSessions() {
      if (!sessions) throw unavailable ?? noTokenStoreError();
      return sessions;
    },
    // Derived clients run on this environment: the same fetch, clock and timers.
    withTokenStore: (tokenStore) => createStackClient({ ...options, environment: env, tokenStore }),
    boundTo: (view) => clientOn(sessions ? { ...wiring, sessions: view } : { ...wiring, guard: view }, options, unavailable),
  };
}

function transportPolicy(options: StackClientOptions): TransportPolicy {
  const requestTimeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const maxRetryAfterMs = options.maxRetryAfterMs ?? MAX_SINGLE_WAIT_MS;
  if (!isWaitMs(requestTimeoutMs)) {
    throw new StackConfigurationError(
      `requestTimeoutMs must be a whole number of milliseconds from 0 (no limit) to ${MAX_SINGLE_WAIT_MS}; got ${String(requestTimeoutMs)}.`,
    );
  }
  if (!isWaitMs(maxRetryAfterMs)) {
    throw new StackConfigurationError(
      `maxRetryAfterMs must be a whole number of milliseconds from 0 to ${MAX_SINGLE_WAIT_MS}; got ${String(maxRetryAfterMs)}.`,
    );
  }
  const hooks = guardedHooks({ onRequest: options.onRequest, onRetry: options.onRetry });
  return { requestTimeoutMs, maxRetryAfterMs, hooks };
}

function isWaitMs(value: unknown): value is number {
  return Number.isInteger(value) && (value as number) >= 0 && (value as number) <= MAX_SINGLE_WAIT_MS;
}

/**
 * The ids, keys and extra headers travel in headers on every request; one that
 * cannot (a pasted key with a line break or a typographic quote) is refused
 * here, by name, rather than by every request later as a TypeError.
 */
function checkHeaderValues(options: StackClientOptions): void {
  const values: [string, unknown][] = [
    ["projectId", options.projectId],
    ["publishableClientKey", options.publishableClientKey],
    ["secretServerKey", options.secretServerKey],
    ["superSecretAdminKey", options.superSecretAdminKey],
    ...Object.entries(options.extraRequestHeaders ?? {}).map(([name, value]): [string, unknown] => [
      `extraRequestHeaders["${name}"]`,
      value,
    ]),
  ];
  for (const [what, value] of values) {
    if (value === undefined) continue;
    if (typeof value !== "string" || !/^[\t\x20-\x7E\x80-\xFF]*$/.test(value)) {
      throw new StackConfigurationError(
        `${what} cannot be sent in an HTTP header: it must be a string of printable ASCII characters, without line breaks.`,
      );
    }
  }
  for (const name of Object.keys(options.extraRequestHeaders ?? {})) {
    if (!/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(name)) {
      throw new StackConfigurationError(`extraRequestHeaders has a header name that is not valid in HTTP: ${JSON.stringify(name)}.`);
    }
  }
}
