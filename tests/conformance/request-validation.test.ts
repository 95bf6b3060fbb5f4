// Request validation as the service words it: its request schemas (yup, through
// packages/stack-shared/src/schema-fields.ts) check every field and list every
// problem under "Request validation failed on <METHOD> <path asked>:" (route-
// handlers/smart-request.tsx), a missing field "must be defined", unknown body
// properties "body contains unknown properties: a, b" (yupObject's own test),
// a wrong type yup's "must be a `string` type, but the final value was: …";
// yup coerces a number where a string is wanted (and prints numbers inside an
// object quoted, as its printValue does). The token endpoint parses a
// body by its content type, so a JSON refresh grant works as a form one. The
// feature-support report takes any body and needs no project.
import { describe, expect, it } from "vitest";
import { DEMO_KEYS, PASSWORD, serviceOf, SERVICE_VERSIONS, signUp } from "./harness.js";

function schemaError(method: string, path: string, ...problems: string[]) {
  const message = `Request validation failed on ${method} /api/v1${path}:\n${problems.map((p) => `  - ${p}`).join("\n")}`;
  return { code: "SCHEMA_ERROR", details: { message }, error: message };
}

describe.each(SERVICE_VERSIONS)("request validation on %s", (version) => {
  it("answers a missing body field 'must be defined'", async () => {
    const service = await serviceOf(version);
    const answer = await service.call("POST", "/auth/password/sign-in", { body: { email: "ada@example.com" } });
    expect([answer.status, answer.body]).toEqual([400, schemaError("POST", "/auth/password/sign-in", "body.password must be defined")]);
  });

  it("lists every problem, field errors before unknown properties", async () => {
    const service = await serviceOf(version);
    const answer = await service.call("POST", "/auth/password/sign-in", { body: { colour: "blue", shade: 3 } });
    expect([answer.status, answer.body]).toEqual([
      400,
      schemaError(
        "POST",
        "/auth/password/sign-in",
        "body.email must be defined",
        "body.password must be defined",
        "body contains unknown properties: colour, shade",
      ),
    ]);
  });

  it("answers an unknown body property 'body contains unknown properties'", async () => {
    const service = await serviceOf(version);
    const answer = await service.call("POST", "/auth/password/sign-in", {
      body: { email: "ada@example.com", password: PASSWORD, server_metadata: {} },
    });
    expect([answer.status, answer.body]).toEqual([
      400,
      schemaError("POST", "/auth/password/sign-in", "body contains unknown properties: server_metadata"),
    ]);
  });

  it("answers a wrong type in yup's words", async () => {
    const service = await serviceOf(version);
    const answer = await service.call("POST", "/auth/password/sign-in", { body: { email: { a: 1 }, password: PASSWORD } });
    expect([answer.status, answer.body]).toEqual([
      400,
      schemaError("POST", "/auth/password/sign-in", 'body.email must be a `string` type, but the final value was: `{\n  "a": "1"\n}`.'),
    ]);
  });

  it("takes a number where a string is wanted, as yup coerces it", async () => {
    const service = await serviceOf(version);
    const answer = await service.call("POST", "/auth/password/sign-in", { body: { email: "ada@example.com", password: 12345678 } });
    expect([answer.status, answer.body.code]).toEqual([400, "EMAIL_PASSWORD_MISMATCH"]);
  });

  it("answers a body that is not JSON BODY_PARSING_ERROR", async () => {
    const service = await serviceOf(version);
    const response = await service.emulator.fetch(
      new Request(`${service.emulator.apiOrigin}/api/v1/auth/password/sign-in`, {
        method: "POST",
        headers: {
          "x-stack-project-id": DEMO_KEYS.projectId,
          "x-stack-access-type": "client",
          "x-stack-publishable-client-key": DEMO_KEYS.publishableClientKey!,
          "content-type": "application/json",
        },
        body: "{not json",
      }),
    );
    expect([response.status, await response.json()]).toEqual([400, { code: "BODY_PARSING_ERROR", error: "Invalid JSON in request body" }]);
  });

  it("refreshes an access token with a JSON body on POST /auth/oauth/token", async () => {
    const service = await serviceOf(version);
    const user = await signUp(service, "ada@example.com");
    const response = await service.emulator.fetch(
      new Request(`${service.emulator.apiOrigin}/api/v1/auth/oauth/token`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          grant_type: "refresh_token",
          refresh_token: user.refreshToken,
          client_id: DEMO_KEYS.projectId,
          client_secret: DEMO_KEYS.publishableClientKey,
        }),
      }),
    );
    const body = await response.json();
    expect([response.status, typeof body.access_token]).toEqual([200, "string"]);
  });

  it("answers POST /check-feature-support with feature_name, whatever else the body holds", async () => {
    const service = await serviceOf(version);
    const named = await service.call("POST", "/check-feature-support", { body: { feature_name: "some-feature", extra: 1 } });
    expect([named.status, named.body]).toEqual([
      200,
      "some-feature is not yet supported. Please reach out to Stack support for more information.",
    ]);
    const empty = await service.call("POST", "/check-feature-support", { body: {} });
    expect([empty.status, empty.body]).toEqual([
      200,
      "This feature is not yet supported. Please reach out to Stack support for more information.",
    ]);
  });

  it("answers POST /check-feature-support without a project", async () => {
    const service = await serviceOf(version);
    const response = await service.emulator.fetch(
      new Request(`${service.emulator.apiOrigin}/api/v1/check-feature-support`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ feature_name: "some-feature" }),
      }),
    );
    expect([response.status, await response.text()]).toEqual([
      200,
      "some-feature is not yet supported. Please reach out to Stack support for more information.",
    ]);
  });

  it("refuses unknown query parameters where the route declares a query schema, after the query's field problems", async () => {
    const service = await serviceOf(version);
    const listed = await service.call("GET", "/users?colour=red&limit=x&shade=1", { as: "server" });
    expect([listed.status, listed.body]).toEqual([
      400,
      schemaError("GET", "/users", "query.limit must be an integer", "query contains unknown properties: colour, shade"),
    ]);
    const created = await service.call("POST", "/teams?colour=red", { as: "server", body: { display_name: "T" } });
    expect([created.status, created.body]).toEqual([400, schemaError("POST", "/teams", "query contains unknown properties: colour")]);
  });

  it("takes on every operation of a CRUD route the names of its one query schema, and only those", async () => {
    const service = await serviceOf(version);
    const user = await signUp(service, "ada@example.com");
    const read = await service.call("GET", `/users/${user.userId}?limit=5&team_id=${crypto.randomUUID()}`, { as: "server" });
    expect([read.status, read.body.id]).toEqual([200, user.userId]);
    const anonymous = await service.call("GET", `/users/${user.userId}?include_anonymous=true`, { as: "server" });
    if (version === "2.8.11") {
      expect([anonymous.status, anonymous.body]).toEqual([
        400,
        schemaError("GET", `/users/${user.userId}`, "query contains unknown properties: include_anonymous"),
      ]);
    } else {
      expect([anonymous.status, anonymous.body.id]).toEqual([200, user.userId]);
    }
    const refused = await service.call("GET", `/users/${user.userId}?cursorr=1`, { as: "server" });
    expect([refused.status, refused.body]).toEqual([
      400,
      schemaError("GET", `/users/${user.userId}`, "query contains unknown properties: cursorr"),
    ]);
    service.expectViolations(/limit|team_id|include_anonymous/);
  });

  it("takes any query where the route declares no query schema", async () => {
    const service = await serviceOf(version);
    await signUp(service, "ada@example.com");
    const answer = await service.call("POST", "/auth/password/sign-in?colour=red", {
      body: { email: "ada@example.com", password: PASSWORD },
    });
    expect(answer.status).toBe(200);
    service.expectViolations(/colour/);
  });

  it("answers a missing body 'body must be defined'", async () => {
    const service = await serviceOf(version);
    const answer = await service.call("POST", "/auth/password/sign-in");
    expect([answer.status, answer.body]).toEqual([400, schemaError("POST", "/auth/password/sign-in", "body must be defined")]);
  });
});

describe("unknown query parameters on 2.8.11", () => {
  it("refuses stack_response_mode on the authorize call", async () => {
    const service = await serviceOf("2.8.11");
    const answer = await service.call("GET", `/auth/oauth/authorize/github?stack_response_mode=json`);
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe("SCHEMA_ERROR");
    expect(answer.body.error).toMatch(/\n  - query contains unknown properties: stack_response_mode$/);
  });
});
