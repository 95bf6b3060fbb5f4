// The world of the end-to-end suite: the emulator over real HTTP on 127.0.0.1
// (`startEmulatorServer({ port: 0 })`), every exchange under /api/v1 validated
// against the document in the view of the emulator's service version, apps of the demo project on the platform's own fetch,
// and the emulator's other HTTP faces read as a test tool would: the
// Inbucket-compatible mailbox (`/api/v1/mailbox/{name}`, `/{id}`) and the
// control API (`/emulator/v1/...`). Client, server and admin apps come wrapped
// in the coverage recorder (coverage.ts). An app may be given a browser (a
// fake one, tests/e2e/browser.ts) for the flows that need a page.
import { DEFAULT_SERVICE_VERSION, DEMO_KEYS, type ServiceVersion } from "../../emulator/index.js";
import type { InbucketMessage, InbucketMessageHeader } from "../../emulator/mailbox.js";
import { startEmulatorServer, type EmulatorServer } from "../../emulator/server.js";
import { REDIRECT_WAIT_MS } from "../../runtime/app/redirect.js";
import { StackAdminApp, StackClientApp, StackServerApp, type Browser, type TokenStoreInit } from "../../runtime/index.js";
import { validatorFor } from "../helpers/document-view.js";
import { Coverage } from "./coverage.js";

/** The customer's site: the links the service mails open its handler pages. */
export const SITE = "http://localhost:5173";
export const HANDLER = `${SITE}/handler`;
/** No page to resolve handler paths against (browser: null): every URL is absolute. */
const URLS = { handler: HANDLER, home: `${SITE}/` } as const;

function parse(text: string, contentType: string | null): unknown {
  if (contentType?.includes("application/x-www-form-urlencoded")) return Object.fromEntries(new URLSearchParams(text));
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export interface AppOptions {
  readonly tokenStore?: TokenStoreInit;
  /** The page the app runs on; default none (`browser: null`). */
  readonly browser?: Browser | null;
  /** Which project, with its keys; default the demo project. */
  readonly keys?: ProjectKeys;
}

export interface ProjectKeys {
  readonly projectId: string;
  readonly publishableClientKey: string;
  readonly secretServerKey: string;
  readonly superSecretAdminKey: string;
}

export type AppKind = "client" | "server" | "admin";
/** The app class of each kind. */
export type AppOf<K extends AppKind> = { client: StackClientApp; server: StackServerApp; admin: StackAdminApp }[K];

export interface E2E {
  readonly emulatorServer: EmulatorServer;
  /** The service version the emulator answers as: the steps that differ between versions read it. */
  readonly serviceVersion: ServiceVersion;
  readonly url: string;
  /** Violations of the document seen since the last `takeViolations()`. */
  takeViolations(): string[];
  /** How many exchanges under /api/v1 were checked against the document, and how many violations they showed. */
  checkedExchanges(): { readonly exchanges: number; readonly violations: number };
  readonly coverage: Coverage;
  /** Where the apps navigated (their redirectMethod records it), oldest first; cleared by `takeNavigations()`. */
  takeNavigations(): string[];
  client(options?: AppOptions): StackClientApp;
  server(options?: AppOptions): StackServerApp;
  /** The project's admin (its super secret admin key); no user tokens unless `tokenStore` says so. */
  admin(options?: AppOptions): StackAdminApp;
  /** An app of `kind`: what the flows every app offers run on. */
  app<K extends AppKind>(kind: K, options?: AppOptions): AppOf<K>;
  /** `GET /emulator/v1/clock`: the emulator's time, in milliseconds. */
  now(): Promise<number>;
  /** The control API over HTTP. */
  control<T = unknown>(method: string, route: string, body?: unknown): Promise<T>;
  /** `POST /emulator/v1/clock/advance`. */
  advanceClock(ms: number): Promise<void>;
  /** `GET /api/v1/mailbox/{name}`: the message headers of a mailbox, oldest first. */
  mailbox(address: string): Promise<InbucketMessageHeader[]>;
  /** `GET /api/v1/mailbox/{name}/{id}`. */
  message(address: string, id: string): Promise<InbucketMessage>;
  /**
   * The code of the link in the newest message to `address` whose subject
   * matches, read through the mailbox API; the link must open `page`.
   */
  codeFromMail(address: string, subject: RegExp, page: string): Promise<string>;
  close(): Promise<void>;
}

export async function startE2E(options: { readonly serviceVersion?: ServiceVersion } = {}): Promise<E2E> {
  let violations: string[] = [];
  let checked = 0;
  let violated = 0;
  // Each exchange is checked against the document in the view of the version the emulator plays.
  const validator = validatorFor(options.serviceVersion ?? DEFAULT_SERVICE_VERSION);
  const emulatorServer = await startEmulatorServer({
    port: 0,
    ...(options.serviceVersion === undefined ? {} : { serviceVersion: options.serviceVersion }),
    onExchange: async ({ request, response }) => {
      const url = new URL(request.url);
      const requestText = await request.text();
      const responseText = await response.text();
      checked++;
      const found = validator.validate({
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
      violated += found.length;
      for (const v of found) violations.push(`${request.method} ${url.pathname} ${response.status}: ${v.path} ${v.message}`);
    },
  });
  const coverage = new Coverage();
  let navigations: string[] = [];
  const common = (options: AppOptions) => ({
    projectId: (options.keys ?? DEMO_KEYS).projectId,
    publishableClientKey: (options.keys ?? DEMO_KEYS).publishableClientKey,
    baseUrl: emulatorServer.url,
    browser: options.browser ?? null,
    noAutomaticPrefetch: true,
    urls: URLS,
    tokenStore: options.tokenStore ?? "memory",
    // A router's navigate: where the app goes is recorded, so the suite can assert it.
    redirectMethod: { navigate: (url: string) => void navigations.push(url) },
    // The platform's fetch and clock; only the pause after a navigation (meant
    // to let the page unload) is cut short, since no page unloads here.
    environment: { setTimeout: (callback: () => void, ms: number) => globalThis.setTimeout(callback, ms === REDIRECT_WAIT_MS ? 0 : ms) },
  });
  const control = async <T>(method: string, route: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${emulatorServer.url}/emulator/v1/${route}`, {
      method,
      ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { "content-type": "application/json" } }),
    });
    if (!response.ok) throw new Error(`${method} /emulator/v1/${route}: ${response.status} ${await response.text()}`);
    return (await response.json()) as T;
  };
  const mailboxName = (address: string) => encodeURIComponent(address.split("@")[0]!.toLowerCase());
  const mailbox = async (address: string) => {
    const response = await fetch(`${emulatorServer.url}/api/v1/mailbox/${mailboxName(address)}`);
    if (!response.ok) throw new Error(`GET /api/v1/mailbox/${mailboxName(address)}: ${response.status}`);
    return (await response.json()) as InbucketMessageHeader[];
  };
  const message = async (address: string, id: string) => {
    const response = await fetch(`${emulatorServer.url}/api/v1/mailbox/${mailboxName(address)}/${encodeURIComponent(id)}`);
    if (!response.ok) throw new Error(`GET /api/v1/mailbox/${mailboxName(address)}/${id}: ${response.status}`);
    return (await response.json()) as InbucketMessage;
  };
  const client = (options: AppOptions = {}) => coverage.wrap("StackClientApp", new StackClientApp(common(options)));
  const server = (options: AppOptions = {}) =>
    coverage.wrap(
      "StackServerApp",
      new StackServerApp({ ...common(options), secretServerKey: (options.keys ?? DEMO_KEYS).secretServerKey }),
    );
  const admin = (options: AppOptions = {}) =>
    coverage.wrap(
      "StackAdminApp",
      new StackAdminApp({
        ...common({ tokenStore: null, ...options }),
        secretServerKey: (options.keys ?? DEMO_KEYS).secretServerKey,
        superSecretAdminKey: (options.keys ?? DEMO_KEYS).superSecretAdminKey,
      }),
    );
  return {
    emulatorServer,
    serviceVersion: emulatorServer.emulator.serviceVersion,
    url: emulatorServer.url,
    coverage,
    takeViolations: () => {
      const taken = violations;
      violations = [];
      return taken;
    },
    checkedExchanges: () => ({ exchanges: checked, violations: violated }),
    takeNavigations: () => {
      const taken = navigations;
      navigations = [];
      return taken;
    },
    client,
    server,
    admin,
    app: <K extends AppKind>(kind: K, options: AppOptions = {}) =>
      (kind === "client" ? client(options) : kind === "server" ? server(options) : admin({ tokenStore: "memory", ...options })) as AppOf<K>,
    now: async () => (await control<{ now: number }>("GET", "clock")).now,
    control,
    advanceClock: async (ms) => {
      await control("POST", "clock/advance", { ms });
    },
    mailbox,
    message,
    async codeFromMail(address, subject, page) {
      const headers = (await mailbox(address)).filter((h) => subject.test(h.subject));
      const newest = headers.at(-1);
      if (!newest) throw new Error(`No e-mail matching ${subject} in the mailbox of ${address}`);
      const full = await message(address, newest.id);
      const link = [...full.body.text.matchAll(/https?:\/\/[^\s\]]+/g)].map((m) => new URL(m[0])).find((u) => u.searchParams.has("code"));
      if (!link) throw new Error(`The e-mail "${full.subject}" to ${address} has no link with a code`);
      if (`${link.origin}${link.pathname}` !== page)
        throw new Error(`The link of "${full.subject}" opens ${link.origin}${link.pathname}, not ${page}`);
      return link.searchParams.get("code")!;
    },
    close: () => emulatorServer.close(),
  };
}

/**
 * The `sub` (user id) and the session id of an access token, read without checking it; the session id is
 * `refresh_token_id` on 2.8.86 and `refreshTokenId` on 2.8.11, answered here as `refresh_token_id` either way.
 */
export function claimsOf(accessToken: string | null): { sub: string; refresh_token_id?: string; exp: number } {
  if (accessToken === null) throw new Error("no access token");
  const payload = accessToken.split(".")[1];
  if (payload === undefined) throw new Error("not a JWT");
  const claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as {
    sub: string;
    exp: number;
    refresh_token_id?: string;
    refreshTokenId?: string;
  };
  const sessionId = claims.refresh_token_id ?? claims.refreshTokenId;
  return { sub: claims.sub, exp: claims.exp, ...(sessionId === undefined ? {} : { refresh_token_id: sessionId }) };
}

/** The error a promise rejects with; fails when it resolves. */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected the call to fail");
}

/**
 * Who the journey follows, and what it keeps between its steps (the steps are
 * tests of one file, run in order, each going on from where the last left off).
 */
export class Cast {
  readonly adaEmail = "ada@example.com";
  adaPassword = "correct horse battery staple";
  adaId = "";
  /** Ada's first device: the app she signed up on. */
  ada!: StackClientApp;
  /** Her second device, signed in with her password. */
  adaLaptop!: StackClientApp;
  readonly graceEmail = "grace@example.com";
  readonly gracePassword = "nanoseconds are 30 cm of wire";
  graceId = "";
  grace!: StackClientApp;
  /** Signed up with a magic link. */
  readonly maryEmail = "mary@example.com";
  mary!: StackClientApp;
  maryId = "";
  /** Ada's team, which Grace joins. */
  teamId = "";
}
