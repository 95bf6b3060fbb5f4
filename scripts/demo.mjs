#!/usr/bin/env node
// @ts-check
// `make demo`: starts the Stack Auth emulator (emulator/, a stateful stand-in
// for the API, from a fresh state), builds the example React app
// (examples/react-app) pointed at it, serves the build, and prints the URL to
// open and the mailbox where the e-mails the service would send arrive. Both
// listen on 127.0.0.1 only, nothing needs a network; it runs until Ctrl-C.
// Usage: node scripts/demo.mjs [--port 5173] [--api-port 8102] [--data state.json]
//        (DEMO_PORT / EMULATOR_PORT work too; --data keeps the users across runs)

import { createServer } from "node:net";
import { importEmulatorServer } from "./lib/emulator-source.mjs";
import { buildExample, serveStatic } from "./serve-example.mjs";

/** @param {string} flag */
function option(flag) {
  const i = process.argv.indexOf(flag);
  return i > 0 ? process.argv[i + 1] : undefined;
}

/** @param {string} flag @param {string | undefined} fallback */
function portOption(flag, fallback) {
  const value = option(flag) ?? fallback;
  return value === undefined || value === "" ? undefined : Number(value);
}

/** The wanted port when it is free, else 0 (any free one: a second demo, another dev server). @param {number} wanted */
function portNear(wanted) {
  return /** @type {Promise<number>} */ (
    new Promise((resolve) => {
      const server = createServer();
      server.once("error", () => resolve(0));
      server.listen(wanted, "127.0.0.1", () => server.close(() => resolve(wanted)));
    })
  );
}

const { startEmulatorServer } = await importEmulatorServer();
const dataFile = option("--data");
const emulator = await startEmulatorServer({
  port: await portNear(portOption("--api-port", process.env.EMULATOR_PORT) ?? 8102),
  ...(dataFile ? { dataFile } : {}),
});
/** @type {Awaited<ReturnType<typeof serveStatic>> | undefined} */
let served;
const stop = async () => {
  await served?.close();
  await emulator.close();
  process.exit(0);
};
process.on("SIGINT", () => void stop());
process.on("SIGTERM", () => void stop());

try {
  console.log(`Stack Auth emulator: ${emulator.url}/api/v1 (${dataFile ? `state kept in ${dataFile}` : "a fresh state"})`);
  const outDir = await buildExample({ apiUrl: emulator.url, quiet: true });
  served = await serveStatic(outDir, { port: await portNear(portOption("--port", process.env.DEMO_PORT) ?? 5173) });
  console.log(`Example app built from examples/react-app, served from 127.0.0.1:${served.port}\n`);
  console.log(`  Open     ${served.url}`);
  console.log(`  Mailbox  ${emulator.url}/mailbox   (the e-mails the service would send: verification, reset, magic links, invitations)\n`);
  console.log("Sign up with any e-mail and a password: the emulator keeps real users, sessions, teams and keys,");
  console.log("and answers a wrong password or a taken e-mail as the service does.");
  console.log("Ctrl-C stops the demo.");
} catch (error) {
  await served?.close();
  await emulator.close();
  throw error;
}
