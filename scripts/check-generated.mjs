#!/usr/bin/env node
// @ts-check
// Fails (exit 1) when generated/ is not exactly what scripts/generate.mjs makes
// from openapi/ now: a changed file, a missing one, a stale extra one, or (in a
// git checkout) one that is not committed. It regenerates into a temporary
// folder, so the working tree is never touched.
// Usage: node scripts/check-generated.mjs

import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { generate } from "./generate.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const committed = path.join(root, "generated");
const fresh = mkdtempSync(path.join(tmpdir(), "stackkit-generated-"));
const problems = [];
try {
  await generate(fresh);
  const want = readdirSync(fresh).sort();
  const have = existsSync(committed) ? readdirSync(committed).sort() : [];
  for (const name of want) {
    if (!have.includes(name)) problems.push(`missing: generated/${name}`);
    else if (readFileSync(path.join(fresh, name), "utf8") !== readFileSync(path.join(committed, name), "utf8")) {
      problems.push(`differs from openapi/: generated/${name}`);
    }
  }
  for (const name of have) if (!want.includes(name)) problems.push(`not made by the generator: generated/${name}`);
  if (existsSync(path.join(root, ".git"))) {
    const untracked = execFileSync("git", ["status", "--porcelain", "--untracked-files=all", "--", "generated/"], {
      cwd: root,
      encoding: "utf8",
    })
      .split("\n")
      .filter((line) => line.startsWith("??"));
    for (const line of untracked) problems.push(`not committed: ${line.slice(3)}`);
  }
} finally {
  rmSync(fresh, { recursive: true, force: true });
}
if (problems.length > 0) {
  console.error(`generated/ is out of date; run \`make generate\` and commit:\n  ${problems.join("\n  ")}`);
  process.exit(1);
}
console.log("generated/ matches openapi/");
