#!/usr/bin/env node
// @ts-check
// `make demo`: starts the local mock of the API (the embedded default), builds
// the example React app (examples/react-app) pointed at it, serves the build,
// and prints the URL to open. Both listen on 127.0.0.1 only; it runs until
// Ctrl-C. Sign in with any e-mail and password: the mock answers every sign-in
// with its example user, Ada Lovelace.
// Usage: node scripts/demo.mjs [--port 5173] [--mock-port 4010]   (MOCK_PORT / DEMO_PORT work too)

import { API_PREFIX, freePort, startMock } from "./mock.mjs";
import { buildExample, serveStatic } from "./serve-example.mjs";

/** @param {string} flag @param {string | undefined} fallback */
function portOption(flag, fallback) {
  const i = process.argv.indexOf(flag);
  const value = i > 0 ? process.argv[i + 1] : fallback;
  return value === undefined || value === "" ? undefined : Number(value);
}

/** The wanted port when it is free, else any free one (a second demo, another dev server). @param {number} wanted */
async function portNear(wanted) {
  const probe = await import("node:net").then(
    ({ createServer }) =>
      /** @type {Promise<boolean>} */ (
        new Promise((resolve) => {
          const server = createServer();
          server.once("error", () => resolve(false));
          server.listen(wanted, "127.0.0.1", () => server.close(() => resolve(true)));
        })
      ),
  );
  return probe ? wanted : /** @type {number} */ (await freePort());
}

const mock = await startMock({ port: await portNear(portOption("--mock-port", process.env.MOCK_PORT) ?? 4010), quiet: true });
/** @type {Awaited<ReturnType<typeof serveStatic>> | undefined} */
let served;
const stop = async () => {
  await served?.close();
  await mock.stop();
  process.exit(0);
};
process.on("SIGINT", () => void stop());
process.on("SIGTERM", () => void stop());

try {
  console.log(`Mock of the API: ${mock.baseUrl}${API_PREFIX}`);
  const outDir = await buildExample({ apiUrl: mock.baseUrl, quiet: true });
  served = await serveStatic(outDir, { port: await portNear(portOption("--port", process.env.DEMO_PORT) ?? 5173) });
  console.log(`Example app built from examples/react-app, served from 127.0.0.1:${served.port}\n`);
  console.log(`  Open ${served.url}\n`);
  console.log("Sign in with any e-mail and password (the mock signs everyone in as its example user, Ada Lovelace).");
  console.log("Ctrl-C stops the demo.");
} catch (error) {
  await served?.close();
  await mock.stop();
  throw error;
}
