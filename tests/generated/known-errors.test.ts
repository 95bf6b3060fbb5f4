// Round trip of the known-error catalogue: every code's wire example, fed to the
// generated registry, rebuilds the right class, family, status, details and message,
// and knownErrorMessage words each code as the example does. Also the codes the
// reference SDK fails to rebuild (known-errors.md, last section).
import { describe, expect, it } from "vitest";
import {
  createKnownError,
  isKnownError,
  isKnownErrorCode,
  KnownError,
  knownErrorClasses,
  KnownErrors,
  knownErrorStatus,
  UnsupportedError,
  type KnownErrorCode,
} from "../../generated/known-errors.js";
import { knownErrorMessage, renderKnownErrorMessage } from "../../generated/known-error-messages.js";
import { catalogue, type WireBody } from "../fixtures/document.js";

const parentOf = new Map(catalogue.map((c) => [c.code, c.ext.parent]));
/** The code and its ancestors; any that the registry lacks is left out, which the `codeChain` assertion then shows. */
function chainOf(code: string): KnownErrorCode[] {
  const chain = [code];
  for (let p = parentOf.get(code); p; p = parentOf.get(p)) chain.push(p);
  return chain.filter(isKnownErrorCode);
}
const rebuild = (body: WireBody, status: number) => createKnownError(body.code, body.details, { status, message: body.error });

describe("every catalogue code", () => {
  it("is one of 145 (2.8.86's 144, which known-errors-2.8.86.test.ts checks against the service, and one newer), each with a class in the registry", () => {
    expect(catalogue).toHaveLength(145);
    expect(Object.keys(knownErrorClasses).sort()).toEqual(catalogue.map((c) => c.code).sort());
    expect(Object.keys(KnownErrors)).toHaveLength(145);
  });

  it.each(catalogue)("$code rebuilds from its wire example", ({ code, ext, example }) => {
    const status = ext.status ?? 400;
    const error = rebuild(example, status);
    expect(error).toBeInstanceOf(knownErrorClasses[code as KnownErrorCode]);
    expect(error).toBeInstanceOf(KnownErrors[ext.class as keyof typeof KnownErrors]);
    expect(error).toBeInstanceOf(KnownError);
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe(ext.class);
    expect(error.code).toBe(code);
    expect(error.status).toBe(status);
    expect(error.details).toEqual(example.details);
    expect(error.message).toBe(example.error);
    expect(error.codeChain).toEqual(chainOf(code));
    for (const family of chainOf(code)) expect(isKnownError(error, family)).toBe(true);
    expect(knownErrorStatus[code as KnownErrorCode]).toBe(ext.status);
  });

  it.each(catalogue.filter((c) => !c.ext.freeText && !c.ext.abstract && !["INVALID_ACCESS_TYPE", "INVALID_SCOPE"].includes(c.code)))(
    "$code: knownErrorMessage makes the service's text from the details",
    ({ code, example }) => {
      expect(knownErrorMessage(code as KnownErrorCode, example.details as never)).toBe(example.error);
    },
  );

  it.each(catalogue)("$code serialises to JSON with its code, status, message and details", ({ code, ext, example }) => {
    const json = JSON.parse(JSON.stringify(rebuild(example, ext.status ?? 400)));
    expect(json).toEqual({ name: ext.class, code, status: ext.status ?? 400, message: example.error, ...(example.details ? { details: example.details } : {}) });
  });
});

describe("families", () => {
  it("ACCESS_TOKEN_EXPIRED is an INVALID_ACCESS_TOKEN, an INVALID_SESSION_AUTHENTICATION and a SESSION_AUTHENTICATION_ERROR", () => {
    const error = createKnownError("ACCESS_TOKEN_EXPIRED", { expired_at_millis: null }, { status: 401 });
    expect(error).toBeInstanceOf(KnownErrors.InvalidAccessToken);
    expect(error).toBeInstanceOf(KnownErrors.InvalidSessionAuthentication);
    expect(error).toBeInstanceOf(KnownErrors.SessionAuthenticationError);
    expect(error).not.toBeInstanceOf(KnownErrors.RefreshTokenError);
  });

  it("CANNOT_DELETE_CURRENT_SESSION is a REFRESH_TOKEN_ERROR, as the service defines it", () => {
    expect(isKnownError(createKnownError("CANNOT_DELETE_CURRENT_SESSION", undefined, { status: 400 }), "REFRESH_TOKEN_ERROR")).toBe(true);
  });

  it("API_KEY_NOT_FOUND, WRONG_API_KEY_TYPE and PUBLIC_API_KEY_CANNOT_BE_REVOKED are API_KEY_NOT_VALID", () => {
    for (const code of ["API_KEY_NOT_FOUND", "WRONG_API_KEY_TYPE", "PUBLIC_API_KEY_CANNOT_BE_REVOKED"]) {
      expect(createKnownError(code)).toBeInstanceOf(KnownErrors.ApiKeyNotValid);
    }
  });

  it("a parent is not a member of its child's family", () => {
    const parent = createKnownError("PASSWORD_REQUIREMENTS_NOT_MET", undefined, { status: 400, message: "Too weak." });
    expect(parent).toBeInstanceOf(KnownErrors.PasswordRequirementsNotMet);
    expect(parent).not.toBeInstanceOf(KnownErrors.PasswordTooShort);
  });
});

describe("codes the reference SDK cannot rebuild", () => {
  it.each(["BODY_PARSING_ERROR", "CLI_AUTH_ERROR", "CLI_AUTH_EXPIRED_ERROR", "CLI_AUTH_USED_ERROR", "PASSKEY_REGISTRATION_FAILED", "PASSKEY_AUTHENTICATION_FAILED", "INVALID_SCOPE"])(
    "%s rebuilds from body.error without details",
    (code) => {
      const error = createKnownError(code, undefined, { status: 400, message: "What the server said." });
      expect(error.code).toBe(code);
      expect(error.message).toBe("What the server said.");
      expect(error.details).toBeUndefined();
    },
  );

  it("INVALID_ACCESS_TYPE rebuilds without details", () => {
    const error = createKnownError("INVALID_ACCESS_TYPE", undefined, { status: 400 });
    expect(error).toBeInstanceOf(KnownErrors.InvalidAccessType);
    expect(error.message).toBe("INVALID_ACCESS_TYPE");
    expect(knownErrorMessage("INVALID_ACCESS_TYPE")).toBe("The x-stack-access-type header must be 'client', 'server', or 'admin'.");
  });

  it("TEAM_ALREADY_EXISTS is known", () => {
    const error = createKnownError("TEAM_ALREADY_EXISTS", { team_id: "t1" }, { status: 409, message: "Team t1 already exists." });
    expect(error).toBeInstanceOf(KnownErrors.TeamAlreadyExists);
    expect(error.message).toBe("Team t1 already exists.");
    expect(knownErrorMessage("TEAM_ALREADY_EXISTS", { team_id: "t1" })).toBe("Team t1 already exists.");
  });

  it("an abstract parent sent as-is becomes the parent's class with the response's status and text", () => {
    const error = createKnownError("INVALID_ACCESS_TOKEN", undefined, { status: 401, message: "Bad token." });
    expect(error).toBeInstanceOf(KnownErrors.InvalidAccessToken);
    expect(error.status).toBe(401);
    expect(error.message).toBe("Bad token.");
  });

  it("an unknown code becomes UNSUPPORTED_ERROR keeping the code, status, details and text", () => {
    const error = createKnownError("QUOTA_EXCEEDED", { limit: 3 }, { status: 429, message: "Too many projects." });
    expect(error).toBeInstanceOf(UnsupportedError);
    expect(error.code).toBe("UNSUPPORTED_ERROR");
    expect(error.details).toEqual({ originalErrorCode: "QUOTA_EXCEEDED" });
    expect((error as UnsupportedError).originalDetails).toEqual({ limit: 3 });
    expect(error.status).toBe(429);
    expect(error.message).toBe("Too many projects.");
  });

  it("an unknown code without text says which code it was", () => {
    expect(createKnownError("QUOTA_EXCEEDED", undefined, { status: 400 }).message).toBe('UNSUPPORTED_ERROR {"originalErrorCode":"QUOTA_EXCEEDED"}');
    expect(knownErrorMessage("UNSUPPORTED_ERROR", { originalErrorCode: "QUOTA_EXCEEDED" })).toBe(
      "An error occurred that is not currently supported (possibly because it was added in a version of Stack that is newer than this client). The original unsupported error code was: QUOTA_EXCEEDED",
    );
  });

  it.each([
    ["a string", "oops"],
    ["an array", [1, 2]],
    ["null", null],
    ["details of the wrong shape", { min_length: "eight" }],
  ])("details given as %s never throw", (_, details) => {
    expect(() => createKnownError("PASSWORD_TOO_SHORT", details, { status: 400 })).not.toThrow();
    expect(() => createKnownError("INSUFFICIENT_ACCESS_TYPE", details, { status: 401 })).not.toThrow();
    expect(() => createKnownError("ALL_OVERLOADS_FAILED", details, { status: 400 })).not.toThrow();
    expect(() => createKnownError("ACCESS_TOKEN_EXPIRED", details, { status: 401 })).not.toThrow();
  });

  it("a code that names an Object.prototype member is unknown, not a crash", () => {
    expect(createKnownError("constructor").code).toBe("UNSUPPORTED_ERROR");
    expect(createKnownError("__proto__").code).toBe("UNSUPPORTED_ERROR");
  });
});

describe("messages", () => {
  it("the server's text is the message", () => {
    expect(createKnownError("PASSWORD_TOO_SHORT", { min_length: 8 }, { message: "Choose at least 8 characters." }).message).toBe(
      "Choose at least 8 characters.",
    );
  });

  it("an error built without the server's text says its code, then its details as JSON", () => {
    expect(new KnownErrors.TeamNotFound({ team_id: "t1" }).message).toBe('TEAM_NOT_FOUND {"team_id":"t1"}');
    expect(new KnownErrors.EmailPasswordMismatch().message).toBe("EMAIL_PASSWORD_MISMATCH");
    expect(createKnownError("PASSWORD_TOO_SHORT", { min_length: 8 }, { status: 400 }).message).toBe('PASSWORD_TOO_SHORT {"min_length":8}');
    expect(createKnownError("USER_EMAIL_ALREADY_EXISTS", { email: "ada@example.com", would_work_if_email_was_verified: false }).message).toBe(
      'USER_EMAIL_ALREADY_EXISTS {"email":"ada@example.com","would_work_if_email_was_verified":false}',
    );
  });

  it("without the server's text, empty or missing details and an empty text leave the code alone", () => {
    expect(createKnownError("PASSWORD_TOO_SHORT").message).toBe("PASSWORD_TOO_SHORT");
    expect(createKnownError("PASSWORD_TOO_SHORT", {}).message).toBe("PASSWORD_TOO_SHORT");
    expect(createKnownError("PASSWORD_TOO_SHORT", "eight").message).toBe("PASSWORD_TOO_SHORT");
    expect(createKnownError("PASSWORD_TOO_SHORT", { min_length: 8 }, { message: "" }).message).toBe('PASSWORD_TOO_SHORT {"min_length":8}');
  });

  it("details that JSON cannot write leave the code alone, and stay on details", () => {
    const cyclic: Record<string, unknown> = { min_length: 8 };
    cyclic.self = cyclic;
    const error = createKnownError("PASSWORD_TOO_SHORT", cyclic);
    expect(error.message).toBe("PASSWORD_TOO_SHORT");
    expect(error.details).toBe(cyclic);
    expect(createKnownError("PASSWORD_TOO_SHORT", { min_length: 8n }).message).toBe("PASSWORD_TOO_SHORT");
  });

  it("knownErrorMessage words a code as the service does: a filter, a condition, a nested key", () => {
    expect(knownErrorMessage("TEAM_NOT_FOUND", { team_id: "t1" })).toBe("Team t1 not found.");
    expect(knownErrorMessage("EMAIL_PASSWORD_MISMATCH")).toBe("Wrong e-mail or password.");
    expect(knownErrorMessage("INSUFFICIENT_ACCESS_TYPE", { actual_access_type: "client", allowed_access_types: ["server", "admin"] })).toBe(
      "The x-stack-access-type header must be 'server' or 'admin', but was 'client'.",
    );
    expect(knownErrorMessage("USER_EMAIL_ALREADY_EXISTS", { email: "ada@example.com", would_work_if_email_was_verified: true })).toBe(
      'A user with email "ada@example.com" already exists but the email is not verified. Please login to your existing account with the method you used to sign up, and then verify your email to sign in with this login method.',
    );
    expect(knownErrorMessage("USER_EMAIL_ALREADY_EXISTS", { email: "ada@example.com", would_work_if_email_was_verified: false })).toBe(
      'A user with email "ada@example.com" already exists.',
    );
    expect(knownErrorMessage("ACCESS_TOKEN_EXPIRED", { expired_at_millis: null })).toBe("Access token has expired. Please refresh it and try again.");
    expect(knownErrorMessage("RESTRICTED_USER_NOT_ALLOWED", { restricted_reason: { type: "email_not_verified" } })).toBe(
      "The user in the access token is in restricted state. Reason: email_not_verified. Please pass the X-Stack-Allow-Restricted-User header if this is intended.",
    );
  });

  it("knownErrorMessage marks a gap in the details instead of printing undefined", () => {
    expect(knownErrorMessage("PASSWORD_TOO_SHORT")).toBe("Password too short. Minimum length is <min_length unknown>.");
  });

  it("the first template whose keys are present is used", () => {
    const templates = ["The {type} ({contact_channel_value}) is taken.", "This {type} is taken."];
    expect(renderKnownErrorMessage(templates, { type: "email", contact_channel_value: "a@b.c" })).toBe("The email (a@b.c) is taken.");
    expect(renderKnownErrorMessage(templates, { type: "email", contact_channel_value: null })).toBe("This email is taken.");
  });
});

describe("guards across two copies of the package", () => {
  it("instanceof and isKnownError recognise an error built by another copy", async () => {
    // A query string makes the module loader evaluate the file a second time,
    // as a bundler that duplicated the package would.
    const specifier = "../../generated/known-errors.ts?second-copy";
    const other = (await import(/* @vite-ignore */ specifier)) as typeof import("../../generated/known-errors.js");
    expect(other.KnownErrors.PasswordTooShort).not.toBe(KnownErrors.PasswordTooShort);
    const foreign = other.createKnownError("PASSWORD_TOO_SHORT", { min_length: 8 }, { status: 400 });
    expect(foreign).toBeInstanceOf(KnownErrors.PasswordTooShort);
    expect(foreign).toBeInstanceOf(KnownErrors.PasswordRequirementsNotMet);
    expect(foreign).not.toBeInstanceOf(KnownErrors.EmailPasswordMismatch);
    expect(isKnownError(foreign, "PASSWORD_REQUIREMENTS_NOT_MET")).toBe(true);
  });

  it("a look-alike plain object is not a known error", () => {
    expect(isKnownError({ code: "USER_NOT_FOUND", codeChain: ["USER_NOT_FOUND"] })).toBe(false);
    expect({ code: "USER_NOT_FOUND" }).not.toBeInstanceOf(KnownErrors.UserNotFound);
  });
});

describe("the reference SDK's members (code written for @stackframe/js reads them)", () => {
  // The scenarios a run against the service showed app code matching on `errorCode`.
  it.each([
    ["USER_EMAIL_ALREADY_EXISTS", 409, { email: "ada@example.com" }, "A user with email ada@example.com already exists."],
    ["EMAIL_PASSWORD_MISMATCH", 400, undefined, "Wrong e-mail or password."],
    ["VERIFICATION_CODE_NOT_FOUND", 404, undefined, "The verification code does not exist for this project."],
    ["VERIFICATION_CODE_ALREADY_USED", 409, undefined, "The verification link has already been used."],
    ["CANNOT_DELETE_CURRENT_SESSION", 400, undefined, "Cannot delete the current session."],
  ] as const)("%s has errorCode, statusCode, humanReadableMessage, details and toDescriptiveJson()", (code, status, details, text) => {
    const error = createKnownError(code, details, { status, message: text });
    expect(error.errorCode).toBe(code);
    expect(error.statusCode).toBe(status);
    expect(error.humanReadableMessage).toBe(text);
    expect(error.details).toEqual(details);
    expect(error.toDescriptiveJson()).toEqual({ code, ...(details ? { details } : {}), error: text });
  });

  it("classes carry errorCode and isInstance, matching families and other copies", async () => {
    expect(KnownErrors.EmailPasswordMismatch.errorCode).toBe("EMAIL_PASSWORD_MISMATCH");
    expect(KnownErrors.PasswordRequirementsNotMet.errorCode).toBe("PASSWORD_REQUIREMENTS_NOT_MET");
    const short = createKnownError("PASSWORD_TOO_SHORT", { min_length: 8 }, { status: 400 });
    expect(KnownErrors.PasswordRequirementsNotMet.isInstance(short)).toBe(true);
    expect(KnownErrors.PasswordTooShort.isInstance(short)).toBe(true);
    expect(KnownErrors.EmailPasswordMismatch.isInstance(short)).toBe(false);
    expect(KnownErrors.EmailPasswordMismatch.isInstance(new Error("Wrong e-mail or password."))).toBe(false);
    const specifier = "../../generated/known-errors.ts?third-copy";
    const other = (await import(/* @vite-ignore */ specifier)) as typeof import("../../generated/known-errors.js");
    expect(KnownErrors.PasswordTooShort.isInstance(other.createKnownError("PASSWORD_TOO_SHORT", { min_length: 8 }))).toBe(true);
  });

  it("an unknown code keeps the server's code in errorCode's place as UNSUPPORTED_ERROR, with a descriptive JSON", () => {
    const error = createKnownError("SOMETHING_NEW", { a: 1 }, { status: 418, message: "New." });
    expect(error.errorCode).toBe("UNSUPPORTED_ERROR");
    expect(error.statusCode).toBe(418);
    expect(error.toDescriptiveJson()).toEqual({ code: "UNSUPPORTED_ERROR", details: { originalErrorCode: "SOMETHING_NEW" }, error: "New." });
  });
});
