// `stackkit/testing`: helpers for an app's own tests against the emulator, for
// any test runner (no hooks of vitest, jest or node:test here). Start an
// emulator, make users, sign an app in as one of them, and read what the
// emulator mailed: the latest e-mail, code or link sent to an address.
//
//   const emulator = await startEmulator();              // in-process; { http: true } for a server
//   const { client } = appsFor(emulator);
//   const app = client();
//   const user = await createTestUser(emulator);
//   await signInAs(app, user);
//   ...
//   await emulator.close();
/**
 * Helpers for an app's own tests against the emulator, for any test runner.
 *
 * Where to start: {@link startEmulator} (in-process, or over HTTP), {@link appsFor} for apps
 * that talk to it, {@link createTestUser} and {@link signInAs}; then read what it mailed
 * with {@link latestEmail}, {@link latestCode} and {@link latestLink}. {@link knownErrorMessage} gives
 * the text the service sends with a known error, for a mock's answer or an expected error.
 *
 * @packageDocumentation
 * @module stackkit/testing
 */

import { createEmulator, DEMO_KEYS, type Emulator, type EmulatorOptions } from "../emulator/index.js";
import type { CodeRecord, EmailRecord, UserRecord } from "../emulator/index.js";
import { StackAdminApp, StackClientApp, StackServerApp, type StackClientAppOptions, type TokenStoreInit } from "../runtime/index.js";

/**
 * What startEmulator takes: the emulator's own options, and `http` to serve it over HTTP.
 *
 * @example
 * ```ts
 * const options: StartEmulatorOptions = { http: { port: 8102 }, state: "default" };
 * const emulator = await startEmulator(options);
 * console.log(emulator.url); // "http://127.0.0.1:8102"
 * await emulator.close();
 * ```
 */
export interface StartEmulatorOptions extends EmulatorOptions {
  /**
   * Serve it over HTTP on 127.0.0.1 (Node only): `true` for a free port, or
   * `{ port, host }`. Default: in-process, no port (apps call its `fetch`).
   */
  readonly http?: boolean | { readonly port?: number; readonly host?: string };
}

/** An emulator started by {@link startEmulator}: in-process, or over HTTP with its `url`; `close()` stops it either way. */
export interface TestEmulator extends Emulator {
  /** The server's origin (`baseUrl` for apps) when started with `http`; undefined in-process. */
  readonly url: string | undefined;
  /**
   * Stops the server (if any). The in-process emulator needs nothing, but calling close is always right.
   *
   * @example
   * ```ts
   * let emulator: TestEmulator;
   * beforeAll(async () => {
   *   emulator = await startEmulator({ http: true });
   * });
   * afterAll(() => emulator.close());
   * ```
   */
  close(): Promise<void>;
}

let counter = 0;
const unique = () => `${Date.now().toString(36)}${(counter++).toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/**
 * A fresh emulator with the default projects (or `state`): in-process, or over HTTP with `{ http: true }` (Node only).
 * Resolves once it is ready; over HTTP, `url` is where it listens.
 *
 * @example
 * ```ts
 * const emulator = await startEmulator();
 * const app = appsFor(emulator).client();
 * // ... the test ...
 * await emulator.close();
 * ```
 */
export async function startEmulator(options: StartEmulatorOptions = {}): Promise<TestEmulator> {
  const { http, ...emulatorOptions } = options;
  if (!http) {
    const emulator = await createEmulator(emulatorOptions);
    return { ...emulator, url: undefined, close: async () => undefined };
  }
  // Loaded only when asked for: the in-process emulator needs no node: module and also runs in a browser.
  const { startEmulatorServer } = await import("../emulator/server.js");
  const listen = http === true ? {} : http;
  const server = await startEmulatorServer({
    ...emulatorOptions,
    port: listen.port ?? 0,
    ...(listen.host === undefined ? {} : { host: listen.host }),
  });
  return { ...server.emulator, url: server.url, close: () => server.close() };
}

/**
 * What createTestUser takes; every field has a default, so `{}` makes a verified user of the demo project.
 *
 * @example
 * ```ts
 * const options: TestUserOptions = {
 *   email: "ada@example.com",
 *   displayName: "Ada",
 *   clientMetadata: { theme: "dark" },
 * };
 * const user = await createTestUser(emulator, options);
 * ```
 */
export interface TestUserOptions {
  /** The project of the user. Default: the demo project. */
  readonly projectId?: string;
  /** The sign-in e-mail. Default: a new address, `test-<unique>@example.com` (its Inbucket mailbox is `test-<unique>`). */
  readonly email?: string;
  /** The password. Default: a random password, returned on the user. */
  readonly password?: string;
  /** The display name; default null. */
  readonly displayName?: string | null;
  /** Whether the e-mail is verified. Default true. */
  readonly emailVerified?: boolean;
  /** The user's client metadata; default `{}`. */
  readonly clientMetadata?: unknown;
  /** The user's server metadata; default `{}`. */
  readonly serverMetadata?: unknown;
}

/** A user made by {@link createTestUser}, with the password to sign in as them ({@link signInAs}). */
export interface TestUser {
  readonly id: string;
  readonly projectId: string;
  readonly email: string;
  /** The password to sign in with (what `signInAs` uses). */
  readonly password: string;
  readonly displayName: string | null;
  /**
   * The emulator's own record of the user, in the service's snake_case as the emulator keeps it (as
   * `emulator.control` answers it); the fields above are the camelCase view.
   */
  readonly record: UserRecord;
}

/**
 * Makes a user directly in the emulator (no sign-up request), with a verified e-mail and a password. Resolves to the
 * user with the password to sign in with; rejects when the e-mail is taken or the project does not exist.
 *
 * @example
 * ```ts
 * const user = await createTestUser(emulator, { displayName: "Ada" });
 * const app = appsFor(emulator).client();
 * await signInAs(app, user);
 * expect((await app.getUser())?.primaryEmail).toBe(user.email);
 * ```
 */
export async function createTestUser(emulator: Emulator, options: TestUserOptions = {}): Promise<TestUser> {
  const projectId = options.projectId ?? DEMO_KEYS.projectId;
  const email = options.email ?? `test-${unique()}@example.com`;
  const password = options.password ?? `Pw-${unique()}-${unique()}`;
  const record = await emulator.control.createUser({
    projectId,
    email,
    password,
    displayName: options.displayName ?? null,
    emailVerified: options.emailVerified ?? true,
    ...(options.clientMetadata === undefined ? {} : { clientMetadata: options.clientMetadata }),
    ...(options.serverMetadata === undefined ? {} : { serverMetadata: options.serverMetadata }),
  });
  return { id: record.id, projectId, email, password, displayName: record.display_name, record };
}

/**
 * Signs `app` in as a user, through the app's own e-mail-and-password sign-in:
 * the tokens land in whatever token store the app was given (memory, cookie, a
 * custom store), as a real sign-in puts them. Rejects with the sign-in's error when it fails (for example
 * KnownErrors.EmailPasswordMismatch).
 *
 * @example
 * ```ts
 * const user = await createTestUser(emulator);
 * const app = appsFor(emulator).client();
 * await signInAs(app, user);
 * const signedIn = await app.getUser({ or: "throw" });
 * ```
 */
export async function signInAs(app: StackClientApp, user: { readonly email: string; readonly password: string }): Promise<void> {
  const result = await app.signInWithCredential({ email: user.email, password: user.password, noRedirect: true });
  if (result.status === "error") throw result.error;
}

/**
 * A session for a user, made by the emulator without a sign-in request: `{ accessToken, refreshToken }`, usable as
 * a `tokenStore`. Rejects when the emulator has no such user.
 *
 * @example
 * ```ts
 * const user = await createTestUser(emulator);
 * const tokens = await sessionTokens(emulator, user);
 * const server = appsFor(emulator).server();
 * const current = await server.getUser({ tokenStore: tokens });
 * ```
 */
export async function sessionTokens(
  emulator: Emulator,
  user: { readonly id: string },
): Promise<{ accessToken: string; refreshToken: string }> {
  const tokens = await emulator.control.createSession(user.id);
  return { accessToken: tokens.accessToken, refreshToken: tokens.refreshToken };
}

/**
 * An e-mail the emulator sent, as `latestEmail` answers it: camelCase like the rest of stackkit, its time a Date.
 * (`emulator.control.emails()` answers the emulator's own records, `EmailRecord`, in the service's snake_case.)
 */
export interface TestEmail {
  readonly id: string;
  /** The project that sent it. */
  readonly projectId: string;
  /** The recipients' addresses. */
  readonly to: readonly string[];
  /** The sender's address. */
  readonly from: string;
  readonly subject: string;
  /** The plain-text body (where `linksIn` and `latestLink` look for links). */
  readonly text: string;
  /** The HTML body. */
  readonly html: string;
  /** When the emulator sent it, by its clock. */
  readonly sentAt: Date;
  /** Why sending failed (a test e-mail through a bad server), as the service keeps it; null when it went. */
  readonly error: string | Readonly<Record<string, unknown>> | null;
}

function testEmailOf(record: EmailRecord): TestEmail {
  return {
    id: record.id,
    projectId: record.project_id,
    to: [...record.to],
    from: record.from,
    subject: record.subject,
    text: record.text,
    html: record.html,
    sentAt: new Date(record.sent_at_millis),
    error: record.error,
  };
}

function noMail(emulator: Emulator, address: string, what: string): Error {
  const seen = [...new Set(emulator.control.emails().flatMap((email) => email.to))];
  return new Error(
    `No ${what} sent to ${address}. ${seen.length === 0 ? "The emulator has sent no e-mail." : `E-mail went to: ${seen.join(", ")}.`}`,
  );
}

/**
 * The newest e-mail sent to an address (or an Inbucket mailbox name), as a TestEmail: `{ id, projectId, to, from,
 * subject, text, html, sentAt, error }`, camelCase, `sentAt` a Date. Throws an Error listing where e-mail went when
 * there is none.
 *
 * @example
 * ```ts
 * await app.sendForgotPasswordEmail(user.email, { callbackUrl: "http://localhost:3000/handler/password-reset" });
 * const email = latestEmail(emulator, user.email);
 * expect(email.subject).toContain("Reset your password");
 * expect(email.to).toEqual([user.email]);
 * console.log(email.sentAt.toISOString(), email.projectId);
 * ```
 */
export function latestEmail(emulator: Emulator, address: string): TestEmail {
  const email = emulator.control.emails({ to: address }).at(-1);
  if (!email) throw noMail(emulator, address, "e-mail");
  return testEmailOf(email);
}

/**
 * The newest one-time code issued to an address (of `kind`, when given); throws an Error when there is none.
 *
 * @example
 * ```ts
 * await app.sendForgotPasswordEmail(user.email, { callbackUrl: "http://localhost:3000/handler/password-reset" });
 * const code = latestCode(emulator, user.email, "password_reset");
 * const result = await app.resetPassword({ code, password: "a-new-password-123" });
 * if (result.status === "error") throw result.error;
 * ```
 */
export function latestCode(emulator: Emulator, address: string, kind?: CodeRecord["kind"]): string {
  const code = emulator.control.codes({ recipient: address, ...(kind === undefined ? {} : { kind }) }).at(-1);
  if (!code) throw new Error(`No ${kind ?? "one-time"} code was issued to ${address}.`);
  return code.code;
}

/**
 * The links (http and https URLs) of a text, in order, without trailing punctuation; an empty array when there are none.
 *
 * @example
 * ```ts
 * const links = linksIn("Open https://example.com/verify?code=abc. Or see https://example.com/help");
 * // ["https://example.com/verify?code=abc", "https://example.com/help"]
 * const [verify] = linksIn(latestEmail(emulator, user.email).text);
 * ```
 */
export function linksIn(text: string): string[] {
  return [...text.matchAll(/https?:\/\/[^\s<>"']+/g)].map((match) => match[0].replace(/[.,;:!?)\]]+$/, ""));
}

/**
 * The link of the newest e-mail to an address: the first carrying a `code`, else the first; throws an Error when
 * there is no e-mail or it has no link.
 *
 * @example
 * ```ts
 * await app.sendMagicLinkEmail(user.email, { callbackUrl: "http://localhost:3000/handler/magic-link-callback" });
 * const link = latestLink(emulator, user.email);
 * const code = new URL(link).searchParams.get("code")!;
 * const result = await app.signInWithMagicLink(code, { noRedirect: true });
 * ```
 */
export function latestLink(emulator: Emulator, address: string): string {
  const email = latestEmail(emulator, address);
  const links = linksIn(email.text);
  const link = links.find((candidate) => new URL(candidate).searchParams.has("code")) ?? links[0];
  if (link === undefined) throw new Error(`The latest e-mail to ${address} ("${email.subject}") has no link.`);
  return link;
}

/**
 * What the apps of {@link DemoApps} take: any option of {@link StackClientAppOptions} but the
 * project's id and key (the demo project's), all of them optional.
 *
 * @example
 * ```ts
 * const options: DemoAppOptions = { tokenStore: "memory", requestTimeoutMs: 2_000 };
 * const app = appsFor(emulator).client(options);
 * ```
 */
export type DemoAppOptions = Partial<Omit<StackClientAppOptions, "projectId" | "publishableClientKey">> & {
  /** Where the app keeps the user's tokens; default `"memory"`. */
  readonly tokenStore?: TokenStoreInit;
};

/** Apps of the emulator's demo project, made by {@link appsFor}: a client, server or admin app wired to the emulator. */
export interface DemoApps {
  /**
   * A new StackClientApp of the demo project (token store "memory" unless given); `options` override the defaults.
   *
   * @example
   * ```ts
   * const app = appsFor(emulator).client();
   * await signInAs(app, await createTestUser(emulator));
   * const teams = await (await app.getUser({ or: "throw" })).listTeams();
   * ```
   */
  client(options?: DemoAppOptions): StackClientApp;
  /**
   * A new StackServerApp of the demo project, with its secret server key; `options` override the defaults.
   *
   * @example
   * ```ts
   * const server = appsFor(emulator).server();
   * const user = await createTestUser(emulator);
   * const serverUser = await server.getUser(user.id);
   * ```
   */
  server(options?: DemoAppOptions): StackServerApp;
  /**
   * A new StackAdminApp of the demo project, with its keys; `options` override the defaults.
   *
   * @example
   * ```ts
   * const admin = appsFor(emulator).admin();
   * const project = await admin.getProject();
   * console.log(project.displayName); // "Demo"
   * ```
   */
  admin(options?: DemoAppOptions): StackAdminApp;
}

/**
 * Apps of the demo project wired to the emulator: in-process ones call its
 * `fetch` (no network); for an emulator over HTTP they use the platform's fetch
 * at its URL. No browser and no automatic prefetch, unless overridden.
 *
 * @example
 * ```ts
 * const emulator = await startEmulator();
 * const { client, server } = appsFor(emulator);
 * const app = client();
 * const signedIn = client({ tokenStore: await sessionTokens(emulator, await createTestUser(emulator)) });
 * const serverApp = server();
 * ```
 */
export function appsFor(emulator: Emulator & { readonly url?: string | undefined }): DemoApps {
  const common = (options: DemoAppOptions) =>
    ({
      projectId: DEMO_KEYS.projectId,
      publishableClientKey: DEMO_KEYS.publishableClientKey,
      baseUrl: emulator.url ?? emulator.apiOrigin,
      browser: null,
      noAutomaticPrefetch: true,
      ...(emulator.url === undefined ? { environment: { fetch: emulator.fetch } } : {}),
      ...options,
      tokenStore: options.tokenStore ?? "memory",
    }) as StackClientAppOptions;
  return {
    client: (options = {}) => new StackClientApp(common(options)),
    server: (options = {}) => new StackServerApp({ ...common(options), secretServerKey: DEMO_KEYS.secretServerKey }),
    admin: (options = {}) =>
      new StackAdminApp({
        ...common(options),
        secretServerKey: DEMO_KEYS.secretServerKey,
        superSecretAdminKey: DEMO_KEYS.superSecretAdminKey,
      }),
  };
}

export { DEMO_KEYS, INTERNAL_KEYS } from "../emulator/index.js";
/** Loads now what stackkit loads on first use: call it before a test moves fake timers. */
export { preloadStackkit } from "../runtime/index.js";
/** The service's text of a known error, word for word: for mocks' answers and for the errors tests expect. */
export { knownErrorMessage } from "../generated/known-error-messages.js";
export type { CodeRecord, EmailRecord, Emulator, EmulatorOptions, UserRecord } from "../emulator/index.js";
