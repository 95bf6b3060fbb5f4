// Routing as the service does it: its middleware serves `/api/v1/…` from
// `/api/latest/…` (apps/backend/src/middleware.tsx at 2.8.11, src/proxy.tsx at
// 2.8.86, with the versions of src/app/api/migrations in between), the
// framework answers a route file without the method asked a bare 405 (its
// own tests: integrations/neon/oauth-providers.test.ts, 405 without a body),
// and the verification-code routes' check-code siblings only look a code up
// (route-handlers/verification-code-handler.tsx, the `check` handler).
import { describe, expect, it } from "vitest";
import { APP_URL, DEMO_KEYS, serviceOf, SERVICE_VERSIONS, signUp } from "./harness.js";

describe.each(SERVICE_VERSIONS)("routing on %s", (version) => {
  it("serves /api/latest/… as /api/v1/…", async () => {
    const service = await serviceOf(version);
    const user = await signUp(service, "ada@example.com");
    const latest = await service.call("GET", "/users/me", { token: user.accessToken, prefix: "/api/latest" });
    const v1 = await service.call("GET", "/users/me", { token: user.accessToken });
    expect([latest.status, latest.body]).toEqual([200, v1.body]);
    service.expectViolations(/^GET \/api\/latest\/users\/me 200/);
  });

  it("words a schema error on /api/latest with the path asked", async () => {
    const service = await serviceOf(version);
    const answer = await service.call("POST", "/auth/password/sign-in", { body: { email: "ada@example.com" }, prefix: "/api/latest" });
    const message = "Request validation failed on POST /api/latest/auth/password/sign-in:\n  - body.password must be defined";
    expect([answer.status, answer.body]).toEqual([400, { code: "SCHEMA_ERROR", details: { message }, error: message }]);
    service.expectViolations(/^POST \/api\/latest\/auth\/password\/sign-in 400/);
  });

  it("answers a known path asked with another method 405 without a body", async () => {
    const service = await serviceOf(version);
    for (const [method, route] of [
      ["GET", "/auth/password/sign-up"],
      ["DELETE", "/users"],
      ["PUT", "/users/me"],
      ["GET", "/check-feature-support"],
    ] as const) {
      const answer = await service.call(method, route, { headers: { "x-stack-override-error-status": "true" } });
      expect([method, route, answer.status, answer.body], `${method} ${route}`).toEqual([method, route, 405, undefined]);
      expect(answer.headers.get("x-stack-request-id")).toBeNull();
      expect(answer.headers.get("x-stack-actual-status")).toBeNull();
      expect(answer.headers.get("access-control-allow-origin")).toBe("*");
    }
    service.expectViolations(/ 405: /);
  });

  it("answers a path it does not have with the catch-all's plain-text 404", async () => {
    const service = await serviceOf(version);
    const answer = await service.call("GET", "/no-such-route");
    expect(answer.status).toBe(404);
    expect(answer.body).toMatch(/^404 — this page does not exist in Stack Auth's API\./);
    service.expectViolations(/^GET \/api\/v1\/no-such-route 404/);
  });

  it("checks a magic-link code without using it up: POST /auth/otp/sign-in/check-code", async () => {
    const service = await serviceOf(version);
    const sent = await service.call("POST", "/auth/otp/send-sign-in-code", {
      body: { email: "grace@example.com", callback_url: `${APP_URL}/handler/magic-link-callback` },
    });
    expect(sent.status).toBe(200);
    const [issued] = service.emulator.control.codes({ recipient: "grace@example.com", kind: "magic_link" });
    const check = await service.call("POST", "/auth/otp/sign-in/check-code", { body: { code: issued!.code } });
    expect([check.status, check.body]).toEqual([200, { is_code_valid: true }]);
    const users = await service.call("GET", "/users", { as: "server", keys: DEMO_KEYS });
    expect(users.body.items.map((u: { primary_email: string }) => u.primary_email)).not.toContain("grace@example.com");
    const signIn = await service.call("POST", "/auth/otp/sign-in", { body: { code: issued!.code } });
    expect([signIn.status, signIn.body.is_new_user]).toEqual([200, true]);
    const again = await service.call("POST", "/auth/otp/sign-in/check-code", { body: { code: issued!.code } });
    expect([again.status, again.body.code]).toEqual([409, "VERIFICATION_CODE_ALREADY_USED"]);
  });

  it("answers an unknown magic-link code VERIFICATION_CODE_NOT_FOUND on check-code", async () => {
    const service = await serviceOf(version);
    const check = await service.call("POST", "/auth/otp/sign-in/check-code", { body: { code: "a".repeat(45) } });
    expect([check.status, check.body]).toEqual([
      404,
      { code: "VERIFICATION_CODE_NOT_FOUND", error: "The verification code does not exist for this project." },
    ]);
  });

  it("checks an e-mail verification code without verifying: POST /contact-channels/verify/check-code", async () => {
    const service = await serviceOf(version);
    const user = await signUp(service, "ada@example.com");
    const [issued] = service.emulator.control.codes({ recipient: "ada@example.com", kind: "email_verification" });
    const check = await service.call("POST", "/contact-channels/verify/check-code", { body: { code: issued!.code } });
    expect([check.status, check.body]).toEqual([200, { is_code_valid: true }]);
    const me = await service.call("GET", "/users/me", { token: user.accessToken });
    expect(me.body.primary_email_verified).toBe(false);
    const verify = await service.call("POST", "/contact-channels/verify", { body: { code: issued!.code } });
    expect([verify.status, verify.body]).toEqual([200, { success: true }]);
    const again = await service.call("POST", "/contact-channels/verify/check-code", { body: { code: issued!.code } });
    expect([again.status, again.body.code]).toEqual([409, "VERIFICATION_CODE_ALREADY_USED"]);
  });
});
