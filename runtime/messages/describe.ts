// describeError: the one place that turns whatever a stackkit call rejects
// with into words for the app's end user. Errors keep their developer message
// (for logs and the console); this answers a separate, plain one, in English or
// in the words the app passes in.
//
// Known errors are matched by code and then by family (their `codeChain`), so a
// code added to the catalogue later still gets its family's words. The
// runtime's own errors are matched by brand and name (isStackError), not by
// `instanceof`, so errors from a second copy of the package are described too.
import { isKnownError } from "../../generated/known-errors.js";
import { isStackError } from "../errors.js";
import { englishErrorMessages } from "./english.js";
import type {
  DescribeErrorOptions,
  ErrorMessage,
  ErrorMessages,
  GenericErrorCode,
  MessageParams,
  MessageText,
  UserFacingError,
} from "./types.js";

/** Every generic code, in the order of the type (for apps that list what to translate). */
export const GENERIC_ERROR_CODES = [
  "OFFLINE",
  "NETWORK_ERROR",
  "TIMEOUT",
  "RATE_LIMITED",
  "SERVICE_UNAVAILABLE",
  "SERVER_ERROR",
  "REQUEST_FAILED",
  "INVALID_RESPONSE",
  "ABORTED",
  "CONFIGURATION_ERROR",
  "NOT_SIGNED_IN",
  "UNKNOWN_ERROR",
] as const satisfies readonly GenericErrorCode[];

// The sets are marked pure: an app that never calls describeError keeps none of this module in its bundle.

/** Trying the same thing again may work: the failure was in the way, not in what was asked. */
const RETRYABLE_GENERIC: ReadonlySet<GenericErrorCode> = /* @__PURE__ */ new Set([
  "OFFLINE",
  "NETWORK_ERROR",
  "TIMEOUT",
  "RATE_LIMITED",
  "SERVICE_UNAVAILABLE",
  "SERVER_ERROR",
  "ABORTED",
]);

/**
 * Known errors the same action can get past: a passkey dialog the person closed,
 * a provider page where they said no, a provider that did not answer. Every other known error needs a change first.
 */
const RETRYABLE_KNOWN: ReadonlySet<string> = /* @__PURE__ */ new Set([
  "PASSKEY_WEBAUTHN_ERROR",
  "PASSKEY_AUTHENTICATION_FAILED",
  "PASSKEY_REGISTRATION_FAILED",
  "OAUTH_PROVIDER_ACCESS_DENIED",
  "OAUTH_PROVIDER_TEMPORARILY_UNAVAILABLE",
]);

/** What an error is, before any words: the keys to look words up by, in order, and the numbers they may show. */
interface Classified {
  readonly code: string;
  /** The code, then its family's codes. */
  readonly chain: readonly string[];
  /** The generic code whose words stand in when no entry of the chain has any. */
  readonly fallback: GenericErrorCode;
  readonly params: MessageParams;
  readonly retryable: boolean;
}

function generic(code: GenericErrorCode, params: MessageParams = {}): Classified {
  return { code, chain: [code], fallback: code, params, retryable: RETRYABLE_GENERIC.has(code) };
}

/** A positive finite number, rounded up; undefined for anything else. */
function wholeNumber(value: unknown, divisor = 1): number | undefined {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? Math.ceil(value / divisor) : undefined;
}

function knownParams(details: unknown): MessageParams {
  if (typeof details !== "object" || details === null) return {};
  const d = details as Record<string, unknown>;
  // The catalogue spells them differently: PASSWORD_TOO_SHORT min_length, PASSWORD_TOO_LONG maxLength.
  const minLength = wholeNumber(d["min_length"] ?? d["minLength"]);
  const maxLength = wholeNumber(d["max_length"] ?? d["maxLength"]);
  return { ...(minLength !== undefined && { minLength }), ...(maxLength !== undefined && { maxLength }) };
}

function byHttpStatus(status: unknown): GenericErrorCode {
  if (status === 408) return "TIMEOUT";
  if (status === 429) return "RATE_LIMITED";
  if (status === 502 || status === 503 || status === 504 || status === 508) return "SERVICE_UNAVAILABLE";
  return typeof status === "number" && status >= 500 ? "SERVER_ERROR" : "REQUEST_FAILED";
}

function defaultIsOffline(): boolean {
  return typeof navigator === "object" && navigator !== null && (navigator as { onLine?: unknown }).onLine === false;
}

function classify(error: unknown, isOffline: () => boolean): Classified {
  if (isKnownError(error)) {
    const chain = error.codeChain.filter((code): code is string => typeof code === "string");
    return {
      code: error.code,
      chain: chain.includes(error.code) ? chain : [error.code, ...chain],
      fallback: typeof error.status === "number" && error.status >= 500 ? "SERVER_ERROR" : "REQUEST_FAILED",
      params: knownParams(error.details),
      retryable: RETRYABLE_KNOWN.has(error.code),
    };
  }
  if (isStackError(error)) {
    switch (error.name) {
      case "NetworkError":
        return generic(isOffline() ? "OFFLINE" : "NETWORK_ERROR");
      case "RequestTimeoutError":
        return generic(isOffline() ? "OFFLINE" : "TIMEOUT");
      case "RateLimitError": {
        const seconds = wholeNumber((error as { retryAfterMs?: unknown }).retryAfterMs, 1000);
        return generic("RATE_LIMITED", seconds === undefined ? {} : { seconds });
      }
      case "HttpError":
        return generic(byHttpStatus((error as { status?: unknown }).status));
      case "UnexpectedRedirectError":
      case "ResponseFormatError":
      case "StackAssertionError":
        return generic("INVALID_RESPONSE");
      case "StackConfigurationError":
      case "ServiceVersionError":
        return generic("CONFIGURATION_ERROR");
      case "UserNotSignedInError":
        return generic("NOT_SIGNED_IN");
    }
  }
  // A cancelled call rejects with its signal's reason: by default a DOMException named
  // AbortError, or TimeoutError for AbortSignal.timeout().
  const name = typeof error === "object" && error !== null ? (error as { name?: unknown }).name : undefined;
  if (name === "AbortError") return generic("ABORTED");
  if (name === "TimeoutError") return generic(isOffline() ? "OFFLINE" : "TIMEOUT");
  return generic("UNKNOWN_ERROR");
}

const PLACEHOLDER = /\{(seconds|minLength|maxLength)\}/g;

/** The text, or undefined when it cannot be shown (missing, empty, a number it names is absent, a function that throws). */
function render(text: MessageText | undefined, params: MessageParams): string | undefined {
  let shown: unknown;
  if (typeof text === "function") {
    try {
      shown = text(params);
    } catch {
      return undefined;
    }
  } else if (typeof text === "string") {
    let complete = true;
    shown = text.replace(PLACEHOLDER, (_, name: keyof MessageParams) => {
      const value = params[name];
      if (value === undefined) complete = false;
      return String(value);
    });
    if (!complete) return undefined;
  }
  return typeof shown === "string" && shown.trim() !== "" ? shown : undefined;
}

function entryOf(map: ErrorMessages | undefined, code: string): ErrorMessage | undefined {
  if (typeof map !== "object" || map === null || !Object.prototype.hasOwnProperty.call(map, code)) return undefined;
  const entry = (map as Record<string, unknown>)[code];
  return typeof entry === "object" && entry !== null ? (entry as ErrorMessage) : undefined;
}

/**
 * The first text that can be shown, in this order: the app's words, then the
 * English ones, for the code and its family; then the same for the generic
 * fallback; then the English words of UNKNOWN_ERROR.
 */
function pick(field: keyof ErrorMessage, c: Classified, app: ErrorMessages | undefined): string {
  const rounds: readonly (readonly string[])[] = [c.chain, [c.fallback], ["UNKNOWN_ERROR"]];
  for (const keys of rounds) {
    for (const map of [app, englishErrorMessages as ErrorMessages]) {
      for (const key of keys) {
        const text = render(entryOf(map, key)?.[field], c.params);
        if (text !== undefined) return text;
      }
    }
  }
  return englishErrorMessages.UNKNOWN_ERROR[field];
}

/**
 * Describes any error a stackkit call throws (or returns in a Result) for the
 * person using the app: a stable `code` to branch on, a short `title`, a plain
 * `message` and whether trying again may help. It never shows the error's own
 * message, which is written for developers and may name URLs and headers: log
 * the error itself for that.
 *
 * @example
 * ```ts
 * const result = await app.signInWithCredential({ email, password });
 * if (result.status === "error") {
 *   console.warn(result.error); // the developer detail
 *   show(describeError(result.error)); // { code: "EMAIL_PASSWORD_MISMATCH", title: "Wrong e-mail or password", … }
 * }
 * // In another language: describeError(error, { messages: { EMAIL_PASSWORD_MISMATCH: { title: "…", message: "…" } } })
 * ```
 */
export function describeError(error: unknown, options: DescribeErrorOptions = {}): UserFacingError {
  const c = classify(error, options.isOffline ?? defaultIsOffline);
  return Object.freeze({
    code: c.code,
    title: pick("title", c, options.messages),
    message: pick("message", c, options.messages),
    retryable: c.retryable,
  });
}
