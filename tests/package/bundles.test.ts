// The package entries bundled as apps bundle them (esbuild, one file and code
// split, with the package's sideEffects: false): every export is defined when
// the bundle is loaded, and the app classes construct. A module reached only
// through `export *` and also loaded on demand can lose its initialisation in a
// bundle, leaving a class undefined; this is the test that says so.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";
import { afterAll, describe, expect, it } from "vitest";
import * as source from "../../runtime/index.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const out = mkdtempSync(join(tmpdir(), "stackkit-bundles-"));
afterAll(() => rmSync(out, { recursive: true, force: true }));

const APP = `
  import { StackAdminApp, StackClientApp, StackServerApp } from "./runtime/index.ts";
  const common = { projectId: "p", publishableClientKey: "k", tokenStore: "memory", noAutomaticPrefetch: true };
  export const made = [
    new StackClientApp(common),
    new StackServerApp({ ...common, secretServerKey: "s" }),
    new StackAdminApp({ ...common, secretServerKey: "s", superSecretAdminKey: "a" }),
  ].map((app) => typeof app.getUser);
`;

/** The entry itself bundled (`entry`), or an app that imports the classes by name. */
async function bundled(splitting: boolean, what: "entry" | "app"): Promise<Record<string, unknown>> {
  const dir = join(out, `${what}-${splitting ? "split" : "one-file"}`);
  await build({
    ...(what === "entry"
      ? { entryPoints: { app: join(root, "runtime/index.ts") } }
      : { stdin: { contents: APP, resolveDir: root, loader: "ts", sourcefile: "app.ts" } }),
    bundle: true,
    format: "esm",
    platform: "neutral",
    mainFields: ["module", "main"],
    splitting,
    outdir: dir,
    entryNames: "app",
    logLevel: "silent",
  });
  writeFileSync(join(dir, "package.json"), '{ "type": "module" }');
  return (await import(pathToFileURL(join(dir, "app.js")).href)) as Record<string, unknown>;
}

const definedExports = (module: Record<string, unknown>) =>
  Object.keys(module)
    .filter((name) => name !== "made" && module[name] !== undefined)
    .sort();

describe.each([false, true])("the runtime entry bundled by esbuild (splitting: %s)", (splitting) => {
  it("defines every export the sources do", async () => {
    expect(definedExports(await bundled(splitting, "entry"))).toEqual(definedExports(source as Record<string, unknown>));
  });

  it("constructs the app classes an app imports by name", async () => {
    expect((await bundled(splitting, "app"))["made"]).toEqual(["function", "function", "function"]);
  });
});
