// stackkit/testing: an emulator per test (in-process or over HTTP), demo-project
// apps wired to it, test users, signing an app in, the latest e-mail, code
// and link sent to an address, and the service's text of a known error.
import { afterEach, describe, expect, it } from "vitest";
import { handlers } from "../../emulator/handlers/index.js";
import { knownErrorMessage as catalogueKnownErrorMessage } from "../../generated/known-error-messages.js";
import { createKnownError, createMemoryTokenStore, isKnownError, type TokenPair, type TokenStore } from "../../runtime/index.js";
import {
  appsFor,
  createTestUser,
  DEMO_KEYS,
  knownErrorMessage,
  latestCode,
  latestEmail,
  latestLink,
  linksIn,
  sessionTokens,
  signInAs,
  startEmulator,
  type TestEmulator,
} from "../../testing/index.js";

let emulator: TestEmulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

// Signing in needs the sign-in and current-user handlers of the emulator.
const canSignIn = handlers.signInWithPassword !== undefined && handlers.getCurrentUser !== undefined;

describe("startEmulator and appsFor", () => {
  it("starts an in-process emulator (no port) whose apps call its fetch", async () => {
    emulator = await startEmulator();
    expect(emulator.url).toBeUndefined();
    const apps = appsFor(emulator);
    expect((await apps.client().getProject()).displayName).toBe("Demo");
    expect((await apps.admin().getProject()).id).toBe(DEMO_KEYS.projectId);
    expect(emulator.control.requests().map((r) => r.operationId)).toEqual(["getCurrentProject", "getAdminProject"]);
  });

  it("starts a server on 127.0.0.1 with { http: true }, whose apps go over the network", async () => {
    emulator = await startEmulator({ http: true });
    expect(emulator.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(await (await fetch(`${emulator.url}/health`)).json()).toEqual({ status: "ok" });
    expect((await appsFor(emulator).client().getProject()).displayName).toBe("Demo");
    const url = emulator.url;
    await emulator.close();
    emulator = undefined;
    await expect(fetch(`${url}/health`)).rejects.toThrow();
  });

  it("passes emulator options through (an empty state)", async () => {
    emulator = await startEmulator({ state: "empty" });
    expect(emulator.control.exportState().tables.projects).toEqual([]);
  });
});

describe("createTestUser", () => {
  it("makes users with unique addresses and their passwords, in the demo project by default", async () => {
    emulator = await startEmulator();
    const a = await createTestUser(emulator);
    const b = await createTestUser(emulator, { displayName: "Bea", clientMetadata: { plan: "pro" } });
    expect(a.email).not.toBe(b.email);
    expect(a.email).toMatch(/^test-[a-z0-9]+@example\.com$/);
    expect(a.projectId).toBe(DEMO_KEYS.projectId);
    expect(b.record).toMatchObject({ display_name: "Bea", client_metadata: { plan: "pro" } });
    expect(b.record.password_hash).not.toContain(b.password);
    const channel = emulator.engine.ctx.store.authChannelByEmail(DEMO_KEYS.projectId, a.email);
    expect(channel).toMatchObject({ user_id: a.id, is_verified: true, is_primary: true });
  });

  it("takes a project, an address and a password, and refuses an address in use", async () => {
    emulator = await startEmulator();
    const owner = await createTestUser(emulator, {
      projectId: "internal",
      email: "owner@example.com",
      password: "owner-password-1",
      emailVerified: false,
    });
    expect(owner).toMatchObject({ projectId: "internal", email: "owner@example.com", password: "owner-password-1" });
    expect(emulator.engine.ctx.store.authChannelByEmail("internal", "owner@example.com")?.is_verified).toBe(false);
    await expect(createTestUser(emulator, { projectId: "internal", email: "OWNER@example.com" })).rejects.toThrow(/already/);
  });
});

describe.skipIf(!canSignIn)("signInAs and sessionTokens", () => {
  it("signs an app in through its own sign-in, filling whatever token store it has", async () => {
    emulator = await startEmulator();
    const user = await createTestUser(emulator, { displayName: "Ada" });
    const app = appsFor(emulator).client();
    await signInAs(app, user);
    expect((await app.getUser())?.displayName).toBe("Ada");

    // A custom store sees the tokens the sign-in wrote.
    const inner = createMemoryTokenStore();
    const written: TokenPair[] = [];
    const store: TokenStore = {
      get: () => inner.get(),
      set: (tokens) => (written.push(tokens), inner.set(tokens)),
      subscribe: (l) => inner.subscribe(l),
    };
    const custom = appsFor(emulator).client({ tokenStore: store });
    await signInAs(custom, user);
    expect(written.at(-1)?.refreshToken).toEqual(expect.any(String));
    expect((await custom.getUser())?.id).toBe(user.id);
  });

  it("throws the sign-in's error for a wrong password", async () => {
    emulator = await startEmulator();
    const user = await createTestUser(emulator);
    await expect(signInAs(appsFor(emulator).client(), { email: user.email, password: "wrong-password" })).rejects.toMatchObject({
      code: "EMAIL_PASSWORD_MISMATCH",
    });
  });

  it("works over HTTP too, and sessionTokens gives tokens an app can use as its store", async () => {
    emulator = await startEmulator({ http: true });
    const user = await createTestUser(emulator, { displayName: "Grace" });
    const app = appsFor(emulator).client();
    await signInAs(app, user);
    expect((await app.getUser())?.displayName).toBe("Grace");
    const tokens = await sessionTokens(emulator, user);
    expect((await appsFor(emulator).client({ tokenStore: tokens }).getUser())?.id).toBe(user.id);
  });
});

describe("latestEmail, latestCode, latestLink", () => {
  it("read the newest e-mail, code and link sent to an address (or its mailbox name)", async () => {
    emulator = await startEmulator();
    const ctx = emulator.engine.ctx;
    const mail = (to: string, subject: string, text: string) => ctx.mail.send({ projectId: DEMO_KEYS.projectId, to, subject, text });
    const code = (kind: "email_verification" | "password_reset", recipient: string) =>
      ctx.issueCode({
        projectId: DEMO_KEYS.projectId,
        kind,
        recipient,
        callbackUrl: "http://localhost:5173/handler/x",
        lifetimeMs: 60_000,
        data: {},
      });

    mail("ann@example.com", "Welcome", "See https://example.com/docs.");
    mail(
      "ann@example.com",
      "Verify",
      "Docs: https://example.com/docs, then verify: http://localhost:5173/handler/email-verification?code=c1.",
    );
    mail("ben@example.com", "Other", "...");
    const verification = code("email_verification", "ann@example.com");
    const reset = code("password_reset", "ann@example.com");

    expect(latestEmail(emulator, "ann@example.com").subject).toBe("Verify");
    expect(latestEmail(emulator, "ANN").subject).toBe("Verify");
    expect(latestLink(emulator, "ann@example.com")).toBe("http://localhost:5173/handler/email-verification?code=c1");
    expect(latestCode(emulator, "ann@example.com")).toBe(reset);
    expect(latestCode(emulator, "Ann@Example.com", "email_verification")).toBe(verification);
    expect(linksIn("a http://x.test/a?b=1, and (https://y.test/c).")).toEqual(["http://x.test/a?b=1", "https://y.test/c"]);
  });

  it("answer the e-mail in camelCase, as the rest of stackkit, with its time as a Date", async () => {
    const start = Date.UTC(2030, 0, 2, 3, 4, 5);
    emulator = await startEmulator({ startTimeMs: start });
    emulator.engine.ctx.mail.send({ projectId: DEMO_KEYS.projectId, to: "cy@example.com", subject: "Hello", text: "Hi https://x.test/a" });
    const email = latestEmail(emulator, "cy@example.com");
    const [record] = emulator.control.emails({ to: "cy@example.com" });
    expect(email).toEqual({
      id: record!.id,
      projectId: DEMO_KEYS.projectId,
      to: ["cy@example.com"],
      from: record!.from,
      subject: "Hello",
      text: "Hi https://x.test/a",
      html: record!.html,
      sentAt: new Date(record!.sent_at_millis),
      error: null,
    });
    // The emulator's clock, which started at `start`.
    expect(email.sentAt.getTime() - start).toBeGreaterThanOrEqual(0);
    expect(email.sentAt.getTime() - start).toBeLessThan(60_000);
    // No snake_case field left over from the emulator's record.
    expect(Object.keys(email).filter((key) => key.includes("_"))).toEqual([]);
  });

  it("throw a helpful error when nothing was sent", async () => {
    emulator = await startEmulator();
    expect(() => latestEmail(emulator!, "nobody@example.com")).toThrow("The emulator has sent no e-mail");
    emulator.engine.ctx.mail.send({ projectId: DEMO_KEYS.projectId, to: "zoe@example.com", subject: "Plain", text: "no link here" });
    expect(() => latestEmail(emulator!, "nobody@example.com")).toThrow("E-mail went to: zoe@example.com");
    expect(() => latestLink(emulator!, "zoe@example.com")).toThrow('("Plain") has no link');
    expect(() => latestCode(emulator!, "zoe@example.com", "magic_link")).toThrow("No magic_link code was issued to zoe@example.com");
  });
});

describe("knownErrorMessage", () => {
  it("is the catalogue's own wording (tests/generated/known-errors.test.ts checks each form of its templates)", () => {
    expect(knownErrorMessage).toBe(catalogueKnownErrorMessage);
    expect(knownErrorMessage("TEAM_NOT_FOUND", { team_id: "t1" })).toBe("Team t1 not found.");
  });

  it.skipIf(!canSignIn)("is the text the emulator answers, which the error the app gets keeps", async () => {
    emulator = await startEmulator();
    const user = await createTestUser(emulator);
    // Outside a browser, the sign-up's verification link needs an absolute handler URL.
    const app = appsFor(emulator).client({ urls: { handler: "http://localhost:3000/handler" } });
    const result = await app.signInWithCredential({ email: user.email, password: "wrong-password", noRedirect: true });
    if (result.status !== "error" || !isKnownError(result.error, "EMAIL_PASSWORD_MISMATCH"))
      throw new Error("expected EMAIL_PASSWORD_MISMATCH");
    expect(result.error.message).toBe(knownErrorMessage("EMAIL_PASSWORD_MISMATCH"));
    expect(result.error).toEqual(
      createKnownError("EMAIL_PASSWORD_MISMATCH", undefined, { status: 400, message: knownErrorMessage("EMAIL_PASSWORD_MISMATCH") }),
    );

    const taken = await app.signUpWithCredential({ email: user.email, password: "another-password-1", noRedirect: true });
    if (taken.status !== "error" || !isKnownError(taken.error, "USER_EMAIL_ALREADY_EXISTS"))
      throw new Error("expected USER_EMAIL_ALREADY_EXISTS");
    expect(taken.error.message).toBe(knownErrorMessage("USER_EMAIL_ALREADY_EXISTS", taken.error.details));
  });
});
