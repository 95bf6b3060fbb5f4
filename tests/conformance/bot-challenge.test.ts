// The bot challenge of 2.8.86 (apps/backend/src/lib/turnstile.tsx, the sign-up, send-sign-in-code and OAuth authorize
// routes, lib/users.tsx): the three request fields, the two phases, and the service's development siteverify stub's
// answers to its test tokens (apps/mock-oauth-server). 2.8.11 knows none of the fields.
import { describe, expect, it } from "vitest";
import { rawAuthorizeUrl } from "../helpers/provider-page.js";
import { APP_URL, DEMO_KEYS, PASSWORD, serviceOf, type Service } from "./harness.js";

const signUp = (service: Service, email: string, challenge: Record<string, string>) =>
  service.call("POST", "/auth/password/sign-up", {
    body: { email, password: PASSWORD, verification_callback_url: `${APP_URL}/handler/email-verification`, ...challenge },
  });

const sendMagicLink = (service: Service, email: string, challenge: Record<string, string>) =>
  service.call("POST", "/auth/otp/send-sign-in-code", {
    body: { email, callback_url: `${APP_URL}/handler/magic-link-callback`, ...challenge },
  });

const failed = (message: string) => ({ code: "BOT_CHALLENGE_FAILED", details: { message }, error: message });
const REQUIRED = { code: "BOT_CHALLENGE_REQUIRED", error: "An additional bot challenge is required before sign-up can continue." };

describe("the bot challenge on 2.8.86", () => {
  it("signs up with a token that passes for the action, or with none and no phase (the assessment is only recorded)", async () => {
    const service = await serviceOf("2.8.86");
    expect((await signUp(service, "a@example.com", { bot_challenge_token: "mock-turnstile-ok:sign_up_with_credential" })).status).toBe(200);
    expect((await signUp(service, "b@example.com", {})).status).toBe(200);
    // A token for another action fails, but without a phase nothing is refused.
    expect((await signUp(service, "c@example.com", { bot_challenge_token: "mock-turnstile-ok:oauth_authenticate" })).status).toBe(200);
  });

  it("a failed invisible phase is 409 BOT_CHALLENGE_REQUIRED, a failed visible one 400 BOT_CHALLENGE_FAILED; nobody signs up", async () => {
    const service = await serviceOf("2.8.86");
    const cases = [
      [{ bot_challenge_token: "mock-turnstile-invalid", bot_challenge_phase: "invisible" }, 409, REQUIRED],
      [{ bot_challenge_token: "mock-turnstile-error", bot_challenge_phase: "invisible" }, 409, REQUIRED],
      [
        { bot_challenge_token: "mock-turnstile-ok:send_magic_link_email", bot_challenge_phase: "visible" },
        400,
        failed("Visible bot challenge verification failed"),
      ],
      [{ bot_challenge_unavailable: "true" }, 400, failed("Visible bot challenge could not be completed")],
    ] as const;
    for (const [challenge, status, body] of cases) {
      const answer = await signUp(service, "d@example.com", challenge);
      expect([challenge, answer.status, answer.body]).toEqual([challenge, status, body]);
    }
    const users = await service.call("GET", "/users", { as: "server", keys: DEMO_KEYS });
    expect(users.body.items.map((u: { primary_email: string }) => u.primary_email)).not.toContain("d@example.com");
    const passed = await signUp(service, "d@example.com", {
      bot_challenge_token: "mock-turnstile-visible-ok:sign_up_with_credential",
      bot_challenge_phase: "visible",
    });
    expect(passed.status).toBe(200);
  });

  it("bot_challenge_unavailable with a token is the service's assertion failure: a plain-text 500", async () => {
    const service = await serviceOf("2.8.86");
    const answer = await signUp(service, "e@example.com", { bot_challenge_unavailable: "true", bot_challenge_token: "x" });
    expect(answer.status).toBe(500);
    expect(answer.body).toMatch(/^Something went wrong/);
  });

  it("the magic-link e-mail takes the challenge too, for its own action", async () => {
    const service = await serviceOf("2.8.86");
    const ok = await sendMagicLink(service, "f@example.com", {
      bot_challenge_token: "mock-turnstile-ok:send_magic_link_email",
      bot_challenge_phase: "invisible",
    });
    expect(ok.status).toBe(200);
    const wrongAction = await sendMagicLink(service, "f@example.com", {
      bot_challenge_token: "mock-turnstile-ok:sign_up_with_credential",
      bot_challenge_phase: "invisible",
    });
    expect([wrongAction.status, wrongAction.body]).toEqual([409, REQUIRED]);
  });

  it("the OAuth authorize call takes it in its query", async () => {
    const service = await serviceOf("2.8.86");
    const authorize = (extra: Record<string, string>) =>
      service.emulator.fetch(new Request(rawAuthorizeUrl(service.emulator.apiOrigin, extra), { redirect: "manual" }));
    expect(
      (await authorize({ bot_challenge_token: "mock-turnstile-ok:oauth_authenticate", bot_challenge_phase: "invisible" })).status,
    ).toBe(307);
    const refused = await authorize({ bot_challenge_token: "mock-turnstile-invalid", bot_challenge_phase: "invisible" });
    expect([refused.status, await refused.json()]).toEqual([409, REQUIRED]);
  });
});

describe("the bot challenge on 2.8.11", () => {
  it("does not exist: the fields are unknown properties of the body and the query", async () => {
    const service = await serviceOf("2.8.11");
    const answer = await signUp(service, "a@example.com", { bot_challenge_token: "mock-turnstile-ok:sign_up_with_credential" });
    const message =
      "Request validation failed on POST /api/v1/auth/password/sign-up:\n  - body contains unknown properties: bot_challenge_token";
    expect([answer.status, answer.body]).toEqual([400, { code: "SCHEMA_ERROR", details: { message }, error: message }]);
    const magic = await sendMagicLink(service, "a@example.com", { bot_challenge_phase: "invisible" });
    expect([magic.status, magic.body.code]).toEqual([400, "SCHEMA_ERROR"]);
    const authorize = await service.emulator.fetch(
      new Request(rawAuthorizeUrl(service.emulator.apiOrigin, { bot_challenge_token: "x" }), { redirect: "manual" }),
    );
    expect([authorize.status, ((await authorize.json()) as { code: string }).code]).toEqual([400, "SCHEMA_ERROR"]);
  });
});
