// StackServerApp (issue #6 "StackServerApp"; SPEC §6 "Server"; endpoints.md §C):
// construction, the server headers, users and teams of the project.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { StackClientApp } from "../../../../runtime/app/client-app.js";
import { StackServerApp, type StackServerAppOptions } from "../../../../runtime/app/server-app.js";
import { isStackError } from "../../../../runtime/errors.js";
import { createMemoryTokenStore } from "../../../../runtime/sessions/tokens/memory.js";
import { doc } from "../../../fixtures/document.js";
import { answerAsDocumented } from "../../../helpers/documented-answers.js";
import { fakeService, json, knownError, testEnvironment, useFakeClock } from "../../../helpers/fake-service.js";
import { signedInTokens } from "../../../helpers/app-context.js";
import { expectServerRequests, OTHER_ID, routes, sent, setup, TEAM, TEAM_ID, USER, USER_ID } from "./setup.js";

const USER_KEY = doc.components.examples["UserApiKey"]!.value as Record<string, unknown>;
const TEAM_KEY = doc.components.examples["TeamApiKey"]!.value as Record<string, unknown>;

beforeEach(() => useFakeClock());
afterEach(() => vi.useRealTimers());

describe("construction", () => {
  it("sends every request with the secret server key and access type server", async () => {
    const { app, service } = setup(routes({ [`GET /users/${USER_ID}`]: () => json(USER) }));
    await app.getUser(USER_ID);
    expect(service.requests[0]!.headers).toMatchObject({
      "x-stack-secret-server-key": "ssk-1",
      "x-stack-access-type": "server",
      "x-stack-publishable-client-key": "pck-1",
      "x-stack-project-id": "proj-1",
    });
  });

  it("sends the app's requests (the client flows) as server requests too", async () => {
    const { app, service } = setup(() => json({ success: true }));
    await app.sendForgotPasswordEmail("ada@example.com", { callbackUrl: "https://app.example.com/reset" });
    expect(service.requests[0]!.headers).toMatchObject({ "x-stack-secret-server-key": "ssk-1", "x-stack-access-type": "server" });
  });

  it("refuses to start without a secret server key, saying where to find it", () => {
    for (const secretServerKey of [undefined, ""]) {
      let error: unknown;
      try {
        setup(() => json({}), { app: { secretServerKey } as Partial<StackServerAppOptions> });
      } catch (e) {
        error = e;
      }
      expect(isStackError(error, "StackConfigurationError")).toBe(true);
      expect(String(error)).toMatch(/secretServerKey/);
      // The dashboard's name for the page with the keys, as the README and .env.example say it.
      expect(String(error)).toContain("Stack Auth dashboard → Project Keys");
    }
  });

  it("takes no settings beside its options: a second argument cannot make it an admin app", async () => {
    const service = fakeService(answerAsDocumented);
    const { env } = testEnvironment(service.fetch);
    const options: StackServerAppOptions = {
      projectId: "proj-1",
      secretServerKey: "ssk-1",
      tokenStore: null,
      environment: env,
      browser: null,
    };
    // @ts-expect-error the constructor takes the options only
    const app = new StackServerApp(options, { accessType: "admin", superSecretAdminKey: "sak-leak" });
    await app.api.GET("/projects/current");
    const headers = service.requests[0]!.headers;
    expect(headers).toMatchObject({ "x-stack-access-type": "server", "x-stack-secret-server-key": "ssk-1" });
    expect(headers).not.toHaveProperty("x-stack-super-secret-admin-key");
  });

  it("is a StackClientApp", () => {
    expect(setup(() => json({})).app).toBeInstanceOf(StackClientApp);
  });

  it("inheritsFrom a client app: its project, keys, URLs and token store, plus the secret key", async () => {
    const service = fakeService(routes({ "GET /users/me": () => json(USER) }));
    const { env } = testEnvironment(service.fetch);
    const store = createMemoryTokenStore(signedInTokens("rt-ada"));
    const client = new StackClientApp({
      projectId: "proj-9",
      publishableClientKey: "pck-9",
      tokenStore: store,
      environment: env,
      browser: null,
      baseUrl: "https://auth.example.com",
      urls: { handler: "/auth" },
    });
    const app = new StackServerApp({ inheritsFrom: client, secretServerKey: "ssk-9" });
    expect(app.projectId).toBe("proj-9");
    expect(app.urls.signIn).toBe("/auth/sign-in");
    const user = await app.getUser();
    expect(user?.id).toBe(USER_ID);
    expect(service.requests[0]!.url).toBe("https://auth.example.com/api/v1/users/me");
    expect(service.requests[0]!.headers).toMatchObject({
      "x-stack-project-id": "proj-9",
      "x-stack-publishable-client-key": "pck-9",
      "x-stack-secret-server-key": "ssk-9",
      "x-stack-access-type": "server",
      "x-stack-access-token": store.get().accessToken!,
    });
  });

  it("inheritsFrom refuses what is not a client app", () => {
    expect(() => new StackServerApp({ inheritsFrom: {} as StackClientApp, secretServerKey: "ssk-1" })).toThrow(/inheritsFrom/);
  });
});

describe("createUser", () => {
  it("sends POST /users with the given fields in snake_case and returns the ServerUser", async () => {
    const { app, service } = setup(routes({ "POST /users": () => json(USER, { status: 201 }) }));
    const user = await app.createUser({
      primaryEmail: "ada@example.com",
      primaryEmailVerified: true,
      primaryEmailAuthEnabled: true,
      password: "correct horse",
      otpAuthEnabled: false,
      displayName: "Ada Lovelace",
      clientMetadata: { theme: "dark" },
      clientReadOnlyMetadata: { plan: "pro" },
      serverMetadata: { stripeId: "cus_1" },
    });
    expect(sent(service)).toEqual([
      {
        method: "POST",
        path: "/users",
        body: {
          primary_email: "ada@example.com",
          primary_email_verified: true,
          primary_email_auth_enabled: true,
          password: "correct horse",
          otp_auth_enabled: false,
          display_name: "Ada Lovelace",
          client_metadata: { theme: "dark" },
          client_read_only_metadata: { plan: "pro" },
          server_metadata: { stripeId: "cus_1" },
        },
      },
    ]);
    expectServerRequests(service);
    expect(user).toMatchObject({ id: USER_ID, primaryEmail: "ada@example.com", lastActiveAt: new Date(USER.last_active_at_millis) });
  });

  it("sends the sign-up's country and risk scores of an imported user (services since 2.8.86), and reads them back", async () => {
    const answer = { ...USER, country_code: "US", risk_scores: { sign_up: { bot: 61, free_trial_abuse: 27 } } };
    const { app, service } = setup(routes({ "POST /users": () => json(answer, { status: 201 }) }));
    const user = await app.createUser({
      primaryEmail: "imported@example.com",
      countryCode: "US",
      riskScores: { signUp: { bot: 61, freeTrialAbuse: 27 } },
    });
    expect(sent(service)[0]!.body).toEqual({
      primary_email: "imported@example.com",
      country_code: "US",
      risk_scores: { sign_up: { bot: 61, free_trial_abuse: 27 } },
    });
    expect([user.countryCode, user.riskScores]).toEqual(["US", { signUp: { bot: 61, freeTrialAbuse: 27 } }]);
  });

  it("sends only the fields given", async () => {
    const { app, service } = setup(routes({ "POST /users": () => json(USER, { status: 201 }) }));
    await app.createUser({ primaryEmail: "ada@example.com" });
    expect(sent(service)[0]!.body).toEqual({ primary_email: "ada@example.com" });
  });

  it("throws USER_EMAIL_ALREADY_EXISTS, as the reference does", async () => {
    const { app } = setup(() => knownError(409, "USER_EMAIL_ALREADY_EXISTS", "User already exists."));
    await expect(app.createUser({ primaryEmail: "ada@example.com" })).rejects.toMatchObject({ code: "USER_EMAIL_ALREADY_EXISTS" });
  });
});

describe("getUser(id) and getUser({ apiKey })", () => {
  it("getUser(id) sends GET /users/{id} and maps the ServerUser", async () => {
    const { app, service } = setup(routes({ [`GET /users/${USER_ID}`]: () => json(USER) }));
    const user = await app.getUser(USER_ID);
    expect(sent(service)).toEqual([{ method: "GET", path: `/users/${USER_ID}` }]);
    expectServerRequests(service);
    expect(user).toMatchObject({
      id: USER_ID,
      displayName: "Ada Lovelace",
      serverMetadata: {},
      signedUpAt: new Date(USER.signed_up_at_millis),
    });
  });

  it("getUser(id) is null on USER_NOT_FOUND", async () => {
    const { app } = setup(() => knownError(404, "USER_NOT_FOUND", "User not found."));
    expect(await app.getUser(OTHER_ID)).toBeNull();
  });

  it("getUser(id) is null without a request for an id that cannot be a user id", async () => {
    const { app, service } = setup(() => json(USER));
    for (const id of ["", "..", "not-a-uuid", "me"]) expect(await app.getUser(id)).toBeNull();
    expect(service.requests).toHaveLength(0);
  });

  it("getUser({ apiKey }) checks the key, then reads its user", async () => {
    const { app, service } = setup(
      routes({ "POST /user-api-keys/check": () => json(USER_KEY), [`GET /users/${USER_ID}`]: () => json(USER) }),
    );
    const user = await app.getUser({ apiKey: "sk_user_full" });
    expect(sent(service)).toEqual([
      { method: "POST", path: "/user-api-keys/check", body: { api_key: "sk_user_full" } },
      { method: "GET", path: `/users/${USER_ID}` },
    ]);
    expectServerRequests(service);
    expect(user?.id).toBe(USER_ID);
  });

  it("getUser({ apiKey }) is null when the service says the key is not valid", async () => {
    for (const code of ["API_KEY_NOT_FOUND", "API_KEY_EXPIRED", "API_KEY_REVOKED", "WRONG_API_KEY_TYPE"]) {
      const { app, service } = setup(() => knownError(401, code, "Not valid."));
      expect(await app.getUser({ apiKey: "sk_user_bad" })).toBeNull();
      expect(service.requests).toHaveLength(1);
    }
  });

  it("getUser({ apiKey }) is null for a key that is revoked or expired by the local rules", async () => {
    const revoked = { ...USER_KEY, manually_revoked_at_millis: Date.now() - 1 };
    const expired = { ...USER_KEY, expires_at_millis: Date.now() - 1 };
    for (const key of [revoked, expired]) {
      const { app, service } = setup(routes({ "POST /user-api-keys/check": () => json(key) }));
      expect(await app.getUser({ apiKey: "sk_user_full" })).toBeNull();
      expect(service.requests).toHaveLength(1);
    }
  });
});

describe("listUsers", () => {
  const page = (ids: string[], next: string | null) =>
    json({ items: ids.map((id) => ({ ...USER, id })), is_paginated: true, pagination: { next_cursor: next } });

  it("sends every option as the wire's query and returns the users with nextCursor", async () => {
    const { app, service } = setup(() => page([USER_ID], "cursor-2"));
    const users = await app.listUsers({ cursor: "cursor-1", limit: 10, orderBy: "signedUpAt", desc: true, query: "ada" });
    expect(sent(service)).toEqual([{ method: "GET", path: "/users?cursor=cursor-1&limit=10&order_by=signed_up_at&desc=true&query=ada" }]);
    expectServerRequests(service);
    expect(Array.isArray(users)).toBe(true);
    expect(users.map((u) => u.id)).toEqual([USER_ID]);
    expect(users.nextCursor).toBe("cursor-2");
  });

  it("reads two pages by passing nextCursor back as cursor", async () => {
    const { app, service } = setup((r) => (r.path.includes("cursor=c2") ? page([OTHER_ID], null) : page([USER_ID], "c2")));
    const first = await app.listUsers({ limit: 1 });
    const second = await app.listUsers({ limit: 1, cursor: first.nextCursor! });
    expect(sent(service).map((r) => r.path)).toEqual(["/users?limit=1", "/users?cursor=c2&limit=1"]);
    expect([...first, ...second].map((u) => u.id)).toEqual([USER_ID, OTHER_ID]);
    expect(second.nextCursor).toBeNull();
  });

  it("sends desc=false, and no query at all without options", async () => {
    const { app, service } = setup(() => page([], null));
    await app.listUsers({ desc: false });
    await app.listUsers();
    expect(sent(service).map((r) => r.path)).toEqual(["/users?desc=false", "/users"]);
  });

  it("filters by team with team_id", async () => {
    const { app, service } = setup(() => page([USER_ID], null));
    const users = await app.listUsers({ teamId: TEAM_ID });
    expect(sent(service).map((r) => r.path)).toEqual([`/users?team_id=${TEAM_ID}`]);
    expect(users.nextCursor).toBeNull();
  });

  it("gives nextCursor null when the service sends no pagination", async () => {
    const { app } = setup(() => json({ items: [USER] }));
    expect((await app.listUsers()).nextCursor).toBeNull();
  });
});

describe("teams of the project", () => {
  it("createTeam sends POST /teams with creator_user_id and returns the ServerTeam", async () => {
    const { app, service } = setup(routes({ "POST /teams": () => json(TEAM, { status: 201 }) }));
    const team = await app.createTeam({
      displayName: "Acme Engineering",
      profileImageUrl: "https://img.example.com/a.png",
      creatorUserId: USER_ID,
    });
    expect(sent(service)).toEqual([
      {
        method: "POST",
        path: "/teams",
        body: { display_name: "Acme Engineering", profile_image_url: "https://img.example.com/a.png", creator_user_id: USER_ID },
      },
    ]);
    expectServerRequests(service);
    expect(team).toMatchObject({
      id: TEAM_ID,
      displayName: "Acme Engineering",
      createdAt: new Date(TEAM.created_at_millis),
      serverMetadata: {},
    });
  });

  it("createTeam without a creator sends only the display name", async () => {
    const { app, service } = setup(routes({ "POST /teams": () => json(TEAM, { status: 201 }) }));
    await app.createTeam({ displayName: "Acme" });
    expect(sent(service)[0]!.body).toEqual({ display_name: "Acme" });
  });

  it("getTeam(id) is one request, GET /teams/{id}", async () => {
    const { app, service } = setup(routes({ [`GET /teams/${TEAM_ID}`]: () => json(TEAM) }));
    const team = await app.getTeam(TEAM_ID);
    expect(sent(service)).toEqual([{ method: "GET", path: `/teams/${TEAM_ID}` }]);
    expectServerRequests(service);
    expect(team?.id).toBe(TEAM_ID);
  });

  it("getTeam(id) is null on TEAM_NOT_FOUND, and without a request for a malformed id", async () => {
    const { app, service } = setup(() => knownError(404, "TEAM_NOT_FOUND", "Team not found."));
    expect(await app.getTeam(OTHER_ID)).toBeNull();
    expect(await app.getTeam("..")).toBeNull();
    expect(service.requests).toHaveLength(1);
  });

  it("getTeam({ apiKey }) checks the team key, then reads its team; null for an invalid key", async () => {
    const { app, service } = setup(
      routes({ "POST /team-api-keys/check": () => json(TEAM_KEY), [`GET /teams/${TEAM_ID}`]: () => json(TEAM) }),
    );
    expect((await app.getTeam({ apiKey: "sk_team_full" }))?.id).toBe(TEAM_ID);
    expect(sent(service)).toEqual([
      { method: "POST", path: "/team-api-keys/check", body: { api_key: "sk_team_full" } },
      { method: "GET", path: `/teams/${TEAM_ID}` },
    ]);
    const invalid = setup(() => knownError(401, "API_KEY_REVOKED", "Revoked."));
    expect(await invalid.app.getTeam({ apiKey: "sk_team_bad" })).toBeNull();
  });

  it("listTeams sends GET /teams without a user and maps every team", async () => {
    const { app, service } = setup(routes({ "GET /teams": () => json({ items: [TEAM, { ...TEAM, id: OTHER_ID }] }) }));
    const teams = await app.listTeams();
    expect(sent(service)).toEqual([{ method: "GET", path: "/teams" }]);
    expectServerRequests(service);
    expect(teams.map((t) => t.id)).toEqual([TEAM_ID, OTHER_ID]);
    expect(teams[0]!.createdAt).toEqual(new Date(TEAM.created_at_millis));
  });
});
