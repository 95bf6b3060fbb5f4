#!/usr/bin/env node
// @ts-check
// `make size`: what an app pays in its browser bundle for importing stackkit,
// measured by bundling a few typical imports with esbuild (minified, for the
// browser, dependencies included) and printing raw and gzip bytes. Sizes are
// measured here, never asserted in timed tests.
// Usage: node scripts/size.mjs

import { gzipSync } from "node:zlib";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const cases = {
  "createStackClient": 'export { createStackClient } from "./runtime/index.ts";',
  "known errors only": 'export { KnownErrors, isKnownError } from "./runtime/index.ts";',
  "everything in stackkit": 'export * from "./runtime/index.ts";',
  "stackkit/react": 'export * from "./react/index.ts";',
};

console.log("import                      minified      gzip");
for (const [name, contents] of Object.entries(cases)) {
  const result = await build({
    stdin: { contents, resolveDir: root, loader: "ts" },
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    write: false,
    external: ["react", "react-dom", "@tanstack/react-query"],
    logLevel: "silent",
  });
  const bytes = result.outputFiles[0]?.contents ?? new Uint8Array();
  console.log(`${name.padEnd(26)} ${String(bytes.length).padStart(9)} ${String(gzipSync(bytes).length).padStart(9)}`);
}
