// The query options of every read answered with the SDK's objects (the user,
// teams, contact channels …): React Query types their error as the SDK's error
// union rather than its default `Error`, and keeps each answer as it is.
import { queryOptions, type QueryFunction } from "@tanstack/react-query";
import type { StackkitError } from "../runtime/index.js";
import type { StackQueryKey } from "./query-keys.js";

/** `queryOptions` with `error` typed StackkitError; answers are objects with methods, so no structural sharing. */
export function objectQueryOptions<T, K extends StackQueryKey>(queryKey: K, queryFn: QueryFunction<T, K>) {
  return queryOptions<T, StackkitError, T, K>({ queryKey, queryFn, structuralSharing: false });
}
