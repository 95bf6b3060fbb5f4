// The exchange validator on a small document written like the real one: path-level
// parameters, closed request bodies, open answers, and known errors as a `oneOf` with
// the `x-stack-known-error` header, reached through `$ref`s.
import { describe, expect, it } from "vitest";
import { createExchangeValidator, type Exchange } from "./openapi-validator.js";

const userId = "3241a285-8329-4d69-8f3d-316e08cf140c";

const knownError = (code: string, details?: object) => ({
  type: "object",
  required: ["code", "error"],
  properties: { code: { const: code }, error: { type: "string" }, ...(details ? { details } : {}) },
});

const document = {
  openapi: "3.1.0",
  servers: [{ url: "https://api.example.com/api/v1" }],
  paths: {
    "/users/{user_id}": {
      parameters: [{ $ref: "#/components/parameters/UserIdPath" }],
      get: {
        operationId: "getUser",
        responses: {
          "200": { description: "The user.", content: { "application/json": { schema: { $ref: "#/components/schemas/User" } } } },
          "404": { $ref: "#/components/responses/NotFound" },
        },
      },
      patch: {
        operationId: "updateUser",
        parameters: [{ name: "dry_run", in: "query", schema: { type: "boolean" } }],
        requestBody: {
          required: true,
          content: {
            "application/json": {
              schema: {
                type: "object",
                additionalProperties: false,
                properties: { display_name: { type: ["string", "null"] }, age: { type: "integer", minimum: 0 } },
              },
            },
          },
        },
        responses: {
          "200": { description: "The user.", content: { "application/json": { schema: { $ref: "#/components/schemas/User" } } } },
          "400": { $ref: "#/components/responses/BadRequest" },
          default: { $ref: "#/components/responses/StatusError" },
        },
      },
    },
    "/users/me": {
      get: {
        operationId: "getCurrentUser",
        responses: {
          "200": { description: "The user.", content: { "application/json": { schema: { $ref: "#/components/schemas/User" } } } },
        },
      },
    },
    "/users": {
      get: {
        operationId: "listUsers",
        parameters: [
          { name: "limit", in: "query", schema: { type: "integer", minimum: 1 } },
          { name: "x-trace", in: "header", required: true, schema: { type: "string", pattern: "^t-" } },
        ],
        responses: {
          "200": {
            description: "A page of users.",
            content: {
              "application/json": {
                schema: {
                  type: "object",
                  required: ["items"],
                  properties: { items: { type: "array", items: { $ref: "#/components/schemas/User" } } },
                },
              },
            },
          },
        },
      },
    },
    "/me": {
      get: {
        operationId: "getMe",
        responses: {
          "200": {
            description: "A user or an administrator.",
            content: {
              "application/json": { schema: { anyOf: [{ $ref: "#/components/schemas/User" }, { $ref: "#/components/schemas/Admin" }] } },
            },
          },
        },
      },
    },
    "/ping": {
      delete: {
        operationId: "deletePing",
        responses: { "200": { description: "Done.", content: { "text/plain": { schema: { type: "string" } } } } },
      },
    },
  },
  components: {
    parameters: {
      UserIdPath: { name: "user_id", in: "path", required: true, schema: { type: "string" } },
    },
    schemas: {
      User: {
        type: "object",
        required: ["id", "display_name"],
        properties: {
          id: { type: "string", format: "uuid" },
          display_name: { type: ["string", "null"] },
          team: { oneOf: [{ $ref: "#/components/schemas/Team" }, { type: "null" }] },
        },
      },
      Team: { type: "object", required: ["id", "name"], properties: { id: { type: "string" }, name: { type: "string" } } },
      Admin: { type: "object", required: ["id", "admin_level", "granted_by"], properties: { id: { type: "string" } } },
      USER_NOT_FOUND: knownError("USER_NOT_FOUND"),
      SCHEMA_ERROR: knownError("SCHEMA_ERROR", { type: "object", required: ["message"], properties: { message: { type: "string" } } }),
      PASSWORD_TOO_SHORT: knownError("PASSWORD_TOO_SHORT", {
        type: "object",
        required: ["min_length"],
        properties: { min_length: { type: "integer" } },
      }),
    },
    headers: {
      KnownError: { schema: { type: "string" } },
      ActualStatus: { schema: { type: "string", pattern: "^[1-5][0-9][0-9]$" } },
    },
    responses: {
      NotFound: {
        description: "Known error.",
        headers: {
          "x-stack-known-error": { $ref: "#/components/headers/KnownError" },
          "x-stack-actual-status": { $ref: "#/components/headers/ActualStatus" },
        },
        content: { "application/json": { schema: { oneOf: [{ $ref: "#/components/schemas/USER_NOT_FOUND" }] } } },
      },
      BadRequest: {
        description: "Known error.",
        headers: {
          "x-stack-known-error": { $ref: "#/components/headers/KnownError" },
          "x-stack-actual-status": { $ref: "#/components/headers/ActualStatus" },
        },
        content: {
          "application/json": {
            schema: { oneOf: [{ $ref: "#/components/schemas/SCHEMA_ERROR" }, { $ref: "#/components/schemas/PASSWORD_TOO_SHORT" }] },
          },
          "text/plain": { schema: { type: "string" } },
        },
      },
      StatusError: {
        description: "A plain-text status error.",
        headers: { "x-stack-actual-status": { $ref: "#/components/headers/ActualStatus" } },
        content: { "text/plain": { schema: { type: "string" } } },
      },
    },
  },
};

const validator = createExchangeValidator(document);
const user = { id: userId, display_name: "Ada", signed_up_at_millis: 1746000000000 };
const getUser = (response: Exchange["response"]): Exchange => ({ request: { method: "GET", path: `/users/${userId}` }, response });
const patchUser = (body: unknown, response: Exchange["response"] = { status: 200, body: user }): Exchange => ({
  request: { method: "PATCH", path: `/users/${userId}`, body },
  response,
});
const notFound = { code: "USER_NOT_FOUND", error: "User not found." };

describe("a valid exchange", () => {
  it("passes, extra answer fields included (answers are open)", () => {
    expect(validator.validate(getUser({ status: 200, body: user }))).toEqual([]);
  });

  it("passes for a known error whose header equals body.code", () => {
    expect(validator.validate(getUser({ status: 404, headers: { "X-Stack-Known-Error": "USER_NOT_FOUND" }, body: notFound }))).toEqual([]);
  });

  it("passes with the /api/v1 prefix and the query in the path", () => {
    const exchange: Exchange = {
      request: { method: "get", path: "/api/v1/users?limit=2", headers: { "x-trace": "t-1" } },
      response: { status: 200, body: { items: [user] } },
    };
    expect(validator.validate(exchange)).toEqual([]);
  });

  it("passes for a documented text answer", () => {
    expect(validator.validate({ request: { method: "DELETE", path: "/ping" }, response: { status: 200, body: "pong" } })).toEqual([]);
  });
});

describe("plain-text status errors", () => {
  const refused = (status: number, body: unknown, headers?: Record<string, string>) =>
    patchUser({ age: 1 }, { status, body, ...(headers ? { headers } : {}) });
  const tooShort = { code: "PASSWORD_TOO_SHORT", error: "Password too short.", details: {} };

  it("pass beside the JSON known errors of their status, and under the default response", () => {
    expect(validator.validate(refused(400, "User API keys are not enabled for this project."))).toEqual([]);
    expect(
      validator.validate(refused(403, "Client can only manage their own api keys", { "content-type": "text/plain; charset=utf-8" })),
    ).toEqual([]);
  });

  it("leave a JSON known error checked against its own code's schema", () => {
    expect(validator.validate(refused(400, tooShort, { "x-stack-known-error": "PASSWORD_TOO_SHORT" }))).toEqual([
      { path: "/response/body/details/min_length", message: "is required" },
    ]);
  });

  it("read an answer with x-stack-known-error as JSON whatever its recorded content type", () => {
    expect(
      validator.validate(refused(400, tooShort, { "x-stack-known-error": "PASSWORD_TOO_SHORT", "content-type": "text/plain" })),
    ).toEqual([{ path: "/response/body/details/min_length", message: "is required" }]);
  });

  it("do not carry x-stack-known-error", () => {
    expect(validator.validate(refused(400, "Password too short.", { "x-stack-known-error": "PASSWORD_TOO_SHORT" }))).toEqual([
      { path: "/response/headers/x-stack-known-error", message: "x-stack-known-error is PASSWORD_TOO_SHORT but body.code is absent" },
      { path: "/response/body", message: "the answer carries x-stack-known-error but its body is not a JSON object" },
    ]);
  });

  it("do not make a JSON body valid under the text-only default response", () => {
    expect(
      validator.validate(refused(403, { code: "USER_NOT_FOUND", error: "User not found." }, { "x-stack-known-error": "USER_NOT_FOUND" })),
    ).toEqual([{ path: "/response/body", message: "the body is application/json but status 403 of updateUser documents only text/plain" }]);
  });
});

describe("violations", () => {
  it("a wrong type in the answer, at the field's path", () => {
    expect(validator.validate(getUser({ status: 200, body: { ...user, display_name: 42 } }))).toEqual([
      { path: "/response/body/display_name", message: "must be string,null" },
    ]);
  });

  it("a missing required field in the answer, at the field's path", () => {
    expect(validator.validate(getUser({ status: 200, body: { display_name: "Ada" } }))).toEqual([
      { path: "/response/body/id", message: "is required" },
    ]);
  });

  it("a wrong format nested in a list", () => {
    const exchange: Exchange = {
      request: { method: "GET", path: "/users", headers: { "x-trace": "t-1" } },
      response: { status: 200, body: { items: [user, { id: "not-a-uuid", display_name: null }] } },
    };
    expect(validator.validate(exchange)).toEqual([{ path: "/response/body/items/1/id", message: 'must match format "uuid"' }]);
  });

  it("a fault inside a nullable object, without the alternatives' noise", () => {
    expect(validator.validate(getUser({ status: 200, body: { ...user, team: { id: "t1" } } }))).toEqual([
      { path: "/response/body/team/name", message: "is required" },
    ]);
  });

  it("the faults of the closest alternative of a top-level anyOf only", () => {
    const exchange: Exchange = {
      request: { method: "GET", path: "/me" },
      response: { status: 200, body: { ...user, team: { id: "t1", name: 3 } } },
    };
    expect(validator.validate(exchange)).toEqual([{ path: "/response/body/team/name", message: "must be string" }]);
  });

  it("an undocumented status", () => {
    expect(validator.validate(getUser({ status: 403, body: "Forbidden" }))).toEqual([
      { path: "/response/status", message: "status 403 is not documented for getUser (documented: 200, 404)" },
    ]);
  });

  it("an extra request-body field of a closed body", () => {
    expect(validator.validate(patchUser({ display_name: "Ada", server_metadata: {} }))).toEqual([
      { path: "/request/body/server_metadata", message: "is not allowed (the schema is closed)" },
    ]);
  });

  it("a wrong request-body type", () => {
    expect(validator.validate(patchUser({ age: -1 }))).toEqual([{ path: "/request/body/age", message: "must be >= 0" }]);
  });

  it("a missing required request body", () => {
    expect(validator.validate(patchUser(undefined))).toEqual([{ path: "/request/body", message: "the request body is required" }]);
  });

  it("an undocumented request content type", () => {
    const exchange: Exchange = {
      request: {
        method: "PATCH",
        path: `/users/${userId}`,
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: { age: 1 },
      },
      response: { status: 200, body: user },
    };
    expect(validator.validate(exchange)).toEqual([
      {
        path: "/request/headers/content-type",
        message: "the request content type application/x-www-form-urlencoded is not documented (documented: application/json)",
      },
    ]);
  });

  it("a query parameter of the wrong type, an undocumented one, and a missing required header", () => {
    const exchange: Exchange = {
      request: { method: "GET", path: "/users", query: { limit: "0", cursor: "abc" } },
      response: { status: 200, body: { items: [] } },
    };
    expect(validator.validate(exchange)).toEqual([
      { path: "/request/query/limit", message: "must be >= 1" },
      { path: "/request/headers/x-trace", message: "the required header parameter x-trace is missing" },
      { path: "/request/query/cursor", message: "the query parameter cursor is not documented for this operation" },
    ]);
  });

  it("a header whose value breaks its schema", () => {
    const exchange: Exchange = {
      request: { method: "GET", path: "/users", headers: { "x-trace": "trace" } },
      response: { status: 200, body: { items: [] } },
    };
    expect(validator.validate(exchange)).toEqual([{ path: "/request/headers/x-trace", message: 'must match pattern "^t-"' }]);
  });

  it("a x-stack-known-error header that differs from body.code", () => {
    expect(validator.validate(getUser({ status: 404, headers: { "x-stack-known-error": "TEAM_NOT_FOUND" }, body: notFound }))).toEqual([
      { path: "/response/headers/x-stack-known-error", message: "x-stack-known-error is TEAM_NOT_FOUND but body.code is USER_NOT_FOUND" },
    ]);
  });

  it("a recorded header set that lacks the required x-stack-known-error", () => {
    expect(validator.validate(getUser({ status: 404, headers: {}, body: notFound }))).toEqual([
      {
        path: "/response/headers/x-stack-known-error",
        message: "the x-stack-known-error header is missing for the known error USER_NOT_FOUND",
      },
    ]);
  });

  it("a known error the status does not list", () => {
    const body = { code: "PASSWORD_TOO_SHORT", error: "Password too short.", details: { min_length: 8 } };
    expect(validator.validate(getUser({ status: 404, headers: { "x-stack-known-error": "PASSWORD_TOO_SHORT" }, body }))).toEqual([
      { path: "/response/body/code", message: "the known error PASSWORD_TOO_SHORT is not documented for status 404 of getUser" },
    ]);
  });

  it("a known error checked against its own code's schema only", () => {
    const body = { code: "PASSWORD_TOO_SHORT", error: "Password too short.", details: {} };
    expect(
      validator.validate(patchUser({ age: 1 }, { status: 400, headers: { "x-stack-known-error": "PASSWORD_TOO_SHORT" }, body })),
    ).toEqual([{ path: "/response/body/details/min_length", message: "is required" }]);
  });

  it("a text answer where JSON is documented", () => {
    expect(validator.validate(getUser({ status: 200, body: "Ada" }))).toEqual([
      { path: "/response/body", message: "the body is text/plain but status 200 of getUser documents only application/json" },
    ]);
  });

  it("an unknown path, and a known path with an undocumented method", () => {
    expect(validator.validate({ request: { method: "GET", path: "/nope" }, response: { status: 200 } })).toEqual([
      { path: "/request", message: "no operation of the document matches GET /nope" },
    ]);
    expect(validator.validate({ request: { method: "POST", path: "/users/me" }, response: { status: 200 } })).toEqual([
      { path: "/request", message: "POST is not documented for /users/me (documented: GET, PATCH)" },
    ]);
  });
});

describe("override-error-status", () => {
  const override = { method: "GET", path: `/users/${userId}`, headers: { "x-stack-override-error-status": "true" } };

  it("reads an HTTP 200 with x-stack-actual-status as that status", () => {
    const exchange: Exchange = {
      request: override,
      response: { status: 200, headers: { "x-stack-actual-status": "404", "x-stack-known-error": "USER_NOT_FOUND" }, body: notFound },
    };
    expect(validator.validate(exchange)).toEqual([]);
  });

  it("accepts the recording of the rebuilt status", () => {
    const exchange: Exchange = {
      request: override,
      response: { status: 404, headers: { "x-stack-actual-status": "404", "x-stack-known-error": "USER_NOT_FOUND" }, body: notFound },
    };
    expect(validator.validate(exchange)).toEqual([]);
  });

  it("rejects x-stack-actual-status without the request header, or with a third status", () => {
    const exchange: Exchange = {
      request: { method: "GET", path: `/users/${userId}` },
      response: { status: 500, headers: { "x-stack-actual-status": "404", "x-stack-known-error": "USER_NOT_FOUND" }, body: notFound },
    };
    expect(validator.validate(exchange)).toEqual([
      {
        path: "/response/headers/x-stack-actual-status",
        message: "x-stack-actual-status answers a request without x-stack-override-error-status",
      },
      { path: "/response/status", message: "with x-stack-actual-status 404 the HTTP status must be 200 or 404, got 500" },
    ]);
  });
});

describe("request violations and the service's answer", () => {
  it("are not reported when the service refused the request too", () => {
    const body = { code: "SCHEMA_ERROR", error: "Request validation failed.", details: { message: "Request validation failed." } };
    expect(
      validator.validate(patchUser({ age: "old" }, { status: 400, headers: { "x-stack-known-error": "SCHEMA_ERROR" }, body })),
    ).toEqual([]);
  });

  it("are reported whatever the answer when asked to", () => {
    const strict = createExchangeValidator(document, { requestViolations: "always" });
    const body = { code: "SCHEMA_ERROR", error: "Request validation failed.", details: { message: "Request validation failed." } };
    expect(strict.validate(patchUser({ age: "old" }, { status: 400, headers: { "x-stack-known-error": "SCHEMA_ERROR" }, body }))).toEqual([
      { path: "/request/body/age", message: "must be integer" },
    ]);
  });
});

describe("findOperation", () => {
  it("prefers a literal segment over a template", () => {
    expect(validator.findOperation("GET", "/users/me")).toEqual({
      operationId: "getCurrentUser",
      method: "GET",
      template: "/users/me",
      pathParams: {},
    });
  });

  it("fills the template's parameters, decoded", () => {
    expect(validator.findOperation("PATCH", "/users/a%20b")).toEqual({
      operationId: "updateUser",
      method: "PATCH",
      template: "/users/{user_id}",
      pathParams: { user_id: "a b" },
    });
  });

  it("finds nothing for an undocumented method", () => {
    expect(validator.findOperation("DELETE", `/users/${userId}`)).toBeUndefined();
  });
});
