// The service's response headers under either name (issue 31 §3): the hosted
// service after 2.8.86 sends `x-hexclave-known-error` / `x-hexclave-actual-status`
// beside the `x-stack-` ones; the client reads the hexclave one first. Requests
// keep `x-stack-*` names only: 2.8.11 and 2.8.86 refuse `x-hexclave-*` in a preflight.
import { describe, expect, it } from "vitest";
import { KnownErrors } from "../../../generated/known-errors.js";
import { StackAssertionError } from "../../../runtime/errors.js";
import { createStackClient } from "../../../runtime/http/client.js";
import { VERSION } from "../../../runtime/version.js";
import { fakeService, json, jwt, testEnvironment, type Handler } from "../../helpers/fake-service.js";
import { rejectionOf } from "../../helpers/outcome.js";

const NOW = 1_767_225_600_000;
const ACCESS_TOKEN = jwt({ exp: NOW / 1000 + 3600 });

function setup(handler: Handler) {
  const service = fakeService(handler);
  const { env } = testEnvironment(service.fetch, { now: () => NOW });
  const tokenStore = { accessToken: ACCESS_TOKEN, refreshToken: "rt-1" };
  const client = createStackClient({ projectId: "p", publishableClientKey: "k", tokenStore, environment: env });
  return { service, client };
}

const WRONG_PASSWORD = { code: "EMAIL_PASSWORD_MISMATCH", error: "Wrong e-mail or password." };
const signIn = (client: ReturnType<typeof setup>["client"]) =>
  client.api.POST("/auth/password/sign-in", { body: { email: "ada@example.com", password: "x" } });

describe("a known error answered with x-hexclave- headers", () => {
  it("with only x-hexclave-known-error and x-hexclave-actual-status is the typed error with the real status", async () => {
    const { client } = setup(() =>
      json(WRONG_PASSWORD, {
        status: 200,
        headers: { "x-hexclave-known-error": "EMAIL_PASSWORD_MISMATCH", "x-hexclave-actual-status": "400" },
      }),
    );
    const error = await rejectionOf(signIn(client));
    expect(error).toBeInstanceOf(KnownErrors.EmailPasswordMismatch);
    expect(error).toMatchObject({ name: "EmailPasswordMismatch", code: "EMAIL_PASSWORD_MISMATCH", status: 400 });
    expect((error as Error).message).toBe("Wrong e-mail or password.");
  });

  it("with both pairs reads the x-hexclave- one", async () => {
    const { client } = setup(() =>
      json(
        { code: "TEAM_NOT_FOUND", error: "Team t not found.", details: { team_id: "t" } },
        {
          status: 200,
          headers: {
            "x-hexclave-known-error": "TEAM_NOT_FOUND",
            "x-hexclave-actual-status": "404",
            "x-stack-known-error": "SCHEMA_ERROR",
            "x-stack-actual-status": "400",
          },
        },
      ),
    );
    const error = await rejectionOf(client.api.GET("/teams/{team_id}", { params: { path: { team_id: "t" } } }));
    expect(error).toBeInstanceOf(KnownErrors.TeamNotFound);
    expect(error).toMatchObject({ code: "TEAM_NOT_FOUND", status: 404, message: "Team t not found.", details: { team_id: "t" } });
  });

  it("whose x-hexclave-known-error differs from the body's code is the mismatch assertion", async () => {
    const { client } = setup(() =>
      json(WRONG_PASSWORD, {
        status: 200,
        headers: { "x-hexclave-known-error": "USER_NOT_FOUND", "x-hexclave-actual-status": "400" },
      }),
    );
    const error = await rejectionOf(signIn(client));
    expect(error).toBeInstanceOf(StackAssertionError);
    expect((error as Error).message).toBe(
      "Mismatch between x-stack-known-error header and error code in body; the server's response is invalid (header: USER_NOT_FOUND, body: EMAIL_PASSWORD_MISMATCH)",
    );
  });
});

describe("requests", () => {
  it("carry x-stack-* names only, never x-hexclave-*", async () => {
    const { client, service } = setup(() =>
      json({
        id: "t",
        display_name: "Team",
        profile_image_url: null,
        client_metadata: null,
        client_read_only_metadata: null,
        created_at_millis: 0,
      }),
    );
    await client.api.GET("/teams/{team_id}", { params: { path: { team_id: "t" } } });
    expect(service.requests[0]!.headers).toEqual({
      "x-stack-access-token": ACCESS_TOKEN,
      "x-stack-access-type": "client",
      "x-stack-client-version": `js stackkit@${VERSION}`,
      "x-stack-override-error-status": "true",
      "x-stack-project-id": "p",
      "x-stack-publishable-client-key": "k",
      // testEnvironment's bytes are 0, 1, 2…: the nonce is fixed.
      "x-stack-random-nonce": "mrswmz3infvgw3dnnzxxa4lson2hk5txpb4xu634pv7h6",
    });
  });
});
