// Objects act only for the session they were read in. Alice signs in, the app
// keeps her user and what it reached through it (teams, member profiles,
// invitations, contact channels, sessions, API keys, permissions); then her
// session ends or another takes the store's place. Every call on her old
// objects must reject with a SessionEndedError (a CANNOT_GET_OWN_USER_WITHOUT_USER),
// send nothing, and change nothing: not Bob, not Alice, not who is signed in.
// A refreshed access token is the same session: there the objects go on working.
import { describe, expect, it } from "vitest";
import { DEMO_KEYS, INTERNAL_KEYS } from "../../emulator/index.js";
import {
  KnownErrors,
  SessionEndedError,
  StackClientApp,
  StackServerApp,
  isKnownError,
  type CurrentInternalUser,
  type CurrentUser,
} from "../../runtime/index.js";
import { demoAppOptions, TEST_PASSWORD, useEmulator } from "../helpers/emulator.js";

const emulator = useEmulator();
const control = () => emulator().control;
const storedUser = (id: string) => emulator().engine.ctx.store.user(id);

/** What happens to Alice's session after her objects were read. */
const STALE = {
  "signed out": (app: StackClientApp) => app.signOut(),
  "replaced by another user": (app: StackClientApp) => signIn(app, "bob@example.com"),
  "replaced by the same user signing in again": (app: StackClientApp) => signIn(app, "alice@example.com"),
} as const;
type Stale = keyof typeof STALE;

async function signIn(app: StackClientApp, email: string): Promise<void> {
  const result = await app.signInWithCredential({ email, password: TEST_PASSWORD, noRedirect: true });
  expect(result.status).toBe("ok");
}

/** Alice and Bob in the demo project; an app signed in as Alice; Alice's objects, read in her session. */
async function aliceWorld(projectId: string = DEMO_KEYS.projectId, keys: { publishableClientKey: string } = DEMO_KEYS) {
  const alice = await control().createUser({ projectId, email: "alice@example.com", password: TEST_PASSWORD, displayName: "Alice" });
  const bob = await control().createUser({ projectId, email: "bob@example.com", password: TEST_PASSWORD, displayName: "Bob" });
  const app = new StackClientApp({
    ...demoAppOptions(emulator()),
    projectId,
    publishableClientKey: keys.publishableClientKey,
    tokenStore: "memory",
    redirectMethod: "none",
  });
  await signIn(app, "alice@example.com");
  const user = await app.getUser({ or: "throw" });
  return { alice, bob, app, user };
}

/**
 * Everything reachable from Alice's user, read while her session was the app's,
 * and her user read again (with its selected team). She is also signed in
 * elsewhere, so that one of her sessions can be revoked.
 */
async function aliceObjects(app: StackClientApp, first: CurrentUser) {
  const team = await first.createTeam({ displayName: "Alice's team" });
  await first.setSelectedTeam(team);
  await control().createSession(first.id);
  const user = await app.getUser({ or: "throw" });
  const [member] = await team.listUsers();
  const profile = await user.getTeamProfile(team);
  await team.inviteUser({ email: "carol@example.com", callbackUrl: "http://localhost:5173/handler/team-invitation" });
  const [invitation] = await team.listInvitations();
  const [channel] = await user.listContactChannels();
  const session = (await user.getActiveSessions()).find((s) => !s.isCurrentSession);
  const key = await user.createApiKey({ description: "Alice's key", expiresAt: null });
  const teamKey = await team.createApiKey({ description: "Team key", expiresAt: null });
  return { user, team, member: member!, profile, invitation: invitation!, channel: channel!, session: session!, key, teamKey };
}

type Objects = Awaited<ReturnType<typeof aliceObjects>>;

/** One call per object kind and method family; each would send a request if it went. */
const CALLS: Record<string, (user: CurrentUser, o: Objects) => Promise<unknown>> = {
  "user.update": (user) => user.update({ displayName: "Mallory" }),
  "user.setDisplayName": (user) => user.setDisplayName("Mallory"),
  "user.delete": (user) => user.delete(),
  "user.signOut": (user) => user.signOut(),
  "user.currentSession.getTokens": (user) => user.currentSession.getTokens(),
  "user.getAuthJson": (user) => user.getAuthJson(),
  "user.getAuthHeaders": (user) => user.getAuthHeaders(),
  "user.sendVerificationEmail": (user) => user.sendVerificationEmail({ callbackUrl: "http://localhost:5173/handler/email-verification" }),
  "user.updatePassword": (user) => user.updatePassword({ oldPassword: TEST_PASSWORD, newPassword: "a whole new password" }),
  "user.setPassword": (user) => user.setPassword({ password: "a whole new password" }),
  "user.listTeams": (user) => user.listTeams(),
  "user.createTeam": (user) => user.createTeam({ displayName: "Mallory's team" }),
  "user.leaveTeam": (user, o) => user.leaveTeam(o.team),
  "user.listApiKeys": (user) => user.listApiKeys(),
  "user.listContactChannels": (user) => user.listContactChannels(),
  "user.getActiveSessions": (user) => user.getActiveSessions(),
  "user.revokeSession": (user, o) => user.revokeSession(o.session.id),
  "user.listPermissions": (user, o) => user.listPermissions(o.team),
  "user.getConnectedAccount": (user) => user.getConnectedAccount("github"),
  "user.selectedTeam.update": (user) => user.selectedTeam!.update({ displayName: "Renamed" }),
  "team.update": (_, o) => o.team.update({ displayName: "Renamed" }),
  "team.delete": (_, o) => o.team.delete(),
  "team.listUsers": (_, o) => o.team.listUsers(),
  "team.inviteUser": (_, o) =>
    o.team.inviteUser({ email: "dave@example.com", callbackUrl: "http://localhost:5173/handler/team-invitation" }),
  "team.createApiKey": (_, o) => o.team.createApiKey({ description: "more", expiresAt: null }),
  "team member profile.update": (_, o) => o.profile.update({ displayName: "Mallory" }),
  "team invitation.revoke": (_, o) => o.invitation.revoke(),
  "contact channel.update": (_, o) => o.channel.update({ value: "mallory@example.com" }),
  "contact channel.delete": (_, o) => o.channel.delete(),
  "contact channel.sendVerificationEmail": (_, o) =>
    o.channel.sendVerificationEmail({ callbackUrl: "http://localhost:5173/handler/email-verification" }),
  "user API key.revoke": (_, o) => o.key.revoke(),
  "user API key.update": (_, o) => o.key.update({ description: "Mallory's key" }),
  "team API key.revoke": (_, o) => o.teamKey.revoke(),
};

/** Rejects as a stale object must: the typed error, in the reference's class. */
async function expectSessionEnded(call: Promise<unknown>): Promise<void> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SessionEndedError);
  expect(error).toBeInstanceOf(KnownErrors.CannotGetOwnUserWithoutUser);
  expect(isKnownError(error, "CANNOT_GET_OWN_USER_WITHOUT_USER")).toBe(true);
  expect((error as SessionEndedError).message).toBe(
    "This object was read in a session that has ended (signed out, or replaced by another sign-in), so it no longer acts for anyone and nothing was sent. Get the user again with app.getUser().",
  );
}

/** What must be as it was: both users (by id), their names, the teams, and who is signed in. */
async function stateOf(app: StackClientApp, ids: { readonly alice: string; readonly bob: string }) {
  const current = await app.getUser({ or: "anonymous-if-exists" });
  return {
    current: current && { id: current.id, displayName: current.displayName },
    alice: storedUser(ids.alice)?.display_name,
    bob: storedUser(ids.bob)?.display_name,
    teams: emulator()
      .engine.ctx.store.teams()
      .map((t) => t.display_name)
      .sort(),
  };
}

describe.each(Object.keys(STALE) as Stale[])("Alice's objects once her session is %s", (stale) => {
  it.each(Object.keys(CALLS))("%s rejects with SessionEndedError, sends nothing and changes nothing", async (name) => {
    const { app, user: first, alice, bob } = await aliceWorld();
    const ids = { alice: alice.id, bob: bob.id };
    const { user, ...objects } = await aliceObjects(app, first);
    await STALE[stale](app);
    const before = await stateOf(app, ids);
    control().clearRequests();
    await expectSessionEnded(CALLS[name]!(user, { user, ...objects }));
    expect(control().requests()).toEqual([]);
    expect(await stateOf(app, ids)).toEqual(before);
  });
});

describe("Alice's objects after her access token was refreshed", () => {
  it.each(Object.keys(CALLS))("%s still acts for Alice's session", async (name) => {
    const { app, user: first, alice } = await aliceWorld();
    const objects = await aliceObjects(app, first);
    const { refreshToken } = await app.getAuthJson();
    // Past the access token's lifetime: the next call refreshes it first; the session is the same.
    control().advanceClock(11 * 60_000);
    control().clearRequests();
    // Whatever the service answers (shared OAuth keys give no access token), the call went.
    const outcome = await CALLS[name]!(objects.user, objects).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(outcome).not.toBeInstanceOf(SessionEndedError);
    const sent = control()
      .requests()
      .map((r) => r.operationId);
    expect(sent[0]).toBe("exchangeOAuthToken");
    expect(sent.length).toBeGreaterThan(
      name.endsWith("getTokens") || name.endsWith("getAuthJson") || name.endsWith("getAuthHeaders") ? 0 : 1,
    );
    if (name !== "user.signOut" && name !== "user.delete") {
      expect((await app.getAuthJson()).refreshToken).toBe(refreshToken);
      expect((await app.getUser({ or: "throw" })).id).toBe(alice.id);
    }
  });
});

describe("the scenario of the report", () => {
  it("Alice's kept object neither renames, lists, deletes nor signs out Bob", async () => {
    const { app, user: kept } = await aliceWorld();
    await app.signOut();
    await signIn(app, "bob@example.com");
    const bob = await app.getUser({ or: "throw" });
    control().clearRequests();
    await expectSessionEnded(kept.update({ displayName: "Mallory" }));
    await expectSessionEnded(kept.listTeams());
    await expectSessionEnded(kept.delete());
    await expectSessionEnded(kept.signOut());
    expect(control().requests()).toEqual([]);
    const now = await app.getUser({ or: "throw" });
    expect([now.id, now.displayName]).toEqual([bob.id, "Bob"]);
    // Bob's own object acts for Bob.
    await bob.update({ displayName: "Robert" });
    expect((await app.getUser({ or: "throw" })).displayName).toBe("Robert");
  });

  it("an object read again in the new session acts for it", async () => {
    const { app } = await aliceWorld();
    await signIn(app, "alice@example.com");
    const again = await app.getUser({ or: "throw" });
    await again.setDisplayName("Alice Again");
    expect((await app.getUser({ or: "throw" })).displayName).toBe("Alice Again");
  });
});

describe("owned projects (internal project)", () => {
  it.each(Object.keys(STALE) as Stale[])("once the owner's session is %s, the project and its admin app send nothing", async (stale) => {
    const { app, user } = await aliceWorld(INTERNAL_KEYS.projectId, INTERNAL_KEYS);
    const owner = user as CurrentInternalUser;
    const project = await owner.createProject({ displayName: "Alice's project" });
    const [listed] = await owner.listOwnedProjects();
    await STALE[stale](app);
    control().clearRequests();
    await expectSessionEnded(project.update({ displayName: "Mallory's project" }));
    await expectSessionEnded(listed!.app.listInternalApiKeys());
    await expectSessionEnded(project.app.getProject());
    await expectSessionEnded(owner.listOwnedProjects());
    expect(control().requests()).toEqual([]);
    expect(emulator().engine.ctx.store.project(project.id)?.display_name).toBe("Alice's project");
  });
});

describe("a server app's users", () => {
  const serverApp = (tokenStore: "memory" | null = null) =>
    new StackServerApp({ ...demoAppOptions(emulator()), tokenStore, secretServerKey: DEMO_KEYS.secretServerKey, redirectMethod: "none" });

  it("a per-request user whose session signed out acts no more, by id included", async () => {
    const { alice } = await aliceWorld();
    const tokens = await control().createSession(alice.id);
    const app = serverApp();
    const user = await app.getUser({ tokenStore: tokens, or: "throw" });
    await user.signOut();
    control().clearRequests();
    await expectSessionEnded(user.update({ displayName: "Mallory" }));
    await expectSessionEnded(user.setServerMetadata({ role: "admin" }));
    await expectSessionEnded(user.listTeams());
    await expectSessionEnded(user.delete());
    await expectSessionEnded(user.getAuthJson());
    expect(control().requests()).toEqual([]);
    expect(storedUser(alice.id)?.display_name).toBe("Alice");
    // Another request's user is not affected.
    const other = await app.getUser({ tokenStore: await control().createSession(alice.id), or: "throw" });
    await other.setDisplayName("Alice B.");
    expect(storedUser(alice.id)?.display_name).toBe("Alice B.");
  });

  it.each(Object.keys(STALE) as Stale[])("the app's own session's user, once %s, acts no more", async (stale) => {
    await aliceWorld();
    const app = serverApp("memory");
    await signIn(app, "alice@example.com");
    const user = await app.getUser({ or: "throw" });
    await STALE[stale](app);
    control().clearRequests();
    await expectSessionEnded(user.update({ displayName: "Mallory" }));
    await expectSessionEnded(user.setServerMetadata({ role: "admin" }));
    await expectSessionEnded(user.signOut());
    expect(control().requests()).toEqual([]);
    expect((await serverApp().getUser(user.id))?.displayName).toBe("Alice");
  });

  it("users read by id act by id with the secret key: no session to outlive", async () => {
    const { alice, app } = await aliceWorld();
    const byId = await serverApp().getUser(alice.id);
    await app.signOut();
    await byId!.setDisplayName("Alice by id");
    expect(storedUser(alice.id)?.display_name).toBe("Alice by id");
  });
});
