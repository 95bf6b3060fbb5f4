// The emulator's page at /emulator/ui/ (emulator/page.ts), over HTTP: its three built files, each with a
// Content-Security-Policy that allows only the page's own origin; the same local-only rules as the control
// API (a loopback Host, no other origin, no CORS grant); `/mailbox` leading to its e-mail view; and what it
// says where it is not built. The page is built once for the file (scripts/lib/emulator-page.mjs), into a
// temporary folder the server is pointed at.
import { request as httpRequest } from "node:http";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PAGE_CSP } from "../../emulator/page.js";
import { pageFilesIn } from "../../emulator/page-files.js";
import { startEmulatorServer, type EmulatorServer } from "../../emulator/server.js";
import { buildEmulatorPage } from "../../scripts/lib/emulator-page.mjs";

let dir: string;
let server: EmulatorServer;
let unbuilt: EmulatorServer;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "stackkit-page-"));
  await buildEmulatorPage(dir);
  server = await startEmulatorServer({ port: 0, page: pageFilesIn(dir) });
  unbuilt = await startEmulatorServer({ port: 0, page: pageFilesIn(path.join(dir, "nothing-here")) });
}, 60_000);

afterAll(async () => {
  await server?.close();
  await unbuilt?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A raw HTTP request, so that the Host header can be anything. */
function send(target: EmulatorServer, method: string, route: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }>((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port: target.port, method, path: route, headers }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("the emulator's page", () => {
  it("serves its HTML, script and stylesheet, each under a policy that allows only its own origin", async () => {
    const expected = [
      ["/emulator/ui/", "text/html; charset=utf-8", "index.html"],
      ["/emulator/ui/index.html", "text/html; charset=utf-8", "index.html"],
      ["/emulator/ui/app.js", "text/javascript; charset=utf-8", "app.js"],
      ["/emulator/ui/app.css", "text/css; charset=utf-8", "app.css"],
    ] as const;
    for (const [route, type, file] of expected) {
      const answer = await send(server, "GET", route);
      expect([route, answer.status, answer.headers["content-type"]]).toEqual([route, 200, type]);
      expect(answer.headers).toMatchObject({
        "content-security-policy": PAGE_CSP,
        "x-content-type-options": "nosniff",
        "referrer-policy": "no-referrer",
        "cache-control": "no-store",
      });
      expect(answer.headers["access-control-allow-origin"]).toBeUndefined();
      expect(answer.body).toBe(readFileSync(path.join(dir, file), "utf8"));
    }
    expect(PAGE_CSP).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    );
  });

  it("has no inline script or style, and names nothing of another origin", async () => {
    const html = (await send(server, "GET", "/emulator/ui/")).body;
    expect([...html.matchAll(/<script\b[^>]*>/g)].map((match) => match[0])).toEqual(['<script type="module" src="./app.js">']);
    expect(html).not.toMatch(/<style|\son\w+=|javascript:/i);
    expect([...html.matchAll(/(?:src|href)="([^"]*)"/g)].map((match) => match[1])).toEqual(["data:,", "./app.css", "./app.js"]);
  });

  it("redirects /emulator/ui to /emulator/ui/, and answers 404 for another file and 405 for another method", async () => {
    const bare = await send(server, "GET", "/emulator/ui");
    expect([bare.status, bare.headers.location]).toEqual([308, "/emulator/ui/"]);
    expect((await send(server, "GET", "/emulator/ui/secrets.json")).status).toBe(404);
    const post = await send(server, "POST", "/emulator/ui/");
    expect([post.status, post.headers.allow]).toEqual([405, "GET, HEAD"]);
  });

  it("answers this machine only, as the control API does: another Host or Origin is refused without a grant", async () => {
    const rebound = await send(server, "GET", "/emulator/ui/", { host: `evil.example:${server.port}` });
    expect(rebound.status).toBe(403);
    expect(JSON.parse(rebound.body).error).toMatch(/not a loopback host/);
    const foreign = await send(server, "GET", "/emulator/ui/app.js", { origin: "https://evil.example" });
    expect([foreign.status, foreign.headers["access-control-allow-origin"]]).toEqual([403, undefined]);
    const own = await send(server, "GET", "/emulator/ui/app.js", { origin: server.url, host: `127.0.0.1:${server.port}` });
    expect(own.status).toBe(200);
    expect((await send(server, "GET", "/emulator/ui/", { host: `localhost:${server.port}` })).status).toBe(200);
  });

  it("is where /mailbox leads: the e-mail view, of one box when one is named", async () => {
    const all = await send(server, "GET", "/mailbox");
    expect([all.status, all.headers.location]).toEqual([302, "/emulator/ui/#/emails"]);
    const box = await send(server, "GET", "/mailbox/ada.l/some-id");
    expect([box.status, box.headers.location]).toEqual([302, "/emulator/ui/#/emails?to=ada.l"]);
    // The Inbucket API stays as it is.
    expect((await send(server, "GET", "/api/v1/mailbox/ada")).body).toBe("[]");
  });

  it("says how to build it where it is not built, and the mailbox page stays then", async () => {
    const answer = await send(unbuilt, "GET", "/emulator/ui/");
    expect(answer.status).toBe(404);
    expect(answer.body).toMatch(/^The emulator's page is not built here: the package ships it \(dist\/emulator-ui\/\)/);
    const mailbox = await send(unbuilt, "GET", "/mailbox");
    expect([mailbox.status, mailbox.headers["content-type"]]).toEqual([200, "text/html; charset=utf-8"]);
  });
});
