// Command-line login (wire contract §11, SPEC §4). A command-line tool starts
// a login attempt, shows the user a link to the app's cli-auth-confirm page and
// polls; on that page the signed-in browser hands its session over
// (completeCliLogin), and the tool receives the refresh token.
//
// Which failures are values: the reference's signature is
// Result<string, CliAuthError | CliAuthExpiredError | CliAuthUsedError>, so the
// end states of the attempt (expired, used, an unknown status, attempts used up,
// and the service's own CLI_AUTH_* errors) come back as error Results. Anything
// else (INVALID_POLLING_CODE, network and HTTP failures, a broken answer) is
// thrown as its own typed error, never relabelled (a pitfall of the reference,
// wire contract §14).
import { CliAuthError, CliAuthExpiredError, CliAuthUsedError, type SchemaError } from "../../../generated/known-errors.js";
import { callOf, checkAborted, signalOf, untilAborted, type CallOptions } from "../call-options.js";
import { sleep } from "../../platform/env.js";
import { StackAssertionError, StackConfigurationError } from "../../errors.js";
import type { ClientAppContext } from "../context.js";
import { Result } from "../result.js";
import { resultOf } from "../result-of.js";

/** Wait between two polls unless `waitTimeMillis` says otherwise (wire contract §11). */
export const DEFAULT_CLI_POLL_WAIT_MILLIS = 2000;

export const CLI_AUTH_EXPIRED_MESSAGE = "CLI authentication request expired. Please try again.";
export const CLI_AUTH_USED_MESSAGE = "This authentication token has already been used.";
export const CLI_AUTH_TIMEOUT_MESSAGE = "Timed out waiting for CLI authentication.";

/**
 * How `promptCliLogin` runs a command-line login: the app whose cli-auth-confirm page the user opens,
 * how to show that link, and how long and how often to poll.
 *
 * @example
 * ```ts
 * const options: PromptCliLoginOptions = {
 *   appUrl: "https://app.example.com",
 *   promptLink: (url) => console.log(`Open this link to log in: ${url}`),
 *   waitTimeMillis: 3_000,
 * };
 * const result = await app.promptCliLogin(options);
 * ```
 */
export interface PromptCliLoginOptions extends CallOptions {
  /** The app that serves the handler pages, e.g. `https://app.example.com`; a trailing slash is dropped. */
  readonly appUrl: string;
  /** Lifetime of the attempt; the service's default is 2 hours, its maximum 24 hours. Not sent when absent. */
  readonly expiresInMillis?: number | undefined;
  /** Polls before giving up; default unlimited (the attempt still ends when the service says it expired). */
  readonly maxAttempts?: number | undefined;
  /** Wait between polls; default 2000 ms. */
  readonly waitTimeMillis?: number | undefined;
  /**
   * Shows the user the confirmation link (print it, open a browser). The
   * library itself never prints it: the link carries the single-use login code,
   * which must stay out of logs (wire contract §15), so where it goes is the
   * caller's choice. Without it nothing is shown. Polling starts once it returns
   * (a returned promise is awaited; its failure is the call's failure).
   */
  readonly promptLink?: ((url: string) => void | Promise<void>) | undefined;
}

/** The error Results of promptCliLogin, as the reference names them. */
export type CliLoginError = CliAuthError | CliAuthExpiredError | CliAuthUsedError;

/** Service errors that end an attempt the way the poll statuses do; they are Result errors too. */
const CLI_AUTH_CODES = ["CLI_AUTH_ERROR", "CLI_AUTH_EXPIRED_ERROR", "CLI_AUTH_USED_ERROR"] as const;

/**
 * Logs a command-line tool in through the user's browser and returns the
 * refresh token of the session the browser handed over (use it with the
 * refresh-token grant). Polls immediately, then every `waitTimeMillis` while
 * the status is `waiting`; after the last allowed attempt it does not wait.
 */
export async function promptCliLogin(ctx: ClientAppContext, options: PromptCliLoginOptions): Promise<Result<string, CliLoginError>> {
  const o = checkOptions(options);
  const call = callOf(options);
  const { data: started } = await ctx.client.send("POST /auth/cli", {
    body: o.expiresInMillis === undefined ? {} : { expires_in_millis: o.expiresInMillis },
    ...signalOf(call),
  });
  const { pollingCode, loginCode } = codesOf(started);
  if (o.promptLink) await untilAborted(Promise.resolve(o.promptLink(confirmationLink(ctx, o.appUrl, loginCode))), call);

  for (let attempt = 1; ; attempt++) {
    const polled = await resultOf(async () => {
      const { data } = await ctx.client.send("POST /auth/cli/poll", { body: { polling_code: pollingCode }, ...signalOf(call) });
      return data;
    }, CLI_AUTH_CODES);
    if (polled.status === "error") return Result.error(polled.error);
    // The status field decides, not the HTTP status: success is 201, but some service versions answer 200.
    const answer: Record<string, unknown> = isRecord(polled.data) ? polled.data : {};
    switch (answer.status) {
      case "success":
        return Result.ok(refreshTokenOf(answer));
      case "waiting":
        break;
      case "expired":
        return Result.error(new CliAuthExpiredError(undefined, { message: CLI_AUTH_EXPIRED_MESSAGE }));
      case "used":
        return Result.error(new CliAuthUsedError(undefined, { message: CLI_AUTH_USED_MESSAGE }));
      default:
        return Result.error(
          new CliAuthError(undefined, { message: `Unexpected status from CLI auth polling: ${describe(answer.status)}` }),
        );
    }
    if (attempt >= o.maxAttempts) return Result.error(new CliAuthError(undefined, { message: CLI_AUTH_TIMEOUT_MESSAGE }));
    await sleep(ctx.env, o.waitTimeMillis, call.signal);
  }
}

/**
 * The browser side, for the cli-auth-confirm page: hands the signed-in user's
 * session to the waiting command-line tool (`login_code` comes from the page's
 * URL). The reference has no app method for this (its page calls the
 * interface's `cliLogin`), so the name is ours. An unknown or unusable code is
 * a `SCHEMA_ERROR` Result, as in the reference.
 */
export async function completeCliLogin(
  ctx: ClientAppContext,
  loginCode: string,
  options?: CallOptions,
): Promise<Result<undefined, SchemaError>> {
  if (typeof loginCode !== "string" || loginCode === "") {
    throw new StackConfigurationError(
      "completeCliLogin needs the login code: pass the login_code query parameter of the cli-auth-confirm page.",
    );
  }
  checkAborted(options);
  const tokens = await untilAborted(ctx.sessions().current().getTokens(), options);
  const refreshToken = tokens?.refreshToken ?? null;
  if (refreshToken === null) {
    throw new StackConfigurationError(
      "completeCliLogin needs a signed-in user with a refresh token: " +
        "sign the user in (e.g. redirect to the sign-in page) before confirming a CLI login.",
    );
  }
  const sent = await resultOf(
    () =>
      ctx.client.send("POST /auth/cli/complete", { body: { login_code: loginCode, refresh_token: refreshToken }, ...signalOf(options) }),
    ["SCHEMA_ERROR"],
  );
  return sent.status === "ok" ? Result.ok(undefined) : Result.error(sent.error);
}

/** `<appUrl><handler>/cli-auth-confirm?login_code=…`, from the configured handler (the reference hard-codes /handler). */
function confirmationLink(ctx: ClientAppContext, appUrl: string, loginCode: string): string {
  const page = ctx.urls.cliAuthConfirm;
  // An app may point the page elsewhere with an absolute URL; then appUrl has nothing to add.
  const base = /^[a-z][a-z\d+.-]*:/i.test(page) ? page : `${appUrl}${page.startsWith("/") ? "" : "/"}${page}`;
  return `${base}${base.includes("?") ? "&" : "?"}login_code=${encodeURIComponent(loginCode)}`;
}

interface CheckedOptions {
  readonly appUrl: string;
  readonly expiresInMillis: number | undefined;
  readonly maxAttempts: number;
  readonly waitTimeMillis: number;
  readonly promptLink: ((url: string) => void | Promise<void>) | undefined;
}

function checkOptions(options: PromptCliLoginOptions): CheckedOptions {
  if (!isRecord(options)) throw misuse("promptCliLogin needs an options object: promptCliLogin({ appUrl, promptLink })");
  const { appUrl, expiresInMillis, maxAttempts = Infinity, waitTimeMillis = DEFAULT_CLI_POLL_WAIT_MILLIS, promptLink } = options;
  if (!isHttpUrl(appUrl)) {
    throw misuse(
      "promptCliLogin needs appUrl: the absolute http(s) URL of the app that serves the handler pages, " +
        'without query or fragment (e.g. "https://app.example.com").',
    );
  }
  if (expiresInMillis !== undefined && !(typeof expiresInMillis === "number" && Number.isFinite(expiresInMillis) && expiresInMillis > 0)) {
    throw misuse(
      "promptCliLogin: expiresInMillis must be a positive number of milliseconds (the service allows up to 24 hours), " +
        "or left out for its 2-hour default.",
    );
  }
  if (!(typeof maxAttempts === "number" && maxAttempts >= 1 && (Number.isInteger(maxAttempts) || maxAttempts === Infinity))) {
    throw misuse("promptCliLogin: maxAttempts must be a whole number of polls, at least 1, or Infinity (the default).");
  }
  if (!(typeof waitTimeMillis === "number" && Number.isFinite(waitTimeMillis) && waitTimeMillis >= 0)) {
    throw misuse("promptCliLogin: waitTimeMillis must be a number of milliseconds, 0 or more (default 2000).");
  }
  if (promptLink !== undefined && typeof promptLink !== "function") {
    throw misuse("promptCliLogin: promptLink must be a function that shows the user the link, e.g. (url) => console.log(url).");
  }
  return { appUrl: appUrl.replace(/\/+$/, ""), expiresInMillis, maxAttempts, waitTimeMillis, promptLink };
}

function isHttpUrl(value: unknown): value is string {
  if (typeof value !== "string" || /[?#]/.test(value)) return false;
  try {
    const { protocol } = new URL(value);
    return protocol === "https:" || protocol === "http:";
  } catch {
    return false;
  }
}

/** The codes of a new attempt; they are secrets, so no message repeats them. */
function codesOf(started: unknown): { pollingCode: string; loginCode: string } {
  const pollingCode = isRecord(started) ? started.polling_code : undefined;
  const loginCode = isRecord(started) ? started.login_code : undefined;
  if (typeof pollingCode !== "string" || pollingCode === "" || typeof loginCode !== "string" || loginCode === "") {
    throw new StackAssertionError("POST /auth/cli answered without a polling_code and a login_code");
  }
  return { pollingCode, loginCode };
}

function refreshTokenOf(answer: Record<string, unknown>): string {
  const token = answer.refresh_token;
  if (typeof token !== "string" || token === "") {
    throw new StackAssertionError('POST /auth/cli/poll answered status "success" without a refresh_token');
  }
  return token;
}

function describe(status: unknown): string {
  return typeof status === "string" ? status : (JSON.stringify(status) ?? String(status));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function misuse(message: string): StackConfigurationError {
  return new StackConfigurationError(message);
}
