#!/usr/bin/env node
// @ts-check
// Builds the example React app (examples/react-app) against a given Stack Auth
// project (by default the emulator's demo project) and serves the build from
// 127.0.0.1 only. Used by `make demo`, `make example` and the browser tests
// (tests/browser).
//
// The server is a plain static one with a single-page-app fallback: every path
// that is not a file of the build (/handler/sign-in, /handler/oauth-callback?…)
// gets index.html, and the app's own router picks the page.
// Usage: node scripts/serve-example.mjs [--api-url http://127.0.0.1:8102] [--project-id id --publishable-client-key key]
//        [--port 5173] [--out dir] [--build-only]

import { createReadStream, statSync } from "node:fs";
import { createServer } from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const EXAMPLE_DIR = path.join(root, "examples/react-app");
/** Where `make emulator` listens. */
export const DEFAULT_API_URL = "http://127.0.0.1:8102";

/** The emulator's demo project (emulator/engine/seed.ts), which the example uses when given no other. */
export const EMULATOR_DEMO_PROJECT = {
  projectId: "6f4a3c2e-0b1d-4e5f-9a8b-7c6d5e4f3a2b",
  publishableClientKey: "pck_example_publishable_client_key",
};

/**
 * `vite build` of the example app for one project: its API's origin, id and
 * publishable client key are baked into the bundle, as a customer's build does
 * (examples/react-app/vite.config.ts). All three are set here, so that a .env
 * left in the example's folder cannot point a test build at another project.
 * @param {{ apiUrl: string, projectId?: string, publishableClientKey?: string, outDir?: string, quiet?: boolean }} options
 * @returns {Promise<string>} the folder holding the build
 */
export async function buildExample(options) {
  const { build } = await import("vite");
  const outDir = options.outDir ?? path.join(EXAMPLE_DIR, "dist");
  const settings = {
    STACK_API_URL: options.apiUrl,
    STACK_PROJECT_ID: options.projectId ?? EMULATOR_DEMO_PROJECT.projectId,
    STACK_PUBLISHABLE_CLIENT_KEY: options.publishableClientKey ?? EMULATOR_DEMO_PROJECT.publishableClientKey,
  };
  await build({
    configFile: path.join(EXAMPLE_DIR, "vite.config.ts"),
    root: EXAMPLE_DIR,
    logLevel: options.quiet ? "error" : "info",
    define: Object.fromEntries(Object.entries(settings).map(([name, value]) => [`import.meta.env.${name}`, JSON.stringify(value)])),
    build: { outDir, emptyOutDir: true },
  });
  return outDir;
}

/** @type {Record<string, string>} */
const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".json": "application/json",
  ".map": "application/json",
  ".txt": "text/plain; charset=utf-8",
};

/** @param {string} file */
function isFile(file) {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/**
 * Serves `dir` on 127.0.0.1:`port` (0: a free port). Unknown paths get index.html.
 * @param {string} dir
 * @param {{ port?: number }} [options]
 * @returns {Promise<{ port: number, url: string, close: () => Promise<void> }>}
 */
export function serveStatic(dir, options = {}) {
  const base = path.resolve(dir);
  const server = createServer((req, res) => {
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.writeHead(405, { allow: "GET, HEAD" }).end();
      return;
    }
    let pathname;
    try {
      pathname = decodeURIComponent(new URL(req.url ?? "/", "http://localhost").pathname);
    } catch {
      res.writeHead(400).end();
      return;
    }
    // Resolved and checked, so that `..` cannot leave the build folder.
    const candidate = path.resolve(base, `.${pathname}`);
    const inside = candidate === base || candidate.startsWith(base + path.sep);
    const file = inside && isFile(candidate) ? candidate : path.join(base, "index.html");
    const type = TYPES[path.extname(file)] ?? "application/octet-stream";
    // Hashed assets never change; the page itself must always be fresh.
    const cache = file.includes(`${path.sep}assets${path.sep}`) ? "public, max-age=31536000, immutable" : "no-cache";
    res.writeHead(200, { "content-type": type, "cache-control": cache });
    if (req.method === "HEAD") res.end();
    else createReadStream(file).pipe(res);
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      resolve({
        port,
        // localhost, not 127.0.0.1: WebAuthn refuses IP addresses as relying parties.
        url: `http://localhost:${port}/`,
        close: () =>
          new Promise((done) => {
            server.closeAllConnections();
            server.close(() => done(undefined));
          }),
      });
    });
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  /** @param {string} name */
  const arg = (name) => {
    const i = process.argv.indexOf(name);
    return i > 0 ? process.argv[i + 1] : undefined;
  };
  const projectId = arg("--project-id");
  const publishableClientKey = arg("--publishable-client-key");
  const outDir = await buildExample({
    apiUrl: arg("--api-url") ?? DEFAULT_API_URL,
    ...(projectId ? { projectId } : {}),
    ...(publishableClientKey ? { publishableClientKey } : {}),
    outDir: arg("--out") ?? path.join(EXAMPLE_DIR, "dist"),
  });
  if (process.argv.includes("--build-only")) process.exit(0);
  const served = await serveStatic(outDir, { port: Number(arg("--port") ?? 0) });
  console.log(`Example app: ${served.url} (Ctrl-C stops it)`);
  const stop = () => void served.close().then(() => process.exit(0));
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}
