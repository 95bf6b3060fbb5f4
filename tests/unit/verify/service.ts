// The emulator over real HTTP for the verification tests: a server per test
// whose every exchange is checked against the document, sign-ins through the
// API as an app makes them, a fetch that counts the key-set requests, and a key
// rotation (the emulator keeps a signing key for its lifetime, so rotating is
// restarting it on the same port with the same state).
import { afterEach, beforeEach, expect } from "vitest";
import { DEMO_KEYS, INTERNAL_KEYS } from "../../../emulator/index.js";
import { startEmulatorServer, type EmulatorServer } from "../../../emulator/server.js";
import type { Fetch } from "../../../runtime/platform/env.js";
import { documentChecker, TEST_PASSWORD } from "../../helpers/emulator.js";

export interface Service {
  readonly server: EmulatorServer;
  /** The base URL apps and verifiers use. */
  readonly url: string;
  /** Paths of the key-set requests sent through `fetch`, in order. */
  readonly jwksRequests: string[];
  /** A real fetch (undici) that records key-set requests. */
  readonly fetch: Fetch;
  /** The access token of a password sign-in of a new user of `project` (the demo project by default). */
  signIn(email: string, project?: typeof DEMO_KEYS | typeof INTERNAL_KEYS): Promise<{ accessToken: string; userId: string }>;
  /** The access token of an anonymous sign-up to the demo project. */
  signUpAnonymously(): Promise<string>;
  /** The demo project's sessions as the API lists them to `accessToken`'s user. */
  sessionsOf(accessToken: string, userId: string): Promise<{ id: string; is_current_session: boolean }[]>;
  /** Restarts the emulator on the same port with the same state: a new signing key. */
  rotateKeys(): Promise<void>;
  /** Stops it: the port refuses connections. */
  stop(): Promise<void>;
}

/** A fresh emulator server before each test, checked for violations of the document after it. */
export function useService(): () => Service {
  let current: (Service & { violations: string[] }) | undefined;
  beforeEach(async () => {
    current = await startService();
  });
  afterEach(async () => {
    await current?.server.close();
    expect(current?.violations ?? []).toEqual([]);
  });
  return () => {
    if (!current) throw new Error("useService: no service outside a test");
    return current;
  };
}

/**
 * `headers` with `connection: close`: a restarted server (rotateKeys) closed
 * the sockets undici keeps for reuse, and a request sent on one fails.
 */
function unpooled(headers: Headers): Headers {
  const copy = new Headers(headers);
  copy.set("connection", "close");
  return copy;
}

async function startService(): Promise<Service & { violations: string[] }> {
  const checker = documentChecker();
  let server = await startEmulatorServer({ port: 0, onExchange: checker.onExchange });
  const jwksRequests: string[] = [];
  const fetch: Fetch = (request) => {
    const path = new URL(request.url).pathname;
    if (path.endsWith("/.well-known/jwks.json")) jwksRequests.push(path);
    return globalThis.fetch(new Request(request, { headers: unpooled(request.headers) }));
  };
  const call = async (project: typeof DEMO_KEYS | typeof INTERNAL_KEYS, method: string, path: string, body?: object, token?: string) => {
    const headers: Record<string, string> = {
      "x-stack-project-id": project.projectId,
      "x-stack-access-type": "client",
      "x-stack-publishable-client-key": project.publishableClientKey,
      ...(body && { "content-type": "application/json" }),
      ...(token && { "x-stack-access-token": token }),
      connection: "close",
    };
    const response = await globalThis.fetch(`${server.url}/api/v1${path}`, {
      method,
      headers,
      ...(body && { body: JSON.stringify(body) }),
    });
    const json = (await response.json()) as Record<string, unknown>;
    if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${JSON.stringify(json)}`);
    return json;
  };
  return {
    get server() {
      return server;
    },
    get url() {
      return server.url;
    },
    violations: checker.violations,
    jwksRequests,
    fetch,
    async signIn(email, project = DEMO_KEYS) {
      await server.emulator.control.createUser({ projectId: project.projectId, email, password: TEST_PASSWORD });
      const answer = await call(project, "POST", "/auth/password/sign-in", { email, password: TEST_PASSWORD });
      return { accessToken: answer["access_token"] as string, userId: answer["user_id"] as string };
    },
    async signUpAnonymously() {
      return (await call(DEMO_KEYS, "POST", "/auth/anonymous/sign-up", {}))["access_token"] as string;
    },
    async sessionsOf(accessToken, userId) {
      const answer = await call(DEMO_KEYS, "GET", `/auth/sessions?user_id=${encodeURIComponent(userId)}`, undefined, accessToken);
      return answer["items"] as { id: string; is_current_session: boolean }[];
    },
    async rotateKeys() {
      const state = server.emulator.control.exportState();
      await server.close();
      server = await startEmulatorServer({ port: server.port, state, onExchange: checker.onExchange });
    },
    stop: () => server.close(),
  };
}
