// The banner of an offline browser or an unreachable service (connection.ts
// tracks which), and "Try again": every read that failed is asked again, and
// every error boundary shows its content again. Coming back online retries too.
import { useCallback, useEffect, useSyncExternalStore } from "react";
import { HttpError, NetworkError } from "stackkit";
import { isStackQueryKey, useStackQueryClient } from "stackkit/react";
import { connectionProblem, subscribeToConnection, type ConnectionProblem } from "../connection.js";
import { userFacing } from "../errors.js";

// Each "Try again" is a new epoch; error boundaries (components/errors.tsx) clear their error when it changes.
let epoch = 0;
const epochListeners = new Set<() => void>();
const subscribeToEpoch = (listener: () => void) => {
  epochListeners.add(listener);
  return () => epochListeners.delete(listener);
};

export function useRetryEpoch(): number {
  return useSyncExternalStore(
    subscribeToEpoch,
    () => epoch,
    () => 0,
  );
}

/** Asks again every read that failed (and the stackkit reads on screen), and clears every error boundary. */
export function useRetryAll(): () => void {
  const client = useStackQueryClient();
  return useCallback(() => {
    // Reset before the boundaries render their content again: a query still in error would be thrown again at once.
    void client.resetQueries({ predicate: (query) => query.state.status === "error" });
    epoch++;
    for (const listener of epochListeners) listener();
    // Only stackkit's reads: the app's single-use steps (a code from an e-mail link) must not run twice.
    void client.refetchQueries({ type: "active", predicate: (query) => isStackQueryKey(query.queryKey) });
  }, [client]);
}

// The error codes on screen right now (notes and error pages, counted): the banner stays away while one of them
// already says what it would say, next to the action that failed.
const onScreen = new Map<string, number>();
let onScreenVersion = 0;
const onScreenListeners = new Set<() => void>();

/** Counts `code` as on screen while the calling component shows it (null: shows none). */
export function useShowsErrorCode(code: string | null): void {
  useEffect(() => {
    if (code === null) return;
    const change = (by: number) => {
      onScreen.set(code, (onScreen.get(code) ?? 0) + by);
      onScreenVersion++;
      for (const listener of onScreenListeners) listener();
    };
    change(1);
    return () => change(-1);
  }, [code]);
}

function useOnScreenVersion(): number {
  return useSyncExternalStore(
    (listener) => {
      onScreenListeners.add(listener);
      return () => onScreenListeners.delete(listener);
    },
    () => onScreenVersion,
    () => 0,
  );
}

/** The words of a connection problem, from describeError like every other error the app shows. */
function wordsFor(problem: ConnectionProblem) {
  if (problem === "unavailable") return userFacing(new HttpError(503, "", "The service answered 503"));
  return userFacing(new NetworkError("No answer from the service"), { isOffline: () => problem === "offline" });
}

export function ConnectionBanner() {
  const problem = useSyncExternalStore(subscribeToConnection, connectionProblem, () => null);
  useOnScreenVersion();
  const retryAll = useRetryAll();
  useEffect(() => {
    window.addEventListener("online", retryAll);
    return () => window.removeEventListener("online", retryAll);
  }, [retryAll]);
  if (problem === null) return null;
  const words = wordsFor(problem);
  if ((onScreen.get(words.code) ?? 0) > 0) return null;
  return (
    <div className="banner" role="status" data-connection={problem}>
      <p>
        <strong className="note-title">{words.title}</strong> <span className="note-message">{words.message}</span>
      </p>
      <button type="button" className="button button-secondary button-small" onClick={retryAll}>
        Try again
      </button>
    </div>
  );
}
