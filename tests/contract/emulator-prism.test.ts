// Prism's validation proxy in front of the running emulator: a client, server
// and admin flow goes through it, and every request and answer it sees must
// be what the document says (Prism reports each violation in the
// `sl-violations` header). The apps' requests go without
// `x-stack-override-error-status`, so that Prism sees each error with its real
// status and checks it against the documented error responses.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_KEYS } from "../../emulator/index.js";
import { startEmulatorServer, type EmulatorServer } from "../../emulator/server.js";
import { StackAdminApp, StackClientApp, StackServerApp, type Fetch } from "../../runtime/index.js";
import { freePort, mockDocument } from "../../scripts/mock.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));
let server: EmulatorServer;
let prism: ChildProcess;
let proxyUrl: string;
let dir: string;
const violations: string[] = [];
let exchanges = 0;

beforeAll(async () => {
  server = await startEmulatorServer({ port: 0 });
  dir = mkdtempSync(path.join(tmpdir(), "stackkit-prism-"));
  const file = path.join(dir, "openapi.json");
  writeFileSync(file, JSON.stringify(mockDocument()));
  const port = (await freePort()) as number;
  prism = spawn(
    process.execPath,
    [path.join(root, "node_modules/@stoplight/prism-cli/dist/index.js"), "proxy", file, server.url, "-h", "127.0.0.1", "-p", String(port)],
    { cwd: root, stdio: ["ignore", "pipe", "pipe"] },
  );
  proxyUrl = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    const up = await fetch(`${proxyUrl}/api/v1/projects/current`, { headers: clientHeaders() }).then(
      () => true,
      () => false,
    );
    if (up) break;
    if (i > 300) throw new Error("Prism's proxy did not start within 15 s");
    await new Promise((r) => setTimeout(r, 50));
  }
}, 30_000);

afterAll(async () => {
  prism?.kill();
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

function clientHeaders() {
  return {
    "x-stack-project-id": DEMO_KEYS.projectId,
    "x-stack-access-type": "client",
    "x-stack-publishable-client-key": DEMO_KEYS.publishableClientKey,
  };
}

/** The platform's fetch, without the override header, recording Prism's violations. */
const throughPrism: Fetch = async (request) => {
  const headers = new Headers(request.headers);
  headers.delete("x-stack-override-error-status");
  const body = request.body === null ? null : await request.arrayBuffer();
  const response = await fetch(new Request(request.url, { method: request.method, headers, body, redirect: "manual" }));
  exchanges++;
  const reported = response.headers.get("sl-violations");
  if (reported) {
    for (const v of JSON.parse(reported) as { location?: string[]; message?: string; severity?: string }[]) {
      violations.push(
        `${request.method} ${new URL(request.url).pathname} ${response.status}: ${(v.location ?? []).join(".")} ${v.message ?? ""}`,
      );
    }
  }
  return response;
};

function apps() {
  const common = {
    projectId: DEMO_KEYS.projectId,
    publishableClientKey: DEMO_KEYS.publishableClientKey,
    baseUrl: proxyUrl,
    environment: { fetch: throughPrism },
    browser: null,
    noAutomaticPrefetch: true,
    // No page to resolve handler paths against: the links the service mails point at the app here.
    urls: {
      emailVerification: "http://localhost:5173/handler/email-verification",
      teamInvitation: "http://localhost:5173/handler/team-invitation",
      passwordReset: "http://localhost:5173/handler/password-reset",
    },
  } as const;
  return {
    client: () => new StackClientApp({ ...common, tokenStore: "memory" }),
    server: new StackServerApp({ ...common, tokenStore: null, secretServerKey: DEMO_KEYS.secretServerKey }),
    admin: new StackAdminApp({
      ...common,
      tokenStore: null,
      secretServerKey: DEMO_KEYS.secretServerKey,
      superSecretAdminKey: DEMO_KEYS.superSecretAdminKey,
    }),
  };
}

describe("the emulator behind Prism's validation proxy", () => {
  it("serves a client, server and admin flow with zero violations of the document", async () => {
    const { client, server: serverApp, admin } = apps();
    const ada = client();
    const password = "correct horse battery staple";
    expect((await ada.signUpWithCredential({ email: "ada@example.com", password, noRedirect: true })).status).toBe("ok");
    const taken = await client().signUpWithCredential({ email: "ada@example.com", password, noRedirect: true });
    expect(taken.status).toBe("error");
    const wrong = await client().signInWithCredential({ email: "ada@example.com", password: "not the password", noRedirect: true });
    expect(wrong.status).toBe("error");
    const user = await ada.getUser({ or: "throw" });
    await user.update({ displayName: "Ada Lovelace", clientMetadata: { theme: "dark" } });
    const channel = await user.createContactChannel({ type: "email", value: "ada@work.example.com", usedForAuth: false });
    await channel.update({ value: "ada@analytical.example.com" });
    expect((await user.listContactChannels()).length).toBe(2);
    await channel.delete();
    const team = await user.createTeam({ displayName: "Analytical Engines" });
    await team.inviteUser({ email: "grace@example.com" });
    expect((await team.listUsers()).map((u) => u.id)).toEqual([user.id]);
    await team.update({ displayName: "Difference Engines" });
    expect((await user.listTeams()).map((t) => t.displayName)).toEqual(["Difference Engines"]);
    await user.listPermissions(team);
    const key = await user.createApiKey({ description: "CI", expiresAt: new Date(Date.now() + 3_600_000) });
    expect((await user.listApiKeys()).map((k) => k.id)).toEqual([key.id]);
    await key.revoke();
    expect((await user.getActiveSessions()).length).toBeGreaterThan(0);

    const grace = await serverApp.createUser({ primaryEmail: "grace@example.com", password, primaryEmailAuthEnabled: true });
    await grace.update({ serverMetadata: { role: "rear admiral" } });
    expect((await serverApp.listUsers()).map((u) => u.primaryEmail).sort()).toEqual(["ada@example.com", "grace@example.com"]);
    const serverTeam = await serverApp.getTeam(team.id);
    await serverTeam!.addUser(grace.id);
    expect((await serverTeam!.listUsers()).length).toBe(2);
    await grace.createSession({ isImpersonation: true });
    expect((await admin.getProject()).id).toBe(DEMO_KEYS.projectId);
    await admin.listInternalApiKeys();
    await ada.signOut();

    console.info(`Prism proxy: ${exchanges} exchanges, ${violations.length} violations`);
    expect(violations).toEqual([]);
  }, 60_000);

  it("reports a violation when there is one (a request body the document refuses)", async () => {
    const before = violations.length;
    const headers = { ...clientHeaders(), "content-type": "application/json" };
    await throughPrism(
      new Request(`${proxyUrl}/api/v1/auth/password/sign-in`, { method: "POST", headers, body: JSON.stringify({ email: 42 }) }),
    );
    expect(violations.length).toBeGreaterThan(before);
  });
});
