import { defineConfig } from "tsdown";

// Two entries, kept apart so that `stackkit` never pulls in React.
export default defineConfig({
  entry: { index: "runtime/index.ts", react: "react/index.ts" },
  format: "esm",
  platform: "neutral",
  dts: true,
  clean: true,
  outDir: "dist",
});
