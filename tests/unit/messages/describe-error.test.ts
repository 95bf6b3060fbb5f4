// describeError: every error a stackkit call throws, in words for end users.
// Exact strings for a representative set of codes, the order in which a code
// borrows words (its family, then its HTTP status), the app's replacement map
// with English for what it leaves out, and that nothing a developer wrote (the
// error's message, URLs, details) reaches the words.
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  describeError,
  englishErrorMessages,
  GENERIC_ERROR_CODES,
  HttpError,
  isKnownErrorCode,
  knownErrorClasses,
  KnownErrors,
  NetworkError,
  RateLimitError,
  RequestTimeoutError,
  ResponseFormatError,
  StackAssertionError,
  StackConfigurationError,
  ServiceVersionError,
  UnexpectedRedirectError,
  UserNotSignedInError,
  type ErrorMessages,
} from "../../../runtime/index.js";
import { knownErrorMessage } from "../../../generated/known-error-messages.js";

const online = { isOffline: () => false };
const words = (error: unknown, options = {}) => {
  const { code, title, message, retryable } = describeError(error, { ...online, ...options });
  return { code, title, message, retryable };
};

afterEach(() => vi.unstubAllGlobals());

describe("known errors of the service", () => {
  it("EMAIL_PASSWORD_MISMATCH: a wrong password, to be fixed before trying again", () => {
    expect(words(new KnownErrors.EmailPasswordMismatch())).toEqual({
      code: "EMAIL_PASSWORD_MISMATCH",
      title: "Wrong e-mail or password",
      message: "Check your e-mail address and password, then try again.",
      retryable: false,
    });
  });

  it("USER_EMAIL_ALREADY_EXISTS: without the address the details carry", () => {
    const described = words(new KnownErrors.UserWithEmailAlreadyExists({ email: "ada@example.com" }));
    expect(described).toEqual({
      code: "USER_EMAIL_ALREADY_EXISTS",
      title: "E-mail already in use",
      message: "An account with this e-mail address already exists. Sign in instead, or use another address.",
      retryable: false,
    });
  });

  it("PASSWORD_TOO_SHORT: the minimum length when the service gives it, plain words when not", () => {
    expect(words(new KnownErrors.PasswordTooShort({ min_length: 8 }))).toMatchObject({
      code: "PASSWORD_TOO_SHORT",
      title: "Password too short",
      message: "Use at least 8 characters.",
    });
    expect(words(new KnownErrors.PasswordTooShort()).message).toBe("Please choose a longer password.");
    expect(words(new KnownErrors.PasswordTooLong({ maxLength: 1 })).message).toBe("Use at most 1 character.");
  });

  it("PASSWORD_CONFIRMATION_MISMATCH (updatePassword's wrong old password) and the verification family", () => {
    expect(words(new KnownErrors.PasswordConfirmationMismatch())).toMatchObject({
      title: "Wrong current password",
      message: "The current password you entered isn't right.",
    });
    expect(words(new KnownErrors.VerificationCodeExpired())).toEqual({
      code: "VERIFICATION_CODE_EXPIRED",
      title: "Link expired",
      message: "This link or code has expired. Please request a new one.",
      retryable: false,
    });
  });

  it("INVALID_TOTP_CODE and MULTI_FACTOR_AUTHENTICATION_REQUIRED", () => {
    expect(words(new KnownErrors.InvalidTotpCode())).toMatchObject({
      title: "Wrong code",
      message: "That code didn't work. Enter the current code from your authenticator app.",
    });
    expect(words(new KnownErrors.MultiFactorAuthenticationRequired({ attempt_code: "secret-attempt" })).message).toBe(
      "Enter the six-digit code from your authenticator app.",
    );
  });

  it("a passkey dialog the person closed may be tried again as it is", () => {
    expect(words(new KnownErrors.PasskeyWebAuthnError({ code: "NotAllowedError", message: "The operation either timed out" }))).toEqual({
      code: "PASSKEY_WEBAUTHN_ERROR",
      title: "Passkey request not completed",
      message: "Your device didn't complete the passkey request. Try again, or use another method.",
      retryable: true,
    });
  });

  it("a code without words of its own takes its family's, and keeps its own code", () => {
    expect(words(new KnownErrors.AccessTokenExpired({ expired_at_millis: 1 }))).toEqual({
      code: "ACCESS_TOKEN_EXPIRED",
      title: "You've been signed out",
      message: "Your session has ended. Please sign in again.",
      retryable: false,
    });
    // A setup mistake of the app: the person is told so, without the header names and keys of the developer message.
    const details = { project_id: "p-123" };
    const key = new KnownErrors.InvalidPublishableClientKey(details, {
      message: knownErrorMessage("INVALID_PUBLISHABLE_CLIENT_KEY", details),
    });
    expect(key.message).toContain("publishable key");
    expect(words(key)).toEqual({
      code: "INVALID_PUBLISHABLE_CLIENT_KEY",
      title: "This app isn't set up correctly",
      message: "Please try again later. If this keeps happening, contact the app's support.",
      retryable: false,
    });
  });

  it.each([
    [
      "ANONYMOUS_AUTHENTICATION_NOT_ALLOWED",
      "Please sign in",
      "You need an account to do this. Sign in or create one, then try again.",
      false,
    ],
    [
      "RESTRICTED_USER_NOT_ALLOWED",
      "Finish setting up your account",
      "Your account can't do this yet. Finish setting it up (for example, verify your e-mail address), then try again.",
      false,
    ],
    [
      "TEAM_INVITATION_RESTRICTED_USER_NOT_ALLOWED",
      "Finish setting up your account",
      "Finish setting up your account (for example, verify your e-mail address) before you accept a team invitation.",
      false,
    ],
    [
      "SIGN_UP_REJECTED",
      "Sign-up not possible",
      "An account can't be created with these details. Contact the app's support if you think this is a mistake.",
      false,
    ],
    ["BOT_CHALLENGE_REQUIRED", "One more check", "Please complete the verification check, then try again.", false],
    ["BOT_CHALLENGE_FAILED", "Check not passed", "We couldn't confirm that you're a person. Please try again.", false],
    [
      "OAUTH_PROVIDER_TEMPORARILY_UNAVAILABLE",
      "Provider not answering",
      "The sign-in provider isn't responding right now. Please try again in a few minutes.",
      true,
    ],
    [
      "CURRENT_PROJECT_NOT_FOUND",
      "This app isn't set up correctly",
      "Please try again later. If this keeps happening, contact the app's support.",
      false,
    ],
  ] as const)("%s (service 2.8.86) has words of its own", (code, title, message, retryable) => {
    const Class = knownErrorClasses[code];
    expect(words(new Class(undefined, { message: "The developer's text." }))).toEqual({ code, title, message, retryable });
  });

  it("a code whose family has no words either takes those of its HTTP status", () => {
    expect(words(new KnownErrors.TeamAlreadyExists({ team_id: "t" }))).toMatchObject({
      code: "TEAM_ALREADY_EXISTS",
      title: "Something went wrong",
      message: "We couldn't complete that. Please try again.",
      retryable: false,
    });
    expect(words(new KnownErrors.TeamAlreadyExists({ team_id: "t" }, { status: 500 }))).toMatchObject({
      title: "Something went wrong on our side",
    });
  });

  it("a known error of another copy of the package, with a code this one does not know, takes its family's words", () => {
    const foreign = Object.assign(new Error("developer text"), {
      [Symbol.for("stackkit.KnownError")]: true,
      code: "VERIFICATION_CODE_SENT_TO_THE_MOON",
      status: 400,
      details: undefined,
      codeChain: ["VERIFICATION_CODE_SENT_TO_THE_MOON", "VERIFICATION_ERROR"],
    });
    expect(words(foreign)).toEqual({
      code: "VERIFICATION_CODE_SENT_TO_THE_MOON",
      title: "Link not valid",
      message: "This link or code can't be used any more. Please request a new one.",
      retryable: false,
    });
  });

  it.each(Object.keys(knownErrorClasses))("%s has words that name no developer detail", (code) => {
    const Class = knownErrorClasses[code as keyof typeof knownErrorClasses];
    const error = new Class(undefined as never, { message: "GET http://127.0.0.1:4010/api/v1/users/me x-stack-access-token: abc" });
    const { title, message } = describeError(error, online);
    for (const text of [title, message]) {
      expect(text.trim()).not.toBe("");
      expect(text).not.toMatch(/https?:|x-stack|api\/v1|\{|undefined|[A-Z]{2,}_[A-Z]/);
    }
    expect(message).not.toBe(error.message);
  });
});

describe("what happens around the service", () => {
  it("a network failure while online: NETWORK_ERROR, retryable, without the URL of the developer message", () => {
    const error = new NetworkError(
      "Could not reach the Stack Auth API for POST http://127.0.0.1:4010/api/v1/auth/password/sign-in (1 attempt). Check …",
    );
    expect(words(error)).toEqual({
      code: "NETWORK_ERROR",
      title: "Can't connect",
      message: "We couldn't reach the sign-in service. Check your internet connection and try again.",
      retryable: true,
    });
    expect(error.message).toContain("http://127.0.0.1:4010");
  });

  it("a network failure while offline: OFFLINE, from the injected check or from navigator.onLine", () => {
    const offline = {
      code: "OFFLINE",
      title: "You're offline",
      message: "Check your internet connection, then try again.",
      retryable: true,
    };
    expect(words(new NetworkError("You seem to be offline"), { isOffline: () => true })).toEqual(offline);
    vi.stubGlobal("navigator", { onLine: false });
    expect(describeError(new NetworkError("x"))).toEqual(offline);
    vi.stubGlobal("navigator", { onLine: true });
    expect(describeError(new NetworkError("x")).code).toBe("NETWORK_ERROR");
  });

  it("a timed-out attempt: TIMEOUT", () => {
    expect(words(new RequestTimeoutError("GET … timed out", 30_000))).toEqual({
      code: "TIMEOUT",
      title: "This is taking too long",
      message: "The sign-in service didn't answer in time. Please try again.",
      retryable: true,
    });
  });

  it("a rate limit says how long to wait, in whole seconds rounded up, when the service said", () => {
    const limited = (ms?: number) => words(new RateLimitError(429, "", "The Stack Auth API rate-limited …", ms));
    expect(limited(30_000)).toEqual({
      code: "RATE_LIMITED",
      title: "Too many attempts",
      message: "Please wait 30 seconds, then try again.",
      retryable: true,
    });
    expect(limited(1_000).message).toBe("Please wait 1 second, then try again.");
    expect(limited(1_500).message).toBe("Please wait 2 seconds, then try again.");
    expect(limited(undefined).message).toBe("Please wait a moment, then try again.");
  });

  it("HTTP failures without a known code, by status", () => {
    expect(words(new HttpError(503, "", "Failed to send request to GET …: 503"))).toEqual({
      code: "SERVICE_UNAVAILABLE",
      title: "Service unavailable",
      message: "The sign-in service is unavailable right now. Please try again in a few minutes.",
      retryable: true,
    });
    expect(words(new HttpError(500, "", "…"))).toMatchObject({ code: "SERVER_ERROR", retryable: true });
    expect(words(new HttpError(404, "", "…"))).toMatchObject({ code: "REQUEST_FAILED", retryable: false });
  });

  it("answers that cannot be read, the app's own mistakes, and nobody signed in", () => {
    const unreadable = {
      code: "INVALID_RESPONSE",
      title: "Something went wrong",
      message: "The sign-in service sent an answer we couldn't read. Please try again later.",
      retryable: false,
    };
    expect(words(new ResponseFormatError("getCurrentUser", 200, "…", "$.id"))).toEqual(unreadable);
    expect(words(new UnexpectedRedirectError(302, "", "…"))).toEqual(unreadable);
    expect(words(new StackAssertionError("…"))).toEqual(unreadable);
    expect(words(new StackConfigurationError("<StackProvider> needs the client app"))).toMatchObject({
      code: "CONFIGURATION_ERROR",
      title: "This app isn't set up correctly",
    });
    expect(words(new ServiceVersionError("StackAdminApp.listEmailTemplates", "2.8.86", "…", "…"))).toMatchObject({
      code: "CONFIGURATION_ERROR",
      retryable: false,
    });
    expect(words(new UserNotSignedInError("User is not signed in but getUser was called with { or: 'throw' }"))).toEqual({
      code: "NOT_SIGNED_IN",
      title: "Please sign in",
      message: "You need to be signed in to do this.",
      retryable: false,
    });
  });

  it("a cancelled call: ABORTED; an AbortSignal.timeout(): TIMEOUT", () => {
    expect(words(new DOMException("This operation was aborted", "AbortError"))).toEqual({
      code: "ABORTED",
      title: "Cancelled",
      message: "The request was cancelled.",
      retryable: true,
    });
    expect(words(new DOMException("signal timed out", "TimeoutError")).code).toBe("TIMEOUT");
  });

  it("anything else: UNKNOWN_ERROR, never its own message", () => {
    for (const thrown of [new Error("Cannot read properties of undefined (reading 'id')"), "a string", null, undefined, 42]) {
      expect(words(thrown)).toEqual({
        code: "UNKNOWN_ERROR",
        title: "Something went wrong",
        message: "Please try again. If this keeps happening, contact the app's support.",
        retryable: false,
      });
    }
  });

  it("a runtime error of another copy of the package is recognised by its brand", () => {
    const foreign = Object.assign(new Error("…"), { name: "NetworkError", [Symbol.for("stackkit.StackError")]: true });
    expect(words(foreign).code).toBe("NETWORK_ERROR");
  });

  it("the generic codes are not catalogue codes, and each has English words", () => {
    for (const code of GENERIC_ERROR_CODES) {
      expect(isKnownErrorCode(code)).toBe(false);
      expect(englishErrorMessages).toHaveProperty(code);
    }
  });

  it("answers a frozen object", () => {
    expect(Object.isFrozen(describeError(new Error("x")))).toBe(true);
  });
});

describe("the app's words (options.messages)", () => {
  const german: ErrorMessages = {
    EMAIL_PASSWORD_MISMATCH: { title: "Falsche E-Mail oder falsches Passwort", message: "Bitte prüfen Sie E-Mail und Passwort." },
    NETWORK_ERROR: { title: "Keine Verbindung" },
    VERIFICATION_ERROR: { title: "Link ungültig", message: "Bitte fordern Sie einen neuen Link an." },
    RATE_LIMITED: { message: "Bitte warten Sie {seconds} Sekunden." },
    REQUEST_FAILED: { title: "Fehler", message: "Das hat nicht geklappt." },
  };

  it("replace the English words of a code", () => {
    expect(words(new KnownErrors.EmailPasswordMismatch(), { messages: german })).toEqual({
      code: "EMAIL_PASSWORD_MISMATCH",
      title: "Falsche E-Mail oder falsches Passwort",
      message: "Bitte prüfen Sie E-Mail und Passwort.",
      retryable: false,
    });
  });

  it("fall back to English for a missing code, and for the missing half of an entry", () => {
    expect(words(new KnownErrors.UserWithEmailAlreadyExists(), { messages: german })).toMatchObject({
      title: "E-mail already in use",
    });
    expect(words(new NetworkError("…"), { messages: german })).toMatchObject({
      title: "Keine Verbindung",
      message: "We couldn't reach the sign-in service. Check your internet connection and try again.",
    });
  });

  it("of a family come before the English words of its members", () => {
    expect(words(new KnownErrors.VerificationCodeExpired(), { messages: german })).toMatchObject({
      code: "VERIFICATION_CODE_EXPIRED",
      title: "Link ungültig",
      message: "Bitte fordern Sie einen neuen Link an.",
    });
  });

  it("of a status fallback come after every English word of the code's family", () => {
    expect(words(new KnownErrors.TeamAlreadyExists(), { messages: german })).toMatchObject({ title: "Fehler" });
    expect(words(new KnownErrors.ApiKeyExpired(), { messages: german })).toMatchObject({ title: "Key expired" });
  });

  it("fill in the numbers they name; a number the error lacks skips to English", () => {
    const limited = (ms?: number) => new RateLimitError(429, "", "…", ms);
    expect(words(limited(5_000), { messages: german }).message).toBe("Bitte warten Sie 5 Sekunden.");
    expect(words(limited(undefined), { messages: german }).message).toBe("Please wait a moment, then try again.");
  });

  it("may be functions of the numbers; empty or failing ones are skipped", () => {
    const messages: ErrorMessages = {
      RATE_LIMITED: { title: () => "", message: ({ seconds }) => (seconds === undefined ? "Gleich nochmal." : `In ${seconds} s nochmal.`) },
      TIMEOUT: {
        title: () => {
          throw new Error("broken translation");
        },
      },
    };
    expect(words(new RateLimitError(429, "", "…", 2_000), { messages })).toMatchObject({
      title: "Too many attempts",
      message: "In 2 s nochmal.",
    });
    expect(words(new RequestTimeoutError("…", 1), { messages }).title).toBe("This is taking too long");
  });
});

describe("errors the runtime raises in a real call", () => {
  it("a sign-in whose connection fails: the error keeps the developer message, the words name no URL", async () => {
    const { StackClientApp } = await import("../../../runtime/index.js");
    const app = new StackClientApp({
      projectId: "p",
      publishableClientKey: "k",
      baseUrl: "http://127.0.0.1:4010",
      tokenStore: "memory",
      browser: null,
      noAutomaticPrefetch: true,
      environment: {
        fetch: async () => {
          throw new TypeError("fetch failed");
        },
        isOffline: () => false,
      },
    });
    const error = await app.signInWithCredential({ email: "ada@example.com", password: "secret password" }).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(
      /^Could not reach the Stack Auth API for POST http:\/\/127\.0\.0\.1:4010\/api\/v1\/auth\/password\/sign-in/,
    );
    const described = describeError(error, online);
    expect(described.code).toBe("NETWORK_ERROR");
    expect(JSON.stringify(described)).not.toMatch(/127\.0\.0\.1|api\/v1|ada@example\.com|secret password/);
  });

  it("a rate limit longer than the app waits: the wait the service asked for", async () => {
    const { StackClientApp } = await import("../../../runtime/index.js");
    const app = new StackClientApp({
      projectId: "p",
      publishableClientKey: "k",
      tokenStore: "memory",
      browser: null,
      noAutomaticPrefetch: true,
      maxRetryAfterMs: 1_000,
      environment: { fetch: async () => new Response("Too many requests", { status: 429, headers: { "retry-after": "90" } }) },
    });
    const error = await app.getProject().catch((e: unknown) => e);
    expect(describeError(error, online)).toMatchObject({ code: "RATE_LIMITED", message: "Please wait 90 seconds, then try again." });
  });
});
