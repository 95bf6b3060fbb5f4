// The bot challenge of sign-up and the magic-link e-mail (2.8.86: lib/turnstile.tsx): the fields each request
// carries, from the call's own options or the app's provider; BOT_CHALLENGE_REQUIRED asked again once with a
// visible challenge's token; the refusals as typed Results; a 2.8.11 service's refusal as a ServiceVersionError.
import { describe, expect, it } from "vitest";
import { KnownErrors } from "../../../../generated/known-errors.js";
import type { BotChallengeProvider } from "../../../../runtime/app/bot-challenge-options.js";
import { sendMagicLinkEmail } from "../../../../runtime/app/flows/magic-link.js";
import { signUpWithCredential } from "../../../../runtime/app/flows/sign-up.js";
import { isStackError } from "../../../../runtime/errors.js";
import { ServiceVersionError } from "../../../../runtime/http/request-errors.js";
import { NO_TOKENS } from "../../../../runtime/sessions/tokens/store.js";
import { testAppContext } from "../../../helpers/app-context.js";
import { answers, provider } from "../../../helpers/bot-challenge.js";
import { json, jwt, knownError, type Handler, type SentRequest } from "../../../helpers/fake-service.js";
import { rejectionOf } from "../../../helpers/outcome.js";

const ISSUED = () => json({ access_token: jwt({ exp: Math.floor(Date.now() / 1000) + 600 }), refresh_token: "rt-new", user_id: "user-1" });
const NONCE = () => json({ nonce: "nonce-1" });
const REQUIRED = () => knownError(409, "BOT_CHALLENGE_REQUIRED", "An additional bot challenge is required before sign-up can continue.");
const failed = (message: string) => knownError(400, "BOT_CHALLENGE_FAILED", message, { message });
const VERIFY_URL = "https://app.example.com/handler/email-verification";
const MAGIC_URL = "https://app.example.com/handler/magic-link-callback";
const CREDENTIALS = { email: "ada@example.com", password: "pw-1" };

function signedOut(handler: Handler, botChallenge?: BotChallengeProvider) {
  return testAppContext(handler, { tokens: NO_TOKENS, ...(botChallenge && { botChallenge }) });
}

const NO_REDIRECTS = { redirectAfter: async () => {} };
const bodies = (requests: readonly SentRequest[]) => requests.map((r) => [r.path, JSON.parse(r.body)]);

describe("signUpWithCredential's bot challenge", () => {
  it("sends no challenge field without a token of the call or a provider of the app", async () => {
    const t = signedOut(answers(ISSUED));
    expect(await signUpWithCredential(t.ctx, { ...CREDENTIALS, noRedirect: true }, NO_REDIRECTS)).toEqual({
      status: "ok",
      data: undefined,
    });
    expect(bodies(t.service.requests)).toEqual([
      ["/api/v1/auth/password/sign-up", { ...CREDENTIALS, verification_callback_url: VERIFY_URL }],
    ]);
  });

  it("sends the call's token and phase after the other fields, once", async () => {
    const t = signedOut(answers(ISSUED));
    const options = { ...CREDENTIALS, botChallengeToken: "tok-1", botChallengePhase: "invisible" as const, noRedirect: true };
    await signUpWithCredential(t.ctx, options, NO_REDIRECTS);
    expect(t.service.requests.map((r) => r.body)).toEqual([
      JSON.stringify({
        ...CREDENTIALS,
        verification_callback_url: VERIFY_URL,
        bot_challenge_token: "tok-1",
        bot_challenge_phase: "invisible",
      }),
    ]);
  });

  it("sends a token without a phase as it is (the service only records it), and botChallengeUnavailable alone", async () => {
    const t = signedOut(answers(ISSUED, ISSUED));
    await signUpWithCredential(
      t.ctx,
      { ...CREDENTIALS, noVerificationCallback: true, botChallengeToken: "tok-1", noRedirect: true },
      NO_REDIRECTS,
    );
    await signUpWithCredential(
      t.ctx,
      { ...CREDENTIALS, noVerificationCallback: true, botChallengeUnavailable: true, noRedirect: true },
      NO_REDIRECTS,
    );
    expect(bodies(t.service.requests).map(([, body]) => body)).toEqual([
      { ...CREDENTIALS, bot_challenge_token: "tok-1" },
      { ...CREDENTIALS, bot_challenge_unavailable: "true" },
    ]);
  });

  it("returns BOT_CHALLENGE_REQUIRED of the call's own invisible token as a typed Result, and asks no provider", async () => {
    const p = provider("visible-1");
    const t = signedOut(answers(REQUIRED), p.botChallenge);
    const result = await signUpWithCredential(
      t.ctx,
      { ...CREDENTIALS, botChallengeToken: "tok-1", botChallengePhase: "invisible" },
      NO_REDIRECTS,
    );
    if (result.status !== "error") throw new Error("expected an error Result");
    expect(result.error).toBeInstanceOf(KnownErrors.BotChallengeRequired);
    expect(result.error.message).toBe("An additional bot challenge is required before sign-up can continue.");
    expect(t.service.requests).toHaveLength(1);
    expect(p.asked).toEqual([]);
    expect(t.store!.get()).toEqual(NO_TOKENS);
  });

  it("returns BOT_CHALLENGE_FAILED as a typed Result with the service's message and details", async () => {
    const t = signedOut(answers(() => failed("Visible bot challenge verification failed")));
    const result = await signUpWithCredential(
      t.ctx,
      { ...CREDENTIALS, botChallengeToken: "tok-v", botChallengePhase: "visible" },
      NO_REDIRECTS,
    );
    if (result.status !== "error") throw new Error("expected an error Result");
    expect(result.error).toBeInstanceOf(KnownErrors.BotChallengeFailed);
    expect([result.error.message, result.error.details]).toEqual([
      "Visible bot challenge verification failed",
      { message: "Visible bot challenge verification failed" },
    ]);
    expect(t.service.requests).toHaveLength(1);
  });

  it("with the app's provider: an invisible token, then after BOT_CHALLENGE_REQUIRED one visible token, two requests in all", async () => {
    const p = provider("inv-1", "vis-1");
    const t = signedOut(answers(REQUIRED, ISSUED), p.botChallenge);
    const result = await signUpWithCredential(t.ctx, { ...CREDENTIALS, noRedirect: true }, NO_REDIRECTS);
    expect(result).toEqual({ status: "ok", data: undefined });
    expect(p.asked).toEqual([
      { action: "sign_up_with_credential", phase: "invisible" },
      { action: "sign_up_with_credential", phase: "visible" },
    ]);
    expect(bodies(t.service.requests).map(([, body]) => body)).toEqual([
      { ...CREDENTIALS, verification_callback_url: VERIFY_URL, bot_challenge_token: "inv-1", bot_challenge_phase: "invisible" },
      { ...CREDENTIALS, verification_callback_url: VERIFY_URL, bot_challenge_token: "vis-1", bot_challenge_phase: "visible" },
    ]);
    expect(t.store!.get().refreshToken).toBe("rt-new");
  });

  it("with the provider: no visible token after BOT_CHALLENGE_REQUIRED is BOT_CHALLENGE_FAILED, without a second request", async () => {
    const p = provider("inv-1", null);
    const t = signedOut(answers(REQUIRED), p.botChallenge);
    const result = await signUpWithCredential(t.ctx, CREDENTIALS, NO_REDIRECTS);
    if (result.status !== "error") throw new Error("expected an error Result");
    expect(result.error).toBeInstanceOf(KnownErrors.BotChallengeFailed);
    expect([result.error.message, result.error.details]).toEqual([
      "Visible bot challenge could not be completed",
      { message: "Visible bot challenge could not be completed" },
    ]);
    expect(t.service.requests).toHaveLength(1);
  });

  it("with the provider: no invisible token asks for a visible one at once; none at all sends bot_challenge_unavailable", async () => {
    const visibleFirst = provider(null, "vis-1");
    const t = signedOut(answers(ISSUED), visibleFirst.botChallenge);
    await signUpWithCredential(t.ctx, { ...CREDENTIALS, noVerificationCallback: true, noRedirect: true }, NO_REDIRECTS);
    expect(visibleFirst.asked.map((r) => r.phase)).toEqual(["invisible", "visible"]);
    expect(JSON.parse(t.service.requests[0]!.body)).toEqual({
      ...CREDENTIALS,
      bot_challenge_token: "vis-1",
      bot_challenge_phase: "visible",
    });

    const none = provider(null, null);
    const u = signedOut(
      answers(() => failed("Visible bot challenge could not be completed")),
      none.botChallenge,
    );
    const result = await signUpWithCredential(u.ctx, { ...CREDENTIALS, noVerificationCallback: true }, NO_REDIRECTS);
    expect(JSON.parse(u.service.requests[0]!.body)).toEqual({ ...CREDENTIALS, bot_challenge_unavailable: "true" });
    expect(result.status === "error" && result.error).toBeInstanceOf(KnownErrors.BotChallengeFailed);
    expect(u.service.requests).toHaveLength(1);
  });

  it("drops an untrusted default verification URL once: REDIRECT_URL_NOT_WHITELISTED, REQUIRED, then the visible try, three requests", async () => {
    const p = provider("inv-1", "vis-1");
    const notWhitelisted = () => knownError(400, "REDIRECT_URL_NOT_WHITELISTED", "Redirect URL not whitelisted.");
    const t = signedOut(answers(notWhitelisted, REQUIRED, ISSUED), p.botChallenge);
    expect((await signUpWithCredential(t.ctx, { ...CREDENTIALS, noRedirect: true }, NO_REDIRECTS)).status).toBe("ok");
    expect(bodies(t.service.requests).map(([, body]) => body)).toEqual([
      { ...CREDENTIALS, verification_callback_url: VERIFY_URL, bot_challenge_token: "inv-1", bot_challenge_phase: "invisible" },
      { ...CREDENTIALS, bot_challenge_token: "inv-1", bot_challenge_phase: "invisible" },
      { ...CREDENTIALS, bot_challenge_token: "vis-1", bot_challenge_phase: "visible" },
    ]);
  });

  it("rejects with what the provider throws, and sends nothing", async () => {
    const cancelled = new Error("the user closed the challenge");
    const t = signedOut(answers(), () => Promise.reject(cancelled));
    expect(await rejectionOf(signUpWithCredential(t.ctx, CREDENTIALS, NO_REDIRECTS))).toBe(cancelled);
    expect(t.service.requests).toEqual([]);
  });

  it("hands the provider the call's signal, and sends nothing once the call is aborted during the challenge", async () => {
    const controller = new AbortController();
    const seen: (AbortSignal | undefined)[] = [];
    const t = signedOut(answers(), async ({ signal }) => {
      seen.push(signal);
      controller.abort();
      return "inv-1";
    });
    const error = await rejectionOf(signUpWithCredential(t.ctx, { ...CREDENTIALS, signal: controller.signal }, NO_REDIRECTS));
    expect((error as DOMException).name).toBe("AbortError");
    expect(seen).toEqual([controller.signal]);
    expect(t.service.requests).toEqual([]);
  });

  it.each([
    [
      { botChallengePhase: "invisible" as const },
      "StackClientApp.signUpWithCredential: botChallengePhase needs the botChallengeToken it is the phase of.",
    ],
    [
      { botChallengeToken: "tok-1", botChallengeUnavailable: true },
      "StackClientApp.signUpWithCredential: botChallengeUnavailable goes alone, without botChallengeToken or botChallengePhase (the service cannot take both).",
    ],
    [
      { botChallengeToken: "  " },
      "StackClientApp.signUpWithCredential: botChallengeToken must be the challenge's token, a non-empty string.",
    ],
    [
      { botChallengeToken: "tok-1", botChallengePhase: "hidden" as never },
      'StackClientApp.signUpWithCredential: botChallengePhase is "invisible" or "visible", not "hidden".',
    ],
  ])("refuses %o before anything is sent", async (challenge, message) => {
    const p = provider("inv-1");
    const t = signedOut(answers(), p.botChallenge);
    const error = await rejectionOf(signUpWithCredential(t.ctx, { ...CREDENTIALS, ...challenge }, NO_REDIRECTS));
    expect(isStackError(error, "StackConfigurationError")).toBe(true);
    expect((error as Error).message).toBe(message);
    expect([t.service.requests, p.asked]).toEqual([[], []]);
  });

  it("refuses a provider's answer that is not a token or null, naming the phase and action", async () => {
    const t = signedOut(answers(), async () => 42 as never);
    const error = await rejectionOf(signUpWithCredential(t.ctx, CREDENTIALS, NO_REDIRECTS));
    expect(isStackError(error, "StackConfigurationError")).toBe(true);
    expect((error as Error).message).toBe(
      "StackClientApp.signUpWithCredential: the app's botChallenge answered number for the invisible challenge of sign_up_with_credential; it must answer the challenge's token (a non-empty string) or null.",
    );
    expect(t.service.requests).toEqual([]);
  });

  it("turns 2.8.11's refusal of the fields (unknown properties) into a ServiceVersionError, after one request", async () => {
    const message =
      "Request validation failed on POST /api/v1/auth/password/sign-up:\n  - body contains unknown properties: bot_challenge_token, bot_challenge_phase";
    const t = signedOut(answers(() => knownError(400, "SCHEMA_ERROR", message, { message })));
    const error = await rejectionOf(
      signUpWithCredential(t.ctx, { ...CREDENTIALS, botChallengeToken: "tok-1", botChallengePhase: "invisible" }, NO_REDIRECTS),
    );
    expect(error).toBeInstanceOf(ServiceVersionError);
    expect((error as ServiceVersionError).message).toBe(
      "StackClientApp.signUpWithCredential cannot work with this Stack Auth service, which answers as 2.8.11 does: it has no bot challenge and refused bot_challenge_token, bot_challenge_phase, so nothing was done. Instead: send no bot challenge to this service: leave botChallengeToken, botChallengePhase and botChallengeUnavailable out of the call, and botChallenge out of the app's options",
    );
    expect([(error as ServiceVersionError).method, (error as ServiceVersionError).serviceVersion]).toEqual([
      "StackClientApp.signUpWithCredential",
      "2.8.11",
    ]);
    expect(t.service.requests).toHaveLength(1);
  });

  it("keeps any other SCHEMA_ERROR as it is", async () => {
    const message = "Request validation failed on POST /api/v1/auth/password/sign-up:\n  - body.email must be a valid email";
    const t = signedOut(answers(() => knownError(400, "SCHEMA_ERROR", message, { message })));
    const error = await rejectionOf(signUpWithCredential(t.ctx, { ...CREDENTIALS, botChallengeToken: "tok-1" }, NO_REDIRECTS));
    expect(error).toBeInstanceOf(KnownErrors.SchemaError);
  });
});

describe("sendMagicLinkEmail's bot challenge", () => {
  it("sends no challenge field by default, and the call's token and phase after callback_url when given", async () => {
    const t = signedOut(answers(NONCE, NONCE));
    expect(await sendMagicLinkEmail(t.ctx, "ada@example.com")).toEqual({ status: "ok", data: { nonce: "nonce-1" } });
    await sendMagicLinkEmail(t.ctx, "ada@example.com", { botChallengeToken: "tok-1", botChallengePhase: "visible" });
    expect(t.service.requests.map((r) => [r.path, r.body])).toEqual([
      ["/api/v1/auth/otp/send-sign-in-code", JSON.stringify({ email: "ada@example.com", callback_url: MAGIC_URL })],
      [
        "/api/v1/auth/otp/send-sign-in-code",
        JSON.stringify({ email: "ada@example.com", callback_url: MAGIC_URL, bot_challenge_token: "tok-1", bot_challenge_phase: "visible" }),
      ],
    ]);
  });

  it("with the app's provider: invisible, REQUIRED, visible: two requests, and the nonce of the second", async () => {
    const p = provider("inv-1", "vis-1");
    const t = signedOut(
      answers(REQUIRED, () => json({ nonce: "nonce-2" })),
      p.botChallenge,
    );
    expect(await sendMagicLinkEmail(t.ctx, "ada@example.com")).toEqual({ status: "ok", data: { nonce: "nonce-2" } });
    expect(p.asked).toEqual([
      { action: "send_magic_link_email", phase: "invisible" },
      { action: "send_magic_link_email", phase: "visible" },
    ]);
    expect(bodies(t.service.requests).map(([, body]) => body)).toEqual([
      { email: "ada@example.com", callback_url: MAGIC_URL, bot_challenge_token: "inv-1", bot_challenge_phase: "invisible" },
      { email: "ada@example.com", callback_url: MAGIC_URL, bot_challenge_token: "vis-1", bot_challenge_phase: "visible" },
    ]);
  });

  it("returns BOT_CHALLENGE_FAILED of the visible try as a typed Result: two requests, no third", async () => {
    const p = provider("inv-1", "vis-1", "vis-2");
    const t = signedOut(
      answers(REQUIRED, () => failed("Visible bot challenge verification failed")),
      p.botChallenge,
    );
    const result = await sendMagicLinkEmail(t.ctx, "ada@example.com");
    if (result.status !== "error") throw new Error("expected an error Result");
    expect(result.error).toBeInstanceOf(KnownErrors.BotChallengeFailed);
    expect(result.error.message).toBe("Visible bot challenge verification failed");
    expect([t.service.requests.length, p.asked.length]).toEqual([2, 2]);
  });

  it("returns the call's own BOT_CHALLENGE_REQUIRED as a typed Result", async () => {
    const t = signedOut(answers(REQUIRED));
    const result = await sendMagicLinkEmail(t.ctx, "ada@example.com", { botChallengeToken: "tok-1", botChallengePhase: "invisible" });
    expect(result.status === "error" && result.error).toBeInstanceOf(KnownErrors.BotChallengeRequired);
    expect(t.service.requests).toHaveLength(1);
  });

  it("turns 2.8.11's refusal into a ServiceVersionError naming sendMagicLinkEmail", async () => {
    const message =
      "Request validation failed on POST /api/v1/auth/otp/send-sign-in-code:\n  - body contains unknown properties: bot_challenge_unavailable";
    const t = signedOut(answers(() => knownError(400, "SCHEMA_ERROR", message, { message })));
    const error = await rejectionOf(sendMagicLinkEmail(t.ctx, "ada@example.com", { botChallengeUnavailable: true }));
    expect(error).toBeInstanceOf(ServiceVersionError);
    expect((error as ServiceVersionError).method).toBe("StackClientApp.sendMagicLinkEmail");
    expect(t.service.requests).toHaveLength(1);
  });
});
