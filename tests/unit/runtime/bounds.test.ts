// Every call can be cancelled and bounded (issue: hardening §3): AbortSignal
// through the pipeline (also during waits, and for shared reads), the
// per-attempt timeout, the longest Retry-After, and the observability hooks.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import "../../helpers/lazy-modules.js";
import { createStackClient, type StackClientOptions } from "../../../runtime/http/client.js";
import { StackConfigurationError } from "../../../runtime/errors.js";
import { RateLimitError, RequestTimeoutError } from "../../../runtime/http/request-errors.js";
import type { RequestEvent, RetryEvent } from "../../../runtime/http/observe.js";
import { createMemoryTokenStore } from "../../../runtime/sessions/tokens/memory.js";
import { answerAsDocumented } from "../../helpers/documented-answers.js";
import { fakeService, json, jwt, testEnvironment, useFakeClock, type Handler } from "../../helpers/fake-service.js";
import { rejectionOf, settleOnFakeTime } from "../../helpers/outcome.js";

const inSeconds = (s: number) => Math.floor(Date.now() / 1000) + s;

// On one origin (failover: false): the bounds of one origin's attempts; tests/unit/runtime/failover.test.ts
// bounds those that go round the hosted service's origins.
function setup(handler: Handler, options: Partial<StackClientOptions> = {}, accessToken = jwt({ exp: inSeconds(3600) })) {
  const service = fakeService(handler);
  const { env, waits } = testEnvironment(service.fetch);
  const store = createMemoryTokenStore({ refreshToken: "rt-1", accessToken });
  const client = createStackClient({
    projectId: "proj-1",
    publishableClientKey: "pck-1",
    tokenStore: store,
    environment: env,
    failover: false,
    ...options,
  });
  return { service, client, waits, store };
}

/** A service that never answers, but notices when a request is given up. */
function silentService() {
  const aborted: string[] = [];
  const handler: Handler = () => new Promise<Response>(() => {});
  const service = fakeService(handler);
  const fetch = async (request: Request) => {
    request.signal.addEventListener("abort", () => aborted.push(request.url));
    return service.fetch(request);
  };
  return { fetch, requests: service.requests, aborted };
}

const isAbortError = (error: unknown) => error instanceof DOMException && error.name === "AbortError";
const flush = () => vi.advanceTimersByTimeAsync(0);

beforeEach(() => useFakeClock());
afterEach(() => vi.useRealTimers());

describe("a signal", () => {
  it("already aborted: the call rejects with an AbortError and sends nothing", async () => {
    const { service, client } = setup(answerAsDocumented);
    const controller = new AbortController();
    controller.abort();
    const error = await rejectionOf(client.api.GET("/users/me", { signal: controller.signal }));
    expect(isAbortError(error)).toBe(true);
    expect(service.requests).toEqual([]);
  });

  it("aborted while the request is out: rejects at once, cancels the request, leaves no timer", async () => {
    const silent = silentService();
    const { env } = testEnvironment(silent.fetch);
    const client = createStackClient({ projectId: "proj-1", tokenStore: null, environment: env });
    const controller = new AbortController();
    const call = rejectionOf(client.api.POST("/teams", { body: { display_name: "A" }, signal: controller.signal }));
    await flush();
    expect(silent.requests).toHaveLength(1);
    expect(vi.getTimerCount()).toBe(1); // the attempt's timeout
    controller.abort();
    expect(isAbortError(await call)).toBe(true);
    expect(silent.aborted).toEqual(["https://api.stack-auth.com/api/v1/teams"]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("aborted during the backoff after a network failure: rejects at once, clears the wait, sends nothing more", async () => {
    const { service, client } = setup(() => {
      throw new TypeError("fetch failed");
    });
    const controller = new AbortController();
    const call = rejectionOf(client.api.GET("/projects/current", { signal: controller.signal }));
    await flush();
    expect(service.requests).toHaveLength(1);
    expect(vi.getTimerCount()).toBe(1); // the 1000 ms backoff
    controller.abort();
    expect(isAbortError(await call)).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(service.requests).toHaveLength(1);
  });

  it("aborted while waiting out a Retry-After: rejects at once and clears the wait", async () => {
    const { service, client, waits } = setup(() => new Response("slow down", { status: 429, headers: { "retry-after": "120" } }));
    const controller = new AbortController();
    const call = rejectionOf(client.api.GET("/projects/current", { signal: controller.signal }));
    await flush();
    expect(waits).toEqual([120_000]);
    controller.abort();
    expect(isAbortError(await call)).toBe(true);
    expect(waits).toEqual([]);
    expect(vi.getTimerCount()).toBe(0);
    expect(service.requests).toHaveLength(1);
  });

  it("with a reason of the caller's: rejects with that reason, as fetch does", async () => {
    const { client } = setup(() => new Promise<Response>(() => {}));
    const controller = new AbortController();
    const call = rejectionOf(client.api.GET("/users/me", { signal: controller.signal }));
    await flush();
    const reason = new Error("the user left the page");
    controller.abort(reason);
    expect(await call).toBe(reason);
  });

  it("aborted while a shared refresh is under way: that caller stops; the refresh and the other caller go on", async () => {
    let release: (response: Response) => void = () => {};
    const fresh = jwt({ exp: inSeconds(3600) });
    const { service, client, store } = setup(
      (r) => (r.path === "/api/v1/auth/oauth/token" ? new Promise<Response>((resolve) => (release = resolve)) : answerAsDocumented(r)),
      {},
      jwt({ exp: inSeconds(-60) }),
    );
    const controller = new AbortController();
    const leaving = rejectionOf(client.api.GET("/users/me", { signal: controller.signal }));
    const staying = client.api.GET("/projects/current");
    await flush();
    controller.abort();
    expect(isAbortError(await leaving)).toBe(true);
    release(json({ access_token: fresh }));
    expect((await staying).data).toBeDefined();
    expect(store.get().accessToken).toBe(fresh);
    expect(service.requests.map((r) => r.path)).toEqual(["/api/v1/auth/oauth/token", "/api/v1/projects/current"]);
  });
});

describe("identical reads in flight", () => {
  it("share one request; one caller leaving does not cancel it for the others", async () => {
    let release: (response: Response) => void = () => {};
    const silent = silentService();
    const { env } = testEnvironment(async (request) => {
      void silent.fetch(request);
      return new Promise<Response>((resolve) => (release = resolve));
    });
    const client = createStackClient({ projectId: "proj-1", tokenStore: null, environment: env, failover: false });
    const first = new AbortController();
    const leaving = rejectionOf(client.api.GET("/projects/current", { signal: first.signal }));
    const staying = client.api.GET("/projects/current", { signal: new AbortController().signal });
    await flush();
    expect(silent.requests).toHaveLength(1);
    first.abort();
    expect(isAbortError(await leaving)).toBe(true);
    expect(silent.aborted).toEqual([]);
    release(answerAsDocumented(silent.requests[0]!));
    expect((await staying).response.status).toBe(200);
  });

  it("are cancelled once every caller has left", async () => {
    const silent = silentService();
    const { env } = testEnvironment(silent.fetch);
    const client = createStackClient({ projectId: "proj-1", tokenStore: null, environment: env });
    const a = new AbortController();
    const b = new AbortController();
    const calls = [a, b].map((c) => rejectionOf(client.api.GET("/projects/current", { signal: c.signal })));
    await flush();
    a.abort();
    await flush();
    expect(silent.aborted).toEqual([]);
    b.abort();
    expect((await Promise.all(calls)).every(isAbortError)).toBe(true);
    expect(silent.aborted).toEqual(["https://api.stack-auth.com/api/v1/projects/current"]);
    expect(vi.getTimerCount()).toBe(0);
    // A read after that is a new request, not the cancelled one.
    const again = client.api.GET("/projects/current");
    await flush();
    expect(silent.requests).toHaveLength(2);
    void again.catch(() => {});
  });
});

describe("the per-attempt timeout", () => {
  it("is 30 s by default; a GET that times out is retried with backoff, then fails as a RequestTimeoutError", async () => {
    const { service, client } = setup(() => new Promise<Response>(() => {}));
    const started = Date.now();
    const error = await rejectionOf(settleOnFakeTime(client.api.GET("/projects/current")));
    expect(error).toBeInstanceOf(RequestTimeoutError);
    expect(error).toMatchObject({ name: "RequestTimeoutError", timeoutMs: 30_000 });
    expect((error as Error).message).toBe(
      "GET https://api.stack-auth.com/api/v1/projects/current timed out: no answer within 30000 ms (5 attempts). " +
        "The Stack Auth API or the network is slow; try again, or raise requestTimeoutMs.",
    );
    expect(service.requests).toHaveLength(5);
    // Five attempts of 30 s, and the backoffs of 1, 2, 4 and 8 s between them.
    expect(Date.now() - started).toBe(5 * 30_000 + 1_000 + 2_000 + 4_000 + 8_000);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("fails a POST at once, without sending it again", async () => {
    const { service, client } = setup(() => new Promise<Response>(() => {}), { requestTimeoutMs: 5_000 });
    const started = Date.now();
    const error = await rejectionOf(settleOnFakeTime(client.api.POST("/teams", { body: { display_name: "A" } })));
    expect(error).toBeInstanceOf(RequestTimeoutError);
    expect((error as Error).message).toBe(
      "POST https://api.stack-auth.com/api/v1/teams timed out: no answer within 5000 ms (1 attempt). " +
        "The Stack Auth API or the network is slow; try again, or raise requestTimeoutMs.",
    );
    expect(service.requests).toHaveLength(1);
    expect(Date.now() - started).toBe(5_000);
  });

  it("covers reading the body, not only the headers", async () => {
    const stalled = new ReadableStream({ start: (c) => c.enqueue(new TextEncoder().encode('{"id":')) });
    const { client } = setup(() => new Response(stalled, { status: 200 }), { requestTimeoutMs: 1_000 });
    const error = await rejectionOf(settleOnFakeTime(client.api.POST("/teams", { body: { display_name: "A" } })));
    expect(error).toBeInstanceOf(RequestTimeoutError);
  });

  it("is off with 0: no timer is set", async () => {
    const { client, waits } = setup(() => new Promise<Response>(() => {}), { requestTimeoutMs: 0 });
    void client.api.GET("/projects/current");
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(waits).toEqual([]);
  });

  it.each([-1, 1.5, Number.NaN, 2_147_483_648])("refuses %s", (value) => {
    expect(() => setup(answerAsDocumented, { requestTimeoutMs: value })).toThrow(StackConfigurationError);
    expect(() => setup(answerAsDocumented, { requestTimeoutMs: value })).toThrow(
      `requestTimeoutMs must be a whole number of milliseconds from 0 (no limit) to 2147483647; got ${value}.`,
    );
  });
});

describe("maxRetryAfterMs", () => {
  it("a Retry-After within it is waited exactly", async () => {
    let calls = 0;
    const { service, client, waits } = setup(
      (r) => (++calls === 1 ? new Response("", { status: 429, headers: { "retry-after": "5" } }) : answerAsDocumented(r)),
      { maxRetryAfterMs: 5_000 },
    );
    await settleOnFakeTime(client.api.GET("/projects/current"));
    expect(waits).toEqual([5_000]);
    expect(service.requests).toHaveLength(2);
  });

  it("a longer one fails at once with a RateLimitError carrying the wait asked for", async () => {
    const { service, client, waits } = setup(() => new Response("slow down", { status: 429, headers: { "retry-after": "6" } }), {
      maxRetryAfterMs: 5_000,
    });
    const error = await rejectionOf(client.api.GET("/projects/current"));
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ status: 429, retryAfterMs: 6_000, body: "slow down" });
    expect((error as Error).message).toBe(
      "The Stack Auth API rate-limited GET https://api.stack-auth.com/api/v1/projects/current (HTTP 429) and asked to wait 6000 ms, " +
        "longer than this app waits (maxRetryAfterMs: 5000 ms).",
    );
    expect(service.requests).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it.each([-5, 0.5, 3_000_000_000])("refuses %s", (value) => {
    expect(() => setup(answerAsDocumented, { maxRetryAfterMs: value })).toThrow(
      `maxRetryAfterMs must be a whole number of milliseconds from 0 to 2147483647; got ${value}.`,
    );
  });
});

describe("onRequest and onRetry", () => {
  it("see every attempt and every retry, with tokens, keys and secret query values redacted", async () => {
    const requests: RequestEvent[] = [];
    const retries: RetryEvent[] = [];
    let calls = 0;
    const accessToken = jwt({ exp: inSeconds(3600) });
    const { client } = setup(
      (r) => (++calls === 1 ? new Response("", { status: 429, headers: { "retry-after": "2" } }) : answerAsDocumented(r)),
      {
        accessType: "server",
        secretServerKey: "ssk-secret",
        onRequest: (event) => requests.push(event),
        onRetry: (event) => retries.push(event),
      },
      accessToken,
    );
    await settleOnFakeTime(client.api.GET("/users", { params: { query: { team_id: "t1", query: "ada" } } }));
    const url = "https://api.stack-auth.com/api/v1/users?team_id=t1&query=ada";
    expect(requests.map((e) => [e.operationId, e.method, e.url, e.attempt])).toEqual([
      ["listUsers", "GET", url, 1],
      ["listUsers", "GET", url, 2],
    ]);
    expect(requests[0]!.headers).toMatchObject({
      "x-stack-project-id": "proj-1",
      "x-stack-access-type": "server",
      "x-stack-access-token": "[redacted]",
      "x-stack-secret-server-key": "[redacted]",
      "x-stack-publishable-client-key": "[redacted]",
      "x-stack-random-nonce": "[redacted]",
    });
    expect(retries).toEqual([{ ...requests[0], reason: "rate-limited", delayMs: 2_000, status: 429, nextUrl: url }]);
    const seen = JSON.stringify([requests, retries]);
    for (const secret of [accessToken, "ssk-secret", "pck-1", "rt-1"]) expect(seen).not.toContain(secret);
  });

  it("redact the values of query parameters not known to be identifiers", async () => {
    const requests: RequestEvent[] = [];
    const { client } = setup(answerAsDocumented, { onRequest: (event) => requests.push(event) });
    await client.api.GET("/projects/current", { params: { query: { code: "secret-code" } as never } });
    expect(requests[0]!.url).toBe("https://api.stack-auth.com/api/v1/projects/current?code=%5Bredacted%5D");
  });

  it("that throw change nothing", async () => {
    const { client } = setup(answerAsDocumented, {
      onRequest: () => {
        throw new Error("a broken logger");
      },
    });
    expect((await client.api.GET("/projects/current")).response.status).toBe(200);
  });

  it("report a network failure and a timeout as what they were", async () => {
    const retries: RetryEvent[] = [];
    let calls = 0;
    const { client } = setup(
      (r) => {
        calls++;
        if (calls === 1) throw new TypeError("fetch failed");
        if (calls === 2) return new Promise<Response>(() => {});
        return answerAsDocumented(r);
      },
      { requestTimeoutMs: 1_000, onRetry: (event) => retries.push(event) },
    );
    await settleOnFakeTime(client.api.GET("/projects/current"));
    expect(retries.map((e) => [e.reason, e.attempt, e.delayMs, e.status])).toEqual([
      ["network", 1, 1_000, undefined],
      ["timeout", 2, 2_000, undefined],
    ]);
  });
});

describe("the app options", () => {
  it("reach every request of client and server apps, those inheriting from a client app included", async () => {
    const { StackClientApp, StackServerApp } = await import("../../../runtime/index.js");
    const events: string[] = [];
    const service = fakeService(() => new Promise<Response>(() => {}));
    const { env } = testEnvironment(service.fetch);
    const common = {
      projectId: "proj-1",
      publishableClientKey: "pck-1",
      environment: env,
      noAutomaticPrefetch: true,
      browser: null,
      failover: false,
    };
    const client = new StackClientApp({
      ...common,
      tokenStore: "memory",
      requestTimeoutMs: 1_000,
      onRequest: (e) => events.push(`client ${e.operationId} ${e.attempt}`),
    });
    const server = new StackServerApp({ inheritsFrom: client, secretServerKey: "ssk" });
    const own = new StackServerApp({
      ...common,
      tokenStore: null,
      secretServerKey: "ssk",
      requestTimeoutMs: 2_000,
      onRequest: (e) => events.push(`own ${e.operationId}`),
    });
    const outcomes = [client.getProject(), server.listUsers(), own.getUser("3241a285-8329-4d69-8f3d-316e08cf140c")].map((p) =>
      rejectionOf(p),
    );
    await vi.advanceTimersByTimeAsync(1_000);
    expect(events.sort()).toEqual(["client getCurrentProject 1", "client listUsers 1", "own getUser"].sort());
    await vi.runAllTimersAsync();
    const errors = await Promise.all(outcomes);
    expect(errors.map((e) => [(e as Error).name, (e as RequestTimeoutError).timeoutMs])).toEqual([
      ["RequestTimeoutError", 1_000],
      ["RequestTimeoutError", 1_000],
      ["RequestTimeoutError", 2_000],
    ]);
  });
});
