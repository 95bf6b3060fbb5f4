// Every side effect the runtime has, injected. Tests pass their own; apps get
// the platform's by default. Nothing in runtime/ reaches for a global directly.
import { StackConfigurationError } from "../errors.js";
import { abortReason } from "./abort.js";

/** The `fetch` the runtime sends requests with (a Request in, a Response out). */
export type Fetch = (request: Request) => Promise<Response>;
export type TimerId = unknown;

/** The platform the runtime runs on: fetch, clock, timers, randomness and whether it is online. Apps get the platform's ({@link platformEnvironment}); the `environment` option replaces parts of it, for tests. */
export interface Environment {
  /** Sends a request. */
  readonly fetch: Fetch;
  /** Milliseconds since the epoch. */
  readonly now: () => number;
  readonly setTimeout: (callback: () => void, ms: number) => TimerId;
  readonly clearTimeout: (id: TimerId) => void;
  /** A uniform random number in [0, 1): the retry jitter. */
  readonly random: () => number;
  /** Cryptographically random bytes: nonces, PKCE verifiers, OAuth state. */
  readonly randomBytes: (length: number) => Uint8Array;
  /**
   * False only when the runtime knows it is offline (`navigator.onLine === false`).
   * Node has a `navigator` without `onLine`; that is not offline.
   */
  readonly isOffline: () => boolean;
}

/** The platform's implementations, looked up when called (so test tools that patch globals later still apply). */
export const platformEnvironment: Environment = {
  fetch: (request) => globalThis.fetch(request),
  now: () => Date.now(),
  setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
  clearTimeout: (id) => globalThis.clearTimeout(id as Parameters<typeof globalThis.clearTimeout>[0]),
  random: () => Math.random(),
  randomBytes: (length) => globalThis.crypto.getRandomValues(new Uint8Array(length)),
  isOffline: () => reportsOffline((globalThis as { navigator?: unknown }).navigator),
};

/**
 * True only when a navigator says `onLine === false`. Node ≥ 21 has a
 * `navigator` without `onLine`; a missing property is not "offline".
 */
export function reportsOffline(navigator: unknown): boolean {
  return typeof navigator === "object" && navigator !== null && (navigator as { onLine?: unknown }).onLine === false;
}

/**
 * The platform environment with some parts replaced: for the `environment`
 * option of the apps and clients, or for tests on a fake clock.
 *
 * @example
 * ```ts
 * const env = environment({
 *   fetch: (request) => (request.url.startsWith("https://api.stack-auth.com/") ? fetch(request) : Promise.reject(new Error("blocked"))),
 * });
 * const app = new StackServerApp({ projectId, secretServerKey, tokenStore: null, environment: env });
 * ```
 */
export function environment(overrides: Partial<Environment> = {}): Environment {
  const env: Record<string, unknown> = { ...platformEnvironment };
  for (const [name, value] of Object.entries(overrides ?? {})) {
    // Left out and undefined are the same: `{ fetch: maybeFetch }` keeps the platform's when there is none.
    if (value === undefined) continue;
    if (!Object.hasOwn(platformEnvironment, name)) {
      throw new StackConfigurationError(
        `environment.${name} is not a part of the environment; it has ${Object.keys(platformEnvironment).join(", ")}.`,
      );
    }
    if (typeof value !== "function") {
      throw new StackConfigurationError(`environment.${name} must be a function; got ${value === null ? "null" : typeof value}.`);
    }
    env[name] = value;
  }
  return env as unknown as Environment;
}

/**
 * Resolves after `ms`, on the environment's timers. Rejects with the abort
 * reason as soon as `signal` aborts, and clears its timer.
 */
export function sleep(env: Environment, ms: number, signal?: AbortSignal | null): Promise<void> {
  if (signal?.aborted) return Promise.reject(abortReason(signal));
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      env.clearTimeout(timer);
      reject(abortReason(signal as AbortSignal));
    };
    const timer = env.setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
