// Keeping React Query in step with the session. Every stackkit read except the
// project's answers for one user. When the signed-in session changes (a
// sign-in, a sign-out, a new refresh token, any of them in another tab) the
// user is asked for again while the components keep showing the previous
// answer, so nothing suspends; what else each query holds then depends on who
// the new session's user is (see syncSession).
import type { Query, QueryClient } from "@tanstack/react-query";
import type { OperationId } from "../runtime/index.js";
import { CURRENT_USER_QUERY_KEY, isStackQueryKey } from "./query-keys.js";

/** Reads whose answer is the same for every user of the project. */
const SESSION_INDEPENDENT: ReadonlySet<OperationId> = new Set<OperationId>(["getCurrentProject"]);

/**
 * True for a stackkit query whose answer depends on who is signed in: every stackkit read except the project's.
 *
 * @example
 * ```ts
 * // Forget whatever belongs to the signed-in user, e.g. before handing the cache to another user:
 * queryClient.removeQueries({ predicate: isUserScopedQuery });
 * ```
 */
export function isUserScopedQuery(query: Pick<Query, "queryKey">): boolean {
  const key = query.queryKey;
  return isStackQueryKey(key) && !SESSION_INDEPENDENT.has(key[1]);
}

/**
 * Drops what every user-scoped query holds and refetches the ones on screen.
 * Resolves when those refetches have settled; it never rejects (a failed
 * refetch is the query's error, shown where the query is used).
 *
 * @example
 * ```ts
 * const queryClient = useStackQueryClient();
 * const reload = async () => {
 *   await resetUserScopedQueries(queryClient);
 *   setReloadedAt(new Date());
 * };
 * ```
 */
export function resetUserScopedQueries(client: QueryClient): Promise<void> {
  return client.resetQueries({ predicate: isUserScopedQuery }, { throwOnError: false });
}

interface SyncState {
  /** How many syncs have started; a sync that sees a newer one started stops. */
  count: number;
  latest: Promise<void>;
}

const syncs = new WeakMap<QueryClient, SyncState>();

/** The number of session syncs `client` has started so far. */
export function sessionSyncCount(client: QueryClient): number {
  return syncs.get(client)?.count ?? 0;
}

/**
 * Brings `client` in step with a new session. The user query is refetched
 * while keeping its answer, so useUser shows the previous user (or nobody)
 * until the new one is known, without suspending. After a sign-out the
 * refetch needs no request (the app answers null for an empty session), so
 * null replaces the previous user within the task that ended the session,
 * before React renders again; useSignOut resolves only after that.
 *
 * Once the new user is known, the other user-scoped queries are refetched in
 * place when it is the same user (a rotated token, the same user signing in
 * again), and dropped otherwise, so that no component shows a previous user's
 * teams or keys under someone else's name. When nobody reads the user, or its
 * refetch fails, everything user-scoped is dropped.
 *
 * Resolves when this is done; it never rejects.
 */
export function syncSession(client: QueryClient): Promise<void> {
  const state = syncs.get(client) ?? { count: 0, latest: Promise.resolve() };
  syncs.set(client, state);
  const generation = ++state.count;
  state.latest = follow(client, () => state.count !== generation);
  return state.latest;
}

/**
 * Syncs unless a sync started since `before` (a sessionSyncCount taken before
 * the session changed), and resolves when the latest sync is done: the
 * store's change event normally starts one, and a second would fetch
 * everything twice.
 */
export async function ensureSessionSync(client: QueryClient, before: number): Promise<void> {
  if (sessionSyncCount(client) === before) return syncSession(client);
  let awaited: Promise<void> | undefined;
  while (syncs.get(client)!.latest !== awaited) {
    awaited = syncs.get(client)!.latest;
    await awaited;
  }
}

async function follow(client: QueryClient, superseded: () => boolean): Promise<void> {
  const user = client.getQueryCache().find<unknown>({ queryKey: CURRENT_USER_QUERY_KEY, exact: true });
  const before = user?.state.data;
  if (!user || before === undefined || user.getObserversCount() === 0) return resetUserScopedQueries(client);
  // Cancels a read still running for the previous session, so its answer never lands.
  await client.refetchQueries({ queryKey: CURRENT_USER_QUERY_KEY, exact: true }, { throwOnError: false });
  if (superseded()) return;
  // A failed refetch keeps the previous answer, and useUser would go on showing it.
  if (user.state.status === "error") return resetUserScopedQueries(client);
  const others = { predicate: (query: Query) => query !== user && isUserScopedQuery(query) };
  if (idOf(user.state.data) === idOf(before)) await client.invalidateQueries(others, { throwOnError: false });
  else await client.resetQueries(others, { throwOnError: false });
}

/** The user id of what the user query holds (its JSON, or a user an app put there); null for nobody. */
function idOf(data: unknown): string | null {
  return typeof data === "object" && data !== null ? String((data as { id?: unknown }).id) : null;
}
