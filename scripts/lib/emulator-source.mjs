// @ts-check
// Runs the emulator from its TypeScript sources without a build step and
// without a TypeScript loader: esbuild (a dev dependency) bundles one entry of
// emulator/ into node_modules/.cache/stackkit/ (libraries stay imports, so they
// resolve from node_modules), in some tens of milliseconds, and Node imports
// the result; the emulator's page is built beside it (emulator-ui/), where the
// server looks for it. Used by `make emulator`, `make demo` and the bin smoke test.

import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";
import { buildEmulatorPage } from "./emulator-page.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const cacheDir = path.join(root, "node_modules/.cache/stackkit");

/**
 * Bundles emulator/<name>.ts and returns the file written.
 * @param {"server" | "bin"} name
 */
export async function bundleEmulator(name) {
  mkdirSync(cacheDir, { recursive: true });
  const outfile = path.join(cacheDir, `emulator-${name}.mjs`);
  // The server serves its page from `emulator-ui/` beside itself (emulator/page-files.ts).
  const page = buildEmulatorPage(path.join(cacheDir, "emulator-ui"));
  const result = await build({
    entryPoints: [path.join(root, `emulator/${name}.ts`)],
    outfile,
    bundle: true,
    platform: "node",
    target: "node20",
    format: "esm",
    packages: "external",
    logLevel: "error",
    write: false,
  });
  // Through a temporary file and a rename: processes bundling at once never import half a file.
  const temporary = `${outfile}.${process.pid}.tmp`;
  writeFileSync(temporary, /** @type {import("esbuild").OutputFile} */ (result.outputFiles[0]).contents);
  renameSync(temporary, outfile);
  await page;
  return outfile;
}

/** emulator/server.ts, from source. @returns {Promise<typeof import("../../emulator/server.ts")>} */
export async function importEmulatorServer() {
  return import(pathToFileURL(await bundleEmulator("server")).href);
}
