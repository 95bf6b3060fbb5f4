// Whether the Stack Auth API can be reached, as this browser sees it: the
// browser's own online and offline events, and the outcome of every request the
// SDK sends (stack.ts hands the SDK this module's fetch). A failure shows at the
// first failed attempt, while the SDK is still retrying (a read is tried for up
// to about 15 s before its error arrives), and the next answer clears it.
// The banner and the retry that read this live in components/Connection.tsx.

/** offline: the browser says so; unreachable: no answer came; unavailable: the service answered that it is down. */
export type ConnectionProblem = "offline" | "unreachable" | "unavailable";

/** Answers of a service that is down or of the gateway in front of it (508: the platform's loop guard). */
const SERVICE_DOWN = new Set([502, 503, 504, 508]);

const browserOffline = () => typeof navigator !== "undefined" && navigator.onLine === false;

let problem: ConnectionProblem | null = browserOffline() ? "offline" : null;
const listeners = new Set<() => void>();

function report(next: ConnectionProblem | null): void {
  if (next === problem) return;
  problem = next;
  for (const listener of listeners) listener();
}

/** The fetch the SDK sends with (`environment.fetch`): the platform's, watched. */
export async function watchedFetch(request: Request): Promise<Response> {
  try {
    const response = await globalThis.fetch(request);
    // Stack Auth answers its own errors with 200 and the real status in a header (the SDK asks it to, for
    // browsers that hide error bodies); a gateway in front of it answers with the status itself.
    const status = Number(response.headers.get("x-stack-actual-status") ?? response.status);
    report(SERVICE_DOWN.has(status) ? "unavailable" : null);
    return response;
  } catch (error) {
    // A request the app cancelled (a page left, a query nobody needs any more) says nothing about the network;
    // one the SDK gave up waiting for (its requestTimeoutMs) does.
    const cancelled = request.signal.aborted && (request.signal.reason as { name?: unknown } | undefined)?.name === "AbortError";
    if (!cancelled) report(browserOffline() ? "offline" : "unreachable");
    throw error;
  }
}

export function connectionProblem(): ConnectionProblem | null {
  return problem;
}

export function subscribeToConnection(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

if (typeof window !== "undefined") {
  window.addEventListener("offline", () => report("offline"));
  // Back online: the next answer decides; until then nothing is known to be wrong.
  window.addEventListener("online", () => report(null));
}
