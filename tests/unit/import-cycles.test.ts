// The runtime's modules stand in floors: none imports, even for a type, a
// module that imports it back, except a server user listing its teams and a
// server team listing its users (server-user.ts, server-team.ts and
// user-teams.ts, which hands the user its team methods). A dynamic import()
// is a lazy seam, read when the call that needs it runs, so it is no edge
// here: that is how the client app reaches the admin app, for the projects a
// user of the internal project owns, and how objects load their calls.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, posix } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url));
const files = readdirSync(join(root, "runtime"), { recursive: true, encoding: "utf8" })
  .filter((f) => /\.ts$/.test(f))
  .map((f) => `runtime/${f.split("\\").join("/")}`);

/** The runtime modules `file` imports statically: `import … from`, `export … from` and `import "…"`, types included. */
function staticImportsOf(file: string): string[] {
  const text = readFileSync(join(root, file), "utf8");
  const specifiers = [...text.matchAll(/(?:\bfrom\s*|^\s*import\s*)["'](\.[^"']+)["']/gm)].map((m) => m[1]!);
  return specifiers.map((s) => posix.normalize(posix.join(dirname(file), s)).replace(/\.js$/, ".ts")).filter((f) => files.includes(f));
}

const graph = new Map(files.map((f) => [f, staticImportsOf(f)]));

/** The groups of modules that import each other in a loop (Tarjan's strongly connected components of more than one module). */
function circles(): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    for (const w of graph.get(v)!) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (stack.includes(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const group: string[] = [];
    let w: string;
    do group.push((w = stack.pop()!));
    while (w !== v);
    if (group.length > 1) found.push(group.sort());
  };
  for (const f of files) if (!index.has(f)) visit(f);
  return found;
}

/** Every module `from` reaches through static imports. */
function reachedFrom(from: string): Set<string> {
  const seen = new Set<string>();
  const walk = (f: string) => {
    if (seen.has(f)) return;
    seen.add(f);
    graph.get(f)!.forEach(walk);
  };
  walk(from);
  return seen;
}

describe("the runtime's import graph", () => {
  it("has no circle but a server user listing its teams and a server team listing its users", () => {
    expect(circles()).toEqual([
      ["runtime/app/server/server-team.ts", "runtime/app/server/server-user.ts", "runtime/app/server/user-teams.ts"],
    ]);
  });

  it("leads from the client app to no server or admin app, nor to token verification", () => {
    const reached = reachedFrom("runtime/app/client-app.ts");
    expect(reached.has("runtime/app/client-app.ts")).toBe(true);
    expect(
      ["runtime/app/server-app.ts", "runtime/app/admin-app.ts", "runtime/sessions/verify/verify.ts"].filter((f) => reached.has(f)),
    ).toEqual([]);
  });

  it("leads from no object to the admin app: the apps hand owned projects their admin apps", () => {
    const objects = files.filter((f) => f.startsWith("runtime/app/objects/"));
    expect(objects.filter((f) => reachedFrom(f).has("runtime/app/admin-app.ts"))).toEqual([]);
  });
});
