// `make docs` builds: TypeDoc reads every published entry's TSDoc and fails on
// any warning (a broken {@link}, an unknown tag). Built without writing files.
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url));

describe("make docs", () => {
  it("builds the API reference of every entry without a warning", () => {
    const output = execFileSync(process.execPath, ["node_modules/typedoc/bin/typedoc", "--emit", "none"], {
      cwd: root,
      encoding: "utf8",
      env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" },
    });
    expect(output).not.toMatch(/\[(warning|error)\]/);
  }, 180_000);
});
