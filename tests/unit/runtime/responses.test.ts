// Reading answers (wire contract §3): the real status, known errors rebuilt as
// typed errors, other failures as errors that say what happened.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { KnownErrors, UnsupportedError } from "../../../generated/known-errors.js";
import { createStackClient } from "../../../runtime/client.js";
import { HttpError, ResponseFormatError, StackAssertionError } from "../../../runtime/errors.js";
import { rejectionOf } from "../../helpers/outcome.js";
import type { TokenStoreInit } from "../../../runtime/tokens/resolve.js";
import { catalogue } from "../../fixtures/document.js";
import { fakeService, json, jwt, knownError, testEnvironment, useFakeClock, type Handler } from "../../helpers/fake-service.js";

function setup(handler: Handler, tokenStore: TokenStoreInit = null) {
  const service = fakeService(handler);
  const { env } = testEnvironment(service.fetch);
  const client = createStackClient({ projectId: "p", publishableClientKey: "k", tokenStore, environment: env });
  return { service, client };
}

const failure = rejectionOf;

beforeEach(() => useFakeClock());
afterEach(() => vi.useRealTimers());

describe("a known error", () => {
  it("is thrown as its typed class with the status from x-stack-actual-status", async () => {
    const { client } = setup(() => knownError(400, "EMAIL_PASSWORD_MISMATCH", "Wrong e-mail or password."));
    const error = await failure(client.api.POST("/auth/password/sign-in", { body: { email: "a@b.co", password: "x" } }));
    expect(error).toBeInstanceOf(KnownErrors.EmailPasswordMismatch);
    expect(error).toMatchObject({ code: "EMAIL_PASSWORD_MISMATCH", status: 400, message: "Wrong e-mail or password." });
  });

  it("also arrives with its real HTTP status when the service does not override it", async () => {
    const { client } = setup(() =>
      json({ code: "TEAM_NOT_FOUND", error: "Team t not found.", details: { team_id: "t" } }, { status: 404, headers: { "x-stack-known-error": "TEAM_NOT_FOUND" } }),
    );
    const error = await failure(client.api.GET("/teams/{team_id}", { params: { path: { team_id: "t" } } }));
    expect(error).toBeInstanceOf(KnownErrors.TeamNotFound);
    expect(error).toMatchObject({ status: 404, details: { team_id: "t" } });
  });

  it.each(catalogue)("$code is rebuilt from the wire, never as a TypeError", async ({ code, ext, example }) => {
    // A session with an access token and nothing to refresh it with: access-token errors reach the caller.
    const signedIn = { accessToken: jwt({ exp: Math.floor(Date.now() / 1000) + 3600 }), refreshToken: null };
    const { client } = setup(() => knownError(ext.status ?? 400, code, example.error, example.details), signedIn);
    const error = await failure(client.api.GET("/projects/current"));
    expect(error).not.toBeInstanceOf(TypeError);
    expect(error).toBeInstanceOf(KnownErrors[ext.class as keyof typeof KnownErrors]);
    expect(error).toMatchObject({ code, status: ext.status ?? 400, message: example.error });
  });

  it("with an unknown code becomes UNSUPPORTED_ERROR carrying the original code and the server's message", async () => {
    const { client } = setup(() => knownError(402, "PAYMENT_REQUIRED", "Upgrade your plan.", { plan: "free" }));
    const error = await failure(client.api.GET("/projects/current"));
    expect(error).toBeInstanceOf(UnsupportedError);
    expect(error).toMatchObject({
      code: "UNSUPPORTED_ERROR",
      status: 402,
      message: "Upgrade your plan.",
      details: { originalErrorCode: "PAYMENT_REQUIRED" },
      originalDetails: { plan: "free" },
    });
  });

  it("of the INVALID_ACCESS_TOKEN family, answered to a request that carried no access token, is an assertion error", async () => {
    const { client } = setup(() => knownError(401, "ACCESS_TOKEN_EXPIRED", "Access token has expired."));
    const error = await failure(client.api.GET("/projects/current"));
    expect(error).toBeInstanceOf(StackAssertionError);
    expect((error as Error).message).toBe(
      "GET https://api.stack-auth.com/api/v1/projects/current was answered ACCESS_TOKEN_EXPIRED although it carried no access token",
    );
  });

  it("whose header differs from the body's code is an assertion error saying the response is invalid", async () => {
    const { client } = setup(() =>
      json({ code: "USER_NOT_FOUND", error: "User not found." }, { headers: { "x-stack-actual-status": "404", "x-stack-known-error": "TEAM_NOT_FOUND" } }),
    );
    const error = await failure(client.api.GET("/projects/current"));
    expect(error).toBeInstanceOf(StackAssertionError);
    expect((error as Error).message).toBe(
      "Mismatch between x-stack-known-error header and error code in body; the server's response is invalid (header: TEAM_NOT_FOUND, body: USER_NOT_FOUND)",
    );
  });

  it("whose body is not JSON is an assertion error, not a SyntaxError", async () => {
    const { client } = setup(() => new Response("<html>", { status: 200, headers: { "x-stack-actual-status": "400", "x-stack-known-error": "SCHEMA_ERROR" } }));
    const error = await failure(client.api.GET("/projects/current"));
    expect(error).toBeInstanceOf(StackAssertionError);
    expect((error as Error).message).toContain("the server's response is invalid");
  });
});

describe("any other failure", () => {
  it("is an HttpError with the status and the body text", async () => {
    const { client } = setup(() => new Response("upstream exploded", { status: 502 }));
    const error = await failure(client.api.GET("/projects/current"));
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({
      status: 502,
      body: "upstream exploded",
      message: "Failed to send request to GET https://api.stack-auth.com/api/v1/projects/current: 502 upstream exploded",
    });
  });

  it("keeps the restored status of an overridden error without a known code", async () => {
    const { client } = setup(() => new Response("nope", { status: 200, headers: { "x-stack-actual-status": "503" } }));
    expect(await failure(client.api.GET("/projects/current"))).toMatchObject({ name: "HttpError", status: 503 });
  });

  it("is a ResponseFormatError naming the operation when a 2xx body is not the promised JSON", async () => {
    const { client } = setup(() => new Response("<!doctype html><p>captive portal</p>", { status: 200, headers: { "content-type": "text/html" } }));
    const error = await failure(client.api.GET("/users/me"));
    expect(error).toBeInstanceOf(ResponseFormatError);
    expect((error as Error).message).toBe("getCurrentUser: the service answered HTTP 200 with a body that is not JSON (content-type: text/html)");
  });
});

describe("a success", () => {
  it("hands back the parsed JSON", async () => {
    const { client } = setup(() => json({ id: "p", display_name: "Acme", config: {} }));
    const { data, response } = await client.api.GET("/projects/current");
    expect(response.status).toBe(200);
    expect(data).toEqual({ id: "p", display_name: "Acme", config: {} });
  });

  it("accepts an empty body", async () => {
    const { client } = setup(() => new Response("", { status: 200 }));
    const { data } = await client.api.DELETE("/users/me");
    expect(data).toBeUndefined();
  });

  it("passes a plain-text answer of a text operation", async () => {
    const { client } = setup(() => new Response("Feature not supported.", { status: 200, headers: { "content-type": "text/plain" } }));
    const { data } = await client.api.POST("/check-feature-support", { body: { name: "x" }, parseAs: "text" });
    expect(data).toBe("Feature not supported.");
  });
});
