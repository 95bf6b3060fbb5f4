// What goes on the wire (wire contract §1, §2; issue: request pipeline).
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createStackClient, type StackClientOptions } from "../../../runtime/http/client.js";
import { createMemoryTokenStore } from "../../../runtime/sessions/tokens/memory.js";
import { answerAsDocumented, documentedAnswer } from "../../helpers/documented-answers.js";
import { fakeService, jwt, testEnvironment, useFakeClock } from "../../helpers/fake-service.js";

const HOUR = 3600;
const access = () => jwt({ exp: Math.floor(Date.now() / 1000) + HOUR });

function setup(
  options: Partial<StackClientOptions> = {},
  tokens = { refreshToken: "rt-1" as string | null, accessToken: null as string | null },
) {
  const service = fakeService(answerAsDocumented);
  const { env } = testEnvironment(service.fetch);
  const store = createMemoryTokenStore({ refreshToken: tokens.refreshToken, accessToken: tokens.accessToken ?? access() });
  const client = createStackClient({
    projectId: "proj-1",
    publishableClientKey: "pck-1",
    tokenStore: store,
    environment: env,
    ...options,
  });
  return { service, client, store };
}

beforeEach(() => useFakeClock());
afterEach(() => vi.useRealTimers());

describe("a client request", () => {
  it("goes to baseUrl + /api/v1 + path with the client headers, no-store and no credentials", async () => {
    const { service, client, store } = setup({ baseUrl: "https://auth.example.com/" });
    await client.api.GET("/users/me");
    const [sent] = service.requests;
    expect(sent!.url).toBe("https://auth.example.com/api/v1/users/me");
    expect(sent!.method).toBe("GET");
    expect(sent!.cache).toBe("no-store");
    expect(sent!.credentials).toBe("omit");
    expect(Object.keys(sent!.headers).sort()).toEqual(
      [
        "x-stack-access-token",
        "x-stack-access-type",
        "x-stack-client-version",
        "x-stack-override-error-status",
        "x-stack-project-id",
        "x-stack-publishable-client-key",
        "x-stack-random-nonce",
      ].sort(),
    );
    expect(sent!.headers).toMatchObject({
      "x-stack-project-id": "proj-1",
      "x-stack-access-type": "client",
      "x-stack-client-version": "js stackkit@0.1.0",
      "x-stack-access-token": store.get().accessToken,
      "x-stack-publishable-client-key": "pck-1",
      "x-stack-override-error-status": "true",
    });
  });

  // Services since 2.8.86 take an anonymous or restricted user's token only with x-stack-allow-anonymous-user: true;
  // 2.8.11's CORS list does not allow the header, so a browser could not reach it at all if every request carried it.
  it("says it takes an anonymous or restricted user only with a token whose claims say its user is one", async () => {
    const exp = Math.floor(Date.now() / 1000) + HOUR;
    const kinds = {
      anonymous: jwt({ exp, is_anonymous: true, is_restricted: true, restricted_reason: { type: "anonymous" } }),
      restricted: jwt({ exp, is_anonymous: false, is_restricted: true, restricted_reason: { type: "email_not_verified" } }),
      normal: jwt({ exp, is_anonymous: false, is_restricted: false, restricted_reason: null }),
      "2.8.11": jwt({ exp, branchId: "main", refreshTokenId: "r-1", role: "authenticated" }),
    };
    const sent: Record<string, string | undefined> = {};
    for (const [kind, accessToken] of Object.entries(kinds)) {
      const { service, client } = setup({}, { refreshToken: "rt-1", accessToken });
      await client.api.GET("/users/me");
      sent[kind] = service.requests[0]!.headers["x-stack-allow-anonymous-user"];
      expect(service.requests[0]!.headers["x-stack-allow-restricted-user"]).toBeUndefined();
    }
    expect(sent).toEqual({ anonymous: "true", restricted: "true", normal: undefined, "2.8.11": undefined });
  });

  it("defaults to https://api.stack-auth.com", async () => {
    const { service, client } = setup();
    await client.api.GET("/projects/current");
    expect(service.requests[0]!.url).toBe("https://api.stack-auth.com/api/v1/projects/current");
  });

  it("carries a fresh 224-bit nonce: 45 lowercase base32 characters, different each time", async () => {
    const { service, client } = setup();
    await client.api.GET("/projects/current");
    await client.api.GET("/projects/current");
    const [a, b] = service.requests.map((r) => r.headers["x-stack-random-nonce"]);
    expect(a).toMatch(/^[a-z2-7]{45}$/);
    expect(b).toMatch(/^[a-z2-7]{45}$/);
    expect(a).not.toBe(b);
  });

  it("never carries the refresh token, except where the operation reads it", async () => {
    const { service, client } = setup();
    await client.api.GET("/users/me");
    await client.api.POST("/auth/password/update", {
      params: { header: { "x-stack-refresh-token": "rt-1" } },
      body: { old_password: "a", new_password: "b" },
    });
    await client.api.POST("/auth/sessions/current/refresh", { params: { header: { "x-stack-refresh-token": "rt-1" } } });
    expect(service.requests.map((r) => [r.path, r.headers["x-stack-refresh-token"]])).toEqual([
      ["/api/v1/users/me", undefined],
      ["/api/v1/auth/password/update", "rt-1"],
      ["/api/v1/auth/sessions/current/refresh", "rt-1"],
    ]);
  });

  it("adds the session's refresh token to the operations that read it when the caller did not", async () => {
    const { service, client } = setup();
    // The low-level types ask callers for the header; a caller that leaves it out still sends the session's.
    await client.api.POST("/auth/password/update", { body: { old_password: "a", new_password: "b" } } as never);
    expect(service.requests[0]!.headers["x-stack-refresh-token"]).toBe("rt-1");
  });

  it("sends the access token of a session that has no refresh token", async () => {
    const token = access();
    const { service, client } = setup({}, { refreshToken: null, accessToken: token });
    await client.api.GET("/users/me");
    expect(service.requests[0]!.headers["x-stack-access-token"]).toBe(token);
  });

  it("sends no user token when there is no user", async () => {
    const { service, client } = setup({ tokenStore: null });
    await client.api.GET("/projects/current");
    expect(service.requests[0]!.headers["x-stack-access-token"]).toBeUndefined();
  });

  it("adds the secret server key for server apps", async () => {
    const { service, client } = setup({ accessType: "server", secretServerKey: "ssk-1" });
    await client.api.GET("/users", { params: { query: {} } });
    expect(service.requests[0]!.headers).toMatchObject({ "x-stack-access-type": "server", "x-stack-secret-server-key": "ssk-1" });
    expect(service.requests[0]!.headers["x-stack-super-secret-admin-key"]).toBeUndefined();
  });

  it("adds the secret server key and the super-secret admin key for admin apps", async () => {
    const { service, client } = setup({ accessType: "admin", secretServerKey: "ssk-1", superSecretAdminKey: "ssak-1" });
    await client.api.GET("/internal/projects/current");
    expect(service.requests[0]!.headers).toMatchObject({
      "x-stack-access-type": "admin",
      "x-stack-secret-server-key": "ssk-1",
      "x-stack-super-secret-admin-key": "ssak-1",
    });
  });

  it("sends a project owner's admin access token instead of keys, and no empty key headers", async () => {
    const owner = access();
    const { service, client } = setup({
      accessType: "admin",
      projectOwnerSession: { getTokens: async () => ({ accessToken: owner, refreshToken: "owner-rt" }), markAccessTokenExpired: () => {} },
    });
    await client.api.GET("/internal/projects/current");
    const headers = service.requests[0]!.headers;
    expect(headers["x-stack-admin-access-token"]).toBe(owner);
    for (const name of ["x-stack-publishable-client-key", "x-stack-secret-server-key", "x-stack-super-secret-admin-key"]) {
      expect(headers[name]).toBeUndefined();
    }
  });

  it("applies extraRequestHeaders last, over the runtime's own", async () => {
    const { service, client } = setup({ extraRequestHeaders: { "x-trace": "t-1", "x-stack-client-version": "js my-app@1.0.0" } });
    await client.api.GET("/projects/current");
    expect(service.requests[0]!.headers).toMatchObject({ "x-trace": "t-1", "x-stack-client-version": "js my-app@1.0.0" });
  });

  it("sends JSON bodies unchanged, with their content type", async () => {
    const { service, client } = setup();
    await client.api.POST("/auth/password/sign-in", { body: { email: "ada@example.com", password: "pw" } });
    expect(service.requests[0]!.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(service.requests[0]!.body)).toEqual({ email: "ada@example.com", password: "pw" });
  });

  it("encodes path parameters", async () => {
    const { service, client } = setup({ accessType: "server", secretServerKey: "ssk" });
    await client.api.GET("/users/{user_id}", { params: { path: { user_id: "a/b?c" } } });
    expect(service.requests[0]!.path).toBe("/api/v1/users/a%2Fb%3Fc");
  });

  it("shares one request among concurrent identical reads", async () => {
    const { service, client } = setup();
    const results = await Promise.all(Array.from({ length: 10 }, () => client.api.GET("/users/me")));
    expect(service.requests).toHaveLength(1);
    const me = documentedAnswer("getCurrentUser").body as { id: string };
    expect(results.map((r) => r.data?.id)).toEqual(Array(10).fill(me.id));
  });

  it("does not share writes", async () => {
    const { service, client } = setup();
    await Promise.all([
      client.api.POST("/teams", { body: { display_name: "A" } }),
      client.api.POST("/teams", { body: { display_name: "A" } }),
    ]);
    expect(service.requests).toHaveLength(2);
  });
});

describe("ids, keys and extra headers that cannot travel in a header", () => {
  it.each([
    ["publishableClientKey", { publishableClientKey: "pck\nsecond-line" }],
    ["secretServerKey", { secretServerKey: "ssk-“quoted”" }],
    ['extraRequestHeaders["x-trace"]', { extraRequestHeaders: { "x-trace": "a\rb" } }],
  ])("are refused when the app is made, naming %s", (what, options) => {
    expect(() => setup(options as Partial<StackClientOptions>)).toThrow(
      `${what} cannot be sent in an HTTP header: it must be a string of printable ASCII characters, without line breaks.`,
    );
  });

  it("refuses a header name HTTP does not allow", () => {
    expect(() => setup({ extraRequestHeaders: { "x trace": "1" } })).toThrow(
      'extraRequestHeaders has a header name that is not valid in HTTP: "x trace".',
    );
  });
});
