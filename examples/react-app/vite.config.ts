// Vite's config of the app. Beyond the defaults it decides two things:
//
// - Which Stack Auth project the app talks to: STACK_PROJECT_ID,
//   STACK_PUBLISHABLE_CLIENT_KEY and STACK_API_URL, from the environment or a
//   .env file beside this one (see .env.example). Exactly these three are put
//   into the bundle, and nothing else of the environment: a secret server key
//   left in the same .env by mistake never reaches a browser. Unset, the app
//   uses the local emulator's demo project (src/stack.ts).
//
// - Where `stackkit` comes from. Copied out on its own, it is the installed
//   package. Inside the stackkit repository (examples/react-app) it is the
//   repository's sources, so the app always runs the SDK beside it, without a
//   build or an install of its own; React and the rest resolve from the
//   repository's node_modules.
import react from "@vitejs/plugin-react";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { defineConfig, loadEnv, type UserConfig } from "vite";

const here = (relative: string) => fileURLToPath(new URL(relative, import.meta.url));

/** The settings the browser may see; `VITE_`-prefixed names are read too, as older setups spelled them. */
const PUBLIC_SETTINGS = ["STACK_PROJECT_ID", "STACK_PUBLISHABLE_CLIENT_KEY", "STACK_API_URL"] as const;

function insideStackkitRepository(): boolean {
  try {
    const parent = JSON.parse(readFileSync(here("../../package.json"), "utf8")) as { name?: unknown };
    return parent.name === "stackkit" && existsSync(here("../../runtime/index.ts"));
  } catch {
    return false;
  }
}

/** The repository's sources in place of the package, and one React however they import it. */
function repositorySources(): UserConfig {
  return {
    resolve: {
      alias: [
        { find: /^stackkit\/react$/, replacement: here("../../react/index.ts") },
        { find: /^stackkit$/, replacement: here("../../runtime/index.ts") },
      ],
      dedupe: ["react", "react-dom", "@tanstack/react-query"],
    },
    server: { fs: { allow: [here("../..")] } },
  };
}

export default defineConfig(({ mode }) => {
  const env = loadEnv(mode, here("."), ["STACK_", "VITE_STACK_"]);
  const define = Object.fromEntries(
    PUBLIC_SETTINGS.map((name) => [`import.meta.env.${name}`, JSON.stringify(env[name] || env[`VITE_${name}`] || "")]),
  );
  const repository = insideStackkitRepository() ? repositorySources() : {};
  return {
    root: here("."),
    plugins: [react()],
    define,
    resolve: repository.resolve ?? {},
    // `vite` (the dev server) and `vite preview` listen on this machine only; open http://localhost:5173/
    // (passkeys refuse an IP address as the page's origin).
    server: { host: "127.0.0.1", port: 5173, ...repository.server },
    preview: { host: "127.0.0.1", port: 4173 },
    build: { outDir: "dist", emptyOutDir: true, sourcemap: true },
  };
});
