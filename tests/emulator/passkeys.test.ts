// Passkeys against the emulator: registration and sign-in through the SDK's own
// WebAuthn code, with a software authenticator behind `navigator.credentials`
// (tests/helpers/webauthn.ts) and the emulator verifying every answer with
// @simplewebauthn/server. Also the options as the service sends them, the
// fixed-challenge switch, counters, challenges, origins and the PASSKEY_* errors.
import { generateHOTP } from "@oslojs/otp";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { DEMO_KEYS } from "../../emulator/index.js";
import { isKnownError, StackClientApp } from "../../runtime/index.js";
import { fakeBrowser } from "../helpers/app-context.js";
import { useEmulator } from "../helpers/emulator.js";
import { SoftAuthenticator, toBase64url } from "../helpers/webauthn.js";

/** One second into a 30-second TOTP step, so that the code computed for the TOTP user stays current while it is sent. */
const emulator = useEmulator({ startTimeMs: Date.UTC(2030, 0, 1, 0, 0, 1) });

const ORIGIN = "http://localhost:3000";
const PASSWORD = "correct horse battery";
const SENTINEL = "THIS_VALUE_WILL_BE_REPLACED.example.com";

let authenticator: SoftAuthenticator;

/** Puts `a` behind `navigator.credentials`, as a browser with that authenticator would. */
function useAuthenticator(a: SoftAuthenticator): void {
  vi.stubGlobal("PublicKeyCredential", class PublicKeyCredential {});
  vi.stubGlobal("navigator", { credentials: a.credentialsContainer() });
}

beforeEach(() => {
  authenticator = new SoftAuthenticator(ORIGIN);
  useAuthenticator(authenticator);
});
afterEach(() => vi.unstubAllGlobals());

/** A client app on a page at `href` (its hostname replaces the rp-id sentinel). */
function clientApp(href = `${ORIGIN}/handler/account-settings`) {
  const e = emulator();
  return new StackClientApp({
    projectId: DEMO_KEYS.projectId,
    publishableClientKey: DEMO_KEYS.publishableClientKey,
    baseUrl: e.apiOrigin,
    environment: { fetch: e.fetch, now: () => e.control.now() },
    browser: fakeBrowser(href).browser,
    redirectMethod: "none",
    noAutomaticPrefetch: true,
    tokenStore: "memory",
  });
}

function demoProject() {
  const project = emulator().engine.ctx.store.project(DEMO_KEYS.projectId);
  if (!project) throw new Error("no demo project");
  return project;
}

const passkeys = () => emulator().engine.ctx.store.passkeys();

/** A signed-in user of the demo project, and the app on the page. */
async function signedIn(email = "ada@example.com", href?: string) {
  await emulator().control.createUser({ projectId: DEMO_KEYS.projectId, email, password: PASSWORD });
  const app = clientApp(href);
  expect((await app.signInWithCredential({ email, password: PASSWORD })).status).toBe("ok");
  return { app, user: await app.getUser({ or: "throw" }) };
}

/** A WebAuthn answer as the request body types it (the document leaves its shape open). */
const wire = (value: unknown) => value as Record<string, never>;

/** Whether `e` is the known error `code`, with `text` in its message when given. */
const failedWith = (code: Parameters<typeof isKnownError>[1], text?: string) => (e: unknown) =>
  isKnownError(e, code) && (text === undefined || String((e as { message?: unknown }).message).includes(text));

/** The service's answer to an error its handler does not catch: a plain-text 500 naming the request. */
const internalServerError = (e: unknown) =>
  (e as { status?: unknown }).status === 500 &&
  /^Something went wrong\. Please make sure the data you entered is correct\.\n\nRequest ID: \S+$/.test(
    String((e as { body?: unknown }).body),
  );

/** Starts a ceremony with the low-level client: the challenge and the code. */
async function initiate(app: StackClientApp, what: "registration" | "authentication") {
  const { data } = await app.api.POST(`/auth/passkey/initiate-passkey-${what}`, { body: {} });
  return { challenge: (data?.options_json as { challenge: string }).challenge, code: data?.code ?? "" };
}

const userHandleOf = (userId: string) => toBase64url(new TextEncoder().encode(userId));

/** A user with a registered passkey, signed out again. */
async function registered(email = "ada@example.com") {
  const { app, user } = await signedIn(email);
  expect(await user.registerPasskey()).toEqual({ status: "ok", data: undefined });
  await app.signOut();
  return { userId: user.id, credentialId: authenticator.credentialIds[0] as string };
}

describe("registering a passkey and signing in with it", () => {
  it("registers through the SDK, turns passkey sign-in on, and signs in with the passkey after signing out", async () => {
    const { app, user } = await signedIn();
    expect(user.passkeyAuthEnabled).toBe(false);
    expect(await user.registerPasskey()).toEqual({ status: "ok", data: undefined });
    const [credentialId] = authenticator.credentialIds;
    expect(passkeys()).toEqual([
      expect.objectContaining({ user_id: user.id, credential_id: credentialId, counter: 0, transports: ["internal"] }),
    ]);
    expect((await app.getUser({ or: "throw" })).passkeyAuthEnabled).toBe(true);

    await app.signOut();
    expect(await app.getUser()).toBeNull();
    const other = clientApp(`${ORIGIN}/handler/sign-in`);
    expect(await other.signInWithPasskey()).toEqual({ status: "ok", data: undefined });
    expect((await other.getUser({ or: "throw" })).id).toBe(user.id);
    // The counter moved on with the authenticator's.
    expect(authenticator.counterOf(credentialId as string)).toBe(1);
    expect(passkeys()[0]?.counter).toBe(1);
  });

  it("answers the options with the rp-id sentinel and a code, as the service sends them", async () => {
    const { app, user } = await signedIn();
    const registration = await app.api.POST("/auth/passkey/initiate-passkey-registration", { body: {} });
    expect(registration.data).toEqual({
      options_json: {
        challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
        rp: { name: "Demo", id: SENTINEL },
        user: { id: userHandleOf(user.id), name: "ada@example.com", displayName: "ada@example.com" },
        pubKeyCredParams: [-8, -7, -257].map((alg) => ({ alg, type: "public-key" })),
        timeout: 60000,
        attestation: "none",
        excludeCredentials: [],
        authenticatorSelection: { residentKey: "required", userVerification: "preferred", requireResidentKey: true },
        extensions: { credProps: true },
      },
      code: expect.stringMatching(/^[a-z0-9]{45}$/),
    });
    const authentication = await clientApp().api.POST("/auth/passkey/initiate-passkey-authentication", { body: {} });
    expect(authentication.data).toEqual({
      options_json: {
        rpId: SENTINEL,
        challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
        allowCredentials: [],
        timeout: 60000,
        userVerification: "preferred",
      },
      code: expect.stringMatching(/^[a-z0-9]{45}$/),
    });
    const codes = emulator().control.codes();
    expect(codes.map((c) => [c.kind, c.expires_at_millis - c.created_at_millis])).toEqual([
      ["passkey_registration", 65_000],
      ["passkey_authentication", 65_000],
    ]);
  });

  it("needs a signed-in user to start a registration, and none to start a sign-in", async () => {
    const start = clientApp().api.POST("/auth/passkey/initiate-passkey-registration", { body: {} });
    await expect(start).rejects.toSatisfy(failedWith("SCHEMA_ERROR", "auth.user must be defined"));
    expect((await initiate(clientApp(), "authentication")).code).toHaveLength(45);
  });

  it("replaces a user's passkey with a newly registered one", async () => {
    const { app, user } = await signedIn();
    await user.registerPasskey();
    await user.registerPasskey();
    const [first, second] = authenticator.credentialIds;
    expect(passkeys().map((p) => p.credential_id)).toEqual([second]);
    await app.signOut();

    const { challenge, code } = await initiate(clientApp(), "authentication");
    const answer = await authenticator.authenticate({ challenge, rpId: "localhost" }, { credentialId: first as string });
    const refused = clientApp().api.POST("/auth/passkey/sign-in", { body: { authentication_response: wire(answer), code } });
    await expect(refused).rejects.toSatisfy(failedWith("PASSKEY_AUTHENTICATION_FAILED", "Passkey not found"));
  });
});

describe("the fixed challenge", () => {
  it("lets a test compute the answers before asking", async () => {
    const { app, user } = await signedIn();
    emulator().control.setFixedChallenge("TU9DSw");
    // Computed in advance: the challenge is known and the rp id is the page's hostname.
    const credential = await authenticator.register({ challenge: "TU9DSw", rpId: "localhost", userId: userHandleOf(user.id) });
    const assertion = await authenticator.authenticate({ challenge: "TU9DSw", rpId: "localhost" });

    const started = await initiate(app, "registration");
    expect(started.challenge).toBe("TU9DSw");
    expect((await app.api.POST("/auth/passkey/register", { body: { credential: wire(credential), code: started.code } })).data).toEqual({
      user_handle: credential.id,
    });

    const signIn = await initiate(clientApp(), "authentication");
    expect(signIn.challenge).toBe("TU9DSw");
    const answer = await clientApp().api.POST("/auth/passkey/sign-in", {
      body: { authentication_response: wire(assertion), code: signIn.code },
    });
    expect(answer.data).toMatchObject({ user_id: user.id, is_new_user: false });
  });

  it("is switched over HTTP too, refuses what is not base64url, and is cleared by a reset", async () => {
    const e = emulator();
    const put = (body: unknown) =>
      e.fetch(
        new Request(`${e.apiOrigin}/emulator/v1/passkey-challenge`, {
          method: "PUT",
          body: JSON.stringify(body),
          headers: { "content-type": "application/json" },
        }),
      );
    expect(await (await put({ challenge: "Zml4ZWQ" })).json()).toEqual({ challenge: "Zml4ZWQ" });
    expect(e.control.fixedChallenge()).toBe("Zml4ZWQ");
    const bad = await put({ challenge: "not base64url!" });
    expect(bad.status).toBe(400);
    expect(await (await put({ challenge: null })).json()).toEqual({ challenge: null });

    e.control.setFixedChallenge("Zml4ZWQ");
    e.control.reset();
    expect(e.control.fixedChallenge()).toBeNull();
  });
});

describe("what the emulator refuses", () => {
  it("refuses a cloned authenticator whose counter did not move on, and keeps the stored counter", async () => {
    const { userId, credentialId } = await registered();
    expect((await clientApp().signInWithPasskey()).status).toBe("ok");
    authenticator.setCounter(credentialId, 0);
    const app = clientApp();
    const replayed = await app.signInWithPasskey();
    expect(replayed.status === "error" && isKnownError(replayed.error, "PASSKEY_AUTHENTICATION_FAILED")).toBe(true);
    expect(await app.getUser()).toBeNull();
    expect(passkeys()[0]?.counter).toBe(1);

    authenticator.setCounter(credentialId, 41);
    expect(await app.signInWithPasskey()).toEqual({ status: "ok", data: undefined });
    expect((await app.getUser({ or: "throw" })).id).toBe(userId);
    expect(passkeys()[0]?.counter).toBe(42);
  });

  it("refuses an answer to another challenge, and spends the code all the same", async () => {
    await registered();
    const app = clientApp();
    const first = await initiate(app, "authentication");
    const second = await initiate(app, "authentication");
    const answer = wire(await authenticator.authenticate({ challenge: second.challenge, rpId: "localhost" }));
    const wrong = app.api.POST("/auth/passkey/sign-in", { body: { authentication_response: answer, code: first.code } });
    await expect(wrong).rejects.toSatisfy(failedWith("PASSKEY_AUTHENTICATION_FAILED", "Failed to verify"));
    const again = app.api.POST("/auth/passkey/sign-in", { body: { authentication_response: answer, code: first.code } });
    await expect(again).rejects.toSatisfy(failedWith("VERIFICATION_CODE_ALREADY_USED"));
  });

  it("fails a registration answering another challenge as the service does: its plain-text 500, the verifier's throw uncaught", async () => {
    const { app, user } = await signedIn();
    const { code } = await initiate(app, "registration");
    const credential = await authenticator.register({ challenge: "b3RoZXI", rpId: "localhost", userId: userHandleOf(user.id) });
    const refused = app.api.POST("/auth/passkey/register", { body: { credential: wire(credential), code } });
    await expect(refused).rejects.toSatisfy(internalServerError);
    expect(passkeys()).toEqual([]);
    expect((await app.getUser({ or: "throw" })).passkeyAuthEnabled).toBe(false);
  });

  it("refuses a credential it does not know, as a PasskeyAuthenticationFailed result", async () => {
    await registered();
    useAuthenticator(new SoftAuthenticator(ORIGIN));
    // This authenticator has no credential yet: the ceremony itself fails.
    const none = await clientApp().signInWithPasskey();
    expect(none.status === "error" && isKnownError(none.error, "PASSKEY_WEBAUTHN_ERROR")).toBe(true);

    const stranger = new SoftAuthenticator(ORIGIN);
    await stranger.register({ challenge: "c3RyYW5nZXI", rpId: "localhost", userId: "dXNlcg" });
    useAuthenticator(stranger);
    const unknown = await clientApp().signInWithPasskey();
    expect(unknown.status === "error" && isKnownError(unknown.error, "PASSKEY_AUTHENTICATION_FAILED") && unknown.error.message).toBe(
      "Passkey not found",
    );
  });

  it("refuses passkeys when the project turns them off, and a passkey its user turned off", async () => {
    const { app, user } = await signedIn();
    demoProject().config.passkey_enabled = false;
    await expect(user.registerPasskey()).rejects.toSatisfy(failedWith("PASSKEY_AUTHENTICATION_NOT_ENABLED"));
    await expect(clientApp().signInWithPasskey()).rejects.toSatisfy(failedWith("PASSKEY_AUTHENTICATION_NOT_ENABLED"));

    demoProject().config.passkey_enabled = true;
    expect((await user.registerPasskey()).status).toBe("ok");
    await user.update({ passkeyAuthEnabled: false });
    expect((await app.getUser({ or: "throw" })).passkeyAuthEnabled).toBe(false);
    const off = await clientApp().signInWithPasskey();
    expect(off.status === "error" && isKnownError(off.error, "PASSKEY_AUTHENTICATION_FAILED")).toBe(true);
    expect(passkeys()).toEqual([]);
  });
});

describe("origins and the rp id", () => {
  const TRUSTED = "https://app.example.com";

  it("accepts the hostname of a trusted domain as the rp id, and refuses localhost when the project does", async () => {
    Object.assign(demoProject().config, { domains: [{ domain: TRUSTED, handler_path: "/handler" }] });
    authenticator = new SoftAuthenticator(TRUSTED);
    useAuthenticator(authenticator);
    const { app, user } = await signedIn("ada@example.com", `${TRUSTED}/handler/account-settings`);
    expect(await user.registerPasskey()).toEqual({ status: "ok", data: undefined });
    await app.signOut();
    expect(await clientApp(`${TRUSTED}/handler/sign-in`).signInWithPasskey()).toEqual({ status: "ok", data: undefined });

    demoProject().config.allow_localhost = false;
    const local = new SoftAuthenticator(ORIGIN);
    await local.register({ challenge: "bG9jYWw", rpId: "localhost", userId: "dXNlcg" });
    const { challenge, code } = await initiate(clientApp(), "authentication");
    const answer = await local.authenticate({ challenge, rpId: "localhost" });
    // The service looks the credential up first: name the registered one to reach the origin check.
    const registeredId = authenticator.credentialIds[0] as string;
    const forged = wire({ ...answer, id: registeredId, rawId: registeredId });
    const refused = clientApp().api.POST("/auth/passkey/sign-in", { body: { authentication_response: forged, code } });
    await expect(refused).rejects.toSatisfy(failedWith("PASSKEY_AUTHENTICATION_FAILED", "localhost is not allowed"));
  });

  it("refuses a registration from an untrusted origin, and a parent domain as the rp id (the service expects the page's hostname)", async () => {
    const { app, user } = await signedIn();
    const userId = userHandleOf(user.id);
    const started = await initiate(app, "registration");
    const evil = await new SoftAuthenticator("https://evil.example.org").register({
      challenge: started.challenge,
      rpId: "evil.example.org",
      userId,
    });
    const refused = app.api.POST("/auth/passkey/register", { body: { credential: wire(evil), code: started.code } });
    await expect(refused).rejects.toSatisfy(failedWith("PASSKEY_REGISTRATION_FAILED", "origin is not allowed"));

    Object.assign(demoProject().config, { domains: [{ domain: "https://sub.app.example.com", handler_path: "/handler" }] });
    const sub = new SoftAuthenticator("https://sub.app.example.com");
    const next = await initiate(app, "registration");
    const parent = await sub.register({ challenge: next.challenge, rpId: "app.example.com", userId });
    const mismatch = app.api.POST("/auth/passkey/register", { body: { credential: wire(parent), code: next.code } });
    await expect(mismatch).rejects.toSatisfy(internalServerError);
    expect(passkeys()).toEqual([]);
  });
});

describe("a user with TOTP", () => {
  it("is asked for the second factor after a verified passkey, and then signs in with the TOTP code", async () => {
    const { userId } = await registered();
    emulator().engine.ctx.store.updateUser(userId, { totp_secret_base64: "AAECAwQFBgcICQoLDA0ODxAREhM=" });
    const app = clientApp();
    const result = await app.signInWithPasskey();
    expect(result.status === "error" && isKnownError(result.error, "MULTI_FACTOR_AUTHENTICATION_REQUIRED")).toBe(true);
    const attemptCode =
      result.status === "error" ? (result.error.details as { attempt_code?: string } | undefined)?.attempt_code : undefined;
    expect(
      emulator()
        .control.codes()
        .find((c) => c.code === attemptCode)?.data,
    ).toEqual({ user_id: userId, is_new_user: false });
    expect(await app.getUser()).toBeNull();
    expect(passkeys()[0]?.counter).toBe(1);

    const secret = Uint8Array.from({ length: 20 }, (_, i) => i);
    const totp = generateHOTP(secret, BigInt(Math.floor(emulator().control.now() / 30_000)), 6);
    expect(await app.signInWithMfa(totp, attemptCode ?? "", { noRedirect: true })).toEqual({ status: "ok", data: undefined });
    expect((await app.getUser({ or: "throw" })).id).toBe(userId);
  });
});
