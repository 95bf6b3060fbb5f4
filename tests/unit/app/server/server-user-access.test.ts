// ServerUser's permissions, contact channels, sessions (impersonation
// included), connected accounts and API keys (SPEC §3, §4, §6; endpoints.md §C).
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { isStackError } from "../../../../runtime/errors.js";
import { doc } from "../../../fixtures/document.js";
import { json, jwt, knownError, useFakeClock } from "../../../helpers/fake-service.js";
import { rejectionOf } from "../../../helpers/outcome.js";
import { expectServerRequests, sent, TEAM_ID, USER_ID, withServerUser } from "./setup.js";

const CHANNEL = doc.components.examples["ContactChannel"]!.value as { id: string };
const SESSIONS = doc.components.examples["SessionList"]!.value as { items: Record<string, unknown>[] };
const USER_KEY = doc.components.examples["UserApiKey"]!.value as Record<string, unknown>;
const USER_KEY_FIRST = doc.components.examples["UserApiKeyFirstView"]!.value as Record<string, unknown>;
const SESSION_ID = "b1f4c0de-2a8e-4c61-9d3e-5f7a1b2c3d4e";
const team = { id: TEAM_ID };

beforeEach(() => useFakeClock());
afterEach(() => vi.useRealTimers());

describe("permissions", () => {
  it("grantPermission in a team sends POST /team-permissions/{team}/{user}/{permission}", async () => {
    const { user, service } = await withServerUser();
    await user.grantPermission(team, "team_admin");
    expect(sent(service)).toEqual([{ method: "POST", path: `/team-permissions/${TEAM_ID}/${USER_ID}/team_admin`, body: {} }]);
    expectServerRequests(service);
  });

  it("grantPermission without a team sends POST /project-permissions/{user}/{permission}", async () => {
    const { user, service } = await withServerUser();
    await user.grantPermission("admin");
    expect(sent(service)).toEqual([{ method: "POST", path: `/project-permissions/${USER_ID}/admin`, body: {} }]);
  });

  it("revokePermission sends DELETE to the same routes", async () => {
    const { user, service } = await withServerUser();
    await user.revokePermission(team, "team_admin");
    await user.revokePermission("admin");
    expect(sent(service)).toEqual([
      { method: "DELETE", path: `/team-permissions/${TEAM_ID}/${USER_ID}/team_admin`, body: {} },
      { method: "DELETE", path: `/project-permissions/${USER_ID}/admin`, body: {} },
    ]);
    expectServerRequests(service);
  });

  it("encodes a permission id that needs it, and refuses an empty one before sending", async () => {
    const { user, service } = await withServerUser();
    await user.grantPermission(team, "$read members");
    expect(sent(service)[0]!.path).toBe(`/team-permissions/${TEAM_ID}/${USER_ID}/%24read%20members`);
    expect(isStackError(await rejectionOf(user.grantPermission(team, "")), "StackConfigurationError")).toBe(true);
    expect(isStackError(await rejectionOf(user.revokePermission({} as never, "x")), "StackConfigurationError")).toBe(true);
    expect(service.requests).toHaveLength(1);
  });

  it("listPermissions reads the user's team or project permissions, recursive by default", async () => {
    const items = json({ items: [{ id: "team_admin", user_id: USER_ID, team_id: TEAM_ID }] });
    const { user, service } = await withServerUser({
      [`GET /team-permissions?team_id=${TEAM_ID}&user_id=${USER_ID}&recursive=true`]: () => items,
      [`GET /project-permissions?user_id=${USER_ID}&recursive=false`]: () => json({ items: [{ id: "admin", user_id: USER_ID }] }),
    });
    expect(await user.listPermissions(team)).toEqual([{ id: "team_admin" }]);
    expect(await user.listPermissions({ recursive: false })).toEqual([{ id: "admin" }]);
    expect(sent(service).map((r) => r.path)).toEqual([
      `/team-permissions?team_id=${TEAM_ID}&user_id=${USER_ID}&recursive=true`,
      `/project-permissions?user_id=${USER_ID}&recursive=false`,
    ]);
    expectServerRequests(service);
  });

  it("hasPermission and getPermission look the id up in the list", async () => {
    const { user } = await withServerUser({
      [`GET /team-permissions?team_id=${TEAM_ID}&user_id=${USER_ID}&recursive=true`]: () =>
        json({ items: [{ id: "team_admin", user_id: USER_ID, team_id: TEAM_ID }] }),
      [`GET /project-permissions?user_id=${USER_ID}&recursive=true`]: () => json({ items: [] }),
    });
    expect(await user.hasPermission(team, "team_admin")).toBe(true);
    expect(await user.hasPermission(team, "team_member")).toBe(false);
    expect(await user.hasPermission("admin")).toBe(false);
    expect(await user.getPermission(team, "team_admin")).toEqual({ id: "team_admin" });
    expect(await user.getPermission("admin")).toBeNull();
  });
});

describe("contact channels", () => {
  const path = `/contact-channels/${USER_ID}/${CHANNEL.id}`;

  it("listContactChannels reads GET /contact-channels?user_id={id} and maps the fields", async () => {
    const { user, service } = await withServerUser({ [`GET /contact-channels?user_id=${USER_ID}`]: () => json({ items: [CHANNEL] }) });
    const [channel] = await user.listContactChannels();
    expect(sent(service)).toEqual([{ method: "GET", path: `/contact-channels?user_id=${USER_ID}` }]);
    expectServerRequests(service);
    expect({ ...channel }).toMatchObject({
      id: CHANNEL.id,
      value: "ada@example.com",
      type: "email",
      usedForAuth: true,
      isVerified: true,
      isPrimary: true,
    });
  });

  it("createContactChannel sends the user's id and every field, isVerified included", async () => {
    const { user, service } = await withServerUser({ "POST /contact-channels": () => json(CHANNEL, { status: 201 }) });
    const channel = await user.createContactChannel({
      value: "ada@example.com",
      type: "email",
      usedForAuth: true,
      isPrimary: true,
      isVerified: true,
    });
    expect(sent(service)).toEqual([
      {
        method: "POST",
        path: "/contact-channels",
        body: { user_id: USER_ID, value: "ada@example.com", type: "email", used_for_auth: true, is_primary: true, is_verified: true },
      },
    ]);
    expect(channel.id).toBe(CHANNEL.id);
  });

  it("a channel is updated, verified, deleted and re-sent under /contact-channels/{user}/{id}", async () => {
    const { user, service } = await withServerUser({ [`GET /contact-channels?user_id=${USER_ID}`]: () => json({ items: [CHANNEL] }) });
    const [channel] = await user.listContactChannels();
    service.requests.length = 0;
    await channel!.update({ value: "ada@lovelace.example", usedForAuth: false, isPrimary: false, isVerified: true });
    expect(await channel!.sendVerificationEmail({ callbackUrl: "https://app.example.com/verify" })).toBeUndefined();
    await channel!.delete();
    expect(sent(service)).toEqual([
      { method: "PATCH", path, body: { value: "ada@lovelace.example", used_for_auth: false, is_primary: false, is_verified: true } },
      { method: "POST", path: `${path}/send-verification-code`, body: { callback_url: "https://app.example.com/verify" } },
      { method: "DELETE", path },
    ]);
    expectServerRequests(service);
  });
});

describe("sessions", () => {
  it("getActiveSessions reads GET /auth/sessions?user_id={id} and maps each session", async () => {
    const { user, service } = await withServerUser({ [`GET /auth/sessions?user_id=${USER_ID}`]: () => json(SESSIONS) });
    const [session] = await user.getActiveSessions();
    expect(sent(service)).toEqual([{ method: "GET", path: `/auth/sessions?user_id=${USER_ID}` }]);
    expectServerRequests(service);
    expect(session).toEqual({
      id: SESSION_ID,
      userId: USER_ID,
      createdAt: new Date(1763251200000),
      isImpersonation: false,
      lastUsedAt: new Date(1763683200000),
      isCurrentSession: true,
      geoInfo: expect.objectContaining({ cityName: "London" }),
    });
  });

  it("revokeSession sends DELETE /auth/sessions/{id}?user_id={user}, which the service requires", async () => {
    const { user, service } = await withServerUser();
    await user.revokeSession(SESSION_ID);
    expect(sent(service)).toEqual([{ method: "DELETE", path: `/auth/sessions/${SESSION_ID}?user_id=${USER_ID}` }]);
    expectServerRequests(service);
  });

  it("createSession sends the defaults: 365 days, not an impersonation", async () => {
    const tokens = { access_token: jwt({ exp: Math.floor(Date.now() / 1000) + 600 }), refresh_token: "rt-new" };
    const { user, service } = await withServerUser({ "POST /auth/sessions": () => json(tokens) });
    const session = await user.createSession();
    expect(sent(service)).toEqual([
      { method: "POST", path: "/auth/sessions", body: { user_id: USER_ID, expires_in_millis: 31536000000, is_impersonation: false } },
    ]);
    expectServerRequests(service);
    expect(await session.getTokens()).toEqual({ accessToken: tokens.access_token, refreshToken: "rt-new" });
    expect(JSON.stringify(session)).not.toContain("rt-new");
  });

  it("createSession({ isImpersonation: true }) makes a session the list shows as an impersonation", async () => {
    const impersonation = { items: [{ ...SESSIONS.items[0], is_impersonation: true, is_current_session: false }] };
    const { user, service } = await withServerUser({
      "POST /auth/sessions": () => json({ access_token: jwt(), refresh_token: "rt-imp" }),
      [`GET /auth/sessions?user_id=${USER_ID}`]: () => json(impersonation),
    });
    await user.createSession({ isImpersonation: true, expiresInMillis: 3_600_000 });
    expect(sent(service)[0]!.body).toEqual({ user_id: USER_ID, expires_in_millis: 3600000, is_impersonation: true });
    expect((await user.getActiveSessions())[0]).toMatchObject({ isImpersonation: true });
  });

  it("createSession refuses a lifetime that is not a positive whole number, before sending", async () => {
    const { user, service } = await withServerUser();
    for (const expiresInMillis of [0, -1, 1.5, Number.NaN]) {
      expect(isStackError(await rejectionOf(user.createSession({ expiresInMillis })), "StackConfigurationError")).toBe(true);
    }
    expect(service.requests).toHaveLength(0);
  });
});

describe("connected accounts", () => {
  const route = `POST /connected-accounts/${USER_ID}/github/access-token`;

  it("getConnectedAccount asks for the user's provider token with the scopes", async () => {
    let n = 0;
    const { user, service } = await withServerUser({ [route]: () => json({ access_token: `gho_${++n}` }, { status: 201 }) });
    const connection = await user.getConnectedAccount("GitHub", { scopes: ["repo", "read:user"] });
    expect(connection?.id).toBe("github");
    expect(await connection!.getAccessToken()).toEqual({ accessToken: "gho_1" });
    expect(await connection!.getAccessToken()).toEqual({ accessToken: "gho_2" });
    expect(sent(service)).toEqual([
      { method: "POST", path: `/connected-accounts/${USER_ID}/github/access-token`, body: { scope: "repo read:user" } },
      { method: "POST", path: `/connected-accounts/${USER_ID}/github/access-token`, body: { scope: "repo read:user" } },
    ]);
    expectServerRequests(service);
  });

  it("is null for a user who is not connected, and throws it with or: 'throw'", async () => {
    const { user } = await withServerUser({ [route]: () => knownError(400, "OAUTH_CONNECTION_NOT_CONNECTED_TO_USER", "Not connected.") });
    expect(await user.getConnectedAccount("github")).toBeNull();
    await expect(user.getConnectedAccount("github", { or: "throw" })).rejects.toMatchObject({
      code: "OAUTH_CONNECTION_NOT_CONNECTED_TO_USER",
    });
  });

  it("refuses or: 'redirect', which needs the user's browser", async () => {
    const { user, service } = await withServerUser();
    expect(isStackError(await rejectionOf(user.getConnectedAccount("github", { or: "redirect" })), "StackConfigurationError")).toBe(true);
    expect(service.requests).toHaveLength(0);
  });
});

describe("API keys", () => {
  it("listApiKeys reads GET /user-api-keys?user_id={id} and applies the validity rules", async () => {
    const revoked = { ...USER_KEY, id: "k2", manually_revoked_at_millis: Date.now() - 1000, expires_at_millis: Date.now() - 1000 };
    const { user, service } = await withServerUser({
      [`GET /user-api-keys?user_id=${USER_ID}`]: () => json({ items: [USER_KEY, revoked] }),
    });
    const keys = await user.listApiKeys();
    expect(sent(service)).toEqual([{ method: "GET", path: `/user-api-keys?user_id=${USER_ID}` }]);
    expectServerRequests(service);
    expect(keys.map((k) => [k.type, k.userId, k.value.lastFour, k.whyInvalid()])).toEqual([
      ["user", USER_ID, "9f2a", null],
      ["user", USER_ID, "9f2a", "manually-revoked"],
    ]);
  });

  it("createApiKey sends POST /user-api-keys for the user and shows the full key once", async () => {
    const { user, service } = await withServerUser({ "POST /user-api-keys": () => json(USER_KEY_FIRST) });
    const key = await user.createApiKey({ description: "CI deploys", expiresAt: new Date(4102444800000), isPublic: false });
    expect(sent(service)).toEqual([
      {
        method: "POST",
        path: "/user-api-keys",
        body: { user_id: USER_ID, description: "CI deploys", expires_at_millis: 4102444800000, is_public: false },
      },
    ]);
    expect(key.value).toBe(USER_KEY_FIRST["value"]);
  });

  it("a listed key is revoked for its user with PATCH {revoked: true}", async () => {
    const { user, service } = await withServerUser({ [`GET /user-api-keys?user_id=${USER_ID}`]: () => json({ items: [USER_KEY] }) });
    const [key] = await user.listApiKeys();
    service.requests.length = 0;
    await key!.revoke();
    expect(sent(service)).toEqual([
      { method: "PATCH", path: `/user-api-keys/${USER_KEY["id"]}?user_id=${USER_ID}`, body: { revoked: true } },
    ]);
    expectServerRequests(service);
  });

  it("createApiKey refuses an expiresAt that is not a Date or null, before sending", async () => {
    const { user, service } = await withServerUser();
    const error = await rejectionOf(user.createApiKey({ description: "x", expiresAt: "tomorrow" as never }));
    expect(isStackError(error, "StackConfigurationError")).toBe(true);
    expect(service.requests).toHaveLength(0);
  });
});
