// The client view of the project, and the internal project's owned projects (SPEC §3, §6; endpoints.md §A).
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { KnownErrors } from "../../../../generated/known-errors.js";
import { isStackError } from "../../../../runtime/errors.js";
import { StackAdminApp } from "../../../../runtime/app/admin-app.js";
import { createProject, getProject, listOwnedProjects } from "../../../../runtime/app/objects/project.js";
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
