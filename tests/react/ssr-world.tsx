// The two halves of a server-rendered page against the emulator: a server that
// prefetches the request's user, renders, and dehydrates (the state goes
// through JSON, as it does in the page), and a browser tab that hydrates it
// with its own app, whose every request is counted. Each render of the user,
// and each time the Suspense fallback renders, is written to `log`.
import { act } from "@testing-library/react";
import { dehydrate, type DehydratedState, type QueryClient } from "@tanstack/react-query";
import { Suspense, type ReactNode } from "react";
import { hydrateRoot } from "react-dom/client";
import { renderToString } from "react-dom/server";
import { DEMO_KEYS, type Emulator } from "../../emulator/index.js";
import { createStackQueryClient, prefetchUser, StackProvider, useSignIn, useSignOut, useUser, useUserQuery } from "../../react/index.js";
import { StackClientApp, StackServerApp, type TokenPair, type TokenStoreInit } from "../../runtime/index.js";
import { demoAppOptions, TEST_PASSWORD } from "../helpers/emulator.js";
import { Boundary } from "./render.js";

export const log: string[] = [];

function Who() {
  const user = useUser();
  const text = user ? `user:${user.displayName}` : "signed out";
  log.push(text);
  return <p>{text}</p>;
}

function WhoQuery() {
  const { data, isPending } = useUserQuery();
  return <p>{isPending ? "query pending" : data ? `query:${data.displayName}` : "query signed out"}</p>;
}

function Fallback() {
  log.push("fallback");
  return <p>loading</p>;
}

/** Buttons for the session changes; `done` records what the page showed when each mutation succeeded. */
function Controls({ signInAs, done }: { signInAs?: string; done: (what: string) => void }) {
  const signIn = useSignIn();
  const signOut = useSignOut();
  const user = useUser();
  return (
    <>
      <button onClick={() => void user?.setDisplayName("Ada Lovelace").then(() => done("renamed"))}>rename</button>
      <button onClick={() => signIn.mutate({ email: signInAs ?? "", password: TEST_PASSWORD }, { onSuccess: () => done("signed in") })}>
        sign in
      </button>
      <button onClick={() => signOut.mutate(undefined, { onSuccess: () => done("signed out") })}>sign out</button>
    </>
  );
}

export interface PageOptions {
  readonly signInAs?: string;
  readonly done?: (what: string) => void;
}

/** The page: the provider, an error boundary, and one Suspense boundary around every reader of the user. */
export function page(provider: { app: StackClientApp; queryClient?: QueryClient; dehydratedState?: DehydratedState }, o: PageOptions = {}) {
  return (
    <StackProvider {...provider}>
      <Boundary>
        <Suspense fallback={<Fallback />}>
          <Who />
          <WhoQuery />
          <Controls {...(o.signInAs !== undefined && { signInAs: o.signInAs })} done={o.done ?? (() => undefined)} />
        </Suspense>
      </Boundary>
    </StackProvider>
  );
}

/** A request to the app's own server carrying `tokens` the way a browser's fetch would (`x-stack-auth`). */
export function requestWith(tokens: TokenPair): Request {
  return new Request("https://app.example.com/account", { headers: { "x-stack-auth": JSON.stringify(tokens) } });
}

/**
 * The server's half: a QueryClient for this request, prefetched by the server
 * app with the request's tokens, the page rendered with it, and its state as
 * the browser receives it (through JSON).
 */
export async function serverRender(emulator: Emulator, request: Request, o: PageOptions = {}) {
  const server = new StackServerApp({ ...demoAppOptions(emulator), tokenStore: "memory", secretServerKey: DEMO_KEYS.secretServerKey });
  const queryClient = createStackQueryClient();
  await prefetchUser(queryClient, server, { tokenStore: request });
  const app = new StackClientApp({ ...demoAppOptions(emulator), tokenStore: request });
  const html = renderToString(page({ app, queryClient }, o));
  const json = JSON.stringify(dehydrate(queryClient));
  const state = JSON.parse(json) as DehydratedState;
  // The browser hydrates well after the server fetched (a slow network, a
  // restored tab): age the answers by a minute, so that they are stale there.
  for (const query of state.queries) (query.state as { dataUpdatedAt: number }).dataUpdatedAt -= 60_000;
  return { html, json, state };
}

/** The browser tab's app: its tokens in `tokenStore`, its requests listed in `sent` as `METHOD /path`. */
export function browserApp(emulator: Emulator, tokenStore: TokenStoreInit, o: { readonly redirectMethod?: "none" } = {}) {
  const sent: string[] = [];
  const navigations: string[] = [];
  const app = new StackClientApp({
    ...demoAppOptions(emulator),
    tokenStore,
    // A navigation is recorded, and then waits as a leaving page does (SPEC §9: 2000 ms); "none" returns at once.
    redirectMethod: o.redirectMethod ?? { navigate: (url) => void navigations.push(url) },
    environment: {
      ...demoAppOptions(emulator).environment,
      fetch: (request: Request) => {
        sent.push(`${request.method} ${new URL(request.url).pathname.replace(/^\/api\/v1/, "")}`);
        return emulator.fetch(request);
      },
    },
  });
  return { app, sent, navigations };
}

/** Hydrates `html` with `ui` in a fresh container; `errors` are React's recoverable errors (hydration mismatches). */
export async function hydrate(html: string, ui: ReactNode) {
  const container = document.createElement("div");
  container.innerHTML = html;
  document.body.appendChild(container);
  const errors: unknown[] = [];
  let root: ReturnType<typeof hydrateRoot> | undefined;
  await act(async () => {
    root = hydrateRoot(container, ui, { onRecoverableError: (error) => void errors.push(error) });
  });
  return { errors, container, unmount: () => act(() => root!.unmount()) };
}

/**
 * Lets timers and promises run (the provider's check of a hydrated user, a sync) inside act: for `ms`, or, with
 * `until`, as long as it takes that to hold (up to 10 s), since a request to the emulator has no fixed duration.
 */
export async function settle(ms = 30, until?: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  do {
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, ms));
    });
  } while (until !== undefined && !until() && Date.now() < deadline);
}
