import { defineConfig } from "tsdown";

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
    // shared ~560 KB chunk; each entry's .d.ts imports the chunks it needs. Only
    // declaration modules (`*.d.ts`) are matched, so the JavaScript chunks stay as
    // the bundler splits them; a declaration chunk's name must end in `.d`
    // (rolldown-plugin-dts).
    codeSplitting: {
      groups: [
        { name: "schema.d", test: /[\\/]generated[\\/]schema\.d\.ts$/, priority: 3 },
        { name: "operations.d", test: /[\\/]generated[\\/]operations\.d\.ts$/, priority: 2 },
        { name: "known-errors.d", test: /[\\/]generated[\\/]known-errors\.d\.ts$/, priority: 1 },
      ],
    },
  },
  clean: true,
  outDir: "dist",
});
