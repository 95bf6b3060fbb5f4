// Reading answers (wire contract §3): the real status, known errors rebuilt as
// typed errors, other failures as errors that say what happened.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { KnownErrors, UnsupportedError } from "../../../generated/known-errors.js";
import { createStackClient } from "../../../runtime/http/client.js";
import { StackAssertionError } from "../../../runtime/errors.js";
import { HttpError, ResponseFormatError } from "../../../runtime/http/request-errors.js";
import { documentedAnswer } from "../../helpers/documented-answers.js";
import { rejectionOf } from "../../helpers/outcome.js";
import type { TokenStoreInit } from "../../../runtime/sessions/tokens/resolve.js";
import { catalogue } from "../../fixtures/document.js";
import { fakeService, json, jwt, knownError, testEnvironment, useFakeClock, type Handler } from "../../helpers/fake-service.js";

function setup(handler: Handler, tokenStore: TokenStoreInit = null) {
  const service = fakeService(handler);
  const { env } = testEnvironment(service.fetch);
  // One origin: the answers as they come; a 5xx sent on to another origin is tests/unit/runtime/failover.test.ts's.
  const client = createStackClient({ projectId: "p", publishableClientKey: "k", tokenStore, environment: env, failover: false });
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
      json(
        { code: "TEAM_NOT_FOUND", error: "Team t not found.", details: { team_id: "t" } },
        { status: 404, headers: { "x-stack-known-error": "TEAM_NOT_FOUND" } },
      ),
    );
    const error = await failure(client.api.GET("/teams/{team_id}", { params: { path: { team_id: "t" } } }));
    expect(error).toBeInstanceOf(KnownErrors.TeamNotFound);
    expect(error).toMatchObject({ status: 404, details: { team_id: "t" } });
  });

  it("keeps the service's text word for word, even where it is not the catalogue's wording", async () => {
    const text = "Team t was not found in project p (a newer service's wording).";
    const { client } = setup(() =>
      json(
        { code: "TEAM_NOT_FOUND", error: text, details: { team_id: "t" } },
        { status: 404, headers: { "x-stack-known-error": "TEAM_NOT_FOUND" } },
      ),
    );
    const error = await failure(client.api.GET("/teams/{team_id}", { params: { path: { team_id: "t" } } }));
    expect(error).toBeInstanceOf(KnownErrors.TeamNotFound);
    expect(error).toMatchObject({ message: text, details: { team_id: "t" } });
  });

  it("without an `error` text in the body says its code and details", async () => {
    const { client } = setup(() =>
      json({ code: "TEAM_NOT_FOUND", details: { team_id: "t" } }, { status: 404, headers: { "x-stack-known-error": "TEAM_NOT_FOUND" } }),
    );
    const error = await failure(client.api.GET("/teams/{team_id}", { params: { path: { team_id: "t" } } }));
    expect(error).toBeInstanceOf(KnownErrors.TeamNotFound);
    expect(error).toMatchObject({ status: 404, message: 'TEAM_NOT_FOUND {"team_id":"t"}' });
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
      json(
        { code: "USER_NOT_FOUND", error: "User not found." },
        { headers: { "x-stack-actual-status": "404", "x-stack-known-error": "TEAM_NOT_FOUND" } },
      ),
    );
    const error = await failure(client.api.GET("/projects/current"));
    expect(error).toBeInstanceOf(StackAssertionError);
    expect((error as Error).message).toBe(
      "Mismatch between x-stack-known-error header and error code in body; the server's response is invalid (header: TEAM_NOT_FOUND, body: USER_NOT_FOUND)",
    );
  });

  it("whose body is not JSON is an assertion error, not a SyntaxError", async () => {
    const { client } = setup(
      () => new Response("<html>", { status: 200, headers: { "x-stack-actual-status": "400", "x-stack-known-error": "SCHEMA_ERROR" } }),
    );
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
      message: "The Stack Auth API answered GET https://api.stack-auth.com/api/v1/projects/current with HTTP 502: upstream exploded",
    });
  });

  it("keeps the restored status of an overridden error without a known code", async () => {
    const { client } = setup(() => new Response("nope", { status: 200, headers: { "x-stack-actual-status": "503" } }));
    expect(await failure(client.api.GET("/projects/current"))).toMatchObject({ name: "HttpError", status: 503 });
  });

  it("is a ResponseFormatError naming the operation when a 2xx body is not the promised JSON", async () => {
    const { client } = setup(
      () => new Response("<!doctype html><p>captive portal</p>", { status: 200, headers: { "content-type": "text/html" } }),
    );
    const error = await failure(client.api.GET("/users/me"));
    expect(error).toBeInstanceOf(ResponseFormatError);
    expect((error as Error).message).toBe(
      "getCurrentUser: the service answered HTTP 200 with a body that is not JSON (content-type: text/html)",
    );
  });
});

describe("a success", () => {
  it("hands back the parsed JSON, with fields the document does not list", async () => {
    const project = { ...(documentedAnswer("getCurrentProject").body as object), added_later: { by: "the service" } };
    const { client } = setup(() => json(project));
    const { data, response } = await client.api.GET("/projects/current");
    expect(response.status).toBe(200);
    expect(data).toEqual(project);
  });

  it.each([
    ["an empty body", ""],
    ["a body of whitespace", " \n\t "],
  ])("with %s where the operation answers JSON is a ResponseFormatError naming the operation", async (_, body) => {
    const { client } = setup(() => new Response(body, { status: 200 }));
    const error = await client.api.DELETE("/users/me").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseFormatError);
    expect(error).toMatchObject({
      operationId: "deleteCurrentUser",
      status: 200,
      path: "$",
      message: "deleteCurrentUser: the service answered HTTP 200 with a body that is not JSON (content-type: text/plain;charset=UTF-8)",
    });
  });

  it("passes a plain-text answer of a text operation", async () => {
    const { client } = setup(() => new Response("Feature not supported.", { status: 200, headers: { "content-type": "text/plain" } }));
    const { data } = await client.api.POST("/check-feature-support", { body: { name: "x" }, parseAs: "text" });
    expect(data).toBe("Feature not supported.");
  });
});

describe("an answer the document does not allow", () => {
  const user = () => documentedAnswer("getCurrentUser").body as Record<string, unknown>;
  const signedIn = (): TokenStoreInit => ({ refreshToken: "rt", accessToken: jwt({ exp: Math.floor(Date.now() / 1000) + 3600 }) });

  it.each([
    ["a user that is not an object", () => [user()], "$", "$ should be an object, not an array"],
    ["a required field missing", () => ({ ...user(), id: undefined }), "$.id", "$.id is missing"],
    [
      "a field of the wrong type",
      () => ({ ...user(), primary_email_verified: "yes" }),
      "$.primary_email_verified",
      "$.primary_email_verified should be a boolean, not a string",
    ],
    [
      "oauth_providers that is not an array of objects",
      () => ({ ...user(), oauth_providers: [null] }),
      "$.oauth_providers[0]",
      "$.oauth_providers[0] should be an object, not null",
    ],
    [
      "a date out of a Date's range",
      () => ({ ...user(), signed_up_at_millis: 1e300 }),
      "$.signed_up_at_millis",
      "$.signed_up_at_millis should be a number from -8640000000000000 to 8640000000000000, not a number",
    ],
  ])("%s is a ResponseFormatError naming the operation and the first bad field", async (_, body, path, detail) => {
    const { client } = setup(() => json(body()), signedIn());
    const error = await failure(client.api.GET("/users/me"));
    expect(error).toBeInstanceOf(ResponseFormatError);
    expect(error).toMatchObject({
      operationId: "getCurrentUser",
      status: 200,
      path,
      message: `getCurrentUser: the service answered HTTP 200 with a body the API does not allow: ${detail}`,
    });
  });

  it("a number too large for JSON to hold (1e400 reads as Infinity) is out of range", async () => {
    const text = JSON.stringify({ ...user(), signed_up_at_millis: 0 }).replace('"signed_up_at_millis":0', '"signed_up_at_millis":1e400');
    const { client } = setup(() => new Response(text, { status: 200 }), signedIn());
    expect(await failure(client.api.GET("/users/me"))).toMatchObject({ path: "$.signed_up_at_millis" });
  });

  it.each([
    ["missing", undefined],
    ["null", null],
    ["an object", {}],
    ["a number", 3],
  ])("a list whose items is %s fails at $.items", async (_, items) => {
    const { client } = setup(() => json({ items }), signedIn());
    const error = await failure(client.api.GET("/teams", { params: { query: { user_id: "me" } } }));
    expect(error).toMatchObject({ name: "ResponseFormatError", operationId: "listTeams", path: "$.items" });
  });

  it("a list element that is null fails at its index", async () => {
    const team = (documentedAnswer("getTeam").body ?? {}) as object;
    const { client } = setup(() => json({ items: [team, null] }), signedIn());
    const error = await failure(client.api.GET("/teams", { params: { query: { user_id: "me" } } }));
    expect(error).toMatchObject({ operationId: "listTeams", path: "$.items[1]" });
  });

  it.each([
    [
      "an access token that is not a JWT (é cannot travel in a header)",
      { access_token: "eyJ.é.sig", refresh_token: "rt-2" },
      "$.access_token",
      "^[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]*$",
    ],
    [
      "a refresh token that cannot travel in a header",
      { access_token: "eyJ.eyJ.sig", refresh_token: "rt-\u00e9" },
      "$.refresh_token",
      "^[\\x21-\\x7E]+$",
    ],
  ])("%s is refused at sign-in, before it is stored", async (_, tokens, path, pattern) => {
    const { client } = setup(() => json({ ...tokens, user_id: "u1" }));
    const error = await failure(client.api.POST("/auth/password/sign-in", { body: { email: "a@b.co", password: "pw" } }));
    expect(error).toMatchObject({
      name: "ResponseFormatError",
      operationId: "signInWithPassword",
      path,
      message: `signInWithPassword: the service answered HTTP 200 with a body the API does not allow: ${path} should be a string matching ${pattern}, not a string`,
    });
    expect((error as Error).message).not.toContain("eyJ");
  });

  it("a refreshed access token that cannot travel in a header fails the refresh as a ResponseFormatError", async () => {
    const { client, service } = setup(
      (r) => (r.path === "/api/v1/auth/oauth/token" ? json({ access_token: "bad\u2028token" }) : json(user())),
      { refreshToken: "rt", accessToken: null },
    );
    const error = await failure(client.api.GET("/users/me"));
    expect(error).toMatchObject({ name: "ResponseFormatError", operationId: "exchangeOAuthToken", path: "$.access_token" });
    expect(service.requests.map((r) => r.path)).toEqual(["/api/v1/auth/oauth/token"]);
  });

  it("a known error whose details are not what the catalogue says is a ResponseFormatError at $.details", async () => {
    const { client } = setup(() =>
      knownError(400, "MULTI_FACTOR_AUTHENTICATION_REQUIRED", "Multi-factor authentication is required for this user.", {
        attempt_code: 42,
      }),
    );
    const error = await failure(client.api.POST("/auth/password/sign-in", { body: { email: "a@b.co", password: "pw" } }));
    expect(error).toMatchObject({
      name: "ResponseFormatError",
      operationId: "signInWithPassword",
      path: "$.details.attempt_code",
      message:
        "signInWithPassword: the service answered with known error MULTI_FACTOR_AUTHENTICATION_REQUIRED whose details the API does not allow: $.details.attempt_code should be a string, not a number",
    });
  });

  it("a redirect seen by a browser (an opaque redirect, status 0) is an UnexpectedRedirectError", async () => {
    const opaque = () => {
      const response = new Response(null, { status: 200 });
      Object.defineProperties(response, { type: { value: "opaqueredirect" }, status: { value: 0 } });
      return response;
    };
    const { client } = setup(opaque);
    const error = await failure(client.api.GET("/projects/current"));
    expect(error).toMatchObject({
      name: "UnexpectedRedirectError",
      status: 0,
      message:
        "GET https://api.stack-auth.com/api/v1/projects/current was answered with a redirect. The Stack Auth API never redirects an API call, " +
        "so the redirect was not followed and nothing was sent to its location. Check the API's base URL (and any proxy in front of it).",
    });
  });
});
