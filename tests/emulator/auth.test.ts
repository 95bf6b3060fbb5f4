// Sign-up and sign-in through the SDK against the emulator: e-mail and
// password, the password-reset e-mail, changing and setting a password, magic
// links and one-time codes, anonymous users and their upgrade. Codes are read
// from the emulator's mailbox, as a user would click them.
import { describe, expect, it } from "vitest";
import { DEMO_KEYS, type EmailRecord } from "../../emulator/index.js";
import { HttpError, isKnownError, StackClientApp } from "../../runtime/index.js";
import { useEmulator } from "../helpers/emulator.js";

const emulator = useEmulator();

const APP = "http://localhost:3000";
const PASSWORD = "correct horse battery";

function clientApp(tokenStore: "memory" | { accessToken: string | null; refreshToken: string | null } = "memory") {
  const e = emulator();
  return new StackClientApp({
    projectId: DEMO_KEYS.projectId,
    publishableClientKey: DEMO_KEYS.publishableClientKey,
    baseUrl: e.apiOrigin,
    environment: { fetch: e.fetch, now: () => e.control.now() },
    browser: null,
    noAutomaticPrefetch: true,
    tokenStore,
  });
}

/** The demo project's record, to switch its options as its admin would. */
function demoProject() {
  const project = emulator().engine.ctx.store.project(DEMO_KEYS.projectId);
  if (!project) throw new Error("no demo project");
  return project;
}

function mailsTo(address: string): readonly EmailRecord[] {
  return emulator().control.emails({ to: address });
}

/** The link of the last e-mail to `address`, and its code. */
function lastLink(address: string) {
  const mails = mailsTo(address);
  const text = mails[mails.length - 1]?.text ?? "";
  const link = new URL(/https?:\/\/\S+/.exec(text)?.[0] ?? "http://missing.invalid");
  return { link, code: link.searchParams.get("code") ?? "" };
}

async function signUp(email: string, password = PASSWORD) {
  const app = clientApp();
  const result = await app.signUpWithCredential({ email, password, verificationCallbackUrl: `${APP}/handler/email-verification` });
  return { app, result };
}

async function signInWithPassword(email: string, password: string) {
  const app = clientApp();
  const result = await app.signInWithCredential({ email, password });
  return { app, result };
}

describe("password sign-up and sign-in", () => {
  it("signs up a user who can then sign in again as the same user", async () => {
    const { app, result } = await signUp("ada@example.com");
    expect(result).toEqual({ status: "ok", data: undefined });
    const user = await app.getUser({ or: "throw" });
    expect(user).toMatchObject({ primaryEmail: "ada@example.com", primaryEmailVerified: false, hasPassword: true, isAnonymous: false });

    await app.signOut();
    expect(await app.getUser()).toBeNull();
    const again = await signInWithPassword("ADA@example.com", PASSWORD);
    expect(again.result.status).toBe("ok");
    expect((await again.app.getUser({ or: "throw" })).id).toBe(user.id);
  });

  it("mails a verification link to the callback URL, whose code verifies the address", async () => {
    const { app } = await signUp("grace@example.com");
    const mails = mailsTo("grace@example.com");
    expect(mails).toHaveLength(1);
    expect(mails[0]?.subject).toBe("Verify your email at Demo");
    const { link, code } = lastLink("grace@example.com");
    expect(`${link.origin}${link.pathname}`).toBe(`${APP}/handler/email-verification`);
    const issued = emulator().control.codes({ kind: "email_verification", recipient: "grace@example.com" });
    expect(issued.map((c) => c.code)).toEqual([code]);
    expect(issued[0]?.data).toEqual({ user_id: (await app.getUser({ or: "throw" })).id, email: "grace@example.com" });

    expect(await app.verifyEmail(code)).toEqual({ status: "ok", data: undefined });
    expect((await app.getUser({ or: "throw" })).primaryEmailVerified).toBe(true);
  });

  it("refuses an e-mail already used for sign-in and a password the rules refuse, as results, and a password the schema refuses", async () => {
    await signUp("taken@example.com");
    const taken = await signUp("TAKEN@example.com", "another password");
    expect(taken.result.status === "error" && isKnownError(taken.result.error, "USER_EMAIL_ALREADY_EXISTS")).toBe(true);

    const short = await signUp("short@example.com", "short");
    expect(short.result.status === "error" && isKnownError(short.result.error, "PASSWORD_TOO_SHORT")).toBe(true);
    // The service's schema takes at most 70 characters, so a longer one is its SCHEMA_ERROR, which rejects.
    await expect(signUp("long@example.com", "x".repeat(71))).rejects.toSatisfy((e) => isKnownError(e, "SCHEMA_ERROR"));
    expect(emulator().engine.ctx.store.sizes().users).toBe(1);
  });

  it("refuses sign-up when the project closes it or turns passwords off, and untrusted callback URLs", async () => {
    demoProject().config.sign_up_enabled = false;
    await expect(signUp("closed@example.com")).rejects.toSatisfy((e) => isKnownError(e, "SIGN_UP_NOT_ENABLED"));
    demoProject().config.sign_up_enabled = true;

    const app = clientApp();
    const evil = app.signUpWithCredential({
      email: "evil@example.com",
      password: PASSWORD,
      verificationCallbackUrl: "https://evil.example.com/verify",
    });
    await expect(evil).rejects.toSatisfy((e) => isKnownError(e, "REDIRECT_URL_NOT_WHITELISTED"));

    await signUp("existing@example.com");
    demoProject().config.credential_enabled = false;
    await expect(signUp("nopassword@example.com")).rejects.toSatisfy((e) => isKnownError(e, "PASSWORD_AUTHENTICATION_NOT_ENABLED"));
    await expect(signInWithPassword("existing@example.com", PASSWORD)).rejects.toSatisfy((e) =>
      isKnownError(e, "PASSWORD_AUTHENTICATION_NOT_ENABLED"),
    );
    expect(emulator().engine.ctx.store.sizes().users).toBe(1);
  });

  it("answers a wrong password and an unknown e-mail alike, as EmailPasswordMismatch results", async () => {
    await signUp("ada@example.com");
    for (const [email, password] of [
      ["ada@example.com", "not the password"],
      ["nobody@example.com", PASSWORD],
    ] as const) {
      const { app, result } = await signInWithPassword(email, password);
      expect(result.status === "error" && isKnownError(result.error, "EMAIL_PASSWORD_MISMATCH")).toBe(true);
      expect(await app.getUser()).toBeNull();
    }
  });

  it("asks a user with TOTP for the second factor, with an attempt code for the next step", async () => {
    const { app } = await signUp("mfa@example.com");
    const id = (await app.getUser({ or: "throw" })).id;
    emulator().engine.ctx.store.updateUser(id, { totp_secret_base64: "AAECAwQFBgcICQoLDA0ODxAREhM=" });

    const { app: other, result } = await signInWithPassword("mfa@example.com", PASSWORD);
    expect(result.status).toBe("error");
    const error = result.status === "error" ? result.error : undefined;
    expect(isKnownError(error, "MULTI_FACTOR_AUTHENTICATION_REQUIRED")).toBe(true);
    const attemptCode = (error as { details?: { attempt_code?: string } }).details?.attempt_code;
    const issued = emulator()
      .control.codes()
      .find((c) => c.code === attemptCode);
    expect(issued?.data).toEqual({ user_id: id, is_new_user: false });
    expect(issued && issued.expires_at_millis - issued.created_at_millis).toBe(5 * 60_000);
    expect(await other.getUser()).toBeNull();
  });

  it("answers SCHEMA_ERROR for an empty e-mail, as the service", async () => {
    await expect(signInWithPassword("", PASSWORD)).rejects.toSatisfy((e) => isKnownError(e, "SCHEMA_ERROR"));
  });
});

describe("the password-reset e-mail", () => {
  it("resets the password with the mailed code, which then is used up", async () => {
    await signUp("ada@example.com");
    const app = clientApp();
    expect(await app.sendForgotPasswordEmail("ada@example.com", { callbackUrl: `${APP}/handler/password-reset` })).toEqual({
      status: "ok",
      data: undefined,
    });
    const mails = mailsTo("ada@example.com");
    expect(mails.map((m) => m.subject)).toEqual(["Verify your email at Demo", "Reset your password at Demo"]);
    const { link, code } = lastLink("ada@example.com");
    expect(link.pathname).toBe("/handler/password-reset");

    expect(await app.verifyPasswordResetCode(code)).toEqual({ status: "ok", data: undefined });
    expect(await app.resetPassword({ code, password: "a brand new password" })).toEqual({ status: "ok", data: undefined });
    expect((await signInWithPassword("ada@example.com", PASSWORD)).result.status).toBe("error");
    expect((await signInWithPassword("ada@example.com", "a brand new password")).result.status).toBe("ok");

    const reused = await app.resetPassword({ code, password: "yet another password" });
    expect(reused.status === "error" && isKnownError(reused.error, "VERIFICATION_CODE_ALREADY_USED")).toBe(true);
    const checked = await app.verifyPasswordResetCode(code.toUpperCase());
    expect(checked.status === "error" && isKnownError(checked.error, "VERIFICATION_CODE_ALREADY_USED")).toBe(true);
  });

  it("answers the same for an unknown address, and mails nothing", async () => {
    const answer = await clientApp().api.POST("/auth/password/send-reset-code", {
      body: { email: "nobody@example.com", callback_url: `${APP}/handler/password-reset` },
    });
    expect(answer.data).toEqual({ success: "maybe, only if user with e-mail exists" });
    expect(emulator().control.emails()).toEqual([]);
  });

  it("uses the code up even when the new password is refused, and refuses unknown and malformed codes", async () => {
    await signUp("ada@example.com");
    const app = clientApp();
    await app.sendForgotPasswordEmail("ada@example.com", { callbackUrl: `${APP}/handler/password-reset` });
    const { code } = lastLink("ada@example.com");
    await expect(app.resetPassword({ code, password: "short" })).rejects.toSatisfy((e) => isKnownError(e, "PASSWORD_TOO_SHORT"));
    const spent = await app.verifyPasswordResetCode(code);
    expect(spent.status === "error" && isKnownError(spent.error, "VERIFICATION_CODE_ALREADY_USED")).toBe(true);

    const unknown = await app.verifyPasswordResetCode("x".repeat(45));
    expect(unknown.status === "error" && isKnownError(unknown.error, "VERIFICATION_CODE_NOT_FOUND")).toBe(true);
    await expect(app.verifyPasswordResetCode("too-short")).rejects.toSatisfy((e) => isKnownError(e, "SCHEMA_ERROR"));
  });

  it("expires codes on the emulator's clock", async () => {
    await signUp("ada@example.com");
    const app = clientApp();
    await app.sendForgotPasswordEmail("ada@example.com", { callbackUrl: `${APP}/handler/password-reset` });
    emulator().control.advanceClock(25 * 3600_000);
    const expired = await app.resetPassword({ code: lastLink("ada@example.com").code, password: "a brand new password" });
    expect(expired.status === "error" && isKnownError(expired.error, "VERIFICATION_CODE_EXPIRED")).toBe(true);
  });
});

describe("changing and setting the password", () => {
  it("changes it after checking the old one, and ends the user's other sessions", async () => {
    const { app } = await signUp("ada@example.com");
    const elsewhere = await signInWithPassword("ada@example.com", PASSWORD);
    const user = await app.getUser({ or: "throw" });

    const mismatch = await user.updatePassword({ oldPassword: "not the password", newPassword: "a brand new password" });
    expect(isKnownError(mismatch, "PASSWORD_CONFIRMATION_MISMATCH")).toBe(true);
    const weak = await user.updatePassword({ oldPassword: PASSWORD, newPassword: "short" });
    expect(isKnownError(weak, "PASSWORD_TOO_SHORT")).toBe(true);

    expect(await user.updatePassword({ oldPassword: PASSWORD, newPassword: "a brand new password" })).toBeUndefined();
    expect((await signInWithPassword("ada@example.com", "a brand new password")).result.status).toBe("ok");
    // This session stays; the other one's refresh token is revoked.
    const sessionsLeft = emulator()
      .engine.ctx.store.sessions()
      .filter((s) => s.user_id === user.id);
    expect(sessionsLeft).toHaveLength(2);
    const { refreshToken } = await elsewhere.app.getAuthJson();
    expect(sessionsLeft.map((s) => s.refresh_token)).not.toContain(refreshToken);
  });

  it("sets a password for a user without one, once", async () => {
    const control = emulator().control;
    const record = await control.createUser({ projectId: DEMO_KEYS.projectId, email: "nopass@example.com" });
    const app = clientApp(await control.createSession(record.id));
    const user = await app.getUser({ or: "throw" });
    expect(user.hasPassword).toBe(false);
    const noOld = user.updatePassword({ oldPassword: PASSWORD, newPassword: "a brand new password" });
    await expect(noOld).rejects.toSatisfy((e) => isKnownError(e, "USER_DOES_NOT_HAVE_PASSWORD"));
    expect(isKnownError(await user.setPassword({ password: "short" }), "PASSWORD_TOO_SHORT")).toBe(true);
    expect(await user.setPassword({ password: PASSWORD })).toBeUndefined();
    expect((await signInWithPassword("nopass@example.com", PASSWORD)).result.status).toBe("ok");

    const again = user.setPassword({ password: "another password" });
    await expect(again).rejects.toSatisfy(
      (e) => e instanceof HttpError && e.status === 400 && e.body === "User already has a password set.",
    );
    // Now it has one to change.
    expect(await user.updatePassword({ oldPassword: PASSWORD, newPassword: "a brand new password" })).toBeUndefined();
  });

  it("needs a signed-in user", async () => {
    const answer = clientApp().api.POST("/auth/password/set", { body: { password: PASSWORD } });
    await expect(answer).rejects.toSatisfy(
      (e) => isKnownError(e, "SCHEMA_ERROR") && String((e as unknown as Error).message).includes("auth.user must be defined"),
    );
  });
});

describe("magic links", () => {
  const callbackUrl = `${APP}/handler/magic-link-callback`;

  it("signs up a new user with the mailed link, verified, and signs them in again later", async () => {
    const app = clientApp();
    const sent = await app.sendMagicLinkEmail("ada@example.com", { callbackUrl });
    expect(sent.status).toBe("ok");
    expect(emulator().engine.ctx.store.sizes().users).toBe(0);
    const { link, code } = lastLink("ada@example.com");
    expect(`${link.origin}${link.pathname}`).toBe(callbackUrl);
    expect(sent.status === "ok" && code.endsWith(sent.data.nonce)).toBe(true);

    expect(await app.signInWithMagicLink(code)).toEqual({ status: "ok", data: undefined });
    const user = await app.getUser({ or: "throw" });
    expect(user).toMatchObject({ primaryEmail: "ada@example.com", primaryEmailVerified: true, otpAuthEnabled: true, hasPassword: false });

    const reused = await clientApp().signInWithMagicLink(code);
    expect(reused.status === "error" && isKnownError(reused.error, "VERIFICATION_CODE_ALREADY_USED")).toBe(true);

    await app.sendMagicLinkEmail("ada@example.com", { callbackUrl });
    const second = await app.api.POST("/auth/otp/sign-in", { body: { code: lastLink("ada@example.com").code } });
    expect(second.data).toMatchObject({ is_new_user: false, user_id: user.id });
  });

  it("takes the typed one-time code followed by the nonce", async () => {
    const app = clientApp();
    const sent = await app.sendMagicLinkEmail("grace@example.com", { callbackUrl });
    const mails = mailsTo("grace@example.com");
    const otp = /Your code is ([A-Z0-9]{6})$/.exec(mails[0]?.subject ?? "")?.[1];
    expect(mails[0]?.text.split("\n")).toContain(otp);
    const nonce = sent.status === "ok" ? sent.data.nonce : "";
    expect(await app.signInWithMagicLink(`${otp}${nonce}`)).toEqual({ status: "ok", data: undefined });
    expect((await app.getUser({ or: "throw" })).primaryEmail).toBe("grace@example.com");
  });

  it("refuses codes after 20 wrong attempts on the same nonce", async () => {
    const app = clientApp();
    const sent = await app.sendMagicLinkEmail("ada@example.com", { callbackUrl });
    const nonce = sent.status === "ok" ? sent.data.nonce : "";
    const { code } = lastLink("ada@example.com");
    const wrong = code.startsWith("000000") ? "111111" : "000000";
    for (let i = 0; i < 20; i++) {
      const result = await app.signInWithMagicLink(`${wrong}${nonce}`);
      expect(result.status === "error" && isKnownError(result.error, "VERIFICATION_CODE_NOT_FOUND")).toBe(true);
    }
    const result = await app.signInWithMagicLink(code);
    expect(result.status === "error" && isKnownError(result.error, "VERIFICATION_CODE_MAX_ATTEMPTS_REACHED")).toBe(true);
  });

  it("refuses when magic links are off, sign-up is closed, the address is unverified or the URL untrusted", async () => {
    const app = clientApp();
    demoProject().config.magic_link_enabled = false;
    const off = app.sendMagicLinkEmail("ada@example.com", { callbackUrl });
    await expect(off).rejects.toSatisfy(
      (e) => e instanceof HttpError && e.status === 403 && e.body === "OTP sign-in is not enabled for this project",
    );
    demoProject().config.magic_link_enabled = true;

    demoProject().config.sign_up_enabled = false;
    await expect(app.sendMagicLinkEmail("new@example.com", { callbackUrl })).rejects.toSatisfy((e) =>
      isKnownError(e, "SIGN_UP_NOT_ENABLED"),
    );
    demoProject().config.sign_up_enabled = true;

    await signUp("unverified@example.com");
    await expect(app.sendMagicLinkEmail("unverified@example.com", { callbackUrl })).rejects.toSatisfy((e) =>
      isKnownError(e, "USER_EMAIL_ALREADY_EXISTS"),
    );

    const untrusted = await app.sendMagicLinkEmail("ada@example.com", { callbackUrl: "https://evil.example.com/callback" });
    expect(untrusted.status === "error" && isKnownError(untrusted.error, "REDIRECT_URL_NOT_WHITELISTED")).toBe(true);
    expect(mailsTo("ada@example.com")).toEqual([]);
  });
});

describe("anonymous users", () => {
  it("signs one up on demand, and upgrades that same user when it signs up with a password", async () => {
    const app = clientApp();
    const anonymous = await app.getUser({ or: "anonymous" });
    expect(anonymous).toMatchObject({ isAnonymous: true, primaryEmail: null, hasPassword: false });
    expect(await app.getUser()).toBeNull();

    expect(
      await app.signUpWithCredential({ email: "ada@example.com", password: PASSWORD, verificationCallbackUrl: `${APP}/verify` }),
    ).toEqual({
      status: "ok",
      data: undefined,
    });
    const upgraded = await app.getUser({ or: "throw" });
    expect(upgraded).toMatchObject({ id: anonymous.id, isAnonymous: false, primaryEmail: "ada@example.com", hasPassword: true });
    expect(emulator().engine.ctx.store.sizes().users).toBe(1);
  });

  it("are allowed even when sign-up is closed", async () => {
    demoProject().config.sign_up_enabled = false;
    const answer = await clientApp().api.POST("/auth/anonymous/sign-up");
    expect(answer.data).toMatchObject({ user_id: expect.any(String), refresh_token: expect.any(String) });
  });
});
