// Local verification runs in Node, browsers and edge runtimes: its modules use
// Web APIs and jose (whose one build is the Web Crypto one) and nothing of
// Node's, and reach the app classes for types only, so an edge bundle of it
// carries neither Node builtins nor the apps.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const folder = fileURLToPath(new URL("../../../runtime/sessions/verify", import.meta.url));
const sources = readdirSync(folder)
  .filter((f) => f.endsWith(".ts"))
  .map((f) => [f, readFileSync(join(folder, f), "utf8")] as const);
const valueImports = (text: string) => [...text.matchAll(/^import\s+(?!type\s)[^;]*?from\s+["']([^"']+)["']/gm)].map((m) => m[1]!);

describe("runtime/sessions/verify", () => {
  it.each(sources)("%s imports jose and runtime modules only, none of Node's", (_, text) => {
    for (const specifier of valueImports(text)) expect(specifier).toMatch(/^(jose|\.\.?\/[\w./-]+\.js)$/);
  });

  it.each(sources)("%s imports the app classes for types only", (_, text) => {
    expect(valueImports(text).filter((specifier) => specifier.includes("/app/"))).toEqual([]);
  });

  it("jose resolves to its Web Crypto build whatever the runtime", () => {
    const pkg = JSON.parse(readFileSync(fileURLToPath(new URL("../../../node_modules/jose/package.json", import.meta.url)), "utf8"));
    expect(pkg.exports["."]).toEqual({ types: "./dist/types/index.d.ts", default: "./dist/webapi/index.js" });
  });
});
