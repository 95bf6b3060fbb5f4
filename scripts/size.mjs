#!/usr/bin/env node
// @ts-check
// `make size`: what an app pays in its browser bundle for stackkit as users get it,
// against the budgets of issue #13. The package is packed (`npm pack`, whose
// `prepack` builds dist/) and unpacked into node_modules/stackkit of a temporary
// project, with the package's dependencies beside it (links to this repository's
// installed copies); small apps there import `stackkit` and `stackkit/react` by name,
// so the bundler resolves them through the package's `exports` to dist/, as an
// app's bundler does. Each app is bundled with esbuild (bundle, minify, ESM,
// browser, es2020, code splitting; React and React Query left out, the package's
// dependencies bundled). Figures are gzip -9, file by file as a browser fetches them:
//   first load  the entry chunk plus every chunk it imports statically
//               (the `import-statement` edges of esbuild's metafile, followed);
//   lazy        the other chunks (dynamic imports, loaded on first use);
//   one file    the same app bundled without splitting (lazy chunks inlined).
// It prints each figure with its budget (✓ or ✗), the files of the first load and
// its largest inputs (files of dist/ with the sources their source maps name, and
// files of dependencies), and exits 1 when a figure is over its budget, so that it
// can gate a release. Sizes are measured here, never asserted in timed tests.
// Usage: node scripts/size.mjs [--top N] [--tarball stackkit-x.y.z.tgz]
//   --tarball  measure that tarball instead of packing this checkout

import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, renameSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
/** @param {string} name */
const option = (name) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : undefined;
};
const TOP = Number(option("--top") ?? 12);
const TARBALL = option("--tarball");
const KB = 1024;
const SMALL_CHUNK = KB / 2;

const BUDGET = {
  firstLoad: 12 * KB,
  firstFiles: 4,
  oneFile: 40 * KB,
  reactDelta: 5 * KB,
};

const app = `
  const app = new StackClientApp({ projectId: "p", publishableClientKey: "k", tokenStore: "cookie" });
  export async function signIn(email, password) { return app.signInWithCredential({ email, password }); }
  export function currentUser() { return app.getUser(); }
`;
const CLIENT_APP = `import { StackClientApp } from "stackkit";${app}`;
const REACT_APP = `
  import { StackClientApp } from "stackkit";
  import { StackProvider, useUser } from "stackkit/react";
  ${app}
  export { StackProvider, useUser };
`;
const QUERY_OPTIONS = 'export { stackQueryOptions } from "stackkit/react";';
/** The generated operation table's source, as the package's source maps name it. */
const OPERATIONS_SOURCE = "generated/operations.ts";

const work = mkdtempSync(path.join(tmpdir(), "stackkit-size-"));
const project = path.join(work, "app");
const modules = path.join(project, "node_modules");
const pkgDir = path.join(modules, "stackkit");

/**
 * `npm pack` (or the tarball given), unpacked to node_modules/stackkit; each dependency of
 * the packed package.json linked from this repository's node_modules (their own
 * dependencies resolve from there, through the link's real path).
 * @returns {{ name: string, version: string, tarball: string, tarballBytes: number }}
 */
function install() {
  let tarball = TARBALL ? path.resolve(TARBALL) : "";
  if (!tarball) {
    // Its build's output (tsdown's notes) is shown only when it fails.
    const packed = spawnSync("npm", ["pack", "--pack-destination", work, "--silent", "--no-update-notifier"], {
      cwd: root,
      encoding: "utf8",
    });
    if (packed.status !== 0) throw new Error(`npm pack failed:\n${packed.stdout}${packed.stderr}`);
    const name = readdirSync(work).find((file) => file.endsWith(".tgz"));
    if (!name) throw new Error(`npm pack left no tarball in ${work}`);
    tarball = path.join(work, name);
  }
  mkdirSync(modules, { recursive: true });
  execFileSync("tar", ["-xzf", tarball, "-C", modules]);
  renameSync(path.join(modules, "package"), pkgDir);
  /** @type {{ name: string, version: string, dependencies?: Record<string, string> }} */
  const pkg = JSON.parse(readFileSync(path.join(pkgDir, "package.json"), "utf8"));
  for (const [dep, range] of Object.entries(pkg.dependencies ?? {})) {
    const installed = path.join(root, "node_modules", dep);
    if (!existsSync(installed)) throw new Error(`${dep} (a dependency of ${pkg.name}) is not installed in ${root}: run npm ci`);
    const { version } = JSON.parse(readFileSync(path.join(installed, "package.json"), "utf8"));
    if (/^\d/.test(range) && version !== range) console.warn(`note: ${dep} ${range} is declared, ${version} is installed and measured`);
    mkdirSync(path.dirname(path.join(modules, dep)), { recursive: true });
    symlinkSync(realpathSync(installed), path.join(modules, dep), "dir");
  }
  return { name: pkg.name, version: pkg.version, tarball: path.basename(tarball), tarballBytes: readFileSync(tarball).length };
}

/** @param {string} contents @param {boolean} splitting */
async function bundle(contents, splitting) {
  return build({
    stdin: { contents, resolveDir: project, loader: "js", sourcefile: "app.js" },
    absWorkingDir: project,
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    target: "es2020",
    splitting,
    outdir: path.join(project, "out"),
    write: false,
    metafile: true,
    external: ["react", "react-dom", "react/jsx-runtime", "@tanstack/react-query"],
    logLevel: "silent",
  });
}

const gzip = (/** @type {Uint8Array} */ bytes) => gzipSync(bytes, { level: 9 }).length;

/**
 * An input's name as a reader wants it: `stackkit/dist/…` or `<dependency>/…` (from the
 * last node_modules/ of its path, links followed).
 * @param {string} input
 */
function shortName(input) {
  const at = input.lastIndexOf("node_modules/");
  return at >= 0 ? input.slice(at + "node_modules/".length) : input;
}

/**
 * The sources each JavaScript file of the packed dist/ was built from (its source map's
 * `sources`, relative to the repository), by short name (`stackkit/dist/x.js`).
 * @returns {Map<string, string[]>}
 */
function distSources() {
  /** @type {Map<string, string[]>} */
  const sources = new Map();
  const dist = path.join(pkgDir, "dist");
  for (const file of readdirSync(dist)) {
    if (!file.endsWith(".js.map")) continue;
    /** @type {{ sources?: string[] }} */
    const map = JSON.parse(readFileSync(path.join(dist, file), "utf8"));
    sources.set(
      `stackkit/dist/${file.slice(0, -".map".length)}`,
      (map.sources ?? []).map((s) => path.posix.normalize(path.posix.join("dist", s))),
    );
  }
  return sources;
}

/**
 * @typedef {{ name: string, gzip: number, bytes: number, inputs: [string, number][] }} Chunk
 * @typedef {{ firstLoad: number, first: Chunk[], lazy: number, lazyChunks: Chunk[], inputs: Map<string, number>, all: Map<string, number> }} Split
 */

/** Code-split build: first load (entry + static imports, transitively) and lazy chunks. @param {string} contents @returns {Promise<Split>} */
async function measureSplit(contents) {
  const result = await bundle(contents, true);
  const outputs = result.metafile.outputs;
  const files = new Map(result.outputFiles.map((f) => [path.relative(project, f.path), f]));
  const entry = Object.keys(outputs).find((o) => outputs[o]?.entryPoint === "app.js" && o.endsWith(".js"));
  if (!entry) throw new Error("esbuild produced no entry chunk");
  const firstNames = new Set([entry]);
  for (const queue = [entry]; queue.length > 0;) {
    for (const edge of outputs[/** @type {string} */ (queue.pop())]?.imports ?? []) {
      if (edge.kind === "import-statement" && !edge.external && !firstNames.has(edge.path)) {
        firstNames.add(edge.path);
        queue.push(edge.path);
      }
    }
  }
  /** @type {Chunk[]} */
  const first = [];
  /** @type {Chunk[]} */
  const lazyChunks = [];
  /** @type {Map<string, number>} */
  const inputs = new Map();
  /** @type {Map<string, number>} */
  const all = new Map();
  for (const [name, file] of files) {
    if (!name.endsWith(".js")) continue;
    const chunkInputs = Object.entries(outputs[name]?.inputs ?? {})
      .map(([input, { bytesInOutput }]) => /** @type {[string, number]} */ ([shortName(input), bytesInOutput]))
      .filter(([, bytes]) => bytes > 0)
      .sort((a, b) => b[1] - a[1]);
    const chunk = {
      name: name === entry ? `${name} (entry)` : name,
      gzip: gzip(file.contents),
      bytes: file.contents.length,
      inputs: chunkInputs,
    };
    for (const [input, bytes] of chunkInputs) all.set(input, (all.get(input) ?? 0) + bytes);
    if (firstNames.has(name)) {
      first.push(chunk);
      for (const [input, bytes] of chunkInputs) inputs.set(input, (inputs.get(input) ?? 0) + bytes);
    } else {
      lazyChunks.push(chunk);
    }
  }
  first.sort((a, b) => b.gzip - a.gzip);
  const sum = (/** @type {Chunk[]} */ chunks) => chunks.reduce((total, c) => total + c.gzip, 0);
  return { firstLoad: sum(first), first, lazy: sum(lazyChunks), lazyChunks, inputs, all };
}

/** One-file build: every dynamic import inlined. @param {string} contents */
async function measureOneFile(contents) {
  const result = await bundle(contents, false);
  return result.outputFiles.filter((f) => f.path.endsWith(".js")).reduce((sum, f) => sum + gzip(f.contents), 0);
}

const kb = (/** @type {number} */ n) => `${(n / KB).toFixed(1)} KB`;

try {
  const started = Date.now();
  const pkg = install();
  const sources = distSources();
  const tableFiles = [...sources].filter(([, s]) => s.includes(OPERATIONS_SOURCE)).map(([file]) => file);
  if (tableFiles.length === 0) throw new Error(`no file of the packed dist/ names ${OPERATIONS_SOURCE} in its source map`);

  const [client, clientOneFile, react, queryOptions, queryOptionsOneFile] = await Promise.all([
    measureSplit(CLIENT_APP),
    measureOneFile(CLIENT_APP),
    measureSplit(REACT_APP),
    measureSplit(QUERY_OPTIONS),
    measureOneFile(QUERY_OPTIONS),
  ]);

  const tableInQueryOptions = tableFiles.reduce((sum, file) => sum + (queryOptions.all.get(file) ?? 0), 0);
  const tableInFirstLoad = tableFiles.some((file) => queryOptions.inputs.has(file));
  const smallLazy = client.lazyChunks.filter((c) => c.gzip < SMALL_CHUNK).length;
  const reactDelta = react.firstLoad - client.firstLoad;

  console.log(
    `${pkg.name}@${pkg.version} as installed from ${TARBALL ? pkg.tarball : `npm pack (${pkg.tarball})`}, ` +
      `${kb(pkg.tarballBytes)} tarball; apps resolve "stackkit" through its exports to dist/ ` +
      `(${((Date.now() - started) / 1000).toFixed(1)} s)\n`,
  );

  /** @type {{ name: string, value: string, budget: string, over?: boolean }[]} */
  const rows = [
    {
      name: "client app: first load (gzip)",
      value: kb(client.firstLoad),
      budget: `≤ ${kb(BUDGET.firstLoad)}`,
      over: client.firstLoad > BUDGET.firstLoad,
    },
    {
      name: "client app: first load files",
      value: String(client.first.length),
      budget: `≤ ${BUDGET.firstFiles}`,
      over: client.first.length > BUDGET.firstFiles,
    },
    { name: `client app: lazy, ${client.lazyChunks.length} chunks (gzip)`, value: kb(client.lazy), budget: "-" },
    { name: "package: JavaScript files in dist/ (entries and chunks)", value: String(sources.size), budget: "-" },
    { name: `client app: lazy chunks under ${kb(SMALL_CHUNK)} gzip`, value: String(smallLazy), budget: "-" },
    {
      name: "client app: one file (gzip)",
      value: kb(clientOneFile),
      budget: `≤ ${kb(BUDGET.oneFile)}`,
      over: clientOneFile > BUDGET.oneFile,
    },
    {
      name: "+ stackkit/react (StackProvider, useUser): first load delta",
      value: `+${kb(reactDelta)}`,
      budget: `≤ +${kb(BUDGET.reactDelta)}`,
      over: reactDelta > BUDGET.reactDelta,
    },
    {
      name: "stackQueryOptions alone: operation table (min)",
      value: tableInQueryOptions > 0 ? `${kb(tableInQueryOptions)}${tableInFirstLoad ? "" : " lazy"}` : "none",
      budget: `none (${tableFiles.join(", ")})`,
      over: tableInQueryOptions > 0,
    },
    {
      name: `stackQueryOptions alone: first load (gzip, ${queryOptions.first.length} files)`,
      value: kb(queryOptions.firstLoad),
      budget: "-",
    },
    { name: "stackQueryOptions alone: one file (gzip)", value: kb(queryOptionsOneFile), budget: "-" },
  ];

  const width = Math.max(...rows.map((r) => r.name.length));
  console.log(`${"figure".padEnd(width)}  ${"value".padStart(10)}     budget`);
  for (const r of rows) {
    const mark = r.over === undefined ? " " : r.over ? "✗" : "✓";
    console.log(`${r.name.padEnd(width)}  ${r.value.padStart(10)}  ${mark}  ${r.budget}`);
  }

  /** A dist/ file with the sources it was built from. @param {string} input */
  const described = (input) => {
    const from = sources.get(input);
    if (!from || from.length === 0) return input;
    const shown = from.slice(0, 3).join(", ");
    return `${input}  (${shown}${from.length > 3 ? `, +${from.length - 3} more` : ""})`;
  };

  console.log(`\nfiles of the client app's first load (gzip; minified bytes of their largest inputs):`);
  for (const chunk of client.first) {
    const parts = chunk.inputs.slice(0, 4).map(([input, bytes]) => `${input} ${kb(bytes)}`);
    if (parts.length === 0) parts.push("esbuild's helpers (no input file)");
    const more = chunk.inputs.length > 4 ? `, +${chunk.inputs.length - 4} more` : "";
    console.log(`  ${kb(chunk.gzip).padStart(9)}  ${chunk.name}: ${parts.join(", ")}${more}`);
  }

  const total = [...client.inputs.values()].reduce((a, b) => a + b, 0);
  console.log(`\nlargest inputs of the client app's first load (minified bytes, before gzip; total ${kb(total)}):`);
  for (const [input, bytes] of [...client.inputs].sort((a, b) => b[1] - a[1]).slice(0, TOP)) {
    console.log(`  ${kb(bytes).padStart(9)}  ${described(input)}`);
  }

  const over = rows.filter((r) => r.over);
  if (over.length > 0) {
    console.error(`\n${over.length} figure(s) over budget: ${over.map((r) => r.name).join("; ")}`);
    process.exitCode = 1;
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
} finally {
  rmSync(work, { recursive: true, force: true });
}
