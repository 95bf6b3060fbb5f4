// ServerTeam (SPEC §3 "Team"; endpoints.md §C): the server fields, members and
// their profiles, membership changes, the server update, invitations, API keys.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { isStackError } from "../../../../runtime/errors.js";
import { doc } from "../../../fixtures/document.js";
import { json, useFakeClock } from "../../../helpers/fake-service.js";
import { rejectionOf } from "../../../helpers/outcome.js";
import { expectServerRequests, OTHER_ID, sent, TEAM, TEAM_ID, USER, USER_ID, withServerTeam } from "./setup.js";

const TEAM_KEY = doc.components.examples["TeamApiKey"]!.value as Record<string, unknown>;
const INVITATION = {
  id: "e7c1a3b5-9d2f-4c6e-8a0b-1d3f5a7c9e2b",
  team_id: TEAM_ID,
  expires_at_millis: 1764000000000,
  recipient_email: "grace@example.com",
};

beforeEach(() => useFakeClock());
afterEach(() => vi.useRealTimers());

describe("the fields", () => {
  it("map the Team fields plus createdAt and serverMetadata", async () => {
    const { team } = await withServerTeam({}, { server_metadata: { tier: "gold" }, client_read_only_metadata: { seats: 5 } });
    expect(team).toMatchObject({
      id: TEAM_ID,
      displayName: "Acme Engineering",
      profileImageUrl: null,
      clientMetadata: {},
      clientReadOnlyMetadata: { seats: 5 },
      createdAt: new Date(TEAM.created_at_millis),
      serverMetadata: { tier: "gold" },
    });
  });
});

describe("members", () => {
  it("listUsers reads the member profiles and returns each ServerUser with its team profile", async () => {
    const profiles = { items: [{ team_id: TEAM_ID, user_id: USER_ID, display_name: "Countess", profile_image_url: null, user: USER }] };
    const { team, service } = await withServerTeam({ [`GET /team-member-profiles?team_id=${TEAM_ID}`]: () => json(profiles) });
    const [member] = await team.listUsers();
    expect(sent(service)).toEqual([{ method: "GET", path: `/team-member-profiles?team_id=${TEAM_ID}` }]);
    expectServerRequests(service);
    expect(member).toMatchObject({
      id: USER_ID,
      primaryEmail: "ada@example.com",
      lastActiveAt: new Date(USER.last_active_at_millis),
      teamProfile: { displayName: "Countess", profileImageUrl: null },
    });
  });

  it("addUser sends POST /team-memberships/{team}/{user} with an empty body", async () => {
    const { team, service } = await withServerTeam();
    await team.addUser(OTHER_ID);
    expect(sent(service)).toEqual([{ method: "POST", path: `/team-memberships/${TEAM_ID}/${OTHER_ID}`, body: {} }]);
    expectServerRequests(service);
  });

  it("removeUser sends DELETE /team-memberships/{team}/{user} with an empty body", async () => {
    const { team, service } = await withServerTeam();
    await team.removeUser(OTHER_ID);
    expect(sent(service)).toEqual([{ method: "DELETE", path: `/team-memberships/${TEAM_ID}/${OTHER_ID}`, body: {} }]);
    expectServerRequests(service);
  });

  it("addUser and removeUser refuse a missing user id before sending", async () => {
    const { team, service } = await withServerTeam();
    expect(isStackError(await rejectionOf(team.addUser("")), "StackConfigurationError")).toBe(true);
    expect(isStackError(await rejectionOf(team.removeUser(undefined as never)), "StackConfigurationError")).toBe(true);
    expect(service.requests).toHaveLength(0);
  });
});

describe("changing the team", () => {
  it("update sends every server field to PATCH /teams/{id} in snake_case", async () => {
    const { team, service } = await withServerTeam();
    await team.update({
      displayName: "Acme Inc.",
      profileImageUrl: null,
      clientMetadata: { a: 1 },
      clientReadOnlyMetadata: { b: 2 },
      serverMetadata: { c: 3 },
    });
    expect(sent(service)).toEqual([
      {
        method: "PATCH",
        path: `/teams/${TEAM_ID}`,
        body: {
          display_name: "Acme Inc.",
          profile_image_url: null,
          client_metadata: { a: 1 },
          client_read_only_metadata: { b: 2 },
          server_metadata: { c: 3 },
        },
      },
    ]);
    expectServerRequests(service);
  });

  it("update sends only the fields given", async () => {
    const { team, service } = await withServerTeam();
    await team.update({ serverMetadata: { c: 3 } });
    expect(sent(service)[0]!.body).toEqual({ server_metadata: { c: 3 } });
  });

  it("delete sends DELETE /teams/{id}", async () => {
    const { team, service } = await withServerTeam();
    await team.delete();
    expect(sent(service)).toEqual([{ method: "DELETE", path: `/teams/${TEAM_ID}` }]);
    expectServerRequests(service);
  });
});

describe("invitations", () => {
  it("inviteUser sends the e-mail, the team and the team-invitation page", async () => {
    const { team, service } = await withServerTeam();
    await team.inviteUser({ email: "grace@example.com" });
    expect(sent(service)).toEqual([
      {
        method: "POST",
        path: "/team-invitations/send-code",
        body: { email: "grace@example.com", team_id: TEAM_ID, callback_url: "https://app.example.com/handler/team-invitation" },
      },
    ]);
    expectServerRequests(service);
  });

  it("listInvitations maps each invitation, and revoke sends DELETE /team-invitations/{id}?team_id=", async () => {
    const { team, service } = await withServerTeam({ [`GET /team-invitations?team_id=${TEAM_ID}`]: () => json({ items: [INVITATION] }) });
    const [invitation] = await team.listInvitations();
    expect(invitation).toMatchObject({
      id: INVITATION.id,
      recipientEmail: "grace@example.com",
      expiresAt: new Date(INVITATION.expires_at_millis),
    });
    await invitation!.revoke();
    expect(sent(service)).toEqual([
      { method: "GET", path: `/team-invitations?team_id=${TEAM_ID}` },
      { method: "DELETE", path: `/team-invitations/${INVITATION.id}?team_id=${TEAM_ID}` },
    ]);
    expectServerRequests(service);
  });
});

describe("API keys", () => {
  it("listApiKeys reads GET /team-api-keys?team_id= and createApiKey posts for the team", async () => {
    const first = { ...TEAM_KEY, value: "sk_team_full_4b7e" };
    const { team, service } = await withServerTeam({
      [`GET /team-api-keys?team_id=${TEAM_ID}`]: () => json({ items: [TEAM_KEY] }),
      "POST /team-api-keys": () => json(first),
    });
    const [key] = await team.listApiKeys();
    expect(key).toMatchObject({ type: "team", teamId: TEAM_ID, value: { lastFour: "4b7e" } });
    expect(key!.isValid()).toBe(true);
    const created = await team.createApiKey({ description: "Team automation", expiresAt: null });
    expect(created.value).toBe("sk_team_full_4b7e");
    expect(sent(service)).toEqual([
      { method: "GET", path: `/team-api-keys?team_id=${TEAM_ID}` },
      { method: "POST", path: "/team-api-keys", body: { team_id: TEAM_ID, description: "Team automation", expires_at_millis: null } },
    ]);
    expectServerRequests(service);
  });
});
