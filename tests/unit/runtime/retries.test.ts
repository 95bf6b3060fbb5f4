// The retry policy (SPEC §9, wire contract §12), timed on fake timers.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import "../../helpers/lazy-modules.js";
import { createStackClient } from "../../../runtime/http/client.js";
import { MAX_SINGLE_WAIT_MS } from "../../../runtime/constants.js";
import type { Environment } from "../../../runtime/platform/env.js";
import { NetworkError } from "../../../runtime/errors.js";
import { HttpError, RateLimitError } from "../../../runtime/http/request-errors.js";
import { backoffDelay, retryAfterDelay } from "../../../runtime/http/retry.js";
import { documentedAnswer } from "../../helpers/documented-answers.js";
import { fakeService, json, jwt, testEnvironment, useFakeClock, type Handler } from "../../helpers/fake-service.js";
import { settleOnFakeTime } from "../../helpers/outcome.js";

// The policy on one origin (failover: false); tests/unit/runtime/failover.test.ts has it going round the
// hosted service's origins.
function setup(handler: Handler, overrides: Partial<Environment> = {}) {
  const service = fakeService(handler);
  const { env, waits } = testEnvironment(service.fetch, overrides);
  const client = createStackClient({ projectId: "p", publishableClientKey: "k", tokenStore: null, environment: env, failover: false });
  return { service, client, waits };
}

/** Runs `call` to completion on fake time, returning what it threw (or undefined). */
const settle = (call: Promise<unknown>): Promise<unknown> =>
  settleOnFakeTime(call).then(
    () => undefined,
    (error: unknown) => error,
  );

const networkDown: Handler = () => {
  throw new TypeError("fetch failed");
};

beforeEach(() => useFakeClock());
afterEach(() => vi.useRealTimers());

describe("backoff", () => {
  it("waits 1000 ms × 2^(n−1) × a jitter from [0.5, 1.5)", () => {
    expect([1, 2, 3, 4].map((n) => backoffDelay(n, () => 0.5))).toEqual([1000, 2000, 4000, 8000]);
    expect(backoffDelay(1, () => 0)).toBe(500);
    expect(backoffDelay(3, () => 0.999)).toBeCloseTo(5996, 5);
  });
});

describe("a GET whose connection fails", () => {
  it("is tried 5 times, waiting 1, 2, 4 and 8 s between, then fails suggesting to check the connection", async () => {
    const { service, client, waits } = setup(networkDown);
    const error = await settle(client.api.GET("/projects/current"));
    expect(service.requests).toHaveLength(5);
    expect(waits).toEqual([1000, 2000, 4000, 8000]);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as Error).message).toBe(
      "Could not reach the Stack Auth API for GET https://api.stack-auth.com/api/v1/projects/current (5 attempts). " +
        "Check your internet connection and that the API's base URL is right and reachable from here; " +
        "a proxy, firewall, VPN or browser extension may be blocking the request. Then try again.",
    );
    expect((error as Error).cause).toBeInstanceOf(TypeError);
  });

  it("says 'You seem to be offline' when the runtime reports navigator.onLine === false", async () => {
    const { client } = setup(networkDown, { isOffline: () => true });
    const error = await settle(client.api.GET("/projects/current"));
    expect((error as Error).message).toBe("You seem to be offline");
  });

  it("succeeds when a later attempt gets through", async () => {
    let calls = 0;
    const project = documentedAnswer("getCurrentProject").body;
    const { service, client, waits } = setup(() => (++calls < 3 ? networkDown({} as never) : json(project)));
    const outcome = client.api.GET("/projects/current");
    await vi.runAllTimersAsync();
    expect((await outcome).data).toEqual(project);
    expect(service.requests).toHaveLength(3);
    expect(waits).toEqual([1000, 2000]);
  });
});

describe("a POST or PATCH whose connection fails", () => {
  it("is sent exactly once and rejected at once", async () => {
    const { service, client, waits } = setup(networkDown);
    const error = await settle(client.api.POST("/teams", { body: { display_name: "A" } }));
    expect(service.requests).toHaveLength(1);
    expect(waits).toEqual([]);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as Error).message).toContain("(1 attempt)");
  });

  it("is not resent for PATCH either", async () => {
    const { service, client } = setup(networkDown);
    await settle(client.api.PATCH("/users/me", { body: { display_name: "A" } }));
    expect(service.requests).toHaveLength(1);
  });
});

describe("HTTP 429", () => {
  it("with Retry-After in seconds waits exactly that long, instead of the backoff", async () => {
    let calls = 0;
    const { client, waits } = setup(() =>
      ++calls === 1 ? new Response("slow down", { status: 429, headers: { "retry-after": "2" } }) : json({}),
    );
    await settle(client.api.GET("/projects/current"));
    expect(waits).toEqual([2000]);
  });

  it("with Retry-After as an HTTP-date waits until that date", async () => {
    let calls = 0;
    const at = new Date(Date.now() + 7000).toUTCString();
    const { client, waits } = setup(() => (++calls === 1 ? new Response("", { status: 429, headers: { "retry-after": at } }) : json({})));
    await settle(client.api.GET("/projects/current"));
    expect(waits).toEqual([7000]);
  });

  it("without Retry-After backs off", async () => {
    let calls = 0;
    const { client, waits } = setup(() => (++calls <= 2 ? new Response("", { status: 429 }) : json({})));
    await settle(client.api.GET("/projects/current"));
    expect(waits).toEqual([1000, 2000]);
  });

  it("with an unreadable Retry-After backs off instead of waiting NaN", async () => {
    let calls = 0;
    const { client, waits } = setup(() =>
      ++calls === 1 ? new Response("", { status: 429, headers: { "retry-after": "soon" } }) : json({}),
    );
    await settle(client.api.GET("/projects/current"));
    expect(waits).toEqual([1000]);
  });

  it("is retried for a POST too: the service did not process it", async () => {
    let calls = 0;
    const { service, client } = setup(() =>
      ++calls === 1 ? new Response("", { status: 429, headers: { "retry-after": "1" } }) : json({}),
    );
    await settle(client.api.POST("/teams", { body: { display_name: "A" } }));
    expect(service.requests).toHaveLength(2);
  });

  it("reads the wait as asked, however long", () => {
    expect(retryAfterDelay("99999999999", Date.now())).toBe(99_999_999_999_000);
  });

  it("longer than the longest timer (2147483647 ms) fails at once with the wait asked for", async () => {
    const { service, client, waits } = setup(() => new Response("slow down", { status: 429, headers: { "retry-after": "2147484" } }));
    const error = await settle(client.api.GET("/projects/current"));
    expect(service.requests).toHaveLength(1);
    expect(waits).toEqual([]);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ status: 429, retryAfterMs: 2_147_484_000 });
    expect((error as Error).message).toBe(
      `The Stack Auth API rate-limited GET https://api.stack-auth.com/api/v1/projects/current (HTTP 429) and asked to wait 2147484000 ms, longer than this app waits (maxRetryAfterMs: ${MAX_SINGLE_WAIT_MS} ms).`,
    );
  });

  it("after the last attempt says the service rate-limited the request, not that it could not connect", async () => {
    const { service, client } = setup(() => new Response("too many", { status: 429, headers: { "retry-after": "1" } }));
    const error = await settle(client.api.GET("/projects/current"));
    expect(service.requests).toHaveLength(5);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ status: 429, body: "too many" });
    expect((error as Error).message).toBe(
      "The Stack Auth API rate-limited GET https://api.stack-auth.com/api/v1/projects/current (HTTP 429) on all 5 attempts. Wait a while before trying again.",
    );
  });
});

describe("HTTP 508", () => {
  it("whose body says INFINITE_LOOP_DETECTED is retried with backoff", async () => {
    let calls = 0;
    const { service, client, waits } = setup(() =>
      ++calls === 1 ? new Response("INFINITE_LOOP_DETECTED", { status: 508 }) : json({ id: "p" }),
    );
    await settle(client.api.GET("/projects/current"));
    expect(service.requests).toHaveLength(2);
    expect(waits).toEqual([1000]);
  });

  it("that keeps coming is an HttpError after the last attempt", async () => {
    const { service, client } = setup(() => new Response("INFINITE_LOOP_DETECTED", { status: 508 }));
    const error = await settle(client.api.GET("/projects/current"));
    expect(service.requests).toHaveLength(5);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ status: 508 });
  });

  it("without that text is not retried", async () => {
    const { service, client } = setup(() => new Response("loop", { status: 508 }));
    await settle(client.api.GET("/projects/current"));
    expect(service.requests).toHaveLength(1);
  });
});

describe("other failures", () => {
  it.each([400, 401, 404, 500, 503])("HTTP %i is not retried", async (status) => {
    const { service, client } = setup(() => new Response("x", { status }));
    await settle(client.api.GET("/projects/current"));
    expect(service.requests).toHaveLength(1);
  });
});

describe("a call whose access token cannot be refreshed because the service is unreachable", () => {
  /** A client on a memory store holding an expired access token and its refresh token. */
  function withExpiredSession(overrides: Partial<Environment> = {}) {
    const service = fakeService(networkDown);
    const { env, waits } = testEnvironment(service.fetch, overrides);
    const client = createStackClient({
      projectId: "p",
      publishableClientKey: "k",
      tokenStore: { refreshToken: "rt-1", accessToken: jwt({ exp: Math.floor(Date.now() / 1000) - 60 }) },
      environment: env,
      failover: false,
    });
    return { service, client, waits };
  }

  it("fails naming the call first and the refresh second, after the refresh's 5 attempts; the call itself is never sent", async () => {
    const { service, client, waits } = withExpiredSession();
    const error = await settle(client.send("GET /users/me"));
    expect(service.requests.map((r) => `${r.method} ${r.path}`)).toEqual(Array(5).fill("POST /api/v1/auth/oauth/token"));
    expect(waits).toEqual([1000, 2000, 4000, 8000]);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as Error).message).toBe(
      "GET https://api.stack-auth.com/api/v1/users/me was not sent: its access token had to be refreshed first, and that failed. " +
        "Could not reach the Stack Auth API for POST https://api.stack-auth.com/api/v1/auth/oauth/token (5 attempts). " +
        "Check your internet connection and that the API's base URL is right and reachable from here; " +
        "a proxy, firewall, VPN or browser extension may be blocking the request. Then try again.",
    );
    expect((error as Error).cause).toBeInstanceOf(NetworkError);
  });

  it("still says only 'You seem to be offline' when the runtime reports offline", async () => {
    const { client } = withExpiredSession({ isOffline: () => true });
    const error = await settle(client.send("GET /users/me"));
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as Error).message).toBe("You seem to be offline");
  });
});

describe("an answer that is an HTTP error without a known error", () => {
  it("is worded as the service's answer: the request was sent and answered", async () => {
    const { client } = setup(() => new Response("no such route", { status: 404, headers: { "content-type": "text/plain" } }));
    const error = await settle(client.api.GET("/projects/current"));
    expect(error).toBeInstanceOf(HttpError);
    expect((error as Error).message).toBe(
      "The Stack Auth API answered GET https://api.stack-auth.com/api/v1/projects/current with HTTP 404: no such route",
    );
  });
});
