// Command-line login (wire contract §11; SPEC §4 "Command-line login polling statuses"; issue #4 "CLI login").
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { isKnownError, KnownErrors } from "../../../../generated/known-errors.js";
import { isStackError } from "../../../../runtime/errors.js";
import { ResponseFormatError } from "../../../../runtime/http/request-errors.js";
import { completeCliLogin, promptCliLogin, type PromptCliLoginOptions } from "../../../../runtime/app/flows/cli.js";
import { testAppContext, type TestAppOptions } from "../../../helpers/app-context.js";
import { json, knownError, useFakeClock, type SentRequest } from "../../../helpers/fake-service.js";
import { rejectionOf } from "../../../helpers/outcome.js";

beforeEach(() => useFakeClock());
afterEach(() => vi.useRealTimers());

const STARTED = { polling_code: "poll-7f3k", login_code: "login code/9", expires_at: "2026-11-21T14:00:00.000Z" };
const waiting = () => json({ status: "waiting" });
const success =
  (status = 201) =>
  () =>
    json({ status: "success", refresh_token: "rt-cli" }, { status });

/** A service that starts every attempt with STARTED and answers the polls in order (the last answer repeats). */
function cliService(polls: readonly (() => Response)[]) {
  let next = 0;
  return (request: SentRequest) => {
    if (request.path === "/api/v1/auth/cli") return json(STARTED);
    if (request.path === "/api/v1/auth/cli/poll") return polls[Math.min(next++, polls.length - 1)]!();
    return json({ unexpected: request.path }, { status: 500 });
  };
}

/** A command-line tool: an app without a user. */
function cli(polls: readonly (() => Response)[], options: TestAppOptions = {}) {
  return testAppContext(cliService(polls), { tokens: null, ...options });
}

/** Runs promptCliLogin to its end on the fake clock. */
async function login(ctx: ReturnType<typeof cli>["ctx"], options: Partial<PromptCliLoginOptions> = {}) {
  const pending = promptCliLogin(ctx, { appUrl: "https://app.example.com", ...options });
  await vi.runAllTimersAsync();
  return pending;
}

const polls = (requests: readonly SentRequest[]) => requests.filter((r) => r.path === "/api/v1/auth/cli/poll");

describe("promptCliLogin: the requests", () => {
  it("starts with POST /auth/cli {expires_in_millis}, then polls POST /auth/cli/poll {polling_code}", async () => {
    const { ctx, service } = cli([success()]);
    await login(ctx, { expiresInMillis: 300_000 });
    expect(service.requests.map((r) => [r.method, r.path, JSON.parse(r.body)])).toEqual([
      ["POST", "/api/v1/auth/cli", { expires_in_millis: 300_000 }],
      ["POST", "/api/v1/auth/cli/poll", { polling_code: "poll-7f3k" }],
    ]);
    for (const request of service.requests) {
      expect(request.headers["content-type"]).toBe("application/json");
      expect(request.headers["x-stack-access-type"]).toBe("client");
      expect(request.headers["x-stack-access-token"]).toBeUndefined();
      expect(request.headers["x-stack-refresh-token"]).toBeUndefined();
    }
  });

  it("leaves expires_in_millis out when it is not given (the service's 2-hour default applies)", async () => {
    const { ctx, service } = cli([success()]);
    await login(ctx);
    expect(service.requests[0]!.body).toBe("{}");
  });
});

describe("promptCliLogin: the confirmation link", () => {
  it("is <appUrl><handler>/cli-auth-confirm?login_code=… with the configured handler and appUrl's trailing slash dropped", async () => {
    const { ctx } = cli([success()], { urls: { handler: "/auth" } });
    const links: string[] = [];
    await login(ctx, { appUrl: "https://app.example.com/", promptLink: (url) => void links.push(url) });
    expect(links).toEqual(["https://app.example.com/auth/cli-auth-confirm?login_code=login%20code%2F9"]);
  });

  it("uses /handler by default", async () => {
    const { ctx } = cli([success()]);
    const links: string[] = [];
    await login(ctx, { promptLink: (url) => void links.push(url) });
    expect(links).toEqual(["https://app.example.com/handler/cli-auth-confirm?login_code=login%20code%2F9"]);
  });

  it("is the cliAuthConfirm URL itself when the app set it to an absolute URL", async () => {
    const { ctx } = cli([success()], { urls: { cliAuthConfirm: "https://login.example.com/confirm?from=cli" } });
    const links: string[] = [];
    await login(ctx, { promptLink: (url) => void links.push(url) });
    expect(links).toEqual(["https://login.example.com/confirm?from=cli&login_code=login%20code%2F9"]);
  });

  it("is shown once, after the attempt starts and before the first poll", async () => {
    const { ctx, service } = cli([success()]);
    const seen: string[][] = [];
    await login(ctx, { promptLink: () => void seen.push(service.requests.map((r) => r.path)) });
    expect(seen).toEqual([["/api/v1/auth/cli"]]);
  });

  it("waits for a promptLink that returns a promise before polling", async () => {
    const { ctx, service } = cli([success()]);
    let opened = () => {};
    const pending = promptCliLogin(ctx, {
      appUrl: "https://app.example.com",
      promptLink: () => new Promise<void>((resolve) => (opened = resolve)),
    });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(polls(service.requests)).toHaveLength(0);
    opened();
    await vi.runAllTimersAsync();
    expect(await pending).toEqual({ status: "ok", data: "rt-cli" });
  });
});

describe("promptCliLogin: polling", () => {
  it("keeps polling while waiting: waiting ×3 then success is 4 polls with waits of exactly [2000, 2000, 2000]", async () => {
    const { ctx, service, waits } = cli([waiting, waiting, waiting, success()]);
    const result = await login(ctx);
    expect(result).toEqual({ status: "ok", data: "rt-cli" });
    expect(polls(service.requests)).toHaveLength(4);
    expect(waits).toEqual([2000, 2000, 2000]);
  });

  it("polls at once, then not before waitTimeMillis has passed", async () => {
    const { ctx, service } = cli([waiting, success()]);
    const pending = promptCliLogin(ctx, { appUrl: "https://app.example.com" });
    await vi.advanceTimersByTimeAsync(1999);
    expect(polls(service.requests)).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(polls(service.requests)).toHaveLength(2);
    expect(await pending).toEqual({ status: "ok", data: "rt-cli" });
  });

  it("waits waitTimeMillis between polls when given", async () => {
    const { ctx, waits } = cli([waiting, waiting, success()]);
    await login(ctx, { waitTimeMillis: 500 });
    expect(waits).toEqual([500, 500]);
  });

  it("gives up after exactly maxAttempts polls with 'Timed out waiting for CLI authentication.'", async () => {
    const { ctx, service, waits } = cli([waiting]);
    const result = await login(ctx, { maxAttempts: 3 });
    expect(polls(service.requests)).toHaveLength(3);
    expect(waits).toEqual([2000, 2000]);
    expect(result.status).toBe("error");
    const error = (result as { error: Error }).error;
    expect(error).toBeInstanceOf(KnownErrors.CliAuthError);
    expect(error.message).toBe("Timed out waiting for CLI authentication.");
  });
});

describe("promptCliLogin: the final statuses", () => {
  it("returns the refresh token of a success answered with HTTP 201", async () => {
    const { ctx } = cli([success(201)]);
    expect(await login(ctx)).toEqual({ status: "ok", data: "rt-cli" });
  });

  it("returns the refresh token of a success answered with HTTP 200 (the status field decides)", async () => {
    const { ctx } = cli([success(200)]);
    expect(await login(ctx)).toEqual({ status: "ok", data: "rt-cli" });
  });

  it("returns CliAuthExpiredError 'CLI authentication request expired. Please try again.' for expired", async () => {
    const { ctx, service } = cli([waiting, () => json({ status: "expired" })]);
    const result = await login(ctx);
    const error = (result as { status: "error"; error: Error }).error;
    expect(result.status).toBe("error");
    expect(isKnownError(error, "CLI_AUTH_EXPIRED_ERROR")).toBe(true);
    expect(error).toBeInstanceOf(KnownErrors.CliAuthExpiredError);
    expect(error.message).toBe("CLI authentication request expired. Please try again.");
    expect(polls(service.requests)).toHaveLength(2);
  });

  it("returns CliAuthUsedError 'This authentication token has already been used.' for used", async () => {
    const { ctx } = cli([() => json({ status: "used" })]);
    const result = await login(ctx);
    const error = (result as { status: "error"; error: Error }).error;
    expect(result.status).toBe("error");
    expect(isKnownError(error, "CLI_AUTH_USED_ERROR")).toBe(true);
    expect(error.message).toBe("This authentication token has already been used.");
  });

  it("fails with a ResponseFormatError for a status the API does not list, without polling on", async () => {
    const { ctx, service } = cli([() => json({ status: "denied" })]);
    const outcome = rejectionOf(promptCliLogin(ctx, { appUrl: "https://app.example.com" }));
    await vi.runAllTimersAsync();
    const error = await outcome;
    expect(error).toBeInstanceOf(ResponseFormatError);
    expect(error).toMatchObject({
      operationId: "pollCliLogin",
      status: 200,
      path: "$.status",
      message:
        'pollCliLogin: the service answered HTTP 200 with a body the API does not allow: $.status should be one of "waiting", "expired", "used" or one of "success", not a string',
    });
    expect(polls(service.requests)).toHaveLength(1);
  });

  it("fails with a ResponseFormatError for a poll answer without a status", async () => {
    const { ctx } = cli([() => json({})]);
    const outcome = rejectionOf(promptCliLogin(ctx, { appUrl: "https://app.example.com" }));
    await vi.runAllTimersAsync();
    const error = await outcome;
    expect(error).toBeInstanceOf(ResponseFormatError);
    expect(error).toMatchObject({
      operationId: "pollCliLogin",
      status: 200,
      path: "$.status",
      message: "pollCliLogin: the service answered HTTP 200 with a body the API does not allow: $.status is missing",
    });
  });

  it("returns a CLI_AUTH_* error the service sends instead of a status as the same Result error", async () => {
    const { ctx } = cli([() => knownError(400, "CLI_AUTH_EXPIRED_ERROR", "CLI authentication request expired. Please try again.")]);
    const result = await login(ctx);
    expect(result.status).toBe("error");
    expect((result as { error: Error }).error).toBeInstanceOf(KnownErrors.CliAuthExpiredError);
  });

  it("throws a poll's own error (INVALID_POLLING_CODE), not 'Failed to initiate CLI auth'", async () => {
    const { ctx, service } = cli([() => knownError(400, "INVALID_POLLING_CODE", "The polling code is invalid or does not exist.")]);
    const outcome = rejectionOf(promptCliLogin(ctx, { appUrl: "https://app.example.com" }));
    await vi.runAllTimersAsync();
    const error = (await outcome) as Error;
    expect(error).toBeInstanceOf(KnownErrors.InvalidPollingCodeError);
    expect(error.message).toBe("The polling code is invalid or does not exist.");
    expect(polls(service.requests)).toHaveLength(1);
  });

  it("fails with a ResponseFormatError when success comes without a refresh token", async () => {
    const { ctx } = cli([() => json({ status: "success" }, { status: 201 })]);
    const outcome = rejectionOf(promptCliLogin(ctx, { appUrl: "https://app.example.com" }));
    await vi.runAllTimersAsync();
    const error = await outcome;
    expect(error).toBeInstanceOf(ResponseFormatError);
    expect(error).toMatchObject({
      operationId: "pollCliLogin",
      status: 201,
      path: "$.refresh_token",
      message: "pollCliLogin: the service answered HTTP 201 with a body the API does not allow: $.refresh_token is missing",
    });
  });

  it("fails with a ResponseFormatError, without repeating any code, when the start answer lacks the codes", async () => {
    const { ctx, service } = testAppContext(() => json({ expires_at: STARTED.expires_at }), { tokens: null });
    const error = await rejectionOf(promptCliLogin(ctx, { appUrl: "https://app.example.com" }));
    expect(error).toBeInstanceOf(ResponseFormatError);
    expect(error).toMatchObject({
      operationId: "createCliLogin",
      status: 200,
      path: "$.polling_code",
      message: "createCliLogin: the service answered HTTP 200 with a body the API does not allow: $.polling_code is missing",
    });
    expect(service.requests).toHaveLength(1);
  });
});

describe("promptCliLogin: misuse", () => {
  it.each<[string, Partial<PromptCliLoginOptions>]>([
    ["an appUrl that is not an absolute http(s) URL", { appUrl: "app.example.com" }],
    ["an appUrl with a query", { appUrl: "https://app.example.com/?a=1" }],
    ["maxAttempts below 1", { maxAttempts: 0 }],
    ["a fractional maxAttempts", { maxAttempts: 2.5 }],
    ["a negative waitTimeMillis", { waitTimeMillis: -1 }],
    ["a NaN expiresInMillis", { expiresInMillis: Number.NaN }],
  ])("is refused with a configuration error before any request: %s", async (_, options) => {
    const { ctx, service } = cli([success()]);
    const error = await rejectionOf(promptCliLogin(ctx, { appUrl: "https://app.example.com", ...options }));
    expect(isStackError(error, "StackConfigurationError")).toBe(true);
    expect(service.requests).toHaveLength(0);
  });
});

describe("completeCliLogin (the cli-auth-confirm page)", () => {
  const completed = (request: SentRequest) =>
    request.path === "/api/v1/auth/cli/complete" ? json({ success: true }) : json({ unexpected: request.path }, { status: 500 });

  it("sends POST /auth/cli/complete {login_code, refresh_token} with the signed-in session's refresh token", async () => {
    const { ctx, service } = testAppContext(completed);
    const result = await completeCliLogin(ctx, "login code/9");
    expect(result).toEqual({ status: "ok", data: undefined });
    expect(service.requests).toHaveLength(1);
    const [sent] = service.requests;
    expect([sent!.method, sent!.path, JSON.parse(sent!.body)]).toEqual([
      "POST",
      "/api/v1/auth/cli/complete",
      { login_code: "login code/9", refresh_token: "rt-user" },
    ]);
    expect(sent!.headers["x-stack-access-token"]).toBe(ctx.sessions().current().peek().accessToken);
  });

  it("returns SCHEMA_ERROR as a Result error", async () => {
    const { ctx } = testAppContext(() => knownError(400, "SCHEMA_ERROR", "Request validation failed on POST /api/v1/auth/cli/complete"));
    const result = await completeCliLogin(ctx, "unknown-code");
    expect(result.status).toBe("error");
    expect((result as { error: Error }).error).toBeInstanceOf(KnownErrors.SchemaError);
  });

  it("refuses without a signed-in user, sending nothing", async () => {
    const { ctx, service } = testAppContext(completed, { tokens: { refreshToken: null, accessToken: null } });
    const error = (await rejectionOf(completeCliLogin(ctx, "login code/9"))) as Error;
    expect(isStackError(error, "StackConfigurationError")).toBe(true);
    expect(error.message).toMatch(/signed-in user/);
    expect(service.requests).toHaveLength(0);
  });

  it("refuses an empty login code, sending nothing", async () => {
    const { ctx, service } = testAppContext(completed);
    const error = await rejectionOf(completeCliLogin(ctx, ""));
    expect(isStackError(error, "StackConfigurationError")).toBe(true);
    expect(service.requests).toHaveLength(0);
  });
});
