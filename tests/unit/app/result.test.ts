// resultOf / errorOf: the known errors of the codes a call lists (or of their
// families) become values; everything else is thrown as it was. Their types are
// checked in tests/types/known-errors.ts.
import { describe, expect, it } from "vitest";
import { createKnownError, KnownErrors } from "../../../generated/known-errors.js";
import { errorOf, isKnownErrorOf, resultOf } from "../../../runtime/app/result-of.js";
import { NetworkError } from "../../../runtime/errors.js";
import { Result } from "../../../runtime/app/result.js";

const failing = (error: unknown) => async (): Promise<string> => {
  throw error;
};

describe("resultOf", () => {
  it("answers the call's data as an ok Result", async () => {
    expect(await resultOf(async () => "data", ["VERIFICATION_ERROR"])).toEqual({ status: "ok", data: "data" });
  });

  it("returns a known error of a listed code, the same object, as an error Result", async () => {
    const error = new KnownErrors.EmailPasswordMismatch();
    const result = await resultOf(failing(error), ["EMAIL_PASSWORD_MISMATCH", "VERIFICATION_ERROR"]);
    expect(result.status).toBe("error");
    expect(result.status === "error" && result.error).toBe(error);
  });

  it("returns a descendant of a listed parent code", async () => {
    const error = createKnownError("VERIFICATION_CODE_EXPIRED", undefined, { status: 400 });
    const result = await resultOf(failing(error), ["VERIFICATION_ERROR"]);
    expect(result.status === "error" && result.error).toBe(error);
  });

  it.each([
    ["a known error of another code", new KnownErrors.UserNotFound()],
    ["a parent of a listed code", createKnownError("VERIFICATION_ERROR")],
    ["a runtime error", new NetworkError("offline")],
    ["an abort", new DOMException("This operation was aborted", "AbortError")],
  ])("throws %s as it was", async (_, error) => {
    await expect(resultOf(failing(error), ["VERIFICATION_CODE_EXPIRED"])).rejects.toBe(error);
  });
});

describe("errorOf", () => {
  it("answers undefined on success", async () => {
    expect(await errorOf(async () => ({ ignored: true }), ["PASSWORD_REQUIREMENTS_NOT_MET"])).toBeUndefined();
  });

  it("returns a known error of a listed code (or its family) and throws anything else", async () => {
    const tooShort = createKnownError("PASSWORD_TOO_SHORT", { min_length: 8 }, { status: 400 });
    expect(await errorOf(failing(tooShort), ["PASSWORD_REQUIREMENTS_NOT_MET"])).toBe(tooShort);
    const other = new KnownErrors.PasswordConfirmationMismatch();
    await expect(errorOf(failing(other), ["PASSWORD_REQUIREMENTS_NOT_MET"])).rejects.toBe(other);
  });
});

describe("isKnownErrorOf", () => {
  it("is true for a known error of any listed code's family, false for anything else", () => {
    const expired = createKnownError("ACCESS_TOKEN_EXPIRED", undefined, { status: 401 });
    expect(isKnownErrorOf(expired, ["REFRESH_TOKEN_ERROR", "SESSION_AUTHENTICATION_ERROR"])).toBe(true);
    expect(isKnownErrorOf(expired, ["REFRESH_TOKEN_ERROR"])).toBe(false);
    expect(isKnownErrorOf(expired, [])).toBe(false);
    expect(isKnownErrorOf({ code: "ACCESS_TOKEN_EXPIRED", codeChain: ["ACCESS_TOKEN_EXPIRED"] }, ["ACCESS_TOKEN_EXPIRED"])).toBe(false);
  });
});

describe("Result's helpers (the reference's, from @stackframe/stack-shared/dist/utils/results)", () => {
  const ok = Result.ok(42) as Result<number, Error>;
  const failure = new Error("no");
  const error = Result.error(failure) as Result<number, Error>;

  it("orThrow, orThrowAsync and or read the data or fall back", async () => {
    expect(Result.orThrow(ok)).toBe(42);
    expect(() => Result.orThrow(error)).toThrow(failure);
    expect(await Result.orThrowAsync(Promise.resolve(ok))).toBe(42);
    await expect(Result.orThrowAsync(Promise.resolve(error))).rejects.toBe(failure);
    expect(Result.or(ok, 0)).toBe(42);
    expect(Result.or(error, 0)).toBe(0);
  });

  it("map changes the data and passes an error through", () => {
    expect(Result.map(ok, (n) => n * 2)).toEqual({ status: "ok", data: 84 });
    expect(Result.map(error, (n) => n * 2)).toEqual({ status: "error", error: failure });
  });

  it("fromThrowing, fromThrowingAsync and fromPromise catch into an error result", async () => {
    expect(Result.fromThrowing(() => 1)).toEqual({ status: "ok", data: 1 });
    expect(
      Result.fromThrowing(() => {
        throw failure;
      }),
    ).toEqual({ status: "error", error: failure });
    expect(await Result.fromThrowingAsync(async () => 2)).toEqual({ status: "ok", data: 2 });
    expect(await Result.fromThrowingAsync(() => Promise.reject(failure))).toEqual({ status: "error", error: failure });
    expect(await Result.fromPromise(Promise.resolve(3))).toEqual({ status: "ok", data: 3 });
    expect(await Result.fromPromise(Promise.reject(failure))).toEqual({ status: "error", error: failure });
  });
});
