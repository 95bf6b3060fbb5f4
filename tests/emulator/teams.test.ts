// Teams through the SDK against the emulator: creating (the creator's default
// permissions, the project switch), reading, updating and deleting by team
// permission, memberships added and removed by server code, leaving, member
// profiles, and the invitation round trip by e-mail.
import { describe, expect, it } from "vitest";
import { DEMO_KEYS } from "../../emulator/index.js";
import type { OperationId } from "../../generated/operations.js";
import { HttpError, isKnownError, StackServerApp } from "../../runtime/index.js";
import { demoAppOptions, signedInUser, useEmulator } from "../helpers/emulator.js";

const emulator = useEmulator();

const CALLBACK = "http://localhost:3000/handler/team-invitation";

const common = () => demoAppOptions(emulator());

/** A user of the demo project, and a client app signed in as them. */
async function signedIn(email: string) {
  return signedInUser(emulator(), email);
}

const serverApp = () => new StackServerApp({ ...common(), tokenStore: null, secretServerKey: DEMO_KEYS.secretServerKey });
const store = () => emulator().engine.ctx.store;
const demoProject = () => store().project(DEMO_KEYS.projectId)!;

/** What the emulator answered the last request of an operation. */
function lastAnswer(operationId: OperationId) {
  const log = emulator().control.requests({ operationId });
  const last = log[log.length - 1];
  return last && { status: last.status, knownError: last.knownError };
}

async function thrown(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a failure");
}

/** The invitation code in the last e-mail to `to`. */
function invitationCode(to: string): string {
  const mails = emulator().control.emails({ to });
  const link = /https?:\/\/\S+/.exec(mails[mails.length - 1]?.text ?? "")?.[0];
  const code = link && new URL(link).searchParams.get("code");
  if (!code) throw new Error(`no invitation link mailed to ${to}`);
  return code;
}

describe("creating and reading teams", () => {
  it("makes the creator a member with the team-creator permissions, selects the team and lists it", async () => {
    const { user, app, record } = await signedIn("ada@example.com");
    const team = await user.createTeam({ displayName: "Engineering" });
    expect(team.displayName).toBe("Engineering");
    expect((await user.listTeams()).map((t) => t.id)).toEqual([team.id]);
    expect((await app.getUser({ or: "throw" })).selectedTeam?.id).toBe(team.id);
    expect((await user.listPermissions(team, { recursive: false })).map((p) => p.id)).toEqual(["team_admin"]);
    expect(await user.hasPermission(team, "$delete_team")).toBe(true);
    expect(store().membership(team.id, record.id)).toBeDefined();
    expect(lastAnswer("createTeam")).toEqual({ status: 201, knownError: null });
  });

  it("refuses client team creation when the project turns it off, with the service's status error", async () => {
    const { user } = await signedIn("ada@example.com");
    demoProject().config.client_team_creation_enabled = false;
    const error = await thrown(user.createTeam({ displayName: "Nope" }));
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).status).toBe(403);
    expect((error as HttpError).body).toBe("Client team creation is disabled for this project");
    expect(
      store()
        .teams()
        .filter((team) => team.project_id === demoProject().id),
    ).toEqual([]);
  });

  it("shows a client only its own teams; the server reads any, in the server view, and null for none", async () => {
    const ada = await signedIn("ada@example.com");
    const bob = await signedIn("bob@example.com");
    const team = await ada.user.createTeam({ displayName: "Ada's" });
    expect(await bob.user.getTeam(team.id)).toBeNull();
    expect(lastAnswer("getTeam")).toEqual({ status: 404, knownError: "TEAM_MEMBERSHIP_NOT_FOUND" });
    expect((await ada.user.getTeam(team.id))?.displayName).toBe("Ada's");
    expect(await bob.user.listTeams()).toEqual([]);

    const server = serverApp();
    const read = await server.getTeam(team.id);
    expect(read?.createdAt).toBeInstanceOf(Date);
    expect(read?.serverMetadata).toBeNull();
    expect(await server.getTeam("00000000-0000-4000-8000-000000000000")).toBeNull();
    expect(lastAnswer("getTeam")).toEqual({ status: 404, knownError: "TEAM_NOT_FOUND" });
    const other = await server.createTeam({ displayName: "No members" });
    expect((await server.listTeams()).map((t) => t.displayName)).toEqual(["Ada's", "No members"]);
    expect((await other.listUsers()).length).toBe(0);
  });
});

describe("updating and deleting teams", () => {
  it("lets a holder of $update_team change the team, refuses a plain member, and the server sets any field", async () => {
    const ada = await signedIn("ada@example.com");
    const bob = await signedIn("bob@example.com");
    const team = await ada.user.createTeam({ displayName: "Before" });
    await team.update({ displayName: "After", clientMetadata: { plan: "pro" } });
    const server = serverApp();
    const serverTeam = (await server.getTeam(team.id))!;
    expect(serverTeam.displayName).toBe("After");
    expect(serverTeam.clientMetadata).toEqual({ plan: "pro" });

    await serverTeam.addUser(bob.record.id);
    const bobsView = (await bob.user.getTeam(team.id))!;
    const error = await thrown(bobsView.update({ displayName: "Hijacked" }));
    expect(isKnownError(error, "TEAM_PERMISSION_REQUIRED")).toBe(true);
    expect((error as { details?: unknown }).details).toEqual({ team_id: team.id, user_id: bob.record.id, permission_id: "$update_team" });

    await serverTeam.update({ serverMetadata: { tier: 3 }, clientReadOnlyMetadata: { seats: 5 } });
    const reread = (await server.getTeam(team.id))!;
    expect([reread.displayName, reread.serverMetadata, reread.clientReadOnlyMetadata]).toEqual(["After", { tier: 3 }, { seats: 5 }]);
  });

  it("deletes a team with its memberships, grants, invitations and selections; a member without $delete_team cannot", async () => {
    const ada = await signedIn("ada@example.com");
    const bob = await signedIn("bob@example.com");
    const team = await ada.user.createTeam({ displayName: "Doomed" });
    await (await serverApp().getTeam(team.id))!.addUser(bob.record.id);
    await team.inviteUser({ email: "carol@example.com", callbackUrl: CALLBACK });

    expect(isKnownError(await thrown((await bob.user.getTeam(team.id))!.delete()), "TEAM_PERMISSION_REQUIRED")).toBe(true);
    await team.delete();
    const s = store();
    expect(s.team(team.id)).toBeUndefined();
    expect(s.memberships().filter((m) => m.team_id === team.id)).toEqual([]);
    expect(s.grants().filter((g) => g.team_id === team.id)).toEqual([]);
    expect(s.user(ada.record.id)?.selected_team_id).toBeNull();
    expect(await ada.user.listTeams()).toEqual([]);
    expect((await bob.app.verifyTeamInvitationCode(invitationCode("carol@example.com"))).status).toBe("error");
  });
});

describe("memberships and member profiles", () => {
  it("adds and removes members from server code, with the member default permissions", async () => {
    const ada = await signedIn("ada@example.com");
    const bob = await signedIn("bob@example.com");
    const team = (await serverApp().getTeam((await ada.user.createTeam({ displayName: "Crew" })).id))!;
    await team.addUser(bob.record.id);
    expect(lastAnswer("addTeamMember")).toEqual({ status: 201, knownError: null });
    expect((await bob.user.listPermissions(team, { recursive: false })).map((p) => p.id)).toEqual(["team_member"]);
    expect((await bob.user.listPermissions(team)).map((p) => p.id)).toEqual(["$invite_members", "$read_members", "team_member"]);
    expect(isKnownError(await thrown(team.addUser(bob.record.id)), "TEAM_MEMBERSHIP_ALREADY_EXISTS")).toBe(true);
    expect((await team.listUsers()).map((u) => [u.id, u.primaryEmail]).sort()).toEqual(
      [
        [ada.record.id, "ada@example.com"],
        [bob.record.id, "bob@example.com"],
      ].sort(),
    );

    await team.removeUser(bob.record.id);
    expect(await bob.user.listTeams()).toEqual([]);
    expect(
      store()
        .grants()
        .filter((g) => g.user_id === bob.record.id),
    ).toEqual([]);
    expect(isKnownError(await thrown(team.removeUser(bob.record.id)), "TEAM_MEMBERSHIP_NOT_FOUND")).toBe(true);
    expect(isKnownError(await thrown(team.addUser("00000000-0000-4000-8000-000000000000")), "USER_NOT_FOUND")).toBe(true);
  });

  it("lets a member leave, and keeps member profiles apart from the user's own name", async () => {
    const ada = await signedIn("ada@example.com");
    const bob = await signedIn("bob@example.com");
    const team = await ada.user.createTeam({ displayName: "Crew" });
    await (await serverApp().getTeam(team.id))!.addUser(bob.record.id);

    const profile = await bob.user.getTeamProfile(team);
    expect(profile.displayName).toBeNull();
    await profile.update({ displayName: "Bob the Builder" });
    expect((await bob.user.getTeamProfile(team)).displayName).toBe("Bob the Builder");
    const members = await team.listUsers();
    expect(members.find((m) => m.id === bob.record.id)?.teamProfile.displayName).toBe("Bob the Builder");
    expect((await bob.app.getUser({ or: "throw" })).displayName).toBeNull();

    await bob.user.leaveTeam(team);
    expect(await bob.user.listTeams()).toEqual([]);
    expect((await team.listUsers()).map((m) => m.id)).toEqual([ada.record.id]);
  });

  it("needs $read_members to list the other members", async () => {
    const ada = await signedIn("ada@example.com");
    const bob = await signedIn("bob@example.com");
    const team = await ada.user.createTeam({ displayName: "Quiet" });
    const server = serverApp();
    await (await server.getTeam(team.id))!.addUser(bob.record.id);
    await (await server.getUser(bob.record.id))!.revokePermission(team, "team_member");
    const bobsView = (await bob.user.getTeam(team.id))!;
    const error = await thrown(bobsView.listUsers());
    expect(isKnownError(error, "TEAM_PERMISSION_REQUIRED")).toBe(true);
    expect((await bob.user.getTeamProfile(team)).displayName).toBeNull();
  });
});

describe("invitations", () => {
  it("mails a link whose code lets the invitee see the team and join it once", async () => {
    const ada = await signedIn("ada@example.com");
    const bob = await signedIn("bob@example.com");
    const team = await ada.user.createTeam({ displayName: "Invited" });
    await team.inviteUser({ email: "bob@example.com", callbackUrl: CALLBACK });
    expect(lastAnswer("sendTeamInvitation")).toEqual({ status: 200, knownError: null });
    const pending = await team.listInvitations();
    expect(pending.map((i) => i.recipientEmail)).toEqual(["bob@example.com"]);
    expect(pending[0]!.expiresAt.getTime()).toBeGreaterThan(emulator().control.now());

    const code = invitationCode("bob@example.com");
    expect(emulator().control.emails({ to: "bob@example.com" })[0]?.text).toContain(`${CALLBACK}?code=`);
    expect((await bob.app.verifyTeamInvitationCode(code)).status).toBe("ok");
    expect(await bob.app.getTeamInvitationDetails(code)).toEqual({ status: "ok", data: { teamDisplayName: "Invited" } });
    expect((await bob.app.acceptTeamInvitation(code)).status).toBe("ok");
    expect((await bob.user.listTeams()).map((t) => t.id)).toEqual([team.id]);
    expect(await bob.user.hasPermission(team, "$read_members")).toBe(true);
    expect(await team.listInvitations()).toEqual([]);

    const again = await bob.app.acceptTeamInvitation(code);
    expect(again.status === "error" && isKnownError(again.error, "VERIFICATION_CODE_ALREADY_USED")).toBe(true);
  });

  it("revokes a pending invitation, refuses untrusted links, and needs $invite_members to invite", async () => {
    const ada = await signedIn("ada@example.com");
    const bob = await signedIn("bob@example.com");
    const team = await ada.user.createTeam({ displayName: "Closed" });
    await team.inviteUser({ email: "carol@example.com", callbackUrl: CALLBACK });
    const [invitation] = await team.listInvitations();
    await invitation!.revoke();
    expect(await team.listInvitations()).toEqual([]);
    const revoked = await bob.app.acceptTeamInvitation(invitationCode("carol@example.com"));
    expect(revoked.status === "error" && isKnownError(revoked.error, "VERIFICATION_CODE_NOT_FOUND")).toBe(true);

    const untrusted = await thrown(team.inviteUser({ email: "dan@example.com", callbackUrl: "https://evil.example.com/join" }));
    expect(isKnownError(untrusted, "REDIRECT_URL_NOT_WHITELISTED")).toBe(true);

    const server = serverApp();
    await (await server.getTeam(team.id))!.addUser(bob.record.id);
    await (await server.getUser(bob.record.id))!.revokePermission(team, "team_member");
    const bobsView = (await bob.user.getTeam(team.id))!;
    expect(
      isKnownError(await thrown(bobsView.inviteUser({ email: "erin@example.com", callbackUrl: CALLBACK })), "TEAM_PERMISSION_REQUIRED"),
    ).toBe(true);
    expect(emulator().control.emails({ to: "erin@example.com" })).toEqual([]);
  });

  it("checks an invitation code without using it, and expires it with the clock", async () => {
    const ada = await signedIn("ada@example.com");
    const bob = await signedIn("bob@example.com");
    const team = await ada.user.createTeam({ displayName: "Later" });
    await team.inviteUser({ email: "bob@example.com", callbackUrl: CALLBACK });
    const code = invitationCode("bob@example.com");
    expect((await bob.app.verifyTeamInvitationCode(code)).status).toBe("ok");
    expect((await bob.app.verifyTeamInvitationCode(code.toUpperCase())).status).toBe("ok");
    emulator().control.advanceClock(8 * 24 * 3600_000);
    const expired = await bob.app.acceptTeamInvitation(code);
    expect(expired.status === "error" && isKnownError(expired.error, "VERIFICATION_CODE_EXPIRED")).toBe(true);
    expect(await bob.user.listTeams()).toEqual([]);
  });
});

describe("the service's refusals on the wire", () => {
  it("lets a client list only its own teams, and server code any user's", async () => {
    const ada = await signedIn("ada@example.com");
    const bob = await signedIn("bob@example.com");
    const team = await ada.user.createTeam({ displayName: "Ada's" });
    const others = await raw("GET", `/teams?user_id=${ada.record.id}`, { client: bob.tokens.accessToken });
    expect(others.status).toBe(403);
    const mine = await raw("GET", "/teams?user_id=me", { client: ada.tokens.accessToken });
    expect((await mine.json()).items.map((t: { id: string }) => t.id)).toEqual([team.id]);
    const byServer = await raw("GET", `/teams?user_id=${bob.record.id}`, { server: true });
    expect(await byServer.json()).toEqual({ items: [], is_paginated: false });
  });

  it("needs $remove_members for a client to remove someone else", async () => {
    const ada = await signedIn("ada@example.com");
    const bob = await signedIn("bob@example.com");
    const team = await ada.user.createTeam({ displayName: "Crew" });
    await (await serverApp().getTeam(team.id))!.addUser(bob.record.id);
    const refused = await raw("DELETE", `/team-memberships/${team.id}/${ada.record.id}`, { client: bob.tokens.accessToken, body: {} });
    expect(await refused.json()).toMatchObject({ code: "TEAM_PERMISSION_REQUIRED", details: { permission_id: "$remove_members" } });
    const removed = await raw("DELETE", `/team-memberships/${team.id}/${bob.record.id}`, { client: ada.tokens.accessToken, body: {} });
    expect(await removed.json()).toEqual({ success: true });
    expect(await bob.user.listTeams()).toEqual([]);
  });

  it("uses an invitation code up even when nobody is signed in to accept it, as the service does", async () => {
    const ada = await signedIn("ada@example.com");
    const team = await ada.user.createTeam({ displayName: "Open" });
    await team.inviteUser({ email: "bob@example.com", callbackUrl: CALLBACK });
    const code = invitationCode("bob@example.com");
    const anonymous = await raw("POST", "/team-invitations/accept", { body: { code } });
    expect((await anonymous.json()).code).toBe("USER_AUTHENTICATION_REQUIRED");
    const bob = await signedIn("bob@example.com");
    const used = await bob.app.acceptTeamInvitation(code);
    expect(used.status === "error" && isKnownError(used.error, "VERIFICATION_CODE_ALREADY_USED")).toBe(true);
    const short = await raw("POST", "/team-invitations/accept/check-code", { body: { code: "too-short" } });
    expect((await short.json()).code).toBe("SCHEMA_ERROR");
  });
});

/** A request as a client (with a user's access token, or none) or as server code. */
function raw(method: string, path: string, as: { client?: string; server?: boolean; body?: unknown }): Promise<Response> {
  const e = emulator();
  const headers: Record<string, string> = { "x-stack-project-id": DEMO_KEYS.projectId };
  if (as.server) Object.assign(headers, { "x-stack-access-type": "server", "x-stack-secret-server-key": DEMO_KEYS.secretServerKey });
  else Object.assign(headers, { "x-stack-access-type": "client", "x-stack-publishable-client-key": DEMO_KEYS.publishableClientKey });
  if (as.client) headers["x-stack-access-token"] = as.client;
  if (as.body !== undefined) headers["content-type"] = "application/json";
  return e.fetch(
    new Request(`${e.apiOrigin}/api/v1${path}`, { method, headers, ...(as.body === undefined ? {} : { body: JSON.stringify(as.body) }) }),
  );
}
