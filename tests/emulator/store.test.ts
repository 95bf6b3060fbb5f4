// The store's invariants, on the store alone: deleting a user, a team or a
// project leaves no record in any table that points at it (but the activity
// log, which keeps a deleted user's events as the service does); the indexes follow
// every change (a channel found by its new e-mail, not its old one); and the
// state exports and imports back unchanged, state files of earlier versions
// included (fixtures/state-v1.json was written by the store before it kept its
// tables private).
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { DEMO_KEYS, INTERNAL_KEYS, seedDefaults } from "../../emulator/engine/seed.js";
import { Store, type StateJson } from "../../emulator/engine/store.js";

const NOW = 1_750_000_000_000;
const DEMO = DEMO_KEYS.projectId;
let next = 0;
const id = () => `00000000-0000-4000-8000-${String(++next).padStart(12, "0")}`;

function seeded(): Store {
  const store = new Store();
  seedDefaults(store, NOW);
  return store;
}

/** A user of `projectId` with one of everything that can belong to a user, in a team of their own with its own key and invitation. */
function userWithEverything(store: Store, projectId: string, email: string) {
  const userId = id();
  const teamId = id();
  const refreshToken = `refresh-${userId}`;
  store.insert("users", {
    id: userId,
    project_id: projectId,
    display_name: null,
    profile_image_url: null,
    signed_up_at_millis: NOW,
    last_active_at_millis: NOW,
    client_metadata: null,
    client_read_only_metadata: null,
    server_metadata: null,
    selected_team_id: teamId,
    is_anonymous: false,
    otp_auth_enabled: false,
    passkey_auth_enabled: true,
    totp_secret_base64: null,
    password_hash: null,
    oauth_providers: [{ id: "github", account_id: `gh-${userId}` }],
  });
  const channelId = id();
  store.insert("contactChannels", {
    id: channelId,
    project_id: projectId,
    user_id: userId,
    type: "email",
    value: email,
    is_verified: true,
    is_primary: true,
    used_for_auth: true,
  });
  store.insert("sessions", {
    id: id(),
    project_id: projectId,
    user_id: userId,
    refresh_token: refreshToken,
    created_at_millis: NOW,
    last_used_at_millis: null,
    expires_at_millis: null,
    is_impersonation: false,
  });
  store.insert("teams", {
    id: teamId,
    project_id: projectId,
    display_name: "Team",
    profile_image_url: null,
    client_metadata: null,
    client_read_only_metadata: null,
    server_metadata: null,
    created_at_millis: NOW,
  });
  store.insert("memberships", { project_id: projectId, team_id: teamId, user_id: userId, display_name: null, profile_image_url: null });
  store.insert("grants", { project_id: projectId, scope: "team", team_id: teamId, user_id: userId, permission_id: "team_admin" });
  store.insert("grants", { project_id: projectId, scope: "project", team_id: null, user_id: userId, permission_id: "reader" });
  const key = { project_id: projectId, description: "", value: `key-${id()}`, is_public: false, created_at_millis: NOW };
  const keyTimes = { expires_at_millis: null, manually_revoked_at_millis: null };
  store.insert("apiKeys", { id: id(), ...key, ...keyTimes, type: "user", user_id: userId, team_id: null });
  store.insert("apiKeys", { id: id(), ...key, ...keyTimes, type: "team", user_id: null, team_id: teamId });
  store.insert("passkeys", {
    id: id(),
    project_id: projectId,
    user_id: userId,
    credential_id: `cred-${userId}`,
    public_key: "pk",
    counter: 0,
    transports: [],
    created_at_millis: NOW,
  });
  const code = { project_id: projectId, created_at_millis: NOW, expires_at_millis: NOW + 60_000, used_at_millis: null, attempts: 0 };
  store.insert("codes", {
    ...code,
    code: `reset-${userId}`,
    kind: "password_reset",
    recipient: email,
    link: null,
    data: { user_id: userId },
  });
  store.insert("codes", {
    ...code,
    code: `invite-${teamId}`,
    kind: "team_invitation",
    recipient: "someone@example.com",
    link: null,
    data: { team_id: teamId, invitation_id: id() },
  });
  store.insert("cliLogins", {
    id: id(),
    project_id: projectId,
    polling_code: `poll-${userId}`,
    login_code: `login-${userId}`,
    created_at_millis: NOW,
    expires_at_millis: NOW + 60_000,
    refresh_token: refreshToken,
    used_at_millis: null,
  });
  store.insert("oauthCodes", {
    id: id(),
    kind: "authorization_code",
    project_id: projectId,
    created_at_millis: NOW,
    expires_at_millis: NOW + 60_000,
    used_at_millis: null,
    data: { user_id: userId },
  });
  store.insert("activityEvents", {
    id: id(),
    project_id: projectId,
    user_id: userId,
    session_id: id(),
    at_millis: NOW,
    is_anonymous: false,
    end_user: { ip: "127.0.0.1", country_code: "CH" },
  });
  return { userId, teamId, channelId, refreshToken };
}

/** Every record, in every table, whose JSON names one of `needles`. */
function mentioning(store: Store, ...needles: string[]): Record<string, unknown[]> {
  const found: Record<string, unknown[]> = {};
  for (const [table, records] of Object.entries(store.toJSON().tables)) {
    const hits = (records ?? []).filter((record) => needles.some((needle) => JSON.stringify(record).includes(needle)));
    if (hits.length > 0) found[table] = hits;
  }
  return found;
}

describe("the store's cascades", () => {
  it("deleting a user leaves nothing of theirs in any table, and the other user's records whole", () => {
    const store = seeded();
    const ada = userWithEverything(store, DEMO, "ada@example.com");
    const bob = userWithEverything(store, DEMO, "bob@example.com");
    const bobsBefore = mentioning(store, bob.userId, bob.teamId, bob.refreshToken);
    store.deleteUser(ada.userId);
    // The team stays (teams outlive their members), with its key and invitation; nothing of the user's own but
    // the log of the tokens issued to them, which the service keeps (its metrics count deleted users' activity).
    expect(mentioning(store, ada.userId, ada.refreshToken, "ada@example.com")).toEqual({
      activityEvents: [expect.objectContaining({ user_id: ada.userId })],
    });
    expect(store.team(ada.teamId)).toBeDefined();
    expect(mentioning(store, bob.userId, bob.teamId, bob.refreshToken)).toEqual(bobsBefore);
    expect(store.authChannelByEmail(DEMO, "ada@example.com")).toBeUndefined();
    expect(store.sessionByRefreshToken(ada.refreshToken)).toBeUndefined();
    expect(store.channelsOf(ada.userId)).toEqual([]);
  });

  it("deleting a team leaves no membership, grant, key, invitation or selection of it", () => {
    const store = seeded();
    const ada = userWithEverything(store, DEMO, "ada@example.com");
    store.deleteTeam(ada.teamId);
    expect(mentioning(store, ada.teamId)).toEqual({});
    expect(store.user(ada.userId)?.selected_team_id).toBeNull();
    expect(store.grantsOf(DEMO, "project").filter((grant) => grant.user_id === ada.userId)).toHaveLength(1);
  });

  it("ending a membership takes the member's team permissions and selection with it", () => {
    const store = seeded();
    const ada = userWithEverything(store, DEMO, "ada@example.com");
    store.deleteMembership(ada.teamId, ada.userId);
    expect(store.membershipsOfTeam(ada.teamId)).toEqual([]);
    expect(store.grantsOf(DEMO, "team").filter((grant) => grant.user_id === ada.userId)).toEqual([]);
    expect(store.user(ada.userId)?.selected_team_id).toBeNull();
    expect(store.grantsOf(DEMO, "project").filter((grant) => grant.user_id === ada.userId)).toHaveLength(1);
  });

  it("deleting a permission definition takes its grants and its place in the definitions containing it", () => {
    const store = seeded();
    const ada = userWithEverything(store, DEMO, "ada@example.com");
    store.insert("permissionDefinitions", {
      project_id: DEMO,
      scope: "project",
      id: "editor",
      description: null,
      contained_permission_ids: ["reader"],
    });
    store.insert("permissionDefinitions", {
      project_id: DEMO,
      scope: "project",
      id: "reader",
      description: null,
      contained_permission_ids: [],
    });
    store.deletePermissionDefinition(DEMO, "project", "reader");
    expect(store.permissionDefinition(DEMO, "project", "editor")?.contained_permission_ids).toEqual([]);
    expect(store.grantsOf(DEMO, "project").filter((grant) => grant.user_id === ada.userId)).toEqual([]);
  });

  it("deleting a project leaves no record of it in any table, and the other project whole", () => {
    const store = seeded();
    const ada = userWithEverything(store, DEMO, "ada@example.com");
    const internal = userWithEverything(store, INTERNAL_KEYS.projectId, "owner@example.com");
    store.insert("emails", {
      id: id(),
      project_id: DEMO,
      to: ["ada@example.com"],
      from: "noreply@example.com",
      subject: "Hello",
      text: "",
      html: "",
      sent_at_millis: NOW,
      error: null,
    });
    store.insert("emailTemplates", { id: `${DEMO}/magic_link`, project_id: DEMO, type: "magic_link", subject: "Sign in", content: null });
    const internalBefore = mentioning(store, INTERNAL_KEYS.projectId);
    store.deleteProject(DEMO);
    expect(mentioning(store, DEMO, ada.userId, ada.teamId, ada.refreshToken)).toEqual({});
    expect(mentioning(store, INTERNAL_KEYS.projectId)).toEqual(internalBefore);
    expect(store.authChannelByEmail(INTERNAL_KEYS.projectId, "owner@example.com")?.user_id).toBe(internal.userId);
  });
});

describe("the store's indexes", () => {
  it("find a channel by its new e-mail once it changes, and no longer by its old one", () => {
    const store = seeded();
    const ada = userWithEverything(store, DEMO, "ada@example.com");
    store.updateChannel(ada.channelId, { value: "ada@new.example" });
    expect(store.authChannelByEmail(DEMO, "ADA@new.example")?.id).toBe(ada.channelId);
    expect(store.authChannelByEmail(DEMO, "ada@example.com")).toBeUndefined();
    store.updateChannel(ada.channelId, { used_for_auth: false });
    expect(store.authChannelByEmail(DEMO, "ada@new.example")).toBeUndefined();
    expect(store.channelsOf(ada.userId).map((channel) => channel.id)).toEqual([ada.channelId]);
  });

  it("forget a removed channel and session", () => {
    const store = seeded();
    const ada = userWithEverything(store, DEMO, "ada@example.com");
    const session = store.sessionByRefreshToken(ada.refreshToken)!;
    store.deleteSession(session.id);
    expect(store.sessionByRefreshToken(ada.refreshToken)).toBeUndefined();
    store.deleteChannel(ada.channelId);
    expect(store.channelsOf(ada.userId)).toEqual([]);
    expect(store.authChannelByEmail(DEMO, "ada@example.com")).toBeUndefined();
  });

  it("move a renamed permission definition to its new key", () => {
    const store = seeded();
    const [first] = store.permissionDefinitionsOf(DEMO, "team");
    expect(first).toBeDefined();
    store.updatePermissionDefinition(DEMO, "team", first!.id, { id: "renamed" });
    expect(store.permissionDefinition(DEMO, "team", "renamed")).toBe(first);
    expect(store.permissionDefinition(DEMO, "team", "team_admin")).toBeUndefined();
  });
});

describe("the store's lists, read from indexes", () => {
  it("answer each list's records in the order they were made, and follow a record whose indexed value changes", () => {
    const store = seeded();
    const ada = userWithEverything(store, DEMO, "ada@example.com");
    const bob = userWithEverything(store, DEMO, "bob@example.com");
    const owner = userWithEverything(store, INTERNAL_KEYS.projectId, "owner@example.com");
    expect(store.usersOf(DEMO).map((user) => user.id)).toEqual([ada.userId, bob.userId]);
    expect(store.usersOf(INTERNAL_KEYS.projectId).map((user) => user.id)).toEqual([owner.userId]);
    expect(
      store
        .teamsOf(DEMO)
        .map((team) => team.id)
        .slice(-2),
    ).toEqual([ada.teamId, bob.teamId]);
    expect(store.sessionsOf(ada.userId).map((session) => session.refresh_token)).toEqual([ada.refreshToken]);
    expect(store.membershipsOfTeam(ada.teamId).map((m) => m.user_id)).toEqual([ada.userId]);

    // Bob joins Ada's team and selects it: the lists by team, by user and by selected team follow.
    store.insert("memberships", {
      project_id: DEMO,
      team_id: ada.teamId,
      user_id: bob.userId,
      display_name: null,
      profile_image_url: null,
    });
    store.updateUser(bob.userId, { selected_team_id: ada.teamId });
    expect(store.membershipsOfTeam(ada.teamId).map((m) => m.user_id)).toEqual([ada.userId, bob.userId]);
    expect(store.teamsOfUser(bob.userId).map((team) => team.id)).toEqual([bob.teamId, ada.teamId]);
    // A change that leaves the indexed value alone keeps the record's place.
    store.updateUser(ada.userId, { display_name: "Ada" });
    expect(store.usersOf(DEMO).map((user) => user.display_name)).toEqual(["Ada", null]);

    // Deleting Ada's team clears both selections, found through the index of selected teams.
    store.deleteTeam(ada.teamId);
    expect(store.user(ada.userId)?.selected_team_id).toBeNull();
    expect(store.user(bob.userId)?.selected_team_id).toBeNull();
    expect(store.teamsOfUser(bob.userId).map((team) => team.id)).toEqual([bob.teamId]);
    store.deleteUser(ada.userId);
    expect(store.usersOf(DEMO).map((user) => user.id)).toEqual([bob.userId]);
    expect(store.sessionsOf(ada.userId)).toEqual([]);
  });

  it("find a command-line login by either of its codes, and no longer once it is gone", () => {
    const store = seeded();
    store.insert("cliLogins", {
      id: "login-1",
      project_id: DEMO,
      polling_code: "poll-1",
      login_code: "login-code-1",
      refresh_token: null,
      created_at_millis: NOW,
      expires_at_millis: NOW + 60_000,
      used_at_millis: null,
    });
    expect(store.cliLoginBy("polling_code", "poll-1")?.id).toBe("login-1");
    expect(store.cliLoginBy("login_code", "login-code-1")?.id).toBe("login-1");
    expect(store.cliLoginBy("login_code", "poll-1")).toBeUndefined();
    store.updateCliLogin("login-1", { polling_code: "poll-2" });
    expect(store.cliLoginBy("polling_code", "poll-1")).toBeUndefined();
    expect(store.cliLoginBy("polling_code", "poll-2")?.id).toBe("login-1");
    store.deleteProject(DEMO);
    expect(store.cliLoginBy("login_code", "login-code-1")).toBeUndefined();
  });
});

describe("the store's export and import", () => {
  it("round-trips: an imported export exports the same, with its indexes rebuilt", () => {
    const store = seeded();
    const ada = userWithEverything(store, DEMO, "ada@example.com");
    const exported = JSON.stringify(store.toJSON());
    const copy = new Store();
    copy.load(JSON.parse(exported) as StateJson);
    expect(JSON.stringify(copy.toJSON())).toBe(exported);
    expect(copy.authChannelByEmail(DEMO, "ada@example.com")?.id).toBe(ada.channelId);
    expect(copy.sessionByRefreshToken(ada.refreshToken)?.user_id).toBe(ada.userId);
  });

  it("loads a state file the earlier store wrote and exports it unchanged, its tables' and fields' order included", () => {
    const text = readFileSync(new URL("./fixtures/state-v1.json", import.meta.url), "utf8");
    const store = new Store();
    store.load(JSON.parse(text) as StateJson);
    // Tables added since the file was written (the activity log, the storage's files) come out empty, after the others.
    const written = JSON.parse(text) as StateJson;
    expect(JSON.stringify(store.toJSON())).toBe(
      JSON.stringify({ ...written, tables: { ...written.tables, activityEvents: [], files: [] } }),
    );
    const ada = store.authChannelByEmail(DEMO, "ada@example.com");
    expect(ada && store.user(ada.user_id)?.password_hash).toEqual(expect.any(String));
  });

  it("refuses what is not a version 1 state", () => {
    expect(() => new Store().load({ version: 2, tables: {} } as unknown as StateJson)).toThrow(TypeError);
  });
});
