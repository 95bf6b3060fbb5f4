#!/usr/bin/env node
// @ts-check
// `make bench`: the emulator's speed and footprint, against the budgets of its
// design: in-process start, HTTP server ready, GET /users/me per second through
// the in-process handler and over HTTP, and the memory that 100,000 users take.
// The emulator is bundled once with esbuild (as the package ships it) and
// measured in this process; the HTTP server runs in a child process, as
// `stackkit-emulator` would, so that client and server do not share a core's time.
// Then a population through the API: 100,000 users created with POST /users
// against the HTTP server, in memory and with a data file, the rate of the last
// thousand against the first, the file's size per user and the start on it.
// Last, the SDK's own cost per call: an authenticated `getUser()` of a
// StackClientApp (runtime/index.ts bundled the same way) against a bare `fetch`
// of the same URL with the same headers, both against an instant loopback server.
// Prints each figure with its budget; exits non-zero when one is over.
// Usage: node --expose-gc scripts/bench.mjs [--quick] [--overhead-only] [--population-only]

import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const quick = process.argv.includes("--quick");
const overheadOnly = process.argv.includes("--overhead-only");
const populationOnly = process.argv.includes("--population-only");
const out = mkdtempSync(path.join(tmpdir(), "stackkit-bench-"));

/** Users of another project made before a population is measured: what the server compiles on. */
const WARM_UP_USERS = 2000;

/** @type {{ name: string, value: number, unit: string, budget: number, better: "lower" | "higher" }[]} */
const figures = [];
const record = (
  /** @type {string} */ name,
  /** @type {number} */ value,
  /** @type {string} */ unit,
  /** @type {number} */ budget,
  /** @type {"lower" | "higher"} */ better,
) => figures.push({ name, value, unit, budget, better });

try {
  await build({
    entryPoints: {
      emulator: path.join(root, "emulator/index.ts"),
      server: path.join(root, "emulator/server.ts"),
      runtime: path.join(root, "runtime/index.ts"),
    },
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20",
    outdir: out,
    logLevel: "error",
  });
  writeFileSync(path.join(out, "package.json"), JSON.stringify({ type: "module" }));
  if (!overheadOnly && !populationOnly) await emulatorFigures();
  if (!overheadOnly) await populationFigures(path.join(out, "server.js"));
  if (!populationOnly) await overheadFigures();
} finally {
  rmSync(out, { recursive: true, force: true });
}
report();

async function overheadFigures() {
  // 6. Per-call overhead of the SDK (issue 13 §5): sequential calls, so each figure is one call's latency.
  const overhead = await measureOverhead(path.join(out, "runtime.js"), quick ? 500 : 2000);
  const ratio50 = overhead.sdk.p50 / overhead.bare.p50;
  const ratio95 = overhead.sdk.p95 / overhead.bare.p95;
  console.log(
    `getUser() vs bare fetch, ${overhead.calls} sequential calls each: ` +
      `getUser p50 ${overhead.sdk.p50.toFixed(3)} ms, p95 ${overhead.sdk.p95.toFixed(3)} ms; ` +
      `fetch p50 ${overhead.bare.p50.toFixed(3)} ms, p95 ${overhead.bare.p95.toFixed(3)} ms; ` +
      `ratio p50 ×${ratio50.toFixed(2)}, p95 ×${ratio95.toFixed(2)}`,
  );
  record("getUser() p50 (sequential, loopback)", overhead.sdk.p50, "ms", Infinity, "lower");
  record("getUser() p95", overhead.sdk.p95, "ms", Infinity, "lower");
  record("bare fetch p50 (same URL and headers)", overhead.bare.p50, "ms", Infinity, "lower");
  record("bare fetch p95", overhead.bare.p95, "ms", Infinity, "lower");
  record("getUser() / bare fetch, p50", ratio50, "×", 1.25, "lower");
  record("getUser() / bare fetch, p95 (shown, no budget)", ratio95, "×", Infinity, "lower");
}

async function emulatorFigures() {
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
  const user = await emulator.control.createUser({
    projectId: DEMO_KEYS.projectId,
    email: "bench@example.com",
    password: "correct horse battery staple",
  });
  const { accessToken } = await emulator.control.createSession(user.id);
  const headers = meHeaders(DEMO_KEYS, accessToken);
  const inProcess = await throughput(
    () => emulator.fetch(new Request(`${emulator.apiOrigin}/api/v1/users/me`, { headers })),
    quick ? 1000 : 3000,
    16,
  );
  record("GET /users/me in-process", inProcess, "req/s", 3000, "higher");

  // 3. The HTTP server in a child process: ready time, then GET /users/me over HTTP.
  const server = await startServerProcess(path.join(out, "server.js"));
  record("HTTP server ready (spawn to first /health answer)", server.readyMs, "ms", 1000, "lower");
  const control = (/** @type {string} */ p, /** @type {unknown} */ body) =>
    fetch(`${server.url}/emulator/v1/${p}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    }).then((r) => r.json());
  const created = await control("users", {
    projectId: DEMO_KEYS.projectId,
    email: "bench@example.com",
    password: "correct horse battery staple",
  });
  const session = await control("sessions", { userId: created.id });
  const httpHeaders = meHeaders(DEMO_KEYS, session.accessToken);
  const overHttp = await throughput(() => fetch(`${server.url}/api/v1/users/me`, { headers: httpHeaders }), quick ? 1000 : 3000, 32);
  server.child.kill();
  record("GET /users/me over HTTP", overHttp, "req/s", 1500, "higher");

  // 4. 100,000 users (each with a primary e-mail) held in memory, measured in a
  // fresh process so that nothing measured before is still on the heap.
  const count = quick ? 10_000 : 100_000;
  const memory = await measureUsers(path.join(out, "emulator.js"), count);
  record(
    `heap of 100,000 users (measured with ${count.toLocaleString("en")})`,
    ((memory.heapBytes / count) * 100_000) / 2 ** 20,
    "MB",
    300,
    "lower",
  );
  record(`whole process holding them (resident set)`, memory.rssBytes / 2 ** 20, "MB", 300, "lower");
}

/** Prints every figure against its budget; exits non-zero when one is over. */
function report() {
  let over = 0;
  console.log(`${"figure".padEnd(66)}${"value".padStart(12)}   budget`);
  for (const f of figures) {
    const ok = f.better === "lower" ? f.value <= f.budget : f.value >= f.budget;
    if (!ok) over++;
    const digits = f.unit === "req/s" || f.unit === "B" ? 0 : f.unit === "×" ? 2 : f.unit === "ms" && f.value < 10 ? 3 : 1;
    const value = `${f.value.toFixed(digits)} ${f.unit}`;
    const budget =
      f.budget === Infinity ? "(no budget)" : `${f.better === "lower" ? "≤" : "≥"} ${f.budget} ${f.unit}  ${ok ? "ok" : "OVER BUDGET"}`;
    console.log(`${f.name.padEnd(66)}${value.padStart(12)}   ${budget}`);
  }
  process.exit(over === 0 ? 0 : 1);
}

/**
 * A population made through the API (issue 30): `count` users, each with its primary e-mail, created with
 * POST /api/v1/users and the demo project's secret server key by eight clients at once, against the bundled server
 * in a child process: one in memory and one with a data file, at the same time. Before each run 2,000 users of the internal project warm
 * the server up, so that the first thousand measured are not its compilation. Then the server is started again on
 * the data file, and its start (spawn to the first /health answer) is timed.
 * @param {string} file the bundled server
 */
async function populationFigures(file) {
  const count = quick ? 10_000 : 100_000;
  const { DEMO_KEYS, INTERNAL_KEYS } = await import(pathToFileURL(path.join(out, "emulator.js")).href);
  const dir = mkdtempSync(path.join(tmpdir(), "stackkit-population-"));
  try {
    const dataFile = path.join(dir, "state.jsonl");
    // Side by side, so that whatever else the machine does falls on both alike.
    const [memory, disk] = await Promise.all([
      populate(file, count, undefined, DEMO_KEYS, INTERNAL_KEYS),
      populate(file, count, dataFile, DEMO_KEYS, INTERNAL_KEYS),
    ]);
    const bytes = statSync(dataFile).size;
    const restarted = await startServerProcess(file, dataFile);
    const found = await fetch(`${restarted.url}/api/v1/users/${disk.lastId}`, { headers: populationHeaders(DEMO_KEYS) });
    restarted.child.kill();
    if (found.status !== 200) throw new Error(`the last user made was not there after a restart (${found.status})`);
    const n = `${count.toLocaleString("en")} users through the API`;
    console.log(
      `${n}: in memory ${memory.rate.toFixed(0)}/s (first thousand ${memory.first.toFixed(0)}/s, last ${memory.last.toFixed(0)}/s); ` +
        `on disk ${disk.rate.toFixed(0)}/s (first ${disk.first.toFixed(0)}/s, last ${disk.last.toFixed(0)}/s); ` +
        `data file ${(bytes / 2 ** 20).toFixed(1)} MB`,
    );
    record(`${n}, in memory: last 1,000 / first 1,000`, memory.last / memory.first, "×", 0.8, "higher");
    record(`${n}, data file: last 1,000 / first 1,000`, disk.last / disk.first, "×", 0.8, "higher");
    record(`${n}: data file / in memory, whole run`, disk.rate / memory.rate, "×", 0.8, "higher");
    record(`data file per user`, bytes / (count + WARM_UP_USERS), "B", Infinity, "lower");
    record(`start on that file (spawn to first /health answer)`, restarted.readyMs, "ms", 5000, "lower");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** @param {{ projectId: string, secretServerKey: string }} keys */
function populationHeaders(keys) {
  return {
    "content-type": "application/json",
    "x-stack-project-id": keys.projectId,
    "x-stack-access-type": "server",
    "x-stack-secret-server-key": keys.secretServerKey,
  };
}

/**
 * Creates `count` users in a fresh server (with `dataFile`, or in memory); answers the whole run's rate, the first
 * and last thousand's (by when each was answered), and the last user's id.
 * @param {string} file @param {number} count @param {string | undefined} dataFile
 * @param {{ projectId: string, secretServerKey: string }} measured the project the measured users are made in
 * @param {{ projectId: string, secretServerKey: string }} warmUp the one the warm-up's are
 */
async function populate(file, count, dataFile, measured, warmUp) {
  const server = await startServerProcess(file, dataFile);
  try {
    /** @param {number} n @param {{ projectId: string, secretServerKey: string }} keys @param {string} prefix @param {number[]} [done] */
    const create = async (n, keys, prefix, done) => {
      const headers = populationHeaders(keys);
      let next = 0;
      let lastId = "";
      const client = async () => {
        while (next < n) {
          const i = next++;
          const response = await fetch(`${server.url}/api/v1/users`, {
            method: "POST",
            headers,
            body: JSON.stringify({
              primary_email: `${prefix}${i}@example.com`,
              primary_email_auth_enabled: true,
              display_name: `User ${i}`,
            }),
          });
          const body = await response.json();
          if (response.status !== 201) throw new Error(`POST /users answered ${response.status}: ${JSON.stringify(body)}`);
          done?.push(performance.now());
          lastId = body.id;
        }
      };
      await Promise.all(Array.from({ length: 8 }, client));
      return lastId;
    };
    await create(WARM_UP_USERS, warmUp, "warm-up-");
    /** @type {number[]} */ const done = [];
    const started = performance.now();
    const lastId = await create(count, measured, "user-", done);
    const window = 1000;
    const first = window / (((done[window - 1] ?? 0) - started) / 1000);
    const last = window / (((done[count - 1] ?? 0) - (done[count - 1 - window] ?? 0)) / 1000);
    return { rate: count / (((done[count - 1] ?? 0) - started) / 1000), first, last, lastId };
  } finally {
    server.child.kill();
    await new Promise((resolve) => server.child.once("exit", resolve));
  }
}

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
      `if (emulator.engine.ctx.store.sizes().users !== ${count}) throw new Error("not every user was made");\n` +
      `console.log(JSON.stringify({ heapBytes: heapUsed - before, rssBytes: rss }));\n`,
  );
  const child = spawn(process.execPath, ["--expose-gc", runner], { stdio: ["ignore", "pipe", "inherit"] });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  const code = await new Promise((resolve) => child.once("exit", resolve));
  if (code !== 0) throw new Error(`measuring ${count} users failed (exit ${code})`);
  return /** @type {{ heapBytes: number, rssBytes: number }} */ (JSON.parse(output));
}

/**
 * p50 and p95 of `calls` sequential authenticated `getUser()` calls of a
 * StackClientApp (the bundled runtime `file`), and of as many bare `fetch`es of
 * GET /api/v1/users/me with the headers the SDK sent, against a loopback
 * node:http server in a child process that answers every request at once with
 * the document's ClientUser example. The access token lives for a day, so no
 * call refreshes. The two kinds of call alternate, after a warm-up, so that
 * drift (JIT, GC, CPU frequency) falls on both alike.
 * @param {string} file @param {number} calls
 */
async function measureOverhead(file, calls) {
  const openapi = JSON.parse(readFileSync(path.join(root, "generated/openapi.json"), "utf8"));
  const user = openapi.components.examples.ClientUser.value;
  const server = await startLoopbackServer(path.dirname(file), JSON.stringify(user));
  try {
    const { StackClientApp, createMemoryTokenStore } = await import(pathToFileURL(file).href);
    const base64url = (/** @type {unknown} */ value) => Buffer.from(JSON.stringify(value)).toString("base64url");
    const exp = Math.floor(Date.now() / 1000) + 86_400;
    const accessToken = `${base64url({ alg: "ES256", typ: "JWT" })}.${base64url({ sub: user.id, exp })}.c2lnbmF0dXJl`;
    const app = new StackClientApp({
      projectId: "bench-project",
      publishableClientKey: "pck_bench",
      baseUrl: server.url,
      tokenStore: createMemoryTokenStore({ accessToken, refreshToken: "bench-refresh-token" }),
      browser: null,
    });
    const first = await app.getUser();
    if (first?.id !== user.id) throw new Error("getUser() did not answer the benchmark's user");
    // The headers the SDK sent, as the server saw them; the bare fetch sends the same ones.
    const headers = /** @type {Record<string, string>} */ (await (await fetch(`${server.url}/last-headers`)).json());
    if (headers["x-stack-access-token"] !== accessToken) throw new Error("getUser() did not send the access token");
    const url = `${server.url}/api/v1/users/me`;
    const sdkCall = async () => {
      const got = await app.getUser();
      if (got === null) throw new Error("getUser() answered null");
    };
    const bareCall = async () => {
      const response = await fetch(url, { headers });
      const body = await response.json();
      if (response.status !== 200 || body.id !== user.id) throw new Error(`bare fetch answered ${response.status}`);
    };
    /** @type {number[]} */ const sdk = [];
    /** @type {number[]} */ const bare = [];
    const warmUp = Math.max(200, calls / 4);
    for (let i = 0; i < warmUp + calls; i++) {
      const pair =
        i % 2 === 0
          ? [
              [sdkCall, sdk],
              [bareCall, bare],
            ]
          : [
              [bareCall, bare],
              [sdkCall, sdk],
            ];
      for (const [call, times] of /** @type {[() => Promise<void>, number[]][]} */ (pair)) {
        const t0 = performance.now();
        await call();
        if (i >= warmUp) times.push(performance.now() - t0);
      }
    }
    return { calls, sdk: percentiles(sdk), bare: percentiles(bare) };
  } finally {
    server.child.kill();
  }
}

/** @param {number[]} values */
function percentiles(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (/** @type {number} */ q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return { p50: at(0.5), p95: at(0.95) };
}

/**
 * A node:http server on 127.0.0.1 in a child process: GET /api/v1/users/me is
 * answered at once with `body`; GET /last-headers with the headers of the last
 * /users/me request it was sent.
 * @param {string} dir @param {string} body
 */
async function startLoopbackServer(dir, body) {
  const runner = path.join(dir, "loopback-server.mjs");
  writeFileSync(
    runner,
    `import { createServer } from "node:http";
` +
      `const body = Buffer.from(${JSON.stringify(body)});
` +
      `let last = {};
` +
      `const server = createServer((req, res) => {
` +
      `  if (req.method === "GET" && req.url === "/api/v1/users/me") {
` +
      `    last = req.headers;
` +
      `    res.writeHead(200, { "content-type": "application/json", "content-length": body.length });
` +
      `    res.end(body);
` +
      `  } else if (req.url === "/last-headers") {
` +
      `    const { host, connection, "user-agent": _ua, "accept-encoding": _ae, "accept-language": _al, "sec-fetch-mode": _sf, ...sent } = last;
` +
      `    res.writeHead(200, { "content-type": "application/json" });
` +
      `    res.end(JSON.stringify(sent));
` +
      `  } else {
` +
      `    res.writeHead(404);
` +
      `    res.end();
` +
      `  }
` +
      `});
` +
      `server.keepAliveTimeout = 60_000;
` +
      `server.listen(0, "127.0.0.1", () => console.log("URL http://127.0.0.1:" + server.address().port));
`,
  );
  const child = spawn(process.execPath, [runner], { stdio: ["ignore", "pipe", "inherit"] });
  const url = await new Promise((resolve, reject) => {
    let buffer = "";
    child.stdout.on("data", (chunk) => {
      buffer += chunk;
      const m = /URL (\S+)/.exec(buffer);
      if (m) resolve(m[1]);
    });
    child.once("exit", (code) => reject(new Error(`the loopback server exited (${code}) before it printed its URL`)));
  });
  return { url: /** @type {string} */ (url), child };
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

/**
 * Spawns the bundled server on a free port (with `dataFile` when given) and waits for /health.
 * @param {string} file @param {string} [dataFile]
 */
async function startServerProcess(file, dataFile) {
  const runner = path.join(path.dirname(file), "run-server.mjs");
  writeFileSync(
    runner,
    `import { startEmulatorServer } from ${JSON.stringify(pathToFileURL(file).href)};\n` +
      `const dataFile = process.argv[2];\n` +
      `const server = await startEmulatorServer({ port: 0, ...(dataFile ? { dataFile } : {}) });\nconsole.log("URL " + server.url);\n`,
  );
  const started = performance.now();
  const child = spawn(process.execPath, [runner, ...(dataFile ? [dataFile] : [])], {
    stdio: ["ignore", "pipe", "inherit"],
    env: process.env,
  });
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
    const ok = await fetch(`${url}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    await new Promise((r) => setTimeout(r, 5));
  }
  return { url: /** @type {string} */ (url), child, readyMs: performance.now() - started };
}
