// An emulator for a test, whose every exchange under /api/v1 is validated
// against the document in its service version's view (document-view.ts:
// request and answer: status, headers, body schema).
// A violation is recorded and fails the test that made it (`expectNoViolations`
// runs after each test of a file that calls `useEmulator`).
import { afterEach, beforeEach, expect } from "vitest";
import {
  createEmulator,
  DEFAULT_SERVICE_VERSION,
  DEMO_KEYS,
  type Emulator,
  type EmulatorOptions,
  type ServiceVersion,
} from "../../emulator/index.js";
import { StackAdminApp, StackClientApp, StackServerApp } from "../../runtime/index.js";
import { validatorFor } from "./document-view.js";
import type { Violation } from "./openapi-validator.js";

export interface CheckedEmulator extends Emulator {
  /** Violations of the document seen so far: `METHOD path status: message`. */
  readonly violations: string[];
}

/**
 * An `onExchange` for an emulator (in-process or a server) of `serviceVersion`
 * (the emulator's default unless told) that validates each exchange against that
 * version's view of the document, and the violations it found.
 */
export function documentChecker(serviceVersion: ServiceVersion = DEFAULT_SERVICE_VERSION): {
  readonly onExchange: NonNullable<EmulatorOptions["onExchange"]>;
  readonly violations: string[];
  /** How many exchanges it checked. */
  readonly checked: () => number;
} {
  const violations: string[] = [];
  const validator = validatorFor(serviceVersion);
  let checked = 0;
  return {
    violations,
    checked: () => checked,
    async onExchange({ request, response }) {
      checked++;
      const url = new URL(request.url);
      const requestText = await request.text();
      const responseText = await response.text();
      const found: Violation[] = validator.validate({
        request: {
          method: request.method,
          path: url.pathname + url.search,
          headers: Object.fromEntries(request.headers),
          ...(requestText === "" ? {} : { body: parse(requestText, request.headers.get("content-type")) }),
        },
        response: {
          status: response.status,
          headers: Object.fromEntries(response.headers),
          ...(responseText === "" ? {} : { body: parse(responseText, response.headers.get("content-type")) }),
        },
      });
      for (const v of found) violations.push(`${request.method} ${url.pathname} ${response.status}: ${v.path} ${v.message}`);
    },
  };
}

/** An emulator whose every API exchange is checked against the document. */
export async function checkedEmulator(options: EmulatorOptions = {}): Promise<CheckedEmulator> {
  const checker = documentChecker(options.serviceVersion ?? DEFAULT_SERVICE_VERSION);
  const emulator = await createEmulator({ ...options, onExchange: checker.onExchange });
  if (emulator.serviceVersion !== (options.serviceVersion ?? DEFAULT_SERVICE_VERSION)) {
    throw new Error(`checkedEmulator: the emulator answers as ${emulator.serviceVersion}, checked as another version`);
  }
  return { ...emulator, violations: checker.violations };
}

/**
 * Makes a checked emulator of a service version per call, for tests that pick
 * the version themselves. Registers, in the calling file, an afterEach that fails
 * the test whose exchanges broke the document.
 */
export function checkedEmulatorPerTest(): (serviceVersion: ServiceVersion) => Promise<CheckedEmulator> {
  let current: CheckedEmulator | undefined;
  afterEach(() => {
    expect(current?.violations ?? [], "exchanges that break the document").toEqual([]);
    current = undefined;
  });
  return async (serviceVersion) => (current = await checkedEmulator({ serviceVersion }));
}

function parse(text: string, contentType: string | null): unknown {
  if (contentType?.includes("application/x-www-form-urlencoded")) return Object.fromEntries(new URLSearchParams(text));
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * A fresh checked emulator before each test of the file, and a check after each
 * that it saw no violation of the document. Returns a getter.
 */
export function useEmulator(options: EmulatorOptions = {}): () => CheckedEmulator {
  let current: CheckedEmulator | undefined;
  beforeEach(async () => {
    current = await checkedEmulator(options);
  });
  afterEach(() => {
    expect(current?.violations ?? []).toEqual([]);
  });
  return () => {
    if (!current) throw new Error("useEmulator: no emulator outside a test");
    return current;
  };
}

/** Apps of the demo project on `emulator` (in-process: its fetch is the apps' fetch). */
export function demoApps(emulator: Emulator) {
  const common = {
    projectId: DEMO_KEYS.projectId,
    publishableClientKey: DEMO_KEYS.publishableClientKey,
    baseUrl: emulator.apiOrigin,
    environment: { fetch: emulator.fetch },
    browser: null,
    noAutomaticPrefetch: true,
  } as const;
  return {
    client: () => new StackClientApp({ ...common, tokenStore: "memory" }),
    server: () => new StackServerApp({ ...common, tokenStore: "memory", secretServerKey: DEMO_KEYS.secretServerKey }),
    admin: () =>
      new StackAdminApp({
        ...common,
        tokenStore: "memory",
        secretServerKey: DEMO_KEYS.secretServerKey,
        superSecretAdminKey: DEMO_KEYS.superSecretAdminKey,
      }),
  };
}

/**
 * Options of a demo-project app on `emulator`, on the emulator's clock: an
 * advanced clock expires tokens, codes and keys for the apps too.
 */
export function demoAppOptions(emulator: Emulator) {
  return {
    projectId: DEMO_KEYS.projectId,
    publishableClientKey: DEMO_KEYS.publishableClientKey,
    baseUrl: emulator.apiOrigin,
    environment: { fetch: emulator.fetch, now: () => emulator.control.now() },
    browser: null,
    noAutomaticPrefetch: true,
  } as const;
}

export const TEST_PASSWORD = "correct horse battery";

/** A user of the demo project (made directly, with a verified e-mail unless told), and a client app signed in as them. */
export async function signedInUser(
  emulator: Emulator,
  email: string,
  o: { readonly displayName?: string | null; readonly emailVerified?: boolean } = {},
) {
  const record = await emulator.control.createUser({
    projectId: DEMO_KEYS.projectId,
    email,
    password: TEST_PASSWORD,
    ...(o.displayName !== undefined && { displayName: o.displayName }),
    ...(o.emailVerified !== undefined && { emailVerified: o.emailVerified }),
  });
  const tokens = await emulator.control.createSession(record.id);
  const app = new StackClientApp({ ...demoAppOptions(emulator), tokenStore: tokens });
  const user = await app.getUser({ or: "throw" });
  return { record, tokens, app, user };
}

/** A request to the demo project with the given access type, outside the SDK: for what the SDK never sends. */
export async function rawDemoRequest(
  emulator: Emulator,
  method: string,
  path: string,
  o: { access?: "client" | "server"; token?: string; body?: unknown } = {},
) {
  const access = o.access ?? "client";
  const headers: Record<string, string> = { "x-stack-project-id": DEMO_KEYS.projectId, "x-stack-access-type": access };
  if (access === "client") headers["x-stack-publishable-client-key"] = DEMO_KEYS.publishableClientKey;
  else headers["x-stack-secret-server-key"] = DEMO_KEYS.secretServerKey;
  if (o.token) headers["x-stack-access-token"] = o.token;
  if (o.body !== undefined) headers["content-type"] = "application/json";
  const init: RequestInit = { method, headers, ...(o.body !== undefined && { body: JSON.stringify(o.body) }) };
  const response = await emulator.fetch(new Request(`${emulator.apiOrigin}/api/v1${path}`, init));
  const text = await response.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, text, json, knownError: response.headers.get("x-stack-known-error") };
}
