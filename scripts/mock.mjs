#!/usr/bin/env node
// @ts-check
// Serves the embedded default: a local mock of the API, answered by Prism from
// generated/openapi.json, on 127.0.0.1 only.
//
// Prism ignores the path part of `servers[].url`, so the document it is given
// carries `/api/v1` in every path: a client pointed at http://127.0.0.1:<port>
// calls exactly the URLs it would call on the hosted service.
//
// A small proxy in front of Prism plays the two parts of the wire protocol that
// a document cannot make Prism play: `x-stack-known-error` equals the code of
// the body actually served (Prism would send the header's first example, not the
// one matching the chosen body), and a request carrying
// `x-stack-override-error-status` gets its error as HTTP 200 with the real status
// in `x-stack-actual-status`, as the service does.
// Usage: node scripts/mock.mjs [--port 4010]    (prints the base URL, runs until stopped)

import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer as createHttpServer, request as httpRequest } from "node:http";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const API_PREFIX = "/api/v1";

/** The bundled document with every path under /api/v1, as Prism needs it. */
export function mockDocument() {
  const doc = JSON.parse(readFileSync(path.join(root, "generated/openapi.json"), "utf8"));
  doc.paths = Object.fromEntries(Object.entries(doc.paths).map(([p, item]) => [API_PREFIX + p, item]));
  doc.servers = [{ url: "/" }];
  return doc;
}

/** A port the kernel says is free now. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

/**
 * Answers like the service: see the header comment.
 * @param {number} upstreamPort Prism's port
 * @param {number} port
 * @returns {Promise<import("node:http").Server>}
 */
function startProtocolProxy(upstreamPort, port) {
  const server = createHttpServer((req, res) => {
    const upstream = httpRequest(
      { host: "127.0.0.1", port: upstreamPort, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        /** @type {Buffer[]} */
        const chunks = [];
        answer.on("data", (chunk) => chunks.push(chunk));
        answer.on("end", () => {
          const body = Buffer.concat(chunks);
          const headers = { ...answer.headers };
          delete headers["x-stack-known-error"];
          delete headers["x-stack-actual-status"];
          delete headers["content-length"];
          let status = answer.statusCode ?? 502;
          if (status >= 400) {
            const code = knownErrorCode(body);
            if (code) headers["x-stack-known-error"] = code;
            if (req.headers["x-stack-override-error-status"] !== undefined) {
              headers["x-stack-actual-status"] = String(status);
              status = 200;
            }
          }
          res.writeHead(status, { ...headers, "content-length": String(body.length) });
          res.end(body);
        });
      },
    );
    upstream.on("error", (error) => {
      res.writeHead(502, { "content-type": "text/plain" });
      res.end(`mock upstream failed: ${error.message}`);
    });
    req.pipe(upstream);
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve(server));
  });
}

/** @param {Buffer} body */
function knownErrorCode(body) {
  try {
    const parsed = JSON.parse(body.toString("utf8"));
    return typeof parsed?.code === "string" ? parsed.code : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Starts Prism and resolves once it listens.
 * @param {{ port?: number, quiet?: boolean }} [options]
 * @returns {Promise<{ baseUrl: string, port: number, stop: () => Promise<void> }>}
 */
export async function startMock(options = {}) {
  const port = options.port ?? /** @type {number} */ (await freePort());
  const prismPort = /** @type {number} */ (await freePort());
  const dir = mkdtempSync(path.join(tmpdir(), "stackkit-mock-"));
  const file = path.join(dir, "openapi.json");
  writeFileSync(file, JSON.stringify(mockDocument()));
  const child = spawn(
    process.execPath,
    [path.join(root, "node_modules/@stoplight/prism-cli/dist/index.js"), "mock", file, "-h", "127.0.0.1", "-p", String(prismPort)],
    { cwd: root, stdio: ["ignore", "pipe", "pipe"] },
  );
  const cleanup = () => rmSync(dir, { recursive: true, force: true });
  /** @type {Promise<void>} */
  const exited = new Promise((resolve) => child.once("exit", () => resolve()));
  try {
    await new Promise((resolve, reject) => {
      let said = "";
      const timer = setTimeout(() => reject(new Error(`Prism did not start within 30 s:\n${said}`)), 30_000);
      const listen = (/** @type {Buffer} */ chunk) => {
        said += chunk.toString();
        if (!options.quiet) process.stdout.write(chunk);
        if (said.includes("Prism is listening")) {
          clearTimeout(timer);
          resolve(undefined);
        }
      };
      child.stdout.on("data", listen);
      child.stderr.on("data", listen);
      child.once("exit", (code) => {
        clearTimeout(timer);
        reject(new Error(`Prism exited with ${code} before listening:\n${said}`));
      });
    });
  } catch (error) {
    child.kill();
    cleanup();
    throw error;
  }
  const proxy = await startProtocolProxy(prismPort, port).catch(async (error) => {
    child.kill();
    await exited;
    cleanup();
    throw error;
  });
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    port,
    stop: async () => {
      await new Promise((resolve) => proxy.close(() => resolve(undefined)));
      child.kill();
      await exited;
      cleanup();
    },
  };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const i = process.argv.indexOf("--port");
  const port = i > 0 ? Number(process.argv[i + 1]) : 4010;
  const mock = await startMock({ port, quiet: true });
  console.log(`Mock of the API: ${mock.baseUrl}${API_PREFIX} (Ctrl-C stops it)`);
  const stop = () => void mock.stop().then(() => process.exit(0));
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}
