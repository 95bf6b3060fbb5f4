// Users through the SDK against the emulator: the signed-in user in the client
// and server views, what a client may change on itself, deleting oneself, and
// server code's users (create, list with cursor pagination and search, read,
// update, delete), with the service's errors. Users and sessions are made with
// the emulator's control API, so these tests need no sign-in handlers.
import { describe, expect, it } from "vitest";
import { DEMO_KEYS } from "../../emulator/index.js";
import { HttpError, isKnownError, StackClientApp, StackServerApp } from "../../runtime/index.js";
import { demoAppOptions, rawDemoRequest, signedInUser, useEmulator } from "../helpers/emulator.js";

const emulator = useEmulator();
const PASSWORD = "correct horse battery";
/** A 1×1 GIF, as the service's own tests upload one. */
const ONE_PIXEL_GIF = "R0lGODlhAQABAAAAACH5BAEKAAEALAAAAAABAAEAAAICTAEAOw==";

const common = () => demoAppOptions(emulator());

const serverApp = () => new StackServerApp({ ...common(), tokenStore: null, secretServerKey: DEMO_KEYS.secretServerKey });
const store = () => emulator().engine.ctx.store;
const project = () => store().project(DEMO_KEYS.projectId)!;

/** A user of the demo project, and a client app signed in as them. */
async function signedIn(email: string, displayName: string | null = null) {
  return signedInUser(emulator(), email, { displayName });
}

/** A request of the given access type, outside the SDK, for what the SDK never sends. */
const raw = (method: string, path: string, o: Parameters<typeof rawDemoRequest>[3] = {}) => rawDemoRequest(emulator(), method, path, o);

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected the call to fail");
}

describe("the signed-in user", () => {
  it("reads itself in the client view, and in the server view from a server app", async () => {
    const { user, tokens, record } = await signedIn("ada@example.com", "Ada");
    expect(user).toMatchObject({
      id: record.id,
      displayName: "Ada",
      primaryEmail: "ada@example.com",
      primaryEmailVerified: true,
      hasPassword: true,
    });
    const client = await raw("GET", "/users/me", { token: tokens.accessToken });
    expect(client.json).not.toHaveProperty("server_metadata");
    const serverUser = await serverApp().getUser({ tokenStore: tokens, or: "throw" });
    expect(serverUser.id).toBe(record.id);
    expect(serverUser.lastActiveAt).toBeInstanceOf(Date);
    // The service keeps metadata null until it is set.
    expect(serverUser.serverMetadata).toBeNull();
  });

  it("is nobody without an access token: CANNOT_GET_OWN_USER_WITHOUT_USER", async () => {
    const answer = await raw("GET", "/users/me");
    expect([answer.status, answer.knownError]).toEqual([400, "CANNOT_GET_OWN_USER_WITHOUT_USER"]);
    expect(await new StackClientApp({ ...common(), tokenStore: "memory" }).getUser()).toBeNull();
  });

  it("changes its client fields; an empty display name is none", async () => {
    const { app, user, record } = await signedIn("grace@example.com");
    await user.setDisplayName("Grace");
    await user.update({ clientMetadata: { theme: "dark" }, otpAuthEnabled: true });
    const again = await app.getUser({ or: "throw" });
    expect(again).toMatchObject({ displayName: "Grace", clientMetadata: { theme: "dark" }, otpAuthEnabled: true });
    expect((await serverApp().getUser(record.id))?.displayName).toBe("Grace");
    await again.update({ displayName: "" });
    expect((await app.getUser({ or: "throw" })).displayName).toBeNull();
  });

  it("may not write server fields, and uploads a picture only as a data URL", async () => {
    const { user, tokens, app } = await signedIn("linus@example.com");
    const answer = await raw("PATCH", "/users/me", {
      token: tokens.accessToken,
      body: { display_name: "L", server_metadata: { admin: true } },
    });
    expect(answer.knownError).toBe("SCHEMA_ERROR");
    expect(answer.json.error).toBe(
      "Request validation failed on PATCH /api/v1/users/me:\n  - body contains unknown properties: server_metadata",
    );
    const error = await rejection(user.update({ profileImageUrl: "https://example.com/me.png" }));
    expect(error).toBeInstanceOf(HttpError);
    expect([(error as HttpError).status, (error as HttpError).body]).toEqual([400, "Invalid profile image URL"]);
    // A type the client check does not know, and a PNG signature with no picture behind it.
    for (const [url, text] of [
      ["data:image/not-valid;base64,test", "Invalid profile image URL"],
      ["data:image/png;base64,iVBORw0KGgo=", "Invalid image format or corrupted image data"],
    ] as const) {
      const refused = await rejection(user.update({ profileImageUrl: url }));
      expect([(refused as HttpError).status, (refused as HttpError).body]).toEqual([400, text]);
    }
    // 2.8.86 moves the picture to its storage (the emulator's) and answers where it is.
    await user.update({ profileImageUrl: `data:image/gif;base64,${ONE_PIXEL_GIF}` });
    const stored = (await app.getUser({ or: "throw" })).profileImageUrl!;
    expect(stored).toMatch(/^http:\/\/localhost:8102\/emulator\/storage\/user-profile-images\/[0-9a-f-]{36}\.gif$/);
    const file = await emulator().fetch(new Request(stored));
    expect([file.status, file.headers.get("content-type")]).toEqual([200, "image/gif"]);
    expect(Buffer.from(await file.arrayBuffer()).toString("base64")).toBe(ONE_PIXEL_GIF);
    expect((await app.getUser({ or: "throw" })).displayName).toBeNull();
  });

  it("selects only a team it is a member of, and none once it has left", async () => {
    const { user, app, record } = await signedIn("barbara@example.com");
    const now = emulator().control.now();
    const team = {
      id: crypto.randomUUID(),
      project_id: DEMO_KEYS.projectId,
      display_name: "Team",
      profile_image_url: null,
      client_metadata: null,
      client_read_only_metadata: null,
      server_metadata: null,
      created_at_millis: now,
    };
    const other = { ...team, id: crypto.randomUUID(), display_name: "Other" };
    store().insert("teams", team);
    store().insert("teams", other);
    store().insert("memberships", {
      project_id: DEMO_KEYS.projectId,
      team_id: team.id,
      user_id: record.id,
      display_name: null,
      profile_image_url: null,
    });
    const error = await rejection(user.setSelectedTeam(other.id));
    expect(isKnownError(error, "TEAM_MEMBERSHIP_NOT_FOUND")).toBe(true);
    await user.setSelectedTeam(team.id);
    expect((await app.getUser({ or: "throw" })).selectedTeam?.displayName).toBe("Team");
    store().deleteMembership(team.id, record.id);
    expect((await app.getUser({ or: "throw" })).selectedTeam).toBeNull();
  });

  it("turns TOTP multi-factor sign-in on with a secret and off with null", async () => {
    const { user, app } = await signedIn("mfa@example.com");
    await user.update({ totpMultiFactorSecret: new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]) });
    expect((await app.getUser({ or: "throw" })).isMultiFactorRequired).toBe(true);
    await user.update({ totpMultiFactorSecret: null });
    expect((await app.getUser({ or: "throw" })).isMultiFactorRequired).toBe(false);
  });

  it("deletes itself with everything that was theirs; the session ends", async () => {
    const { user, app, record } = await signedIn("leaving@example.com");
    await user.delete();
    expect(store().user(record.id)).toBeUndefined();
    expect(
      store()
        .sessions()
        .filter((s) => s.user_id === record.id),
    ).toEqual([]);
    expect(store().channelsOf(record.id)).toEqual([]);
    expect(await app.getUser()).toBeNull();
    expect(await serverApp().getUser(record.id)).toBeNull();
  });

  it("cannot delete itself when the project does not allow it (a plain 400)", async () => {
    project().config.client_user_deletion_enabled = false;
    const { user, record } = await signedIn("staying@example.com");
    const error = await rejection(user.delete());
    expect([(error as HttpError).status, (error as HttpError).body]).toEqual([400, "Client user deletion is not enabled for this project"]);
    expect(store().user(record.id)).toBeDefined();
  });
});

describe("server code's users", () => {
  it("creates a user (201) with the fields given and null metadata otherwise", async () => {
    const user = await serverApp().createUser({
      primaryEmail: "new@example.com",
      primaryEmailAuthEnabled: true,
      password: PASSWORD,
      displayName: "New",
      serverMetadata: { plan: "pro" },
    });
    expect(
      emulator()
        .control.requests({ operationId: "createUser" })
        .map((r) => r.status),
    ).toEqual([201]);
    expect(user).toMatchObject({
      primaryEmail: "new@example.com",
      primaryEmailVerified: false,
      displayName: "New",
      hasPassword: true,
      serverMetadata: { plan: "pro" },
      clientMetadata: null,
      isAnonymous: false,
    });
    expect(store().authChannelByEmail(DEMO_KEYS.projectId, "NEW@example.com")?.user_id).toBe(user.id);
  });

  it("gives a created user a personal team when the project creates one on sign-up, after answering the user without it", async () => {
    store().project(DEMO_KEYS.projectId)!.config.create_team_on_sign_up = true;
    const created = await serverApp().createUser({ displayName: "Ada" });
    expect(created.selectedTeam).toBeNull();
    const user = (await serverApp().getUser(created.id))!;
    expect(user.selectedTeam?.displayName).toBe("Ada's Team");
    expect(store().membership(user.selectedTeam!.id, user.id)).toBeDefined();
  });

  it("refuses an e-mail another user signs in with, unless the new one does not sign in with it", async () => {
    await emulator().control.createUser({ projectId: DEMO_KEYS.projectId, email: "taken@example.com" });
    const error = await rejection(serverApp().createUser({ primaryEmail: "taken@example.com", primaryEmailAuthEnabled: true }));
    expect(isKnownError(error, "USER_EMAIL_ALREADY_EXISTS")).toBe(true);
    const second = await serverApp().createUser({ primaryEmail: "taken@example.com" });
    expect([second.primaryEmail, second.emailAuthEnabled]).toEqual(["taken@example.com", false]);
  });

  it("takes a password a sign-up would refuse as too short, and refuses e-mail sign-in without an e-mail", async () => {
    // The sign-up rules do not hold server code: only the schema's 70 characters do.
    const short = await serverApp().createUser({ primaryEmail: "p@example.com", password: "short" });
    expect(short.hasPassword).toBe(true);
    const long = await rejection(serverApp().createUser({ primaryEmail: "q@example.com", password: "x".repeat(71) }));
    expect(isKnownError(long, "SCHEMA_ERROR")).toBe(true);
    const error = await rejection(serverApp().createUser({ primaryEmailAuthEnabled: true }));
    expect([(error as HttpError).status, (error as HttpError).body]).toEqual([
      400,
      "primary_email_auth_enabled cannot be true without primary_email",
    ]);
    expect(store().sizes().users).toBe(1);
  });

  it("lists users a page at a time, oldest first or newest first, without anonymous users", async () => {
    const { control } = emulator();
    const ids: string[] = [];
    for (const name of ["u1", "u2", "u3", "u4", "u5"]) {
      ids.push((await control.createUser({ projectId: DEMO_KEYS.projectId, email: `${name}@example.com` })).id);
      control.advanceClock(1000);
    }
    await control.createUser({ projectId: DEMO_KEYS.projectId, isAnonymous: true });
    const app = serverApp();
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 3; page++) {
      const users = await app.listUsers({ limit: 2, ...(cursor !== undefined && { cursor }) });
      seen.push(...users.map((u) => u.id));
      cursor = users.nextCursor ?? undefined;
      expect(users.length).toBe(page < 2 ? 2 : 1);
      expect(users.nextCursor === null).toBe(page === 2);
    }
    expect(seen).toEqual(ids);
    const newest = await app.listUsers({ desc: true, orderBy: "signedUpAt" });
    expect(newest.map((u) => u.id)).toEqual([...ids].reverse());
    expect(newest.nextCursor).toBeNull();
  });

  it("searches e-mail addresses and display names, and lists a team's members", async () => {
    const { control } = emulator();
    const ada = await control.createUser({ projectId: DEMO_KEYS.projectId, email: "ada@lovelace.example", displayName: "Countess" });
    const alan = await control.createUser({ projectId: DEMO_KEYS.projectId, email: "alan@turing.example", displayName: "Alan" });
    const app = serverApp();
    expect((await app.listUsers({ query: "LOVELACE" })).map((u) => u.id)).toEqual([ada.id]);
    expect((await app.listUsers({ query: "count" })).map((u) => u.id)).toEqual([ada.id]);
    expect((await app.listUsers({ query: alan.id })).map((u) => u.id)).toEqual([alan.id]);
    const teamId = crypto.randomUUID();
    store().insert("memberships", {
      project_id: DEMO_KEYS.projectId,
      team_id: teamId,
      user_id: alan.id,
      display_name: null,
      profile_image_url: null,
    });
    expect((await app.listUsers({ teamId })).map((u) => u.id)).toEqual([alan.id]);
  });

  it("reads a user by id, or null for an unknown one", async () => {
    const record = await emulator().control.createUser({
      projectId: DEMO_KEYS.projectId,
      email: "read@example.com",
      serverMetadata: { a: 1 },
    });
    const user = await serverApp().getUser(record.id);
    expect(user).toMatchObject({ id: record.id, primaryEmail: "read@example.com", serverMetadata: { a: 1 } });
    expect(await serverApp().getUser(crypto.randomUUID())).toBeNull();
  });

  it("updates server fields; a new primary e-mail is a channel of its own, unverified, the old one kept", async () => {
    // With a password, so that the user signs in with the e-mail (auth_with_email).
    const record = await emulator().control.createUser({
      projectId: DEMO_KEYS.projectId,
      email: "old@example.com",
      password: "correct horse battery",
    });
    const app = serverApp();
    const user = (await app.getUser(record.id))!;
    const channelId = store().channelsOf(record.id)[0]!.id;
    await user.update({ serverMetadata: { tier: 2 }, clientReadOnlyMetadata: { role: "x" }, primaryEmail: "new@example.com" });
    const updated = (await app.getUser(record.id))!;
    expect(updated).toMatchObject({
      serverMetadata: { tier: 2 },
      clientReadOnlyMetadata: { role: "x" },
      primaryEmail: "new@example.com",
      primaryEmailVerified: false,
      emailAuthEnabled: true,
    });
    // The old address stays the user's, no longer primary, and still signs in.
    const channels = () =>
      store()
        .channelsOf(record.id)
        .map((c) => [c.value, c.is_primary]);
    expect(channels()).toEqual([
      ["old@example.com", false],
      ["new@example.com", true],
    ]);
    expect(store().channel(channelId)?.value).toBe("old@example.com");
    expect(store().authChannelByEmail(DEMO_KEYS.projectId, "old@example.com")?.user_id).toBe(record.id);
    const taken = await rejection(app.createUser({ primaryEmail: "old@example.com", primaryEmailAuthEnabled: true }));
    expect(isKnownError(taken, "USER_EMAIL_ALREADY_EXISTS")).toBe(true);
    // Removing the primary e-mail leaves the address as a channel, primary no more.
    await updated.setPrimaryEmail(null);
    expect((await app.getUser(record.id))?.primaryEmail).toBeNull();
    expect(channels()).toEqual([
      ["old@example.com", false],
      ["new@example.com", false],
    ]);
  });

  it("sets a password and so ends the user's sessions", async () => {
    const { record } = await signedIn("pw@example.com");
    const user = (await serverApp().getUser(record.id))!;
    expect(await user.setPassword({ password: "a brand new password" })).toBeUndefined();
    expect(
      store()
        .sessions()
        .filter((s) => s.user_id === record.id),
    ).toEqual([]);
    // Server code is not held to the sign-up's rules (8 characters or more).
    expect(await user.setPassword({ password: "short" })).toBeUndefined();
  });

  it("turns an anonymous user into a regular one, who is listed then", async () => {
    const created = await raw("POST", "/users", { access: "server", body: { is_anonymous: true } });
    expect([created.status, created.json.is_anonymous]).toEqual([201, true]);
    expect((await serverApp().listUsers()).map((u) => u.id)).toEqual([]);
    const answer = await raw("PATCH", `/users/${created.json.id}`, { access: "server", body: { is_anonymous: false } });
    expect(answer.json.is_anonymous).toBe(false);
    expect((await serverApp().listUsers()).map((u) => u.id)).toEqual([created.json.id]);
  });

  it("deletes a user with their sessions, channels, memberships, permissions and API keys", async () => {
    const { record } = await signedIn("gone@example.com");
    const teamId = crypto.randomUUID();
    store().insert("memberships", {
      project_id: DEMO_KEYS.projectId,
      team_id: teamId,
      user_id: record.id,
      display_name: null,
      profile_image_url: null,
    });
    store().insert("grants", {
      project_id: DEMO_KEYS.projectId,
      scope: "team",
      team_id: teamId,
      user_id: record.id,
      permission_id: "team_member",
    });
    const user = (await serverApp().getUser(record.id))!;
    await user.delete();
    expect(await serverApp().getUser(record.id)).toBeNull();
    const s = store();
    const theirs = [...s.sessions(), ...s.channelsOf(record.id), ...s.memberships(), ...s.grants()].filter((r) => r.user_id === record.id);
    expect(theirs).toEqual([]);
    const again = await raw("DELETE", `/users/${record.id}`, { access: "server" });
    expect([again.status, again.knownError]).toEqual([404, "USER_NOT_FOUND"]);
  });
});
