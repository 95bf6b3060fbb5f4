// The emulator over real HTTP on 127.0.0.1: health, an app with the platform's
// fetch, CORS, the control API, the Inbucket-compatible mailbox and its page,
// the dropped-connection fault, state kept in a data file across restarts, and
// the bin (run from source, as `make emulator` runs it).
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DEMO_KEYS } from "../../emulator/index.js";
import { startEmulatorServer, type EmulatorServer } from "../../emulator/server.js";
import { StackClientApp } from "../../runtime/index.js";
import { controlChecker } from "../helpers/control-document.js";
import { documentChecker } from "../helpers/emulator.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const demoHeaders = {
  "x-stack-project-id": DEMO_KEYS.projectId,
  "x-stack-access-type": "client",
  "x-stack-publishable-client-key": DEMO_KEYS.publishableClientKey,
};

let server: EmulatorServer;
// Every exchange over HTTP is checked against the document too.
let checker = documentChecker();
// And every exchange with the control API against its own document (emulator/control-openapi.json).
let controlCheck = controlChecker();
beforeEach(async () => {
  checker = documentChecker();
  controlCheck = controlChecker();
  server = await startEmulatorServer({ port: 0, onExchange: checker.onExchange });
});
afterEach(async () => {
  await server.close();
  expect(checker.violations).toEqual([]);
  expect(controlCheck.violations).toEqual([]);
});

const control = async (method: string, route: string, body?: unknown) => {
  const url = `${server.url}/emulator/v1/${route}`;
  const init: RequestInit = {
    method,
    ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { "content-type": "application/json" } }),
  };
  const response = await fetch(url, init);
  await controlCheck.check(new Request(url, init), response.clone());
  return { status: response.status, body: (await response.json()) as any };
};

describe("the emulator over HTTP", () => {
  it("listens on 127.0.0.1 and answers GET /health as the service does", async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.emulator.apiOrigin).toBe(server.url);
    const response = await fetch(`${server.url}/health`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ok" });
  });

  it("serves a StackClientApp that uses the platform's own fetch", async () => {
    const app = new StackClientApp({
      ...demoHeadersToOptions(),
      baseUrl: server.url,
      tokenStore: "memory",
      browser: null,
      noAutomaticPrefetch: true,
    });
    expect((await app.getProject()).displayName).toBe("Demo");
    expect(server.emulator.control.requests().map((r) => [r.operationId, r.status])).toEqual([["getCurrentProject", 200]]);
  });

  it("answers a browser's CORS preflight and exposes the protocol headers", async () => {
    const preflight = await fetch(`${server.url}/api/v1/users/me`, {
      method: "OPTIONS",
      headers: {
        origin: "http://localhost:5173",
        "access-control-request-method": "PATCH",
        "access-control-request-headers": "x-stack-project-id",
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
    expect(preflight.headers.get("access-control-allow-methods")).toContain("PATCH");
    expect(preflight.headers.get("access-control-allow-headers")).toContain("x-stack-project-id");
    const answer = await fetch(`${server.url}/api/v1/projects/current`, { headers: { ...demoHeaders, origin: "http://localhost:5173" } });
    expect(answer.headers.get("access-control-allow-origin")).toBe("*");
    expect(answer.headers.get("access-control-expose-headers")).toContain("x-stack-known-error");
  });

  it("hands the known-error protocol through unchanged", async () => {
    const response = await fetch(`${server.url}/api/v1/projects/current`, {
      headers: { ...demoHeaders, "x-stack-publishable-client-key": "wrong" },
    });
    expect(response.status).toBeGreaterThanOrEqual(400);
    const body = (await response.json()) as { code: string };
    expect(response.headers.get("x-stack-known-error")).toBe(body.code);
  });

  it("drops the connection for an injected drop fault, then answers again", async () => {
    server.emulator.control.injectFault("getCurrentProject", { kind: "drop" });
    await expect(fetch(`${server.url}/api/v1/projects/current`, { headers: demoHeaders })).rejects.toThrow(TypeError);
    const again = await fetch(`${server.url}/api/v1/projects/current`, { headers: demoHeaders });
    expect(again.status).toBe(200);
  });
});

function demoHeadersToOptions() {
  return { projectId: DEMO_KEYS.projectId, publishableClientKey: DEMO_KEYS.publishableClientKey };
}

describe("the control API over HTTP", () => {
  it("creates users and sessions, and refuses bad input with a 400 { error }", async () => {
    const created = await control("POST", "users", { email: "ada@example.com", password: "correct horse" });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ project_id: DEMO_KEYS.projectId, has_password: true });
    expect(created.body).not.toHaveProperty("password_hash");
    const session = await control("POST", "sessions", { userId: created.body.id });
    expect(session.status).toBe(201);
    expect(session.body.accessToken.split(".")).toHaveLength(3);
    expect(typeof session.body.refreshToken).toBe("string");

    expect(await control("POST", "users", { email: "ada@example.com" })).toMatchObject({
      status: 400,
      body: { error: expect.stringContaining("ada@example.com") },
    });
    expect(await control("POST", "users", { projectId: "nope" })).toMatchObject({ status: 400 });
    expect(await control("POST", "sessions", {})).toMatchObject({ status: 400, body: { error: '"userId" is required' } });
    expect(await control("POST", "clock/advance", { ms: -1 })).toMatchObject({ status: 400 });
    expect(await control("POST", "faults", { operationId: "noSuchOperation", fault: { kind: "drop" } })).toMatchObject({ status: 400 });
    expect(
      await control("POST", "faults", { operationId: "getCurrentProject", fault: { kind: "known-error", code: "NOT_A_CODE" } }),
    ).toMatchObject({ status: 400 });
    expect(await control("GET", "no-such-route")).toMatchObject({ status: 404, body: { error: expect.any(String) } });
    const wrongMethod = await fetch(`${server.url}/emulator/v1/users`);
    expect([wrongMethod.status, wrongMethod.headers.get("allow")]).toEqual([405, "POST"]);
    expect(await wrongMethod.json()).toEqual({ error: `GET /emulator/v1/users is not a control route: use POST /emulator/v1/users` });
    const notJson = await fetch(`${server.url}/emulator/v1/users`, { method: "POST", body: "{" });
    expect(notJson.status).toBe(400);
    expect(await notJson.json()).toEqual({ error: "The body is not JSON" });
  });

  it("moves the clock, injects and clears faults, and reads and clears the request log", async () => {
    const before = (await control("GET", "clock")).body.now as number;
    const after = await control("POST", "clock/advance", { ms: 3_600_000 });
    expect(after.body.now - before).toBeGreaterThanOrEqual(3_600_000);
    expect(after.body.iso).toBe(new Date(after.body.now).toISOString());

    await control("POST", "faults", { operationId: "getCurrentProject", fault: { kind: "rate-limit", retryAfterSeconds: 7 }, times: 2 });
    for (let i = 0; i < 2; i++) {
      const limited = await fetch(`${server.url}/api/v1/projects/current`, { headers: demoHeaders });
      expect([limited.status, limited.headers.get("retry-after")]).toEqual([429, "7"]);
    }
    expect((await fetch(`${server.url}/api/v1/projects/current`, { headers: demoHeaders })).status).toBe(200);
    await control("POST", "faults", { operationId: "getCurrentProject", fault: { kind: "status", status: 503 }, times: "always" });
    expect((await fetch(`${server.url}/api/v1/projects/current`, { headers: demoHeaders })).status).toBe(503);
    await control("DELETE", "faults");
    expect((await fetch(`${server.url}/api/v1/projects/current`, { headers: demoHeaders })).status).toBe(200);

    const log = await control("GET", "requests?operation_id=getCurrentProject");
    expect(log.body.map((r: { status: number }) => r.status)).toEqual([429, 429, 200, 503, 200]);
    await control("DELETE", "requests");
    expect((await control("GET", "requests")).body).toEqual([]);
  });

  it("exports, imports and resets the state, and lists e-mails and codes", async () => {
    await control("POST", "users", { email: "grace@example.com", password: "pw-grace-1234" });
    const state = (await control("GET", "state")).body;
    expect(state.version).toBe(1);
    expect(state.tables.users).toHaveLength(1);
    await control("POST", "reset", {});
    expect((await control("GET", "state")).body.tables.users).toEqual([]);
    expect((await control("PUT", "state", state)).status).toBe(200);
    expect(server.emulator.engine.ctx.store.authChannelByEmail(DEMO_KEYS.projectId, "grace@example.com")).toBeDefined();
    expect(await control("PUT", "state", { version: 2 })).toMatchObject({ status: 400 });
    await control("POST", "reset", { empty: true });
    expect((await control("GET", "state")).body.tables.projects).toEqual([]);
    await control("POST", "reset");

    const ctx = server.emulator.engine.ctx;
    ctx.mail.send({ projectId: DEMO_KEYS.projectId, to: "Grace@Example.com", subject: "Hello", text: "Hi" });
    ctx.issueCode({
      projectId: DEMO_KEYS.projectId,
      kind: "password_reset",
      recipient: "grace@example.com",
      callbackUrl: "http://localhost:5173/reset",
      lifetimeMs: 60_000,
      data: {},
    });
    expect((await control("GET", "emails?to=grace")).body.map((e: { subject: string }) => e.subject)).toEqual(["Hello"]);
    expect((await control("GET", "emails?to=someone-else@example.com")).body).toEqual([]);
    const codes = (await control("GET", "codes?recipient=grace@example.com&kind=password_reset")).body;
    expect(codes).toHaveLength(1);
    expect(codes[0].link).toBe(`http://localhost:5173/reset?code=${codes[0].code}`);
    expect(await control("GET", "codes?kind=nonsense")).toMatchObject({ status: 400 });
  });
});

describe("the mailbox", () => {
  const send = (to: string, subject: string, text: string) =>
    server.emulator.engine.ctx.mail.send({ projectId: DEMO_KEYS.projectId, to, subject, text });

  it("answers Inbucket's v1 API: list, message, latest, source, seen, delete, purge", async () => {
    const first = send(
      "Bob@Example.com",
      "Verify your e-mail",
      "Open http://localhost:5173/handler/email-verification?code=abc to verify.",
    );
    const second = send("bob@example.com", "Reset your password", "Open http://localhost:5173/handler/password-reset?code=def");
    send("alice@example.com", "Not Bob's", "...");

    const list = await fetch(`${server.url}/api/v1/mailbox/bob`);
    // For this machine only: no CORS grant to other pages (tests/emulator/local-only.test.ts).
    expect(list.headers.get("access-control-allow-origin")).toBeNull();
    const headers = (await list.json()) as any[];
    expect(headers.map((h) => h.subject)).toEqual(["Verify your e-mail", "Reset your password"]);
    expect(headers[0]).toEqual({
      mailbox: "bob",
      id: first.id,
      from: first.from,
      // Inbucket shows an address without a name in angle brackets.
      to: ["<Bob@Example.com>"],
      subject: "Verify your e-mail",
      date: new Date(first.sent_at_millis).toISOString(),
      "posix-millis": first.sent_at_millis,
      size: expect.any(Number),
      seen: false,
    });
    // A full address names the same mailbox, as Inbucket accepts it.
    expect(((await (await fetch(`${server.url}/api/v1/mailbox/BOB@example.com`)).json()) as unknown[]).length).toBe(2);

    const message = (await (await fetch(`${server.url}/api/v1/mailbox/bob/${first.id}`)).json()) as any;
    expect(message.body.text).toContain("?code=abc");
    expect(message.body.html).toContain('<a href="http://localhost:5173/handler/email-verification?code=abc">');
    expect(message.header.Subject).toEqual(["Verify your e-mail"]);
    expect(message.attachments).toEqual([]);
    const latest = (await (await fetch(`${server.url}/api/v1/mailbox/bob/latest`)).json()) as any;
    expect(latest.id).toBe(second.id);
    const source = await (await fetch(`${server.url}/api/v1/mailbox/bob/${first.id}/source`)).text();
    expect(source).toContain("Subject: Verify your e-mail\r\n");
    expect(new TextEncoder().encode(source).length).toBe(message.size);
    expect((await fetch(`${server.url}/api/v1/mailbox/bob/nope`)).status).toBe(404);

    const patched = await fetch(`${server.url}/api/v1/mailbox/bob/${first.id}`, { method: "PATCH", body: JSON.stringify({ seen: true }) });
    expect(await patched.json()).toBe("OK");
    expect(((await (await fetch(`${server.url}/api/v1/mailbox/bob`)).json()) as any[]).map((h) => h.seen)).toEqual([true, false]);

    expect(await (await fetch(`${server.url}/api/v1/mailbox/bob/${first.id}`, { method: "DELETE" })).json()).toBe("OK");
    expect(await (await fetch(`${server.url}/api/v1/mailbox/bob`, { method: "DELETE" })).json()).toBe("OK");
    expect(await (await fetch(`${server.url}/api/v1/mailbox/bob`)).json()).toEqual([]);
    expect(((await (await fetch(`${server.url}/api/v1/mailbox/alice`)).json()) as unknown[]).length).toBe(1);
    // The mailbox is not the service's API: never in the request log.
    expect(server.emulator.control.requests()).toEqual([]);
  });

  it("shows every message on a page, newest first, escaped, with clickable links", async () => {
    send("carol@example.com", "First <b>mail</b>", "Click https://localhost:5173/handler/magic-link-callback?code=x1&next=%2F.");
    send("dave@example.com", "Second", "Nothing to click <script>alert(1)</script>");
    const response = await fetch(`${server.url}/mailbox`);
    expect(response.headers.get("content-type")).toContain("text/html");
    const html = await response.text();
    expect(html.indexOf("Second")).toBeLessThan(html.indexOf("First"));
    expect(html).toContain("First &#60;b&#62;mail&#60;/b&#62;");
    expect(html).not.toContain("<script>");
    expect(html).toContain('<a href="https://localhost:5173/handler/magic-link-callback?code=x1&#38;next=%2F" target="_blank"');
    expect(html).toContain('href="/mailbox/carol"');

    const carol = await (await fetch(`${server.url}/mailbox/carol`)).text();
    expect(carol).toContain("First &#60;b&#62;");
    expect(carol).not.toContain("Second");
    const id = /href="\/mailbox\/carol\/([^"]+)"/.exec(carol)?.[1];
    const one = await fetch(`${server.url}/mailbox/carol/${id}`);
    expect(one.status).toBe(200);
    expect(await one.text()).toContain("/source");
    // Reading it on the page marks it seen.
    expect(((await (await fetch(`${server.url}/api/v1/mailbox/carol`)).json()) as any[])[0].seen).toBe(true);
  });
});

describe("the data file", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), "stackkit-emulator-data-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("keeps the state across a restart", async () => {
    const dataFile = path.join(dir, "state.jsonl");
    const first = await startEmulatorServer({ port: 0, dataFile });
    const created = await fetch(`${first.url}/emulator/v1/users`, {
      method: "POST",
      body: JSON.stringify({ email: "kept@example.com", password: "kept-password-1" }),
    });
    const user = (await created.json()) as { id: string };
    const tokens = await first.emulator.control.createSession(user.id);
    // In the file once answered, without waiting for close.
    expect(readFileSync(dataFile, "utf8")).toContain("kept@example.com");
    first.emulator.engine.ctx.mail.send({ projectId: DEMO_KEYS.projectId, to: "kept@example.com", subject: "Kept", text: "..." });
    await first.close();

    const second = await startEmulatorServer({ port: 0, dataFile, state: "empty" });
    try {
      expect(second.emulator.engine.ctx.store.user(user.id)?.project_id).toBe(DEMO_KEYS.projectId);
      expect(second.emulator.control.emails({ to: "kept" }).map((e) => e.subject)).toEqual(["Kept"]);
      const app = new StackClientApp({
        ...demoHeadersToOptions(),
        baseUrl: second.url,
        tokenStore: "memory",
        browser: null,
        noAutomaticPrefetch: true,
      });
      expect((await app.getProject()).displayName).toBe("Demo");
      // The signing key is new after a restart: the old access token is refused, and the kept refresh token renews it.
      const signedIn = new StackClientApp({
        ...demoHeadersToOptions(),
        baseUrl: second.url,
        tokenStore: tokens,
        browser: null,
        noAutomaticPrefetch: true,
      });
      expect((await signedIn.getUser())?.id).toBe(user.id);
    } finally {
      await second.close();
    }
  });
});

describe("the stackkit-emulator bin", () => {
  it("starts from source, prints its URLs and keys, answers /health, and stops on SIGTERM", async () => {
    const shared = ["--shared-email-host", "127.0.0.1", "--shared-email-port", "2500", "--shared-email-sender", "noreply@example.com"];
    const child = spawn(process.execPath, [path.join(root, "scripts/emulator.mjs"), "--port", "0", ...shared], {
      cwd: root,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    try {
      let said = "";
      child.stderr.on("data", (chunk: Buffer) => (said += chunk.toString()));
      const printed = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`the bin printed no API URL within 20 s:\n${said}`)), 20_000);
        child.stdout.on("data", (chunk: Buffer) => {
          said += chunk.toString();
          if (said.includes("Ctrl-C")) {
            clearTimeout(timer);
            resolve(said);
          }
        });
        child.once("exit", (code) => reject(new Error(`the bin exited with ${code}:\n${said}`)));
      });
      const api = /API:\s+(http:\/\/127\.0\.0\.1:\d+)\/api\/v1/.exec(printed)?.[1];
      expect(api).toBeDefined();
      expect(printed).toContain(`Mailbox:  ${api}/mailbox`);
      // The page, built beside the bundled bin and served with its policy; the mailbox leads to its e-mails.
      expect(printed).toContain(`Page:     ${api}/emulator/ui/`);
      const page = await fetch(`${api}/emulator/ui/`);
      expect([page.status, page.headers.get("content-type")]).toEqual([200, "text/html; charset=utf-8"]);
      expect(page.headers.get("content-security-policy")).toMatch(/^default-src 'none'; script-src 'self';/);
      expect((await fetch(`${api}/emulator/ui/app.js`)).status).toBe(200);
      const mailbox = await fetch(`${api}/mailbox`, { redirect: "manual" });
      expect([mailbox.status, mailbox.headers.get("location")]).toEqual([302, "/emulator/ui/#/emails"]);
      // The control API's document, bundled with the bin and served with the bin's address.
      expect(printed).toContain(`${api}/emulator/v1/openapi.json`);
      const document = (await (await fetch(`${api}/emulator/v1/openapi.json`)).json()) as { openapi: string; servers: unknown };
      expect(document.openapi).toBe("3.1.0");
      expect(document.servers).toEqual([{ url: `${api}/emulator/v1`, description: "This emulator" }]);
      expect(printed).toContain(DEMO_KEYS.publishableClientKey);
      expect(printed).toContain("this-publishable-client-key-is-for-local-development-only");
      expect(await (await fetch(`${api}/health`)).json()).toEqual({ status: "ok" });
    } finally {
      child.kill("SIGTERM");
    }
    expect(await exited).toBe(0);
  });

  it.each([
    [["--port", "nope"], "--port takes a port number"],
    [["--shared-email-port", "0"], "--shared-email-port takes a port number"],
    [["--storage-url", "ftp://files.example.com"], "--storage-url takes an http(s) URL"],
  ])("refuses %j, saying what is wrong", async (args, message) => {
    const child = spawn(process.execPath, [path.join(root, "scripts/emulator.mjs"), ...args], {
      cwd: root,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let said = "";
    child.stderr.on("data", (chunk: Buffer) => (said += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
    expect(code).toBe(2);
    expect(said).toContain(message);
  });
});
