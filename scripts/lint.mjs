#!/usr/bin/env node
// @ts-check
// `make lint`: Redocly's recommended rules over the source document, over
// the bundle and over the emulator's control API document (redocly.yaml names
// them). Exit 1 on any error or warning that is not listed in
// .redocly.lint-ignore.yaml, so that warnings do not pile up.
// Usage: node scripts/lint.mjs

import path from "node:path";
import { fileURLToPath } from "node:url";
import { runRedocly } from "./lib/bundle.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
try {
  const said = runRedocly(root, ["lint", "--format=summary", "--max-problems=1000"]);
  const problems = /You have (\d+) (warning|error)/.exec(said);
  if (problems) {
    console.error(said);
    process.exit(1);
  }
  console.log("redocly lint: 0 errors, 0 warnings (source, bundle and the emulator's control API)");
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
