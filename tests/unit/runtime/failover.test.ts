// Failover (issue 31 §4): a request the hosted service could not answer at one
// origin goes to the next (api., api1., api2.stack-auth.com), within the five
// attempts of SPEC §9; at once to an origin the call has not tried, after the
// backoff back to one it has, after Retry-After always. Only what cannot have
// been processed sends a POST elsewhere. Timed on fake timers.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import "../../helpers/lazy-modules.js";
import { NetworkError } from "../../../runtime/errors.js";
import { STICKY_ORIGIN_MS } from "../../../runtime/http/origins.js";
import type { RequestEvent, RetryEvent } from "../../../runtime/http/observe.js";
import { HttpError, RequestTimeoutError } from "../../../runtime/http/request-errors.js";
import { answerAsDocumented, documentedAnswer } from "../../helpers/documented-answers.js";
import { API1, API2, byOrigin, down, failoverSetup, inSeconds, PRIMARY, where } from "../../helpers/failover.js";
import { json, jwt, knownError, useFakeClock, type Handler } from "../../helpers/fake-service.js";
import { rejectionOf, settleOnFakeTime } from "../../helpers/outcome.js";

const PROJECT = "/api/v1/projects/current";
const ok: Handler = (sent) => answerAsDocumented(sent);
const status =
  (code: number, headers: Record<string, string> = {}): Handler =>
  () =>
    new Response(`HTTP ${code}`, { status: code, headers });
const settle = (call: Promise<unknown>) => rejectionOf(settleOnFakeTime(call)).catch(() => undefined);

beforeEach(() => useFakeClock());
afterEach(() => vi.useRealTimers());

describe("a GET the hosted service cannot answer", () => {
  it("goes on to api1 and api2 at once after a network failure, and answers with the first origin that answers", async () => {
    const { service, client, waits } = failoverSetup(byOrigin({ [API2]: ok }));
    const { data } = await settleOnFakeTime(client.api.GET("/projects/current"));
    expect(data).toEqual(documentedAnswer("getCurrentProject").body);
    expect(service.requests.map(where)).toEqual([`${PRIMARY} ${PROJECT}`, `${API1} ${PROJECT}`, `${API2} ${PROJECT}`]);
    expect(waits).toEqual([]);
  });

  it("comes back to an origin it tried only after the backoff, and stops after five attempts, naming the origins", async () => {
    const { service, client, waits } = failoverSetup(down);
    const error = await settle(client.api.GET("/projects/current"));
    expect(service.requests.map((r) => new URL(r.url).origin)).toEqual([PRIMARY, API1, API2, PRIMARY, API1]);
    expect(waits).toEqual([1000, 2000]);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as Error).message).toBe(
      `Could not reach the Stack Auth API for GET ${PRIMARY}${PROJECT} (5 attempts at ${PRIMARY}, ${API1} and ${API2}). ` +
        "Check your internet connection and that the API's base URL is right and reachable from here; " +
        "a proxy, firewall, VPN or browser extension may be blocking the request. Then try again.",
    );
  });

  it.each([500, 502, 503, 504])("goes on after an HTTP %i without a known error", async (code) => {
    const { service, client, waits } = failoverSetup(byOrigin({ [PRIMARY]: status(code), [API1]: ok }));
    expect((await client.api.GET("/projects/current")).response.status).toBe(200);
    expect(service.requests.map(where)).toEqual([`${PRIMARY} ${PROJECT}`, `${API1} ${PROJECT}`]);
    expect(waits).toEqual([]);
  });

  it("answers the last 5xx once every origin has answered one, naming the origin that did", async () => {
    const { service, client } = failoverSetup(status(503));
    const error = await rejectionOf(client.api.GET("/projects/current"));
    expect(service.requests.map((r) => new URL(r.url).origin)).toEqual([PRIMARY, API1, API2]);
    expect(error).toBeInstanceOf(HttpError);
    expect((error as Error).message).toBe(`The Stack Auth API answered GET ${PRIMARY}${PROJECT} at ${API2} with HTTP 503: HTTP 503`);
  });

  it("goes on after a timed-out attempt", async () => {
    const hang: Handler = () => new Promise<Response>(() => {});
    const { service, client } = failoverSetup(byOrigin({ [PRIMARY]: hang, [API1]: ok }), { options: { requestTimeoutMs: 1_000 } });
    const started = Date.now();
    expect((await settleOnFakeTime(client.api.GET("/projects/current"))).response.status).toBe(200);
    expect(service.requests.map((r) => new URL(r.url).origin)).toEqual([PRIMARY, API1]);
    expect(Date.now() - started).toBe(1_000);
  });

  it("goes on after a 429, once the wait it asked for is over", async () => {
    const { service, client, waits } = failoverSetup(byOrigin({ [PRIMARY]: status(429, { "retry-after": "2" }), [API1]: ok }));
    await settleOnFakeTime(client.api.GET("/projects/current"));
    expect(service.requests.map((r) => new URL(r.url).origin)).toEqual([PRIMARY, API1]);
    expect(waits).toEqual([2000]);
  });

  it("goes on at once after a 508 loop guard", async () => {
    const loop = () => new Response("INFINITE_LOOP_DETECTED", { status: 508 });
    const { service, client, waits } = failoverSetup(byOrigin({ [PRIMARY]: loop, [API1]: ok }));
    await settleOnFakeTime(client.api.GET("/projects/current"));
    expect(service.requests.map((r) => new URL(r.url).origin)).toEqual([PRIMARY, API1]);
    expect(waits).toEqual([]);
  });
});

describe("what never goes elsewhere", () => {
  it.each([400, 401, 403, 404, 409])("an HTTP %i without a known error: the service answered", async (code) => {
    const { service, client } = failoverSetup(status(code));
    const error = await rejectionOf(client.api.GET("/projects/current"));
    expect(error).toMatchObject({ name: "HttpError", status: code });
    expect(service.requests.map(where)).toEqual([`${PRIMARY} ${PROJECT}`]);
  });

  it.each([
    [401, "INVALID_PUBLISHABLE_CLIENT_KEY", "The publishable key is not valid for the project."],
    [503, "OAUTH_PROVIDER_TEMPORARILY_UNAVAILABLE", "The OAuth provider is temporarily unavailable. Please try signing in again."],
  ])("a known error (%i %s), whatever its status", async (code, name, message) => {
    const { service, client } = failoverSetup(() => knownError(code, name, message));
    const error = await rejectionOf(client.api.GET("/projects/current"));
    expect(error).toMatchObject({ code: name, statusCode: code });
    expect(service.requests).toHaveLength(1);
  });

  it("a known error under the x-hexclave- header name, with a 5xx status", async () => {
    const answer = json(
      { code: "OAUTH_PROVIDER_TEMPORARILY_UNAVAILABLE", error: "unavailable" },
      { headers: { "x-hexclave-actual-status": "503", "x-hexclave-known-error": "OAUTH_PROVIDER_TEMPORARILY_UNAVAILABLE" } },
    );
    const { service, client } = failoverSetup(() => answer);
    await rejectionOf(client.api.GET("/projects/current"));
    expect(service.requests).toHaveLength(1);
  });

  it.each(["POST", "PATCH"] as const)("a %s after a network failure: it may have been processed", async (method) => {
    const { service, client } = failoverSetup(down);
    const call =
      method === "POST" ? client.api.POST("/teams", { body: { display_name: "A" } }) : client.api.PATCH("/users/me", { body: {} });
    const error = await settle(call);
    expect(service.requests).toHaveLength(1);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as Error).message).toContain("(1 attempt)");
  });

  it("a POST after a 5xx or a timeout: sent once", async () => {
    const failing = failoverSetup(status(502));
    await rejectionOf(failing.client.api.POST("/teams", { body: { display_name: "A" } }));
    expect(failing.service.requests.map(where)).toEqual([`${PRIMARY} /api/v1/teams`]);
    const hanging = failoverSetup(() => new Promise<Response>(() => {}), { options: { requestTimeoutMs: 1_000 } });
    const error = await settle(hanging.client.api.POST("/teams", { body: { display_name: "A" } }));
    expect(error).toBeInstanceOf(RequestTimeoutError);
    expect(hanging.service.requests).toHaveLength(1);
  });
});

describe("a POST", () => {
  it("goes on after a 429, which the service answers without processing it", async () => {
    const { service, client, waits } = failoverSetup(
      byOrigin({
        [PRIMARY]: status(429, { "retry-after": "1" }),
        [API1]: () => json(documentedAnswer("createTeam").body, { status: 201 }),
      }),
    );
    await settleOnFakeTime(client.api.POST("/teams", { body: { display_name: "A" } }));
    expect(service.requests.map(where)).toEqual([`${PRIMARY} /api/v1/teams`, `${API1} /api/v1/teams`]);
    expect(service.requests.map((r) => r.body)).toEqual(['{"display_name":"A"}', '{"display_name":"A"}']);
    expect(waits).toEqual([1000]);
  });

  it("goes on after a 508 loop guard", async () => {
    const loop = () => new Response("INFINITE_LOOP_DETECTED", { status: 508 });
    const { service, client } = failoverSetup(
      byOrigin({ [PRIMARY]: loop, [API1]: () => json(documentedAnswer("createTeam").body, { status: 201 }) }),
    );
    await settleOnFakeTime(client.api.POST("/teams", { body: { display_name: "A" } }));
    expect(service.requests.map((r) => new URL(r.url).origin)).toEqual([PRIMARY, API1]);
  });
});

describe("the origin that answered", () => {
  it("is where the next calls start for five minutes; then the base URL again", async () => {
    const { service, client } = failoverSetup(byOrigin({ [API1]: ok }));
    await settleOnFakeTime(client.api.GET("/projects/current"));
    await client.api.GET("/projects/current");
    vi.setSystemTime(Date.now() + STICKY_ORIGIN_MS - 1);
    await client.api.GET("/projects/current");
    vi.setSystemTime(Date.now() + 1);
    await settleOnFakeTime(client.api.GET("/projects/current"));
    expect(service.requests.map((r) => new URL(r.url).origin)).toEqual([PRIMARY, API1, API1, API1, PRIMARY, API1]);
  });

  it("is left at once when it fails: the next call goes round from it, and the base URL answering ends it", async () => {
    let api1Up = true;
    const { service, client } = failoverSetup(byOrigin({ [API1]: (r) => (api1Up ? ok(r) : down(r)), [API2]: ok }));
    await settleOnFakeTime(client.api.GET("/projects/current"));
    api1Up = false;
    await settleOnFakeTime(client.api.GET("/projects/current"));
    expect(service.requests.map((r) => new URL(r.url).origin)).toEqual([PRIMARY, API1, API1, API2]);
  });
});

describe("the access-token refresh", () => {
  it("fails over as every request does, with the same form, and the call follows it", async () => {
    const fresh = jwt({ exp: inSeconds(600) });
    const answers: Handler = (r) => (r.path === "/api/v1/auth/oauth/token" ? json({ access_token: fresh }) : ok(r));
    const { service, client } = failoverSetup(byOrigin({ [API1]: answers }), { accessToken: jwt({ exp: inSeconds(-60) }) });
    await settleOnFakeTime(client.api.GET("/users/me"));
    expect(service.requests.map(where)).toEqual([
      `${PRIMARY} /api/v1/auth/oauth/token`,
      `${API1} /api/v1/auth/oauth/token`,
      `${API1} /api/v1/users/me`,
    ]);
    const form = new URLSearchParams(service.requests[1]!.body);
    expect(Object.fromEntries(form)).toEqual({
      grant_type: "refresh_token",
      refresh_token: "rt-secret",
      client_id: "proj-1",
      client_secret: "pck-secret",
    });
    expect(service.requests[2]!.headers["x-stack-access-token"]).toBe(fresh);
  });

  it("goes on after a 5xx of the token endpoint", async () => {
    const fresh = jwt({ exp: inSeconds(600) });
    const token =
      (code: number): Handler =>
      (r) =>
        r.path === "/api/v1/auth/oauth/token" ? (code === 200 ? json({ access_token: fresh }) : status(code)(r)) : ok(r);
    const { service, client } = failoverSetup(byOrigin({ [PRIMARY]: token(503), [API1]: token(200) }), {
      accessToken: jwt({ exp: inSeconds(-60) }),
    });
    await client.api.GET("/users/me");
    expect(service.requests.map(where).slice(0, 2)).toEqual([`${PRIMARY} /api/v1/auth/oauth/token`, `${API1} /api/v1/auth/oauth/token`]);
  });
});

describe("onRequest and onRetry", () => {
  it("show where each attempt goes and where the next one will", async () => {
    const requests: RequestEvent[] = [];
    const retries: RetryEvent[] = [];
    const { client } = failoverSetup(byOrigin({ [PRIMARY]: status(502), [API2]: ok }), {
      options: { onRequest: (e) => requests.push(e), onRetry: (e) => retries.push(e) },
    });
    await settleOnFakeTime(client.api.GET("/projects/current"));
    expect(requests.map((e) => [e.attempt, e.url])).toEqual([
      [1, `${PRIMARY}${PROJECT}`],
      [2, `${API1}${PROJECT}`],
      [3, `${API2}${PROJECT}`],
    ]);
    expect(retries.map((e) => [e.attempt, e.reason, e.status, e.delayMs, e.url, e.nextUrl])).toEqual([
      [1, "server-error", 502, 0, `${PRIMARY}${PROJECT}`, `${API1}${PROJECT}`],
      [2, "network", undefined, 0, `${API1}${PROJECT}`, `${API2}${PROJECT}`],
    ]);
  });
});

describe("a signal", () => {
  it("aborted as the request moves to the next origin (no wait between them): nothing more is sent", async () => {
    const controller = new AbortController();
    const { service, client } = failoverSetup(down, { options: { onRetry: () => controller.abort() } });
    const error = await rejectionOf(client.api.GET("/projects/current", { signal: controller.signal }));
    expect(error).toMatchObject({ name: "AbortError" });
    await vi.runAllTimersAsync();
    expect(service.requests).toHaveLength(1);
  });
});
