// The QueryClient the provider brings when the app gives none, set to SPEC §9's
// cache rules. React Query already shares one request between concurrent reads
// of one key; the numbers below are the rest of those rules.
import { QueryClient, type QueryClientConfig } from "@tanstack/react-query";

/** Reads within this many milliseconds of the last fetch reuse it (SPEC §9: throttle 300 ms). */
export const STACK_STALE_TIME_MS = 300;
/** An entry nobody subscribes to is dropped after this many milliseconds (SPEC §9: 5 s). */
export const STACK_GC_TIME_MS = 5000;

/**
 * A QueryClient with the stackkit defaults: staleTime 300 ms, gcTime 5 s, and
 * no retries, because the runtime already retries what the spec allows
 * (idempotent calls, 429s, network errors) and a second layer would multiply
 * attempts. `config` is merged over these defaults.
 *
 * @example
 * ```tsx
 * const queryClient = createStackQueryClient({
 *   defaultOptions: { queries: { refetchOnWindowFocus: false } },
 * });
 * root.render(<StackProvider app={stackClientApp} queryClient={queryClient}><App /></StackProvider>);
 * ```
 */
export function createStackQueryClient(config: QueryClientConfig = {}): QueryClient {
  const { defaultOptions, ...rest } = config;
  return new QueryClient({
    ...rest,
    defaultOptions: {
      ...defaultOptions,
      queries: { staleTime: STACK_STALE_TIME_MS, gcTime: STACK_GC_TIME_MS, retry: false, ...defaultOptions?.queries },
      mutations: { retry: false, ...defaultOptions?.mutations },
    },
  });
}
