// The admin view of the project and its full config (SPEC §3; endpoints.md §D: /internal/projects/current).
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { isStackError } from "../../../../runtime/errors.js";
import { ResponseFormatError } from "../../../../runtime/http/request-errors.js";
import { deleteAdminProject, getAdminProject, updateAdminProject } from "../../../../runtime/app/admin/project.js";
import { json, useFakeClock } from "../../../helpers/fake-service.js";
import { rejectionOf } from "../../../helpers/outcome.js";
import { adminContext, KEYS, PROJECT_ID, sent, stackHeadersOf } from "./admin-context.js";

const WIRE_CONFIG = {
  allow_localhost: true,
  sign_up_enabled: true,
  credential_enabled: true,
  magic_link_enabled: false,
  passkey_enabled: true,
  client_team_creation_enabled: true,
  client_user_deletion_enabled: false,
  allow_user_api_keys: true,
  allow_team_api_keys: false,
  oauth_providers: [
    { id: "github", type: "shared" },
    {
      id: "microsoft",
      type: "standard",
      client_id: "ms-client",
      client_secret: "ms-secret",
      microsoft_tenant_id: "tenant-1",
    },
    { id: "facebook", type: "standard", client_id: "fb-client", client_secret: "fb-secret", facebook_config_id: "fb-config" },
  ],
  enabled_oauth_providers: [{ id: "github" }, { id: "microsoft" }, { id: "facebook" }],
  domains: [{ domain: "https://app.example.com", handler_path: "/handler" }],
  email_config: {
    type: "standard",
    host: "smtp.example.com",
    port: 587,
    username: "mailer",
    password: "smtp-password",
    sender_name: "Acme",
    sender_email: "noreply@example.com",
  },
  create_team_on_sign_up: true,
  team_creator_default_permissions: [{ id: "team_admin" }],
  team_member_default_permissions: [{ id: "team_member" }],
  user_default_permissions: [{ id: "beta_tester" }],
  oauth_account_merge_strategy: "raise_error",
};

const WIRE_PROJECT = {
  id: PROJECT_ID,
  display_name: "Acme",
  description: "Acme's customer portal",
  created_at_millis: 1763251200000,
  user_count: 42,
  is_production_mode: false,
  config: WIRE_CONFIG,
};

beforeEach(() => useFakeClock());
afterEach(() => vi.useRealTimers());

describe("getAdminProject", () => {
  it("is GET /internal/projects/current with the admin key headers and access type admin", async () => {
    const { ctx, service } = adminContext(() => json(WIRE_PROJECT));
    await getAdminProject(ctx);
    expect(sent(service)).toEqual([{ method: "GET", path: "/api/v1/internal/projects/current", body: undefined }]);
    expect(stackHeadersOf(service.requests[0])).toEqual({
      "x-stack-project-id": PROJECT_ID,
      "x-stack-access-type": "admin",
      "x-stack-client-version": expect.stringMatching(/^js /),
      "x-stack-publishable-client-key": KEYS.publishableClientKey,
      "x-stack-secret-server-key": KEYS.secretServerKey,
      "x-stack-super-secret-admin-key": KEYS.superSecretAdminKey,
      "x-stack-override-error-status": "true",
    });
  });

  it("maps the admin view and every config field to the reference's names", async () => {
    const { ctx } = adminContext(() => json(WIRE_PROJECT));
    const project = await getAdminProject(ctx);
    const methods = { update: undefined, delete: undefined, getProductionModeErrors: undefined, useProductionModeErrors: undefined };
    expect({ ...project, ...methods }).toEqual({
      id: PROJECT_ID,
      displayName: "Acme",
      description: "Acme's customer portal",
      createdAt: new Date(1763251200000),
      userCount: 42,
      isProductionMode: false,
      isDevelopmentEnvironment: undefined,
      onboardingState: null,
      config: {
        signUpEnabled: true,
        credentialEnabled: true,
        magicLinkEnabled: false,
        passkeyEnabled: true,
        clientTeamCreationEnabled: true,
        clientUserDeletionEnabled: false,
        allowLocalhost: true,
        createTeamOnSignUp: true,
        allowUserApiKeys: true,
        allowTeamApiKeys: false,
        oauthAccountMergeStrategy: "raise_error",
        teamCreatorDefaultPermissions: [{ id: "team_admin" }],
        teamMemberDefaultPermissions: [{ id: "team_member" }],
        userDefaultPermissions: [{ id: "beta_tester" }],
        domains: [{ domain: "https://app.example.com", handlerPath: "/handler" }],
        oauthProviders: [
          { id: "github", type: "shared" },
          { id: "microsoft", type: "standard", clientId: "ms-client", clientSecret: "ms-secret", microsoftTenantId: "tenant-1" },
          { id: "facebook", type: "standard", clientId: "fb-client", clientSecret: "fb-secret", facebookConfigId: "fb-config" },
        ],
        emailConfig: {
          type: "standard",
          host: "smtp.example.com",
          port: 587,
          username: "mailer",
          password: "smtp-password",
          senderName: "Acme",
          senderEmail: "noreply@example.com",
        },
      },
      ...methods,
    });
    expect(project.createdAt).toBeInstanceOf(Date);
    // The reference's members (2.8.11's _adminProjectFromCrud), and the two the hosted service added in
    // 2.8.102; each standard OAuth provider has both provider-specific fields, undefined where they do not apply.
    expect(Object.keys(project).sort()).toEqual([
      "config",
      "createdAt",
      "delete",
      "description",
      "displayName",
      "getProductionModeErrors",
      "id",
      "isDevelopmentEnvironment",
      "isProductionMode",
      "onboardingState",
      "update",
      "useProductionModeErrors",
      "userCount",
    ]);
    expect(project.config.oauthProviders.map((p) => Object.keys(p).sort())).toEqual([
      ["id", "type"],
      ["clientId", "clientSecret", "facebookConfigId", "id", "microsoftTenantId", "type"],
      ["clientId", "clientSecret", "facebookConfigId", "id", "microsoftTenantId", "type"],
    ]);
  });

  it("maps a shared email config to { type: 'shared' }", async () => {
    const { ctx } = adminContext(() => json({ ...WIRE_PROJECT, config: { ...WIRE_CONFIG, email_config: { type: "shared" } } }));
    expect((await getAdminProject(ctx)).config.emailConfig).toEqual({ type: "shared" });
  });

  it("answering another project than the app's is an assertion error", async () => {
    const { ctx } = adminContext(() => json({ ...WIRE_PROJECT, id: "someone-elses-project" }));
    const error = await rejectionOf(getAdminProject(ctx));
    expect(isStackError(error, "StackAssertionError")).toBe(true);
    expect((error as Error).message).toContain("someone-elses-project");
  });

  it("a config without one of its flags is a ResponseFormatError naming the field", async () => {
    const { sign_up_enabled: _, ...config } = WIRE_CONFIG;
    const { ctx } = adminContext(() => json({ ...WIRE_PROJECT, config }));
    const error = await rejectionOf(getAdminProject(ctx));
    expect(error).toBeInstanceOf(ResponseFormatError);
    expect(error).toMatchObject({
      operationId: "getAdminProject",
      status: 200,
      path: "$.config.sign_up_enabled",
      message: "getAdminProject: the service answered HTTP 200 with a body the API does not allow: $.config.sign_up_enabled is missing",
    });
  });

  it("a standard OAuth provider without its credentials is an assertion error", async () => {
    const config = { ...WIRE_CONFIG, oauth_providers: [{ id: "google", type: "standard" }] };
    const { ctx } = adminContext(() => json({ ...WIRE_PROJECT, config }));
    expect(isStackError(await rejectionOf(getAdminProject(ctx)), "StackAssertionError")).toBe(true);
  });
});

describe("project.update", () => {
  it("is PATCH /internal/projects/current with every field in snake_case", async () => {
    const { ctx, service } = adminContext(() => json(WIRE_PROJECT));
    const project = await getAdminProject(ctx);
    await project.update({
      displayName: "Acme 2",
      description: "New",
      isProductionMode: true,
      config: {
        signUpEnabled: false,
        credentialEnabled: false,
        magicLinkEnabled: true,
        passkeyEnabled: false,
        clientTeamCreationEnabled: false,
        clientUserDeletionEnabled: true,
        allowLocalhost: false,
        createTeamOnSignUp: false,
        allowUserApiKeys: false,
        allowTeamApiKeys: true,
        oauthAccountMergeStrategy: "allow_duplicates",
        teamCreatorDefaultPermissions: [{ id: "owner" }],
        teamMemberDefaultPermissions: [{ id: "member" }],
        userDefaultPermissions: [],
        domains: [{ domain: "https://acme.example", handlerPath: "/auth" }],
        oauthProviders: [
          { id: "github", type: "shared" },
          { id: "microsoft", type: "standard", clientId: "c", clientSecret: "s", microsoftTenantId: "t" },
          { id: "facebook", type: "standard", clientId: "fc", clientSecret: "fs", facebookConfigId: "cfg" },
        ],
        emailConfig: {
          type: "standard",
          host: "h",
          port: 465,
          username: "u",
          password: "p",
          senderName: "n",
          senderEmail: "e@example.com",
        },
      },
    });
    expect(sent(service)[1]).toEqual({
      method: "PATCH",
      path: "/api/v1/internal/projects/current",
      body: {
        display_name: "Acme 2",
        description: "New",
        is_production_mode: true,
        config: {
          sign_up_enabled: false,
          credential_enabled: false,
          magic_link_enabled: true,
          passkey_enabled: false,
          client_team_creation_enabled: false,
          client_user_deletion_enabled: true,
          allow_localhost: false,
          create_team_on_sign_up: false,
          allow_user_api_keys: false,
          allow_team_api_keys: true,
          oauth_account_merge_strategy: "allow_duplicates",
          team_creator_default_permissions: [{ id: "owner" }],
          team_member_default_permissions: [{ id: "member" }],
          user_default_permissions: [],
          domains: [{ domain: "https://acme.example", handler_path: "/auth" }],
          oauth_providers: [
            { id: "github", type: "shared" },
            { id: "microsoft", type: "standard", client_id: "c", client_secret: "s", microsoft_tenant_id: "t" },
            { id: "facebook", type: "standard", client_id: "fc", client_secret: "fs", facebook_config_id: "cfg" },
          ],
          email_config: {
            type: "standard",
            host: "h",
            port: 465,
            username: "u",
            password: "p",
            sender_name: "n",
            sender_email: "e@example.com",
          },
        },
      },
    });
    expect(service.requests[1]!.headers["x-stack-super-secret-admin-key"]).toBe(KEYS.superSecretAdminKey);
  });

  it("sends only the fields given, and no config when none is given", async () => {
    const { ctx, service } = adminContext(() => json(WIRE_PROJECT));
    await updateAdminProject(ctx, { displayName: "Renamed" });
    await updateAdminProject(ctx, { description: null, config: { emailConfig: { type: "shared" } } });
    expect(sent(service).map((r) => r.body)).toEqual([
      { display_name: "Renamed" },
      { description: null, config: { email_config: { type: "shared" } } },
    ]);
  });

  it("an OAuth provider without a known type is a configuration error and sends nothing", async () => {
    const { ctx, service } = adminContext(() => json(WIRE_PROJECT));
    const update = { config: { oauthProviders: [{ id: "github" }] } } as unknown as Parameters<typeof updateAdminProject>[1];
    expect(isStackError(await rejectionOf(updateAdminProject(ctx, update)), "StackConfigurationError")).toBe(true);
    expect(service.requests).toEqual([]);
  });
});

describe("project.delete", () => {
  it("is DELETE /internal/projects/current", async () => {
    const { ctx, service } = adminContext(() => json(WIRE_PROJECT));
    const project = await getAdminProject(ctx);
    await project.delete();
    await deleteAdminProject(ctx);
    expect(sent(service).slice(1)).toEqual([
      { method: "DELETE", path: "/api/v1/internal/projects/current", body: undefined },
      { method: "DELETE", path: "/api/v1/internal/projects/current", body: undefined },
    ]);
  });
});

describe("project.getProductionModeErrors", () => {
  it("checks the project as read, without another request", async () => {
    const { ctx, service } = adminContext(() => json(WIRE_PROJECT));
    const project = await getAdminProject(ctx);
    expect(await project.getProductionModeErrors()).toEqual([
      {
        message: "Localhost is not allowed in production mode, turn off 'Allow localhost' in project settings",
        relativeFixUrl: `/projects/${PROJECT_ID}/domains`,
      },
    ]);
    expect(project.useProductionModeErrors()).toEqual(await project.getProductionModeErrors());
    expect(service.requests).toHaveLength(1);
  });
});

// 2.8.86 answers the admin view without user_count, and with the owning team, the logos and
// the onboarding stage (service-versions.md §3).
const WIRE_PROJECT_2_8_86 = (({ user_count: _, ...rest }) => ({
  ...rest,
  owner_team_id: "0b6f2c4e-8d1a-4f3b-9e5c-7a2d4c6e8f10",
  logo_url: null,
  logo_full_url: null,
  logo_dark_mode_url: null,
  logo_full_dark_mode_url: null,
  onboarding_status: "completed",
  config: { ...WIRE_CONFIG, email_theme: "1df07ae6-abf3-4a40-83a5-a1a2cbe336ac" },
}))(WIRE_PROJECT);

describe("the admin project as each service version answers it", () => {
  it("2.8.11: userCount is the service's user_count", async () => {
    const { ctx } = adminContext(() => json(WIRE_PROJECT));
    expect((await getAdminProject(ctx)).userCount).toBe(42);
  });

  it("2.8.86: no user_count is read as userCount undefined, a member all the same; the rest maps as on 2.8.11", async () => {
    const { ctx, service } = adminContext(() => json(WIRE_PROJECT_2_8_86));
    const project = await getAdminProject(ctx);
    expect(project.userCount).toBeUndefined();
    expect(Object.keys(project)).toContain("userCount");
    expect(project).toMatchObject({ id: PROJECT_ID, displayName: "Acme", isProductionMode: false });
    expect(project.config.domains).toEqual([{ domain: "https://app.example.com", handlerPath: "/handler" }]);
    expect(sent(service)).toEqual([{ method: "GET", path: "/api/v1/internal/projects/current", body: undefined }]);
  });

  it("2.8.86: project.update() resolves when the service answers the updated project without user_count", async () => {
    const { ctx, service } = adminContext((r) =>
      json(r.method === "PATCH" ? { ...WIRE_PROJECT_2_8_86, display_name: "Acme 2" } : WIRE_PROJECT_2_8_86),
    );
    const project = await getAdminProject(ctx);
    await expect(project.update({ displayName: "Acme 2" })).resolves.toBeUndefined();
    expect(sent(service)[1]).toEqual({ method: "PATCH", path: "/api/v1/internal/projects/current", body: { display_name: "Acme 2" } });
  });
});
