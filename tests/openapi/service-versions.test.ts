// The document describes both versions of the service clients meet (2.8.11, the spec's, and
// 2.8.86, the hosted one's): what one version leaves out is optional, what 2.8.86 adds and the
// SDK reads is described, removed and added operations say which version removed or added them,
// and every operation that takes a user's access token has the headers that allow anonymous and
// restricted users. Answers of either version pass the answer checker, which stays strict about
// types. Facts from reference/service-versions.md and the service's source at 2.8.86.
import { describe, expect, it } from "vitest";
import { answerShapeOf, mismatchOf } from "../../runtime/http/shape.js";
import { doc, operations, resolve } from "../fixtures/document.js";

interface Schema {
  readonly required?: readonly string[];
  readonly properties?: Record<string, unknown>;
  readonly $ref?: string;
}
interface Parameter {
  readonly name: string;
  readonly in: string;
  readonly required?: boolean;
  readonly $ref?: string;
}
type Op = (typeof operations)[number]["op"] & {
  readonly deprecated?: boolean;
  readonly description?: string;
  readonly "x-removed-in"?: string;
  readonly "x-added-in"?: string;
};

const schemas = doc.components.schemas as unknown as Record<string, Schema>;
const byId = new Map(operations.map((o) => [o.op.operationId, o as { path: string; method: string; op: Op }]));
const op = (id: string): Op => byId.get(id)?.op ?? (undefined as never);
const parameters = (id: string) => (op(id).parameters ?? []).map((p) => resolve(p as Parameter));
const bodySchema = (id: string) => resolve(op(id).requestBody!.content["application/json"]!.schema as Schema);
const optional = (schema: Schema, field: string) => {
  expect(Object.keys(schema.properties ?? {})).toContain(field);
  expect(schema.required ?? []).not.toContain(field);
};

const user2811 = {
  id: "3241a285-8329-4d69-8f3d-316e08cf140c",
  primary_email: "ada@example.com",
  primary_email_verified: true,
  primary_email_auth_enabled: true,
  display_name: "Ada Lovelace",
  client_metadata: {},
  client_read_only_metadata: {},
  server_metadata: {},
  profile_image_url: null,
  signed_up_at_millis: 1763251200000,
  last_active_at_millis: 1763683200000,
  has_password: true,
  auth_with_email: true,
  oauth_providers: [],
  selected_team_id: null,
  selected_team: null,
  requires_totp_mfa: false,
  otp_auth_enabled: false,
  passkey_auth_enabled: false,
  is_anonymous: false,
};
const user2886 = {
  ...user2811,
  primary_email_verified: false,
  is_restricted: true,
  restricted_reason: { type: "email_not_verified" },
  restricted_by_admin: false,
  restricted_by_admin_reason: null,
  restricted_by_admin_private_details: null,
  country_code: "GB",
  risk_scores: { sign_up: { bot: 0, free_trial_abuse: 12 } },
};
const config = {
  allow_localhost: true,
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
  domains: [],
  email_config: { type: "shared" },
  create_team_on_sign_up: false,
  team_creator_default_permissions: [],
  team_member_default_permissions: [],
  user_default_permissions: [],
  oauth_account_merge_strategy: "link_method",
};
const project2811 = {
  id: "6f4a3c2e-0b1d-4e5f-9a8b-7c6d5e4f3a2b",
  display_name: "Acme",
  description: null,
  created_at_millis: 1763251200000,
  user_count: 42,
  is_production_mode: false,
  config,
};
const { user_count: _, ...project2886Base } = project2811;
const project2886 = {
  ...project2886Base,
  description: "",
  owner_team_id: "9c2b7e4a-1f3d-4a6b-8e5c-2d7f9a1b3c5e",
  logo_url: null,
  logo_full_url: null,
  logo_dark_mode_url: null,
  logo_full_dark_mode_url: null,
  onboarding_status: "completed",
  config: { ...config, email_theme: "default-light" },
};
const checks = (id: string, value: unknown) => mismatchOf(answerShapeOf(id as never, 200)!, value);

describe("users", () => {
  it("describe 2.8.86's restriction fields as optional, on the client and the server view", () => {
    for (const name of ["ClientUser", "ServerUser"]) {
      for (const field of ["is_restricted", "restricted_reason", "restricted_by_admin", "restricted_by_admin_reason"]) {
        optional(schemas[name]!, field);
      }
    }
    for (const field of ["restricted_by_admin_private_details", "country_code", "risk_scores"]) {
      optional(schemas["ServerUser"]!, field);
      expect(Object.keys(schemas["ClientUser"]!.properties!)).not.toContain(field);
    }
  });

  it("of either version pass the answer checker; a field of the wrong type does not", () => {
    expect(checks("getUser", user2811)).toBeUndefined();
    expect(checks("getUser", user2886)).toBeUndefined();
    expect(checks("listUsers", { items: [user2811, user2886] })).toBeUndefined();
    expect(checks("getUser", { ...user2886, is_restricted: "yes" })?.path).toBe("$.is_restricted");
    expect(checks("getUser", { ...user2886, restricted_reason: { type: "banned" } })?.path).toBe("$.restricted_reason.type");
    expect(checks("getUser", { ...user2886, risk_scores: { sign_up: { bot: 101, free_trial_abuse: 0 } } })?.path).toBe("$.risk_scores.sign_up.bot");
  });

  it("GET /users takes 2.8.86's include_anonymous, include_restricted and only_anonymous, all optional", () => {
    const query = parameters("listUsers").filter((p) => p.in === "query");
    for (const name of ["include_anonymous", "include_restricted", "only_anonymous"]) {
      expect(query.find((p) => p.name === name)?.required).toBe(false);
    }
  });

  it("GET /internal/metrics takes include_anonymous", () => {
    expect(parameters("getMetrics").find((p) => p.name === "include_anonymous")).toMatchObject({ in: "query", required: false });
  });
});

describe("projects", () => {
  it("AdminProject describes 2.8.86's owner team, logos and onboarding stage as optional", () => {
    for (const field of ["owner_team_id", "logo_url", "logo_full_url", "logo_dark_mode_url", "logo_full_dark_mode_url", "onboarding_status"]) {
      optional(schemas["AdminProject"]!, field);
    }
  });

  // user_count stays required until the SDK's AdminProject.userCount may be absent (see the schema's description).
  it("a project of either version passes the answer checker", () => {
    expect(checks("listOwnedProjects", { items: [project2811] })).toBeUndefined();
    expect(checks("getAdminProject", { ...project2886, user_count: 3 })).toBeUndefined();
    expect(checks("getAdminProject", { ...project2886, user_count: 3, onboarding_status: 3 })?.path).toBe("$.onboarding_status");
  });

  it("POST /internal/projects takes owner_team_id, optional because 2.8.11 refuses it and 2.8.86 requires it", () => {
    const body = bodySchema("createOwnedProject");
    optional(body, "owner_team_id");
    expect(op("createOwnedProject").description).toContain("owner_team_id");
    expect(op("createOwnedProject")["x-stack-known-errors"]).toContain("TEAM_MEMBERSHIP_NOT_FOUND");
  });
});

describe("e-mails", () => {
  it("a sent e-mail without 2.8.11's sender_config, and with a null error, passes", () => {
    optional(schemas["SentEmail"]!, "sender_config");
    const sent = { id: "e6b2d8f4-1c9a-4f7e-a3b5-7d2e9c4f8a1b", subject: "Hi", sent_at_millis: 1763683200000, error: null };
    expect(checks("listSentEmails", { items: [{ ...sent, to: ["User ID: 3241a285-8329-4d69-8f3d-316e08cf140c"] }] })).toBeUndefined();
    expect(checks("listSentEmails", { items: [{ ...sent, to: ["ada@example.com"], sender_config: { type: "shared" } }] })).toBeUndefined();
  });

  it.each([
    ["listEmailTemplates", "GET", "/email-templates"],
    ["updateEmailTemplate", "PATCH", "/email-templates/{type}"],
    ["resetEmailTemplate", "DELETE", "/email-templates/{type}"],
  ])("%s (%s %s) is marked removed in 2.8.86", (id) => {
    expect(op(id).deprecated).toBe(true);
    expect(op(id)["x-removed-in"]).toBe("2.8.86");
    expect(op(id).description).toContain("Removed in 2.8.86");
  });

  it.each([
    ["listInternalEmailTemplates", "get", "/internal/email-templates"],
    ["updateInternalEmailTemplate", "patch", "/internal/email-templates/{template_id}"],
    ["deleteInternalEmailTemplate", "delete", "/internal/email-templates/{template_id}"],
  ])("%s (%s %s) is there, added in 2.8.86, for admins", (id, method, path) => {
    expect(byId.get(id)).toMatchObject({ method, path });
    expect(op(id)["x-added-in"]).toBe("2.8.86");
    expect(op(id).deprecated).toBeUndefined();
    expect(op(id).security?.flatMap((alt) => Object.keys(alt))).not.toContain("PublishableClientKey");
  });

  it("the template list answers {templates}, each with its id, name, source and theme", () => {
    const template = { id: "4b8e2f6a-9c1d-4e3b-a7f5-2d6c8e1a3b9f", display_name: "Welcome", tsx_source: "export {}" };
    expect(checks("listInternalEmailTemplates", { templates: [template, { ...template, theme_id: false }] })).toBeUndefined();
    expect(checks("listInternalEmailTemplates", { templates: [{ ...template, theme_id: true }] })?.path).toBe("$.templates[0].theme_id");
  });
});

describe("sign-up with a password", () => {
  it("takes verification_callback_url as optional (2.8.11 requires it, 2.8.86 does not)", () => {
    optional(bodySchema("signUpWithPassword"), "verification_callback_url");
    expect(op("signUpWithPassword").description).toContain("2.8.11");
  });
});

describe("anonymous and restricted users", () => {
  const takesUser = operations.filter(({ op }) => (op.security ?? []).some((alt) => "AccessToken" in alt));
  const headerNames = (o: { op: Op }) =>
    (o.op.parameters ?? []).map((p) => resolve(p as Parameter)).filter((p) => p.in === "header").map((p) => p.name);

  it("every operation that takes a user's access token has both allow headers, optional; no other does", () => {
    expect(takesUser.length).toBeGreaterThan(40);
    for (const o of operations) {
      const names = headerNames(o);
      const expected = takesUser.includes(o) ? ["x-stack-allow-anonymous-user", "x-stack-allow-restricted-user"] : [];
      expect(names.filter((n) => n.startsWith("x-stack-allow-")), `${o.method} ${o.path}`).toEqual(expected);
    }
    for (const p of parameters("getCurrentUser").filter((p) => p.name.startsWith("x-stack-allow-"))) expect(p.required).toBe(false);
  });

  it("every such operation lists the errors of a token the request did not allow", () => {
    for (const { op } of takesUser) {
      expect(op["x-stack-known-errors"]).toEqual(expect.arrayContaining(["ANONYMOUS_AUTHENTICATION_NOT_ALLOWED", "RESTRICTED_USER_NOT_ALLOWED"]));
    }
  });

  it("accepting a team invitation lists TEAM_INVITATION_RESTRICTED_USER_NOT_ALLOWED", () => {
    expect(op("acceptTeamInvitation")["x-stack-known-errors"]).toContain("TEAM_INVITATION_RESTRICTED_USER_NOT_ALLOWED");
  });
});
