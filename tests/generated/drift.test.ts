// generated/ is exactly what the generator makes from openapi/, and the document
// passes Redocly's recommended rules: the two CI gates, run as tests.
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url));
const run = (script: string) => execFileSync(process.execPath, [script], { cwd: root, encoding: "utf8", stdio: "pipe" });

describe("make check-generated", () => {
  it("finds generated/ in step with openapi/", () => {
    expect(run("scripts/check-generated.mjs")).toContain("generated/ matches openapi/");
  });
});

describe("make lint", () => {
  it("reports no error and no warning over the source and the bundle", () => {
    expect(run("scripts/lint.mjs")).toContain("0 errors, 0 warnings");
  });
});
