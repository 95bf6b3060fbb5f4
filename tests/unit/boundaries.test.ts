// The floors of the design: openapi → generated → runtime → react, nothing
// pointing back up, and the runtime entry free of React.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
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
});

describe("the client version header", () => {
  it("names this package at its package.json version", () => {
    const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string };
    expect(VERSION).toBe(pkg.version);
  });
});
