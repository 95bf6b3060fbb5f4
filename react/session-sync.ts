// Keeping React Query in step with the session. Every stackkit read except the
// project's answers for one user; when the signed-in session changes (a sign-in,
// a sign-out, either in another tab) those entries are reset, not just marked
// stale, so no component shows the previous user's data while the new answer loads.
import type { Query, QueryClient } from "@tanstack/react-query";
import type { OperationId } from "../runtime/index.js";
import { isStackQueryKey } from "./query-keys.js";

/** Reads whose answer is the same for every user of the project. */
const SESSION_INDEPENDENT: ReadonlySet<OperationId> = new Set<OperationId>(["getCurrentProject"]);

/** True for a stackkit query whose answer depends on who is signed in. */
export function isUserScopedQuery(query: Pick<Query, "queryKey">): boolean {
  const key = query.queryKey;
  return isStackQueryKey(key) && !SESSION_INDEPENDENT.has(key[1]);
}

/**
 * Drops what every user-scoped query holds and refetches the ones on screen.
 * Resolves when those refetches have settled; it never rejects (a failed
 * refetch is the query's error, shown where the query is used).
 */
export function resetUserScopedQueries(client: QueryClient): Promise<void> {
  resets.set(client, resetCount(client) + 1);
  return client.resetQueries({ predicate: isUserScopedQuery }, { throwOnError: false });
}

// How many resets each client has had, so that a sign-in or sign-out mutation
// can tell whether the session-change listener already did its reset.
const resets = new WeakMap<QueryClient, number>();

/** The number of user-data resets `client` has had so far. */
export function resetCount(client: QueryClient): number {
  return resets.get(client) ?? 0;
}

/**
 * Resets user-scoped queries unless a reset happened since `before` (a
 * resetCount taken before the session changed): the store's change event
 * normally does it, and a second reset would fetch everything twice.
 */
export function ensureUserScopedReset(client: QueryClient, before: number): Promise<void> {
  return resetCount(client) === before ? resetUserScopedQueries(client) : Promise.resolve();
}
