// The package as a customer gets it: `npm pack` (which builds, through
// `prepack`), the tarball installed into a temporary project outside the
// repository without the network, then each entry imported by Node, the
// declarations type-checked under `moduleResolution` NodeNext and Bundler with
// this repository's tsc, and a browser app bundled with this repository's Vite.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { installConsumer, npmRegistry, root, run, said, writeConsumerProject, type Run } from "./consumer.js";

const pkg = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as {
  name: string;
  version: string;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
};
const tsc = path.join(root, "node_modules/typescript/bin/tsc");
const vite = path.join(root, "node_modules/vite/bin/vite.js");
const attw = path.join(root, "node_modules/@arethetypeswrong/cli/dist/index.js");
const publint = path.join(root, "node_modules/publint/src/cli.js");

let work = "";
let project = "";
let tarball = "";
let contents: string[] = [];
const timings: Record<string, number> = {};

beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), "stackkit-tarball-"));
  project = path.join(work, "consumer");

  // `npm pack` runs `prepack` (`npm run build`): the tarball can never miss dist/.
  const [pack, registry] = await Promise.all([
    run("npm", ["pack", "--pack-destination", work, "--no-update-notifier"], root),
    npmRegistry(),
  ]);
  timings.pack = pack.ms;
  expect(pack.code, said(pack)).toBe(0);
  const name = readdirSync(work).find((file) => file.endsWith(".tgz"));
  expect(name, said(pack)).toBe(`${pkg.name}-${pkg.version}.tgz`);
  tarball = path.join(work, name!);
  const list = await run("tar", ["-tzf", tarball], work);
  contents = list.stdout
    .split("\n")
    .filter(Boolean)
    .map((file) => file.replace(/^package\//, ""));

  writeConsumerProject(project, tarball, registry);
  const { install, offline } = await installConsumer(project);
  timings.install = install.ms;
  expect(install.code, said(install)).toBe(0);
  if (!offline) console.warn("[tests/package] the consumer project was installed with the network allowed");
  writeFixtures(project);
}, 120_000);

afterAll(() => {
  // STACKKIT_KEEP_TARBALL=1 keeps the tarball and the consumer project, to look into a failure.
  if (work && !process.env.STACKKIT_KEEP_TARBALL) rmSync(work, { recursive: true, force: true });
  else if (work) console.log(`[tests/package] kept ${work}`);
  console.log(
    `[tests/package] ${Object.entries(timings)
      .map(([step, ms]) => `${step} ${(ms / 1000).toFixed(1)} s`)
      .join(", ")}`,
  );
});

describe("the packed tarball", () => {
  it("holds the build, its source maps, the bundled document, the licence and the README, and no sources", () => {
    for (const file of ["package.json", "LICENSE", "README.md", "generated/openapi.json"]) expect(contents).toContain(file);
    for (const entry of ["index", "react", "emulator", "emulator-server", "emulator-bin", "testing"]) {
      expect(contents).toContain(`dist/${entry}.js`);
      expect(contents).toContain(`dist/${entry}.d.ts`);
    }
    // The emulator's page, beside the server that serves it (React inlined in its one script).
    for (const file of ["index.html", "app.js", "app.css"]) expect(contents).toContain(`dist/emulator-ui/${file}`);
    // Every file that names a source map ships it (re-export-only entries have none).
    const dist = path.join(project, "node_modules/stackkit/dist");
    const maps = readdirSync(dist)
      .filter((file) => file.endsWith(".js"))
      .flatMap((file) => /\/\/# sourceMappingURL=(\S+)\s*$/.exec(readFileSync(path.join(dist, file), "utf8"))?.[1] ?? []);
    expect(maps.length).toBeGreaterThan(3);
    for (const map of maps) expect(contents).toContain(`dist/${map}`);
    // Nothing from node_modules is copied in, neither code nor declarations (tsdown's deps.onlyBundle: []).
    const inlined = readdirSync(dist).filter(
      (file) => /\.(js|d\.ts)$/.test(file) && readFileSync(path.join(dist, file), "utf8").includes("//#region node_modules/"),
    );
    expect(inlined).toEqual([]);
    expect(contents.filter((file) => /\.(ts|tsx|mts)$/.test(file) && !file.endsWith(".d.ts"))).toEqual([]);
    expect(contents.filter((file) => /^(tests|runtime|react|emulator|testing|scripts|openapi|examples)\//.test(file))).toEqual([]);
  });

  it("imports, in its built code, only Node's modules and the packages it declares", async () => {
    const dist = path.join(project, "node_modules/stackkit/dist");
    const result = await build({
      entryPoints: readdirSync(dist)
        .filter((file) => file.endsWith(".js"))
        .map((file) => path.join(dist, file)),
      bundle: true,
      write: false,
      metafile: true,
      outdir: path.join(work, "esbuild"),
      format: "esm",
      platform: "neutral",
      packages: "external",
      logLevel: "silent",
    });
    const bare = new Set<string>();
    for (const input of Object.values(result.metafile.inputs)) {
      for (const { path: specifier, external } of input.imports) if (external) bare.add(specifier);
    }
    const declared = new Set([...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.peerDependencies ?? {})]);
    const packageOf = (specifier: string) =>
      specifier
        .split("/")
        .slice(0, specifier.startsWith("@") ? 2 : 1)
        .join("/");
    const undeclared = [...bare].filter((s) => !s.startsWith("node:") && !builtinModules.includes(s) && !declared.has(packageOf(s)));
    expect(undeclared).toEqual([]);
  });

  // The same checks as `npm run check-package`, on this tarball. stackkit is ESM-only: attw leaves
  // out `require` from CommonJS under node16 only; node10 (a tsconfig's "moduleResolution": "Node")
  // finds every entry's types through `types` and `typesVersions`.
  it("passes publint (strict) and Are the Types Wrong (node10, node16 from ESM, bundler)", async () => {
    const [lint, types] = await Promise.all([
      run(process.execPath, [publint, "run", tarball, "--strict"], work),
      run(process.execPath, [attw, tarball, "--ignore-rules", "cjs-resolves-to-esm", "--format", "ascii"], work),
    ]);
    timings.checks = Math.max(lint.ms, types.ms);
    expect(lint.code, said(lint)).toBe(0);
    expect(lint.stdout).toContain("All good!");
    expect(types.code, said(types)).toBe(0);
    expect(types.stdout).toContain("(ignoring rules: 'cjs-resolves-to-esm')");
    expect(types.stdout).not.toMatch(/^(node10|node16 \(from ESM\)|bundler): (?!🟢)/m);
  }, 60_000);
});

describe("installed in a project", () => {
  it("runs in Node ESM: every entry imports, and the emulator serves a sign-in over HTTP", { timeout: 60_000 }, async () => {
    const node = await run(process.execPath, ["node-smoke.mjs"], project);
    timings.node = node.ms;
    expect(node.code, said(node)).toBe(0);
    expect(JSON.parse(node.stdout.trim().split("\n").at(-1)!)).toEqual({
      StackClientApp: "function",
      KnownErrors: "object",
      StackProvider: "function",
      useUser: "function",
      createEmulator: "function",
      startEmulatorServer: "function",
      startEmulator: "function",
      openapi: expect.stringMatching(/^3\.1/),
      version: pkg.version,
      signedIn: true,
    });
    const bin = await run(path.join(project, "node_modules/.bin/stackkit-emulator"), ["--help"], project);
    expect(bin.code, said(bin)).toBe(0);
    expect(bin.stdout).toContain("Usage: stackkit-emulator");
  });

  // NodeNext (a Node project) checks every declaration file (skipLibCheck off: stackkit's, and
  // what they pull in); Bundler (a browser app, with the DOM library) skips library checks, which
  // is much faster, and relies on the @ts-expect-error in src/index.ts to notice declarations
  // that fail to resolve (they would turn into `any`).
  it("type-checks with moduleResolution NodeNext and Bundler", async () => {
    const [nodeNext, bundler] = await Promise.all(
      ["tsconfig.nodenext.json", "tsconfig.bundler.json"].map((config) => run(process.execPath, [tsc, "-p", config], project)),
    );
    timings.tsc = Math.max(nodeNext!.ms, bundler!.ms);
    expect(nodeNext!.code, `NodeNext: ${said(nodeNext!)}`).toBe(0);
    expect(bundler!.code, `Bundler: ${said(bundler!)}`).toBe(0);
  }, 90_000);

  it("bundles for the browser with Vite, with no Node module pulled in", { timeout: 60_000 }, async () => {
    const bundle: Run = await run(process.execPath, [vite, "build", "--logLevel", "warn"], path.join(project, "web"));
    timings.vite = bundle.ms;
    expect(bundle.code, said(bundle)).toBe(0);
    expect(bundle.stdout + bundle.stderr).not.toMatch(/externalized for browser compatibility|__vite-browser-external/);
    const assets = path.join(project, "web/dist/assets");
    expect(existsSync(assets)).toBe(true);
    const code = readdirSync(assets)
      .filter((file) => file.endsWith(".js"))
      .map((file) => readFileSync(path.join(assets, file), "utf8"))
      .join("\n");
    expect(code).toContain("stack-access"); // the runtime's cookie name: stackkit is in the bundle
    expect(code).not.toMatch(/from\s*["']node:/);
  });
});

/** The consumer's own files: a Node script, two tsconfigs over typed usage, and a Vite app. */
function writeFixtures(dir: string): void {
  const write = (file: string, text: string) => {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  };

  write(
    "node-smoke.mjs",
    `import * as core from "stackkit";
import * as react from "stackkit/react";
import * as emulatorEntry from "stackkit/emulator";
import * as server from "stackkit/emulator/server";
import * as testing from "stackkit/testing";
import doc from "stackkit/openapi.json" with { type: "json" };
import pkg from "stackkit/package.json" with { type: "json" };

const emulator = await testing.startEmulator({ http: true });
let signedIn = false;
try {
  const app = testing.appsFor(emulator).client();
  const user = await testing.createTestUser(emulator);
  await testing.signInAs(app, user);
  signedIn = (await app.getUser())?.primaryEmail === user.email;
} finally {
  await emulator.close();
}
console.log(JSON.stringify({
  StackClientApp: typeof core.StackClientApp,
  KnownErrors: typeof core.KnownErrors,
  StackProvider: typeof react.StackProvider,
  useUser: typeof react.useUser,
  createEmulator: typeof emulatorEntry.createEmulator,
  startEmulatorServer: typeof server.startEmulatorServer,
  startEmulator: typeof testing.startEmulator,
  openapi: doc.openapi,
  version: pkg.version,
  signedIn,
}));
`,
  );

  write(
    "src/index.ts",
    `import { KnownErrors, StackClientApp, StackServerApp, type AdminOwnedProject, type CurrentUser, type StackAdminApp } from "stackkit";
import { createEmulator } from "stackkit/emulator";
import { startEmulatorServer } from "stackkit/emulator/server";
import { appsFor, createTestUser, signInAs, startEmulator } from "stackkit/testing";

export const app = new StackClientApp({ projectId: "p", publishableClientKey: "k", tokenStore: "memory" });
export const server = new StackServerApp({ projectId: "p", publishableClientKey: "k", secretServerKey: "s", tokenStore: "memory" });

export async function signIn(email: string, password: string): Promise<"ok" | "wrong password" | "other"> {
  const result = await app.signInWithCredential({ email, password });
  if (result.status === "ok") return "ok";
  return result.error instanceof KnownErrors.EmailPasswordMismatch ? "wrong password" : "other";
}

export async function displayName(): Promise<string | null> {
  const user: CurrentUser | null = await app.getUser();
  // @ts-expect-error a display name is a string or null: the declarations resolved, nothing is \`any\`
  const wrong: number = user?.displayName;
  void wrong;
  return user?.displayName ?? null;
}

// An owned project's \`app\` is the admin app in the published declarations too (not \`never\`).
export const ownedApp = (project: AdminOwnedProject): StackAdminApp => project.app;
// @ts-expect-error an admin app is not a number: \`app\` is typed, not \`any\` or \`never\`
export const notANumber = (project: AdminOwnedProject): number => project.app;

export async function journey(): Promise<string> {
  const emulator = await startEmulator();
  try {
    const client = appsFor(emulator).client();
    const user = await createTestUser(emulator);
    await signInAs(client, user);
    return (await client.getUser())?.primaryEmail ?? "";
  } finally {
    await emulator.close();
  }
}

export { createEmulator, startEmulatorServer };
`,
  );

  write(
    "src/app.tsx",
    `import { QueryClient, useQuery } from "@tanstack/react-query";
import type { StackClientApp } from "stackkit";
import { projectQueryOptions, StackProvider, useStackApp, useUser } from "stackkit/react";

function Greeting() {
  const user = useUser({ or: "redirect" });
  const project = useQuery(projectQueryOptions(useStackApp()));
  return <p>Hello, {user.displayName}, on {project.data?.displayName}</p>;
}

// The app's own QueryClient: the declarations use React Query's types, not a copy of them.
const queryClient = new QueryClient();

export const App = ({ app }: { app: StackClientApp }) => (
  <StackProvider app={app} queryClient={queryClient}>
    <Greeting />
  </StackProvider>
);
`,
  );

  const compilerOptions = {
    target: "ES2022",
    lib: ["ES2022", "DOM", "DOM.Iterable"],
    types: ["node"],
    jsx: "react-jsx",
    strict: true,
    skipLibCheck: false,
    noEmit: true,
  };
  // A Node project (no DOM library: the declarations must not need it) and a browser app's.
  const files = ["src/index.ts", "src/app.tsx"];
  write(
    "tsconfig.nodenext.json",
    JSON.stringify({ compilerOptions: { ...compilerOptions, lib: ["ES2022"], module: "NodeNext", moduleResolution: "NodeNext" }, files }),
  );
  write(
    "tsconfig.bundler.json",
    JSON.stringify({ compilerOptions: { ...compilerOptions, module: "ESNext", moduleResolution: "Bundler", skipLibCheck: true }, files }),
  );

  write("web/index.html", `<!doctype html><html><body><div id="root"></div><script type="module" src="/main.js"></script></body></html>\n`);
  write(
    "web/main.js",
    `import { StackClientApp } from "stackkit";
import { StackProvider, useUser } from "stackkit/react";
import { createEmulator } from "stackkit/emulator";
import { createElement } from "react";
import { createRoot } from "react-dom/client";

const app = new StackClientApp({ projectId: "p", publishableClientKey: "k", tokenStore: "cookie" });
function Greeting() {
  const user = useUser();
  return createElement("p", null, user ? user.displayName : "signed out");
}
createRoot(document.getElementById("root")).render(createElement(StackProvider, { app }, createElement(Greeting)));
globalThis.createStackkitEmulator = createEmulator; // the in-process emulator is meant for browsers too
`,
  );
}
