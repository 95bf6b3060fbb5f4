#!/usr/bin/env node
// @ts-check
// `make demo`: builds the example React app (examples/react-app), serves the
// build on 127.0.0.1 and prints the URL to open. Which Stack Auth it talks to:
//
// - By default, the embedded emulator (emulator/, a stateful stand-in for the
//   API, from a fresh state) on 127.0.0.1, with its demo project; its page
//   (users, e-mails, requests…) and the mailbox where the e-mails the service
//   would send arrive are printed too. Nothing
//   needs a network.
// - With STACK_API_URL, STACK_PROJECT_ID and STACK_PUBLISHABLE_CLIENT_KEY, a
//   real or self-hosted project: no emulator is started, the same app is built
//   for that project. They come from the environment or from a .env file at the
//   repository root (see .env.example); the environment wins.
//
// It runs until Ctrl-C.
// Usage: node scripts/demo.mjs [--port 5173] [--api-port 8102] [--data state.json]
//        (DEMO_PORT / EMULATOR_PORT work too, as `make demo DEMO_PORT=3000 EMULATOR_PORT=9102` passes them;
//        a port in use gives way to a free one, said in the output; --data keeps the emulator's users across runs)

import { existsSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseEnv } from "node:util";
import { importEmulatorServer } from "./lib/emulator-source.mjs";
import { buildExample, serveStatic } from "./serve-example.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

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

/** @param {string} message @returns {never} */
function fail(message) {
  console.error(`make demo: ${message}`);
  process.exit(1);
}

/**
 * The project settings: the environment's, else the root .env file's; empty values count as unset.
 * @returns {{ apiUrl?: string, projectId?: string, publishableClientKey?: string }}
 */
function projectSettings() {
  const file = path.join(root, ".env");
  /** @type {Record<string, string | undefined>} */
  const fromFile = existsSync(file) ? parseEnv(readFileSync(file, "utf8")) : {};
  /** @param {string} name */
  const read = (name) => (process.env[name] || fromFile[name] || "").trim() || undefined;
  const apiUrl = read("STACK_API_URL");
  const projectId = read("STACK_PROJECT_ID");
  const publishableClientKey = read("STACK_PUBLISHABLE_CLIENT_KEY");
  return { ...(apiUrl && { apiUrl }), ...(projectId && { projectId }), ...(publishableClientKey && { publishableClientKey }) };
}

/** The API's origin as the app's baseUrl takes it, or a message saying what is wrong with it. @param {string} value */
function apiOrigin(value) {
  let url;
  try {
    url = new URL(value);
  } catch {
    return fail(`STACK_API_URL is not a URL: ${JSON.stringify(value)}. Example: https://api.stack-auth.com`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") fail(`STACK_API_URL must be an http(s) URL, not ${url.protocol}`);
  const pathname = url.pathname.replace(/\/+$/, "");
  if (pathname.endsWith("/api/v1")) fail(`STACK_API_URL is the API's origin, without /api/v1: ${url.origin}${pathname.slice(0, -7)}`);
  return `${url.origin}${pathname}`;
}

/** Says so when a wanted port was taken and another one serves instead. @param {string} what @param {number} wanted @param {number} port */
function notePort(what, wanted, port) {
  if (wanted !== 0 && port !== wanted) console.log(`Port ${wanted} is in use: the ${what} listens on ${port} instead.`);
}

const settings = projectSettings();
const wantedAppPort = portOption("--port", process.env.DEMO_PORT) ?? 5173;
const appPort = await portNear(wantedAppPort);
/** @type {Awaited<ReturnType<typeof serveStatic>> | undefined} */
let served;
/** @type {{ close: () => Promise<void> } | undefined} */
let emulator;
const stop = async () => {
  await served?.close();
  await emulator?.close();
  process.exit(0);
};
process.on("SIGINT", () => void stop());
process.on("SIGTERM", () => void stop());

try {
  if (settings.apiUrl !== undefined) {
    // A real or self-hosted project: the settings of its dashboard, nothing local but the app.
    const apiUrl = apiOrigin(settings.apiUrl);
    if (!settings.projectId || !settings.publishableClientKey) {
      fail(
        "STACK_API_URL is set, so the demo runs against that API and needs the project too: set STACK_PROJECT_ID and " +
          "STACK_PUBLISHABLE_CLIENT_KEY (Stack Auth dashboard → Project Keys). Unset STACK_API_URL to use the local emulator.",
      );
    }
    console.log(`Stack Auth API: ${apiUrl}/api/v1, project ${settings.projectId}`);
    const outDir = await buildExample({
      apiUrl,
      projectId: /** @type {string} */ (settings.projectId),
      publishableClientKey: /** @type {string} */ (settings.publishableClientKey),
      quiet: true,
    });
    served = await serveStatic(outDir, { port: appPort });
    notePort("example app", wantedAppPort, served.port);
    console.log(`Example app built from examples/react-app, served from 127.0.0.1:${served.port}\n`);
    console.log(`  Open     ${served.url}\n`);
    console.log("Sign in or up as on your own app. The project must trust this address (Stack Auth allows localhost");
    console.log("unless the project turned that off), or OAuth providers and e-mail links cannot come back here.");
  } else {
    if (settings.projectId || settings.publishableClientKey) {
      fail(
        "STACK_PROJECT_ID or STACK_PUBLISHABLE_CLIENT_KEY is set without STACK_API_URL. The local emulator knows only its demo " +
          "project: set STACK_API_URL too (https://api.stack-auth.com for the hosted service), or unset both to use the emulator.",
      );
    }
    const { startEmulatorServer } = await importEmulatorServer();
    const dataFile = option("--data");
    const wantedApiPort = portOption("--api-port", process.env.EMULATOR_PORT) ?? 8102;
    const started = await startEmulatorServer({
      port: await portNear(wantedApiPort),
      ...(dataFile ? { dataFile } : {}),
    });
    emulator = started;
    notePort("emulator", wantedApiPort, Number(new URL(started.url).port));
    console.log(`Stack Auth emulator: ${started.url}/api/v1 (${dataFile ? `state kept in ${dataFile}` : "a fresh state"})`);
    const outDir = await buildExample({ apiUrl: started.url, quiet: true });
    served = await serveStatic(outDir, { port: appPort });
    notePort("example app", wantedAppPort, served.port);
    console.log(`Example app built from examples/react-app, served from 127.0.0.1:${served.port}\n`);
    console.log(`  Open     ${served.url}`);
    console.log(`  Emulator ${started.url}/emulator/ui/   (its users, sessions, e-mails, requests, clock and faults)`);
    console.log(
      `  Mailbox  ${started.url}/mailbox   (the e-mails the service would send: verification, reset, magic links, invitations)\n`,
    );
    console.log("Sign up with any e-mail and a password: the emulator keeps real users, sessions, teams and keys,");
    console.log("and answers a wrong password or a taken e-mail as the service does.");
    console.log("To run the same app against a real or self-hosted project, set STACK_API_URL, STACK_PROJECT_ID and");
    console.log("STACK_PUBLISHABLE_CLIENT_KEY (see .env.example).");
  }
  console.log("Ctrl-C stops the demo.");
} catch (error) {
  await served?.close();
  await emulator?.close();
  throw error;
}
