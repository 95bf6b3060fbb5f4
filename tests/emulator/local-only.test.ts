// The emulator's own routes are for the developer's machine only (emulator/local-only.ts): the control API, the
// mailbox API and the mailbox page answer a loopback Host and the emulator's own origin (or one listed in
// allowedOrigins), and refuse every other page and a DNS-rebound name with 403 and no CORS grant; the service's API
// keeps answering browsers from any origin. Over HTTP, on both service versions.
import { request as httpRequest } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { DEMO_KEYS, SERVICE_VERSIONS, type ServiceVersion } from "../../emulator/index.js";
import { startEmulatorServer, type EmulatorServer } from "../../emulator/server.js";

const EVIL = "https://evil.example";
const APP = "http://localhost:5173";

/** One route of each family, read-only, and one that changes the state. */
const FAMILIES = [
  { name: "control API", method: "GET", path: "/emulator/v1/state" },
  { name: "control API (reset)", method: "POST", path: "/emulator/v1/reset" },
  { name: "mailbox API", method: "GET", path: "/api/v1/mailbox/ada" },
  { name: "mailbox page", method: "GET", path: "/mailbox" },
] as const;

let servers: EmulatorServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
});

async function serve(version: ServiceVersion, allowedOrigins?: readonly string[]) {
  const server = await startEmulatorServer({ port: 0, serviceVersion: version, ...(allowedOrigins ? { allowedOrigins } : {}) });
  servers.push(server);
  return server;
}

/** A raw HTTP request, so that the Host header can be anything (fetch would set it from the URL). */
function send(server: EmulatorServer, method: string, path: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }>((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port: server.port, method, path, headers }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe.each(SERVICE_VERSIONS)("the emulator's own routes on %s", (version) => {
  it.each(FAMILIES)(
    "$name answers this machine's tools: a loopback Host without an Origin, and no CORS grant",
    async ({ method, path }) => {
      const server = await serve(version);
      for (const host of [`127.0.0.1:${server.port}`, `localhost:${server.port}`, `[::1]:${server.port}`]) {
        const answer = await send(server, method, path, { host });
        expect([host, answer.status]).toEqual([host, 200]);
        expect(answer.headers["access-control-allow-origin"]).toBeUndefined();
      }
    },
  );

  it.each(FAMILIES)("$name refuses a DNS-rebound name in Host: 403, no grant, nothing done", async ({ method, path }) => {
    const server = await serve(version);
    await server.emulator.control.createUser({ projectId: DEMO_KEYS.projectId, email: "kept@example.com" });
    const answer = await send(server, method, path, { host: `attacker.example:${server.port}` });
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.body).error).toMatch(/not a loopback host/);
    expect(answer.headers["access-control-allow-origin"]).toBeUndefined();
    // The reset did not happen.
    expect(JSON.stringify(server.emulator.control.exportState().tables.contactChannels)).toContain("kept@example.com");
  });

  it.each(FAMILIES)("$name refuses a page of another origin, its preflight too", async ({ method, path }) => {
    const server = await serve(version);
    const host = `127.0.0.1:${server.port}`;
    const answer = await send(server, method, path, { host, origin: EVIL });
    expect([answer.status, answer.headers["access-control-allow-origin"]]).toEqual([403, undefined]);
    const preflight = await send(server, "OPTIONS", path, { host, origin: EVIL, "access-control-request-method": method });
    expect([preflight.status, preflight.headers["access-control-allow-origin"]]).toEqual([403, undefined]);
  });

  it.each(FAMILIES)("$name answers its own origin's page, and an origin the user listed with a grant for it", async ({ method, path }) => {
    const server = await serve(version, [`${APP}/`]);
    const host = `127.0.0.1:${server.port}`;
    const own = await send(server, method, path, { host, origin: `http://${host}` });
    expect([own.status, own.headers["access-control-allow-origin"]]).toEqual([200, `http://${host}`]);
    const listed = await send(server, method, path, { host, origin: APP });
    expect([listed.status, listed.headers["access-control-allow-origin"]]).toEqual([200, APP]);
    const preflight = await send(server, "OPTIONS", path, {
      host,
      origin: APP,
      "access-control-request-method": method,
      "access-control-request-headers": "content-type",
    });
    expect([preflight.status, preflight.headers["access-control-allow-origin"], preflight.headers["access-control-allow-headers"]]).toEqual(
      [204, APP, "content-type"],
    );
  });

  it("keeps the service's API open to every origin and Host, as the service is", async () => {
    const server = await serve(version);
    const answer = await send(server, "GET", "/api/v1/projects/current", {
      host: `attacker.example:${server.port}`,
      origin: EVIL,
      "x-stack-project-id": DEMO_KEYS.projectId,
      "x-stack-access-type": "client",
      "x-stack-publishable-client-key": DEMO_KEYS.publishableClientKey,
    });
    expect([answer.status, answer.headers["access-control-allow-origin"]]).toEqual([200, "*"]);
  });
});

describe("allowedOrigins", () => {
  it("refuses what is not an origin, by name", async () => {
    await expect(startEmulatorServer({ port: 0, allowedOrigins: ["localhost:5173"] })).rejects.toThrow(
      'allowedOrigins: "localhost:5173" has no origin (use http or https)',
    );
  });
});
