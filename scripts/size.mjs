#!/usr/bin/env node
// @ts-check
// `make size`: what an app pays in its browser bundle for stackkit. Each case is
// a small app bundled with esbuild (minified, ESM, for the browser, code
// splitting on, React and React Query left out); it prints the entry chunk and
// what loads lazily (WebAuthn, on first passkey use), raw and gzip.
// Sizes are measured here, never asserted in timed tests.
// Usage: node scripts/size.mjs

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const app = `
  const app = new StackClientApp({ projectId: "p", publishableClientKey: "k", tokenStore: "cookie" });
  export async function signIn(email, password) { return app.signInWithCredential({ email, password }); }
  export function currentUser() { return app.getUser(); }
`;
const cases = {
  "StackClientApp + getUser + signInWithCredential": `import { StackClientApp } from "./runtime/index.ts";${app}`,
  "the same app with stackkit/react (StackProvider, useUser)": `
    import { StackClientApp } from "./runtime/index.ts";
    import { StackProvider, useUser } from "./react/index.ts";
    ${app}
    export { StackProvider, useUser };
  `,
  "createStackClient (typed low-level client only)": 'export { createStackClient } from "./runtime/index.ts";',
  "known errors only": 'export { KnownErrors, isKnownError } from "./runtime/index.ts";',
};

/** @param {number} n */
const kb = (n) => `${(n / 1024).toFixed(1)} KB`.padStart(9);

console.log(`${"case".padEnd(58)} ${"entry min".padStart(9)} ${"gzip".padStart(9)} ${"lazy min".padStart(9)} ${"gzip".padStart(9)}`);
for (const [name, contents] of Object.entries(cases)) {
  const outdir = mkdtempSync(path.join(tmpdir(), "stackkit-size-"));
  try {
    const result = await build({
      stdin: { contents, resolveDir: root, loader: "ts", sourcefile: "app.ts" },
      bundle: true,
      minify: true,
      format: "esm",
      platform: "browser",
      splitting: true,
      outdir,
      write: false,
      metafile: true,
      external: ["react", "react-dom", "react/jsx-runtime", "@tanstack/react-query"],
      logLevel: "silent",
    });
    const entry = result.outputFiles.find((f) => result.metafile.outputs[path.relative(root, f.path)]?.entryPoint !== undefined);
    const sizes = { entry: 0, entryGzip: 0, lazy: 0, lazyGzip: 0 };
    for (const file of result.outputFiles) {
      const gzip = gzipSync(file.contents).length;
      if (file === entry) {
        sizes.entry += file.contents.length;
        sizes.entryGzip += gzip;
      } else {
        sizes.lazy += file.contents.length;
        sizes.lazyGzip += gzip;
      }
    }
    console.log(`${name.padEnd(58)} ${kb(sizes.entry)} ${kb(sizes.entryGzip)} ${kb(sizes.lazy)} ${kb(sizes.lazyGzip)}`);
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}
