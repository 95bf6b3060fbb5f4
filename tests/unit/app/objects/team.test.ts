// Teams of the current user (SPEC §3 Team, §6 client team creation, §7 "Teams"; issue #4 "teams").
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { KnownErrors } from "../../../../generated/known-errors.js";
import type { components } from "../../../../generated/schema.js";
import { createTeamObject } from "../../../../runtime/app/objects/team.js";
import { userTeamMethods } from "../../../../runtime/app/objects/user-teams.js";
import { isStackError } from "../../../../runtime/errors.js";
import { HttpError } from "../../../../runtime/http/request-errors.js";
import { fakeBrowser, testAppContext, type TestAppOptions } from "../../../helpers/app-context.js";
import { wireUser } from "../../../helpers/documented-answers.js";
import { json, knownError, useFakeClock, type SentRequest } from "../../../helpers/fake-service.js";
import { rejectionOf } from "../../../helpers/outcome.js";

const TEAM_ID = "9c2b7e4a-1f3d-4a6b-8e5c-2d7f9a1b3c5e";
const OTHER_TEAM_ID = "4f1e8d2c-7b3a-4c9e-a5d6-1b2c3d4e5f60";
const USER_ID = "3b8f2a6c-9d1e-4f7a-b2c5-8e6d4a1f9c3b";
const INVITATION_ID = "2e7a9c1b-3f5d-4b8e-9a2c-6d1f8e3b5a7c";

const wireTeam = (overrides: Partial<components["schemas"]["ClientTeam"]> = {}): components["schemas"]["ClientTeam"] => ({
  id: TEAM_ID,
  display_name: "Acme Engineering",
  profile_image_url: "https://img.example.com/acme.png",
  client_metadata: { plan: "pro" } as never,
  client_read_only_metadata: { seats: 5 } as never,
  ...overrides,
});

type Route = (request: SentRequest) => Response;

/** A service answering by "METHOD /path?query" (relative to /api/v1); anything else is a test failure. */
function setup(routes: Record<string, Route | Response>, options: TestAppOptions = {}) {
  const t = testAppContext((request) => {
    const key = `${request.method} ${request.path.replace(/^\/api\/v1/, "")}`;
    const route = routes[key];
    if (route === undefined) throw new Error(`unexpected request ${key}`);
    return typeof route === "function" ? route(request) : route.clone();
  }, options);
  const sent = () =>
    t.service.requests.map((r) => ({
      method: r.method,
      path: r.path.replace(/^\/api\/v1/, ""),
      body: r.body === "" ? undefined : JSON.parse(r.body),
    }));
  return { ...t, sent };
}

beforeEach(() => useFakeClock());
afterEach(() => vi.useRealTimers());

describe("a Team object", () => {
  it("maps id, displayName, profileImageUrl, clientMetadata and clientReadOnlyMetadata from the wire", () => {
    const { ctx } = setup({});
    const team = createTeamObject(ctx, wireTeam());
    const { id, displayName, profileImageUrl, clientMetadata, clientReadOnlyMetadata } = team;
    expect({ id, displayName, profileImageUrl, clientMetadata, clientReadOnlyMetadata }).toEqual({
      id: TEAM_ID,
      displayName: "Acme Engineering",
      profileImageUrl: "https://img.example.com/acme.png",
      clientMetadata: { plan: "pro" },
      clientReadOnlyMetadata: { seats: 5 },
    });
    expect(Object.keys(team).sort()).toEqual(
      [
        "id",
        "displayName",
        "profileImageUrl",
        "clientMetadata",
        "clientReadOnlyMetadata",
        "inviteUser",
        "listUsers",
        "listInvitations",
        "update",
        "delete",
        "createApiKey",
        "listApiKeys",
      ].sort(),
    );
  });

  it("reads absent metadata and a null picture as null", () => {
    const { ctx } = setup({});
    const { client_metadata: _a, client_read_only_metadata: _b, ...bare } = wireTeam({ profile_image_url: null });
    const team = createTeamObject(ctx, bare);
    expect([team.profileImageUrl, team.clientMetadata, team.clientReadOnlyMetadata]).toEqual([null, null, null]);
  });

  it("update() sends PATCH /teams/{id} with only the given fields, in snake_case", async () => {
    const { ctx, sent } = setup({ [`PATCH /teams/${TEAM_ID}`]: json(wireTeam()) });
    await createTeamObject(ctx, wireTeam()).update({ displayName: "New name", profileImageUrl: null, clientMetadata: { a: [1, "b"] } });
    await createTeamObject(ctx, wireTeam()).update({ displayName: "Only this" });
    expect(sent()).toEqual([
      {
        method: "PATCH",
        path: `/teams/${TEAM_ID}`,
        body: { display_name: "New name", profile_image_url: null, client_metadata: { a: [1, "b"] } },
      },
      { method: "PATCH", path: `/teams/${TEAM_ID}`, body: { display_name: "Only this" } },
    ]);
  });

  it("update() encodes the team id in the path", async () => {
    const { ctx, sent } = setup({ "PATCH /teams/a%2Fb%3Fc": json(wireTeam()) });
    await createTeamObject(ctx, wireTeam({ id: "a/b?c" })).update({ displayName: "x" });
    expect(sent()[0]!.path).toBe("/teams/a%2Fb%3Fc");
  });

  it("delete() sends DELETE /teams/{id} without a body", async () => {
    const { ctx, sent } = setup({ [`DELETE /teams/${TEAM_ID}`]: json({ success: true }) });
    await expect(createTeamObject(ctx, wireTeam()).delete()).resolves.toBeUndefined();
    expect(sent()).toEqual([{ method: "DELETE", path: `/teams/${TEAM_ID}`, body: undefined }]);
  });

  it("inviteUser() sends email, team_id and the absolute team-invitation page as callback_url by default", async () => {
    const { browser } = fakeBrowser("https://app.example.com/dashboard?tab=1");
    const { ctx, sent } = setup(
      { "POST /team-invitations/send-code": json({ success: true, id: INVITATION_ID }) },
      { browser, urls: { handler: "/auth" } },
    );
    await createTeamObject(ctx, wireTeam()).inviteUser({ email: "grace@example.com" });
    expect(sent()).toEqual([
      {
        method: "POST",
        path: "/team-invitations/send-code",
        body: { email: "grace@example.com", team_id: TEAM_ID, callback_url: "https://app.example.com/auth/team-invitation" },
      },
    ]);
  });

  it("inviteUser() sends the callbackUrl it is given", async () => {
    const { ctx, sent } = setup({ "POST /team-invitations/send-code": json({ success: true, id: INVITATION_ID }) });
    await createTeamObject(ctx, wireTeam()).inviteUser({ email: "grace@example.com", callbackUrl: "https://other.example.com/join" });
    expect(sent()[0]!.body).toEqual({ email: "grace@example.com", team_id: TEAM_ID, callback_url: "https://other.example.com/join" });
  });

  it("inviteUser() lets REDIRECT_URL_NOT_WHITELISTED through typed", async () => {
    const { ctx } = setup({
      "POST /team-invitations/send-code": knownError(400, "REDIRECT_URL_NOT_WHITELISTED", "Redirect URL not whitelisted."),
    });
    const error = await rejectionOf(createTeamObject(ctx, wireTeam()).inviteUser({ email: "grace@example.com" }));
    expect(error).toBeInstanceOf(KnownErrors.RedirectUrlNotWhitelisted);
  });

  it("listUsers() sends GET /team-member-profiles?team_id= and maps each member to { id, teamProfile }", async () => {
    const { ctx, sent } = setup({
      [`GET /team-member-profiles?team_id=${TEAM_ID}`]: json({
        items: [
          { team_id: TEAM_ID, user_id: USER_ID, display_name: "Ada", profile_image_url: "https://img.example.com/ada.png" },
          { team_id: TEAM_ID, user_id: "u-2", display_name: null, profile_image_url: null },
        ],
        is_paginated: false,
      }),
    });
    const users = await createTeamObject(ctx, wireTeam()).listUsers();
    expect(sent()).toEqual([{ method: "GET", path: `/team-member-profiles?team_id=${TEAM_ID}`, body: undefined }]);
    expect(users).toEqual([
      { id: USER_ID, teamProfile: { displayName: "Ada", profileImageUrl: "https://img.example.com/ada.png" } },
      { id: "u-2", teamProfile: { displayName: null, profileImageUrl: null } },
    ]);
  });

  it("listInvitations() sends GET /team-invitations?team_id= and maps id, recipientEmail and expiresAt as a Date", async () => {
    const { ctx, sent } = setup({
      [`GET /team-invitations?team_id=${TEAM_ID}`]: json({
        items: [
          { id: "inv-1", team_id: TEAM_ID, expires_at_millis: 1_900_000_000_000, recipient_email: "grace@example.com" },
          { id: "inv-2", team_id: TEAM_ID, expires_at_millis: 1_900_000_000_001, recipient_email: null },
        ],
      }),
    });
    const invitations = await createTeamObject(ctx, wireTeam()).listInvitations();
    expect(sent()).toEqual([{ method: "GET", path: `/team-invitations?team_id=${TEAM_ID}`, body: undefined }]);
    expect(invitations.map(({ revoke: _, ...fields }) => fields)).toEqual([
      { id: "inv-1", recipientEmail: "grace@example.com", expiresAt: new Date(1_900_000_000_000) },
      { id: "inv-2", recipientEmail: null, expiresAt: new Date(1_900_000_000_001) },
    ]);
    expect(invitations[0]!.expiresAt).toBeInstanceOf(Date);
  });

  it("an invitation's revoke() sends DELETE /team-invitations/{id}?team_id=", async () => {
    const { ctx, sent } = setup({
      [`GET /team-invitations?team_id=${TEAM_ID}`]: json({
        items: [{ id: "inv-1", team_id: TEAM_ID, expires_at_millis: 1, recipient_email: null }],
      }),
      [`DELETE /team-invitations/inv-1?team_id=${TEAM_ID}`]: json({ success: true }),
    });
    const [invitation] = await createTeamObject(ctx, wireTeam()).listInvitations();
    await invitation!.revoke();
    expect(sent()[1]).toEqual({ method: "DELETE", path: `/team-invitations/inv-1?team_id=${TEAM_ID}`, body: undefined });
  });

  it("createApiKey() and listApiKeys() use the team's key endpoints", async () => {
    const key = { id: "k-1", description: "ci", created_at_millis: 1, is_public: false, type: "team", team_id: TEAM_ID };
    const { ctx, sent } = setup({
      "POST /team-api-keys": json({ ...key, value: "sk_team_full" }),
      [`GET /team-api-keys?team_id=${TEAM_ID}`]: json({ items: [{ ...key, value: { last_four: "full" } }] }),
    });
    const team = createTeamObject(ctx, wireTeam());
    const created = await team.createApiKey({ description: "ci", expiresAt: null });
    const listed = await team.listApiKeys();
    expect(sent()).toEqual([
      { method: "POST", path: "/team-api-keys", body: { team_id: TEAM_ID, description: "ci", expires_at_millis: null } },
      { method: "GET", path: `/team-api-keys?team_id=${TEAM_ID}`, body: undefined },
    ]);
    expect([created.value, created.teamId, listed[0]!.value]).toEqual(["sk_team_full", TEAM_ID, { lastFour: "full" }]);
  });
});

describe("the current user's team methods", () => {
  it("listTeams() sends GET /teams?user_id=me with the user's access token and maps each team", async () => {
    const { ctx, sent, service, store } = setup({
      "GET /teams?user_id=me": json({ items: [wireTeam(), wireTeam({ id: OTHER_TEAM_ID, display_name: "Ops" })], is_paginated: false }),
    });
    const teams = await userTeamMethods(ctx).listTeams();
    expect(sent()).toEqual([{ method: "GET", path: "/teams?user_id=me", body: undefined }]);
    expect(service.requests[0]!.headers["x-stack-access-token"]).toBe(store!.get().accessToken);
    expect(teams.map((t) => [t.id, t.displayName])).toEqual([
      [TEAM_ID, "Acme Engineering"],
      [OTHER_TEAM_ID, "Ops"],
    ]);
  });

  it("getTeam(id) is one request, GET /teams/{id}, and answers the team", async () => {
    const { ctx, sent } = setup({ [`GET /teams/${TEAM_ID}`]: json(wireTeam()) });
    const team = await userTeamMethods(ctx).getTeam(TEAM_ID);
    expect(sent()).toEqual([{ method: "GET", path: `/teams/${TEAM_ID}`, body: undefined }]);
    expect(team?.id).toBe(TEAM_ID);
    expect(team?.displayName).toBe("Acme Engineering");
  });

  it("getTeam(id) answers null for TEAM_NOT_FOUND", async () => {
    const { ctx } = setup({
      [`GET /teams/${TEAM_ID}`]: knownError(404, "TEAM_NOT_FOUND", `Team ${TEAM_ID} not found.`, { team_id: TEAM_ID }),
    });
    await expect(userTeamMethods(ctx).getTeam(TEAM_ID)).resolves.toBeNull();
  });

  it("getTeam(id) answers null when the user is not a member (TEAM_MEMBERSHIP_NOT_FOUND)", async () => {
    const { ctx } = setup({
      [`GET /teams/${TEAM_ID}`]: knownError(404, "TEAM_MEMBERSHIP_NOT_FOUND", "User is not found in team.", {
        team_id: TEAM_ID,
        user_id: USER_ID,
      }),
    });
    await expect(userTeamMethods(ctx).getTeam(TEAM_ID)).resolves.toBeNull();
  });

  it("getTeam(id) throws other errors typed", async () => {
    const { ctx } = setup({ [`GET /teams/${TEAM_ID}`]: knownError(401, "USER_AUTHENTICATION_REQUIRED", "User authentication required.") });
    expect(await rejectionOf(userTeamMethods(ctx).getTeam(TEAM_ID))).toBeInstanceOf(KnownErrors.UserAuthenticationRequired);
  });

  it.each(["", ".", "..", "team-1", "not a uuid"])("getTeam(%j) answers null without a request: team ids are UUIDs", async (id) => {
    const { ctx, sent } = setup({});
    await expect(userTeamMethods(ctx).getTeam(id)).resolves.toBeNull();
    expect(sent()).toEqual([]);
  });

  it("createTeam() sends POST /teams {display_name, profile_image_url, creator_user_id: me}, then selects it with PATCH /users/me", async () => {
    const { ctx, sent } = setup({
      "POST /teams": json(wireTeam({ display_name: "New team" }), { status: 201 }),
      "PATCH /users/me": json(wireUser({ id: USER_ID, selected_team_id: TEAM_ID, selected_team: wireTeam({ display_name: "New team" }) })),
    });
    const team = await userTeamMethods(ctx).createTeam({ displayName: "New team", profileImageUrl: "https://img.example.com/n.png" });
    expect(sent()).toEqual([
      {
        method: "POST",
        path: "/teams",
        body: { display_name: "New team", profile_image_url: "https://img.example.com/n.png", creator_user_id: "me" },
      },
      { method: "PATCH", path: "/users/me", body: { selected_team_id: TEAM_ID } },
    ]);
    expect([team.id, team.displayName]).toEqual([TEAM_ID, "New team"]);
  });

  it("createTeam() leaves profile_image_url out when none is given", async () => {
    const { ctx, sent } = setup({
      "POST /teams": json(wireTeam(), { status: 201 }),
      "PATCH /users/me": json(wireUser({ id: USER_ID, selected_team_id: TEAM_ID, selected_team: wireTeam() })),
    });
    await userTeamMethods(ctx).createTeam({ displayName: "Plain" });
    expect(sent()[0]!.body).toEqual({ display_name: "Plain", creator_user_id: "me" });
  });

  it("createTeam() lets the service's refusal (client team creation disabled) through typed and selects nothing", async () => {
    const { ctx, sent } = setup({ "POST /teams": new Response("Client team creation is disabled for this project", { status: 403 }) });
    const error = await rejectionOf(userTeamMethods(ctx).createTeam({ displayName: "Nope" }));
    expect(isStackError(error, "HttpError")).toBe(true);
    expect((error as HttpError).status).toBe(403);
    expect(sent().map((r) => r.method)).toEqual(["POST"]);
  });

  it("createTeam(undefined) is a StackConfigurationError, not a TypeError", async () => {
    const { ctx, sent } = setup({});
    const error = await rejectionOf(userTeamMethods(ctx).createTeam(undefined as never));
    expect(isStackError(error, "StackConfigurationError")).toBe(true);
    expect(sent()).toEqual([]);
  });

  it("leaveTeam(team) sends DELETE /team-memberships/{teamId}/me with the body {}", async () => {
    const { ctx, service } = setup({ [`DELETE /team-memberships/${TEAM_ID}/me`]: json({ success: true }) });
    await userTeamMethods(ctx).leaveTeam(createTeamObject(ctx, wireTeam()));
    expect(service.requests.map((r) => [r.method, r.path, r.body, r.headers["content-type"]])).toEqual([
      ["DELETE", `/api/v1/team-memberships/${TEAM_ID}/me`, "{}", "application/json"],
    ]);
  });

  it("leaveTeam() without a team is a StackConfigurationError", async () => {
    const { ctx } = setup({});
    const error = await rejectionOf(userTeamMethods(ctx).leaveTeam({} as never));
    expect(isStackError(error, "StackConfigurationError")).toBe(true);
  });

  it("getTeamProfile(team) sends GET /team-member-profiles/{teamId}/me and maps displayName and profileImageUrl", async () => {
    const { ctx, sent } = setup({
      [`GET /team-member-profiles/${TEAM_ID}/me`]: json({
        team_id: TEAM_ID,
        user_id: USER_ID,
        display_name: "Ada at Acme",
        profile_image_url: null,
      }),
    });
    const { update: _, ...profile } = await userTeamMethods(ctx).getTeamProfile({ id: TEAM_ID });
    expect(sent()).toEqual([{ method: "GET", path: `/team-member-profiles/${TEAM_ID}/me`, body: undefined }]);
    expect(profile).toEqual({ displayName: "Ada at Acme", profileImageUrl: null });
  });

  it("the team profile's update() sends PATCH /team-member-profiles/{teamId}/me with snake_case fields", async () => {
    const wire = { team_id: TEAM_ID, user_id: USER_ID, display_name: "Ada", profile_image_url: null };
    const { ctx, sent } = setup({
      [`GET /team-member-profiles/${TEAM_ID}/me`]: json(wire),
      [`PATCH /team-member-profiles/${TEAM_ID}/me`]: json(wire),
    });
    const profile = await userTeamMethods(ctx).getTeamProfile({ id: TEAM_ID });
    await profile.update({ displayName: "Ada L.", profileImageUrl: "https://img.example.com/a.png" });
    await profile.update({ profileImageUrl: null });
    expect(sent().slice(1)).toEqual([
      {
        method: "PATCH",
        path: `/team-member-profiles/${TEAM_ID}/me`,
        body: { display_name: "Ada L.", profile_image_url: "https://img.example.com/a.png" },
      },
      { method: "PATCH", path: `/team-member-profiles/${TEAM_ID}/me`, body: { profile_image_url: null } },
    ]);
  });
});
