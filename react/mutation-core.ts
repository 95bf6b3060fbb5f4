// What every stackkit mutation shares: React Query's useMutation on the
// provider's client, and, once it succeeds, the invalidation of exactly the
// reads it changed (every query under `["stackkit", operationId]`), awaited so
// that `isPending` lasts until fresh data is on its way.
import { useMutation, type QueryClient, type UseMutationResult } from "@tanstack/react-query";
import type { OperationId, StackClientApp, StackkitError } from "../runtime/index.js";
import { StackConfigurationError } from "../runtime/errors.js";
import { useStackContextFor } from "./provider.js";
import { stackQueryPrefix } from "./query-keys.js";

export interface MutationContext {
  readonly app: StackClientApp;
  readonly client: QueryClient;
}

export interface StackMutationSpec<TVariables, TData> {
  /** Does the change; runs when `mutate(variables)` is called. */
  run(context: MutationContext, variables: TVariables): Promise<TData>;
  /** The operations whose reads the change made stale. */
  changes(context: MutationContext, variables: TVariables, data: TData): readonly OperationId[];
  /** Extra work after success, e.g. the session sync of a sign-in. */
  after?(context: MutationContext, variables: TVariables, data: TData): Promise<void>;
}

/**
 * Invalidates every read of each operation (by key prefix); resolves when the active ones have refetched. Useful
 * after a change made outside the hooks (a direct SDK call, a server action).
 *
 * @example
 * ```ts
 * const team = await user.createTeam({ displayName: "Research" });
 * await invalidateOperations(queryClient, ["listTeams", "getCurrentUser"]);
 * ```
 */
export async function invalidateOperations(client: QueryClient, operationIds: readonly OperationId[]): Promise<void> {
  await Promise.all([...new Set(operationIds)].map((id) => client.invalidateQueries({ queryKey: stackQueryPrefix(id) })));
}

/** A mutation whose `error` is what the SDK rejects with (a known error, a runtime error, an abort), not just `Error`. */
export function useStackMutation<TVariables, TData>(
  hook: string,
  spec: StackMutationSpec<TVariables, TData>,
): UseMutationResult<TData, StackkitError, TVariables> {
  const { app, queryClient } = useStackContextFor(hook);
  const context: MutationContext = { app, client: queryClient };
  return useMutation<TData, StackkitError, TVariables>(
    {
      mutationFn: (variables: TVariables) => spec.run(context, variables),
      onSuccess: async (data, variables) => {
        await invalidateOperations(queryClient, spec.changes(context, variables, data));
        await spec.after?.(context, variables, data);
      },
    },
    queryClient,
  );
}

/** `value` when it has the method `name` (a stackkit object), else an error that says what to pass. */
export function requireObject<T extends object>(value: T | null | undefined, name: keyof T & string, hook: string, what: string): T {
  if (typeof value !== "object" || value === null || typeof value[name] !== "function") {
    throw new StackConfigurationError(`${hook} needs ${what}.`);
  }
  return value;
}
