// The signed-in user as React Query state. One query per app holds the user the
// tokens belong to (anonymous users included), as JSON (user-json.ts) so that
// server rendering can hand it to the browser; `or` is applied on top of it, so
// every component and every `or` option shares one request.
import { useQuery, useSuspenseQuery, type Query, type QueryClient, type UseQueryResult } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import type { CurrentUser, GetUserOptions, GetUserOr, StackClientApp, StackkitError, TokenStoreInit } from "../runtime/index.js";
import { StackConfigurationError, UserNotSignedInError } from "../runtime/errors.js";
import { objectQueryOptions } from "./object-query.js";
import { useStackContextFor } from "./provider.js";
import { CURRENT_USER_QUERY_KEY } from "./query-keys.js";
import { never, peekTracked, readTracked, trackedAction, type Tracked } from "./suspend.js";
import { isForeignUserJson, isUncheckedUserJson, isUserJson, userJsonOf, userOf, type UserJson } from "./user-json.js";

const REDIRECT = "redirect-to-sign-in";
const ANONYMOUS_SIGN_UP = "anonymous-sign-up";

/**
 * What currentUserQueryOptions and prefetchUser take: whose user to read.
 *
 * @example
 * ```ts
 * // In a server request handler:
 * const options: CurrentUserQueryOptions = { tokenStore: request };
 * await prefetchUser(queryClient, stackServerApp, options);
 * ```
 */
export interface CurrentUserQueryOptions {
  /**
   * Whose user to read, in place of the app's own token store: on a server,
   * the incoming request (its cookies or `x-stack-auth` header).
   */
  readonly tokenStore?: TokenStoreInit;
}

/**
 * The query of the current user (`GET /users/me`): the user's JSON (anonymous
 * users included), or null when nobody is signed in. The hooks turn it into
 * the CurrentUser. It is JSON rather than the user object so that
 * `dehydrate()` can carry it; each answer is kept as it is (no structural
 * sharing), because the copy remembers the user it was made from.
 *
 * @example
 * ```ts
 * const json = await queryClient.fetchQuery(currentUserQueryOptions(app));
 * console.log(json?.id ?? "nobody signed in");
 * const cached = queryClient.getQueryData(currentUserQueryOptions(app).queryKey);
 * ```
 */
export function currentUserQueryOptions(app: StackClientApp, options: CurrentUserQueryOptions = {}) {
  const tokenStore = options.tokenStore;
  return objectQueryOptions(
    CURRENT_USER_QUERY_KEY,
    // React Query's signal: a query nobody waits for any more (cancelled, or its
    // last component unmounted) stops its request instead of finishing it.
    async ({ signal }): Promise<UserJson | null> => {
      const user = await app.getUser({ or: "anonymous-if-exists", signal, ...(tokenStore !== undefined && { tokenStore }) });
      return user && userJsonOf(user);
    },
  );
}

/**
 * Fills `queryClient` with the signed-in user, so that `dehydrate(queryClient)`
 * carries it to the browser and useUser renders it there at once. On a server,
 * pass the incoming request as `tokenStore` (and a QueryClient made for this
 * request only). Only the user's client fields travel, also when `app` is a
 * server app. Like React Query's prefetchQuery it never rejects: a failure
 * leaves nothing to hydrate, and the browser asks for the user itself.
 *
 * @example
 * // On the server, for each request: render with the filled client, and put its state into the page.
 * const queryClient = createStackQueryClient();
 * await prefetchUser(queryClient, stackServerApp, { tokenStore: request });
 * const html = renderToString(<StackProvider app={app} queryClient={queryClient}><App /></StackProvider>);
 * const dehydratedState = dehydrate(queryClient);
 * // In the browser: hydrate with the same state.
 * hydrateRoot(root, <StackProvider app={app} dehydratedState={dehydratedState}><App /></StackProvider>);
 */
export function prefetchUser(queryClient: QueryClient, app: StackClientApp, options: CurrentUserQueryOptions = {}): Promise<void> {
  return queryClient.prefetchQuery(currentUserQueryOptions(app, options));
}

/**
 * The user query as the hooks observe it. A copy hydrated from the server is
 * not refetched when a component mounts (that would be the second request
 * server rendering saves): the provider checks it against the browser's own
 * session instead (hydrated-user.ts). Any other answer is refetched on mount
 * as the client's defaults say.
 */
function userObserverOptions(app: StackClientApp, client: QueryClient) {
  const options = currentUserQueryOptions(app);
  const inherited = client.defaultQueryOptions(options).refetchOnMount;
  return {
    ...options,
    refetchOnMount: (query: Query<UserJson | null, StackkitError, UserJson | null, typeof CURRENT_USER_QUERY_KEY>) => {
      if (isUncheckedUserJson(query.state.data)) return false;
      return typeof inherited === "function" ? inherited(query) : (inherited ?? true);
    },
  };
}

/**
 * The signed-in user for calls that need one; a UserNotSignedInError naming `what` when there is none.
 * The user query is shared: an aborted `signal` stops this caller waiting for it, not the query.
 */
export async function requireUser(app: StackClientApp, client: QueryClient, what: string, signal?: AbortSignal): Promise<CurrentUser> {
  const options = currentUserQueryOptions(app);
  let data: UserJson | CurrentUser | null = await untilAborted(client.ensureQueryData(options), signal);
  // A copy from the server has no user object behind it: fetch the user once,
  // which puts one in the cache for every later caller too.
  if (isUserJson(data) && isForeignUserJson(data)) data = await untilAborted(client.fetchQuery({ ...options, staleTime: 0 }), signal);
  if (data === null) throw new UserNotSignedInError(`${what} needs a signed-in user, and nobody is signed in.`);
  return userOf(app, data);
}

/**
 * Settles as `promise` does, or rejects with the signal's reason (as `fetch`
 * does) once `signal` aborts. The promise itself goes on; only this caller stops waiting.
 */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason ?? new DOMException("This operation was aborted", "AbortError"));
    if (signal.aborted) onAbort();
    else signal.addEventListener("abort", onAbort, { once: true });
    // Settling after an abort changes nothing, and a late failure is handled here, never unhandled.
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/**
 * What `or` and `includeRestricted` make of the query's user, as getUser decides it:
 * anonymous users count only for the anonymous options; restricted ones (anonymous
 * ones among them) only with `includeRestricted` or an anonymous option.
 */
function visibleUser(user: CurrentUser | null, or: GetUserOr, includeRestricted: boolean | undefined): CurrentUser | null {
  const includeAnonymous = or === "anonymous" || or === "anonymous-if-exists";
  if (user?.isAnonymous && !includeAnonymous) return null;
  if (user?.isRestricted && !(includeRestricted === true || includeAnonymous)) return null;
  return user;
}

const OR_VALUES: readonly GetUserOr[] = [
  "redirect",
  "throw",
  "return-null",
  "anonymous",
  "anonymous-if-exists",
  "anonymous-if-exists[deprecated]",
];

/** The `or` option; an unknown one is refused rather than treated as some other option. */
function orOfHook(options: GetUserOptions | undefined, hook: string) {
  const or = options?.or ?? "return-null";
  if (!OR_VALUES.includes(or)) {
    throw new StackConfigurationError(
      `${hook}: or must be one of ${OR_VALUES.map((v) => `"${v}"`).join(", ")}; got ${JSON.stringify(or)}.`,
    );
  }
  if (or === "anonymous" && options?.includeRestricted === false) {
    throw new StackConfigurationError(
      `${hook} cannot take { or: 'anonymous' } with { includeRestricted: false }: every anonymous user is a restricted user.`,
    );
  }
  // The newer reference SDK's name of "anonymous-if-exists".
  return or === "anonymous-if-exists[deprecated]" ? "anonymous-if-exists" : or;
}

const notSignedIn = (hook: string) => new UserNotSignedInError(`User is not signed in but ${hook} was called with { or: 'throw' }`);

/**
 * The redirect of `or: "redirect"` or the sign-up of `or: "anonymous"`, once per
 * answer of the user query (`stamp`). The sign-up puts its user into the query,
 * so the hooks see it even before the session-change sync refetches.
 */
function userAction(app: StackClientApp, client: QueryClient, or: "redirect" | "anonymous", stamp: number): Tracked<CurrentUser> {
  if (or === "redirect") {
    return trackedAction(app, REDIRECT, stamp, async (): Promise<CurrentUser> => {
      await app.redirectToSignIn({ replace: true });
      // The page is leaving; nothing may render as if somebody were signed in.
      return never();
    });
  }
  return trackedAction(app, ANONYMOUS_SIGN_UP, stamp, async () => {
    const user = await app.getUser({ or: "anonymous" });
    client.setQueryData(CURRENT_USER_QUERY_KEY, userJsonOf(user));
    return user;
  });
}

/**
 * The signed-in user, Suspense style (the reference's `useUser`): suspends
 * until the user is known. Nobody signed in gives, by `or`: null
 * (`return-null`, the default), a UserNotSignedInError thrown to the nearest
 * error boundary (`throw`), a redirect to sign-in while staying suspended
 * (`redirect`), or an anonymous sign-up (`anonymous`). Anonymous users count as
 * nobody unless `or` is `anonymous` or `anonymous-if-exists`.
 *
 * It suspends only while nothing is known. After a session change (a sign-in,
 * a sign-out, a new token, another tab) it keeps the previous user until the
 * new session's user is known; after a sign-out that is null at once, with no
 * request. A page rendered on the server with prefetchUser hydrates with the
 * user, so the first render in the browser neither suspends nor asks.
 *
 * @example
 * ```tsx
 * function AccountMenu() {
 *   const user = useUser({ or: "redirect" });
 *   const signOut = useSignOut();
 *   return <button onClick={() => signOut.mutate()}>Sign out {user.displayName ?? user.primaryEmail}</button>;
 * }
 * ```
 */
export function useUser(options: GetUserOptions & { readonly or: "redirect" | "throw" | "anonymous" }): CurrentUser;
export function useUser(options?: GetUserOptions): CurrentUser | null;
export function useUser(options?: GetUserOptions): CurrentUser | null {
  const { app, queryClient } = useStackContextFor("useUser()");
  const or = orOfHook(options, "useUser()");
  const query = useSuspenseQuery({ ...userObserverOptions(app, queryClient), select: (data) => data && userOf(app, data) }, queryClient);
  const user = visibleUser(query.data, or, options?.includeRestricted);
  if (user !== null || or === "return-null" || or === "anonymous-if-exists") return user;
  if (or === "throw") throw notSignedIn("useUser()");
  // Suspends while the action runs; a redirect never finishes, a sign-up gives its user.
  return readTracked(userAction(app, queryClient, or, query.dataUpdatedAt));
}

/**
 * The signed-in user without Suspense: React Query's result (`data`,
 * `isPending`, `error`, …) with the same `or` options as useUser. With
 * `throw`, nobody signed in is `error` (a UserNotSignedInError); with
 * `redirect` and `anonymous` the result stays pending while the redirect or
 * the anonymous sign-up happens (a failed sign-up is `error`). On the server,
 * and in the first render in the browser, it is pending (both render alike),
 * unless the server filled the cache with prefetchUser: then both have the user.
 * A session change keeps the previous answer while the new one loads.
 *
 * @example
 * ```tsx
 * function Greeting() {
 *   const { data: user, isPending, error } = useUserQuery();
 *   if (isPending) return <Spinner />;
 *   if (error) return <p>{error.message}</p>;
 *   return <p>{user ? `Hello, ${user.displayName ?? user.primaryEmail}` : "Not signed in"}</p>;
 * }
 * ```
 */
export function useUserQuery(
  options: GetUserOptions & { readonly or: "redirect" | "throw" | "anonymous" },
): UseQueryResult<CurrentUser, StackkitError>;
export function useUserQuery(options?: GetUserOptions): UseQueryResult<CurrentUser | null, StackkitError>;
export function useUserQuery(options?: GetUserOptions): UseQueryResult<CurrentUser | null, StackkitError> {
  const { app, queryClient } = useStackContextFor("useUserQuery()");
  const or = orOfHook(options, "useUserQuery()");
  const result = useQuery(
    {
      ...userObserverOptions(app, queryClient),
      select: (data) => {
        const visible = visibleUser(data && userOf(app, data), or, options?.includeRestricted);
        if (visible === null && or === "throw") throw notSignedIn("useUserQuery()");
        return visible;
      },
    },
    queryClient,
  );
  const waitsFor = (or === "redirect" || or === "anonymous") && result.isSuccess && result.data === null ? or : null;
  const stamp = result.dataUpdatedAt;
  const [, rerender] = useState(0);
  useEffect(() => {
    if (!waitsFor) return undefined;
    let live = true;
    const action = userAction(app, queryClient, waitsFor, stamp);
    const settled = () => live && rerender((n) => n + 1);
    void action.promise.then(settled, settled);
    return () => {
      live = false;
    };
  }, [app, queryClient, waitsFor, stamp]);
  if (!waitsFor) return result;
  const action = peekAction(app, waitsFor, stamp);
  if (action?.status === "rejected") return errorResult(result, action.error);
  if (action?.status === "fulfilled") return { ...result, data: action.value } as UseQueryResult<CurrentUser, StackkitError>;
  return pendingResult(result);
}

/** The running (or finished) action of `or` for this answer, without starting one. */
function peekAction(app: StackClientApp, or: "redirect" | "anonymous", stamp: number): Tracked<CurrentUser> | null {
  return peekTracked<CurrentUser>(app, or === "redirect" ? REDIRECT : ANONYMOUS_SIGN_UP, stamp);
}

/** The query's result, reported as still waiting for a user. */
function pendingResult<T>(result: UseQueryResult<T, StackkitError>): UseQueryResult<T, StackkitError> {
  return {
    ...result,
    data: undefined,
    error: null,
    status: "pending",
    isPending: true,
    isLoading: true,
    isSuccess: false,
    isError: false,
    isLoadingError: false,
    isRefetchError: false,
    isPlaceholderData: false,
  } as UseQueryResult<T, StackkitError>;
}

/** The query's result, reported as failed with `error`. */
function errorResult<T>(result: UseQueryResult<T, StackkitError>, error: unknown): UseQueryResult<T, StackkitError> {
  return {
    ...result,
    data: undefined,
    error: error as StackkitError,
    status: "error",
    isPending: false,
    isLoading: false,
    isSuccess: false,
    isError: true,
    isLoadingError: true,
    isRefetchError: false,
    isPlaceholderData: false,
  } as UseQueryResult<T, StackkitError>;
}
