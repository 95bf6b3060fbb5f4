// OAuth sign-in with a bot challenge (2.8.86): the authorize call is fetched with `stack_response_mode=json` and
// the challenge's query fields, without x-stack headers; the browser leaves for the provider's page it answers only
// once the challenge passed. BOT_CHALLENGE_REQUIRED is asked again once with a visible challenge's token;
// the refusals are thrown as typed known errors with the browser still on the page.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { KnownErrors } from "../../../../generated/known-errors.js";
import type { BotChallengeProvider } from "../../../../runtime/app/bot-challenge-options.js";
import { signInWithOAuth } from "../../../../runtime/app/flows/oauth.js";
import { isStackError } from "../../../../runtime/errors.js";
import { ServiceVersionError } from "../../../../runtime/http/request-errors.js";
import { fakeBrowser, testAppContext } from "../../../helpers/app-context.js";
import { answers, provider } from "../../../helpers/bot-challenge.js";
import { json, useFakeClock, type Handler } from "../../../helpers/fake-service.js";
import { AUTHORIZE_QUERY, STATE, VERIFIER } from "../../../helpers/oauth-flow.js";
import { rejectionOf } from "../../../helpers/outcome.js";

beforeEach(() => useFakeClock());
afterEach(() => vi.useRealTimers());

const PROVIDER_PAGE = "https://github.com/login/oauth/authorize?client_id=Iv1.x&state=inner-1";

/** A known error as the service answers a request without x-stack-override-error-status: its real status. */
const refusal = (status: number, code: string, error: string, details?: Record<string, unknown>) =>
  json(details ? { code, error, details } : { code, error }, { status, headers: { "x-stack-known-error": code } });
const REQUIRED = () => refusal(409, "BOT_CHALLENGE_REQUIRED", "An additional bot challenge is required before sign-up can continue.");
const LOCATION = () => json({ location: PROVIDER_PAGE });

function setup(handler: Handler, botChallenge?: BotChallengeProvider) {
  const fake = fakeBrowser("https://app.example.com/page");
  return { ...fake, ...testAppContext(handler, { browser: fake.browser, ...(botChallenge && { botChallenge }) }) };
}

/** Runs a flow that navigates away and then waits 2000 ms, to its end. */
async function navigated(promise: Promise<void>, waits: number[]): Promise<void> {
  const before = waits.length;
  await vi.waitFor(() => expect(waits.slice(before)).toContain(2000));
  await vi.advanceTimersByTimeAsync(2000);
  await promise;
}

const asked = (path: string) => {
  const url = new URL(path, "https://api.stack-auth.com");
  return [url.pathname, [...url.searchParams]];
};

describe("signInWithOAuth with a bot challenge", () => {
  it("fetches the authorize call with the call's token and phase (no x-stack headers), then leaves for the page it answers", async () => {
    const t = setup(answers(LOCATION));
    await navigated(signInWithOAuth(t.ctx, "GitHub", { botChallengeToken: "tok-1", botChallengePhase: "invisible" }), t.waits);
    expect(t.service.requests.map((r) => [r.method, ...asked(r.path)])).toEqual([
      [
        "GET",
        "/api/v1/auth/oauth/authorize/github",
        [...AUTHORIZE_QUERY, ["stack_response_mode", "json"], ["bot_challenge_token", "tok-1"], ["bot_challenge_phase", "invisible"]],
      ],
    ]);
    expect(Object.keys(t.service.requests[0]!.headers).filter((name) => name.startsWith("x-stack"))).toEqual([]);
    expect(t.assigned).toEqual([PROVIDER_PAGE]);
    expect(t.jar.get(`stack-oauth-outer-${STATE}`)).toBe(VERIFIER);
  });

  it("without a challenge of the call or the app, fetches nothing and navigates to the authorize URL itself", async () => {
    const t = setup(answers());
    await navigated(signInWithOAuth(t.ctx, "github"), t.waits);
    expect(t.service.requests).toEqual([]);
    expect(asked(t.assigned[0]!)).toEqual(["/api/v1/auth/oauth/authorize/github", AUTHORIZE_QUERY]);
  });

  it("with the app's provider: invisible, BOT_CHALLENGE_REQUIRED, visible: two fetches, one navigation", async () => {
    const p = provider("inv-1", "vis-1");
    const t = setup(answers(REQUIRED, LOCATION), p.botChallenge);
    await navigated(signInWithOAuth(t.ctx, "github"), t.waits);
    expect(p.asked).toEqual([
      { action: "oauth_authenticate", phase: "invisible" },
      { action: "oauth_authenticate", phase: "visible" },
    ]);
    expect(t.service.requests.map((r) => asked(r.path)[1])).toEqual([
      [...AUTHORIZE_QUERY, ["stack_response_mode", "json"], ["bot_challenge_token", "inv-1"], ["bot_challenge_phase", "invisible"]],
      [...AUTHORIZE_QUERY, ["stack_response_mode", "json"], ["bot_challenge_token", "vis-1"], ["bot_challenge_phase", "visible"]],
    ]);
    expect(t.assigned).toEqual([PROVIDER_PAGE]);
  });

  it("with the provider and no token at all: bot_challenge_unavailable=true", async () => {
    const p = provider(null, null);
    const t = setup(answers(LOCATION), p.botChallenge);
    await navigated(signInWithOAuth(t.ctx, "github"), t.waits);
    expect(asked(t.service.requests[0]!.path)[1]).toEqual([
      ...AUTHORIZE_QUERY,
      ["stack_response_mode", "json"],
      ["bot_challenge_unavailable", "true"],
    ]);
  });

  it("throws BOT_CHALLENGE_FAILED as a typed known error; the browser stays and keeps no verifier", async () => {
    const p = provider("inv-1", "vis-1");
    const message = "Visible bot challenge verification failed";
    const t = setup(
      answers(REQUIRED, () => refusal(400, "BOT_CHALLENGE_FAILED", message, { message })),
      p.botChallenge,
    );
    const error = await rejectionOf(signInWithOAuth(t.ctx, "github"));
    expect(error).toBeInstanceOf(KnownErrors.BotChallengeFailed);
    expect([(error as Error).message, (error as { details?: unknown }).details]).toEqual([message, { message }]);
    expect([t.service.requests.length, t.assigned, t.writes]).toEqual([2, [], []]);
  });

  it("throws the call's own BOT_CHALLENGE_REQUIRED without a second fetch", async () => {
    const p = provider("vis-1");
    const t = setup(answers(REQUIRED), p.botChallenge);
    const error = await rejectionOf(signInWithOAuth(t.ctx, "github", { botChallengeToken: "tok-1", botChallengePhase: "invisible" }));
    expect(error).toBeInstanceOf(KnownErrors.BotChallengeRequired);
    expect([t.service.requests.length, p.asked, t.assigned]).toEqual([1, [], []]);
  });

  it("throws BOT_CHALLENGE_FAILED of its own when the provider has no visible token after REQUIRED", async () => {
    const t = setup(answers(REQUIRED), provider("inv-1", null).botChallenge);
    const error = await rejectionOf(signInWithOAuth(t.ctx, "github"));
    expect(error).toBeInstanceOf(KnownErrors.BotChallengeFailed);
    expect((error as Error).message).toBe("Visible bot challenge could not be completed");
    expect([t.service.requests.length, t.assigned]).toEqual([1, []]);
  });

  it("turns 2.8.11's refusal of the query (unknown properties) into a ServiceVersionError", async () => {
    const message =
      "Request validation failed on GET /api/v1/auth/oauth/authorize/github:\n  - query contains unknown properties: stack_response_mode, bot_challenge_token, bot_challenge_phase";
    const t = setup(answers(() => refusal(400, "SCHEMA_ERROR", message, { message })));
    const error = await rejectionOf(signInWithOAuth(t.ctx, "github", { botChallengeToken: "tok-1", botChallengePhase: "invisible" }));
    expect(error).toBeInstanceOf(ServiceVersionError);
    expect((error as Error).message).toBe(
      "StackClientApp.signInWithOAuth cannot work with this Stack Auth service, which answers as 2.8.11 does: it has no bot challenge and refused stack_response_mode, bot_challenge_token, bot_challenge_phase, so nothing was done. Instead: send no bot challenge to this service: leave botChallengeToken, botChallengePhase and botChallengeUnavailable out of the call, and botChallenge out of the app's options",
    );
    expect([t.service.requests.length, t.assigned]).toEqual([1, []]);
  });

  const NOT_HTTP = "GET /auth/oauth/authorize/{provider} answered a location that is not an http(s) URL";
  it.each([
    ["javascript:alert(1)", "StackAssertionError", NOT_HTTP],
    ["/relative/page", "StackAssertionError", NOT_HTTP],
    [
      42,
      "ResponseFormatError",
      "startOAuthAuthorization: the service answered HTTP 200 with a body the API does not allow: $.location should be a string, not a number",
    ],
  ] as const)("refuses to navigate to an answered location %j", async (location, name, message) => {
    const t = setup(answers(() => json({ location })));
    const error = await rejectionOf(signInWithOAuth(t.ctx, "github", { botChallengeUnavailable: true }));
    expect(isStackError(error, name)).toBe(true);
    expect((error as Error).message).toBe(message);
    expect([t.assigned, t.writes]).toEqual([[], []]);
  });

  it("refuses a phase without a token before the provider is asked or anything is fetched", async () => {
    const p = provider("inv-1");
    const t = setup(answers(), p.botChallenge);
    const error = await rejectionOf(signInWithOAuth(t.ctx, "github", { botChallengePhase: "visible" }));
    expect((error as Error).message).toBe(
      "StackClientApp.signInWithOAuth: botChallengePhase needs the botChallengeToken it is the phase of.",
    );
    expect([t.service.requests, p.asked, t.assigned]).toEqual([[], [], []]);
  });
});
