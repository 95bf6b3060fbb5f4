import { readFileSync } from "node:fs";
import { defineConfig } from "tsdown";
import { buildEmulatorPage } from "./scripts/lib/emulator-page.mjs";

/**
 * The modules stackkit/react takes values from (errors, Result, the session-ended
 * test, the reads' paths), with what they import: none of them reaches a lazy loader.
 */
const BASE = [
  "/runtime/errors.ts",
  "/runtime/http/request-errors.ts",
  "/runtime/app/result.ts",
  "/runtime/sessions/session-ended.ts",
  "/runtime/app/bound-session.ts",
  "/runtime/sessions/tokens/store.ts",
  "/generated/read-operations.ts",
  "/generated/known-error-guard.ts",
  "/generated/known-errors.ts",
];

/** The service's message templates, which only the emulator and stackkit/testing import. */
const MESSAGES = /[\\/]generated[\\/]known-error-messages\.ts$/;

/** Whether a module holds a dynamic `import()`: a lazy loader. */
const loadsLazily = (id: string): boolean => /\bimport\(/.test(readFileSync(id, "utf8"));

// One build, so that entries share their chunks (an app and its tests that import
// `stackkit` and `stackkit/testing` get the same classes). Kept apart:
// - `stackkit` never pulls in React (`stackkit/react`);
// - `stackkit/emulator` (in-process, also behind msw in a browser) imports no
//   node: module; the HTTP server (`stackkit/emulator/server`) and the
//   `stackkit-emulator` bin are Node-only entries of their own.
//
// `npm run build` runs this; `prepack` runs `npm run build`, so `npm pack` and
// `npm publish` never ship without `dist/`.
export default defineConfig({
  entry: {
    index: "runtime/index.ts",
    react: "react/index.ts",
    emulator: "emulator/index.ts",
    "emulator-server": "emulator/server.ts",
    "emulator-bin": "emulator/bin.ts",
    testing: "testing/index.ts",
  },
  format: "esm",
  platform: "neutral",
  deps: {
    // Node's builtins stay imports (only the server and bin use them).
    neverBundle: [/^node:/],
    // Nothing from node_modules is inlined, in code or in declarations: the build fails
    // instead (what is not in dependencies or peerDependencies would end up copied in).
    onlyBundle: [],
  },
  plugins: [
    {
      // tsc writes inferred React Query types as `import("@tanstack/query-core").X`, a package
      // stackkit does not declare (and pnpm would not let a consumer resolve); the declarations
      // would otherwise inline a second copy of it. @tanstack/react-query, the peer dependency,
      // re-exports all of @tanstack/query-core, so the same types are imported from it instead.
      name: "stackkit:query-core-through-react-query",
      resolveId: {
        order: "pre",
        handler: (source) => (source === "@tanstack/query-core" ? { id: "@tanstack/react-query", external: true } : null),
      },
    },
  ],
  // `.js.map` beside each file, with the sources inlined (the package ships no .ts).
  sourcemap: true,
  dts: true,
  outputOptions: {
    // Declarations: each generated module (the OpenAPI types, the operation table,
    // the known errors) gets a chunk of its own, named after it, instead of one
    // shared ~560 KB chunk; each entry's .d.ts imports the chunks it needs (a
    // declaration chunk's name must end in `.d`, rolldown-plugin-dts).
    //
    // JavaScript: the runtime as the entries load it statically is two chunks, so
    // that an app's bundler gets its first piece in a few files and the lazy
    // features stay lazy. Bundlers such as esbuild keep a chunk's code together, make
    // every dynamic import() of a chunk an app touches a chunk of its own, and load
    // with the app whatever those lazily loaded chunks use from the app's chunks:
    // - "base", what stackkit/react takes by value; it reaches no lazy loader, so an
    //   app that only makes query options carries neither the app classes nor the
    //   operation table;
    // - "runtime", every other module loaded statically except those holding a lazy
    //   loader (the apps' classes, the sign-in flows' loaders, the verifier): with an
    //   import() in it, every app touching it would get every lazy feature's chunk.
    // Lazily loaded modules, and the modules holding their loaders, are split as
    // the bundler splits them. The service's message templates
    // (generated/known-error-messages.ts) are the emulator's and stackkit/testing's:
    // the runtime does not import them, so they stay out of its chunks.
    codeSplitting: {
      includeDependenciesRecursively: false,
      groups: [
        { name: "schema.d", test: /[\\/]generated[\\/]schema\.d\.ts$/, priority: 3 },
        { name: "operations.d", test: /[\\/]generated[\\/]operations\.d\.ts$/, priority: 2 },
        { name: "known-errors.d", test: /[\\/]generated[\\/]known-errors\.d\.ts$/, priority: 1 },
        { name: "base", test: (id) => BASE.some((module) => id.endsWith(module)), priority: 1 },
        {
          name: "runtime",
          test: (id) => /[\\/](runtime|generated)[\\/].*(?<!\.d)\.ts$/.test(id) && !MESSAGES.test(id) && !loadsLazily(id),
          tags: ["$initial"],
        },
      ],
    },
  },
  clean: true,
  outDir: "dist",
  hooks: {
    // The emulator's page (emulator/ui/, React inlined) is built apart, by esbuild, into dist/emulator-ui/, where the
    // server (a chunk in dist/) looks for it: no entry imports it, so no app that imports stackkit loads any of it.
    "build:done": async () => {
      await buildEmulatorPage("dist/emulator-ui");
    },
  },
});
