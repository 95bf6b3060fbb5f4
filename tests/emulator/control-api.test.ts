// The control API (`/emulator/v1/…`) against its own OpenAPI document,
// emulator/control-openapi.json: the document is valid and served by the emulator;
// every control route the emulator has is in it and every route it describes exists;
// every exchange below, success and error, fits it, and together they give every
// answer the document lists; a control path asked with a method it does not take is a
// 405 naming the right ones. The checks are shown to fail on a document missing a route
// and on answers that do not fit.
import { afterEach, describe, expect, it } from "vitest";
import { DEMO_KEYS } from "../../emulator/index.js";
import { CONTROL_PREFIX, controlRoutes } from "../../emulator/routes.js";
import {
  controlChecker,
  controlDocument,
  documentedAnswers,
  documentedRoutes,
  INSPECTION_OPERATIONS,
  routeDifferences,
  type ControlDocument,
} from "../helpers/control-document.js";
import { demoApps, useEmulator } from "../helpers/emulator.js";

// One checker for the whole file: the last test asks whether every documented answer was seen.
const checker = controlChecker();
afterEach(() => {
  expect(checker.violations.splice(0)).toEqual([]);
});

// Every exchange under /api/v1 is checked against the service's document too.
const emulator = useEmulator();

/** One exchange with the control API (in-process: the same code answers over HTTP), checked against the document. */
async function call(method: string, route: string, body?: unknown): Promise<{ status: number; headers: Headers; body: any }> {
  const init: RequestInit = {
    method,
    ...(body === undefined
      ? {}
      : { body: typeof body === "string" ? body : JSON.stringify(body), headers: { "content-type": "application/json" } }),
  };
  const url = `${emulator().apiOrigin}${CONTROL_PREFIX}${route}`;
  const response = await emulator().fetch(new Request(url, init));
  await checker.check(new Request(url, init), response.clone());
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text === "" ? undefined : JSON.parse(text) };
}

const copy = (document: ControlDocument) => structuredClone(document) as { -readonly [K in keyof ControlDocument]: any };

describe("the control API's document", () => {
  it("is a valid OpenAPI 3.1 document with every reference resolvable", async () => {
    const { default: SwaggerParser } = await import("@apidevtools/swagger-parser");
    await expect(SwaggerParser.validate(structuredClone(controlDocument) as never)).resolves.toBeDefined();
    expect((controlDocument as { openapi?: string }).openapi).toBe("3.1.0");
  });

  it("describes every control route the emulator has, and no other", () => {
    expect(routeDifferences(controlRoutes(), controlDocument)).toEqual({ undocumented: [], missing: [] });
    expect(documentedRoutes(controlDocument)).toHaveLength(31);
  });

  it("would not: a route missing from the document, or a documented route the emulator lacks, is found", () => {
    const withoutUsers = copy(controlDocument);
    delete withoutUsers.paths["/users"];
    expect(routeDifferences(controlRoutes(), withoutUsers)).toEqual({ undocumented: ["POST /users"], missing: [] });
    const withoutOneMethod = copy(controlDocument);
    delete withoutOneMethod.paths["/state"].put;
    expect(routeDifferences(controlRoutes(), withoutOneMethod).undocumented).toEqual(["PUT /state"]);
    const withMore = copy(controlDocument);
    withMore.paths["/teams"] = { get: { operationId: "listTeams", responses: {} } };
    expect(routeDifferences(controlRoutes(), withMore)).toEqual({ undocumented: [], missing: ["GET /teams"] });
  });

  it("names each operation once, with a summary and a tag the document lists", () => {
    const operations = Object.values(controlDocument.paths).flatMap((item) => Object.values(item)) as {
      operationId: string;
      summary?: string;
      tags?: string[];
    }[];
    const tags = (controlDocument as unknown as { tags: { name: string }[] }).tags.map((tag) => tag.name);
    expect(new Set(operations.map((operation) => operation.operationId)).size).toBe(operations.length);
    for (const operation of operations) {
      expect(operation.summary, operation.operationId).toBeTruthy();
      expect(operation.tags, operation.operationId).toHaveLength(1);
      expect(tags).toContain(operation.tags![0]);
    }
  });

  it("is served at GET /emulator/v1/openapi.json, its servers naming the emulator that answers", async () => {
    const served = await call("GET", "openapi.json");
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toMatch(/^application\/json/);
    const { servers, ...rest } = served.body;
    const { servers: _servers, ...fromFile } = controlDocument as unknown as Record<string, unknown>;
    expect(rest).toEqual(fromFile);
    expect(servers).toEqual([{ url: `${emulator().apiOrigin}/emulator/v1`, description: "This emulator" }]);
  });
});

describe("every control route, success and error, fits the document", () => {
  it("POST /reset, GET and PUT /state", async () => {
    await call("POST", "users", { email: "grace@example.com", password: "pw-grace-1234" });
    const state = await call("GET", "state");
    expect(state.status).toBe(200);
    expect(state.body.tables.users).toHaveLength(1);
    expect(await call("POST", "reset")).toMatchObject({ status: 200, body: { ok: true } });
    expect((await call("GET", "state")).body.tables.users).toEqual([]);
    expect((await call("PUT", "state", state.body)).status).toBe(200);
    expect((await call("GET", "state")).body.tables.users).toHaveLength(1);
    expect(await call("POST", "reset", { empty: true })).toMatchObject({ status: 200 });
    expect((await call("GET", "state")).body.tables.projects).toEqual([]);
    expect((await call("POST", "reset", {})).status).toBe(200);
    expect((await call("GET", "state")).body.tables.projects).toHaveLength(2);

    expect(await call("POST", "reset", { empty: "yes" })).toEqual(
      expect.objectContaining({ status: 400, body: { error: '"empty" must be true or false' } }),
    );
    expect(await call("PUT", "state", { version: 2 })).toMatchObject({ status: 400, body: { error: expect.stringContaining("version") } });
    expect(await call("PUT", "state", "[1]")).toMatchObject({ status: 400, body: { error: "The body must be a JSON object" } });
    expect(await call("PUT", "state", "{")).toMatchObject({ status: 400, body: { error: "The body is not JSON" } });
  });

  it("GET /clock and POST /clock/advance", async () => {
    const before = await call("GET", "clock");
    expect(before.status).toBe(200);
    const after = await call("POST", "clock/advance", { ms: 3_600_000 });
    expect(after.status).toBe(200);
    expect(after.body.now - before.body.now).toBeGreaterThanOrEqual(3_600_000);
    expect(after.body.iso).toBe(new Date(after.body.now).toISOString());
    expect(await call("POST", "clock/advance", { ms: -1 })).toMatchObject({
      status: 400,
      body: { error: expect.stringContaining('"ms"') },
    });
    expect(await call("POST", "clock/advance")).toMatchObject({ status: 400 });
  });

  it("POST and DELETE /faults, and GET and DELETE /requests", async () => {
    const currentProject = () =>
      emulator().fetch(
        new Request(`${emulator().apiOrigin}/api/v1/projects/current`, {
          headers: {
            "x-stack-project-id": DEMO_KEYS.projectId,
            "x-stack-access-type": "client",
            "x-stack-publishable-client-key": DEMO_KEYS.publishableClientKey,
          },
        }),
      );
    const faults = [
      { operationId: "getCurrentProject", fault: { kind: "status", status: 503, body: "Down for a moment" } },
      { operationId: "getCurrentProject", fault: { kind: "rate-limit", retryAfterSeconds: 0 }, times: 1 },
      { operationId: "getCurrentProject", fault: { kind: "known-error", code: "PROJECT_NOT_FOUND", details: { project_id: "x" } } },
      { operationId: "getCurrentProject", fault: { kind: "latency", ms: 1 }, times: "always" },
      { operationId: "listTeams", fault: { kind: "drop" }, times: 3 },
    ];
    for (const fault of faults)
      expect(await call("POST", "faults", fault)).toEqual(expect.objectContaining({ status: 200, body: { ok: true } }));
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await currentProject()).status);
    expect(statuses).toEqual([503, 429, 404, 200]);
    expect(emulator().engine.faults).toHaveLength(2);
    expect(await call("DELETE", "faults")).toMatchObject({ status: 200, body: { ok: true } });
    expect(emulator().engine.faults).toEqual([]);

    const log = await call("GET", "requests?operation_id=getCurrentProject");
    expect(log.status).toBe(200);
    expect(log.body.map((entry: { status: number; knownError: string | null }) => [entry.status, entry.knownError])).toEqual([
      [503, null],
      [429, null],
      [404, "PROJECT_NOT_FOUND"],
      [200, null],
    ]);
    expect((await call("GET", "requests")).body).toHaveLength(4);
    expect(await call("DELETE", "requests")).toMatchObject({ status: 200, body: { ok: true } });
    expect((await call("GET", "requests")).body).toEqual([]);

    const refused = [
      { operationId: "noSuchOperation", fault: { kind: "drop" } },
      { operationId: "getCurrentProject" },
      { operationId: "getCurrentProject", fault: { kind: "explode" } },
      { operationId: "getCurrentProject", fault: { kind: "known-error", code: "NOT_A_CODE" } },
      { operationId: "getCurrentProject", fault: { kind: "status", status: 700 } },
      { operationId: "getCurrentProject", fault: { kind: "latency" } },
      { operationId: "getCurrentProject", fault: { kind: "drop" }, times: 0 },
    ];
    for (const body of refused) expect(await call("POST", "faults", body), JSON.stringify(body)).toMatchObject({ status: 400 });
    expect(await call("GET", "requests?operation_id=noSuchOperation")).toMatchObject({
      status: 400,
      body: { error: expect.stringContaining("noSuchOperation") },
    });
  });

  it("GET /emails and GET /codes", async () => {
    const user = await call("POST", "users", { email: "Ada@Example.com", password: "pw-ada-12345" });
    const app = demoApps(emulator()).client();
    await app.sendForgotPasswordEmail("ada@example.com", { callbackUrl: "http://localhost:3000/handler/password-reset" });

    const emails = await call("GET", "emails?to=ada");
    expect(emails.status).toBe(200);
    expect(emails.body).toHaveLength(1);
    expect((await call("GET", `emails?to=ADA@example.com&project_id=${DEMO_KEYS.projectId}`)).body).toHaveLength(1);
    expect((await call("GET", "emails?project_id=internal")).body).toEqual([]);
    expect((await call("GET", "emails")).body).toHaveLength(1);

    const codes = await call("GET", "codes?recipient=ada@example.com&kind=password_reset");
    expect(codes.status).toBe(200);
    expect(codes.body).toHaveLength(1);
    expect(codes.body[0]).toMatchObject({ project_id: DEMO_KEYS.projectId, data: expect.any(Object) });
    expect(codes.body[0].link).toBe(`http://localhost:3000/handler/password-reset?code=${codes.body[0].code}`);
    expect(user.body.id).toEqual(expect.any(String));
    // Every kind the answers carry is also a filter.
    for (const kind of ["mfa_attempt", "passkey_registration", "passkey_authentication", "team_invitation"]) {
      expect(await call("GET", `codes?kind=${kind}`)).toMatchObject({ status: 200, body: [] });
    }
    expect(await call("GET", "codes?kind=nonsense")).toMatchObject({
      status: 400,
      body: { error: expect.stringContaining("mfa_attempt") },
    });
  });

  it("POST /users and POST /sessions", async () => {
    const created = await call("POST", "users", {
      email: "ada@example.com",
      password: "correct horse",
      displayName: "Ada",
      emailVerified: false,
      isAnonymous: false,
      clientMetadata: { theme: "dark" },
      serverMetadata: ["any", "json"],
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ project_id: DEMO_KEYS.projectId, display_name: "Ada", has_password: true });
    expect(created.body).not.toHaveProperty("password_hash");
    expect(await call("POST", "users")).toMatchObject({ status: 201, body: { has_password: false, display_name: null } });
    expect(await call("POST", "users", { projectId: "internal", email: null, displayName: null })).toMatchObject({ status: 201 });

    const session = await call("POST", "sessions", { userId: created.body.id });
    expect(session.status).toBe(201);
    expect(session.body.accessToken.split(".")).toHaveLength(3);
    const app = demoApps(emulator()).client();
    expect((await app.api.GET("/users/me", { headers: { "x-stack-access-token": session.body.accessToken } })).data?.id).toBe(
      created.body.id,
    );

    expect(await call("POST", "users", { email: "ada@example.com" })).toMatchObject({
      status: 400,
      body: { error: expect.stringContaining("ada@example.com") },
    });
    expect(await call("POST", "users", { projectId: "nope" })).toMatchObject({
      status: 400,
      body: { error: expect.stringContaining("nope") },
    });
    expect(await call("POST", "users", { email: 5 })).toMatchObject({ status: 400, body: { error: '"email" must be a string' } });
    expect(await call("POST", "sessions", {})).toMatchObject({ status: 400, body: { error: '"userId" is required' } });
    expect(await call("POST", "sessions", { userId: "no-such-user" })).toMatchObject({ status: 400 });
    expect(await call("POST", "sessions", "{")).toMatchObject({ status: 400, body: { error: "The body is not JSON" } });
  });

  it("GET and PUT /passkey-challenge", async () => {
    expect(await call("GET", "passkey-challenge")).toMatchObject({ status: 200, body: { challenge: null } });
    expect(await call("PUT", "passkey-challenge", { challenge: "TU9DSw" })).toMatchObject({ status: 200, body: { challenge: "TU9DSw" } });
    expect(await call("GET", "passkey-challenge")).toMatchObject({ status: 200, body: { challenge: "TU9DSw" } });
    expect(await call("PUT", "passkey-challenge", { challenge: null })).toMatchObject({ status: 200, body: { challenge: null } });
    expect(await call("PUT", "passkey-challenge", { challenge: 5 })).toMatchObject({ status: 400 });
    expect(await call("PUT", "passkey-challenge", { challenge: "not base64url!" })).toMatchObject({ status: 400 });
    expect(await call("PUT", "passkey-challenge", {})).toMatchObject({ status: 400 });
  });

  it("PUT /email-verification-required", async () => {
    expect(await call("PUT", "email-verification-required", { required: true })).toMatchObject({
      status: 200,
      body: { projectId: DEMO_KEYS.projectId, required: true },
    });
    expect(await call("PUT", "email-verification-required", { projectId: "no-such-project", required: true })).toMatchObject({
      status: 400,
    });
    expect(await call("PUT", "email-verification-required", {})).toMatchObject({ status: 400 });
  });

  it("PUT /publishable-client-key-required", async () => {
    expect(await call("PUT", "publishable-client-key-required", { required: false })).toMatchObject({
      status: 200,
      body: { projectId: DEMO_KEYS.projectId, required: false },
    });
    expect(await call("PUT", "publishable-client-key-required", { projectId: "no-such-project", required: true })).toMatchObject({
      status: 400,
    });
    expect(await call("PUT", "publishable-client-key-required", {})).toMatchObject({ status: 400 });
  });

  it("PUT /sign-up-rules", async () => {
    const rules = {
      "no-gmail": { enabled: true, priority: 2, condition: { emailDomains: ["gmail.com"] }, action: { type: "reject" } },
    };
    expect(await call("PUT", "sign-up-rules", { rules })).toEqual({
      status: 200,
      headers: expect.any(Headers),
      body: { projectId: DEMO_KEYS.projectId, rules, defaultAction: "allow" },
    });
    const signUp = await emulator().fetch(
      new Request(`${emulator().apiOrigin}/api/v1/auth/password/sign-up`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "x-stack-project-id": DEMO_KEYS.projectId,
          "x-stack-access-type": "client",
          "x-stack-publishable-client-key": DEMO_KEYS.publishableClientKey,
        },
        body: JSON.stringify({ email: "ada@gmail.com", password: "correct horse battery" }),
      }),
    );
    expect([signUp.status, signUp.headers.get("x-stack-known-error")]).toEqual([403, "SIGN_UP_REJECTED"]);
    expect(await call("PUT", "sign-up-rules", { rules: {}, defaultAction: "reject" })).toMatchObject({
      status: 200,
      body: { projectId: DEMO_KEYS.projectId, rules: {}, defaultAction: "reject" },
    });
    expect(await call("PUT", "sign-up-rules", { projectId: "no-such-project", rules: {} })).toEqual({
      status: 400,
      headers: expect.any(Headers),
      body: { error: "No project no-such-project in the emulator" },
    });
    expect((await call("PUT", "sign-up-rules", {})).body).toEqual({ error: '"rules" must be an object of rules by id ({} for none)' });
    const noCondition = { rules: { r: { enabled: true, action: { type: "reject" } } } };
    expect((await call("PUT", "sign-up-rules", noCondition)).body).toEqual({
      error: 'rules["r"].condition must be an object ({} matches every sign-up)',
    });
    const cel = { rules: { r: { enabled: true, condition: { cel: 'email.endsWith("@x.com")' }, action: { type: "reject" } } } };
    expect((await call("PUT", "sign-up-rules", cel)).body).toEqual({
      error: 'rules["r"].condition takes emails, emailDomains, authMethods, oauthProviders, not cel',
    });
    const badMethod = { rules: { r: { enabled: true, condition: { authMethods: ["sms"] }, action: { type: "allow" } } } };
    expect((await call("PUT", "sign-up-rules", badMethod)).body).toEqual({
      error: 'rules["r"].condition.authMethods must be a list of "password", "otp", "oauth", "passkey"',
    });
    expect((await call("PUT", "sign-up-rules", { rules: { "-r": rules["no-gmail"] } })).body).toEqual({
      error: 'rules["-r"]: a rule id is up to 63 letters, digits, "_" and "-", not starting with "-"',
    });
    expect((await call("PUT", "sign-up-rules", { rules: {}, defaultAction: "restrict" })).body).toEqual({
      error: '"defaultAction" must be "allow" or "reject"',
    });
  });
});

describe("a control path asked with a method it does not take", () => {
  it("answers 405 with Allow and names the right method: GET /emulator/v1/users", async () => {
    const answer = await call("GET", "users");
    expect(answer.status).toBe(405);
    expect(answer.headers.get("allow")).toBe("POST");
    expect(answer.body).toEqual({ error: "GET /emulator/v1/users is not a control route: use POST /emulator/v1/users" });
    const state = await call("DELETE", "state");
    expect([state.status, state.headers.get("allow"), state.body.error]).toEqual([
      405,
      "GET, PUT",
      "DELETE /emulator/v1/state is not a control route: use GET or PUT /emulator/v1/state",
    ]);
  });

  it("answers 405 on every documented path for every other method, Allow listing what the document gives", async () => {
    let asked = 0;
    for (const [path, item] of Object.entries(controlDocument.paths)) {
      for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD"].filter((m) => !(m.toLowerCase() in item))) {
        const answer = await call(method, path.slice(1));
        expect(answer.status, `${method} ${path}`).toBe(405);
        asked++;
      }
    }
    const paths = Object.keys(controlDocument.paths).length;
    expect(asked).toBe(6 * paths - documentedRoutes(controlDocument).length);
  });

  it("answers 404 to a path that is no control route, pointing at the document", async () => {
    expect(await call("GET", "user")).toMatchObject({
      status: 404,
      body: { error: "No control route GET /emulator/v1/user (GET /emulator/v1/openapi.json lists them)" },
    });
    expect((await call("POST", "users/someone/extra")).status).toBe(404);
  });
});

describe("the exchange checks", () => {
  const url = (route: string) => `http://localhost:8102${CONTROL_PREFIX}${route}`;
  const json = (body: unknown, status = 200, headers: Record<string, string> = {}) => Response.json(body, { status, headers });
  const violationsOf = async (request: Request, response: Response) => {
    const fresh = controlChecker();
    await fresh.check(request, response);
    return fresh.violations;
  };

  it("report an answer that does not fit its schema", async () => {
    expect(await violationsOf(new Request(url("clock")), json({ now: "soon", iso: "2026-01-01T00:00:00.000Z" }))).toEqual([
      "GET /emulator/v1/clock 200: /response/body/now must be number",
    ]);
    const user = (await call("POST", "users")).body;
    const { has_password: _dropped, ...withoutField } = user;
    expect(await violationsOf(new Request(url("users"), { method: "POST" }), json({ ...withoutField, secret: "x" }, 201))).toEqual([
      "POST /emulator/v1/users 201: /response/body/has_password is required",
      "POST /emulator/v1/users 201: /response/body/secret is not allowed (the schema is closed)",
    ]);
    expect(await violationsOf(new Request(url("users"), { method: "POST" }), json(user, 200))).toEqual([
      expect.stringMatching(/^POST \/emulator\/v1\/users 200: \/response\/status status 200 is not documented for createUser/),
    ]);
  });

  it("report a request the document refuses, when the emulator accepted it", async () => {
    const tokens = { accessToken: "a", refreshToken: "r" };
    expect(
      await violationsOf(
        new Request(url("sessions"), { method: "POST", body: '{"user":"u"}', headers: { "content-type": "application/json" } }),
        json(tokens, 201),
      ),
    ).toEqual(["POST /emulator/v1/sessions 201: /request/body/userId is required"]);
    expect(await violationsOf(new Request(url("codes?kinds=magic_link")), json([]))).toEqual([
      "GET /emulator/v1/codes?kinds=magic_link 200: /request/query/kinds the query parameter kinds is not documented for this operation",
    ]);
  });

  it("report a 405 without the document's methods in Allow, and a 404 or 405 that is not a ControlError", async () => {
    expect(await violationsOf(new Request(url("users")), json({ error: "no" }, 405, { allow: "GET" }))).toEqual([
      'GET /emulator/v1/users 405: Allow is "GET", the document gives the path POST',
    ]);
    expect(await violationsOf(new Request(url("users")), json({ message: "no" }, 404))).toEqual([
      "GET /emulator/v1/users 404: expected 405 for a route the document does not describe",
      expect.stringMatching(/^GET \/emulator\/v1\/users 404: the body is not a ControlError/),
      "GET /emulator/v1/users 404: Allow is null, the document gives the path POST",
    ]);
    expect(await violationsOf(new Request(url("nothing")), new Response("gone", { status: 404 }))).toEqual([
      "GET /emulator/v1/nothing 404: the answer is not JSON",
      expect.stringMatching(/^GET \/emulator\/v1\/nothing 404: the body is not a ControlError/),
    ]);
  });
});

describe("the exchanges of this file", () => {
  it("gave every answer the document lists, each operation's successes and errors, and the 404 and 405 outside them", () => {
    // The page's operations are control-inspect.test.ts's to cover.
    const answers = documentedAnswers(controlDocument).filter((answer) => !INSPECTION_OPERATIONS.has(answer.split(" ")[0]!));
    const missing = [...answers, "404", "405"].filter((answer) => !checker.seen.has(answer));
    expect(missing).toEqual([]);
    expect(checker.checked()).toBeGreaterThan(100);
  });
});
