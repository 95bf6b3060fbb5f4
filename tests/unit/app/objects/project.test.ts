// The client view of the project, and the internal project's owned projects (SPEC §3, §6; endpoints.md §A).
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { KnownErrors } from "../../../../generated/known-errors.js";
import { isStackError } from "../../../../runtime/errors.js";
import { ServiceVersionError } from "../../../../runtime/http/request-errors.js";
import { StackAdminApp } from "../../../../runtime/app/admin-app.js";
import { createProject, listOwnedProjects } from "../../../../runtime/app/admin/owned-projects.js";
import { getProject } from "../../../../runtime/app/objects/project.js";
import { signedInTokens, testAppContext } from "../../../helpers/app-context.js";
import {
  fakeService,
  json,
  knownError,
  testEnvironment,
  useFakeClock,
  type Handler,
  type SentRequest,
} from "../../../helpers/fake-service.js";
import { rejectionOf } from "../../../helpers/outcome.js";
import { doc } from "../../../fixtures/document.js";

const example = (name: string) => doc.components.examples[name]!.value;
const sent = (s: { requests: SentRequest[] }) =>
  s.requests.map((r) => ({ method: r.method, path: r.path, body: r.body === "" ? undefined : JSON.parse(r.body) }));

/** A context of the internal project (the dashboard's own). */
function internal(handler: Handler) {
  const t = testAppContext(handler);
  return { ...t, ctx: { ...t.ctx, projectId: "internal" } };
}

const OWNED = {
  id: "6f4a3c2e-0b1d-4e5f-9a8b-7c6d5e4f3a2b",
  displayName: "Acme",
  description: "Acme's customer portal",
  createdAt: new Date(1763251200000),
  userCount: 42,
  isProductionMode: false,
};

beforeEach(() => useFakeClock());
afterEach(() => vi.useRealTimers());

describe("getProject", () => {
  it("is GET /projects/current, mapped to the client Project with its config flags", async () => {
    const { ctx, service } = testAppContext(() => json(example("ClientProject")));
    expect(await getProject(ctx)).toEqual({
      id: "6f4a3c2e-0b1d-4e5f-9a8b-7c6d5e4f3a2b",
      displayName: "Acme",
      config: {
        signUpEnabled: true,
        credentialEnabled: true,
        magicLinkEnabled: true,
        passkeyEnabled: true,
        clientTeamCreationEnabled: true,
        clientUserDeletionEnabled: false,
        allowTeamApiKeys: true,
        allowUserApiKeys: true,
        oauthProviders: [{ id: "github" }, { id: "google" }],
      },
    });
    expect(sent(service)).toEqual([{ method: "GET", path: "/api/v1/projects/current", body: undefined }]);
  });

  it("throws ProjectNotFound for an unknown project", async () => {
    const { ctx } = testAppContext(() => knownError(404, "PROJECT_NOT_FOUND", "Project not found."));
    expect(await rejectionOf(getProject(ctx))).toBeInstanceOf(KnownErrors.ProjectNotFound);
  });
});

describe("listOwnedProjects", () => {
  it("is GET /internal/projects, each project with createdAt a Date", async () => {
    const { ctx, service } = internal(() => json(example("AdminProjectList")));
    const projects = await listOwnedProjects(ctx);
    expect(projects).toHaveLength(1);
    expect(projects[0]).toMatchObject(OWNED);
    expect(projects[0]!.createdAt).toBeInstanceOf(Date);
    expect(projects[0]!.config.signUpEnabled).toBe(
      (example("AdminProject") as { config: { sign_up_enabled: boolean } }).config.sign_up_enabled,
    );
    expect(projects[0]!.app).toBeInstanceOf(StackAdminApp);
    expect(sent(service)).toEqual([{ method: "GET", path: "/api/v1/internal/projects", body: undefined }]);
  });

  it("outside the internal project is a configuration error and sends nothing", async () => {
    const { ctx, service } = testAppContext(() => json(example("AdminProjectList")));
    const error = await rejectionOf(listOwnedProjects(ctx));
    expect(isStackError(error, "StackConfigurationError")).toBe(true);
    expect((error as Error).message).toContain('projectId "internal"');
    expect(service.requests).toEqual([]);
  });
});

describe("createProject", () => {
  it("is POST /internal/projects {display_name, description}, answering the owned project", async () => {
    const { ctx, service } = internal(() => json(example("AdminProject"), { status: 201 }));
    expect(await createProject(ctx, { displayName: "Acme", description: "Acme's customer portal" })).toMatchObject(OWNED);
    expect(sent(service)).toEqual([
      { method: "POST", path: "/api/v1/internal/projects", body: { display_name: "Acme", description: "Acme's customer portal" } },
    ]);
  });

  it("passes every option of the reference SDK on the wire: isProductionMode and config in snake_case", async () => {
    const { ctx, service } = internal(() => json(example("AdminProject"), { status: 201 }));
    await createProject(ctx, {
      displayName: "Acme",
      isProductionMode: false,
      config: {
        allowUserApiKeys: true,
        clientTeamCreationEnabled: true,
        signUpEnabled: false,
        domains: [{ domain: "https://acme.example.com", handlerPath: "/handler" }],
      },
    });
    expect(sent(service)[0]!.body).toEqual({
      display_name: "Acme",
      is_production_mode: false,
      config: {
        allow_user_api_keys: true,
        client_team_creation_enabled: true,
        sign_up_enabled: false,
        domains: [{ domain: "https://acme.example.com", handler_path: "/handler" }],
      },
    });
  });

  it("leaves description out when it is not given", async () => {
    const { ctx, service } = internal(() => json(example("AdminProject"), { status: 201 }));
    await createProject(ctx, { displayName: "Acme" });
    expect(sent(service)[0]!.body).toEqual({ display_name: "Acme" });
  });

  it("outside the internal project is a configuration error and sends nothing", async () => {
    const { ctx, service } = testAppContext(() => json(example("AdminProject")));
    expect(isStackError(await rejectionOf(createProject(ctx, { displayName: "Acme" })), "StackConfigurationError")).toBe(true);
    expect(service.requests).toEqual([]);
  });

  it("without a displayName is a configuration error and sends nothing", async () => {
    const { ctx, service } = internal(() => json(example("AdminProject")));
    expect(isStackError(await rejectionOf(createProject(ctx, undefined as never)), "StackConfigurationError")).toBe(true);
    expect(service.requests).toEqual([]);
  });
});

// POST /internal/projects as each version answers it (service-versions.md §3): 2.8.86 requires
// owner_team_id and answers no user_count; 2.8.11 refuses owner_team_id. Both refuse before creating anything.
describe("createProject on each service version", () => {
  const TEAM = "9c2b7e4a-1f3d-4a6b-8e5c-2d7f9a1b3c5e";
  const NEW_TEAM = "3e5a7c9b-2d4f-4a6c-8e1b-5f7a9c2e4d6b";
  const PROJECT_2_8_86 = (({ user_count: _, ...rest }) => ({ ...rest, owner_team_id: TEAM, onboarding_status: "config_choice" }))(
    example("AdminProject") as Record<string, unknown>,
  );
  const schemaError = (problems: string[]) => {
    const message = `Request validation failed on POST /api/v1/internal/projects:\n${problems.map((p) => `  - ${p}`).join("\n")}`;
    return knownError(400, "SCHEMA_ERROR", message, { message });
  };
  const OWNER_TEAM_REQUIRED = () => schemaError(["body.owner_team_id must be defined"]);
  const OWNER_TEAM_UNKNOWN = () => schemaError(["body contains unknown properties: owner_team_id"]);

  /** 2.8.86: POST /internal/projects without owner_team_id is refused; the user's own reads answer as given. */
  function v2_8_86(answers: { selectedTeamId?: string | null; teams?: unknown[] } = {}): Handler {
    return (r) => {
      const body = r.body === "" ? {} : (JSON.parse(r.body) as Record<string, unknown>);
      if (r.method === "POST" && r.path === "/api/v1/internal/projects") {
        return "owner_team_id" in body
          ? json({ ...PROJECT_2_8_86, owner_team_id: body.owner_team_id }, { status: 201 })
          : OWNER_TEAM_REQUIRED();
      }
      if (r.path.startsWith("/api/v1/users/me")) {
        return json({ ...(example("ClientUser") as object), selected_team_id: answers.selectedTeamId ?? null, selected_team: null });
      }
      if (r.method === "GET" && r.path.startsWith("/api/v1/teams")) return json({ items: answers.teams ?? [], is_paginated: false });
      if (r.method === "POST" && r.path === "/api/v1/teams")
        return json({ ...(example("ClientTeam") as object), id: NEW_TEAM }, { status: 201 });
      throw new Error(`unexpected ${r.method} ${r.path}`);
    };
  }

  it("2.8.11 without teamId: one POST without owner_team_id", async () => {
    const { ctx, service } = internal(() => json(example("AdminProject"), { status: 201 }));
    expect((await createProject(ctx, { displayName: "Acme" })).userCount).toBe(42);
    expect(sent(service)).toEqual([{ method: "POST", path: "/api/v1/internal/projects", body: { display_name: "Acme" } }]);
  });

  it("2.8.11 with teamId: owner_team_id is refused, nothing is created, and the call rejects with a ServiceVersionError naming 2.8.11", async () => {
    const { ctx, service } = internal(OWNER_TEAM_UNKNOWN);
    const error = await rejectionOf(createProject(ctx, { displayName: "Acme", teamId: TEAM }));
    expect(isStackError(error, "ServiceVersionError")).toBe(true);
    expect(error).toBeInstanceOf(ServiceVersionError);
    expect(error).toMatchObject({
      method: "user.createProject",
      serviceVersion: "2.8.11",
      replacement: "leave teamId out; the project then belongs to the signed-in user",
      message:
        "user.createProject cannot work with this Stack Auth service, which answers as 2.8.11 does: it has no owner teams and refused owner_team_id (teamId), so no project was created. Instead: leave teamId out; the project then belongs to the signed-in user",
    });
    expect(sent(service)).toEqual([
      { method: "POST", path: "/api/v1/internal/projects", body: { display_name: "Acme", owner_team_id: TEAM } },
    ]);
  });

  it("2.8.86 with teamId: one POST with owner_team_id, answering the project without userCount", async () => {
    const { ctx, service } = internal(v2_8_86());
    const project = await createProject(ctx, { displayName: "Acme", teamId: TEAM });
    expect(project).toMatchObject({ id: OWNED.id, displayName: "Acme", userCount: undefined });
    expect(sent(service)).toEqual([
      { method: "POST", path: "/api/v1/internal/projects", body: { display_name: "Acme", owner_team_id: TEAM } },
    ]);
  });

  it("2.8.86 without teamId: refused before anything is created, then sent again for the user's selected team", async () => {
    const { ctx, service } = internal(v2_8_86({ selectedTeamId: TEAM }));
    expect((await createProject(ctx, { displayName: "Acme", description: "Portal" })).id).toBe(OWNED.id);
    expect(sent(service)).toEqual([
      { method: "POST", path: "/api/v1/internal/projects", body: { display_name: "Acme", description: "Portal" } },
      { method: "GET", path: "/api/v1/users/me", body: undefined },
      { method: "POST", path: "/api/v1/internal/projects", body: { display_name: "Acme", description: "Portal", owner_team_id: TEAM } },
    ]);
  });

  it("2.8.86 without teamId and no selected team: the first of the user's teams", async () => {
    const other = { ...(example("ClientTeam") as object), id: NEW_TEAM };
    const { ctx, service } = internal(v2_8_86({ teams: [example("ClientTeam"), other] }));
    await createProject(ctx, { displayName: "Acme" });
    expect(sent(service).map((r) => `${r.method} ${r.path}`)).toEqual([
      "POST /api/v1/internal/projects",
      "GET /api/v1/users/me",
      "GET /api/v1/teams?user_id=me",
      "POST /api/v1/internal/projects",
    ]);
    expect(sent(service)[3]!.body).toEqual({ display_name: "Acme", owner_team_id: TEAM });
  });

  it("2.8.86 without teamId and no team at all: a new team named after the project, with the user as its creator", async () => {
    const { ctx, service } = internal(v2_8_86());
    await createProject(ctx, { displayName: "Acme" });
    expect(sent(service).slice(2)).toEqual([
      { method: "GET", path: "/api/v1/teams?user_id=me", body: undefined },
      { method: "POST", path: "/api/v1/teams", body: { display_name: "Acme", creator_user_id: "me" } },
      { method: "POST", path: "/api/v1/internal/projects", body: { display_name: "Acme", owner_team_id: NEW_TEAM } },
    ]);
  });

  it("2.8.86: listOwnedProjects reads projects without user_count, each with its admin app", async () => {
    const { ctx } = internal(() => json({ items: [PROJECT_2_8_86], is_paginated: false }));
    const [project] = await listOwnedProjects(ctx);
    expect(project).toMatchObject({ id: OWNED.id, displayName: "Acme", userCount: undefined });
    expect(project!.app).toBeInstanceOf(StackAdminApp);
  });

  it("a SCHEMA_ERROR about anything besides owner_team_id is thrown as it is, after one request", async () => {
    const { ctx, service } = internal(() =>
      schemaError(["body.owner_team_id must be defined", "body.config.domains[0].domain must be a URL"]),
    );
    expect(await rejectionOf(createProject(ctx, { displayName: "Acme" }))).toBeInstanceOf(KnownErrors.SchemaError);
    expect(service.requests).toHaveLength(1);
  });
});

describe("an owned project (the reference's AdminOwnedProject)", () => {
  const PROJECT = example("AdminProject") as { id: string };

  async function owned() {
    const t = internal((r) =>
      json(r.method === "GET" && r.path === "/api/v1/internal/projects" ? example("AdminProjectList") : example("AdminProject")),
    );
    const [project] = await listOwnedProjects(t.ctx);
    t.service.requests.length = 0;
    return { ...t, project: project! };
  }

  it("has an admin app for that project acting on the owner's session: admin access, the owner's token, no keys", async () => {
    const { project, service, store } = await owned();
    await project.app.getProject();
    const [request] = service.requests;
    expect(request!.method).toBe("GET");
    expect(request!.path).toBe("/api/v1/internal/projects/current");
    expect(request!.headers).toMatchObject({
      "x-stack-project-id": PROJECT.id,
      "x-stack-access-type": "admin",
      "x-stack-admin-access-token": store!.get().accessToken,
    });
    for (const key of [
      "x-stack-publishable-client-key",
      "x-stack-secret-server-key",
      "x-stack-super-secret-admin-key",
      "x-stack-access-token",
    ]) {
      expect(request!.headers[key]).toBeUndefined();
    }
  });

  it("update() is PATCH /internal/projects/current of that project, in snake_case", async () => {
    const { project, service } = await owned();
    await project.update({ displayName: "Acme 2", config: { magicLinkEnabled: false } });
    expect(sent(service)).toEqual([
      {
        method: "PATCH",
        path: "/api/v1/internal/projects/current",
        body: { display_name: "Acme 2", config: { magic_link_enabled: false } },
      },
    ]);
    expect(service.requests[0]!.headers["x-stack-project-id"]).toBe(PROJECT.id);
  });

  it("delete() is DELETE /internal/projects/current of that project", async () => {
    const { project, service } = await owned();
    await project.delete();
    expect(sent(service)).toEqual([{ method: "DELETE", path: "/api/v1/internal/projects/current", body: undefined }]);
    expect(service.requests[0]!.headers["x-stack-admin-access-token"]).toBeDefined();
  });

  it("getProductionModeErrors() reads the project as listed, with no request", async () => {
    const { project, service } = await owned();
    expect(Array.isArray(await project.getProductionModeErrors())).toBe(true);
    expect(service.requests).toEqual([]);
  });
});

describe("the package entry", () => {
  it("hands the admin app over to owned projects, so an app built from it needs nothing else", async () => {
    // A fresh module graph with only the entry: no test helper registers anything here.
    vi.resetModules();
    const entry = await import("../../../../runtime/index.js");
    const user = example("ClientUser") as Record<string, unknown>;
    const service = fakeService((r) =>
      json(
        r.path.startsWith("/api/v1/users/me")
          ? user
          : r.path === "/api/v1/internal/projects"
            ? example("AdminProjectList")
            : example("AdminProject"),
      ),
    );
    const { env } = testEnvironment(service.fetch);
    const app = new entry.StackClientApp({
      projectId: "internal",
      publishableClientKey: "pck-1",
      tokenStore: { accessToken: signedInTokens().accessToken!, refreshToken: "rt-owner" },
      environment: env,
      browser: null,
      noAutomaticPrefetch: true,
    });
    const owner = (await app.getUser({ or: "throw" })) as import("../../../../runtime/index.js").CurrentInternalUser;
    const [project] = await owner.listOwnedProjects();
    expect(project!.app).toBeInstanceOf(entry.StackAdminApp);
    expect(project!.app.projectId).toBe(project!.id);
  });
});
