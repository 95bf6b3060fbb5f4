#!/usr/bin/env node
// @ts-check
// `make size`: what an app pays in its browser bundle for stackkit as users get it,
// against the budgets of issue #33. The package is packed (`npm pack`, whose
// `prepack` builds dist/) and unpacked into node_modules/stackkit of a temporary
// project, with the package's dependencies beside it (links to this repository's
// installed copies); small apps there import `stackkit` and `stackkit/react` by name,
// so the bundler resolves them through the package's `exports` to dist/, as an
// app's bundler does. Each app is bundled with esbuild (bundle, minify, ESM,
// browser, es2020, code splitting; React and React Query left out, the package's
// dependencies bundled). Figures are gzip -9, file by file as a browser fetches them:
//   first load  the entry chunk plus every chunk it imports statically
//               (the `import-statement` edges of esbuild's metafile, followed):
//               ≤ 40 KB in ≤ 4 files;
//   lazy        the other chunks (dynamic imports, loaded on first use);
//   one file    the same app bundled without splitting (lazy chunks inlined): ≤ 60 KB;
//   react       what `stackkit/react` (StackProvider, useUser) adds to the first load: ≤ +5 KB.
// It prints each figure with its budget (✓ or ✗), the files of the first load, and
// what each of stackkit's modules (runtime/…, generated/…) and each dependency weighs
// in the first load and in the one file: minified bytes and share of gzip, rows that
// sum to the totals (scripts/lib/size-breakdown.mjs says how bytes are attributed,
// through the source maps dist/ ships, and how gzip is shared out). It exits 1 when a
// figure is over its budget, so that it can gate a release. Sizes are measured here,
// never asserted in timed tests.
// Usage: node scripts/size.mjs [--top N] [--files] [--tarball stackkit-x.y.z.tgz]
//   --top      modules listed for the one-file bundle (the rest are one row); default 12
//   --files    list each dependency's files under it
//   --tarball  measure that tarball instead of packing this checkout

import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, renameSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { ownerOf, tabulate, weighFile } from "./lib/size-breakdown.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
/** @param {string} name */
const option = (name) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : undefined;
};
const TOP = Number(option("--top") ?? 12);
const FILES = process.argv.includes("--files");
const TARBALL = option("--tarball");
const KB = 1024;
const SMALL_CHUNK = KB / 2;

const BUDGET = {
  firstLoad: 40 * KB,
  firstFiles: 4,
  oneFile: 60 * KB,
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
/** The generated operation table, as the package's source maps name it. */
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
    // External maps (no sourceMappingURL comment, so the files are the bytes an app
    // ships), composed with dist/*.js.map: what each byte comes from.
    sourcemap: "external",
    sourcesContent: false,
    external: ["react", "react-dom", "react/jsx-runtime", "@tanstack/react-query"],
    logLevel: "silent",
  });
}

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
 * @typedef {import("./lib/size-breakdown.mjs").Weight} Weight
 * @typedef {{ name: string, gzip: number, bytes: number, inputs: [string, number][], weights: Map<string, Weight> }} Chunk
 * @typedef {{ firstLoad: number, first: Chunk[], lazy: number, lazyChunks: Chunk[] }} Split
 */

/** @param {Map<string, Weight>} into @param {Map<string, Weight>} from */
function addWeights(into, from) {
  for (const [source, { bytes, gzip }] of from) {
    const weight = into.get(source) ?? { bytes: 0, gzip: 0 };
    into.set(source, { bytes: weight.bytes + bytes, gzip: weight.gzip + gzip });
  }
  return into;
}

/** The weights of the sources of these chunks, added up. @param {Chunk[]} chunks */
const weightsOf = (chunks) => chunks.reduce((all, c) => addWeights(all, c.weights), /** @type {Map<string, Weight>} */ (new Map()));

/**
 * Each JavaScript file of a build, weighed by source (its source map beside it).
 * @param {import("esbuild").BuildResult<{ write: false, metafile: true }>} result
 * @returns {Map<string, Chunk>} by name, relative to the project (`out/…`)
 */
function chunks(result) {
  const files = new Map(result.outputFiles.map((f) => [path.relative(project, f.path), f]));
  /** @type {Map<string, Chunk>} */
  const out = new Map();
  for (const [name, file] of files) {
    if (!name.endsWith(".js")) continue;
    const mapFile = files.get(`${name}.map`);
    const { gzip, weights } = weighFile(file.contents, mapFile && JSON.parse(mapFile.text));
    const inputs = Object.entries(result.metafile.outputs[name]?.inputs ?? {})
      .map(([input, { bytesInOutput }]) => /** @type {[string, number]} */ ([shortName(input), bytesInOutput]))
      .filter(([, bytes]) => bytes > 0)
      .sort((a, b) => b[1] - a[1]);
    out.set(name, { name, gzip, bytes: file.contents.length, inputs, weights });
  }
  return out;
}

/** Code-split build: first load (entry + static imports, transitively) and lazy chunks. @param {string} contents @returns {Promise<Split>} */
async function measureSplit(contents) {
  const result = await bundle(contents, true);
  const outputs = result.metafile.outputs;
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
  for (const [name, chunk] of chunks(result)) {
    if (name === entry) chunk.name = `${name} (entry)`;
    (firstNames.has(name) ? first : lazyChunks).push(chunk);
  }
  first.sort((a, b) => b.gzip - a.gzip);
  const sum = (/** @type {Chunk[]} */ list) => list.reduce((total, c) => total + c.gzip, 0);
  return { firstLoad: sum(first), first, lazy: sum(lazyChunks), lazyChunks };
}

/** One-file build: every dynamic import inlined. @param {string} contents */
async function measureOneFile(contents) {
  const files = [...chunks(await bundle(contents, false)).values()];
  return { gzip: files.reduce((sum, f) => sum + f.gzip, 0), files };
}

/** Minified bytes of a module (`generated/operations.ts`) in these chunks. @param {Chunk[]} list @param {string} module */
const moduleBytes = (list, module) =>
  [...weightsOf(list)].filter(([source]) => ownerOf(source).name === module).reduce((sum, [, w]) => sum + w.bytes, 0);

const kb = (/** @type {number} */ n) => `${(n / KB).toFixed(1)} KB`;
const int = (/** @type {number} */ n) => n.toLocaleString("en-US");
const plural = (/** @type {number} */ n, /** @type {string} */ noun) => `${n} ${noun}${n === 1 ? "" : "s"}`;

/**
 * What each module and dependency weighs in these files, rows that sum to the total:
 * stackkit's modules (the first `limit`, then the rest as one row), the dependencies,
 * the app, esbuild's bytes; then the modules added up by folder.
 * @param {string} title @param {Chunk[]} files @param {number} limit
 */
function printBreakdown(title, files, limit) {
  const { rows, bytes, gzip } = tabulate(weightsOf(files));
  const [fileBytes, fileGzip] = [files.reduce((sum, f) => sum + f.bytes, 0), files.reduce((sum, f) => sum + f.gzip, 0)];
  if (bytes !== fileBytes || gzip !== fileGzip) {
    throw new Error(`${title} the rows sum to ${bytes} B, ${gzip} B gzip; the files are ${fileBytes} B, ${fileGzip} B gzip`);
  }
  const line = (/** @type {number} */ b, /** @type {number} */ g, /** @type {string} */ label) =>
    console.log(`  ${int(b).padStart(9)}  ${int(g).padStart(7)}  ${`${((100 * g) / gzip).toFixed(1)}%`.padStart(6)}  ${label}`);
  console.log(`\n${title}`);
  console.log(`  ${"min B".padStart(9)}  ${"gzip B".padStart(7)}  ${"gzip".padStart(6)}`);
  const modules = rows.filter((r) => r.kind === "module");
  for (const r of modules.slice(0, limit)) line(r.bytes, r.gzip, r.name);
  const rest = modules.slice(limit);
  if (rest.length > 0) {
    const sum = (/** @type {"bytes" | "gzip"} */ key) => rest.reduce((total, r) => total + r[key], 0);
    line(sum("bytes"), sum("gzip"), `${rest.length} more of stackkit's modules (--top ${modules.length} lists them)`);
  }
  for (const r of rows.filter((row) => row.kind !== "module")) {
    const label = r.kind === "dependency" ? `${r.name} (dependency, ${plural(r.files.length, "file")})` : r.name;
    line(r.bytes, r.gzip, r.kind === "app" ? `${label} (the app)` : label);
    if (FILES && r.kind === "dependency") for (const f of r.files) line(f.bytes, f.gzip, `    ${f.name}`);
  }
  line(bytes, gzip, `total: ${plural(files.length, "file")}`);
  /** @type {Map<string, { bytes: number, gzip: number, count: number }>} */
  const folders = new Map();
  for (const r of modules) {
    const folder = r.name.split("/").slice(0, -1).slice(0, 2).join("/") || ".";
    const sum = folders.get(folder) ?? { bytes: 0, gzip: 0, count: 0 };
    folders.set(folder, { bytes: sum.bytes + r.bytes, gzip: sum.gzip + r.gzip, count: sum.count + 1 });
  }
  console.log(`  stackkit's ${modules.length} modules above, by folder:`);
  for (const [folder, sum] of [...folders].sort((a, b) => b[1].gzip - a[1].gzip)) {
    line(sum.bytes, sum.gzip, `${folder}/ (${plural(sum.count, "module")})`);
  }
}

const HOW = [
  "how the tables weigh: minified bytes go to the source the composed source maps name for them; gzip is",
  "shared out by what each byte costs in its file's gzip -9 stream (a literal, its code's bits; a back-reference,",
  "its bits shared by the bytes it copies), scaled so that a file's bytes share its whole .gz",
].join("\n");

try {
  const started = Date.now();
  const pkg = install();
  const distFiles = readdirSync(path.join(pkgDir, "dist")).filter((file) => file.endsWith(".js")).length;

  const [client, clientOneFile, react, queryOptions, queryOptionsOneFile] = await Promise.all([
    measureSplit(CLIENT_APP),
    measureOneFile(CLIENT_APP),
    measureSplit(REACT_APP),
    measureSplit(QUERY_OPTIONS),
    measureOneFile(QUERY_OPTIONS),
  ]);

  const tableInQueryOptions = moduleBytes([...queryOptions.first, ...queryOptions.lazyChunks], OPERATIONS_SOURCE);
  const tableInFirstLoad = moduleBytes(queryOptions.first, OPERATIONS_SOURCE) > 0;
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
    { name: "package: JavaScript files in dist/ (entries and chunks)", value: String(distFiles), budget: "-" },
    { name: `client app: lazy chunks under ${kb(SMALL_CHUNK)} gzip`, value: String(smallLazy), budget: "-" },
    {
      name: "client app: one file (gzip)",
      value: kb(clientOneFile.gzip),
      budget: `≤ ${kb(BUDGET.oneFile)}`,
      over: clientOneFile.gzip > BUDGET.oneFile,
    },
    {
      name: "+ stackkit/react (StackProvider, useUser): first load delta",
      value: `+${kb(reactDelta)}`,
      budget: `≤ +${kb(BUDGET.reactDelta)}`,
      over: reactDelta > BUDGET.reactDelta,
    },
    {
      name: `stackQueryOptions alone: ${OPERATIONS_SOURCE} (min)`,
      value: tableInQueryOptions > 0 ? `${kb(tableInQueryOptions)}${tableInFirstLoad ? "" : " lazy"}` : "none",
      budget: "none",
      over: tableInQueryOptions > 0,
    },
    {
      name: `stackQueryOptions alone: first load (gzip, ${plural(queryOptions.first.length, "file")})`,
      value: kb(queryOptions.firstLoad),
      budget: "-",
    },
    { name: "stackQueryOptions alone: one file (gzip)", value: kb(queryOptionsOneFile.gzip), budget: "-" },
  ];

  const width = Math.max(...rows.map((r) => r.name.length));
  console.log(`${"figure".padEnd(width)}  ${"value".padStart(10)}     budget`);
  for (const r of rows) {
    const mark = r.over === undefined ? " " : r.over ? "✗" : "✓";
    console.log(`${r.name.padEnd(width)}  ${r.value.padStart(10)}  ${mark}  ${r.budget}`);
  }

  console.log(`\nfiles of the client app's first load (gzip; minified bytes of their largest inputs):`);
  for (const chunk of client.first) {
    const parts = chunk.inputs.slice(0, 4).map(([input, bytes]) => `${input} ${kb(bytes)}`);
    if (parts.length === 0) parts.push("esbuild's helpers (no input file)");
    const more = chunk.inputs.length > 4 ? `, +${chunk.inputs.length - 4} more` : "";
    console.log(`  ${kb(chunk.gzip).padStart(9)}  ${chunk.name}: ${parts.join(", ")}${more}`);
  }

  console.log(`\n${HOW}`);
  printBreakdown("the client app's first load, by module and dependency:", client.first, Infinity);
  printBreakdown(`the client app in one file, by module and dependency (--top ${TOP}):`, clientOneFile.files, TOP);

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
