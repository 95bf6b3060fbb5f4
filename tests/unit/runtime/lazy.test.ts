import { describe, expect, it } from "vitest";
import { isStackError, NetworkError } from "../../../runtime/errors.js";
import { lazy, preloadAll } from "../../../runtime/platform/lazy.js";
import { readKnownError } from "../../../runtime/http/known-error-answer.js";
import type { ReadResponse } from "../../../runtime/http/response.js";
import { isKnownError } from "../../../generated/known-error-guard.js";

describe("lazy", () => {
  it("loads once for every caller, and holds what it loaded for code that need not wait", async () => {
    let loads = 0;
    const load = lazy("thing", async () => ({ n: ++loads }));
    expect(load.loaded).toBeUndefined();
    const [a, b] = await Promise.all([load(), load()]);
    expect(load.loaded).toBe(a);
    expect(a).toBe(b);
    expect(await load()).toBe(a);
    expect(loads).toBe(1);
  });

  it("fails as a NetworkError naming what could not load, keeps the cause, and tries again on the next call", async () => {
    const chunkError = new TypeError("Failed to fetch dynamically imported module: https://app.example/assets/shape-1234.js");
    let loads = 0;
    const load = lazy("answer checker", async () => {
      loads++;
      if (loads === 1) throw chunkError;
      return "loaded";
    });
    const error = await load().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(isStackError(error, "NetworkError")).toBe(true);
    expect((error as NetworkError).message).toBe(
      "Could not load stackkit's answer checker; check the network and that all of the app's files are deployed.",
    );
    expect((error as NetworkError).cause).toBe(chunkError);
    expect(await load()).toBe("loaded");
    expect(loads).toBe(2);
  });
});

describe("preloadAll", () => {
  it("runs every loader, and the loaders that the loaded code makes, until none is left", async () => {
    const loaded: string[] = [];
    let inner: (() => Promise<string>) | undefined;
    lazy("outer", async () => {
      loaded.push("outer");
      // What a loaded module does when it is evaluated: it makes its own loader.
      inner ??= lazy("inner", async () => {
        loaded.push("inner");
        return "inner";
      });
      return "outer";
    });
    await preloadAll();
    expect(loaded).toEqual(["outer", "inner"]);
    await preloadAll();
    expect(loaded).toEqual(["outer", "inner"]);
  });
});

describe("reading a known-error answer", () => {
  const answer = (headers: Record<string, string>, body: unknown): ReadResponse => ({
    status: 400,
    headers: new Headers(headers),
    text: JSON.stringify(body),
  });

  it("answers no known error when the header is absent", () => {
    expect(readKnownError(answer({}, { code: "USER_NOT_FOUND" }), "getUser")).toBeUndefined();
  });

  it("builds the typed known error the header names", () => {
    const error = readKnownError(
      answer({ "x-stack-known-error": "EMAIL_PASSWORD_MISMATCH" }, { code: "EMAIL_PASSWORD_MISMATCH", error: "Wrong e-mail or password." }),
      "signInWithPassword",
    );
    expect(isKnownError(error, "EMAIL_PASSWORD_MISMATCH")).toBe(true);
    expect(error?.message).toBe("Wrong e-mail or password.");
    expect(error?.status).toBe(400);
  });
});
