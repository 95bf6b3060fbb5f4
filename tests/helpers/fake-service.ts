// A scripted stand-in for the service, handed to the runtime as its fetch: it
// records every request exactly as sent and answers with what the test scripts.
import { vi } from "vitest";
import type { Environment } from "../../runtime/platform/env.js";

export interface SentRequest {
  readonly method: string;
  readonly url: string;
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body: string;
  readonly cache: RequestCache;
  readonly credentials: RequestCredentials;
}

export type Handler = (request: SentRequest) => Response | Promise<Response>;

/** The path of the list of API origins the runtime reads once, in the background, on the hosted service (failover). */
export const BACKEND_URLS = "/api/v1/internal/backend-urls";

/** What 2.8.86, which has no such route, answers for it: the catch-all's plain-text 404. */
export const noSuchRoute: Handler = (sent) =>
  new Response(`404 — this page does not exist in Stack Auth's API.\n\nURL: ${sent.url}\n`, {
    status: 404,
    headers: { "content-type": "text/plain; charset=utf-8" },
  });

export interface FakeServiceOptions {
  /**
   * Answers the runtime's background `GET /api/v1/internal/backend-urls` (runtime/http/origin-list.ts),
   * which goes to `listRequests` instead of `requests`, so that a test of something else sees
   * exactly its own requests. Default {@link noSuchRoute}. The failover tests script it.
   */
  readonly backendUrls?: Handler;
}

export function fakeService(handler: Handler, options: FakeServiceOptions = {}) {
  const requests: SentRequest[] = [];
  const listRequests: SentRequest[] = [];
  const fetch = async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    const sent: SentRequest = {
      method: request.method,
      url: request.url,
      path: url.pathname + url.search,
      headers: Object.fromEntries(request.headers),
      body: await request.text(),
      cache: request.cache,
      credentials: request.credentials,
    };
    if (url.pathname === BACKEND_URLS) {
      listRequests.push(sent);
      return (options.backendUrls ?? noSuchRoute)(sent);
    }
    requests.push(sent);
    return handler(sent);
  };
  return { fetch, requests, listRequests };
}

export const json = (body: unknown, init: { status?: number; headers?: Record<string, string> } = {}) =>
  new Response(JSON.stringify(body), {
    status: init.status ?? 200,
    headers: { "content-type": "application/json", ...init.headers },
  });

/** A known error as the service sends it with override-error-status: HTTP 200, real status in a header. */
export const knownError = (status: number, code: string, error: string, details?: Record<string, unknown>) =>
  json(details ? { code, error, details } : { code, error }, {
    status: 200,
    headers: { "x-stack-actual-status": String(status), "x-stack-known-error": code },
  });

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");

/** An unsigned JWT-shaped token; only `exp` (seconds) matters to the client. */
export function jwt(claims: { exp?: number; sub?: string; [claim: string]: unknown } = {}): string {
  return `${b64({ alg: "ES256", typ: "JWT" })}.${b64({ sub: "user-1", ...claims })}.c2ln`;
}

/**
 * An environment on vitest's fake timers, with the waits it was asked for
 * recorded, a fixed jitter, and deterministic random bytes. A timer that is
 * cleared (a request's timeout once its answer came, a wait that was aborted)
 * is taken out of `waits`: they are the waits that happened or are under way.
 */
export function testEnvironment(fetch: Environment["fetch"], overrides: Partial<Environment> = {}) {
  const waits: number[] = [];
  const ids: unknown[] = [];
  let counter = 0;
  const env: Environment = {
    fetch,
    now: () => Date.now(),
    setTimeout: (callback, ms) => {
      const id = setTimeout(callback, ms);
      waits.push(ms);
      ids.push(id);
      return id;
    },
    clearTimeout: (id) => {
      const index = ids.indexOf(id);
      if (index >= 0) {
        ids.splice(index, 1);
        waits.splice(index, 1);
      }
      clearTimeout(id as ReturnType<typeof setTimeout>);
    },
    random: () => 0.5,
    randomBytes: (length) => Uint8Array.from({ length }, () => counter++ % 256),
    isOffline: () => false,
    ...overrides,
  };
  return { env, waits };
}

export function useFakeClock(startMillis = Date.UTC(2026, 10, 21, 12, 0, 0)) {
  vi.useFakeTimers({ now: startMillis, toFake: ["setTimeout", "clearTimeout", "Date", "setInterval", "clearInterval"] });
}
