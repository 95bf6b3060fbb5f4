#!/usr/bin/env node
// @ts-check
// `make size`: what an app pays in its browser bundle for stackkit, against the
// budgets of issue #13. Each case is a small app bundled with esbuild as an app
// bundler would (bundle, minify, ESM, browser, es2020, code splitting; React and
// React Query left out). Figures are gzip -9, file by file as a browser fetches them:
//   first load  the entry chunk plus every chunk it imports statically
//               (the `import-statement` edges of esbuild's metafile, followed);
//   lazy        the other chunks (dynamic imports, loaded on first use);
//   one file    the same app bundled without splitting (lazy chunks inlined).
// It prints each figure with its budget and the largest inputs of the first load,
// and exits 1 when a figure is over its budget, so that it can gate a release.
// Sizes are measured here, never asserted in timed tests.
// Usage: node scripts/size.mjs [--top N]

import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const topArg = process.argv.indexOf("--top");
const TOP = topArg > 0 ? Number(process.argv[topArg + 1]) : 12;
const KB = 1024;

const app = `
  const app = new StackClientApp({ projectId: "p", publishableClientKey: "k", tokenStore: "cookie" });
  export async function signIn(email, password) { return app.signInWithCredential({ email, password }); }
  export function currentUser() { return app.getUser(); }
`;
const CLIENT_APP = `import { StackClientApp } from "./runtime/index.ts";${app}`;
const REACT_APP = `
  import { StackClientApp } from "./runtime/index.ts";
  import { StackProvider, useUser } from "./react/index.ts";
  ${app}
  export { StackProvider, useUser };
`;
const QUERY_OPTIONS = 'export { stackQueryOptions } from "./react/index.ts";';
const FULL_TABLE = 'export { operations } from "./runtime/index.ts";';
const OPERATIONS_FILE = "generated/operations.ts";

/**
 * @typedef {{ firstLoad: number, firstFiles: number, lazy: number, lazyChunks: number, inputs: Map<string, number>, outputs: import("esbuild").Metafile["outputs"] }} Split
 */

/** @param {string} contents @param {boolean} splitting */
async function bundle(contents, splitting) {
  return build({
    stdin: { contents, resolveDir: root, loader: "ts", sourcefile: "app.ts" },
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    target: "es2020",
    splitting,
    outdir: path.join(root, ".size-out"),
    write: false,
    metafile: true,
    external: ["react", "react-dom", "react/jsx-runtime", "@tanstack/react-query"],
    logLevel: "silent",
  });
}

const gzip = (/** @type {Uint8Array} */ bytes) => gzipSync(bytes, { level: 9 }).length;

/** Code-split build: first load (entry + static imports, transitively) and lazy chunks. @param {string} contents @returns {Promise<Split>} */
async function measureSplit(contents) {
  const result = await bundle(contents, true);
  const outputs = result.metafile.outputs;
  const files = new Map(result.outputFiles.map((f) => [path.relative(root, f.path), f]));
  const entry = Object.keys(outputs).find((o) => outputs[o]?.entryPoint === "app.ts" && o.endsWith(".js"));
  if (!entry) throw new Error("esbuild produced no entry chunk");
  const first = new Set([entry]);
  for (const queue = [entry]; queue.length > 0;) {
    for (const edge of outputs[/** @type {string} */ (queue.pop())]?.imports ?? []) {
      if (edge.kind === "import-statement" && !edge.external && !first.has(edge.path)) {
        first.add(edge.path);
        queue.push(edge.path);
      }
    }
  }
  let firstLoad = 0;
  let lazy = 0;
  let lazyChunks = 0;
  /** @type {Map<string, number>} */
  const inputs = new Map();
  for (const [name, file] of files) {
    if (!name.endsWith(".js")) continue;
    if (first.has(name)) {
      firstLoad += gzip(file.contents);
      for (const [input, { bytesInOutput }] of Object.entries(outputs[name]?.inputs ?? {})) {
        inputs.set(input, (inputs.get(input) ?? 0) + bytesInOutput);
      }
    } else {
      lazy += gzip(file.contents);
      lazyChunks++;
    }
  }
  return { firstLoad, firstFiles: first.size, lazy, lazyChunks, inputs, outputs };
}

/** One-file build: every dynamic import inlined. @param {string} contents */
async function measureOneFile(contents) {
  const result = await bundle(contents, false);
  return result.outputFiles.filter((f) => f.path.endsWith(".js")).reduce((sum, f) => sum + gzip(f.contents), 0);
}

/** Bytes a file contributes to every chunk of a split build. @param {Split} split @param {string} input */
const bytesOf = (split, input) => Object.values(split.outputs).reduce((sum, o) => sum + (o.inputs[input]?.bytesInOutput ?? 0), 0);

const kb = (/** @type {number} */ n) => `${(n / KB).toFixed(1)} KB`;

const [client, clientOneFile, react, queryOptions, fullTable] = await Promise.all([
  measureSplit(CLIENT_APP),
  measureOneFile(CLIENT_APP),
  measureSplit(REACT_APP),
  measureSplit(QUERY_OPTIONS),
  measureSplit(FULL_TABLE),
]);

const fullTableBytes = bytesOf(fullTable, OPERATIONS_FILE);
const queryOptionsTableBytes = bytesOf(queryOptions, OPERATIONS_FILE);

/** @type {{ name: string, value: string, budget: string, over: boolean }[]} */
const rows = [
  {
    name: `client app: first load (gzip, ${client.firstFiles} files)`,
    value: kb(client.firstLoad),
    budget: `≤ ${kb(12 * KB)}`,
    over: client.firstLoad > 12 * KB,
  },
  { name: `client app: lazy, ${client.lazyChunks} chunks (gzip)`, value: kb(client.lazy), budget: "-", over: false },
  {
    name: "client app: one file (gzip)",
    value: kb(clientOneFile),
    budget: `≤ ${kb(20 * KB)}`,
    over: clientOneFile > 20 * KB,
  },
  {
    name: "+ stackkit/react (StackProvider, useUser): first load delta",
    value: `+${kb(react.firstLoad - client.firstLoad)}`,
    budget: `≤ +${kb(5 * KB)}`,
    over: react.firstLoad - client.firstLoad > 5 * KB,
  },
  {
    name: "stackQueryOptions alone: operation table bytes (min)",
    value: kb(queryOptionsTableBytes),
    budget: `< ${kb(fullTableBytes / 2)} (full table ${kb(fullTableBytes)})`,
    over: queryOptionsTableBytes >= fullTableBytes / 2,
  },
  { name: "stackQueryOptions alone: first load (gzip)", value: kb(queryOptions.firstLoad), budget: "-", over: false },
];

const width = Math.max(...rows.map((r) => r.name.length));
console.log(`${"figure".padEnd(width)}  ${"value".padStart(10)}  budget`);
for (const r of rows) console.log(`${r.name.padEnd(width)}  ${r.value.padStart(10)}  ${r.budget}${r.over ? "  OVER" : ""}`);

/** @param {string} title @param {Map<string, number>} inputs */
function printInputs(title, inputs) {
  const total = [...inputs.values()].reduce((a, b) => a + b, 0);
  console.log(`\n${title} (minified bytes, before gzip; total ${kb(total)}):`);
  for (const [input, bytes] of [...inputs].sort((a, b) => b[1] - a[1]).slice(0, TOP)) {
    console.log(`  ${kb(bytes).padStart(9)}  ${input}`);
  }
}
printInputs("largest inputs of the client app's first load", client.inputs);

const over = rows.filter((r) => r.over);
if (over.length > 0) {
  console.error(`\n${over.length} figure(s) over budget: ${over.map((r) => r.name).join("; ")}`);
  process.exit(1);
}
