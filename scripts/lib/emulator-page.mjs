// @ts-check
// Builds the emulator's page (emulator/ui/: React, its one stylesheet, its HTML) into a folder of
// three files, index.html, app.js and app.css, with esbuild (a dev dependency: only building needs
// it). React is inlined into app.js, so the page loads nothing from anywhere but the emulator, and
// no app that imports stackkit or stackkit/react ever loads any of it. Where the files go:
// - `npm run build` (tsdown.config.ts): dist/emulator-ui/, shipped in the package beside the server;
// - from the sources (scripts/lib/emulator-source.mjs, the tests): beside the server module that
//   serves them, which looks for them in `emulator-ui/` next to itself (emulator/page-files.ts).

import { copyFileSync, mkdirSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const source = path.join(root, "emulator/ui");

/**
 * Builds the page into `outDir` (made if missing); each file is written through a temporary
 * file and a rename, so that a server reading it, or a second build at once, never sees half a file.
 * @param {string} outDir
 * @returns {Promise<string[]>} the files written
 */
export async function buildEmulatorPage(outDir) {
  mkdirSync(outDir, { recursive: true });
  const result = await build({
    entryPoints: { app: path.join(source, "main.tsx"), style: path.join(source, "app.css") },
    outdir: outDir,
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    jsx: "automatic",
    define: { "process.env.NODE_ENV": '"production"' },
    legalComments: "eof",
    logLevel: "error",
    write: false,
  });
  const written = [];
  for (const file of result.outputFiles) {
    // The stylesheet's entry is named apart from the script's: both would be app.*, which esbuild refuses.
    const name = path.basename(file.path) === "style.css" ? "app.css" : path.basename(file.path);
    written.push(put(path.join(outDir, name), file.contents));
  }
  const html = path.join(outDir, "index.html");
  copyFileSync(path.join(source, "index.html"), `${html}.${process.pid}.tmp`);
  renameSync(`${html}.${process.pid}.tmp`, html);
  written.push(html);
  return written;
}

/** @param {string} file @param {Uint8Array} contents */
function put(file, contents) {
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, contents);
  renameSync(temporary, file);
  return file;
}
