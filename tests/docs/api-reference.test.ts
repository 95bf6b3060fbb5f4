// `make docs` builds, and its API reference shows everything public: TypeDoc reads
// every published entry's TSDoc, fails on any warning (a broken {@link}, an unknown
// tag), and scripts/check-api-reference.mjs checks what it made of the entries
// against the TypeScript program (scripts/lib/api-reference.mjs says what counts).
// The same check over a small package that misses one thing of each kind shows it
// finds each; nothing is written.
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { checkApiReference } from "../../scripts/lib/api-reference.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));

describe("make docs", () => {
  it("builds the API reference of every entry without a warning, each public thing on a page with its comment", () => {
    let output: string;
    try {
      output = execFileSync(process.execPath, ["scripts/check-api-reference.mjs"], {
        cwd: root,
        encoding: "utf8",
        env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" },
      });
    } catch (error) {
      output = String((error as { stdout?: unknown }).stdout ?? error);
    }
    expect(output).not.toMatch(/\[(warning|error)\]/);
    const lines = output.trim().split("\n");
    // What is missing, one line each, then the figures and the total.
    expect(lines.slice(0, -2)).toEqual([]);
    expect(lines.at(-2)).toMatch(/^\d+ exports, \d+ of their members, \d+ known errors, \d+ references to stackkit's types$/);
    expect(lines.at(-1)).toMatch(/^0 missing \(\d+ checked\)$/);
  }, 180_000);

  it("finds what a package's reference lacks: a title, an overview, a page, a comment, an example, a known error's details", async () => {
    const fixture = fileURLToPath(new URL("../fixtures/api-reference", import.meta.url));
    const { missing, counts } = await checkApiReference({ root: fixture });
    expect(missing).toEqual([
      "TypeDoc: warnings or errors (printed above)",
      "entry fixture/extra: no module of that name (there are extra, fixture)",
      "module extra: not an entry of package.json's exports (titled by its @module tag?)",
      "entry extra: no overview (a file comment with @packageDocumentation)",
      "fixture: deleteTeam: no @example",
      "fixture: Robot.name: not on Robot's page",
      "fixture: Robot.greet: not on Robot's page",
      "fixture: Team.leave: its @example is not on the page",
      "fixture: Team.remove: its comment is not on the page",
      "fixture: Team.remove: its @example is not on the page",
      "fixture: VERSION: no comment",
      "KnownErrors.UserNotFound: its comment does not give the shape of its details (none)",
      "Greets (index.ts): no page, named by fixture.Robot",
      "Named (index.ts): no page, named by fixture.Robot",
    ]);
    // Person (the same intersection as Robot, with @interface), findTeam, Team.id and TeamNotFound pass.
    expect(counts).toEqual({ exports: 8, members: 9, knownErrors: 2, references: 6 });
  }, 60_000);
});
