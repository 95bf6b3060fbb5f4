// Two helpers of this app on top of stackkit/react, for the steps the package
// has no hook for: the single-use codes of e-mail links, and actions of the
// app or user objects (registering a passkey, accepting an invitation, …).
import { useMutation, useSuspenseQuery } from "@tanstack/react-query";
import type { OperationId } from "stackkit";
import { invalidateOperations, useStackQueryClient } from "stackkit/react";

/**
 * Runs a single-use step once per key (a code in the URL), even when React
 * mounts the page twice (StrictMode) or it re-renders: React Query shares one
 * run per key, and keeps the answer for as long as the app runs.
 */
export function useOnce<R>(key: readonly unknown[], run: () => Promise<R>): R {
  const client = useStackQueryClient();
  return useSuspenseQuery({ queryKey: ["example-once", ...key], queryFn: run, staleTime: Infinity, gcTime: Infinity }, client).data;
}

/** A mutation that, once it succeeds, refreshes the stackkit reads of the operations it changed. */
export function useAction<A, R>(run: (args: A) => Promise<R>, changes: readonly OperationId[]) {
  const client = useStackQueryClient();
  return useMutation({ mutationFn: run, onSuccess: () => invalidateOperations(client, changes) }, client);
}
