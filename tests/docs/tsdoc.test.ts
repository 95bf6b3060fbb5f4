// Every public method and option carries TSDoc with an @example (scripts/check-tsdoc.mjs says what counts).
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url));

describe("TSDoc of the public API", () => {
  it("documents every public method and option, each method with an @example", () => {
    let output: string;
    try {
      output = execFileSync(process.execPath, ["scripts/check-tsdoc.mjs"], { cwd: root, encoding: "utf8" });
    } catch (error) {
      output = String((error as { stdout?: unknown }).stdout ?? error);
    }
    expect(output.trim().split("\n").at(-1)).toMatch(/^0 missing \(\d+ checked\)$/);
  }, 120_000);
});
