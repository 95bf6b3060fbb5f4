// Code an app does not need at first load arrives through dynamic `import()` on
// first use. One load is shared by every caller; a failed load (the app's files
// changed on the server, the network dropped) is not kept, so the next call tries
// again, and it fails as a NetworkError, like any other request that could not be made.
import { NetworkError } from "../errors.js";

/** Every loader made so far; a loaded module may make more (preloadAll follows them). */
const loaders = new Set<() => Promise<unknown>>();

/** A loader made by {@link lazy}; `loaded` is what it loaded, once it has (for code on a hot path that need not wait). */
export interface Lazy<T> {
  (): Promise<T>;
  readonly loaded: T | undefined;
}

/** A loader of `what` (named in the error) that runs `load` once, until it succeeds. */
export function lazy<T>(what: string, load: () => Promise<T>): Lazy<T> {
  let loading: Promise<T> | undefined;
  let loaded: T | undefined;
  const loader = (): Promise<T> =>
    (loading ??= load().then(
      (value) => (loaded = value),
      (cause: unknown) => {
        loading = undefined;
        throw new NetworkError(`Could not load stackkit's ${what}; check the network and that all of the app's files are deployed.`, {
          cause,
        });
      },
    ));
  loaders.add(loader);
  return Object.defineProperty(loader, "loaded", { get: () => loaded }) as Lazy<T>;
}

/**
 * Loads now everything stackkit would load on first use (OAuth, passkeys,
 * multi-factor sign-in, command-line login, owned projects, and the server and
 * admin apps' methods with token verification). For
 * tests on fake timers, whose clocks do not wait for a module to load, and for
 * apps that would rather load it all up front (`stackkit/testing` exports it as
 * preloadStackkit). Rejects with a NetworkError when a part cannot be loaded.
 *
 * @example
 * ```ts
 * beforeAll(async () => {
 *   await preloadStackkit();
 *   vi.useFakeTimers();
 * });
 * ```
 */
export async function preloadAll(): Promise<void> {
  const done = new Set<() => Promise<unknown>>();
  for (let pending = [...loaders]; pending.length > 0; pending = [...loaders].filter((l) => !done.has(l))) {
    for (const loader of pending) done.add(loader);
    await Promise.all(pending.map((loader) => loader()));
  }
}
