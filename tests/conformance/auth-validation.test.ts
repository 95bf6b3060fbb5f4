// What the auth handlers check as the service checks it: the sign-up e-mail
// against its sign-in e-mail schema (packages/stack-shared/src/schema-fields.ts
// signInEmailSchema: yup's e-mail check and a stricter pattern), passwords against
// its passwordSchema (at most 70 characters, on every password route), imported password
// hashes (packages/stack-shared/src/utils/hashes.tsx: bcrypt, at most 16 rounds;
// apps/backend/src/app/api/latest/users/crud.tsx refuses others).
import bcrypt from "bcryptjs";
import { describe, expect, it } from "vitest";
import { APP_URL, PASSWORD, serviceOf, signUp } from "./harness.js";

const VERSIONS = ["2.8.11", "2.8.86"] as const;
const PATTERN = String(/^[^.]+(\.[^.]+)*@.*\.[^.][^.]+$/);
const signUpBody = (email: string) => ({
  email,
  password: "correct horse battery staple",
  verification_callback_url: `${APP_URL}/handler/x`,
});

describe.each(VERSIONS)("on %s", (version) => {
  it("refuses a sign-up e-mail that is no e-mail with both of the schema's problems", async () => {
    const service = await serviceOf(version);
    const answer = await service.call("POST", "/auth/password/sign-up", { body: signUpBody("not-an-email") });
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe("SCHEMA_ERROR");
    expect(answer.body.error).toBe(
      `Request validation failed on POST /api/v1/auth/password/sign-up:\n  - body.email must be a valid email\n  - body.email must match the following: "${PATTERN}"`,
    );
  });

  it("refuses a sign-up e-mail whose domain has no dot with the stricter pattern only", async () => {
    const service = await serviceOf(version);
    const answer = await service.call("POST", "/auth/password/sign-up", { body: signUpBody("ada@localhost") });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe(
      `Request validation failed on POST /api/v1/auth/password/sign-up:\n  - body.email must match the following: "${PATTERN}"`,
    );
  });

  it("refuses a password longer than 70 characters as the schema words it, on every password route", async () => {
    const service = await serviceOf(version);
    const user = await signUp(service, "ada@example.com");
    const long = "x".repeat(71);
    const cases: [string, string, Record<string, unknown>, string[]][] = [
      ["/auth/password/sign-up", "", { ...signUpBody("new@example.com"), password: long }, ["body.password"]],
      ["/auth/password/sign-in", "", { email: "ada@example.com", password: long }, ["body.password"]],
      ["/auth/password/update", user.accessToken, { old_password: long, new_password: long }, ["body.old_password", "body.new_password"]],
      ["/auth/password/set", user.accessToken, { password: long }, ["body.password"]],
      ["/auth/password/reset", "", { code: "x".repeat(45), password: long }, ["body.password"]],
    ];
    for (const [route, token, body, fields] of cases) {
      const answer = await service.call("POST", route, { body, ...(token ? { token } : {}) });
      expect([answer.status, answer.body.code], route).toEqual([400, "SCHEMA_ERROR"]);
      expect(answer.body.error).toBe(
        [`Request validation failed on POST /api/v1${route}:`, ...fields.map((f) => `  - ${f} must be at most 70 characters`)].join("\n"),
      );
    }
    // Seventy characters are still a password.
    const seventy = await service.call("POST", "/auth/password/sign-up", {
      body: { ...signUpBody("max@example.com"), password: "x".repeat(70) },
    });
    expect(seventy.status).toBe(200);
  });

  it("signs in with the password of an imported bcrypt hash, and refuses a wrong one", async () => {
    const service = await serviceOf(version);
    const hash = bcrypt.hashSync("imported password", 4);
    const created = await service.call("POST", "/users", {
      as: "server",
      body: { primary_email: "imp@example.com", primary_email_auth_enabled: true, password_hash: hash },
    });
    expect(created.status).toBe(201);
    expect(created.body.has_password).toBe(true);
    const ok = await service.call("POST", "/auth/password/sign-in", { body: { email: "imp@example.com", password: "imported password" } });
    expect(ok.status).toBe(200);
    const wrong = await service.call("POST", "/auth/password/sign-in", { body: { email: "imp@example.com", password: "not it" } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.code).toBe("EMAIL_PASSWORD_MISMATCH");
  });

  it("refuses an imported bcrypt hash of more than 16 rounds as an invalid hash", async () => {
    const service = await serviceOf(version);
    const hash = bcrypt.hashSync("x", 4).replace(/^\$2b\$04\$/, "$2b$17$");
    const created = await service.call("POST", "/users", { as: "server", body: { primary_email: "r@example.com", password_hash: hash } });
    expect(created.status).toBe(400);
    expect(created.body).toBe("Invalid password hash. Make sure it's a supported algorithm in Modular Crypt Format.");
  });
});

describe.each(VERSIONS)("the second factor on %s", (version) => {
  it("answers a TOTP code that is not six digits as a wrong one (INVALID_TOTP_CODE), not as a schema error", async () => {
    const service = await serviceOf(version);
    const user = await signUp(service, "ada@example.com");
    const secret = Buffer.from("12345678901234567890").toString("base64");
    const set = await service.call("PATCH", "/users/me", { token: user.accessToken, body: { totp_secret_base64: secret } });
    expect(set.status).toBe(200);
    const signIn = await service.call("POST", "/auth/password/sign-in", { body: { email: "ada@example.com", password: PASSWORD } });
    expect([signIn.status, signIn.body.code]).toEqual([400, "MULTI_FACTOR_AUTHENTICATION_REQUIRED"]);
    for (const totp of ["abc", "1234567", ""]) {
      const answer = await service.call("POST", "/auth/mfa/sign-in", {
        body: { type: "totp", totp, code: signIn.body.details.attempt_code },
      });
      expect([answer.status, answer.body.code]).toEqual([400, "INVALID_TOTP_CODE"]);
    }
  });
});
