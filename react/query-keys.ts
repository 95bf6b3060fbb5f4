import type { OperationId } from "../runtime/index.js";

/**
 * The React Query key of an operation: `["stackkit", operationId, params]`.
 * Keys start with the operationId so that a mutation can invalidate every
 * read of one operation with the prefix `["stackkit", operationId]`.
 */
export type StackQueryKey<K extends OperationId = OperationId> = readonly ["stackkit", K, StackQueryParams];

/** The parameters of a read, as they appear in its key. */
export type StackQueryParams = Readonly<Record<string, unknown>>;

/**
 * Builds the key of a read. Parameters whose value is `undefined` are left out,
 * so `{ team_id: undefined }` and `{}` name the same query.
 *
 * @example
 * ```ts
 * const key = stackQueryKey("listTeams", { user_id: "me" }); // ["stackkit", "listTeams", { user_id: "me" }]
 * const teams = queryClient.getQueryData(key);
 * queryClient.removeQueries({ queryKey: key, exact: true });
 * ```
 */
export function stackQueryKey<K extends OperationId>(operationId: K, params: StackQueryParams = {}): StackQueryKey<K> {
  const defined = Object.fromEntries(Object.entries(params).filter(([, value]) => value !== undefined));
  return ["stackkit", operationId, defined] as const;
}

/**
 * The key prefix of every read of one operation, `["stackkit", operationId]`:
 * what a mutation invalidates, and what an app passes to
 * `queryClient.invalidateQueries({ queryKey })` to refresh one resource.
 *
 * @example
 * ```ts
 * // Refetch every read of the user's teams, whatever its parameters:
 * await queryClient.invalidateQueries({ queryKey: stackQueryPrefix("listTeams") });
 * ```
 */
export function stackQueryPrefix<K extends OperationId>(operationId: K): readonly ["stackkit", K] {
  return ["stackkit", operationId] as const;
}

/**
 * True for a key made by {@link stackQueryKey} (it starts with `"stackkit"` and an operation id).
 *
 * @example
 * ```ts
 * // Drop every stackkit query, leaving the app's own queries in place:
 * queryClient.removeQueries({ predicate: (query) => isStackQueryKey(query.queryKey) });
 * ```
 */
export function isStackQueryKey(key: readonly unknown[]): key is StackQueryKey {
  return key[0] === "stackkit" && typeof key[1] === "string";
}

/**
 * The key of the signed-in user's query (`GET /users/me`), which every
 * reader of the user shares: the hooks, prefetchUser, and session syncing.
 */
export const CURRENT_USER_QUERY_KEY = stackQueryKey("getCurrentUser", { user_id: "me" });
