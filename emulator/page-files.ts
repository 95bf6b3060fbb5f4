// The emulator page's built files on disk (Node only): in `emulator-ui/` beside this module,
// which is dist/emulator-ui/ in the package (`npm run build` puts them there) and, from the
// repository's sources, wherever the scripts and tests that run them built them
// (scripts/lib/emulator-page.mjs). Read on each request: a rebuild shows at the next reload.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { PageFiles } from "./page.js";

/** The folder the page's files are looked for in: `emulator-ui/` beside this module. */
export function pageDirectory(): string {
  return path.join(path.dirname(fileURLToPath(import.meta.url)), "emulator-ui");
}

export function pageFilesIn(directory: string = pageDirectory()): PageFiles {
  return {
    read(name) {
      try {
        return new Uint8Array(readFileSync(path.join(directory, path.basename(name))));
      } catch {
        return undefined;
      }
    },
  };
}
