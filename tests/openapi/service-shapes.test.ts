// What the service (v2.8.11) answers, typed in by hand from its route schemas and the
// inline snapshots of its end-to-end tests (stack-auth/stack-auth: apps/backend/src/app/api/latest,
// packages/stack-shared/src/interface/crud, apps/e2e/tests/backend/endpoints/api/v1). Each
// table states a fact of the service; the document must agree with it.
import { describe, expect, it } from "vitest";
import { operations, resolve, type Operation } from "../fixtures/document.js";

interface Schema {
  $ref?: string;
  type?: string | string[];
  const?: unknown;
  enum?: unknown[];
  required?: string[];
  properties?: Record<string, Schema>;
  additionalProperties?: boolean | Schema;
  items?: Schema;
  allOf?: Schema[];
  oneOf?: Schema[];
  anyOf?: Schema[];
}

const byId = new Map(operations.map((o) => [o.op.operationId!, o]));

function op(operationId: string): Operation {
  const found = byId.get(operationId);
  if (!found) throw new Error(`no operation ${operationId}`);
  return found.op;
}

const successStatuses = (o: Operation) => Object.keys(o.responses).filter((status) => /^2\d\d$/.test(status)).sort();

function jsonSchemaOf(o: Operation, status: string): Schema {
  const response = resolve(o.responses[status] ?? {});
  const schema = response.content?.["application/json"]?.schema as Schema | undefined;
  if (!schema) throw new Error(`${o.operationId} ${status} has no JSON schema`);
  return schema;
}

/** The properties and required fields of an object schema, through `$ref` and `allOf`. */
function flatten(raw: Schema): { properties: Record<string, Schema>; required: string[] } {
  const schema = resolve(raw);
  const parts = [schema, ...(schema.allOf ?? []).map((part) => flatten(part))];
  return {
    properties: Object.assign({}, ...parts.map((p) => p.properties ?? {})) as Record<string, Schema>,
    required: [...new Set(parts.flatMap((p) => p.required ?? []))].sort(),
  };
}

/** The success answer of an operation, flattened. */
function answerOf(operationId: string) {
  const o = op(operationId);
  const [status] = successStatuses(o);
  return flatten(jsonSchemaOf(o, status!));
}

describe("create calls answer with the service's status", () => {
  // Every POST of the document. The generic CRUD handler answers a create with 201; the API-key
  // creates are dedicated routes that answer 200; the other POSTs are actions that answer 200.
  const POST_STATUSES: [operationId: string, statuses: string[]][] = [
    ["exchangeOAuthToken", ["200"]],
    ["sendPasswordResetCode", ["200"]],
    ["resetPassword", ["200"]],
    ["checkPasswordResetCode", ["200"]],
    ["checkMagicLinkCode", ["200"]],
    ["checkEmailVerificationCode", ["200"]],
    ["updatePassword", ["200"]],
    ["setPassword", ["200"]],
    ["signInWithPassword", ["200"]],
    ["signUpWithPassword", ["200"]],
    ["signUpAnonymously", ["200"]],
    ["sendMagicLinkCode", ["200"]],
    ["signInWithMagicLink", ["200"]],
    ["initiatePasskeyRegistration", ["200"]],
    ["registerPasskey", ["200"]],
    ["initiatePasskeyAuthentication", ["200"]],
    ["signInWithPasskey", ["200"]],
    ["signInWithMfa", ["200"]],
    ["createSession", ["200"]],
    ["refreshCurrentSession", ["200"]],
    ["createCliLogin", ["200"]],
    ["pollCliLogin", ["200", "201"]],
    ["completeCliLogin", ["200"]],
    ["createUser", ["201"]],
    ["createTeam", ["201"]],
    ["addTeamMember", ["201"]],
    ["sendTeamInvitation", ["200"]],
    ["acceptTeamInvitation", ["200"]],
    // 2.8.86: a dedicated route answering 200 with an empty object.
    ["acceptTeamInvitationById", ["200"]],
    ["checkTeamInvitationCode", ["200"]],
    ["getTeamInvitationDetails", ["200"]],
    ["createContactChannel", ["201"]],
    ["sendEmailVerificationCode", ["200"]],
    ["verifyEmail", ["200"]],
    ["sendContactChannelVerificationCode", ["200"]],
    ["grantTeamPermission", ["201"]],
    ["grantProjectPermission", ["201"]],
    ["createTeamPermissionDefinition", ["201"]],
    ["createProjectPermissionDefinition", ["201"]],
    ["createUserApiKey", ["200"]],
    ["checkUserApiKey", ["200"]],
    ["createTeamApiKey", ["200"]],
    ["checkTeamApiKey", ["200"]],
    ["createOwnedProject", ["201"]],
    ["createInternalApiKey", ["200"]],
    ["sendTestEmail", ["200"]],
    ["createSvixToken", ["201"]],
    ["createConnectedAccountAccessToken", ["201"]],
    ["checkFeatureSupport", ["200"]],
  ];

  it("the table lists every POST of the document", () => {
    const posts = operations.filter((o) => o.method === "post").map((o) => o.op.operationId!).sort();
    expect(POST_STATUSES.map(([id]) => id).sort()).toEqual(posts);
  });

  it.each(POST_STATUSES)("%s answers %j", (operationId, statuses) => {
    expect(successStatuses(op(operationId))).toEqual(statuses);
  });
});

describe("calls that create something answer the created object, not {success}", () => {
  const CREATED: [operationId: string, required: string[]][] = [
    ["addTeamMember", ["team_id", "user_id"]],
    ["grantTeamPermission", ["id", "team_id", "user_id"]],
    ["grantProjectPermission", ["id", "user_id"]],
  ];

  it.each(CREATED)("%s answers an object with exactly the fields %j", (operationId, required) => {
    const answer = answerOf(operationId);
    expect(answer.required).toEqual(required);
    expect(Object.keys(answer.properties).sort()).toEqual(required);
  });

  it("acceptTeamInvitation answers an empty object", () => {
    const answer = answerOf("acceptTeamInvitation");
    expect(answer).toEqual({ properties: {}, required: [] });
    const example = resolve(Object.values(resolve(op("acceptTeamInvitation").responses["200"]!).content!["application/json"]!.examples!)[0]!);
    expect(example.value).toEqual({});
  });

  it("sendTeamInvitation answers the invitation's id with success", () => {
    const answer = answerOf("sendTeamInvitation");
    expect(answer.required).toEqual(["id", "success"]);
    expect(answer.properties["id"]).toMatchObject({ type: "string", format: "uuid" });
  });
});

describe("sign-in answers", () => {
  const WITHOUT_IS_NEW_USER = ["signInWithPassword", "signUpWithPassword", "signUpAnonymously"];
  const WITH_IS_NEW_USER = ["signInWithMagicLink", "signInWithMfa", "signInWithPasskey"];

  it.each(WITHOUT_IS_NEW_USER)("%s answers access_token, refresh_token and user_id, and no is_new_user", (operationId) => {
    const answer = answerOf(operationId);
    expect(answer.required).toEqual(["access_token", "refresh_token", "user_id"]);
    expect(Object.keys(answer.properties).sort()).toEqual(["access_token", "refresh_token", "user_id"]);
  });

  it.each(WITH_IS_NEW_USER)("%s answers access_token, refresh_token, user_id and is_new_user", (operationId) => {
    const answer = answerOf(operationId);
    expect(answer.required).toEqual(["access_token", "is_new_user", "refresh_token", "user_id"]);
    expect(answer.properties["is_new_user"]).toEqual({ type: "boolean" });
  });

  it("registerPasskey always answers user_handle", () => {
    expect(answerOf("registerPasskey").required).toEqual(["user_handle"]);
  });
});

describe("GET /internal/metrics", () => {
  it("answers the dashboard figures the service always sends", () => {
    const answer = answerOf("getMetrics");
    expect(answer.required).toEqual([
      "daily_active_users",
      "daily_users",
      "login_methods",
      "recently_active",
      "recently_registered",
      "total_users",
      "users_by_country",
    ]);
    for (const series of ["daily_users", "daily_active_users"]) {
      expect(flatten(answer.properties[series]!.items!).required).toEqual(["activity", "date"]);
    }
    for (const users of ["recently_registered", "recently_active"]) {
      expect(answer.properties[users]!.items).toEqual({ $ref: "#/components/schemas/ServerUser" });
    }
    expect(flatten(answer.properties["login_methods"]!.items!).required).toEqual(["count", "method"]);
    expect(answer.properties["total_users"]).toEqual({ type: "integer" });
  });
});

describe("request bodies", () => {
  it("no DELETE requires a body", () => {
    const requiring = operations
      .filter((o) => o.method === "delete" && (o.op.requestBody as { required?: boolean } | undefined)?.required === true)
      .map((o) => o.op.operationId);
    expect(requiring).toEqual([]);
  });

  // The service reads no body for these (a DELETE's schema is `yupMixed()`, the passkey starts
  // declare none, `POST /auth/cli` defaults it to `{}`); a client may leave it out.
  it.each([
    "deleteUser",
    "deleteTeam",
    "signOutCurrentSession",
    "removeTeamMember",
    "revokeTeamPermission",
    "revokeProjectPermission",
    "initiatePasskeyRegistration",
    "initiatePasskeyAuthentication",
    "createCliLogin",
  ])("%s takes an optional body", (operationId) => {
    expect((op(operationId).requestBody as { required?: boolean } | undefined)?.required).toBe(false);
  });

  // Their create schema is `yupObject({}).defined()`: the service needs `{}`.
  it.each(["addTeamMember", "grantTeamPermission", "grantProjectPermission", "createSvixToken"])("%s requires the body {}", (operationId) => {
    const body = op(operationId).requestBody as { required?: boolean; content: Record<string, { schema: Schema }> };
    expect(body.required).toBe(true);
    expect(body.content["application/json"]!.schema).toEqual({ type: "object", additionalProperties: false });
  });

  it.each(["updateUserApiKey", "updateTeamApiKey", "updateInternalApiKey"])(
    "%s takes only description and revoked: true (the service refuses expires_at_millis)",
    (operationId) => {
      const body = op(operationId).requestBody as { content: Record<string, { schema: Schema }> };
      const schema = body.content["application/json"]!.schema;
      expect(Object.keys(schema.properties ?? {}).sort()).toEqual(["description", "revoked"]);
      expect(schema.properties!["revoked"]!.const).toBe(true);
      expect(schema.additionalProperties).toBe(false);
    },
  );
});

describe("API keys", () => {
  // The service leaves these fields out when the key has no expiry or is not revoked; it never sends null.
  it.each([
    ["UserApiKey", ["expires_at_millis", "manually_revoked_at_millis"]],
    ["TeamApiKey", ["expires_at_millis", "manually_revoked_at_millis"]],
    ["UserApiKeyFirstView", ["expires_at_millis", "manually_revoked_at_millis"]],
    ["TeamApiKeyFirstView", ["expires_at_millis", "manually_revoked_at_millis"]],
    ["InternalApiKey", ["manually_revoked_at_millis"]],
    ["InternalApiKeyFirstView", ["manually_revoked_at_millis"]],
  ])("%s has %j optional and never null", (name, fields) => {
    const schema = flatten({ $ref: `#/components/schemas/${name}` });
    for (const field of fields) {
      expect(schema.required).not.toContain(field);
      expect(resolve(schema.properties[field]!).type).toBe("number");
    }
  });
});

/** A small JSON Schema check, enough for the keywords the document's answers use. */
function violations(raw: Schema, value: unknown, at = "$"): string[] {
  const schema = resolve(raw);
  const found: string[] = [];
  if (schema.allOf) for (const part of schema.allOf) found.push(...violations(part, value, at));
  if (schema.oneOf && schema.oneOf.filter((part) => violations(part, value, at).length === 0).length !== 1) found.push(`${at}: not exactly one of oneOf`);
  if (schema.anyOf && !schema.anyOf.some((part) => violations(part, value, at).length === 0)) found.push(`${at}: none of anyOf`);
  if ("const" in schema && value !== schema.const) found.push(`${at}: not ${JSON.stringify(schema.const)}`);
  if (schema.enum && !schema.enum.includes(value)) found.push(`${at}: not in enum`);
  if (schema.type !== undefined) {
    const kind = value === null ? "null" : Array.isArray(value) ? "array" : typeof value;
    const types = Array.isArray(schema.type) ? schema.type : [schema.type];
    const matches = types.some((t) => t === kind || (t === "integer" && Number.isInteger(value)) || (t === "number" && kind === "number"));
    if (!matches) return [...found, `${at}: ${kind} is not ${types.join("|")}`];
  }
  if (value !== null && typeof value === "object" && !Array.isArray(value)) {
    const record = value as Record<string, unknown>;
    for (const key of schema.required ?? []) if (!(key in record)) found.push(`${at}.${key}: missing`);
    for (const [key, child] of Object.entries(record)) {
      const property = schema.properties?.[key];
      if (property) found.push(...violations(property, child, `${at}.${key}`));
      else if (schema.additionalProperties === false) found.push(`${at}.${key}: not allowed`);
      else if (typeof schema.additionalProperties === "object") found.push(...violations(schema.additionalProperties, child, `${at}.${key}`));
    }
  }
  if (Array.isArray(value) && schema.items) value.forEach((item, i) => found.push(...violations(schema.items!, item, `${at}[${i}]`)));
  return found;
}

describe("success examples", () => {
  const cases = operations.flatMap(({ method, path, op: o }) =>
    successStatuses(o).flatMap((status) => {
      const media = resolve(o.responses[status]!).content?.["application/json"];
      if (!media?.schema) return [];
      const examples = Object.entries(media.examples ?? {}).map(([name, example]) => [name, resolve(example).value] as const);
      return examples.map(([name, value]) => [`${method.toUpperCase()} ${path} ${status} ${name}`, media.schema as Schema, value] as const);
    }),
  );

  it("are checked for every JSON answer", () => {
    expect(cases.length).toBeGreaterThan(80);
  });

  it.each(cases)("%s agrees with its schema", (_, schema, value) => {
    expect(violations(schema, value)).toEqual([]);
  });

  it("the checker catches a field the schema requires", () => {
    expect(violations({ $ref: "#/components/schemas/TeamMembership" }, { team_id: "t" })).toEqual(["$.user_id: missing"]);
  });
});

