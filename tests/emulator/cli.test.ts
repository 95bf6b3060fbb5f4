// Command-line login through the SDK against the emulator (wire contract §11):
// a tool's promptCliLogin polls while a signed-in browser app completes the
// attempt with the login code, and the tool receives the browser's refresh
// token; the attempt expires on the emulator's clock; a read success is `used`;
// the service's errors for unknown codes.
import { describe, expect, it } from "vitest";
import { DEMO_KEYS, INTERNAL_KEYS } from "../../emulator/index.js";
import { HttpError, isKnownError, StackClientApp } from "../../runtime/index.js";
import { useEmulator } from "../helpers/emulator.js";

const emulator = useEmulator();

const APP_URL = "https://app.example.com";
const HOUR = 3600_000;

const base = () => ({
  projectId: DEMO_KEYS.projectId,
  publishableClientKey: DEMO_KEYS.publishableClientKey,
  baseUrl: emulator().apiOrigin,
  browser: null,
  noAutomaticPrefetch: true,
});

/** The tool's wait between polls (the SDK's default). */
const POLL_WAIT = 2000;

/**
 * A command-line tool: an app without a user whose waits between polls move
 * the emulator's clock instead of taking time (its other timers, such as the
 * request timeout, are real). `onWait` runs at each wait (1, 2, …) before the
 * poll that follows it.
 */
function cliTool(onWait: (wait: number) => void | Promise<void> = () => {}) {
  const e = emulator();
  let waits = 0;
  return new StackClientApp({
    ...base(),
    tokenStore: "memory",
    environment: {
      fetch: e.fetch,
      now: () => e.control.now(),
      setTimeout: (callback, ms) => {
        if (ms !== POLL_WAIT) return setTimeout(callback, ms);
        e.control.advanceClock(ms);
        void Promise.resolve(onWait(++waits)).then(callback);
        return undefined;
      },
      clearTimeout: (id) => {
        if (id !== undefined) clearTimeout(id as ReturnType<typeof setTimeout>);
      },
    },
  });
}

/** A browser app signed in as a new user of the demo project. */
async function signedInBrowser(email: string) {
  const { control } = emulator();
  const record = await control.createUser({ projectId: DEMO_KEYS.projectId, email, password: "correct horse battery" });
  const tokens = await control.createSession(record.id);
  const app = new StackClientApp({ ...base(), environment: { fetch: emulator().fetch, now: () => control.now() }, tokenStore: tokens });
  return { app, record, tokens };
}

/** A signed-in browser's refresh token: 2.8.86 hands over only a live session of the project. */
async function browserSession(email = "ada@example.com"): Promise<string> {
  const user = await emulator().control.createUser({ projectId: DEMO_KEYS.projectId, email });
  return (await emulator().control.createSession(user.id)).refreshToken;
}

/** A raw call of the CLI routes, as a client of `projectId`: the HTTP status (the override protocol undone) and the body. */
async function call(path: string, body: unknown, keys: { projectId: string; publishableClientKey: string } = DEMO_KEYS) {
  const response = await emulator().fetch(
    new Request(`${emulator().apiOrigin}/api/v1${path}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-stack-project-id": keys.projectId,
        "x-stack-access-type": "client",
        "x-stack-publishable-client-key": keys.publishableClientKey,
      },
      body: JSON.stringify(body),
    }),
  );
  const text = await response.text();
  return {
    status: response.status,
    knownError: response.headers.get("x-stack-known-error"),
    text,
    body: text.startsWith("{") ? JSON.parse(text) : text,
  };
}

const pollStatuses = () =>
  emulator()
    .control.requests({ operationId: "pollCliLogin" })
    .map((r) => r.status);

describe("promptCliLogin with a browser that completes it", () => {
  it("polls while waiting, then receives the browser session's refresh token, which signs the tool in as that user", async () => {
    const browser = await signedInBrowser("ada@example.com");
    let link = "";
    let completed: unknown;
    const tool = cliTool(async (wait) => {
      // The user confirms in the browser after the tool has polled twice.
      if (wait === 2) completed = await browser.app.completeCliLogin(new URL(link).searchParams.get("login_code") ?? "");
    });

    const result = await tool.promptCliLogin({ appUrl: APP_URL, promptLink: (url) => void (link = url) });

    expect(new URL(link).origin + new URL(link).pathname).toBe(`${APP_URL}/handler/cli-auth-confirm`);
    expect(completed).toEqual({ status: "ok", data: undefined });
    expect(result).toEqual({ status: "ok", data: browser.tokens.refreshToken });
    // Waiting twice (200), then the hand-over (201).
    expect(pollStatuses()).toEqual([200, 200, 201]);

    const signedIn = new StackClientApp({
      ...base(),
      environment: { fetch: emulator().fetch },
      tokenStore: { accessToken: null, refreshToken: result.status === "ok" ? result.data : null },
    });
    expect((await signedIn.getUser({ or: "throw" })).id).toBe(browser.record.id);
  });

  it("ends with CliAuthExpiredError once expiresInMillis has passed on the emulator's clock", async () => {
    const started = emulator().control.now();
    const result = await cliTool().promptCliLogin({ appUrl: APP_URL, expiresInMillis: 9_000 });
    expect(result.status === "error" && isKnownError(result.error, "CLI_AUTH_EXPIRED_ERROR")).toBe(true);
    // Polls at 0, 2, 4, 6 and 8 s are waiting; the one at 10 s is expired (each answered 200).
    expect(pollStatuses()).toEqual([200, 200, 200, 200, 200, 200]);
    expect(emulator().control.now() - started).toBeGreaterThanOrEqual(10_000);
    expect(emulator().control.now() - started).toBeLessThan(11_000);
  });

  it("gives up after maxAttempts polls with the attempt still waiting", async () => {
    const result = await cliTool().promptCliLogin({ appUrl: APP_URL, maxAttempts: 3 });
    expect(result.status === "error" && isKnownError(result.error, "CLI_AUTH_ERROR")).toBe(true);
    expect(pollStatuses()).toEqual([200, 200, 200]);
  });

  it("refuses a browser completion after the attempt expired, with the service's plain-text 400", async () => {
    const browser = await signedInBrowser("grace@example.com");
    const { body: started } = await call("/auth/cli", { expires_in_millis: 60_000 });
    emulator().control.advanceClock(60_001);
    const error = await browser.app.completeCliLogin(started.login_code).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ status: 400, body: "Invalid login code or the code has expired" });
  });
});

describe("the CLI routes", () => {
  it("start an attempt that expires after 2 hours by default, at most 24 hours", async () => {
    const before = emulator().control.now();
    const { status, body } = await call("/auth/cli", {});
    const after = emulator().control.now();
    expect(status).toBe(200);
    expect(body.polling_code).toMatch(/^[a-z0-9]{45}$/);
    expect(body.login_code).toMatch(/^[a-z0-9]{45}$/);
    expect(body.login_code).not.toBe(body.polling_code);
    const expiresAt = Date.parse(body.expires_at);
    expect(expiresAt >= before + 2 * HOUR && expiresAt <= after + 2 * HOUR).toBe(true);
    const short = Date.parse((await call("/auth/cli", { expires_in_millis: 30_000 })).body.expires_at);
    expect(short - emulator().control.now()).toBeGreaterThan(29_000);
    expect(short - emulator().control.now()).toBeLessThanOrEqual(30_000);

    const tooLong = await call("/auth/cli", { expires_in_millis: 24 * HOUR + 1 });
    expect(tooLong.knownError).toBe("SCHEMA_ERROR");
  });

  it("answer waiting, success once with 201, then used; expired wins over used", async () => {
    const browser = await browserSession();
    const { body: attempt } = await call("/auth/cli", { expires_in_millis: HOUR });
    expect(await call("/auth/cli/poll", { polling_code: attempt.polling_code })).toMatchObject({
      status: 200,
      body: { status: "waiting" },
    });
    expect(await call("/auth/cli/complete", { login_code: attempt.login_code, refresh_token: browser })).toMatchObject({
      status: 200,
      body: { success: true },
    });
    expect(await call("/auth/cli/poll", { polling_code: attempt.polling_code })).toMatchObject({
      status: 201,
      body: { status: "success", refresh_token: browser },
    });
    expect(await call("/auth/cli/poll", { polling_code: attempt.polling_code })).toMatchObject({ status: 200, body: { status: "used" } });
    emulator().control.advanceClock(HOUR + 1);
    expect(await call("/auth/cli/poll", { polling_code: attempt.polling_code })).toMatchObject({
      status: 200,
      body: { status: "expired" },
    });
  });

  it("answer INVALID_POLLING_CODE for an unknown polling code, or one of another project", async () => {
    expect((await call("/auth/cli/poll", { polling_code: "nope" })).knownError).toBe("INVALID_POLLING_CODE");
    const { body: internal } = await call("/auth/cli", {}, INTERNAL_KEYS);
    expect((await call("/auth/cli/poll", { polling_code: internal.polling_code })).knownError).toBe("INVALID_POLLING_CODE");
    expect((await call("/auth/cli/poll", { polling_code: internal.polling_code }, INTERNAL_KEYS)).body).toEqual({ status: "waiting" });
  });

  it("refuse an unknown or already completed login code, and one of another project, with plain-text 400s", async () => {
    const [first, second] = [await browserSession("a@example.com"), await browserSession("b@example.com")];
    const unknown = await call("/auth/cli/complete", { login_code: "nope", refresh_token: first });
    expect(unknown).toMatchObject({ status: 400, knownError: null, text: "Invalid login code or the code has expired" });

    const { body: attempt } = await call("/auth/cli", {});
    await call("/auth/cli/complete", { login_code: attempt.login_code, refresh_token: first });
    expect(await call("/auth/cli/complete", { login_code: attempt.login_code, refresh_token: second })).toMatchObject({
      status: 400,
      text: "Invalid login code or the code has expired",
    });
    // The first hand-over stands.
    expect((await call("/auth/cli/poll", { polling_code: attempt.polling_code })).body).toEqual({
      status: "success",
      refresh_token: first,
    });

    // 2.8.86 looks the code up in the request's project only (2.8.11's "Project ID mismatch": tests/conformance/cli-login).
    const { body: internal } = await call("/auth/cli", {}, INTERNAL_KEYS);
    expect(await call("/auth/cli/complete", { login_code: internal.login_code, refresh_token: first })).toMatchObject({
      status: 400,
      text: "Invalid login code or the code has expired",
    });
  });
});
