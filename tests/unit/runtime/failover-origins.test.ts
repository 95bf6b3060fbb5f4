// Which origins a client fails over to (issue 31 §4): the hosted service's own
// fallbacks, the list it publishes at GET /internal/backend-urls (asked once,
// in the background, after the first request, without keys or tokens), what
// the app names; off for a self-hosted base URL unless asked for. Whatever the
// list says, secrets go to no origin the rules refuse.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import "../../helpers/lazy-modules.js";
import { StackConfigurationError } from "../../../runtime/errors.js";
import { createStackClient } from "../../../runtime/http/client.js";
import { API1, API2, byOrigin, down, failoverSetup, PRIMARY, where } from "../../helpers/failover.js";
import { answerAsDocumented } from "../../helpers/documented-answers.js";
import { BACKEND_URLS, json, testEnvironment, useFakeClock, type Handler } from "../../helpers/fake-service.js";
import { settleOnFakeTime, thrownBy } from "../../helpers/outcome.js";

const ok: Handler = (sent) => answerAsDocumented(sent);
const listing =
  (body: unknown, status = 200): Handler =>
  () =>
    json(body, { status });
const origins = (requests: readonly { readonly url: string }[]) => requests.map((r) => new URL(r.url).origin);
const flush = () => vi.advanceTimersByTimeAsync(0);

/** Sends a GET that every origin fails, to see the origins it goes round (the first five). */
async function roundOf(client: ReturnType<typeof failoverSetup>["client"]): Promise<void> {
  await settleOnFakeTime(client.api.GET("/projects/current")).catch(() => undefined);
}

beforeEach(() => useFakeClock());
afterEach(() => vi.useRealTimers());

describe("the service's list of origins", () => {
  it("is not asked for before the first request, then once, right after it, exactly so", async () => {
    const { client, sent, service } = failoverSetup(ok, { list: listing({ urls: [PRIMARY, API1, API2] }) });
    await flush();
    expect(sent).toEqual([]);
    await client.api.GET("/projects/current");
    await client.api.GET("/projects/current");
    await client.withTokenStore(null).api.GET("/projects/current");
    await flush();
    expect(sent.map((r) => `${r.method} ${r.url}`)).toEqual([
      `GET ${PRIMARY}/api/v1/projects/current`,
      `GET ${PRIMARY}${BACKEND_URLS}`,
      `GET ${PRIMARY}/api/v1/projects/current`,
      `GET ${PRIMARY}/api/v1/projects/current`,
    ]);
    const list = sent[1]!;
    expect([...list.headers]).toEqual([]);
    expect([list.redirect, list.credentials, list.cache, list.body]).toEqual(["manual", "omit", "no-store", null]);
    expect(service.listRequests).toHaveLength(1);
  });

  it("is asked for once by every app on the same fetch and base URL", async () => {
    const { service, env } = failoverSetup(ok);
    const apps = [1, 2, 3].map(() => createStackClient({ projectId: "proj-1", tokenStore: null, environment: env }));
    for (const app of apps) await app.api.GET("/projects/current");
    await flush();
    expect(service.listRequests).toHaveLength(1);
  });

  it("never delays the first request: a list that never comes holds nothing", async () => {
    const { client } = failoverSetup(ok, { list: () => new Promise<Response>(() => {}) });
    expect((await client.api.GET("/projects/current")).response.status).toBe(200);
  });

  it("adds its origins after the fallbacks, in its order, once it has come", async () => {
    const API3 = "https://api3.stack-auth.com";
    const EU = "https://eu.api.hexclave.com";
    const { client, service } = failoverSetup(down, { list: listing({ urls: [`${API3}/`, PRIMARY, EU] }) });
    await roundOf(client);
    service.requests.length = 0;
    await roundOf(client);
    expect(origins(service.requests)).toEqual([PRIMARY, API1, API2, API3, EU]);
  });

  it.each([
    ["urls is not an array", { urls: "https://api3.stack-auth.com" }],
    ["an item is not a string", { urls: ["https://api3.stack-auth.com", 3] }],
    ["an origin is http", { urls: ["https://api3.stack-auth.com", "http://api4.stack-auth.com"] }],
    ["an origin is on another domain", { urls: ["https://api3.stack-auth.com", "https://api.evil.example"] }],
    ["an origin only ends like the service's domain", { urls: ["https://evilstack-auth.com"] }],
    ["an origin has a path", { urls: ["https://api3.stack-auth.com/proxy"] }],
    ["an origin has a port", { urls: ["https://api3.stack-auth.com:8443"] }],
    ["an origin has credentials", { urls: ["https://user:pass@api3.stack-auth.com"] }],
    ["an origin ends with /api/v1", { urls: ["https://api3.stack-auth.com/api/v1"] }],
    ["the body is not an object", ["https://api3.stack-auth.com"]],
  ])("is ignored whole when %s: no secret goes anywhere new", async (_why, body) => {
    const { client, service } = failoverSetup(down, { list: listing(body) });
    await roundOf(client);
    service.requests.length = 0;
    await roundOf(client);
    expect(origins(service.requests)).toEqual([PRIMARY, API1, API2, PRIMARY, API1]);
  });

  it.each([
    ["a 404 (a version without the route)", undefined],
    ["a 500", listing({ urls: ["https://api3.stack-auth.com"] }, 500)],
    [
      "a redirect, which is not followed",
      () => new Response(null, { status: 307, headers: { location: "https://api.evil.example/urls" } }),
    ],
    ["a body that is not JSON", () => new Response("<html>", { status: 200 })],
    ["a network failure", down],
  ])("is ignored after %s, and not asked for again", async (_why, list) => {
    const { client, service } = failoverSetup(ok, list ? { list } : {});
    await client.api.GET("/projects/current");
    await flush();
    await client.api.GET("/projects/current");
    await flush();
    expect(service.listRequests.map((r) => r.url)).toEqual([`${PRIMARY}${BACKEND_URLS}`]);
  });
});

describe("the hosted service's origins", () => {
  it.each([
    [undefined, [PRIMARY, API1, API2]],
    ["https://api.stack-auth.com/", [PRIMARY, API1, API2]],
    ["https://api.hexclave.com", ["https://api.hexclave.com", "https://api1.hexclave.com", "https://api2.hexclave.com"]],
    [
      "https://api.dev.stack-auth.com",
      ["https://api.dev.stack-auth.com", "https://api1.dev.stack-auth.com", "https://api2.dev.stack-auth.com"],
    ],
    ["https://api.dev.hexclave.com", ["https://api.dev.hexclave.com", "https://api1.dev.hexclave.com", "https://api2.dev.hexclave.com"]],
  ])("for baseUrl %s are its fallbacks, tried in this order", async (baseUrl, expected) => {
    const { client, service } = failoverSetup(down, { options: baseUrl === undefined ? {} : { baseUrl } });
    await roundOf(client);
    expect(origins(service.requests).slice(0, 3)).toEqual(expected);
    expect(service.listRequests.map((r) => r.url)).toEqual([`${expected[0]}${BACKEND_URLS}`]);
  });

  it("for a staging host are its own and its list's (no fallbacks are known)", async () => {
    const staging = "https://api.staging.stack-auth.com";
    const other = "https://api1.staging.hexclave.com";
    const { client, service } = failoverSetup(down, { options: { baseUrl: staging }, list: listing({ urls: [staging, other] }) });
    await roundOf(client);
    expect(origins(service.requests)).toEqual([staging, staging, staging, staging, staging]);
    service.requests.length = 0;
    await roundOf(client);
    expect(origins(service.requests)).toEqual([staging, other, staging, other, staging]);
  });

  it("are not used with failover: false: no list, one origin", async () => {
    const { client, service } = failoverSetup(down, { options: { failover: false } });
    await roundOf(client);
    expect(origins(service.requests)).toEqual(Array(5).fill(PRIMARY));
    expect(service.listRequests).toEqual([]);
  });
});

describe("a self-hosted service", () => {
  const SELF = "https://auth.example.com";

  it("fails over to nothing by default, and is never asked for a list", async () => {
    const { client, service } = failoverSetup(down, { options: { baseUrl: SELF } });
    await roundOf(client);
    await flush();
    expect(origins(service.requests)).toEqual(Array(5).fill(SELF));
    expect(service.listRequests).toEqual([]);
  });

  it("with failover: true uses the https origins its list names", async () => {
    const EU = "https://auth-eu.example.net";
    const { client, service } = failoverSetup(byOrigin({ [EU]: ok }), {
      options: { baseUrl: SELF, failover: true },
      list: listing({ urls: [SELF, EU] }),
    });
    await roundOf(client);
    service.requests.length = 0;
    await settleOnFakeTime(client.api.GET("/projects/current"));
    expect(service.listRequests.map((r) => r.url)).toEqual([`${SELF}${BACKEND_URLS}`]);
    expect(service.requests.map(where)).toEqual([`${SELF} /api/v1/projects/current`, `${EU} /api/v1/projects/current`]);
  });

  it("with failover: true refuses a list naming an http origin: its keys never go there", async () => {
    const { client, service } = failoverSetup(down, {
      options: { baseUrl: SELF, failover: true, accessType: "server", secretServerKey: "ssk-secret" },
      list: listing({ urls: [SELF, "http://auth-eu.example.net"] }),
    });
    await roundOf(client);
    await roundOf(client);
    expect(new Set(origins(service.requests))).toEqual(new Set([SELF]));
  });

  it("on a loopback address may list http origins on loopback addresses only", async () => {
    const local = "http://localhost:8102";
    const accepted = failoverSetup(down, {
      options: { baseUrl: local, failover: true },
      list: listing({ urls: ["http://127.0.0.1:8110"] }),
    });
    await roundOf(accepted.client);
    accepted.service.requests.length = 0;
    await roundOf(accepted.client);
    expect(origins(accepted.service.requests).slice(0, 2)).toEqual([local, "http://127.0.0.1:8110"]);
    const refused = failoverSetup(down, { options: { baseUrl: local, failover: true }, list: listing({ urls: ["http://10.0.0.5:8110"] }) });
    await roundOf(refused.client);
    await roundOf(refused.client);
    expect(new Set(origins(refused.service.requests))).toEqual(new Set([local]));
  });

  it("with failover: { origins, discover: false } tries those, in order, and asks for no list", async () => {
    const EU = "https://auth-eu.example.com";
    const US = "http://stack-backend:8102";
    const { client, service } = failoverSetup(down, { options: { baseUrl: SELF, failover: { origins: [`${EU}/`, US], discover: false } } });
    await roundOf(client);
    await flush();
    expect(origins(service.requests)).toEqual([SELF, EU, US, SELF, EU]);
    expect(service.listRequests).toEqual([]);
  });
});

describe("the failover option", () => {
  const make = (failover: unknown) => () =>
    createStackClient({
      projectId: "p",
      tokenStore: null,
      environment: testEnvironment(async () => new Response(null, { status: 503 })).env,
      failover: failover as never,
    });

  it.each([
    ["yes", 'failover must be true, false or { origins?, discover? }; got "yes".'],
    [{ origins: "https://a.example.com" }, 'failover.origins must be an array of origins; got "https://a.example.com".'],
    [{ discover: "no" }, 'failover.discover must be true or false; got "no".'],
    [
      { origins: ["ftp://a.example.com"] },
      'failover.origins[0] must be the origin of the service\'s API (an http(s) URL without /api/v1, credentials, query or fragment, such as "https://auth-eu.example.com"); got "ftp://a.example.com".',
    ],
    [
      { origins: ["https://a.example.com", "https://b.example.com/api/v1"] },
      'failover.origins[1] must be the origin of the service\'s API (an http(s) URL without /api/v1, credentials, query or fragment, such as "https://auth-eu.example.com"); got "https://b.example.com/api/v1".',
    ],
  ])("%j is refused when the client is made", (failover, message) => {
    const error = thrownBy(make(failover));
    expect(error).toBeInstanceOf(StackConfigurationError);
    expect(error.message).toBe(message);
  });

  it("is taken by client, server and admin apps, and handed on by inheritsFrom", async () => {
    const { StackAdminApp, StackClientApp, StackServerApp } = await import("../../../runtime/index.js");
    const { service, env } = failoverSetup(down);
    const common = { projectId: "proj-1", environment: env, browser: null, noAutomaticPrefetch: true } as const;
    const client = new StackClientApp({ ...common, publishableClientKey: "pck", tokenStore: null, failover: false });
    const inheriting = new StackServerApp({ inheritsFrom: client, secretServerKey: "ssk" });
    const admin = new StackAdminApp({ ...common, tokenStore: null, superSecretAdminKey: "sak", failover: { discover: false } });
    const roundsOf = async (call: () => Promise<unknown>) => {
      service.requests.length = 0;
      await settleOnFakeTime(call()).catch(() => undefined);
      return origins(service.requests);
    };
    expect(await roundsOf(() => client.getProject())).toEqual(Array(5).fill(PRIMARY));
    expect(await roundsOf(() => inheriting.listUsers())).toEqual(Array(5).fill(PRIMARY));
    expect(await roundsOf(() => admin.getProject())).toEqual([PRIMARY, API1, API2, PRIMARY, API1]);
    expect(service.listRequests).toEqual([]);
  });
});
