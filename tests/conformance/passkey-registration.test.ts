// Registering a passkey, as each version checks what the authenticator
// answered (apps/backend/src/app/api/latest/auth/passkey/register/
// verification-code-handler.tsx at both revisions): 2.8.11 takes localhost where
// the project allows it and else exactly a trusted domain's origin, refusing
// others as PASSKEY_AUTHENTICATION_FAILED; 2.8.86 takes what a redirect may go to,
// refusing others as PASSKEY_REGISTRATION_FAILED. Neither catches what the
// verifier throws (an answer to another challenge): the service's generic 500.
import { describe, expect, it } from "vitest";
import { SoftAuthenticator, toBase64url } from "../helpers/webauthn.js";
import { serviceOf, SERVICE_VERSIONS, signUp, type Service } from "./harness.js";

/** A signed-in user of the demo project (passkeys on, localhost as `allowLocalhost` says), and a registration started. */
async function registration(service: Service, allowLocalhost: boolean, domains: readonly string[] = []) {
  const config = await service.call("PATCH", "/internal/projects/current", {
    as: "admin",
    body: {
      config: {
        passkey_enabled: true,
        allow_localhost: allowLocalhost,
        domains: domains.map((domain) => ({ domain, handler_path: "/handler" })),
      },
    },
  });
  expect(config.status, JSON.stringify(config.body)).toBe(200);
  const user = await signUp(service, "ada@example.com");
  const started = await service.call("POST", "/auth/passkey/initiate-passkey-registration", { token: user.accessToken, body: {} });
  expect(started.status).toBe(200);
  const challenge = (started.body.options_json as { challenge: string }).challenge;
  return async (origin: string, answerTo = challenge) => {
    const credential = await new SoftAuthenticator(origin).register({
      challenge: answerTo,
      rpId: new URL(origin).hostname,
      userId: toBase64url(new TextEncoder().encode(user.userId)),
    });
    return service.call("POST", "/auth/passkey/register", { token: user.accessToken, body: { credential, code: started.body.code } });
  };
}

const INTERNAL_ERROR = /^Something went wrong\. Please make sure the data you entered is correct\.\n\nRequest ID: \S+$/;

describe("registering a passkey on 2.8.11", () => {
  it("refuses localhost where the project does not allow it: PASSKEY_AUTHENTICATION_FAILED", async () => {
    const register = await registration(await serviceOf("2.8.11"), false, ["https://app.example.com"]);
    const answer = await register("http://localhost:3000");
    expect([answer.status, answer.body.code, answer.body.error]).toEqual([
      400,
      "PASSKEY_AUTHENTICATION_FAILED",
      "Passkey registration failed because localhost is not allowed",
    ]);
  });

  it("refuses an origin that is not exactly a trusted domain's: PASSKEY_AUTHENTICATION_FAILED", async () => {
    const register = await registration(await serviceOf("2.8.11"), true, ["https://app.example.com"]);
    const answer = await register("https://evil.example.org");
    expect([answer.status, answer.body.code, answer.body.error]).toEqual([
      400,
      "PASSKEY_AUTHENTICATION_FAILED",
      "Passkey registration failed because the origin is not allowed",
    ]);
  });
});

describe("registering a passkey on 2.8.86", () => {
  it("refuses an origin a redirect may not go to: PASSKEY_REGISTRATION_FAILED", async () => {
    const register = await registration(await serviceOf("2.8.86"), true, ["https://app.example.com"]);
    const answer = await register("https://evil.example.org");
    expect([answer.status, answer.body.code, answer.body.error]).toEqual([
      400,
      "PASSKEY_REGISTRATION_FAILED",
      "Passkey registration failed because the origin is not allowed",
    ]);
  });
});

describe.each(SERVICE_VERSIONS)("registering a passkey on %s", (version) => {
  it("registers from an allowed origin", async () => {
    const register = await registration(await serviceOf(version), true);
    const answer = await register("http://localhost:3000");
    expect([answer.status, answer.body]).toEqual([200, { user_handle: expect.any(String) }]);
  });

  it("answers an answer to another challenge with the service's plain-text 500 (the verifier's throw is not caught)", async () => {
    const register = await registration(await serviceOf(version), true);
    const answer = await register("http://localhost:3000", "b3RoZXI");
    expect(answer.status).toBe(500);
    expect(answer.body).toMatch(INTERNAL_ERROR);
  });
});
