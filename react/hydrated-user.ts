// The browser half of server rendering. prefetchUser (user.ts) puts the
// request's user into the server's QueryClient, and dehydrate() carries it to
// the browser, where the first render shows it with no request and no Suspense
// fallback. The provider then checks the copy against the tab's own session,
// because the page may have been rendered for tokens this tab no longer holds
// (a sign-out, or a sign-in as someone else, in another tab while it loaded).
import { matchQuery, type QueryCacheNotifyEvent, type QueryClient } from "@tanstack/react-query";
import type { StackClientApp } from "../runtime/index.js";
import { CURRENT_USER_QUERY_KEY } from "./query-keys.js";
import { syncSession } from "./session-sync.js";
import { isUncheckedUserJson, isUserJson, markChecked } from "./user-json.js";

/**
 * Checks every hydrated user copy against `app`'s session, now and whenever
 * one arrives (a HydrationBoundary may hydrate later, on navigation). A copy
 * of the session's own user is kept as it is; anything else is treated as a
 * session change (syncSession): the user is asked for again, and nobody
 * signed in gives null without a request. Returns the unsubscribe function.
 */
export function watchHydratedUser(app: StackClientApp, client: QueryClient): () => void {
  void checkHydratedUser(app, client);
  return client.getQueryCache().subscribe((event: QueryCacheNotifyEvent) => {
    if (!isUserQueryEvent(event)) return;
    // Hydration builds the query with its data ("added"), or sets an existing one's state ("setState").
    if (event.type === "added" || (event.type === "updated" && event.action.type === "setState")) void checkHydratedUser(app, client);
  });
}

function isUserQueryEvent(event: QueryCacheNotifyEvent): boolean {
  return matchQuery({ queryKey: CURRENT_USER_QUERY_KEY, exact: true }, event.query);
}

async function checkHydratedUser(app: StackClientApp, client: QueryClient): Promise<void> {
  const query = client.getQueryCache().find({ queryKey: CURRENT_USER_QUERY_KEY, exact: true });
  const data = query?.state.data;
  // Answers fetched here are this session's already; a hydrated "nobody" is checked too.
  if (!query || !(data === null || isUncheckedUserJson(data))) return;
  const sessionUserId = await sessionUserIdOf(app);
  // Changed meanwhile (a fetch of this session, or a newer hydration with its own check).
  if (query.state.data !== data) return;
  if (sessionUserId === (isUserJson(data) ? data.id : null)) {
    if (isUserJson(data)) markChecked(data);
    return;
  }
  await syncSession(client);
}

/**
 * The id of the user whose tokens the app holds, read from its access token's
 * `sub` claim (the token comes from the service through the app's own store,
 * so reading it unverified is enough to compare); null with no tokens, and
 * undefined when it cannot be told. Asks the service only when the access
 * token needs a refresh, as any call would.
 */
async function sessionUserIdOf(app: StackClientApp): Promise<string | null | undefined> {
  try {
    const { accessToken, refreshToken } = await app.getAuthJson();
    if (accessToken === null) return refreshToken === null ? null : undefined;
    return subjectOf(accessToken);
  } catch {
    return undefined;
  }
}

function subjectOf(jwt: string): string | undefined {
  try {
    const payload = jwt.split(".")[1] ?? "";
    const bytes = Uint8Array.from(atob(payload.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
    const claims = JSON.parse(new TextDecoder().decode(bytes)) as { sub?: unknown };
    return typeof claims.sub === "string" ? claims.sub : undefined;
  } catch {
    return undefined;
  }
}
