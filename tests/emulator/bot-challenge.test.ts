// The SDK's bot challenge against the emulator, which judges tokens as the service's development siteverify stub
// does (emulator/engine/bot-challenge.ts: `mock-turnstile-ok:<action>` and `mock-turnstile-visible-ok:<action>` pass
// for that action only, `mock-turnstile-invalid` fails) on every 2.8.86 project, and knows no challenge on 2.8.11.
// Every 2.8.86 exchange is checked against the document.
import { describe, expect, it } from "vitest";
import { createEmulator, DEMO_KEYS, type Emulator } from "../../emulator/index.js";
import {
  KnownErrors,
  ServiceVersionError,
  StackClientApp,
  type BotChallengeProvider,
  type BotChallengeRequest,
  type StackClientAppOptions,
} from "../../runtime/index.js";
import { fakeBrowser } from "../helpers/app-context.js";
import { useEmulator } from "../helpers/emulator.js";
import { browseEmulator, formOf } from "../helpers/provider-page.js";
import { rejectionOf } from "../helpers/outcome.js";

const emulator = useEmulator({ serviceVersion: "2.8.86" });
const APP = "http://localhost:3000";
const PASSWORD = "correct horse battery";
const VERIFY = `${APP}/handler/email-verification`;
const MAGIC = `${APP}/handler/magic-link-callback`;

function appOn(e: Emulator, options: Partial<StackClientAppOptions> = {}) {
  // Navigation waits (2000 ms) pass at once here; other timers keep their length.
  const setTimeout = (callback: () => void, ms: number) => globalThis.setTimeout(callback, ms === 2000 ? 0 : ms);
  return new StackClientApp({
    projectId: DEMO_KEYS.projectId,
    publishableClientKey: DEMO_KEYS.publishableClientKey,
    baseUrl: e.apiOrigin,
    environment: { fetch: e.fetch, now: () => e.control.now(), setTimeout, clearTimeout: (id) => globalThis.clearTimeout(id as never) },
    browser: null,
    noAutomaticPrefetch: true,
    tokenStore: "memory",
    ...options,
  });
}

/** A provider that answers `tokens` in turn and records what it was asked. */
function provider(...tokens: (string | null)[]) {
  const asked: string[] = [];
  const botChallenge: BotChallengeProvider = ({ action, phase }: BotChallengeRequest) => {
    asked.push(`${phase} ${action}`);
    return tokens.shift() ?? null;
  };
  return { botChallenge, asked };
}

/** The emulator's log of one operation: each answer's status and known error. */
const logOf = (e: Emulator, operationId: "signUpWithPassword" | "sendMagicLinkCode" | "startOAuthAuthorization" | "signInWithMagicLink") =>
  e.control.requests({ operationId }).map((r) => [r.status, r.knownError]);

describe("signUpWithCredential with a bot challenge (2.8.86)", () => {
  it("asks the app's provider again for a visible token after BOT_CHALLENGE_REQUIRED, and signs up: two requests", async () => {
    const p = provider("mock-turnstile-invalid", "mock-turnstile-visible-ok:sign_up_with_credential");
    const app = appOn(emulator(), { botChallenge: p.botChallenge });
    const result = await app.signUpWithCredential({
      email: "ada@example.com",
      password: PASSWORD,
      verificationCallbackUrl: VERIFY,
      noRedirect: true,
    });
    expect(result).toEqual({ status: "ok", data: undefined });
    expect(p.asked).toEqual(["invisible sign_up_with_credential", "visible sign_up_with_credential"]);
    expect(logOf(emulator(), "signUpWithPassword")).toEqual([
      [409, "BOT_CHALLENGE_REQUIRED"],
      [200, null],
    ]);
    expect((await app.getUser({ or: "throw" })).primaryEmail).toBe("ada@example.com");
  });

  it("returns the call's own refused tokens as typed Results and signs nobody up", async () => {
    const app = appOn(emulator());
    const sign = (botChallengeToken: string, botChallengePhase: "invisible" | "visible") =>
      app.signUpWithCredential({
        email: "bob@example.com",
        password: PASSWORD,
        noVerificationCallback: true,
        botChallengeToken,
        botChallengePhase,
      });
    // A token of another action does not pass.
    const required = await sign("mock-turnstile-ok:send_magic_link_email", "invisible");
    expect(required.status === "error" && required.error).toBeInstanceOf(KnownErrors.BotChallengeRequired);
    const failed = await sign("mock-turnstile-invalid", "visible");
    if (failed.status !== "error") throw new Error("expected an error Result");
    expect(failed.error).toBeInstanceOf(KnownErrors.BotChallengeFailed);
    expect([failed.error.message, failed.error.details]).toEqual([
      "Visible bot challenge verification failed",
      { message: "Visible bot challenge verification failed" },
    ]);
    expect(emulator().engine.ctx.store.sizes().users).toBe(0);
    expect((await sign("mock-turnstile-ok:sign_up_with_credential", "invisible")).status).toBe("ok");
  });

  it("without a token or a provider sends no challenge, and the service signs up as before", async () => {
    const app = appOn(emulator());
    expect((await app.signUpWithCredential({ email: "eve@example.com", password: PASSWORD, noVerificationCallback: true })).status).toBe(
      "ok",
    );
    expect(logOf(emulator(), "signUpWithPassword")).toEqual([[200, null]]);
  });

  it("refuses a sign-up whose challenge could not be shown (botChallengeUnavailable): BOT_CHALLENGE_FAILED", async () => {
    const result = await appOn(emulator(), { botChallenge: provider(null, null).botChallenge }).signUpWithCredential({
      email: "ada@example.com",
      password: PASSWORD,
      noVerificationCallback: true,
    });
    if (result.status !== "error") throw new Error("expected an error Result");
    expect(result.error).toBeInstanceOf(KnownErrors.BotChallengeFailed);
    expect(result.error.message).toBe("Visible bot challenge could not be completed");
  });
});

describe("sendMagicLinkEmail with a bot challenge (2.8.86)", () => {
  it("sends the e-mail once the provider's visible token passed", async () => {
    const p = provider("mock-turnstile-error", "mock-turnstile-visible-ok:send_magic_link_email");
    const sent = await appOn(emulator(), { botChallenge: p.botChallenge }).sendMagicLinkEmail("ada@example.com", { callbackUrl: MAGIC });
    expect(sent.status).toBe("ok");
    expect(logOf(emulator(), "sendMagicLinkCode")).toEqual([
      [409, "BOT_CHALLENGE_REQUIRED"],
      [200, null],
    ]);
    expect(emulator().control.emails({ to: "ada@example.com" })).toHaveLength(1);
  });

  it("sends it when the challenge was unavailable, but the sign-up with its code is BOT_CHALLENGE_FAILED", async () => {
    const app = appOn(emulator());
    const sent = await app.sendMagicLinkEmail("ada@example.com", { callbackUrl: MAGIC, botChallengeUnavailable: true });
    expect(sent.status).toBe("ok");
    const code = emulator().control.codes({ kind: "magic_link", recipient: "ada@example.com" }).at(-1)!.code;
    const error = await rejectionOf(app.signInWithMagicLink(code));
    expect(error).toBeInstanceOf(KnownErrors.BotChallengeFailed);
    expect((error as Error).message).toBe("Visible bot challenge could not be completed");
    expect(logOf(emulator(), "signInWithMagicLink")).toEqual([[400, "BOT_CHALLENGE_FAILED"]]);
  });
});

describe("signInWithOAuth with a bot challenge (2.8.86)", () => {
  /** Runs the flow from the app's page to the provider's consent, as `email`, and back; where the browser landed. */
  async function signInWithGitHub(botChallenge: BotChallengeProvider, email: string) {
    const e = emulator();
    const fake = fakeBrowser(`${APP}/handler/sign-in`);
    const app = appOn(e, { browser: fake.browser, botChallenge, redirectMethod: "none" });
    await app.signInWithOAuth("github");
    expect(fake.assigned).toHaveLength(1);
    // The browser goes straight to the provider's page: the authorize call was fetched.
    expect(new URL(fake.assigned[0]!).pathname).toBe("/emulator/oauth/github/authorize");
    const page = await browseEmulator(e, fake.assigned[0]!);
    const form = formOf(page, { id: "oauth-identity-form" });
    form.fields.set("email", email);
    const back = await browseEmulator(e, form.action, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: form.fields.toString(),
    });
    fake.browser.history.replaceState({}, "", back.landed!.toString());
    return { app, landed: back.landed! };
  }

  it("fetches the authorize call, asks again with the visible token after BOT_CHALLENGE_REQUIRED, and signs up", async () => {
    const p = provider("mock-turnstile-invalid", "mock-turnstile-ok:oauth_authenticate");
    const { app, landed } = await signInWithGitHub(p.botChallenge, "ada@example.com");
    expect(p.asked).toEqual(["invisible oauth_authenticate", "visible oauth_authenticate"]);
    expect(logOf(emulator(), "startOAuthAuthorization")).toEqual([
      [409, "BOT_CHALLENGE_REQUIRED"],
      [200, null],
    ]);
    expect(landed.pathname).toBe("/handler/oauth-callback");
    expect(await app.callOAuthCallback()).toBe(true);
    expect((await app.getUser({ or: "throw" })).primaryEmail).toBe("ada@example.com");
  });

  it("throws BOT_CHALLENGE_FAILED of a failed visible token, and the browser does not leave", async () => {
    const fake = fakeBrowser(`${APP}/handler/sign-in`);
    const app = appOn(emulator(), { browser: fake.browser });
    const error = await rejectionOf(
      app.signInWithOAuth("github", { botChallengeToken: "mock-turnstile-invalid", botChallengePhase: "visible" }),
    );
    expect(error).toBeInstanceOf(KnownErrors.BotChallengeFailed);
    expect(fake.assigned).toEqual([]);
  });

  it("goes to the provider when the challenge was unavailable, and the callback's sign-up is refused: BOT_CHALLENGE_FAILED", async () => {
    const { app } = await signInWithGitHub(provider(null, null).botChallenge, "ada@example.com");
    const error = await rejectionOf(app.callOAuthCallback());
    expect(error).toBeInstanceOf(KnownErrors.BotChallengeFailed);
    expect(emulator().engine.ctx.store.sizes().users).toBe(0);
  });
});

describe("a bot challenge on 2.8.11, which has none", () => {
  // Not checked against the document: these requests carry what 2.8.11's view of it forbids, on purpose.
  let old: Emulator | undefined;
  const oldApp = async (options: Partial<StackClientAppOptions> = {}) =>
    appOn((old = await createEmulator({ serviceVersion: "2.8.11" })), options);

  it("rejects each of the three calls with a ServiceVersionError after the service refused the fields, one request each", async () => {
    const fake = fakeBrowser(`${APP}/handler/sign-in`);
    const app = await oldApp({ browser: fake.browser, botChallenge: provider("t1", "t2", "t3").botChallenge });
    const signUp = await rejectionOf(
      app.signUpWithCredential({ email: "ada@example.com", password: PASSWORD, verificationCallbackUrl: VERIFY }),
    );
    const magic = await rejectionOf(app.sendMagicLinkEmail("ada@example.com", { callbackUrl: MAGIC }));
    const oauth = await rejectionOf(app.signInWithOAuth("github"));
    expect([signUp, magic, oauth].map((e) => [e instanceof ServiceVersionError, (e as ServiceVersionError).method])).toEqual([
      [true, "StackClientApp.signUpWithCredential"],
      [true, "StackClientApp.sendMagicLinkEmail"],
      [true, "StackClientApp.signInWithOAuth"],
    ]);
    expect((signUp as Error).message).toContain(
      "it has no bot challenge and refused bot_challenge_token, bot_challenge_phase, so nothing was done",
    );
    expect(old!.control.requests().map((r) => [r.operationId, r.status, r.knownError])).toEqual([
      ["signUpWithPassword", 400, "SCHEMA_ERROR"],
      ["sendMagicLinkCode", 400, "SCHEMA_ERROR"],
      ["startOAuthAuthorization", 400, "SCHEMA_ERROR"],
    ]);
    expect([old!.engine.ctx.store.sizes().users, fake.assigned]).toEqual([0, []]);
  });

  it("signs up, sends the e-mail and navigates as before without a challenge", async () => {
    const fake = fakeBrowser(`${APP}/handler/sign-in`);
    const app = await oldApp({ browser: fake.browser, redirectMethod: "none" });
    expect(
      (await app.signUpWithCredential({ email: "ada@example.com", password: PASSWORD, verificationCallbackUrl: VERIFY, noRedirect: true }))
        .status,
    ).toBe("ok");
    expect((await app.sendMagicLinkEmail("bob@example.com", { callbackUrl: MAGIC })).status).toBe("ok");
    await app.signInWithOAuth("github");
    expect(new URL(fake.assigned[0]!).pathname).toBe("/api/v1/auth/oauth/authorize/github");
    expect(old!.control.requests().map((r) => r.operationId)).toEqual(["signUpWithPassword", "sendMagicLinkCode"]);
  });
});
