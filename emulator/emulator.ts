// createEmulator: the engine with its state, clock, signing key and handlers,
// and the control surface tests use. The same `fetch` serves in-process (pass
// it to an app as its fetch), behind msw, and over HTTP (emulator/server.ts).
import type { LocalOnlyPolicy } from "./local-only.js";
import { createControl, type EmulatorControl } from "./control.js";
import { createEngine, type Engine, type Exchange } from "./engine/engine.js";
import { DEFAULT_SHARED_EMAIL_SERVER, type SharedEmailServer } from "./engine/mail.js";
import { seedDefaults } from "./engine/seed.js";
import { Store, type StateJson } from "./engine/store.js";
import { serviceProfile, type ServiceVersion } from "./engine/profile.js";
import { Signers } from "./engine/tokens.js";
import { handlers } from "./handlers/index.js";
import { MAILBOX_API_PREFIX } from "./mailbox.js";
import type { PageFiles } from "./page.js";
import { extraRoutes, routesBeforeEngine, type RouteParts } from "./routes.js";

/**
 * How createEmulator sets up an emulator: its origin, starting state, token lifetime, clock and an exchange observer.
 * Every option has a default.
 *
 * @example
 * ```ts
 * const options: EmulatorOptions = {
 *   state: "default",
 *   accessTokenLifetimeMs: 60_000,
 *   startTimeMs: Date.parse("2025-01-01T00:00:00Z"),
 *   onExchange: ({ request, response }) => console.log(request.method, request.url, response.status),
 * };
 * const emulator = await createEmulator(options);
 * ```
 */
export interface EmulatorOptions {
  /**
   * The origin apps reach the API at, without `/api/v1`: the issuer of access
   * tokens and the base of links. Default `http://localhost:8102`; the HTTP
   * server sets it to where it listens.
   */
  readonly apiOrigin?: string;
  /** The state to start from: the default projects (default), nothing, or an export. */
  readonly state?: "default" | "empty" | StateJson;
  /** Access-token lifetime; default 10 minutes, as the service. */
  readonly accessTokenLifetimeMs?: number;
  /**
   * Sees a copy of every exchange under /api/v1, whatever way the emulator was
   * reached (in-process or over HTTP); a test suite validates them against the
   * document here.
   */
  readonly onExchange?: ((exchange: Exchange) => void | Promise<void>) | undefined;
  /** The clock's start; default the real time. The clock then moves with real time, plus what `advanceClock` adds. */
  readonly startTimeMs?: number;
  /**
   * The service version to answer as: `"2.8.86"` (default), what the hosted service runs and apps meet in
   * production, or `"2.8.11"`, the version the spec was written from. They differ in access tokens (2.8.11: one
   * issuer, camelCase claims, one key per project; 2.8.86: an issuer and audience per kind of user, snake_case
   * claims, two keys per audience), in the gate on anonymous and restricted users' tokens (2.8.86 only), and in who
   * may sign up anonymously (2.8.11: three fixed projects, `internal` among them). Another value is refused.
   */
  readonly serviceVersion?: ServiceVersion;
  /**
   * Origins whose web pages may call the control API (`/emulator/v1/…`) and read the mailbox (`/api/v1/mailbox/…`,
   * `/mailbox`), for a page of your own that shows codes or resets the state: each gets a CORS grant. Default none:
   * those routes answer only the emulator's own origin, this machine's tools and tests (no `Origin`), and only a
   * loopback `Host` (or `apiOrigin`'s), so no other page the developer has open, nor a DNS-rebound name, can read a
   * code or reset the state. The service's API under `/api/v1` answers every origin whatever this says.
   */
  readonly allowedOrigins?: readonly string[];
  /**
   * The service's shared e-mail server, which projects without their own send through: its host, port and user
   * name (what 2.8.11's `GET /internal/emails` shows as a shared e-mail's `sender_config`) and the address its
   * e-mails come from. Fields left out keep their defaults: `smtp.stackkit.local`, 587, `emulator`,
   * `noreply@example.com`. Nothing is sent through it; e-mails are captured.
   */
  readonly sharedEmailServer?: Partial<SharedEmailServer>;
  /**
   * The base URL stored files are named under (2.8.86 moves base64 pictures and logos to its storage): the service's
   * public storage endpoint and bucket, e.g. `http://localhost:8121/stack-storage`, for tests that expect the
   * service's own URLs. Default the emulator's own `<apiOrigin>/emulator/storage`, the only place it serves them.
   */
  readonly storageUrl?: string;
  /** @internal The emulator page's built files (the HTTP server reads them from the package); without them `/emulator/ui/` says it is not built. */
  readonly page?: PageFiles;
}

/** An emulator of the Stack Auth API, in-process: what {@link createEmulator} answers. Give apps its `fetch` (or serve it over HTTP with `stackkit/emulator/server`); `control` prepares and inspects its state. */
export interface Emulator {
  /** Answers a request as the service would. */
  readonly fetch: (request: Request) => Promise<Response>;
  readonly control: EmulatorControl;
  /** The origin apps use (`baseUrl`). */
  readonly apiOrigin: string;
  /** The service version it answers as (`serviceVersion`). */
  readonly serviceVersion: ServiceVersion;
  /** @internal the engine, for the HTTP server and tests of the emulator itself. */
  readonly engine: Engine;
  /** Where it listens over HTTP; undefined in-process (`startEmulatorServer` gives one). */
  readonly url: string | undefined;
  /**
   * Stops it: in-process there is nothing to free, so this resolves at once.
   *
   * @example
   * ```ts
   * const emulator = await createEmulator();
   * try {
   *   // ... run the app against emulator.fetch ...
   * } finally {
   *   await emulator.close();
   * }
   * ```
   */
  close(): Promise<void>;
}

/** An allowed origin as given (`http://localhost:5173/` is `http://localhost:5173`); anything else is refused here. */
function originOf(given: string): string {
  let url: URL;
  try {
    url = new URL(given);
  } catch {
    throw new RangeError(`allowedOrigins: ${JSON.stringify(given)} is not an origin (e.g. "http://localhost:5173")`);
  }
  if (url.origin === "null") throw new RangeError(`allowedOrigins: ${JSON.stringify(given)} has no origin (use http or https)`);
  return url.origin;
}

/** The origin the emulator says it is at when nothing else is given (`apiOrigin`): Stack Auth's local API address. */
export const DEFAULT_API_ORIGIN = "http://localhost:8102";
const TEN_MINUTES = 10 * 60 * 1000;

/**
 * Creates an in-process emulator of the Stack Auth API: its `fetch` answers requests as the service would, and its
 * `control` resets, seeds and inspects the state. Resolves to the emulator; nothing listens on a port.
 *
 * @example
 * ```ts
 * const emulator = await createEmulator();
 * const app = new StackClientApp({
 *   projectId: DEMO_KEYS.projectId,
 *   publishableClientKey: DEMO_KEYS.publishableClientKey,
 *   baseUrl: emulator.apiOrigin,
 *   tokenStore: "memory",
 *   environment: { fetch: emulator.fetch },
 * });
 * ```
 */
export async function createEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const profile = serviceProfile(options.serviceVersion);
  const apiOrigin = (options.apiOrigin ?? DEFAULT_API_ORIGIN).replace(/\/+$/, "");
  const store = new Store();
  const started = Date.now();
  const clock = { offset: options.startTimeMs === undefined ? 0 : options.startTimeMs - started };
  const now = () => Date.now() + clock.offset;
  const state = options.state ?? "default";
  if (state === "default") seedDefaults(store, now(), profile);
  else if (state !== "empty") store.load(state);
  const signers = new Signers();
  let control: EmulatorControl | undefined;
  const localOnly: LocalOnlyPolicy = {
    hosts: [new URL(apiOrigin).hostname],
    origins: (options.allowedOrigins ?? []).map(originOf),
  };
  const routeParts = (): RouteParts => ({ store, control: control as EmulatorControl, signers, localOnly, page: options.page });
  const engine = createEngine({
    store,
    signers,
    profile,
    handlers,
    apiOrigin,
    now,
    accessTokenLifetimeMs: options.accessTokenLifetimeMs ?? TEN_MINUTES,
    sharedEmailServer: { ...DEFAULT_SHARED_EMAIL_SERVER, ...options.sharedEmailServer },
    ...(options.storageUrl === undefined ? {} : { storageUrl: options.storageUrl }),
    onExchange: options.onExchange,
    extraRoutes: (request, url) => extraRoutes(request, url, routeParts()),
  });
  control = createControl({ engine, store, clock, seed: () => seedDefaults(store, now(), profile) });
  // The mailbox API lives under /api/v1 (Inbucket's path) but is not the service's: answered before the engine, never logged.
  const fetch = (request: Request): Promise<Response> =>
    request.url.includes(MAILBOX_API_PREFIX)
      ? routesBeforeEngine(request, routeParts()).then((answer) => answer ?? engine.fetch(request))
      : engine.fetch(request);
  return { fetch, control, apiOrigin, serviceVersion: profile.version, engine, url: undefined, close: async () => {} };
}
