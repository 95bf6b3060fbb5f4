// The floors of the design: openapi → generated → runtime and emulator →
// react and testing, nothing pointing back up, runtime and emulator never
// importing each other, the runtime entry free of React, and react/ standing
// on the runtime's public entry only.
import { readdirSync, readFileSync } from "node:fs";
import { join, posix } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { VERSION } from "../../runtime/version.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
function sources(folder: string): [string, string][] {
  return readdirSync(join(root, folder), { recursive: true, encoding: "utf8" })
    .filter((f) => /\.tsx?$/.test(f))
    .map((f) => [`${folder}/${f}`, readFileSync(join(root, folder, f), "utf8")]);
}
const importsOf = (text: string) => [...text.matchAll(/(?:from|import)\s*\(?\s*["']([^"']+)["']/g)].map((m) => m[1]!);

describe("imports", () => {
  it.each(sources("generated"))("%s imports nothing from runtime/ or react/", (_, text) => {
    expect(importsOf(text).filter((i) => /runtime|react/.test(i))).toEqual([]);
  });

  it.each(sources("runtime"))("%s imports neither React nor react/", (_, text) => {
    expect(importsOf(text).filter((i) => /^react|@tanstack|\.\.\/react\//.test(i))).toEqual([]);
  });

  it.each(sources("runtime"))("%s imports nothing from emulator/ or testing/", (_, text) => {
    expect(importsOf(text).filter((i) => /(^|\/)(emulator|testing)\//.test(i))).toEqual([]);
  });

  // stackkit/react is built on what `stackkit` exports: its types come through the
  // entry, so every type in its signatures is one an app can name. A value may be
  // imported from the module that defines it (a bundler then need not touch the
  // whole entry for one error class), but only a value the entry exports too.
  it.each(sources("react"))("%s takes types through the runtime's entry, and only values the entry exports", async (_, text) => {
    const entry: Record<string, unknown> = await import("../../runtime/index.js");
    const statements = [...text.matchAll(/import\s+(type\s+)?\{([^}]*)\}\s*from\s*["']([^"']+)["']/g)];
    const outside = statements.filter(
      ([, , , from]) => /(^|\/)(runtime|generated)\//.test(from!) && !/^(\.\.\/)+runtime\/index\.js$/.test(from!),
    );
    for (const [statement, typeOnly, names] of outside) {
      expect(typeOnly, statement).toBeUndefined();
      for (const name of names!
        .split(",")
        .map((n) => n.trim())
        .filter(Boolean)) {
        expect(name.startsWith("type "), statement).toBe(false);
        expect(Object.hasOwn(entry, name.split(/\s+as\s+/)[0]!), `${name} in ${statement}`).toBe(true);
      }
    }
  });

  // The emulator stands beside the runtime: generated/ and libraries only, never
  // runtime/ or react/; and all of it but the Node server, its data file, the files
  // of its page and the bin stays free of Node's builtins, so that it also runs
  // behind msw in a browser.
  const emulatorSources = sources("emulator");
  const page = (file: string) => file.startsWith("emulator/ui/");
  it.each(emulatorSources.filter(([file]) => !page(file)))("%s imports only generated/, its own modules and libraries", (file, text) => {
    const imports = importsOf(text);
    expect(imports.filter((i) => /(^|\/)(runtime|react|testing|tests)\//.test(i) || /^react|@tanstack/.test(i))).toEqual([]);
    if (!/^emulator\/(server|data-file|page-files|bin)\.ts$/.test(file)) expect(imports.filter((i) => i.startsWith("node:"))).toEqual([]);
  });

  // The emulator's page (emulator/ui/) is a browser app on the control API, a floor
  // above the emulator: React, its own modules, and the emulator's types, nothing else.
  it.each(emulatorSources.filter(([file]) => page(file)))(
    "%s imports React, its own modules and the emulator's types only",
    (file, text) => {
      const values = [...text.matchAll(/import\s+(?!type\s)[^"']*?from\s*["']([^"']+)["']/g)].map((m) => m[1]!);
      const outsidePage = (i: string) => i.startsWith(".") && !page(posix.join(posix.dirname(file), i));
      expect(values.filter((i) => (!i.startsWith(".") && !/^(react|react-dom\/client)$/.test(i)) || outsidePage(i))).toEqual([]);
      expect(importsOf(text).filter((i) => i.startsWith("node:") || /(^|\/)(runtime|testing|tests)\/|^@tanstack/.test(i))).toEqual([]);
    },
  );
});

describe("the client version header", () => {
  it("names this package at its package.json version", () => {
    const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string };
    expect(VERSION).toBe(pkg.version);
  });
});

describe("the package's side effects", () => {
  it("are none: the entry only re-exports, so bundlers keep only what an app imports", () => {
    const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { sideEffects: unknown };
    expect(pkg.sideEffects).toBe(false);
    const statements = readFileSync(join(root, "runtime/index.ts"), "utf8")
      .replace(/\/\*[\s\S]*?\*\//g, "")
      .replace(/\/\/.*$/gm, "")
      .split(/;\s*/)
      .map((s) => s.trim())
      .filter((s) => s !== "");
    expect(statements.filter((s) => !/^export\b[\s\S]*\bfrom\s+"[^"]+"$/.test(s))).toEqual([]);
  });
});
