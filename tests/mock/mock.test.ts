// Smoke test of `make mock`: Prism serves the document under /api/v1 on
// 127.0.0.1, and a client typed by generated/schema.ts calls it.
import createClient from "openapi-fetch";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { paths } from "../../generated/schema.js";
import { doc, resolve } from "../fixtures/document.js";
import { startMock } from "../../scripts/mock.mjs";

const example = (name: string) => doc.components.examples[name]!.value;
const CLIENT = {
  "x-stack-project-id": "6f4a3c2e-0b1d-4e5f-9a8b-7c6d5e4f3a2b",
  "x-stack-access-type": "client",
  "x-stack-publishable-client-key": "pck_test",
};
const SERVER = { ...CLIENT, "x-stack-access-type": "server", "x-stack-secret-server-key": "ssk_test" };
const USER = { "x-stack-access-token": (example("SignInTokens") as { access_token: string }).access_token };

let mock: { baseUrl: string; stop: () => Promise<void> };
let client: ReturnType<typeof createClient<paths>>;

beforeAll(async () => {
  mock = await startMock({ quiet: true });
  client = createClient<paths>({ baseUrl: `${mock.baseUrl}/api/v1` });
});
afterAll(async () => {
  await mock?.stop();
});

describe("the mock of the API", () => {
  it("answers GET /api/v1/users/me with the example user", async () => {
    const { data, response } = await client.GET("/users/me", { headers: { ...CLIENT, ...USER } });
    expect(response.status).toBe(200);
    expect(response.url).toBe(`${mock.baseUrl}/api/v1/users/me`);
    expect(data).toEqual(example("ClientUser"));
  });

  it("answers a password sign-in with the example tokens", async () => {
    const { data } = await client.POST("/auth/password/sign-in", {
      headers: CLIENT,
      body: { email: "ada@example.com", password: "correct horse battery staple" },
    });
    expect(data).toEqual(example("SignInTokens"));
  });

  it("lists the user's teams", async () => {
    const { data } = await client.GET("/teams", { headers: { ...CLIENT, ...USER }, params: { query: { user_id: "me" } } });
    expect(data).toEqual(example("ClientTeamList"));
  });

  it("answers a server-side user creation with 201 and the server view", async () => {
    const { data, response } = await client.POST("/users", { headers: SERVER, body: { primary_email: "ada@example.com" } });
    expect(response.status).toBe(201);
    expect(data).toEqual(example("ServerUser"));
  });

  it("accepts the DELETEs clients send without a body", async () => {
    const user = await client.DELETE("/users/{user_id}", {
      headers: SERVER,
      params: { path: { user_id: (example("ServerUser") as { id: string }).id } },
    });
    expect(user.response.status).toBe(200);
    const signOut = await client.DELETE("/auth/sessions/current", { headers: { ...CLIENT, ...USER } });
    expect(signOut.response.status).toBe(200);
  });

  it("serves a chosen known error with a matching x-stack-known-error header", async () => {
    const { error, response } = await client.POST("/auth/password/sign-in", {
      headers: { ...CLIENT, Prefer: "code=400, example=EMAIL_PASSWORD_MISMATCH" },
      body: { email: "ada@example.com", password: "wrong" },
    });
    expect(response.status).toBe(400);
    expect(response.headers.get("x-stack-known-error")).toBe("EMAIL_PASSWORD_MISMATCH");
    expect(response.headers.get("x-stack-actual-status")).toBeNull();
    expect(error).toEqual({ code: "EMAIL_PASSWORD_MISMATCH", error: "Wrong e-mail or password." });
  });

  it("answers errors with 200 and x-stack-actual-status when asked to override the status", async () => {
    const { data, response } = await client.POST("/auth/password/sign-in", {
      headers: { ...CLIENT, "x-stack-override-error-status": "true", Prefer: "code=400, example=MULTI_FACTOR_AUTHENTICATION_REQUIRED" },
      body: { email: "ada@example.com", password: "correct horse battery staple" },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("x-stack-actual-status")).toBe("400");
    expect(response.headers.get("x-stack-known-error")).toBe("MULTI_FACTOR_AUTHENTICATION_REQUIRED");
    expect(data).toMatchObject({ code: "MULTI_FACTOR_AUTHENTICATION_REQUIRED", details: { attempt_code: expect.any(String) } });
  });

  it("refuses a call without the keys of any access type", async () => {
    const { error, response } = await client.GET("/users/me", { headers: { "x-stack-project-id": CLIENT["x-stack-project-id"] } });
    expect(response.status).toBe(401);
    const documented = resolve(doc.paths["/users/me"]!.get!.responses["401"]!).headers!["x-stack-known-error"]!.schema!.enum!;
    expect(documented).toContain(response.headers.get("x-stack-known-error"));
    expect((error as { code: string }).code).toBe(response.headers.get("x-stack-known-error"));
  });
});
