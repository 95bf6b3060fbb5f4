// Permissions through the SDK against the emulator: the admin's team and project
// permission definitions (system permissions, containment, renames, deletion),
// grants by server code at team and project level, and what users see of them,
// recursively or directly.
import { describe, expect, it } from "vitest";
import { DEMO_KEYS } from "../../emulator/index.js";
import type { OperationId } from "../../generated/operations.js";
import { isKnownError, StackAdminApp, StackClientApp, StackServerApp } from "../../runtime/index.js";
import { demoAppOptions, signedInUser, useEmulator } from "../helpers/emulator.js";

const emulator = useEmulator();

const common = () => demoAppOptions(emulator());

const serverApp = () => new StackServerApp({ ...common(), tokenStore: null, secretServerKey: DEMO_KEYS.secretServerKey });
const adminApp = () =>
  new StackAdminApp({
    ...common(),
    tokenStore: null,
    secretServerKey: DEMO_KEYS.secretServerKey,
    superSecretAdminKey: DEMO_KEYS.superSecretAdminKey,
  });

/** A user of the demo project, a client app signed in as them, and their server-side user. */
async function signedIn(email: string) {
  const { record, tokens, app, user } = await signedInUser(emulator(), email);
  const serverUser = (await serverApp().getUser(record.id))!;
  return { record, tokens, app, user, serverUser };
}

async function thrown(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a failure");
}

function lastAnswer(operationId: OperationId) {
  const log = emulator().control.requests({ operationId });
  const last = log[log.length - 1];
  return last && { status: last.status, knownError: last.knownError };
}

const SYSTEM = ["$delete_team", "$invite_members", "$manage_api_keys", "$read_members", "$remove_members", "$update_team"];

describe("permission definitions", () => {
  it("lists the team permissions with the system ones, sorted, and creates, renames and deletes custom ones", async () => {
    const admin = adminApp();
    const seeded = await admin.listTeamPermissionDefinitions();
    expect(seeded.map((d) => d.id)).toEqual([...SYSTEM, "team_admin", "team_member"]);
    expect(seeded.find((d) => d.id === "team_member")?.containedPermissionIds).toEqual(["$invite_members", "$read_members"]);
    expect(seeded.find((d) => d.id === "$update_team")).toEqual({
      id: "$update_team",
      description: "Update the team information",
      containedPermissionIds: [],
    });

    const created = await admin.createTeamPermissionDefinition({
      id: "moderator",
      containedPermissionIds: ["$remove_members", "$read_members"],
    });
    expect(created).toEqual({ id: "moderator", containedPermissionIds: ["$read_members", "$remove_members"] });
    expect(lastAnswer("createTeamPermissionDefinition")).toEqual({ status: 201, knownError: null });

    await admin.updateTeamPermissionDefinition("moderator", { id: "mod", description: "Keeps order" });
    const listed = await admin.listTeamPermissionDefinitions();
    expect(listed.find((d) => d.id === "mod")).toEqual({
      id: "mod",
      description: "Keeps order",
      containedPermissionIds: ["$read_members", "$remove_members"],
    });
    expect(listed.some((d) => d.id === "moderator")).toBe(false);

    await admin.deleteTeamPermissionDefinition("mod");
    expect((await admin.listTeamPermissionDefinitions()).map((d) => d.id)).toEqual([...SYSTEM, "team_admin", "team_member"]);
    expect(isKnownError(await thrown(admin.deleteTeamPermissionDefinition("mod")), "PERMISSION_NOT_FOUND")).toBe(true);
  });

  it("answers the service's errors for duplicate ids, unknown contained ids, bad ids and the other scope", async () => {
    const admin = adminApp();
    await admin.createProjectPermissionDefinition({ id: "billing" });
    for (const id of ["team_admin", "billing"]) {
      const error = await thrown(admin.createTeamPermissionDefinition({ id }));
      expect(isKnownError(error, "PERMISSION_ID_ALREADY_EXISTS")).toBe(true);
      expect((error as { details?: unknown }).details).toEqual({ permission_id: id });
    }
    const contained = await thrown(admin.createTeamPermissionDefinition({ id: "auditor", containedPermissionIds: ["billing"] }));
    expect(isKnownError(contained, "CONTAINED_PERMISSION_NOT_FOUND")).toBe(true);
    expect(isKnownError(await thrown(admin.createTeamPermissionDefinition({ id: "Has Spaces" })), "SCHEMA_ERROR")).toBe(true);
    expect(isKnownError(await thrown(admin.createTeamPermissionDefinition({ id: "$own_system" })), "SCHEMA_ERROR")).toBe(true);
    expect(isKnownError(await thrown(admin.updateTeamPermissionDefinition("billing", { description: "x" })), "PERMISSION_NOT_FOUND")).toBe(
      true,
    );
    expect(
      isKnownError(await thrown(admin.updateTeamPermissionDefinition("team_member", { id: "team_admin" })), "PERMISSION_ID_ALREADY_EXISTS"),
    ).toBe(true);
    expect((await admin.listTeamPermissionDefinitions()).some((d) => d.id === "auditor")).toBe(false);
  });

  it("keeps project permissions apart, with containment, and drops grants of a deleted one", async () => {
    const admin = adminApp();
    await admin.createProjectPermissionDefinition({ id: "read_invoices", description: "See invoices" });
    await admin.createProjectPermissionDefinition({ id: "billing_admin", containedPermissionIds: ["read_invoices"] });
    expect((await admin.listProjectPermissionDefinitions()).map((d) => [d.id, d.containedPermissionIds])).toEqual([
      ["billing_admin", ["read_invoices"]],
      ["read_invoices", []],
    ]);
    const { serverUser, user } = await signedIn("ada@example.com");
    await serverUser.grantPermission("billing_admin");
    expect((await user.listPermissions()).map((p) => p.id)).toEqual(["billing_admin", "read_invoices"]);

    await admin.deleteProjectPermissionDefinition("read_invoices");
    expect((await admin.listProjectPermissionDefinitions()).map((d) => [d.id, d.containedPermissionIds])).toEqual([["billing_admin", []]]);
    expect((await user.listPermissions()).map((p) => p.id)).toEqual(["billing_admin"]);
    await admin.deleteProjectPermissionDefinition("billing_admin");
    expect(await user.listPermissions()).toEqual([]);
    expect(emulator().engine.ctx.store.sizes().grants).toBe(0);
  });
});

describe("project permissions", () => {
  it("grants, lists recursively or directly, checks from the client and revokes", async () => {
    const admin = adminApp();
    await admin.createProjectPermissionDefinition({ id: "read_invoices" });
    await admin.createProjectPermissionDefinition({ id: "billing_admin", containedPermissionIds: ["read_invoices"] });
    const { serverUser, user, record } = await signedIn("ada@example.com");

    await serverUser.grantPermission("billing_admin");
    expect(lastAnswer("grantProjectPermission")).toEqual({ status: 201, knownError: null });
    expect(await user.hasPermission("read_invoices")).toBe(true);
    expect((await user.listPermissions({ recursive: false })).map((p) => p.id)).toEqual(["billing_admin"]);
    expect((await serverUser.listPermissions()).map((p) => p.id)).toEqual(["billing_admin", "read_invoices"]);

    // Only a direct grant can be revoked.
    expect(isKnownError(await thrown(serverUser.revokePermission("read_invoices")), "PERMISSION_NOT_FOUND")).toBe(true);
    await serverUser.revokePermission("billing_admin");
    expect(await user.hasPermission("read_invoices")).toBe(false);
    expect(isKnownError(await thrown(serverUser.revokePermission("billing_admin")), "PERMISSION_NOT_FOUND")).toBe(true);
    expect(record.id).toBe(serverUser.id);
  });

  it("refuses unknown permissions and team permissions at project level", async () => {
    const { serverUser } = await signedIn("ada@example.com");
    expect(isKnownError(await thrown(serverUser.grantPermission("nonexistent")), "PERMISSION_NOT_FOUND")).toBe(true);
    const scope = await thrown(serverUser.grantPermission("team_admin"));
    expect(isKnownError(scope, "WRONG_PERMISSION_SCOPE")).toBe(true);
    expect((scope as { details?: unknown }).details).toEqual({
      permission_id: "team_admin",
      expected_scope: "project",
      actual_scope: "team",
    });
    expect(isKnownError(await thrown(serverUser.grantPermission("$update_team")), "PERMISSION_NOT_FOUND")).toBe(true);
  });
});

describe("team permissions", () => {
  it("grants a custom team permission to a member, with what it contains, and revokes only direct grants", async () => {
    const admin = adminApp();
    await admin.createTeamPermissionDefinition({ id: "moderator", containedPermissionIds: ["$remove_members"] });
    const ada = await signedIn("ada@example.com");
    const bob = await signedIn("bob@example.com");
    const team = await ada.user.createTeam({ displayName: "Mods" });
    const serverTeam = (await serverApp().getTeam(team.id))!;
    await serverTeam.addUser(bob.record.id);

    expect(await bob.user.hasPermission(team, "$remove_members")).toBe(false);
    await bob.serverUser.grantPermission(team, "moderator");
    expect(lastAnswer("grantTeamPermission")).toEqual({ status: 201, knownError: null });
    expect((await bob.user.listPermissions(team)).map((p) => p.id)).toEqual([
      "$invite_members",
      "$read_members",
      "$remove_members",
      "moderator",
      "team_member",
    ]);
    expect((await bob.user.listPermissions(team, { recursive: false })).map((p) => p.id)).toEqual(["moderator", "team_member"]);

    const notDirect = await thrown(bob.serverUser.revokePermission(team, "$remove_members"));
    expect(isKnownError(notDirect, "TEAM_PERMISSION_NOT_FOUND")).toBe(true);
    expect((notDirect as { details?: unknown }).details).toEqual({
      team_id: team.id,
      user_id: bob.record.id,
      permission_id: "$remove_members",
    });
    await bob.serverUser.revokePermission(team, "moderator");
    expect(await bob.user.hasPermission(team, "$remove_members")).toBe(false);

    // A renamed definition keeps its grants.
    await bob.serverUser.grantPermission(team, "moderator");
    await admin.updateTeamPermissionDefinition("moderator", { id: "warden" });
    expect(await bob.user.hasPermission(team, "warden")).toBe(true);
    expect(await bob.user.hasPermission(team, "moderator")).toBe(false);
  });

  it("grants system permissions directly and refuses non-members, unknown and project permissions", async () => {
    await adminApp().createProjectPermissionDefinition({ id: "billing" });
    const ada = await signedIn("ada@example.com");
    const bob = await signedIn("bob@example.com");
    const team = await ada.user.createTeam({ displayName: "Strict" });
    expect(isKnownError(await thrown(bob.serverUser.grantPermission(team, "$read_members")), "TEAM_MEMBERSHIP_NOT_FOUND")).toBe(true);
    await (await serverApp().getTeam(team.id))!.addUser(bob.record.id);
    await bob.serverUser.grantPermission(team, "$update_team");
    await (await bob.user.getTeam(team.id))!.update({ displayName: "Renamed by Bob" });
    expect((await serverApp().getTeam(team.id))?.displayName).toBe("Renamed by Bob");

    expect(isKnownError(await thrown(bob.serverUser.grantPermission(team, "nonexistent")), "PERMISSION_NOT_FOUND")).toBe(true);
    const scope = await thrown(bob.serverUser.grantPermission(team, "billing"));
    expect(isKnownError(scope, "WRONG_PERMISSION_SCOPE")).toBe(true);
    expect((scope as { details?: unknown }).details).toEqual({ permission_id: "billing", expected_scope: "team", actual_scope: "project" });
    expect(isKnownError(await thrown(bob.serverUser.grantPermission(team, "$not_a_system_permission")), "SCHEMA_ERROR")).toBe(true);
  });

  it("lets a client list only its own permissions; the server lists every member's, sorted", async () => {
    const ada = await signedIn("ada@example.com");
    const bob = await signedIn("bob@example.com");
    const team = await ada.user.createTeam({ displayName: "Private" });
    await (await serverApp().getTeam(team.id))!.addUser(bob.record.id);

    const others = await raw(`/team-permissions?team_id=${team.id}&user_id=${ada.record.id}&recursive=true`, {
      client: bob.tokens.accessToken,
    });
    expect(others.status).toBe(403);
    expect(others.headers.get("x-stack-known-error")).toBeNull();

    const everyone = await raw(`/team-permissions?team_id=${team.id}&recursive=false`, { server: true });
    const expected = [
      { id: "team_admin", user_id: ada.record.id, team_id: team.id },
      { id: "team_member", user_id: bob.record.id, team_id: team.id },
    ].sort((a, b) => (a.user_id < b.user_id ? -1 : 1));
    expect(await everyone.json()).toEqual({ items: expected, is_paginated: false });
  });
});

/** A request as a client (with the user's access token) or as server code. */
function raw(path: string, as: { client?: string; server?: boolean }): Promise<Response> {
  const e = emulator();
  const headers: Record<string, string> = { "x-stack-project-id": DEMO_KEYS.projectId };
  if (as.server) Object.assign(headers, { "x-stack-access-type": "server", "x-stack-secret-server-key": DEMO_KEYS.secretServerKey });
  else Object.assign(headers, { "x-stack-access-type": "client", "x-stack-publishable-client-key": DEMO_KEYS.publishableClientKey });
  if (as.client) headers["x-stack-access-token"] = as.client;
  return e.fetch(new Request(`${e.apiOrigin}/api/v1${path}`, { headers }));
}

describe("the project's default permissions", () => {
  it("are granted to every new user: a password sign-up, and a user the server creates", async () => {
    await adminApp().createProjectPermissionDefinition({ id: "read_docs", containedPermissionIds: [] });
    const project = emulator().engine.ctx.store.project(DEMO_KEYS.projectId)!;
    project.config.user_default_permissions = [{ id: "read_docs" }];
    const client = new StackClientApp({
      ...common(),
      tokenStore: "memory",
      urls: { emailVerification: "http://localhost:5173/handler/email-verification" },
    });
    const signUp = await client.signUpWithCredential({ email: "new@example.com", password: "correct horse battery", noRedirect: true });
    expect(signUp.status).toBe("ok");
    const created = await serverApp().createUser({ primaryEmail: "made@example.com" });
    for (const user of [(await client.getUser({ or: "throw" }))!, created]) {
      const server = (await serverApp().getUser(user.id))!;
      expect((await server.listPermissions()).map((p) => p.id)).toEqual(["read_docs"]);
    }
  });
});
