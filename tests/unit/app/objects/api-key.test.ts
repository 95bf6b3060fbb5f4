// User and team API keys (SPEC §3 API key, §4 validity, §5 user-or-team rule, §7 "API keys";
// wire contract §14: update() is sent in snake_case; issue #4 "API keys").
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { KnownErrors } from "../../../../generated/known-errors.js";
import { apiKeyEndpointFor } from "../../../../runtime/app/objects/api-key.js";
import { checkApiKey } from "../../../../runtime/app/server/api-key-check.js";
import { teamApiKeyMethods, userApiKeyMethods, type ApiKey } from "../../../../runtime/app/objects/api-key.js";
import { isStackError } from "../../../../runtime/errors.js";
import { ResponseFormatError } from "../../../../runtime/http/request-errors.js";
import { testAppContext } from "../../../helpers/app-context.js";
import { json, knownError, useFakeClock, type SentRequest } from "../../../helpers/fake-service.js";
import { rejectionOf, thrownBy } from "../../../helpers/outcome.js";

const NOW = Date.UTC(2026, 10, 21, 12, 0, 0);
const USER_ID = "3b8f2a6c-9d1e-4f7a-b2c5-8e6d4a1f9c3b";
const TEAM_ID = "9c2b7e4a-1f3d-4a6b-8e5c-2d7f9a1b3c5e";
const KEY_ID = "7d3f1b9e-5a2c-4e8b-b6d1-3c9a7e5f1b2d";

const userKey = (overrides: Record<string, unknown> = {}) => ({
  id: KEY_ID,
  description: "CI deploys",
  expires_at_millis: NOW + 86_400_000,
  created_at_millis: NOW - 1000,
  is_public: false,
  type: "user",
  user_id: USER_ID,
  value: { last_four: "9f2a" },
  ...overrides,
});
const teamKey = (overrides: Record<string, unknown> = {}) => {
  const { user_id: _, ...rest } = userKey({ type: "team", team_id: TEAM_ID, ...overrides });
  return rest;
};

type Route = (request: SentRequest) => Response;

function setup(routes: Record<string, Route | Response>) {
  const t = testAppContext((request) => {
    const key = `${request.method} ${request.path.replace(/^\/api\/v1/, "")}`;
    const route = routes[key];
    if (route === undefined) throw new Error(`unexpected request ${key}`);
    return typeof route === "function" ? route(request) : route.clone();
  });
  const sent = () =>
    t.service.requests.map((r) => ({
      method: r.method,
      path: r.path.replace(/^\/api\/v1/, ""),
      body: r.body === "" ? undefined : JSON.parse(r.body),
    }));
  return { ...t, sent };
}

/** The data fields of a key, without its methods. */
const fieldsOf = ({ update: _u, revoke: _r, isValid: _i, whyInvalid: _w, ...fields }: ApiKey<"user" | "team", boolean>) => fields;

beforeEach(() => useFakeClock(NOW));
afterEach(() => vi.useRealTimers());

describe("the current user's API keys", () => {
  it("listApiKeys() sends GET /user-api-keys?user_id=me and maps every field", async () => {
    const { ctx, sent } = setup({ "GET /user-api-keys?user_id=me": json({ items: [userKey()], is_paginated: false }) });
    const keys = await userApiKeyMethods(ctx).listApiKeys();
    expect(sent()).toEqual([{ method: "GET", path: "/user-api-keys?user_id=me", body: undefined }]);
    expect(keys.map(fieldsOf)).toEqual([
      {
        id: KEY_ID,
        description: "CI deploys",
        expiresAt: new Date(NOW + 86_400_000),
        manuallyRevokedAt: null,
        createdAt: new Date(NOW - 1000),
        type: "user",
        userId: USER_ID,
        value: { lastFour: "9f2a" },
      },
    ]);
    expect(keys[0]!.createdAt).toBeInstanceOf(Date);
  });

  it("maps a revoked key's manually_revoked_at_millis to a Date", async () => {
    const { ctx } = setup({ "GET /user-api-keys?user_id=me": json({ items: [userKey({ manually_revoked_at_millis: NOW - 5 })] }) });
    const [key] = await userApiKeyMethods(ctx).listApiKeys();
    expect(key!.manuallyRevokedAt).toEqual(new Date(NOW - 5));
  });

  it("keeps expiresAt, undefined, and sets manuallyRevokedAt to null when the wire fields are absent", async () => {
    const { ctx } = setup({
      "GET /user-api-keys?user_id=me": json({ items: [userKey({ expires_at_millis: undefined, manually_revoked_at_millis: undefined })] }),
    });
    const [key] = await userApiKeyMethods(ctx).listApiKeys();
    // A member all the same, as on the reference's keys (its snapshots show `"expiresAt": undefined`).
    expect(Object.keys(key!)).toContain("expiresAt");
    expect(key!.expiresAt).toBeUndefined();
    expect(key!.manuallyRevokedAt).toBeNull();
  });

  it("a null expires_at_millis (the service leaves it out instead) is a ResponseFormatError naming the field", async () => {
    const { ctx } = setup({
      "GET /user-api-keys?user_id=me": json({ items: [userKey({ expires_at_millis: null, manually_revoked_at_millis: null })] }),
    });
    const error = await rejectionOf(userApiKeyMethods(ctx).listApiKeys());
    expect(error).toBeInstanceOf(ResponseFormatError);
    expect(error).toMatchObject({
      operationId: "listUserApiKeys",
      status: 200,
      path: "$.items[0].expires_at_millis",
      message:
        "listUserApiKeys: the service answered HTTP 200 with a body the API does not allow: $.items[0].expires_at_millis should be a number from -8640000000000000 to 8640000000000000, not null",
    });
  });

  it("createApiKey() sends POST /user-api-keys {user_id: me, description, expires_at_millis, is_public} and answers the full value once", async () => {
    const { ctx, sent } = setup({ "POST /user-api-keys": json(userKey({ value: "sk_user_full_secret", is_public: true })) });
    const key = await userApiKeyMethods(ctx).createApiKey({
      description: "CI deploys",
      expiresAt: new Date(NOW + 86_400_000),
      isPublic: true,
    });
    expect(sent()).toEqual([
      {
        method: "POST",
        path: "/user-api-keys",
        body: { user_id: "me", description: "CI deploys", expires_at_millis: NOW + 86_400_000, is_public: true },
      },
    ]);
    expect(fieldsOf(key)).toEqual({
      id: KEY_ID,
      description: "CI deploys",
      expiresAt: new Date(NOW + 86_400_000),
      manuallyRevokedAt: null,
      createdAt: new Date(NOW - 1000),
      type: "user",
      userId: USER_ID,
      value: "sk_user_full_secret",
    });
  });

  it("createApiKey() sends expires_at_millis null for a key that never expires and leaves is_public out when not given", async () => {
    const { ctx, sent } = setup({ "POST /user-api-keys": json(userKey({ value: "sk", expires_at_millis: undefined })) });
    await userApiKeyMethods(ctx).createApiKey({ description: "forever", expiresAt: null });
    expect(sent()[0]!.body).toEqual({ user_id: "me", description: "forever", expires_at_millis: null });
  });

  it.each([
    ["missing", undefined],
    ["an invalid Date", new Date(Number.NaN)],
    ["a number", NOW],
  ])("createApiKey() with expiresAt %s is a StackConfigurationError and sends nothing", async (_, expiresAt) => {
    const { ctx, sent } = setup({});
    const error = await rejectionOf(userApiKeyMethods(ctx).createApiKey({ description: "x", expiresAt } as never));
    expect(isStackError(error, "StackConfigurationError")).toBe(true);
    expect((error as Error).message).toMatch(/expiresAt/);
    expect(sent()).toEqual([]);
  });
});

describe("a team's API keys", () => {
  it("listApiKeys() sends GET /team-api-keys?team_id= and maps type team with teamId", async () => {
    const { ctx, sent } = setup({ [`GET /team-api-keys?team_id=${TEAM_ID}`]: json({ items: [teamKey()] }) });
    const keys = await teamApiKeyMethods(ctx, TEAM_ID).listApiKeys();
    expect(sent()).toEqual([{ method: "GET", path: `/team-api-keys?team_id=${TEAM_ID}`, body: undefined }]);
    expect(fieldsOf(keys[0]!)).toEqual({
      id: KEY_ID,
      description: "CI deploys",
      expiresAt: new Date(NOW + 86_400_000),
      manuallyRevokedAt: null,
      createdAt: new Date(NOW - 1000),
      type: "team",
      teamId: TEAM_ID,
      value: { lastFour: "9f2a" },
    });
  });

  it("createApiKey() sends POST /team-api-keys {team_id, description, expires_at_millis, is_public}", async () => {
    const { ctx, sent } = setup({ "POST /team-api-keys": json(teamKey({ value: "sk_team_full" })) });
    const key = await teamApiKeyMethods(ctx, TEAM_ID).createApiKey({ description: "bot", expiresAt: new Date(NOW + 1), isPublic: false });
    expect(sent()).toEqual([
      {
        method: "POST",
        path: "/team-api-keys",
        body: { team_id: TEAM_ID, description: "bot", expires_at_millis: NOW + 1, is_public: false },
      },
    ]);
    expect([key.type, key.teamId, key.value]).toEqual(["team", TEAM_ID, "sk_team_full"]);
  });
});

// The reference's `_baseApiKeyFromCrud` and `_clientApiKeyFromCrud` (2.8.11): an object with exactly these
// members, which its own end-to-end tests snapshot. The wire's `is_public` is not one of them.
describe("the shape of a key: the reference's members, no more", () => {
  it("a just-created user key (the first view, with the full value)", async () => {
    const { ctx } = setup({ "POST /user-api-keys": json(userKey({ value: "sk_user_full_secret", is_public: true })) });
    const key = await userApiKeyMethods(ctx).createApiKey({ description: "test", expiresAt: new Date(NOW + 1), isPublic: true });
    expect(Object.keys(key).sort()).toMatchInlineSnapshot(`
      [
        "createdAt",
        "description",
        "expiresAt",
        "id",
        "isValid",
        "manuallyRevokedAt",
        "revoke",
        "type",
        "update",
        "userId",
        "value",
        "whyInvalid",
      ]
    `);
  });

  it("a listed team key that never expires", async () => {
    const { ctx } = setup({ [`GET /team-api-keys?team_id=${TEAM_ID}`]: json({ items: [teamKey({ expires_at_millis: undefined })] }) });
    const [key] = await teamApiKeyMethods(ctx, TEAM_ID).listApiKeys();
    expect(Object.keys(key!).sort()).toMatchInlineSnapshot(`
      [
        "createdAt",
        "description",
        "expiresAt",
        "id",
        "isValid",
        "manuallyRevokedAt",
        "revoke",
        "teamId",
        "type",
        "update",
        "value",
        "whyInvalid",
      ]
    `);
  });
});

describe("ApiKey.update() and revoke()", () => {
  async function listedUserKey() {
    const t = setup({
      "GET /user-api-keys?user_id=me": json({ items: [userKey()] }),
      [`PATCH /user-api-keys/${KEY_ID}?user_id=me`]: json(userKey()),
    });
    const [key] = await userApiKeyMethods(t.ctx).listApiKeys();
    return { ...t, key: key! };
  }

  it("sends PATCH /user-api-keys/{id}?user_id=me with description and revoked in snake_case", async () => {
    const { key, sent } = await listedUserKey();
    await key.update({ description: "renamed", revoked: true });
    expect(sent()[1]).toEqual({
      method: "PATCH",
      path: `/user-api-keys/${KEY_ID}?user_id=me`,
      body: { description: "renamed", revoked: true },
    });
  });

  it("sends only the fields given; revoked: false sends nothing, as the service accepts only true", async () => {
    const { key, sent } = await listedUserKey();
    await key.update({ description: "only" });
    await key.update({ description: "again", revoked: false });
    expect(
      sent()
        .slice(1)
        .map((r) => r.body),
    ).toEqual([{ description: "only" }, { description: "again" }]);
  });

  it("refuses a new expiry before sending: the service cannot change it (expires_at_millis is a SCHEMA_ERROR)", async () => {
    const { key, sent } = await listedUserKey();
    for (const expiresAt of [new Date(NOW + 5000), null]) {
      const error = await rejectionOf(key.update({ expiresAt }));
      expect(isStackError(error, "StackConfigurationError")).toBe(true);
    }
    expect(sent()).toHaveLength(1);
  });

  it("rejects an invalid expiresAt with a StackConfigurationError before sending", async () => {
    const { key, sent } = await listedUserKey();
    const error = await rejectionOf(key.update({ expiresAt: new Date("nope") }));
    expect(isStackError(error, "StackConfigurationError")).toBe(true);
    expect(sent()).toHaveLength(1);
  });

  it("revoke() sends { revoked: true }", async () => {
    const { key, sent } = await listedUserKey();
    await expect(key.revoke()).resolves.toBeUndefined();
    expect(sent()[1]).toEqual({ method: "PATCH", path: `/user-api-keys/${KEY_ID}?user_id=me`, body: { revoked: true } });
  });

  it("a team key is updated at PATCH /team-api-keys/{id}?team_id=", async () => {
    const { ctx, sent } = setup({
      [`GET /team-api-keys?team_id=${TEAM_ID}`]: json({ items: [teamKey()] }),
      [`PATCH /team-api-keys/${KEY_ID}?team_id=${TEAM_ID}`]: json(teamKey()),
    });
    const [key] = await teamApiKeyMethods(ctx, TEAM_ID).listApiKeys();
    await key!.revoke();
    expect(sent()[1]).toEqual({ method: "PATCH", path: `/team-api-keys/${KEY_ID}?team_id=${TEAM_ID}`, body: { revoked: true } });
  });
});

describe("isValid() and whyInvalid() (SPEC §4)", () => {
  async function keyWith(overrides: Record<string, unknown>) {
    const { ctx } = setup({ "GET /user-api-keys?user_id=me": json({ items: [userKey(overrides)] }) });
    const [key] = await userApiKeyMethods(ctx).listApiKeys();
    return key!;
  }
  const EXPIRY = NOW + 60_000;

  it.each([
    ["no expiry, not revoked", { expires_at_millis: undefined }, 0, null],
    ["1 ms before expiry", { expires_at_millis: EXPIRY }, 59_999, null],
    ["at the expiry instant", { expires_at_millis: EXPIRY }, 60_000, null],
    ["1 ms after expiry", { expires_at_millis: EXPIRY }, 60_001, "expired"],
    ["revoked, not expired", { expires_at_millis: EXPIRY, manually_revoked_at_millis: NOW - 1 }, 0, "manually-revoked"],
    ["revoked and expired", { expires_at_millis: EXPIRY, manually_revoked_at_millis: NOW - 1 }, 120_000, "manually-revoked"],
    ["revoked, no expiry", { expires_at_millis: undefined, manually_revoked_at_millis: NOW - 1 }, 0, "manually-revoked"],
  ])("%s: whyInvalid() is %j", async (_, overrides, elapsed, reason) => {
    const key = await keyWith(overrides);
    vi.setSystemTime(NOW + elapsed);
    expect(key.whyInvalid()).toBe(reason);
    expect(key.isValid()).toBe(reason === null);
  });

  it("follows the clock: the same key turns expired once its expiry has passed", async () => {
    const key = await keyWith({ expires_at_millis: EXPIRY });
    expect(key.isValid()).toBe(true);
    await vi.advanceTimersByTimeAsync(60_001);
    expect(key.isValid()).toBe(false);
    expect(key.whyInvalid()).toBe("expired");
  });
});

describe("checkApiKey()", () => {
  it("sends POST /user-api-keys/check {api_key} and answers the key", async () => {
    const { ctx, sent } = setup({ "POST /user-api-keys/check": json(userKey()) });
    const key = await checkApiKey(ctx, "sk_user_secret");
    expect(sent()).toEqual([{ method: "POST", path: "/user-api-keys/check", body: { api_key: "sk_user_secret" } }]);
    expect(key && fieldsOf(key)).toMatchObject({ id: KEY_ID, type: "user", userId: USER_ID, value: { lastFour: "9f2a" } });
  });

  it("sends POST /team-api-keys/check for type team", async () => {
    const { ctx, sent } = setup({ "POST /team-api-keys/check": json(teamKey()) });
    const key = await checkApiKey(ctx, "sk_team_secret", { type: "team" });
    expect(sent()).toEqual([{ method: "POST", path: "/team-api-keys/check", body: { api_key: "sk_team_secret" } }]);
    expect(key).toMatchObject({ type: "team", teamId: TEAM_ID });
  });

  it.each([
    [401, "API_KEY_EXPIRED", undefined],
    [401, "API_KEY_REVOKED", undefined],
    [400, "WRONG_API_KEY_TYPE", { expected_type: "user", actual_type: "team" }],
    [404, "API_KEY_NOT_FOUND", undefined],
    [400, "PUBLIC_API_KEY_CANNOT_BE_REVOKED", undefined],
  ])("answers null for %i %s (the API_KEY_NOT_VALID family)", async (status, code, details) => {
    const { ctx } = setup({ "POST /user-api-keys/check": knownError(status, code, "invalid", details) });
    await expect(checkApiKey(ctx, "sk_user_bad")).resolves.toBeNull();
  });

  it("throws other known errors typed", async () => {
    const { ctx } = setup({
      "POST /user-api-keys/check": knownError(401, "INVALID_PUBLISHABLE_CLIENT_KEY", "bad key", { project_id: "proj-1" }),
    });
    expect(await rejectionOf(checkApiKey(ctx, "sk"))).toBeInstanceOf(KnownErrors.InvalidPublishableClientKey);
  });

  it("a checked key is updated for its own user, not for me", async () => {
    const { ctx, sent } = setup({
      "POST /user-api-keys/check": json(userKey()),
      [`PATCH /user-api-keys/${KEY_ID}?user_id=${USER_ID}`]: json(userKey()),
    });
    await (await checkApiKey(ctx, "sk"))!.revoke();
    expect(sent()[1]).toEqual({ method: "PATCH", path: `/user-api-keys/${KEY_ID}?user_id=${USER_ID}`, body: { revoked: true } });
  });

  it("an answer without the key's value is a ResponseFormatError", async () => {
    const { ctx } = setup({ "POST /user-api-keys/check": json(userKey({ value: undefined })) });
    const error = await rejectionOf(checkApiKey(ctx, "sk"));
    expect(error).toBeInstanceOf(ResponseFormatError);
    expect(error).toMatchObject({
      operationId: "checkUserApiKey",
      status: 200,
      path: "$.value",
      message: "checkUserApiKey: the service answered HTTP 200 with a body the API does not allow: $.value is missing",
    });
  });
});

describe("apiKeyEndpointFor() (SPEC §5)", () => {
  it("refuses a user and a team in one request with a StackConfigurationError that says how to fix it", () => {
    const error = thrownBy(() => apiKeyEndpointFor({ userId: USER_ID, teamId: TEAM_ID }));
    expect(error.message).toMatch(/not both/);
    expect(error.message).toMatch(/only userId .* or only teamId/);
  });

  it("chooses the team endpoint when a team id is present", () => {
    expect(apiKeyEndpointFor({ teamId: TEAM_ID })).toEqual({ type: "team", path: "/team-api-keys", teamId: TEAM_ID });
  });

  it("chooses the user endpoint otherwise, for the signed-in user when no user is named", () => {
    expect(apiKeyEndpointFor({ userId: USER_ID })).toEqual({ type: "user", path: "/user-api-keys", userId: USER_ID });
    expect(apiKeyEndpointFor({})).toEqual({ type: "user", path: "/user-api-keys", userId: "me" });
  });
});
