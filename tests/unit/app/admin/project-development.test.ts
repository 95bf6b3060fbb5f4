// What the hosted service's admin project answers since 2.8.102, as the newest official SDK
// reads it: whether the project is a development environment (`is_development_environment`,
// set at creation only: `createProject({ isDevelopmentEnvironment })`), and the dashboard's
// setup choices (`onboarding_state`, read only). A 2.8.86 or 2.8.11 answer has neither
// (undefined and null); a creation they refuse for the field rejects with a ServiceVersionError
// after that one request. Facts: stack-shared 2.8.102 interface/crud/projects (admin read,
// update and create schemas) and @stackframe/js 2.8.102 (AdminProject, AdminProjectCreateOptions).
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { isStackError } from "../../../../runtime/errors.js";
import { ServiceVersionError } from "../../../../runtime/http/request-errors.js";
import { getAdminProject } from "../../../../runtime/app/admin/project.js";
import { createProject } from "../../../../runtime/app/admin/owned-projects.js";
import { testAppContext } from "../../../helpers/app-context.js";
import { json, knownError, useFakeClock, type Handler } from "../../../helpers/fake-service.js";
import { rejectionOf } from "../../../helpers/outcome.js";
import { doc } from "../../../fixtures/document.js";
import { adminContext, PROJECT_ID, sent } from "./admin-context.js";

beforeEach(() => useFakeClock());
afterEach(() => vi.useRealTimers());

const TEAM = "9c2b7e4a-1f3d-4a6b-8e5c-2d7f9a1b3c5e";
// 2.8.86's admin view (service-versions.md §3), and the hosted service's since 2.8.102.
const PROJECT_2_8_86 = (({ user_count: _, ...rest }) => ({ ...rest, id: PROJECT_ID, owner_team_id: TEAM, onboarding_status: "completed" }))(
  doc.components.examples["AdminProject"]!.value as Record<string, unknown>,
);
const ONBOARDING_STATE = {
  selected_config_choice: "create-new",
  selected_apps: ["authentication", "teams"],
  selected_sign_in_methods: ["credential", "github"],
  selected_email_theme_id: null,
  selected_payments_country: "US",
};
const PROJECT_2_8_102 = { ...PROJECT_2_8_86, is_development_environment: true, onboarding_state: ONBOARDING_STATE };

describe("the admin project's 2.8.102 fields", () => {
  it("maps is_development_environment and onboarding_state to the SDK's names", async () => {
    const { ctx } = adminContext(() => json(PROJECT_2_8_102));
    const project = await getAdminProject(ctx);
    expect(project.isDevelopmentEnvironment).toBe(true);
    expect(project.onboardingState).toEqual({
      selectedConfigChoice: "create-new",
      selectedApps: ["authentication", "teams"],
      selectedSignInMethods: ["credential", "github"],
      selectedEmailThemeId: null,
      selectedPaymentsCountry: "US",
    });
    expect(Object.isFrozen(project.onboardingState)).toBe(true);
    expect(Object.isFrozen(project.onboardingState?.selectedApps)).toBe(true);
  });

  it("reads a later version's choices as they come (strings), and null as no choices", async () => {
    const later = { ...ONBOARDING_STATE, selected_config_choice: "import", selected_payments_country: "GB" };
    const { ctx } = adminContext(() => json({ ...PROJECT_2_8_102, is_development_environment: false, onboarding_state: later }));
    const project = await getAdminProject(ctx);
    expect(project).toMatchObject({
      isDevelopmentEnvironment: false,
      onboardingState: { selectedConfigChoice: "import", selectedPaymentsCountry: "GB" },
    });
    const none = adminContext(() => json({ ...PROJECT_2_8_102, onboarding_state: null }));
    expect((await getAdminProject(none.ctx)).onboardingState).toBeNull();
  });

  it("2.8.86 and 2.8.11 answer neither: isDevelopmentEnvironment undefined, onboardingState null, both members all the same", async () => {
    for (const wire of [PROJECT_2_8_86, { ...(doc.components.examples["AdminProject"]!.value as object), id: PROJECT_ID }]) {
      const { ctx } = adminContext(() => json(wire));
      const project = await getAdminProject(ctx);
      expect(project.isDevelopmentEnvironment).toBeUndefined();
      expect(project.onboardingState).toBeNull();
      expect(Object.keys(project)).toEqual(expect.arrayContaining(["isDevelopmentEnvironment", "onboardingState"]));
    }
  });

  it("an onboarding_state that is not the document's is a ResponseFormatError at its path", async () => {
    const { ctx } = adminContext(() => json({ ...PROJECT_2_8_102, onboarding_state: { ...ONBOARDING_STATE, selected_apps: "teams" } }));
    const error = await rejectionOf(getAdminProject(ctx));
    expect(isStackError(error, "ResponseFormatError")).toBe(true);
    expect(error).toMatchObject({ path: "$.onboarding_state.selected_apps" });
  });
});

describe("createProject({ isDevelopmentEnvironment })", () => {
  /** A context of the internal project (the dashboard's own). */
  function internal(handler: Handler) {
    const t = testAppContext(handler);
    return { ...t, ctx: { ...t.ctx, projectId: "internal" } };
  }
  const schemaError = (...problems: string[]) => {
    const message = `Request validation failed on POST /api/v1/internal/projects:\n${problems.map((p) => `  - ${p}`).join("\n")}`;
    return knownError(400, "SCHEMA_ERROR", message, { message });
  };
  const MESSAGE =
    "user.createProject cannot work with this Stack Auth service, which answers as 2.8.86 does: it has no development-environment projects and refused is_development_environment (isDevelopmentEnvironment, which came with 2.8.102), so no project was created. Instead: leave isDevelopmentEnvironment out";
  const bodies = (service: { requests: { body: string }[] }) => service.requests.map((r) => JSON.parse(r.body) as unknown);

  it("sends is_development_environment, and answers the project as one", async () => {
    const owned = { ...PROJECT_2_8_102, id: "3e5a7c9b-2d4f-4a6c-8e1b-5f7a9c2e4d6b" };
    const { ctx, service } = internal(() => json(owned, { status: 201 }));
    const project = await createProject(ctx, { displayName: "Acme", teamId: TEAM, isDevelopmentEnvironment: true });
    expect(bodies(service)).toEqual([{ display_name: "Acme", is_development_environment: true, owner_team_id: TEAM }]);
    expect(project.isDevelopmentEnvironment).toBe(true);
  });

  it("2.8.86 refuses the field: a ServiceVersionError after that one request, nothing created", async () => {
    const { ctx, service } = internal(() => schemaError("body contains unknown properties: is_development_environment"));
    const error = await rejectionOf(createProject(ctx, { displayName: "Acme", teamId: TEAM, isDevelopmentEnvironment: false }));
    expect(error).toBeInstanceOf(ServiceVersionError);
    expect(error).toMatchObject({ method: "user.createProject", serviceVersion: "2.8.86", message: MESSAGE });
    expect(bodies(service)).toEqual([{ display_name: "Acme", is_development_environment: false, owner_team_id: TEAM }]);
  });

  it("2.8.86 without teamId refuses the field beside the missing owner team: the same error, no owner team is looked for", async () => {
    const { ctx, service } = internal(() =>
      schemaError("body.owner_team_id must be defined", "body contains unknown properties: is_development_environment"),
    );
    const error = await rejectionOf(createProject(ctx, { displayName: "Acme", isDevelopmentEnvironment: true }));
    expect((error as Error).message).toBe(MESSAGE);
    expect(service.requests).toHaveLength(1);
  });

  it("2.8.11 lists it among the unknown properties: the same error", async () => {
    const { ctx } = internal(() => schemaError("body contains unknown properties: is_development_environment, owner_team_id"));
    const error = await rejectionOf(createProject(ctx, { displayName: "Acme", teamId: TEAM, isDevelopmentEnvironment: true }));
    expect((error as Error).message).toBe(MESSAGE);
  });

  it("refuses a value that is not a boolean before sending anything", async () => {
    const { ctx, service } = internal(() => json({}));
    const error = await rejectionOf(createProject(ctx, { displayName: "Acme", isDevelopmentEnvironment: "yes" as never }));
    expect(isStackError(error, "StackConfigurationError")).toBe(true);
    expect((error as Error).message).toBe(
      "createProject needs options: { displayName, teamId?, isDevelopmentEnvironment?, description?, isProductionMode?, config? }.",
    );
    expect(service.requests).toEqual([]);
  });
});

// Only the document's body fields go out: update options have no such fields, as the official SDK's.
describe("project.update", () => {
  it("sends neither field, whatever an update object carries", async () => {
    const { ctx, service } = adminContext(() => json(PROJECT_2_8_102));
    const project = await getAdminProject(ctx);
    await project.update({ displayName: "Acme 2", isDevelopmentEnvironment: false, onboardingState: null } as never);
    expect(sent(service)[1]).toEqual({ method: "PATCH", path: "/api/v1/internal/projects/current", body: { display_name: "Acme 2" } });
  });
});
