// Server-side caches are bounded (issue #6; wire contract §14: caches keyed by
// user id, API key or token pair never evict in the reference). A long-running
// server pushes many distinct users, keys and sessions through one app.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { SESSION_CACHE_LIMIT } from "../../../../runtime/constants.js";
import { StackServerApp } from "../../../../runtime/app/server-app.js";
import { fakeService, json, jwt, knownError, testEnvironment, useFakeClock, type Handler } from "../../../helpers/fake-service.js";
import { USER } from "./setup.js";

/** A server app that shows how many per-call sessions it keeps. */
class ProbeApp extends StackServerApp {
  get sessionCount(): number {
    return this.cachedSessionCount;
  }
}

function probe(handler: Handler) {
  const service = fakeService(handler);
  const { env } = testEnvironment(service.fetch);
  const app = new ProbeApp({
    projectId: "proj-1",
    publishableClientKey: "pck-1",
    secretServerKey: "ssk-1",
    tokenStore: null,
    environment: env,
    browser: null,
  });
  return { app, service };
}

const uuid = (i: number) => `00000000-0000-4000-8000-${i.toString(16).padStart(12, "0")}`;
const inAnHour = () => Math.floor(Date.now() / 1000) + 3600;
const me: Handler = () => json(USER);
const MANY = 5000;

beforeEach(() => useFakeClock());
afterEach(() => vi.useRealTimers());

describe("sessions of the callers", () => {
  it(`keeps at most ${SESSION_CACHE_LIMIT} sessions for ${MANY} distinct token pairs`, async () => {
    const { app, service } = probe(me);
    const accessToken = jwt({ exp: inAnHour() });
    for (let i = 0; i < MANY; i++) {
      await app.getUser({ tokenStore: { accessToken, refreshToken: `rt-pair-${i}` } });
      expect(app.sessionCount).toBeLessThanOrEqual(SESSION_CACHE_LIMIT);
    }
    expect(app.sessionCount).toBe(SESSION_CACHE_LIMIT);
    expect(service.requests).toHaveLength(MANY);
  });

  it(`keeps at most ${SESSION_CACHE_LIMIT} sessions for ${MANY} distinct requests`, async () => {
    const { app } = probe(me);
    const accessToken = jwt({ exp: inAnHour() });
    for (let i = 0; i < MANY; i++) {
      const headers = { "x-stack-auth": JSON.stringify({ accessToken, refreshToken: `rt-req-${i}` }) };
      await app.getUser({ tokenStore: new Request("https://app.example.com/", { headers }) });
    }
    expect(app.sessionCount).toBe(SESSION_CACHE_LIMIT);
  });

  it("keeps no session for requests without tokens", async () => {
    const { app } = probe(me);
    for (let i = 0; i < 100; i++) await app.getUser({ tokenStore: new Request(`https://app.example.com/${i}`) });
    expect(app.sessionCount).toBe(0);
  });

  it("shares one session between calls with the same tokens: one refresh for ten concurrent calls", async () => {
    const expired = jwt({ exp: Math.floor(Date.now() / 1000) - 10 });
    const { app, service } = probe((r) =>
      r.path === "/api/v1/auth/oauth/token" ? json({ access_token: jwt({ exp: inAnHour() }) }) : json(USER),
    );
    const tokenStore = () =>
      new Request("https://app.example.com/", {
        headers: { "x-stack-auth": JSON.stringify({ accessToken: expired, refreshToken: "rt-shared" }) },
      });
    const users = await Promise.all(Array.from({ length: 10 }, () => app.getUser({ tokenStore: tokenStore() })));
    expect(users.every((u) => u?.id === USER.id)).toBe(true);
    expect(service.requests.filter((r) => r.path === "/api/v1/auth/oauth/token")).toHaveLength(1);
    expect(app.sessionCount).toBe(1);
  });
});

describe("users and keys looked up by server code", () => {
  it(`getUser(id) for ${MANY} ids keeps nothing: no session, and every lookup asks the service`, async () => {
    const { app, service } = probe((r) => json({ ...USER, id: r.path.split("/").pop() }));
    for (let i = 0; i < MANY; i++) expect((await app.getUser(uuid(i)))?.id).toBe(uuid(i));
    expect(app.sessionCount).toBe(0);
    await app.getUser(uuid(0));
    expect(service.requests).toHaveLength(MANY + 1);
  });

  it(`getUser({ apiKey }) for ${MANY} keys keeps nothing`, async () => {
    const { app, service } = probe(() => knownError(404, "API_KEY_NOT_FOUND", "API key not found."));
    for (let i = 0; i < MANY; i++) expect(await app.getUser({ apiKey: `sk_user_${i}` })).toBeNull();
    expect(app.sessionCount).toBe(0);
    expect(service.requests).toHaveLength(MANY);
  });
});
