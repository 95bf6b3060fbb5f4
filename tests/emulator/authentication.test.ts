// Project and user authentication, and the error protocol, as the service
// answers them (wire contract §2, §3): each failing header combination gets
// its known error with the documented status, body and headers.
import { describe, expect, it } from "vitest";
import { DEMO_KEYS, INTERNAL_KEYS } from "../../emulator/index.js";
import { useEmulator } from "../helpers/emulator.js";

const emulator = useEmulator();

const client = {
  "x-stack-project-id": DEMO_KEYS.projectId,
  "x-stack-access-type": "client",
  "x-stack-publishable-client-key": DEMO_KEYS.publishableClientKey,
};

async function call(path: string, headers: Record<string, string>, init: { method?: string; body?: string; contentType?: string } = {}) {
  const response = await emulator().fetch(
    new Request(`${emulator().apiOrigin}/api/v1${path}`, {
      method: init.method ?? "GET",
      headers: { ...headers, ...(init.body !== undefined ? { "content-type": init.contentType ?? "application/json" } : {}) },
      ...(init.body !== undefined ? { body: init.body } : {}),
    }),
  );
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: text === "" ? undefined : (JSON.parse(text) as Record<string, unknown>),
  };
}

describe("project authentication", () => {
  it.each([
    [
      "a key without an access type",
      { "x-stack-project-id": DEMO_KEYS.projectId, "x-stack-publishable-client-key": "k" },
      400,
      "PROJECT_KEY_WITHOUT_ACCESS_TYPE",
    ],
    ["no access type at all", { "x-stack-project-id": DEMO_KEYS.projectId }, 400, "ACCESS_TYPE_REQUIRED"],
    ["an unknown access type", { ...client, "x-stack-access-type": "root" }, 400, "INVALID_ACCESS_TYPE"],
    [
      "an access type without a project",
      { "x-stack-access-type": "client", "x-stack-publishable-client-key": "k" },
      400,
      "ACCESS_TYPE_WITHOUT_PROJECT_ID",
    ],
    // 2.8.86 (the default); 2.8.11's answers: service-versions.test.ts and tests/conformance/project-authentication.test.ts.
    ["an unknown project", { ...client, "x-stack-project-id": "no-such-project" }, 400, "CURRENT_PROJECT_NOT_FOUND"],
    [
      "a client without its key",
      { "x-stack-project-id": DEMO_KEYS.projectId, "x-stack-access-type": "client" },
      401,
      "PUBLISHABLE_CLIENT_KEY_REQUIRED_FOR_PROJECT",
    ],
    ["a wrong publishable key", { ...client, "x-stack-publishable-client-key": "pck_wrong" }, 401, "INVALID_PUBLISHABLE_CLIENT_KEY"],
    [
      "another project's key",
      { ...client, "x-stack-publishable-client-key": INTERNAL_KEYS.publishableClientKey },
      401,
      "INVALID_PUBLISHABLE_CLIENT_KEY",
    ],
    ["a server without its key", { ...client, "x-stack-access-type": "server" }, 401, "SERVER_AUTHENTICATION_REQUIRED"],
    [
      "a wrong secret server key",
      { ...client, "x-stack-access-type": "server", "x-stack-secret-server-key": "ssk_wrong" },
      401,
      "INVALID_SECRET_SERVER_KEY",
    ],
    ["an admin without a key or token", { ...client, "x-stack-access-type": "admin" }, 401, "ADMIN_AUTHENTICATION_REQUIRED"],
    [
      "a wrong admin key",
      { ...client, "x-stack-access-type": "admin", "x-stack-super-secret-admin-key": "sak_wrong" },
      401,
      "INVALID_SUPER_SECRET_ADMIN_KEY",
    ],
    [
      "an unparsable admin access token",
      { ...client, "x-stack-access-type": "admin", "x-stack-admin-access-token": "not-a-jwt" },
      401,
      "UNPARSABLE_ADMIN_ACCESS_TOKEN",
    ],
  ])("%s: %i %s", async (_, headers, status, code) => {
    const answer = await call("/projects/current", headers);
    expect(answer.status).toBe(status);
    expect(answer.headers.get("x-stack-known-error")).toBe(code);
    expect(answer.body).toMatchObject({ code, error: expect.any(String) });
  });

  it("a client calling a server operation: INSUFFICIENT_ACCESS_TYPE naming what is allowed", async () => {
    const answer = await call("/users", client);
    expect(answer).toMatchObject({
      status: 401,
      body: { code: "INSUFFICIENT_ACCESS_TYPE", details: { actual_access_type: "client", allowed_access_types: ["server", "admin"] } },
    });
  });

  it("with x-stack-override-error-status: HTTP 200 and the real status in x-stack-actual-status", async () => {
    const answer = await call("/projects/current", {
      ...client,
      "x-stack-publishable-client-key": "pck_wrong",
      "x-stack-override-error-status": "true",
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("x-stack-actual-status")).toBe("401");
    expect(answer.headers.get("x-stack-known-error")).toBe("INVALID_PUBLISHABLE_CLIENT_KEY");
  });

  it("every answer carries a request id and cache-control: no-store", async () => {
    const answer = await call("/projects/current", client);
    expect(answer.headers.get("x-stack-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(answer.headers.get("cache-control")).toBe("no-store, max-age=0");
  });
});

describe("user authentication", () => {
  async function signedIn() {
    const user = await emulator().control.createUser({
      projectId: DEMO_KEYS.projectId,
      email: "ada@example.com",
      password: "correct horse battery",
    });
    return { user, ...(await emulator().control.createSession(user.id)) };
  }

  it("an unparsable access token: UNPARSABLE_ACCESS_TOKEN", async () => {
    const answer = await call("/users/me", { ...client, "x-stack-access-token": "garbage" });
    expect(answer).toMatchObject({ status: 401, body: { code: "UNPARSABLE_ACCESS_TOKEN" } });
  });

  it("an access token signed by someone else: UNPARSABLE_ACCESS_TOKEN", async () => {
    const { accessToken } = await signedIn();
    const [header, payload] = accessToken.split(".");
    const answer = await call("/users/me", { ...client, "x-stack-access-token": `${header}.${payload}.${"A".repeat(86)}` });
    expect(answer).toMatchObject({ status: 401, body: { code: "UNPARSABLE_ACCESS_TOKEN" } });
  });

  it("an expired access token (on the emulator's clock): ACCESS_TOKEN_EXPIRED with when", async () => {
    const { accessToken } = await signedIn();
    emulator().control.advanceClock(11 * 60 * 1000);
    const answer = await call("/users/me", { ...client, "x-stack-access-token": accessToken });
    expect(answer).toMatchObject({
      status: 401,
      body: { code: "ACCESS_TOKEN_EXPIRED", details: { expired_at_millis: expect.any(Number) } },
    });
  });

  it("another project's access token: INVALID_PROJECT_FOR_ACCESS_TOKEN", async () => {
    const owner = await emulator().control.createUser({ projectId: INTERNAL_KEYS.projectId, email: "owner@example.com" });
    const { accessToken } = await emulator().control.createSession(owner.id);
    const answer = await call("/users/me", { ...client, "x-stack-access-token": accessToken });
    expect(answer).toMatchObject({
      status: 401,
      body: {
        code: "INVALID_PROJECT_FOR_ACCESS_TOKEN",
        details: { expected_project_id: DEMO_KEYS.projectId, actual_project_id: INTERNAL_KEYS.projectId },
      },
    });
  });

  it("an internal user's token that does not own the project: ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN", async () => {
    const owner = await emulator().control.createUser({ projectId: INTERNAL_KEYS.projectId, email: "owner@example.com" });
    const { accessToken } = await emulator().control.createSession(owner.id);
    const answer = await call("/internal/projects/current", {
      "x-stack-project-id": DEMO_KEYS.projectId,
      "x-stack-access-type": "admin",
      "x-stack-admin-access-token": accessToken,
    });
    expect(answer).toMatchObject({ status: 401, body: { code: "ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN" } });
  });

  it("the token's user, in the client view", async () => {
    const { user, accessToken } = await signedIn();
    const answer = await call("/users/me", { ...client, "x-stack-access-token": accessToken });
    expect(answer).toMatchObject({ status: 200, body: { id: user.id, primary_email: "ada@example.com" } });
    expect(answer.body).not.toHaveProperty("server_metadata");
  });
});

describe("request bodies", () => {
  it("that are not JSON: BODY_PARSING_ERROR", async () => {
    const answer = await call("/auth/password/sign-in", client, { method: "POST", body: "{nope" });
    expect(answer).toMatchObject({ status: 400, body: { code: "BODY_PARSING_ERROR" } });
  });

  it("that the service refuses: SCHEMA_ERROR naming the field in its words", async () => {
    const answer = await call("/auth/password/sign-in", client, {
      method: "POST",
      body: JSON.stringify({ email: "ada@example.com", password: { plain: "x" } }),
    });
    expect(answer).toMatchObject({ status: 400, body: { code: "SCHEMA_ERROR" } });
    // yup's wording, which prints the value it got (a string inside it quoted once more).
    expect(String((answer.body?.details as { message: string }).message)).toBe(
      'Request validation failed on POST /api/v1/auth/password/sign-in:\n  - body.password must be a `string` type, but the final value was: `{\n  "plain": "\\"x\\""\n}`.',
    );
  });

  it("with a field the operation does not take: SCHEMA_ERROR", async () => {
    const answer = await call("/auth/password/sign-in", client, {
      method: "POST",
      body: JSON.stringify({ email: "ada@example.com", password: "x", remember_me: true }),
    });
    expect(answer).toMatchObject({ status: 400, body: { code: "SCHEMA_ERROR" } });
  });
});

describe("signing keys", () => {
  it("are two per project (2.8.86: the old and new key), published as the project's JWKS, and verify its access tokens (jose)", async () => {
    const { createLocalJWKSet, jwtVerify } = await import("jose");
    const user = await emulator().control.createUser({ projectId: DEMO_KEYS.projectId, email: "ada@example.com" });
    const { accessToken } = await emulator().control.createSession(user.id);
    const jwks = async (projectId: string) =>
      (await (
        await emulator().fetch(new Request(`${emulator().apiOrigin}/api/v1/projects/${projectId}/.well-known/jwks.json`))
      ).json()) as { keys: { kid: string }[] };
    const demo = await jwks(DEMO_KEYS.projectId);
    const internal = await jwks(INTERNAL_KEYS.projectId);
    expect(demo.keys).toHaveLength(2);
    expect(demo.keys[0]!.kid).not.toBe(internal.keys[0]!.kid);
    const { payload } = await jwtVerify(accessToken, createLocalJWKSet(demo as never), {
      issuer: `${emulator().apiOrigin}/api/v1/projects/${DEMO_KEYS.projectId}`,
      audience: DEMO_KEYS.projectId,
      currentDate: new Date(emulator().control.now()),
    });
    expect(payload.sub).toBe(user.id);
    await expect(jwtVerify(accessToken, createLocalJWKSet(internal as never))).rejects.toThrow();
  });

  it("stores passwords as PBKDF2 hashes, never in clear", async () => {
    const user = await emulator().control.createUser({
      projectId: DEMO_KEYS.projectId,
      email: "ada@example.com",
      password: "correct horse battery",
    });
    const stored = JSON.stringify(emulator().control.exportState());
    expect(stored).not.toContain("correct horse battery");
    expect(emulator().engine.ctx.store.user(user.id)!.password_hash).toMatch(/^pbkdf2-sha256\$10000\$[a-z0-9]{16}\$[A-Za-z0-9+/]{43}=$/);
  });
});
