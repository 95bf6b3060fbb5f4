#!/usr/bin/env node
// @ts-check
// `make bench`: the emulator's speed and footprint, against the budgets of its
// design: in-process start, HTTP server ready, GET /users/me per second through
// the in-process handler and over HTTP, and the memory that 100,000 users take.
// The emulator is bundled once with esbuild (as the package ships it) and
// measured in this process; the HTTP server runs in a child process, as
// `stackkit-emulator` would, so that client and server do not share a core's time.
// Prints each figure with its budget; exits non-zero when one is over.
// Usage: node --expose-gc scripts/bench.mjs [--quick]

import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const quick = process.argv.includes("--quick");
const out = mkdtempSync(path.join(tmpdir(), "stackkit-bench-"));

/** @type {{ name: string, value: number, unit: string, budget: number, better: "lower" | "higher" }[]} */
const figures = [];
const record = (/** @type {string} */ name, /** @type {number} */ value, /** @type {string} */ unit, /** @type {number} */ budget, /** @type {"lower" | "higher"} */ better) =>
  figures.push({ name, value, unit, budget, better });

try {
  await build({
    entryPoints: { emulator: path.join(root, "emulator/index.ts"), server: path.join(root, "emulator/server.ts") },
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20",
    outdir: out,
    logLevel: "error",
  });
  writeFileSync(path.join(out, "package.json"), JSON.stringify({ type: "module" }));
  const { createEmulator, DEMO_KEYS } = await import(pathToFileURL(path.join(out, "emulator.js")).href);

  // 1. In-process start: the first one (cold, after module load) and the median of the next ten.
  let t = performance.now();
  await createEmulator();
  const cold = performance.now() - t;
  const warm = [];
  for (let i = 0; i < 10; i++) {
    t = performance.now();
    await createEmulator();
    warm.push(performance.now() - t);
  }
  record("in-process start, first", cold, "ms", 100, "lower");
  record("in-process start, median of 10", median(warm), "ms", 100, "lower");

  // 2. GET /users/me through the in-process handler.
  const emulator = await createEmulator();
  const user = await emulator.control.createUser({ projectId: DEMO_KEYS.projectId, email: "bench@example.com", password: "correct horse battery staple" });
  const { accessToken } = await emulator.control.createSession(user.id);
  const headers = meHeaders(DEMO_KEYS, accessToken);
  const inProcess = await throughput(() => emulator.fetch(new Request(`${emulator.apiOrigin}/api/v1/users/me`, { headers })), quick ? 1000 : 3000, 16);
  record("GET /users/me in-process", inProcess, "req/s", 3000, "higher");

  // 3. The HTTP server in a child process: ready time, then GET /users/me over HTTP.
  const server = await startServerProcess(path.join(out, "server.js"));
  record("HTTP server ready (spawn to first /health answer)", server.readyMs, "ms", 1000, "lower");
  const control = (/** @type {string} */ p, /** @type {unknown} */ body) =>
    fetch(`${server.url}/emulator/v1/${p}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }).then((r) => r.json());
  const created = await control("users", { projectId: DEMO_KEYS.projectId, email: "bench@example.com", password: "correct horse battery staple" });
  const session = await control("sessions", { userId: created.id });
  const httpHeaders = meHeaders(DEMO_KEYS, session.accessToken);
  const overHttp = await throughput(() => fetch(`${server.url}/api/v1/users/me`, { headers: httpHeaders }), quick ? 1000 : 3000, 32);
  server.child.kill();
  record("GET /users/me over HTTP", overHttp, "req/s", 1500, "higher");

  // 4. 100,000 users (each with a primary e-mail) held in memory, measured in a
  // fresh process so that nothing measured before is still on the heap.
  const count = quick ? 10_000 : 100_000;
  const memory = await measureUsers(path.join(out, "emulator.js"), count);
  record(`heap of 100,000 users (measured with ${count.toLocaleString("en")})`, (memory.heapBytes / count) * 100_000 / 2 ** 20, "MB", 300, "lower");
  record(`whole process holding them (resident set)`, memory.rssBytes / 2 ** 20, "MB", 300, "lower");
} finally {
  rmSync(out, { recursive: true, force: true });
}

let over = 0;
console.log(`${"figure".padEnd(58)}${"value".padStart(12)}   budget`);
for (const f of figures) {
  const ok = f.better === "lower" ? f.value <= f.budget : f.value >= f.budget;
  if (!ok) over++;
  const value = `${f.value.toFixed(f.unit === "req/s" ? 0 : 1)} ${f.unit}`;
  console.log(`${f.name.padEnd(58)}${value.padStart(12)}   ${f.better === "lower" ? "≤" : "≥"} ${f.budget} ${f.unit}  ${ok ? "ok" : "OVER BUDGET"}`);
}
process.exit(over === 0 ? 0 : 1);

/**
 * Creates `count` users in a child process and reports what its heap grew by,
 * and its resident set at the end.
 * @param {string} file @param {number} count
 */
async function measureUsers(file, count) {
  const runner = path.join(path.dirname(file), "measure-users.mjs");
  writeFileSync(
    runner,
    `import { createEmulator, DEMO_KEYS } from ${JSON.stringify(pathToFileURL(file).href)};\n` +
      `const emulator = await createEmulator();\nglobalThis.gc(); globalThis.gc();\nconst before = process.memoryUsage().heapUsed;\n` +
      `for (let i = 0; i < ${count}; i++) await emulator.control.createUser({ projectId: DEMO_KEYS.projectId, email: "user" + i + "@example.com", displayName: "User " + i });\n` +
      `globalThis.gc(); globalThis.gc();\nconst { heapUsed, rss } = process.memoryUsage();\n` +
      `if (emulator.engine.ctx.store.tables.users.size !== ${count}) throw new Error("not every user was made");\n` +
      `console.log(JSON.stringify({ heapBytes: heapUsed - before, rssBytes: rss }));\n`,
  );
  const child = spawn(process.execPath, ["--expose-gc", runner], { stdio: ["ignore", "pipe", "inherit"] });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  const code = await new Promise((resolve) => child.once("exit", resolve));
  if (code !== 0) throw new Error(`measuring ${count} users failed (exit ${code})`);
  return /** @type {{ heapBytes: number, rssBytes: number }} */ (JSON.parse(output));
}

/** @param {number[]} values */
function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/** @param {{ projectId: string, publishableClientKey: string }} keys @param {string} accessToken */
function meHeaders(keys, accessToken) {
  return {
    "x-stack-project-id": keys.projectId,
    "x-stack-access-type": "client",
    "x-stack-publishable-client-key": keys.publishableClientKey,
    "x-stack-access-token": accessToken,
  };
}

/**
 * Requests per second of `send` with `concurrency` in flight, over `total`
 * requests after a warm-up of a tenth of that; every answer must be 200.
 * @param {() => Promise<Response>} send @param {number} total @param {number} concurrency
 */
async function throughput(send, total, concurrency) {
  const run = async (/** @type {number} */ n) => {
    let next = 0;
    const worker = async () => {
      while (next < n) {
        next++;
        const response = await send();
        await response.arrayBuffer();
        if (response.status !== 200) throw new Error(`GET /users/me answered ${response.status}`);
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
  };
  await run(Math.ceil(total / 10));
  const t0 = performance.now();
  await run(total);
  return total / ((performance.now() - t0) / 1000);
}

/** Spawns the bundled server on a free port and waits for /health. @param {string} file */
async function startServerProcess(file) {
  const runner = path.join(path.dirname(file), "run-server.mjs");
  writeFileSync(
    runner,
    `import { startEmulatorServer } from ${JSON.stringify(pathToFileURL(file).href)};\n` +
      `const server = await startEmulatorServer({ port: 0 });\nconsole.log("URL " + server.url);\n`,
  );
  const started = performance.now();
  const child = spawn(process.execPath, [runner], { stdio: ["ignore", "pipe", "inherit"], env: process.env });
  const url = await new Promise((resolve, reject) => {
    let buffer = "";
    child.stdout.on("data", (chunk) => {
      buffer += chunk;
      const m = /URL (\S+)/.exec(buffer);
      if (m) resolve(m[1]);
    });
    child.once("exit", (code) => reject(new Error(`the emulator server exited (${code}) before it printed its URL`)));
  });
  for (;;) {
    const ok = await fetch(`${url}/health`).then((r) => r.ok, () => false);
    if (ok) break;
    await new Promise((r) => setTimeout(r, 5));
  }
  return { url: /** @type {string} */ (url), child, readyMs: performance.now() - started };
}
