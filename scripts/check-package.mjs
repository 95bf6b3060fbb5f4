#!/usr/bin/env node
// @ts-check
// `make check-package` (`npm run check-package`): packs stackkit as `npm publish`
// would (`prepack` builds dist/ first) and lints the tarball with publint
// (strict: warnings fail too) and Are the Types Wrong. stackkit is ESM-only, so
// attw ignores the one rule about `require` from CommonJS under node16
// (cjs-resolves-to-esm) and checks the rest: node10 too, the resolution of a
// tsconfig with `"moduleResolution": "Node"`, which reads `types` and
// `typesVersions` instead of `exports`. Exit 1 when either reports a problem.
// Usage: node scripts/check-package.mjs

import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const out = mkdtempSync(path.join(tmpdir(), "stackkit-pack-"));

/** @param {string} command @param {string[]} args */
const step = (command, args) => spawnSync(command, args, { cwd: root, stdio: "inherit" }).status === 0;

let ok = false;
try {
  if (!step("npm", ["pack", "--pack-destination", out, "--silent"])) throw new Error("npm pack failed");
  const tarball = readdirSync(out).find((file) => file.endsWith(".tgz"));
  if (!tarball) throw new Error(`npm pack left no tarball in ${out}`);
  const file = path.join(out, tarball);
  const lint = step(process.execPath, [path.join(root, "node_modules/publint/src/cli.js"), "run", file, "--strict"]);
  const types = step(process.execPath, [
    path.join(root, "node_modules/@arethetypeswrong/cli/dist/index.js"),
    file,
    "--ignore-rules",
    "cjs-resolves-to-esm",
  ]);
  ok = lint && types;
  console.log(
    ok
      ? `${tarball}: publint and attw (node10, node16 from ESM, bundler) find no problem`
      : `${tarball}: ${lint ? "" : "publint "}${types ? "" : "attw "}reported problems`,
  );
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
} finally {
  rmSync(out, { recursive: true, force: true });
}
process.exit(ok ? 0 : 1);
