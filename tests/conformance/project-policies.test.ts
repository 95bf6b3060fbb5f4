// Who manages a project and what a project's configuration and sign-up allow, as each service version decides it:
// 2.8.11 keeps the projects a user manages in their server_metadata.managedProjectIds
// (apps/backend/src/lib/projects.tsx; deletion: internal/projects/current/crud.tsx), 2.8.86 derives them from team
// ownership (listManagedProjectIds); trusted domains are http(s) URLs at both (packages/stack-shared/src/interface/
// crud/projects.ts, domainSchema); sign-up's verification URL and anonymous sign-up differ
// (auth/password/sign-up/route.tsx, auth/anonymous/sign-up/route.ts).
import { describe, expect, it } from "vitest";
import {
  type Answer,
  APP_URL,
  DEMO_KEYS,
  INTERNAL_KEYS,
  ownedProject,
  PASSWORD,
  SERVICE_VERSIONS,
  type Service,
  serviceOf,
  signUp,
  DEFAULT_TEAM_PERMISSIONS,
} from "./harness.js";

/** The internal user's server view, read with the internal project's server key. */
async function internalUser(service: Service, userId: string): Promise<Answer> {
  return service.call("GET", `/users/${userId}`, { as: "server", keys: INTERNAL_KEYS });
}

/** The display names of the projects `token`'s user lists at GET /internal/projects. */
async function listed(service: Service, token: string): Promise<string[]> {
  const answer = await service.call("GET", "/internal/projects", { keys: INTERNAL_KEYS, token });
  expect(answer.status).toBe(200);
  return answer.body.items.map((project: { display_name: string }) => project.display_name);
}

async function renamed(service: Service, adminToken: string, projectId: string, display_name: string): Promise<void> {
  const answer = await service.call("PATCH", "/internal/projects/current", {
    as: "admin",
    keys: { projectId },
    adminToken,
    body: { display_name },
  });
  expect(answer.status).toBe(200);
}

const schemaError = (method: string, path: string, problems: readonly string[]) => {
  const message = `Request validation failed on ${method} /api/v1${path}:\n${problems.map((problem) => `  - ${problem}`).join("\n")}`;
  return { code: "SCHEMA_ERROR", details: { message }, error: message };
};

describe.each(SERVICE_VERSIONS)("project policies on %s", (version) => {
  // projectsCrudClientReadSchema: 2.8.86's config has `domains`; 2.8.11's has not.
  it("the client's view of the project lists its trusted domains from 2.8.86 on", async () => {
    const service = await serviceOf(version);
    const domains = [{ domain: "https://app.example.com", handler_path: "/handler" }];
    const patched = await service.call("PATCH", "/internal/projects/current", { as: "admin", body: { config: { domains } } });
    expect(patched.status).toBe(200);
    const current = await service.call("GET", "/projects/current");
    expect(current.body.config.domains).toEqual(version === "2.8.11" ? undefined : domains);
  });

  // The crud gives only client schemas, which the service's crud handler uses for the server and admin access types
  // too (internal/projects/crud.tsx): an admin app of the internal project creates and lists its owner's projects.
  it("a user's projects are created and listed with the internal project's server and admin keys too", async () => {
    const service = await serviceOf(version);
    const owner = await ownedProject(service);
    const ownerTeam =
      version === "2.8.11"
        ? {}
        : {
            owner_team_id: (await service.call("GET", "/teams?user_id=me", { keys: INTERNAL_KEYS, token: owner.adminToken })).body.items[0]
              .id,
          };
    const callers = [
      { as: "server", keys: INTERNAL_KEYS },
      { as: "admin", keys: INTERNAL_KEYS },
    ] as const;
    for (const [index, caller] of callers.entries()) {
      const created = await service.call("POST", "/internal/projects", {
        ...caller,
        token: owner.adminToken,
        body: { display_name: `By ${caller.as} ${index}`, ...ownerTeam },
      });
      expect([caller.as, created.status], JSON.stringify(created.body)).toEqual([caller.as, 201]);
      const list = await service.call("GET", "/internal/projects", { ...caller, token: owner.adminToken });
      expect(list.status).toBe(200);
      expect(list.body.items.map((p: { display_name: string }) => p.display_name)).toContain(`By ${caller.as} ${index}`);
    }
  });

  it("a new project starts with the service's two default team permissions and their descriptions", async () => {
    const service = await serviceOf(version);
    const { adminToken, projectId } = await ownedProject(service);
    const listed = await service.call("GET", "/team-permission-definitions", { as: "admin", keys: { projectId }, adminToken });
    expect(listed.status).toBe(200);
    // The list also holds the system permissions ($…), as the service answers it.
    expect(listed.body.items.filter((p: { id: string }) => !p.id.startsWith("$"))).toEqual(DEFAULT_TEAM_PERMISSIONS);
  });

  it("a trusted domain must be an http(s) URL: 400 SCHEMA_ERROR, each failing test a line", async () => {
    const service = await serviceOf(version);
    const { adminToken, projectId } = await ownedProject(service);
    const update = (domains: readonly string[]) =>
      service.call("PATCH", "/internal/projects/current", {
        as: "admin",
        keys: { projectId },
        adminToken,
        body: { config: { domains: domains.map((domain) => ({ domain, handler_path: "/handler" })) } },
      });
    const path = "/internal/projects/current";
    const refused = await update(["whatever://disallowed-domain.example.com"]);
    expect([refused.status, refused.headers.get("x-stack-known-error"), refused.body]).toEqual([
      400,
      "SCHEMA_ERROR",
      schemaError("PATCH", path, ["URL must start with http:// or https://"]),
    ]);
    const worse = await update(["https://ok.example.com", "not a url"]);
    expect([worse.status, worse.body]).toEqual([
      400,
      schemaError("PATCH", path, [
        "body.config.domains[1].domain contains spaces",
        "body.config.domains[1].domain is not a valid URL",
        "URL must start with http:// or https://",
      ]),
    ]);
    // Accepted, and listed sorted by domain (the service keeps them under fresh ids and sorts on reading).
    const accepted = await update(["https://app.example.com", "http://localhost:3000"]);
    // Answered sorted by domain, as both versions render their config's map of trusted domains.
    expect([accepted.status, accepted.body.config.domains]).toEqual([
      200,
      [
        { domain: "http://localhost:3000", handler_path: "/handler" },
        { domain: "https://app.example.com", handler_path: "/handler" },
      ],
    ]);
  });

  it("a new project's trusted domains are checked the same way: 400 SCHEMA_ERROR and no project", async () => {
    const service = await serviceOf(version);
    const { adminToken } = await ownedProject(service);
    const before = await listed(service, adminToken);
    const { owner_team_id } = (await service.call("GET", "/internal/projects", { keys: INTERNAL_KEYS, token: adminToken })).body.items[0];
    const answer = await service.call("POST", "/internal/projects", {
      keys: INTERNAL_KEYS,
      token: adminToken,
      body: {
        display_name: "Ftp",
        ...(owner_team_id === undefined ? {} : { owner_team_id }),
        config: { domains: [{ domain: "ftp://files.example.com", handler_path: "/handler" }] },
      },
    });
    expect([answer.status, answer.body]).toEqual([
      400,
      schemaError("POST", "/internal/projects", ["URL must start with http:// or https://"]),
    ]);
    expect(await listed(service, adminToken)).toEqual(before);
  });
});

describe("project policies on 2.8.11", () => {
  const version = "2.8.11";

  it("creating a project appends its id to the creator's server_metadata.managedProjectIds; no team owns it", async () => {
    const service = await serviceOf(version);
    const { adminToken, projectId, ownerId } = await ownedProject(service);
    const second = await service.call("POST", "/internal/projects", {
      keys: INTERNAL_KEYS,
      token: adminToken,
      body: { display_name: "Second" },
    });
    expect(second.status).toBe(201);
    const owner = await internalUser(service, ownerId);
    expect([owner.status, owner.body.server_metadata]).toEqual([200, { managedProjectIds: [projectId, second.body.id] }]);
    const teams = await service.call("GET", `/teams?user_id=${ownerId}`, { as: "server", keys: INTERNAL_KEYS });
    expect(teams.body.items).toEqual([]);
  });

  it("lists a user's projects in the order of their managed list", async () => {
    const service = await serviceOf(version);
    const { adminToken, projectId } = await ownedProject(service);
    await renamed(service, adminToken, projectId, "First");
    for (const display_name of ["Second", "Third"]) {
      expect(
        (await service.call("POST", "/internal/projects", { keys: INTERNAL_KEYS, token: adminToken, body: { display_name } })).status,
      ).toBe(201);
    }
    expect(await listed(service, adminToken)).toEqual(["First", "Second", "Third"]);
  });

  it("deleting a project takes its id out of its managers' lists, other projects and users untouched", async () => {
    const service = await serviceOf(version);
    const ada = await ownedProject(service, "ada@example.com");
    const grace = await ownedProject(service, "grace@example.com");
    const kept = await service.call("POST", "/internal/projects", {
      keys: INTERNAL_KEYS,
      token: ada.adminToken,
      body: { display_name: "Kept" },
    });
    const deleted = await service.call("DELETE", "/internal/projects/current", {
      as: "admin",
      keys: { projectId: ada.projectId },
      adminToken: ada.adminToken,
    });
    expect(deleted.body).toEqual({ success: true });
    expect((await internalUser(service, ada.ownerId)).body.server_metadata).toEqual({ managedProjectIds: [kept.body.id] });
    expect((await internalUser(service, grace.ownerId)).body.server_metadata).toEqual({ managedProjectIds: [grace.projectId] });
  });

  it("a user whose server metadata lists a project manages it, and keeps their other metadata", async () => {
    const service = await serviceOf(version);
    const { projectId } = await ownedProject(service);
    const helper = await signUp(service, "helper@example.com", INTERNAL_KEYS);
    const patched = await service.call("PATCH", `/users/${helper.userId}`, {
      as: "server",
      keys: INTERNAL_KEYS,
      body: { server_metadata: { role: "support", managedProjectIds: [projectId] } },
    });
    expect(patched.status).toBe(200);
    const answer = await service.call("GET", "/internal/projects/current", {
      as: "admin",
      keys: { projectId },
      adminToken: helper.accessToken,
    });
    expect([answer.status, answer.body.id]).toEqual([200, projectId]);
    await service.call("POST", "/internal/projects", { keys: INTERNAL_KEYS, token: helper.accessToken, body: { display_name: "Own" } });
    const meta = (await internalUser(service, helper.userId)).body.server_metadata;
    expect([meta.role, meta.managedProjectIds.length, meta.managedProjectIds[0]]).toEqual(["support", 2, projectId]);
  });

  it("a password sign-up with an untrusted verification URL signs the user up and sends no e-mail", async () => {
    const service = await serviceOf(version);
    const answer = await service.call("POST", "/auth/password/sign-up", {
      body: {
        email: "ada@example.com",
        password: PASSWORD,
        verification_callback_url: "https://evil.example.com/handler/email-verification",
      },
    });
    expect([answer.status, typeof answer.body.user_id, typeof answer.body.access_token]).toEqual([200, "string", "string"]);
    expect(service.emulator.control.emails({ to: "ada@example.com" })).toEqual([]);
  });

  it.each([
    ["the internal project", INTERNAL_KEYS, true],
    ["any other project", DEMO_KEYS, false],
  ])("anonymous sign-up on %s: only three fixed projects allow it", async (_, keys, allowed) => {
    const service = await serviceOf(version);
    const answer = await service.call("POST", "/auth/anonymous/sign-up", { keys });
    if (allowed) expect([answer.status, typeof answer.body.access_token]).toEqual([200, "string"]);
    else
      expect([answer.status, answer.headers.get("x-stack-known-error"), answer.body]).toEqual([
        400,
        "ANONYMOUS_ACCOUNTS_NOT_ENABLED",
        { code: "ANONYMOUS_ACCOUNTS_NOT_ENABLED", error: "Anonymous accounts are not enabled for this project." },
      ]);
  });
});

describe("project policies on 2.8.86", () => {
  const version = "2.8.86";

  it("the members of a project's owner team manage it; leaving the team ends it", async () => {
    const service = await serviceOf(version);
    const { adminToken, projectId } = await ownedProject(service);
    const ownerTeamId = (await service.call("GET", "/internal/projects/current", { as: "admin", keys: { projectId }, adminToken })).body
      .owner_team_id;
    const helper = await signUp(service, "helper@example.com", INTERNAL_KEYS);
    const opened = () =>
      service.call("GET", "/internal/projects/current", { as: "admin", keys: { projectId }, adminToken: helper.accessToken });
    expect((await opened()).status).toBe(401);
    const membership = `/team-memberships/${ownerTeamId}/${helper.userId}`;
    expect((await service.call("POST", membership, { as: "server", keys: INTERNAL_KEYS, body: {} })).status).toBe(201);
    expect([(await opened()).status, await listed(service, helper.accessToken)]).toEqual([200, ["Owned"]]);
    expect((await service.call("DELETE", membership, { as: "server", keys: INTERNAL_KEYS })).status).toBe(200);
    expect((await opened()).body.code).toBe("ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN");
  });

  it("creating a project leaves the creator's server metadata alone", async () => {
    const service = await serviceOf(version);
    const { ownerId } = await ownedProject(service);
    const bystander = await signUp(service, "bystander@example.com", INTERNAL_KEYS);
    const [owner, other] = [await internalUser(service, ownerId), await internalUser(service, bystander.userId)];
    expect(owner.body.server_metadata).toEqual(other.body.server_metadata);
  });

  it("a password sign-up with an untrusted verification URL: 400 REDIRECT_URL_NOT_WHITELISTED and no user", async () => {
    const service = await serviceOf(version);
    const answer = await service.call("POST", "/auth/password/sign-up", {
      body: {
        email: "ada@example.com",
        password: PASSWORD,
        verification_callback_url: "https://evil.example.com/handler/email-verification",
      },
    });
    expect([answer.status, answer.body]).toEqual([
      400,
      {
        code: "REDIRECT_URL_NOT_WHITELISTED",
        error: "Redirect URL not whitelisted. Did you forget to add this domain to the trusted domains list on the Stack Auth dashboard?",
      },
    ]);
    const users = await service.call("GET", "/users", { as: "server", keys: DEMO_KEYS });
    expect(users.body.items).toEqual([]);
    expect(service.emulator.control.emails({ to: "ada@example.com" })).toEqual([]);
    // A trusted one still works.
    expect(
      (
        await service.call("POST", "/auth/password/sign-up", {
          body: { email: "ada@example.com", password: PASSWORD, verification_callback_url: `${APP_URL}/handler/email-verification` },
        })
      ).status,
    ).toBe(200);
  });

  it("anonymous sign-up works on every project", async () => {
    const service = await serviceOf(version);
    const { projectId } = await ownedProject(service);
    for (const keys of [INTERNAL_KEYS, DEMO_KEYS]) {
      const answer = await service.call("POST", "/auth/anonymous/sign-up", { keys });
      expect([answer.status, typeof answer.body.access_token]).toEqual([200, "string"]);
    }
    // A project made by POST /internal/projects takes client calls without a key.
    const owned = await service.call("POST", "/auth/anonymous/sign-up", { keys: { projectId } });
    expect([owned.status, typeof owned.body.user_id]).toEqual([200, "string"]);
  });
});
