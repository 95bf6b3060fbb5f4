#!/usr/bin/env node
// `stackkit-emulator`: the Stack Auth API emulator as a local HTTP server.
// Prints the API URL, the mailbox URL and the development keys of the seeded
// projects; runs until Ctrl-C (or SIGTERM), writing the data file on the way out.
import { readFileSync } from "node:fs";
import type { SharedEmailServer } from "./engine/mail.js";
import { DEFAULT_SERVICE_VERSION, isServiceVersion, SERVICE_VERSIONS } from "./engine/profile.js";
import { DEMO_KEYS, INTERNAL_KEYS } from "./engine/seed.js";
import type { StateJson } from "./engine/store.js";
import { DEFAULT_PORT, startEmulatorServer, type EmulatorServerOptions } from "./server.js";

const USAGE = `Usage: stackkit-emulator [options]

A stateful emulator of the Stack Auth REST API, on this machine only. Tests
drive it through its control API (/emulator/v1/…: reset, state, clock, faults,
request log, e-mails, codes, users, sessions), which GET /emulator/v1/openapi.json
describes as an OpenAPI document.

Options:
  --port <n>        port to listen on (default ${DEFAULT_PORT}; 0 picks a free one)
  --host <addr>     address to listen on (default 127.0.0.1)
  --data <file>     keep the state in this file: loaded at start, each change written
                    to it before its request is answered
  --state <what>    the state to start from when there is no data file:
                    "default" (the internal and demo projects), "empty", or a JSON file
                    exported from GET /emulator/v1/state
  --token-lifetime <s>  access-token lifetime in seconds (default 600)
  --allow-origin <origin>  a web origin whose pages may call the control API and read
                    the mailbox (repeatable). Without it those routes answer only
                    this machine: a loopback Host, and no page of another origin
                    (the API under /api/v1 answers every origin, as the service does)
  --shared-email-host <host>, --shared-email-port <n>, --shared-email-username <name>,
  --shared-email-sender <address>
                    the service's shared e-mail server, as its STACK_EMAIL_* settings
                    name it (default smtp.stackkit.local, 587, emulator,
                    noreply@example.com): the sender of the shared server's e-mails,
                    and what 2.8.11's log of sent e-mails shows; nothing is sent there
  --storage-url <url>  the base of stored pictures' and logos' URLs (2.8.86): the
                    service's public storage endpoint and bucket, e.g.
                    http://localhost:8121/stack-storage (default: the emulator's own
                    /emulator/storage, the only place it serves them)
  --service-version <v> the service version to answer as: ${SERVICE_VERSIONS.join(" or ")}
                    (default ${DEFAULT_SERVICE_VERSION}, what the hosted service runs and apps
                    meet in production). 2.8.86 signs access tokens per kind of user
                    (issuer and audience for normal, anonymous and restricted users,
                    snake_case claims, two keys each in the JWKS), refuses anonymous
                    users' tokens without x-stack-allow-anonymous-user: true and
                    restricted users' without x-stack-allow-restricted-user, and lets
                    every project sign up anonymous users, who are upgraded in place
                    when they sign up. 2.8.11 signs with one issuer and camelCase claims
                    (one key per project), ignores those headers, and allows anonymous
                    sign-up only on the internal project (and two fixed ids). They
                    also differ in restricted users, GET /users' flags, projects'
                    user_count / owner_team_id, the e-mail template routes and more:
                    the README's emulator section lists every difference
  -h, --help        this help
`;

export interface BinOptions {
  readonly help: boolean;
  readonly server: EmulatorServerOptions;
}

export function parseArgs(args: readonly string[]): BinOptions {
  const server: { -readonly [K in keyof EmulatorServerOptions]: EmulatorServerOptions[K] } = { port: DEFAULT_PORT };
  const sharedEmailServer: { -readonly [K in keyof SharedEmailServer]?: SharedEmailServer[K] } = {};
  let help = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    const [flag, inline] =
      arg.startsWith("--") && arg.includes("=") ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)] : [arg, undefined];
    const value = () => {
      const v = inline ?? args[++i];
      if (v === undefined || v === "") throw new Error(`${flag} needs a value`);
      return v;
    };
    switch (flag) {
      case "-h":
      case "--help":
        help = true;
        break;
      case "--port": {
        const port = Number(value());
        if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error("--port takes a port number (0-65535)");
        server.port = port;
        break;
      }
      case "--host":
        server.host = value();
        break;
      case "--data":
        server.dataFile = value();
        break;
      case "--state": {
        const state = value();
        server.state = state === "default" || state === "empty" ? state : (JSON.parse(readFileSync(state, "utf8")) as StateJson);
        break;
      }
      case "--service-version": {
        const version = value();
        if (!isServiceVersion(version)) throw new Error(`--service-version takes ${SERVICE_VERSIONS.join(" or ")}, not "${version}"`);
        server.serviceVersion = version;
        break;
      }
      case "--storage-url": {
        const url = value();
        if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) throw new Error("--storage-url takes an http(s) URL");
        server.storageUrl = url;
        break;
      }
      case "--allow-origin":
        server.allowedOrigins = [...(server.allowedOrigins ?? []), value()];
        break;
      case "--token-lifetime": {
        const seconds = Number(value());
        if (!(seconds > 0)) throw new Error("--token-lifetime takes a number of seconds > 0");
        server.accessTokenLifetimeMs = seconds * 1000;
        break;
      }
      case "--shared-email-host":
        sharedEmailServer.host = value();
        break;
      case "--shared-email-port": {
        const port = Number(value());
        if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error("--shared-email-port takes a port number (1-65535)");
        sharedEmailServer.port = port;
        break;
      }
      case "--shared-email-username":
        sharedEmailServer.username = value();
        break;
      case "--shared-email-sender":
        sharedEmailServer.senderEmail = value();
        break;
      default:
        throw new Error(`Unknown option ${arg}`);
    }
  }
  if (Object.keys(sharedEmailServer).length > 0) server.sharedEmailServer = sharedEmailServer;
  return { help, server };
}

function keysText(
  name: string,
  keys: { projectId: string; publishableClientKey: string; secretServerKey: string; superSecretAdminKey: string },
): string {
  return [
    `  ${name}`,
    `    project id              ${keys.projectId}`,
    `    publishable client key  ${keys.publishableClientKey}`,
    `    secret server key       ${keys.secretServerKey}`,
    `    super-secret admin key  ${keys.superSecretAdminKey}`,
  ].join("\n");
}

export async function main(args: readonly string[]): Promise<void> {
  let options: BinOptions;
  try {
    options = parseArgs(args);
  } catch (error) {
    process.stderr.write(`stackkit-emulator: ${(error as Error).message}\n\n${USAGE}`);
    process.exitCode = 2;
    return;
  }
  if (options.help) {
    process.stdout.write(USAGE);
    return;
  }
  const server = await startEmulatorServer(options.server);
  const projects = new Set(server.emulator.engine.ctx.store.projects().map((project) => project.id));
  const lines = [
    "Stack Auth emulator",
    `  API:      ${server.url}/api/v1   (give apps baseUrl: "${server.url}")`,
    `  Page:     ${server.url}/emulator/ui/   (users, sessions, teams, e-mails, requests, clock, faults, keys)`,
    `  Mailbox:  ${server.url}/mailbox   (the page's e-mails; Inbucket API: ${server.url}/api/v1/mailbox/{name})`,
    `  Control:  ${server.url}/emulator/v1/…   (OpenAPI document: ${server.url}/emulator/v1/openapi.json)`,
    `  Service:  ${server.emulator.serviceVersion}   (--service-version ${SERVICE_VERSIONS.join(" | ")})`,
    options.server.dataFile === undefined ? "  State:    in memory (--data <file> keeps it)" : `  State:    ${options.server.dataFile}`,
  ];
  const seeded = [
    ...(projects.has(INTERNAL_KEYS.projectId) ? [keysText("internal project", INTERNAL_KEYS)] : []),
    ...(projects.has(DEMO_KEYS.projectId) ? [keysText("demo project", DEMO_KEYS)] : []),
  ];
  if (seeded.length > 0) lines.push("", "Development keys of the seeded projects (local use only):", ...seeded);
  lines.push("", "Ctrl-C stops it.");
  process.stdout.write(`${lines.join("\n")}\n`);
  const stop = () => {
    void server.close().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`stackkit-emulator: ${String(error)}\n`);
        process.exit(1);
      },
    );
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

await main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`stackkit-emulator: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
