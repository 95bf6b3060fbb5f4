// Shared set-up of the hook tests: an msw server standing in for the service
// (every request recorded) and a StackClientApp on a memory token store.
// No DOM here, so server-rendering tests can use it too.
import { http, HttpResponse, type HttpResponseResolver } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll } from "vitest";
import { StackClientApp, type StackClientAppOptions } from "../../runtime/app/client-app.js";
import { createMemoryTokenStore } from "../../runtime/sessions/tokens/memory.js";
import { NO_TOKENS, type TokenPair } from "../../runtime/sessions/tokens/store.js";
import openapi from "../../generated/openapi.json" with { type: "json" };
import { jwt } from "../helpers/fake-service.js";

export const ORIGIN = "https://api.stack.test";
export const API = `${ORIGIN}/api/v1`;

/** A wire example of the bundled document, by name (ClientUser, ClientTeamList …). */
export function example(name: string): Record<string, unknown> {
  // The document as JSON (not tests/fixtures, which reads files through a URL jsdom replaces).
  const examples = (openapi as unknown as { components: { examples: Record<string, { value?: unknown }> } }).components.examples;
  const value = examples[name]?.value;
  if (value === undefined) throw new Error(`no example ${name}`);
  return structuredClone(value) as Record<string, unknown>;
}

export const TEAM_ID = "9c2b7e4a-1f3d-4a6b-8e5c-2d7f9a1b3c5e";

export interface Recorded {
  readonly method: string;
  /** Path under /api/v1 with its query, e.g. `GET /teams?user_id=me`. */
  readonly call: string;
  readonly headers: Record<string, string>;
  /** Filled in once read; the entry is recorded at once so the order is the order sent. */
  body: string;
}

/**
 * The msw server of one test file, listening for its tests: after each test its handlers are
 * reset, its record emptied, and `cleanup` (React Testing Library's, for a DOM test) run.
 */
export function useStackServer(cleanup: () => void = () => undefined) {
  const stack = stackServer();
  beforeAll(() => stack.server.listen({ onUnhandledRequest: "error" }));
  afterEach(() => {
    cleanup();
    stack.server.resetHandlers();
    stack.requests.length = 0;
  });
  afterAll(() => stack.server.close());
  return stack;
}

/** The msw server of one test file; `requests` lists what reached it, in order. */
export function stackServer() {
  const server = setupServer();
  const requests: Recorded[] = [];
  server.events.on("request:start", async ({ request }) => {
    const url = new URL(request.url);
    const entry: Recorded = {
      method: request.method,
      call: `${request.method} ${url.pathname.replace(/^\/api\/v1/, "")}${url.search}`,
      headers: Object.fromEntries(request.headers),
      body: "",
    };
    requests.push(entry);
    entry.body = await request.clone().text();
  });
  const calls = (prefix?: string) => requests.map((r) => r.call).filter((c) => prefix === undefined || c.startsWith(prefix));
  return { server, requests, calls };
}

export const get = (path: string, resolver: HttpResponseResolver) => http.get(`${API}${path}`, resolver);
export const post = (path: string, resolver: HttpResponseResolver) => http.post(`${API}${path}`, resolver);
export const patch = (path: string, resolver: HttpResponseResolver) => http.patch(`${API}${path}`, resolver);
export const del = (path: string, resolver: HttpResponseResolver) => http.delete(`${API}${path}`, resolver);

/** A known error as the service sends it (override-error-status: HTTP 200, real status in a header). */
export function knownErrorResponse(status: number, code: string, message = code, options: { emptyBody?: boolean } = {}) {
  return new HttpResponse(options.emptyBody ? null : JSON.stringify({ code, error: message }), {
    status: 200,
    headers: { "content-type": "application/json", "x-stack-actual-status": String(status), "x-stack-known-error": code },
  });
}

/** Tokens of a signed-in user whose access token is good for an hour. */
export function signedIn(refreshToken = "rt-user"): TokenPair {
  return { refreshToken, accessToken: jwt({ exp: Math.floor(Date.now() / 1000) + 3600 }) };
}

/** A client app on a memory store the test controls; navigations are recorded, not performed. */
export function testApp(options: { tokens?: TokenPair; app?: Partial<StackClientAppOptions> } = {}) {
  const store = createMemoryTokenStore(options.tokens ?? NO_TOKENS);
  const navigations: string[] = [];
  const app = new StackClientApp({
    projectId: "proj-1",
    publishableClientKey: "pck-1",
    baseUrl: ORIGIN,
    tokenStore: store,
    redirectMethod: { navigate: (url) => void navigations.push(url) },
    noAutomaticPrefetch: true,
    browser: null,
    ...options.app,
  });
  return { app, store, navigations };
}
