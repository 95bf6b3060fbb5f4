import { defineConfig } from "tsdown";

// One build, so that entries share their chunks (an app and its tests that import
// `stackkit` and `stackkit/testing` get the same classes). Kept apart:
// - `stackkit` never pulls in React (`stackkit/react`);
// - `stackkit/emulator` (in-process, also behind msw in a browser) imports no
//   node: module; the HTTP server (`stackkit/emulator/server`) and the
//   `stackkit-emulator` bin are Node-only entries of their own.
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
  // Node's builtins stay imports (only the server and bin use them).
  external: [/^node:/],
  dts: true,
  clean: true,
  outDir: "dist",
});
