// The app's server-side Stack Auth: one StackServerApp for the process, and
// the user of the request being handled, read from its cookies through Next's
// `cookies()`. In a route handler or a server action, tokens the SDK refreshes
// or clears are written back as cookies; in a server component Next allows no
// writes, so there the middleware (middleware.ts) refreshes first.
import { cookies } from "next/headers";
import { nextCookiesTokenStore, StackClientApp, StackServerApp } from "stackkit";
import { projectConfig, secretServerKey } from "#lib/config";

let serverApp: StackServerApp | undefined;

/** Made on first use, at run time: `next build` imports this file without the project's environment. */
export function stackServerApp(): StackServerApp {
  serverApp ??= new StackServerApp({ ...projectConfig(), secretServerKey: secretServerKey(), tokenStore: null, noAutomaticPrefetch: true });
  return serverApp;
}

/** The request's token cookies as a token store (`cookies()` is awaited, as Next 15 and 16 require). */
export async function requestTokenStore() {
  return nextCookiesTokenStore(cookies, { projectId: projectConfig().projectId });
}

/** The signed-in user of the current request, or null. */
export async function currentUser() {
  return stackServerApp().getUser({ tokenStore: await requestTokenStore() });
}

/** A client app on the request's cookies, for the flows that sign a user in. */
export async function requestClientApp(): Promise<StackClientApp> {
  return new StackClientApp({ ...projectConfig(), tokenStore: await requestTokenStore(), noAutomaticPrefetch: true });
}
