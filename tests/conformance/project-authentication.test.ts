// How the service's request gate authenticates a project (apps/backend/src/route-handlers/smart-request.tsx at both
// versions): the user's access token first, then (2.8.86) the project, then the owner's admin access token or the
// keys of the access type, then (2.8.11) whether the project exists. The owner's admin access token — the access
// token of a user of the internal project who manages the project — stands for the keys at every access type, as
// the service's own tests use it (apps/e2e/tests/backend/backend-helpers.ts, Project.createAndSwitch).
import { decodeJwt } from "jose";
import { describe, expect, it } from "vitest";
import { type Answer, DEMO_KEYS, INTERNAL_KEYS, ownedProject, SERVICE_VERSIONS, type Service, serviceOf, signUp } from "./harness.js";

/** The answer is the known error `code`, exactly: status, header, details and message. */
function expectKnownError(answer: Answer, status: number, code: string, error: string, details?: Record<string, unknown>): void {
  expect({ status: answer.status, code: answer.headers.get("x-stack-known-error"), body: answer.body }).toEqual({
    status,
    code,
    body: details === undefined ? { code, error } : { code, details, error },
  });
}

const IS_NOT_ADMIN = "Admin access token does not have the required permissions to access this project.";
const UNPARSABLE = "Admin access token is not parsable.";
const UNKNOWN_PROJECT = "0e1f2a3b-4c5d-4e6f-8a9b-0c1d2e3f4a5b";

function currentProjectNotFound(answer: Answer, projectId: string): void {
  expectKnownError(
    answer,
    400,
    "CURRENT_PROJECT_NOT_FOUND",
    `The current project with ID ${projectId} was not found. Please check the value of the x-stack-project-id header.`,
    { project_id: projectId },
  );
}

/** A key set of the owned project, made with the owner's admin access token. */
async function keysOf(service: Service, adminToken: string, projectId: string) {
  const created = await service.call("POST", "/internal/api-keys", {
    as: "admin",
    keys: { projectId },
    adminToken,
    body: {
      description: "backend",
      expires_at_millis: service.emulator.control.now() + 24 * 3600 * 1000,
      has_publishable_client_key: true,
      has_secret_server_key: true,
      has_super_secret_admin_key: true,
    },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  return {
    projectId,
    publishableClientKey: created.body.publishable_client_key as string,
    secretServerKey: created.body.secret_server_key as string,
    superSecretAdminKey: created.body.super_secret_admin_key as string,
  };
}

describe.each(SERVICE_VERSIONS)("project authentication on %s", (version) => {
  it("the owner's admin access token stands for the project's keys at client, server and admin access", async () => {
    const service = await serviceOf(version);
    const { adminToken, projectId } = await ownedProject(service);
    const keys = { projectId };
    const client = await service.call("GET", "/projects/current", { keys, adminToken });
    expect([client.status, client.body.id]).toEqual([200, projectId]);
    const created = await service.call("POST", "/users", { as: "server", keys, adminToken, body: { primary_email: "ada@example.com" } });
    expect(created.status).toBe(201);
    const users = await service.call("GET", "/users", { as: "server", keys, adminToken });
    expect([users.status, users.body.items.map((user: { id: string }) => user.id)]).toEqual([200, [created.body.id]]);
    const admin = await service.call("GET", "/internal/projects/current", { as: "admin", keys, adminToken });
    expect([admin.status, admin.body.id]).toEqual([200, projectId]);
  });

  it("keys sent beside the admin access token are not read", async () => {
    const service = await serviceOf(version);
    const { adminToken, projectId } = await ownedProject(service);
    const answer = await service.call("GET", "/internal/projects/current", {
      as: "admin",
      keys: { projectId },
      adminToken,
      headers: { "x-stack-super-secret-admin-key": "sak_wrong", "x-stack-publishable-client-key": "pck_wrong" },
    });
    expect([answer.status, answer.body.id]).toEqual([200, projectId]);
  });

  it("an expired admin access token: 401 ADMIN_ACCESS_TOKEN_EXPIRED saying when it expired", async () => {
    const service = await serviceOf(version);
    const { adminToken, projectId } = await ownedProject(service);
    service.emulator.control.advanceClock(11 * 60 * 1000);
    const expiredAt = Number(decodeJwt(adminToken).exp) * 1000;
    const answer = await service.call("GET", "/internal/projects/current", { as: "admin", keys: { projectId }, adminToken });
    expectKnownError(
      answer,
      401,
      "ADMIN_ACCESS_TOKEN_EXPIRED",
      `Admin access token has expired. Please refresh it and try again. (The access token expired at ${new Date(expiredAt).toISOString()}.)`,
      { expired_at_millis: expiredAt },
    );
  });

  it("an admin access token that is not a token: 401 UNPARSABLE_ADMIN_ACCESS_TOKEN", async () => {
    const service = await serviceOf(version);
    const answer = await service.call("GET", "/projects/current", { adminToken: "not-a-jwt" });
    expectKnownError(answer, 401, "UNPARSABLE_ADMIN_ACCESS_TOKEN", UNPARSABLE);
  });

  it("a user's token of another project than the internal one: 401 ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN", async () => {
    const service = await serviceOf(version);
    const user = await signUp(service, "ada@example.com");
    const answer = await service.call("GET", "/internal/projects/current", { as: "admin", adminToken: user.accessToken });
    expectKnownError(answer, 401, "ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN", IS_NOT_ADMIN);
  });

  it("an internal user who does not manage the project: 401 ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN", async () => {
    const service = await serviceOf(version);
    const { projectId } = await ownedProject(service);
    const stranger = await signUp(service, "stranger@example.com", INTERNAL_KEYS);
    for (const keys of [{ projectId }, { projectId: DEMO_KEYS.projectId }, { projectId: INTERNAL_KEYS.projectId }]) {
      const answer = await service.call("GET", "/projects/current", { keys, adminToken: stranger.accessToken });
      expectKnownError(answer, 401, "ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN", IS_NOT_ADMIN);
    }
  });

  it("a user's expired access token is refused before the admin access token is read", async () => {
    const service = await serviceOf(version);
    const user = await signUp(service, "ada@example.com");
    service.emulator.control.advanceClock(11 * 60 * 1000);
    const answer = await service.call("GET", "/users/me", { token: user.accessToken, adminToken: "not-a-jwt" });
    expect([answer.status, answer.body.code]).toEqual([401, "ACCESS_TOKEN_EXPIRED"]);
  });

  it("a deleted user's admin access token: a plain-text 401, no known error", async () => {
    const service = await serviceOf(version);
    const { adminToken, ownerId, projectId } = await ownedProject(service);
    const deleted = await service.call("DELETE", `/users/${ownerId}`, { as: "server", keys: INTERNAL_KEYS });
    expect(deleted.status).toBe(200);
    const answer = await service.call("GET", "/projects/current", { keys: { projectId }, adminToken });
    expect({ status: answer.status, code: answer.headers.get("x-stack-known-error"), body: answer.body }).toEqual({
      status: 401,
      code: null,
      body: "The user associated with the admin access token is no longer valid. Please refresh the admin access token and try again.",
    });
  });
});

describe("project authentication on 2.8.11", () => {
  const version = "2.8.11";

  it("an admin access token for an unknown project: 401 ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN (the user does not manage it)", async () => {
    const service = await serviceOf(version);
    const { adminToken } = await ownedProject(service);
    const answer = await service.call("GET", "/projects/current", { keys: { projectId: UNKNOWN_PROJECT }, adminToken });
    expectKnownError(answer, 401, "ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN", IS_NOT_ADMIN);
  });

  it("a deleted project's owner token: 401 ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN (deletion took it off the owner's list)", async () => {
    const service = await serviceOf(version);
    const { adminToken, projectId } = await ownedProject(service);
    const keys = { projectId };
    expect((await service.call("DELETE", "/internal/projects/current", { as: "admin", keys, adminToken })).status).toBe(200);
    const answer = await service.call("GET", "/internal/projects/current", { as: "admin", keys, adminToken });
    expectKnownError(answer, 401, "ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN", IS_NOT_ADMIN);
  });

  it("a project the user still manages that no longer exists: 401 INVALID_PROJECT_FOR_ADMIN_ACCESS_TOKEN", async () => {
    const service = await serviceOf(version);
    const { adminToken, ownerId } = await ownedProject(service);
    const patched = await service.call("PATCH", `/users/${ownerId}`, {
      as: "server",
      keys: INTERNAL_KEYS,
      body: { server_metadata: { managedProjectIds: [UNKNOWN_PROJECT] } },
    });
    expect(patched.status).toBe(200);
    const answer = await service.call("GET", "/projects/current", { keys: { projectId: UNKNOWN_PROJECT }, adminToken });
    expectKnownError(answer, 401, "INVALID_PROJECT_FOR_ADMIN_ACCESS_TOKEN", "Admin access tokens must be created on the internal project.");
  });

  it("an anonymous user of the internal project manages nothing: 401 ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN", async () => {
    const service = await serviceOf(version);
    const { projectId } = await ownedProject(service);
    const anonymous = await service.call("POST", "/auth/anonymous/sign-up", { keys: INTERNAL_KEYS });
    expect(anonymous.status).toBe(200);
    const answer = await service.call("GET", "/projects/current", { keys: { projectId }, adminToken: anonymous.body.access_token });
    expectKnownError(answer, 401, "ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN", IS_NOT_ADMIN);
  });

  it.each([
    ["client", "INVALID_PUBLISHABLE_CLIENT_KEY", "The publishable key is not valid"],
    ["server", "INVALID_SECRET_SERVER_KEY", "The secret server key is not valid"],
    ["admin", "INVALID_SUPER_SECRET_ADMIN_KEY", "The super secret admin key is not valid"],
  ] as const)("keys for an unknown project at %s access: 401 %s, not PROJECT_NOT_FOUND", async (as, code, text) => {
    const service = await serviceOf(version);
    const answer = await service.call("GET", "/projects/current", { as, keys: { ...DEMO_KEYS, projectId: UNKNOWN_PROJECT } });
    expectKnownError(answer, 401, code, `${text} for the project "${UNKNOWN_PROJECT}". Does the project and/or the key exist?`, {
      project_id: UNKNOWN_PROJECT,
    });
  });

  it("no key for an unknown project: 401 CLIENT_AUTHENTICATION_REQUIRED", async () => {
    const service = await serviceOf(version);
    const answer = await service.call("GET", "/projects/current", { keys: { projectId: UNKNOWN_PROJECT } });
    expectKnownError(answer, 401, "CLIENT_AUTHENTICATION_REQUIRED", "The publishable client key must be provided.");
  });

  it.each(["client", "server", "admin"] as const)("a deleted project's own keys at %s access: 401, the key no longer valid", async (as) => {
    const service = await serviceOf(version);
    const { adminToken, projectId } = await ownedProject(service);
    const keys = await keysOf(service, adminToken, projectId);
    expect((await service.call("DELETE", "/internal/projects/current", { as: "admin", keys })).status).toBe(200);
    const answer = await service.call("GET", "/projects/current", { as, keys });
    const errors: Readonly<Record<typeof as, readonly [string, string]>> = {
      client: ["INVALID_PUBLISHABLE_CLIENT_KEY", "The publishable key"],
      server: ["INVALID_SECRET_SERVER_KEY", "The secret server key"],
      admin: ["INVALID_SUPER_SECRET_ADMIN_KEY", "The super secret admin key"],
    };
    const [code, text] = errors[as];
    expectKnownError(answer, 401, code, `${text} is not valid for the project "${projectId}". Does the project and/or the key exist?`, {
      project_id: projectId,
    });
  });
});

describe("project authentication on 2.8.86", () => {
  const version = "2.8.86";

  it("an admin access token for an unknown project: 400 CURRENT_PROJECT_NOT_FOUND, before the token is read", async () => {
    const service = await serviceOf(version);
    const answer = await service.call("GET", "/projects/current", { keys: { projectId: UNKNOWN_PROJECT }, adminToken: "not-a-jwt" });
    currentProjectNotFound(answer, UNKNOWN_PROJECT);
  });

  it("a deleted project, with its owner's token or its own keys: 400 CURRENT_PROJECT_NOT_FOUND", async () => {
    const service = await serviceOf(version);
    const { adminToken, projectId } = await ownedProject(service);
    const keys = await keysOf(service, adminToken, projectId);
    expect((await service.call("DELETE", "/internal/projects/current", { as: "admin", keys, adminToken })).status).toBe(200);
    currentProjectNotFound(await service.call("GET", "/internal/projects/current", { as: "admin", keys, adminToken }), projectId);
    for (const as of ["client", "server", "admin"] as const) {
      currentProjectNotFound(await service.call("GET", "/projects/current", { as, keys }), projectId);
    }
  });

  it("keys for an unknown project: 400 CURRENT_PROJECT_NOT_FOUND", async () => {
    const service = await serviceOf(version);
    const answer = await service.call("GET", "/projects/current", { keys: { ...DEMO_KEYS, projectId: UNKNOWN_PROJECT } });
    currentProjectNotFound(answer, UNKNOWN_PROJECT);
  });

  it("an anonymous user's token is no admin access token: 401 UNPARSABLE_ADMIN_ACCESS_TOKEN", async () => {
    const service = await serviceOf(version);
    const { projectId } = await ownedProject(service);
    const anonymous = await service.call("POST", "/auth/anonymous/sign-up", { keys: INTERNAL_KEYS });
    expect(anonymous.status).toBe(200);
    const answer = await service.call("GET", "/projects/current", { keys: { projectId }, adminToken: anonymous.body.access_token });
    expectKnownError(answer, 401, "UNPARSABLE_ADMIN_ACCESS_TOKEN", UNPARSABLE);
  });
});
