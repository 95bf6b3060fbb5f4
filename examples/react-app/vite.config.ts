// The example app is built from the repository's sources: `stackkit` and
// `stackkit/react` point at runtime/ and react/, and React, React Query and the
// runtime's dependencies resolve from the root node_modules (no install of its own).
import react from "@vitejs/plugin-react";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

const here = (relative: string) => fileURLToPath(new URL(relative, import.meta.url));

export default defineConfig({
  root: here("."),
  plugins: [react()],
  resolve: {
    alias: [
      { find: /^stackkit\/react$/, replacement: here("../../react/index.ts") },
      { find: /^stackkit$/, replacement: here("../../runtime/index.ts") },
    ],
    // One React however the aliased sources import it.
    dedupe: ["react", "react-dom", "@tanstack/react-query"],
  },
  // `vite` (the dev server) and `vite preview` listen on this machine only.
  server: { host: "127.0.0.1", port: 5173, fs: { allow: [here("../..")] } },
  preview: { host: "127.0.0.1", port: 4173 },
  build: { outDir: "dist", emptyOutDir: true, sourcemap: true },
});
