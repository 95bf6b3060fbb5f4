// TOTP multi-factor sign-in against the emulator, through the SDK: a user turns
// TOTP on with a secret, sign-ins (password, magic link, the upgrade of an
// anonymous user) answer MULTI_FACTOR_AUTHENTICATION_REQUIRED with an attempt
// code, and signInWithMfa completes them with an RFC 6238 code computed here
// from the secret at the emulator's clock.
import { generateHOTP } from "@oslojs/otp";
import { describe, expect, it } from "vitest";
import { DEMO_KEYS } from "../../emulator/index.js";
import { mfaRequired } from "../../emulator/handlers/auth-shared.js";
import { isKnownError, StackClientApp } from "../../runtime/index.js";
import { useEmulator } from "../helpers/emulator.js";

/** One second into a 30-second TOTP step, so that a test never straddles a step by accident (the clock runs on from here). */
const START = Date.UTC(2030, 0, 1, 0, 0, 1);
const STEP = 30_000;
const emulator = useEmulator({ startTimeMs: START });

const APP = "http://localhost:3000";
const PASSWORD = "correct horse battery";
const SECRET = Uint8Array.from({ length: 20 }, (_, i) => i + 1);

/** The code of `secret` at `ms` (RFC 6238: HMAC-SHA1, 30-second steps, 6 digits). */
const totpAt = (ms: number, secret = SECRET) => generateHOTP(secret, BigInt(Math.floor(ms / STEP)), 6);
const currentTotp = () => totpAt(emulator().control.now());

function clientApp() {
  const e = emulator();
  return new StackClientApp({
    projectId: DEMO_KEYS.projectId,
    publishableClientKey: DEMO_KEYS.publishableClientKey,
    baseUrl: e.apiOrigin,
    environment: { fetch: e.fetch, now: () => e.control.now() },
    browser: null,
    noAutomaticPrefetch: true,
    tokenStore: "memory",
  });
}

/** The attempt code a MULTI_FACTOR_AUTHENTICATION_REQUIRED error (or Result) carries. */
function attemptCodeOf(error: unknown): string {
  expect(isKnownError(error, "MULTI_FACTOR_AUTHENTICATION_REQUIRED")).toBe(true);
  const code = (error as { details?: { attempt_code?: unknown } }).details?.attempt_code;
  expect(code).toMatch(/^[a-z0-9]{45}$/);
  return code as string;
}

/** A user with a password who turned TOTP on through the SDK, signed out again. */
async function totpUser(email = "ada@example.com") {
  await emulator().control.createUser({ projectId: DEMO_KEYS.projectId, email, password: PASSWORD });
  const app = clientApp();
  expect((await app.signInWithCredential({ email, password: PASSWORD })).status).toBe("ok");
  const user = await app.getUser({ or: "throw" });
  await user.update({ totpMultiFactorSecret: SECRET });
  expect((await app.getUser({ or: "throw" })).isMultiFactorRequired).toBe(true);
  await app.signOut();
  return { userId: user.id, email };
}

/** A password sign-in of a TOTP user: the app, and the attempt code of its MultiFactorAuthenticationRequired result. */
async function passwordAttempt(email = "ada@example.com") {
  const app = clientApp();
  const result = await app.signInWithCredential({ email, password: PASSWORD });
  expect(result.status).toBe("error");
  return { app, attemptCode: attemptCodeOf(result.status === "error" ? result.error : undefined) };
}

describe("TOTP after a password", () => {
  it("asks for the code after the password, and signs in with the code of the secret at the emulator's clock", async () => {
    const { userId } = await totpUser();
    const stored = emulator().engine.ctx.store.user(userId)?.totp_secret_base64;
    expect(stored).toBe(Buffer.from(SECRET).toString("base64"));

    const { app, attemptCode } = await passwordAttempt();
    expect(await app.getUser()).toBeNull();
    expect(await app.signInWithMfa(currentTotp(), attemptCode, { noRedirect: true })).toEqual({ status: "ok", data: undefined });
    expect((await app.getUser({ or: "throw" })).id).toBe(userId);

    // The attempt code is spent.
    const again = await clientApp().signInWithMfa(currentTotp(), attemptCode, { noRedirect: true });
    expect(again.status === "error" && isKnownError(again.error, "VERIFICATION_CODE_ALREADY_USED")).toBe(true);
  });

  it("answers the tokens with is_new_user of the attempt", async () => {
    const { userId } = await totpUser();
    const { app, attemptCode } = await passwordAttempt();
    const answer = await app.api.POST("/auth/mfa/sign-in", { body: { type: "totp", totp: currentTotp(), code: attemptCode } });
    expect(answer.data).toEqual({
      access_token: expect.any(String),
      refresh_token: expect.any(String),
      user_id: userId,
      is_new_user: false,
    });
  });

  it("refuses a wrong code as an InvalidTotpCode result, and the attempt code stays usable", async () => {
    await totpUser();
    const { app, attemptCode } = await passwordAttempt();
    const now = emulator().control.now();
    const wrong = [totpAt(now + 2 * STEP), totpAt(now - 2 * STEP)].find((code) => code !== totpAt(now)) as string;
    const refused = await app.signInWithMfa(wrong, attemptCode, { noRedirect: true });
    expect(refused.status === "error" && isKnownError(refused.error, "INVALID_TOTP_CODE")).toBe(true);
    expect(refused.status === "error" && refused.error.message).toBe("The TOTP code is invalid. Please try again.");
    expect(await app.getUser()).toBeNull();
    expect(await app.signInWithMfa(currentTotp(), attemptCode, { noRedirect: true })).toEqual({ status: "ok", data: undefined });
  });

  it("takes the code of the current 30-second step only: moving the clock past it invalidates a code", async () => {
    await totpUser();
    const { app, attemptCode } = await passwordAttempt();
    const code = currentTotp();
    emulator().control.advanceClock(STEP);
    // The service verifies without a grace period: the previous step's code is refused.
    const stale = await app.signInWithMfa(code, attemptCode, { noRedirect: true });
    expect(stale.status === "error" && isKnownError(stale.error, "INVALID_TOTP_CODE")).toBe(true);
    expect(await app.signInWithMfa(currentTotp(), attemptCode, { noRedirect: true })).toEqual({ status: "ok", data: undefined });
  });

  it("lets the attempt code expire after 5 minutes", async () => {
    await totpUser();
    const { app, attemptCode } = await passwordAttempt();
    emulator().control.advanceClock(5 * 60_000);
    const expired = await app.signInWithMfa(currentTotp(), attemptCode, { noRedirect: true });
    expect(expired.status === "error" && isKnownError(expired.error, "VERIFICATION_CODE_EXPIRED")).toBe(true);
  });

  it("answers a malformed TOTP code as a wrong one, and refuses malformed and unknown attempt codes", async () => {
    await totpUser();
    const { app, attemptCode } = await passwordAttempt();
    const malformed = await app.signInWithMfa("12345", attemptCode, { noRedirect: true });
    expect(malformed.status === "error" && isKnownError(malformed.error, "INVALID_TOTP_CODE")).toBe(true);
    await expect(app.signInWithMfa(currentTotp(), "too-short")).rejects.toSatisfy((e) => isKnownError(e, "SCHEMA_ERROR"));
    const unknown = await app.signInWithMfa(currentTotp(), "x".repeat(45), { noRedirect: true });
    expect(unknown.status === "error" && isKnownError(unknown.error, "VERIFICATION_CODE_NOT_FOUND")).toBe(true);
  });

  it("signs in without a second factor once TOTP is turned off", async () => {
    await totpUser();
    const { app, attemptCode } = await passwordAttempt();
    expect((await app.signInWithMfa(currentTotp(), attemptCode, { noRedirect: true })).status).toBe("ok");
    await (await app.getUser({ or: "throw" })).update({ totpMultiFactorSecret: null });
    expect(await clientApp().signInWithCredential({ email: "ada@example.com", password: PASSWORD })).toEqual({
      status: "ok",
      data: undefined,
    });
  });
});

describe("TOTP after other sign-ins", () => {
  it("asks for the code after a magic link too", async () => {
    const { userId, email } = await totpUser();
    const app = clientApp();
    expect((await app.sendMagicLinkEmail(email, { callbackUrl: `${APP}/handler/magic-link-callback` })).status).toBe("ok");
    const link = emulator().control.codes({ kind: "magic_link", recipient: email }).at(-1);
    const result = await app.signInWithMagicLink(link?.code ?? "", { noRedirect: true });
    expect(result.status).toBe("error");
    const attemptCode = attemptCodeOf(result.status === "error" ? result.error : undefined);
    expect(
      emulator()
        .control.codes()
        .find((c) => c.code === attemptCode)?.data,
    ).toEqual({ user_id: userId, is_new_user: false });

    expect(await app.signInWithMfa(currentTotp(), attemptCode, { noRedirect: true })).toEqual({ status: "ok", data: undefined });
    expect((await app.getUser({ or: "throw" })).id).toBe(userId);
  });

  it("carries the attempt's is_new_user through the step", async () => {
    // Only a sign-up can make a new user with TOTP (an anonymous user's upgrade), which the document does not list
    // MULTI_FACTOR_AUTHENTICATION_REQUIRED for: issue such an attempt as the sign-in routes do.
    const { userId } = await totpUser();
    const ctx = emulator().engine.ctx;
    const user = ctx.store.user(userId);
    const project = ctx.store.project(DEMO_KEYS.projectId);
    if (!user || !project) throw new Error("no user or project");
    const issued = mfaRequired(ctx, project, user, true);
    expect(issued.code).toBe("MULTI_FACTOR_AUTHENTICATION_REQUIRED");
    const attemptCode = String(issued.details?.["attempt_code"]);

    const app = clientApp();
    const answer = await app.api.POST("/auth/mfa/sign-in", { body: { type: "totp", totp: currentTotp(), code: attemptCode } });
    expect(answer.data).toMatchObject({ user_id: userId, is_new_user: true });
  });
});
