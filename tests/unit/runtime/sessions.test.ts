// Sessions and refresh (SPEC §4, wire contract §4, §5).
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { KnownErrors } from "../../../generated/known-errors.js";
import { createStackClient, type StackClientOptions } from "../../../runtime/http/client.js";
import { StackAssertionError, StackConfigurationError } from "../../../runtime/errors.js";
import { HttpError } from "../../../runtime/http/request-errors.js";
import { accessTokenFacts } from "../../../runtime/sessions/jwt.js";

const accessTokenExpiresAt = (token: string) => accessTokenFacts(token).expiresAt;
import { SessionManager } from "../../../runtime/sessions/session.js";
import { createMemoryTokenStore } from "../../../runtime/sessions/tokens/memory.js";
import { NO_TOKENS } from "../../../runtime/sessions/tokens/store.js";
import { answerAsDocumented } from "../../helpers/documented-answers.js";
import {
  fakeService,
  json,
  jwt,
  knownError,
  testEnvironment,
  useFakeClock,
  type Handler,
  type SentRequest,
} from "../../helpers/fake-service.js";

const inSeconds = (s: number) => Math.floor(Date.now() / 1000) + s;
const isTokenRequest = (r: SentRequest) => r.path === "/api/v1/auth/oauth/token";

function setup(
  handler: Handler,
  tokens = { refreshToken: "rt-1" as string | null, accessToken: null as string | null },
  options: Partial<StackClientOptions> = {},
) {
  const service = fakeService(handler);
  const { env, waits } = testEnvironment(service.fetch);
  const store = createMemoryTokenStore(tokens);
  // One origin: how the refresh fails over is in tests/unit/runtime/failover.test.ts.
  const client = createStackClient({
    projectId: "proj-1",
    publishableClientKey: "pck-1",
    tokenStore: store,
    environment: env,
    failover: false,
    ...options,
  });
  return { service, client, store, waits, env };
}

/** The service: the token endpoint issues `fresh`; every other call answers with the access token it got. */
function service(fresh: () => string | Response): Handler {
  return (r) => {
    if (isTokenRequest(r)) {
      const next = fresh();
      return typeof next === "string" ? json({ access_token: next }) : next;
    }
    return answerAsDocumented(r, { seen: r.headers["x-stack-access-token"] ?? null });
  };
}

beforeEach(() => useFakeClock());
afterEach(() => vi.useRealTimers());

describe("access-token expiry", () => {
  it("is exp × 1000", () => {
    expect(accessTokenExpiresAt(jwt({ exp: 1_900_000_000 }))).toBe(1_900_000_000_000);
  });
  it("is never for a token without exp", () => {
    expect(accessTokenExpiresAt(jwt())).toBe(Number.POSITIVE_INFINITY);
  });
  it("is already past for a token that cannot be decoded", () => {
    expect(accessTokenExpiresAt("not-a-jwt")).toBe(Number.NEGATIVE_INFINITY);
  });
});

describe("refreshing", () => {
  it("is the form POST of the refresh grant, without x-stack-* headers", async () => {
    const fresh = jwt({ exp: inSeconds(600) });
    const { service: s, client } = setup(service(() => fresh));
    await client.api.GET("/users/me");
    const [refresh, call] = s.requests;
    expect(refresh).toMatchObject({
      method: "POST",
      url: "https://api.stack-auth.com/api/v1/auth/oauth/token",
      cache: "no-store",
      credentials: "omit",
    });
    expect(refresh!.headers).toEqual({ "content-type": "application/x-www-form-urlencoded" });
    expect(Object.fromEntries(new URLSearchParams(refresh!.body))).toEqual({
      grant_type: "refresh_token",
      refresh_token: "rt-1",
      client_id: "proj-1",
      client_secret: "pck-1",
    });
    expect(call!.headers["x-stack-access-token"]).toBe(fresh);
  });

  it("happens when less than 20 s of life is left, and not before", async () => {
    const old = jwt({ exp: inSeconds(21) });
    const { service: s, client } = setup(
      service(() => jwt({ exp: inSeconds(600) })),
      { refreshToken: "rt-1", accessToken: old },
    );
    await client.api.GET("/users/me");
    expect(s.requests.filter(isTokenRequest)).toHaveLength(0);
    vi.setSystemTime(Date.now() + 1001);
    await client.api.GET("/projects/current");
    expect(s.requests.filter(isTokenRequest)).toHaveLength(1);
  });

  it("is shared: 100 concurrent calls with an expired access token make exactly 1 token request and 100 calls", async () => {
    const fresh = jwt({ exp: inSeconds(600) });
    const {
      service: s,
      client,
      store,
    } = setup(
      service(() => fresh),
      { refreshToken: "rt-1", accessToken: jwt({ exp: inSeconds(-5) }) },
    );
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) => client.api.GET("/teams/{team_id}", { params: { path: { team_id: `t${i}` } } })),
    );
    expect(s.requests.filter(isTokenRequest)).toHaveLength(1);
    expect(s.requests.filter((r) => !isTokenRequest(r))).toHaveLength(100);
    expect(results.every((r) => (r.data as unknown as { seen: string }).seen === fresh)).toBe(true);
    expect(store.get()).toEqual({ refreshToken: "rt-1", accessToken: fresh });
  });

  it("recovers after a 503 from the token endpoint: the next call (after a 1 s cooldown) refreshes again", async () => {
    let refreshes = 0;
    const fresh = jwt({ exp: inSeconds(600) });
    const { service: s, client } = setup(service(() => (++refreshes === 1 ? new Response("unavailable", { status: 503 }) : fresh)));
    await expect(client.api.GET("/users/me")).rejects.toMatchObject({ name: "HttpError", status: 503 });
    // Within the cooldown, the failure is answered without another token request.
    await expect(client.api.GET("/users/me")).rejects.toBeInstanceOf(HttpError);
    expect(s.requests.filter(isTokenRequest)).toHaveLength(1);
    vi.setSystemTime(Date.now() + 1000);
    const { data } = await client.api.GET("/users/me");
    expect(data).toMatchObject({ seen: fresh });
    expect(s.requests.filter(isTokenRequest)).toHaveLength(2);
  });

  it("is retried after a network error, the one POST that is", async () => {
    let refreshes = 0;
    const fresh = jwt({ exp: inSeconds(600) });
    const {
      service: s,
      client,
      waits,
    } = setup((r) => {
      if (isTokenRequest(r) && ++refreshes === 1) throw new TypeError("fetch failed");
      return service(() => fresh)(r);
    });
    const call = client.api.GET("/users/me");
    await vi.runAllTimersAsync();
    expect((await call).data).toMatchObject({ seen: fresh });
    expect(s.requests.filter(isTokenRequest)).toHaveLength(2);
    expect(waits).toEqual([1000]);
  });

  it("that fails with a refresh-token error ends the session: the store is cleared and the call goes without user tokens", async () => {
    const {
      service: s,
      client,
      store,
    } = setup(service(() => knownError(401, "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED", "Refresh token not found.")));
    const { data } = await client.api.GET("/projects/current");
    expect(data).toMatchObject({ seen: null });
    expect(s.requests.map((r) => r.path)).toEqual(["/api/v1/auth/oauth/token", "/api/v1/projects/current"]);
    expect(s.requests[1]!.headers["x-stack-access-token"]).toBeUndefined();
    expect(store.get()).toEqual(NO_TOKENS);
    expect(client.sessions!.current().isKnownInvalid).toBe(true);
  });

  it("that finishes after a sign-out writes nothing back", async () => {
    let release!: (r: Response) => void;
    const { client, store } = setup((r) =>
      isTokenRequest(r)
        ? new Promise<Response>((resolve) => (release = resolve))
        : json({ seen: r.headers["x-stack-access-token"] ?? null }),
    );
    const session = client.sessions!.current();
    const pending = session.getTokens();
    await vi.waitFor(() => expect(release).toBeDefined());
    client.sessions!.signOut();
    release(json({ access_token: jwt({ exp: inSeconds(600) }) }));
    expect(await pending).toBeNull();
    expect(store.get()).toEqual(NO_TOKENS);
    expect(session.isKnownInvalid).toBe(true);
  });

  it("does not write over tokens of a newer sign-in", async () => {
    let release!: (r: Response) => void;
    const { client, store } = setup((r) =>
      isTokenRequest(r) ? new Promise<Response>((resolve) => (release = resolve)) : answerAsDocumented(r),
    );
    const pending = client.sessions!.current().getTokens();
    await vi.waitFor(() => expect(release).toBeDefined());
    store.set({ refreshToken: "rt-2", accessToken: "at-2" });
    release(json({ access_token: jwt({ exp: inSeconds(600) }) }));
    await pending;
    expect(store.get()).toEqual({ refreshToken: "rt-2", accessToken: "at-2" });
  });
});

describe("an access token the service rejects", () => {
  it("is marked expired, refreshed, and the call is sent once more", async () => {
    const stale = jwt({ exp: inSeconds(600) });
    const fresh = jwt({ exp: inSeconds(900) });
    const { service: s, client } = setup(
      (r) => {
        if (isTokenRequest(r)) return json({ access_token: fresh });
        if (r.headers["x-stack-access-token"] === stale) return knownError(401, "UNPARSABLE_ACCESS_TOKEN", "Access token is not parsable.");
        return answerAsDocumented(r, { seen: r.headers["x-stack-access-token"] });
      },
      { refreshToken: "rt-1", accessToken: stale },
    );
    const { data } = await client.api.GET("/users/me");
    expect(data).toMatchObject({ seen: fresh });
    expect(s.requests.map((r) => [r.method, r.path])).toEqual([
      ["GET", "/api/v1/users/me"],
      ["POST", "/api/v1/auth/oauth/token"],
      ["GET", "/api/v1/users/me"],
    ]);
  });

  it("is retried only once: a second rejection reaches the caller", async () => {
    const { service: s, client } = setup(
      (r) =>
        isTokenRequest(r)
          ? json({ access_token: jwt({ exp: inSeconds(700) }) })
          : knownError(401, "ACCESS_TOKEN_EXPIRED", "Access token has expired."),
      { refreshToken: "rt-1", accessToken: jwt({ exp: inSeconds(600) }) },
    );
    await expect(client.api.GET("/users/me")).rejects.toBeInstanceOf(KnownErrors.AccessTokenExpired);
    expect(s.requests.filter((r) => !isTokenRequest(r))).toHaveLength(2);
  });

  it("of a project-owner session is refreshed through that session, for INVALID_ADMIN_ACCESS_TOKEN and API_KEY_NOT_FOUND", async () => {
    for (const code of ["ADMIN_ACCESS_TOKEN_EXPIRED", "API_KEY_NOT_FOUND"]) {
      const owner = createMemoryTokenStore({ refreshToken: "owner-rt", accessToken: jwt({ exp: inSeconds(600), sub: "old" }) });
      const fresh = jwt({ exp: inSeconds(900), sub: "new" });
      const ownerService = fakeService(() => json({ access_token: fresh }));
      const ownerSessions = new SessionManager(owner, testEnvironment(ownerService.fetch).env, async () => fresh);
      const { service: s, client } = setup(
        (r) =>
          r.headers["x-stack-admin-access-token"] === fresh ? answerAsDocumented(r, { ok: true }) : knownError(401, code, "rejected"),
        { refreshToken: null, accessToken: null },
        { accessType: "admin", tokenStore: null, projectOwnerSession: ownerSessions.current() },
      );
      const { data } = await client.api.GET("/internal/projects/current");
      expect(data).toMatchObject({ ok: true });
      expect(s.requests).toHaveLength(2);
      expect(owner.get().accessToken).toBe(fresh);
    }
  });
});

describe("a session", () => {
  it("with neither token is known-invalid from the start and sends no user token", async () => {
    const { service: s, client } = setup(
      service(() => "x"),
      { refreshToken: null, accessToken: null },
    );
    expect(client.sessions!.current().isKnownInvalid).toBe(true);
    await client.api.GET("/projects/current");
    expect(s.requests).toHaveLength(1);
    expect(s.requests[0]!.headers["x-stack-access-token"]).toBeUndefined();
  });

  it("stays invalid once invalidated", async () => {
    const { client } = setup(service(() => "x"));
    const session = client.sessions!.current();
    session.invalidate();
    expect(await session.getTokens()).toBeNull();
    expect(session.peek()).toEqual({ accessToken: null, refreshToken: null });
  });

  it("refuses to promise 60 s or more of access-token life", async () => {
    const { client } = setup(service(() => "x"));
    await expect(client.sessions!.current().getTokens(60_000)).rejects.toThrow(
      new StackConfigurationError(
        "Required access token expiry 60000ms is too long; access tokens are too short to be used for more than 60s",
      ),
    );
  });

  it("treats a refreshed token with less life than asked for as an assertion failure", async () => {
    const { client } = setup(service(() => jwt({ exp: inSeconds(10) })));
    await expect(client.sessions!.current().getTokens(20_000)).rejects.toBeInstanceOf(StackAssertionError);
  });

  it("is shared by equal token pairs, and a process keeps a bounded number of them", () => {
    const store = createMemoryTokenStore({ refreshToken: "a", accessToken: null });
    const sessions = new SessionManager(store, testEnvironment(fakeService(() => json({})).fetch).env, async () => null, 2);
    const first = sessions.current();
    expect(sessions.current()).toBe(first);
    store.set({ refreshToken: "b", accessToken: null });
    sessions.current();
    store.set({ refreshToken: "c", accessToken: null });
    sessions.current();
    store.set({ refreshToken: "a", accessToken: null });
    expect(sessions.current()).not.toBe(first);
  });
});

describe("tokens that cannot be tokens (tokens/check.ts)", () => {
  /** A store that holds whatever it is given, as an app's own store may, and records every set(). */
  function lenientStore(held: unknown, options: { getThrows?: boolean } = {}) {
    const sets: unknown[] = [];
    let current = held;
    const store = {
      get: () => {
        if (options.getThrows) throw new Error("storage unavailable");
        return current as typeof NO_TOKENS;
      },
      set: (tokens: typeof NO_TOKENS) => void (sets.push(tokens), (current = tokens)),
      subscribe: () => () => undefined,
    };
    return { store, sets };
  }
  const manager = (store: ConstructorParameters<typeof SessionManager>[0]) =>
    new SessionManager(store, testEnvironment(fakeService(() => json({})).fetch).env, async () => null);

  it("read from a store are absent, and the store is told to forget them once", () => {
    const { store, sets } = lenientStore({ refreshToken: "undefined", accessToken: "undefined" });
    const sessions = manager(store);
    expect(sessions.current().isKnownInvalid).toBe(true);
    expect(sessions.current().peek()).toEqual({ accessToken: null, refreshToken: null });
    expect(sets).toEqual([NO_TOKENS]);
  });

  it("take only the access token when the refresh token is good", () => {
    const { store, sets } = lenientStore({ refreshToken: "rt-1", accessToken: "at\n1" });
    expect(manager(store).current().peek()).toEqual({ accessToken: null, refreshToken: "rt-1" });
    expect(sets).toEqual([{ refreshToken: "rt-1", accessToken: null }]);
  });

  it("do not stop a sign-out, nor does a store that cannot be read", () => {
    const garbled = lenientStore({ refreshToken: "rt-\u20ac", accessToken: null });
    const sessions = manager(garbled.store);
    expect(sessions.peekCurrent()).toEqual(NO_TOKENS);
    sessions.signOut();
    expect(garbled.sets.at(-1)).toEqual(NO_TOKENS);

    const unreadable = lenientStore(NO_TOKENS, { getThrows: true });
    const broken = manager(unreadable.store);
    expect(() => broken.current()).toThrow("storage unavailable");
    expect(broken.peekCurrent()).toEqual(NO_TOKENS);
    expect(() => broken.signOut()).not.toThrow();
    expect(unreadable.sets).toEqual([NO_TOKENS]);
  });

  it("answered by the token endpoint are a ResponseFormatError: never stored, never sent, and not asked for again within the cooldown", async () => {
    const { service: s, client, store } = setup(service(() => "undefined"));
    await expect(client.sessions!.current().getTokens()).rejects.toMatchObject({
      name: "ResponseFormatError",
      operationId: "exchangeOAuthToken",
      path: "$.access_token",
    });
    await expect(client.api.GET("/users/me")).rejects.toMatchObject({ name: "ResponseFormatError", operationId: "exchangeOAuthToken" });
    expect(s.requests.map((r) => r.path)).toEqual(["/api/v1/auth/oauth/token"]);
    expect(store.get()).toEqual({ refreshToken: "rt-1", accessToken: null });
  });
});

describe("a refresh made elsewhere on the same store (another tab, another app)", () => {
  it("is used here: no second refresh, the newer access token is sent", async () => {
    const store = createMemoryTokenStore({ refreshToken: "rt-shared", accessToken: jwt({ exp: inSeconds(600), sub: "old" }) });
    let refreshes = 0;
    const refresh = async () => jwt({ exp: inSeconds(900 + ++refreshes), sub: "new" });
    const env = testEnvironment(fakeService(() => json({})).fetch).env;
    const tabA = new SessionManager(store, env, refresh);
    const tabB = new SessionManager(store, env, refresh);
    const old = (await tabB.current().getTokens())!.accessToken!;
    tabA.current().markAccessTokenExpired(old);
    const renewed = (await tabA.current().getTokens())!.accessToken;
    expect(store.get().accessToken).toBe(renewed);
    expect((await tabB.current().getTokens())!.accessToken).toBe(renewed);
    expect(refreshes).toBe(1);
  });

  it("never takes back an older token than the one held", async () => {
    const newer = jwt({ exp: inSeconds(900), sub: "newer" });
    const store = createMemoryTokenStore({ refreshToken: "rt-shared", accessToken: newer });
    const sessions = new SessionManager(store, testEnvironment(fakeService(() => json({})).fetch).env, async () => null);
    sessions.current();
    store.set({ refreshToken: "rt-shared", accessToken: jwt({ exp: inSeconds(300), sub: "older" }) });
    expect(sessions.current().peek().accessToken).toBe(newer);
  });
});
