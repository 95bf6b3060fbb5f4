// <StackProvider>: hands the app and a QueryClient to every hook below it,
// hydrates what the server rendered with, and keeps user data in step with the
// session. Nothing here runs on the server beyond creating the QueryClient and
// hydrating: subscriptions start in an effect.
import { HydrationBoundary, QueryClientProvider, type DehydratedState, type QueryClient } from "@tanstack/react-query";
import { createContext, useContext, useEffect, useMemo, useRef, type ReactNode } from "react";
import type { StackClientApp } from "../runtime/index.js";
import { StackConfigurationError } from "../runtime/errors.js";
import { createStackQueryClient } from "./query-client.js";
import { syncSession } from "./session-sync.js";
import { watchHydratedUser } from "./hydrated-user.js";

interface StackContextValue {
  readonly app: StackClientApp;
  readonly queryClient: QueryClient;
}

const StackContext = createContext<StackContextValue | null>(null);

/** What {@link StackProvider} takes: the client app, and optionally the QueryClient and the state a server rendered. */
export interface StackProviderProps {
  /** The client app whose user, project and calls the hooks use. */
  readonly app: StackClientApp;
  /**
   * The QueryClient to keep stackkit's queries in; by default one made by
   * createStackQueryClient(). Pass your own to share it with the rest of the app.
   */
  readonly queryClient?: QueryClient;
  /**
   * What the server rendered with: `dehydrate(queryClient)` of a QueryClient
   * filled by prefetchUser. Hydrated before the first render, so that useUser
   * shows the user at once, without a request or a Suspense fallback.
   */
  readonly dehydratedState?: DehydratedState | null;
  readonly children?: ReactNode;
}

/**
 * Hands the client app and a QueryClient to every stackkit hook below it, hydrates `dehydratedState` from server
 * rendering, and keeps user data in step with the session. Throws a StackConfigurationError when `app` is not a
 * client app.
 *
 * @example
 * ```tsx
 * const stackClientApp = new StackClientApp({ projectId, publishableClientKey, tokenStore: "cookie" });
 *
 * createRoot(document.getElementById("root")!).render(
 *   <StackProvider app={stackClientApp}>
 *     <Suspense fallback={<Spinner />}><App /></Suspense>
 *   </StackProvider>,
 * );
 * ```
 */
export function StackProvider({ app, queryClient, dehydratedState, children }: StackProviderProps) {
  if (typeof app !== "object" || app === null || typeof app.getUser !== "function") {
    throw new StackConfigurationError(
      "<StackProvider> needs the client app: <StackProvider app={new StackClientApp({ projectId, tokenStore })}>.",
    );
  }
  // Without a queryClient prop, one client for the provider's lifetime, made on
  // first render (on the server and in the browser alike).
  const own = useRef<QueryClient | null>(null);
  if (!queryClient && !own.current) own.current = createStackQueryClient();
  const client = queryClient ?? (own.current as QueryClient);
  const value = useMemo(() => ({ app, queryClient: client }), [app, client]);

  useEffect(() => {
    return app.onSessionChange(() => void syncSession(client));
  }, [app, client]);
  // After the children's effects, so that a hydrated user is shown before it is checked.
  useEffect(() => watchHydratedUser(app, client), [app, client]);

  return (
    <QueryClientProvider client={client}>
      <HydrationBoundary state={dehydratedState} queryClient={client}>
        <StackContext.Provider value={value}>{children}</StackContext.Provider>
      </HydrationBoundary>
    </QueryClientProvider>
  );
}

function useStackContext(hook: string): StackContextValue {
  const value = useContext(StackContext);
  if (value === null) {
    throw new StackConfigurationError(
      `${hook} was called outside <StackProvider>. Wrap your app in <StackProvider app={stackClientApp}> (from "stackkit/react") so that hooks can reach the app.`,
    );
  }
  return value;
}

/**
 * The app given to the nearest `<StackProvider>`; throws a StackConfigurationError outside one. The type parameter
 * narrows it when the provider was given a server or admin app.
 *
 * @example
 * ```tsx
 * function SignInWithGoogle() {
 *   const app = useStackApp();
 *   return <button onClick={() => app.signInWithOAuth("google")}>Sign in with Google</button>;
 * }
 * ```
 */
export function useStackApp<App extends StackClientApp = StackClientApp>(): App {
  return useStackContext("useStackApp()").app as App;
}

/**
 * The QueryClient stackkit's hooks use (the provider's `queryClient`, or the one it made); throws a
 * StackConfigurationError outside `<StackProvider>`.
 *
 * @example
 * ```tsx
 * const queryClient = useStackQueryClient();
 * const refresh = () => queryClient.invalidateQueries({ queryKey: stackQueryPrefix("listTeams") });
 * return <button onClick={refresh}>Refresh teams</button>;
 * ```
 */
export function useStackQueryClient(): QueryClient {
  return useStackContext("useStackQueryClient()").queryClient;
}

/** Both at once, for the hooks of this package; `hook` names the caller in the error. */
export function useStackContextFor(hook: string): StackContextValue {
  return useStackContext(hook);
}
