// StackAdminApp itself (issue #6): its options, the headers of every admin call, and each method's request.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { KnownErrors } from "../../../../generated/known-errors.js";
import { StackAdminApp, type StackAdminAppOptions } from "../../../../runtime/app/admin-app.js";
import { StackServerApp } from "../../../../runtime/app/server-app.js";
import { fakeBrowser, signedInTokens } from "../../../helpers/app-context.js";
import { answerAsDocumented, documentedAnswer } from "../../../helpers/documented-answers.js";
import { fakeService, json, knownError, testEnvironment, useFakeClock, type Handler } from "../../../helpers/fake-service.js";
import { thrownBy, rejectionOf } from "../../../helpers/outcome.js";
import { fakeOwnerSession, KEYS, PROJECT_ID, sent, stackHeadersOf } from "./admin-context.js";

const WIRE_PROJECT = {
  id: PROJECT_ID,
  display_name: "Acme",
  description: null,
  created_at_millis: 1763251200000,
  user_count: 3,
  is_production_mode: true,
  config: {
    allow_localhost: false,
    sign_up_enabled: true,
    credential_enabled: true,
    magic_link_enabled: false,
    passkey_enabled: false,
    client_team_creation_enabled: false,
    client_user_deletion_enabled: false,
    allow_user_api_keys: false,
    allow_team_api_keys: false,
    oauth_providers: [],
    enabled_oauth_providers: [],
    domains: [{ domain: "http://app.example.com", handler_path: "/handler" }],
    email_config: { type: "shared" },
    create_team_on_sign_up: false,
    team_creator_default_permissions: [],
    team_member_default_permissions: [],
    user_default_permissions: [],
    oauth_account_merge_strategy: "link_method",
  },
};

/** Answers each request by "METHOD path", else by path; anything unlisted gets its operation's documented example. */
function byPath(answers: Record<string, unknown>): Handler {
  return (r) => {
    const path = r.path.replace(/^\/api\/v1/, "").replace(/\?.*$/, "");
    const answer = answers[`${r.method} ${path}`] ?? answers[path];
    return answer === undefined ? answerAsDocumented(r) : json(answer);
  };
}

function adminApp(handler: Handler, options: Record<string, unknown> = {}) {
  const service = fakeService(handler);
  const { env } = testEnvironment(service.fetch);
  const app = new StackAdminApp({
    projectId: PROJECT_ID,
    tokenStore: null,
    browser: null,
    environment: env,
    ...KEYS,
    ...options,
  } as StackAdminAppOptions);
  return { app, service };
}

beforeEach(() => useFakeClock());
afterEach(() => vi.useRealTimers());

describe("new StackAdminApp({ ..., superSecretAdminKey })", () => {
  it("is a server app whose calls carry access type admin with the admin, server and client keys", async () => {
    const { app, service } = adminApp(byPath({ "/internal/projects/current": WIRE_PROJECT }));
    expect(app).toBeInstanceOf(StackServerApp);
    await app.getProject();
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

  it("sends no user tokens with admin calls, even when the app holds a signed-in user", async () => {
    const { app, service } = adminApp(byPath({ "/internal/projects/current": WIRE_PROJECT }), { tokenStore: signedInTokens() });
    await app.getProject();
    await app.listInternalApiKeys();
    expect(service.requests.map((r) => r.headers["x-stack-access-token"])).toEqual([undefined, undefined]);
  });

  it("inherited server calls are admin calls too", async () => {
    const { app, service } = adminApp(byPath({ "/teams": { items: [] } }));
    await app.listTeams();
    expect(sent(service)).toEqual([{ method: "GET", path: "/api/v1/teams", body: undefined }]);
    expect(service.requests[0]!.headers["x-stack-super-secret-admin-key"]).toBe(KEYS.superSecretAdminKey);
    expect(service.requests[0]!.headers["x-stack-access-type"]).toBe("admin");
  });

  it("sends nothing when constructed, even in a browser (getProject reads afresh on every call)", async () => {
    const { service } = adminApp(byPath({ "/internal/projects/current": WIRE_PROJECT }), { browser: fakeBrowser().browser });
    await vi.runAllTimersAsync();
    expect(service.requests).toEqual([]);
  });

  it("without superSecretAdminKey or projectOwnerSession is a configuration error that says what to pass", () => {
    const error = thrownBy(() => adminApp(() => json({}), { superSecretAdminKey: undefined }));
    expect(error.message).toContain("superSecretAdminKey");
    expect(error.message).toContain("projectOwnerSession");
    expect(error.message).toContain("Stack Auth dashboard → Project Keys");
  });
});

describe("new StackAdminApp({ ..., projectOwnerSession })", () => {
  it("sends the owner's access token and no key headers", async () => {
    const { owner, tokens } = fakeOwnerSession();
    const service = fakeService(byPath({ "/internal/projects/current": WIRE_PROJECT }));
    const app = new StackAdminApp({
      projectId: PROJECT_ID,
      tokenStore: null,
      browser: null,
      environment: testEnvironment(service.fetch).env,
      projectOwnerSession: owner,
    });
    await app.getProject();
    expect(stackHeadersOf(service.requests[0])).toEqual({
      "x-stack-project-id": PROJECT_ID,
      "x-stack-access-type": "admin",
      "x-stack-client-version": expect.stringMatching(/^js /),
      "x-stack-admin-access-token": tokens[0],
      "x-stack-override-error-status": "true",
    });
  });

  it("retries once with a refreshed owner token after ADMIN_ACCESS_TOKEN_EXPIRED", async () => {
    const { owner, tokens, expired } = fakeOwnerSession();
    let calls = 0;
    const service = fakeService(() =>
      calls++ === 0 ? knownError(401, "ADMIN_ACCESS_TOKEN_EXPIRED", "Admin access token has expired.") : json({ token: "svix" }),
    );
    const app = new StackAdminApp({
      projectId: PROJECT_ID,
      tokenStore: null,
      browser: null,
      environment: testEnvironment(service.fetch).env,
      projectOwnerSession: owner,
    });
    expect(await app.getSvixToken()).toBe("svix");
    expect(expired).toEqual([tokens[0]]);
    expect(service.requests.map((r) => r.headers["x-stack-admin-access-token"])).toEqual([tokens[0], tokens[1]]);
  });

  it("beside a key is a configuration error", () => {
    const { owner } = fakeOwnerSession();
    const options = { projectId: PROJECT_ID, tokenStore: null, browser: null, projectOwnerSession: owner, superSecretAdminKey: "sak" };
    expect(thrownBy(() => new StackAdminApp(options as unknown as StackAdminAppOptions)).message).toContain("not both");
  });

  it("that is not a session is a configuration error", () => {
    const options = { projectId: PROJECT_ID, tokenStore: null, browser: null, projectOwnerSession: {} };
    thrownBy(() => new StackAdminApp(options as unknown as StackAdminAppOptions));
  });
});

describe("each admin method sends its request", () => {
  const answers = {
    "/internal/projects/current": WIRE_PROJECT,
    "POST /internal/api-keys": {
      id: "k",
      description: "d",
      expires_at_millis: 4102444800000,
      created_at_millis: 1,
      secret_server_key: "ssk_full",
    },
    "POST /team-permission-definitions": { id: "p", contained_permission_ids: [] },
    "POST /project-permission-definitions": { id: "p", contained_permission_ids: [] },
    "/internal/send-test-email": { success: true },
    "/webhooks/svix-token": { token: "svix" },
    "/internal/metrics": { ...(documentedAnswer("getMetrics").body as object), total_users: 3 },
  };
  const smtp = { host: "h", port: 25, username: "u", password: "p", senderEmail: "s@example.com", senderName: "S" };
  const cases: [string, (app: StackAdminApp) => Promise<unknown>, string][] = [
    ["getProject", (a) => a.getProject(), "GET /internal/projects/current"],
    ["listInternalApiKeys", (a) => a.listInternalApiKeys(), "GET /internal/api-keys"],
    [
      "createInternalApiKey",
      (a) =>
        a.createInternalApiKey({
          description: "d",
          expiresAt: new Date(4102444800000),
          hasPublishableClientKey: false,
          hasSecretServerKey: true,
          hasSuperSecretAdminKey: false,
        }),
      "POST /internal/api-keys",
    ],
    ["listEmailTemplates", (a) => a.listEmailTemplates(), "GET /email-templates"],
    ["updateEmailTemplate", (a) => a.updateEmailTemplate("magic_link", { subject: "s" }), "PATCH /email-templates/magic_link"],
    ["resetEmailTemplate", (a) => a.resetEmailTemplate("magic_link"), "DELETE /email-templates/magic_link"],
    ["sendTestEmail", (a) => a.sendTestEmail({ recipientEmail: "r@example.com", emailConfig: smtp }), "POST /internal/send-test-email"],
    ["listSentEmails", (a) => a.listSentEmails(), "GET /internal/emails"],
    ["listTeamPermissionDefinitions", (a) => a.listTeamPermissionDefinitions(), "GET /team-permission-definitions"],
    ["createTeamPermissionDefinition", (a) => a.createTeamPermissionDefinition({ id: "p" }), "POST /team-permission-definitions"],
    [
      "updateTeamPermissionDefinition",
      (a) => a.updateTeamPermissionDefinition("p", { description: "x" }),
      "PATCH /team-permission-definitions/p",
    ],
    ["deleteTeamPermissionDefinition", (a) => a.deleteTeamPermissionDefinition("p"), "DELETE /team-permission-definitions/p"],
    ["listProjectPermissionDefinitions", (a) => a.listProjectPermissionDefinitions(), "GET /project-permission-definitions"],
    ["createProjectPermissionDefinition", (a) => a.createProjectPermissionDefinition({ id: "p" }), "POST /project-permission-definitions"],
    [
      "updateProjectPermissionDefinition",
      (a) => a.updateProjectPermissionDefinition("p", { description: "x" }),
      "PATCH /project-permission-definitions/p",
    ],
    ["deleteProjectPermissionDefinition", (a) => a.deleteProjectPermissionDefinition("p"), "DELETE /project-permission-definitions/p"],
    ["getSvixToken", (a) => a.getSvixToken(), "POST /webhooks/svix-token"],
    ["getMetrics", (a) => a.getMetrics(), "GET /internal/metrics"],
  ];

  it.each(cases)("%s", async (_, call, request) => {
    const { app, service } = adminApp(byPath(answers));
    await call(app);
    expect(sent(service).map((r) => `${r.method} ${r.path.replace("/api/v1", "")}`)).toEqual([request]);
    expect(service.requests[0]!.headers["x-stack-super-secret-admin-key"]).toBe(KEYS.superSecretAdminKey);
  });
});

describe("the admin project of an app", () => {
  it("updates, deletes and checks production mode", async () => {
    const { app, service } = adminApp(byPath({ "/internal/projects/current": WIRE_PROJECT }));
    const project = await app.getProject();
    await project.update({ config: { allowLocalhost: false } });
    await project.delete();
    expect((await project.getProductionModeErrors()).map((e) => e.message)).toEqual([
      "Trusted domains should be HTTPS: http://app.example.com",
    ]);
    expect(sent(service).slice(1)).toEqual([
      { method: "PATCH", path: "/api/v1/internal/projects/current", body: { config: { allow_localhost: false } } },
      { method: "DELETE", path: "/api/v1/internal/projects/current", body: undefined },
    ]);
  });

  it("createTeamPermissionDefinition of an existing id rejects with KnownErrors.PermissionIdAlreadyExists", async () => {
    const { app } = adminApp(() =>
      knownError(400, "PERMISSION_ID_ALREADY_EXISTS", 'Permission with ID "p" already exists. Choose a different ID.', {
        permission_id: "p",
      }),
    );
    expect(await rejectionOf(app.createTeamPermissionDefinition({ id: "p" }))).toBeInstanceOf(KnownErrors.PermissionIdAlreadyExists);
  });
});
