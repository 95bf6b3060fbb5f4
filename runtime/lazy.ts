// Code an app does not need at first load arrives through dynamic `import()` on
// first use. One load is shared by every caller; a failed load (the app's files
// changed on the server, the network dropped) is not kept, so the next call tries
// again, and it fails as a NetworkError, like any other request that could not be made.
import { NetworkError } from "./errors.js";

/** A loader of `what` (named in the error) that runs `load` once, until it succeeds. */
export function lazy<T>(what: string, load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () =>
    (loading ??= load().catch((cause: unknown) => {
      loading = undefined;
      throw new NetworkError(`Could not load stackkit's ${what}; check the network and that all of the app's files are deployed.`, {
        cause,
      });
    }));
}
