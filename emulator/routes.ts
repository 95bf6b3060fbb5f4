// What the emulator serves beside the API: the health probe the service
// answers, the files of its storage (`/emulator/storage/…`: 2.8.86's stored
// profile images), the Inbucket-compatible mailbox API and page (emulator/mailbox.ts),
// the fake OAuth provider and the service's OAuth callback (`/emulator/oauth/…`,
// emulator/oauth-provider.ts), and the control API over HTTP (`/emulator/v1/…`),
// which calls the same functions as `emulator.control`. Control answers are
// JSON; a bad request is a 400 `{ "error": "…" }`, a known path asked with
// another method a 405 with `Allow`. emulator/control-openapi.json describes
// every control route (served at `GET /emulator/v1/openapi.json`).
import { knownErrorStatus, type KnownErrorCode } from "../generated/known-errors.js";
import { operations, type OperationId } from "../generated/operations.js";
import type { EmulatorControl } from "./control.js";
import { STORAGE_PREFIX } from "./engine/images.js";
import { DEMO_KEYS } from "./engine/seed.js";
import { parseSignUpRules } from "./engine/sign-up-rules.js";
import type { CodeKind, StateJson, Store, UserRecord } from "./engine/store.js";
import type { Signers } from "./engine/tokens.js";
import type { Fault } from "./engine/engine.js";
import {
  bodyOf,
  ControlError,
  matchControlRoute,
  ok,
  optionalBoolean,
  optionalString,
  type ControlMethod,
  type ControlRoutes,
} from "./control-http.js";
import { INSPECTION_ROUTES } from "./control-routes-inspect.js";
import { localOnlyRefusal, localPreflight, withLocalCors, type LocalOnlyPolicy } from "./local-only.js";
import { MAILBOX_API_PREFIX, MAILBOX_PAGE, mailboxApi, mailboxPage } from "./mailbox.js";
import { OAUTH_PROVIDER_PREFIX, oauthProviderRoutes } from "./oauth-provider.js";
import { isPagePath, mailboxOnPage, pageAnswer, type PageFiles } from "./page.js";

export interface RouteParts {
  readonly store: Store;
  readonly control: EmulatorControl;
  readonly signers: Signers;
  /** Who may use the control API, the mailbox and the page (emulator/local-only.ts). */
  readonly localOnly: LocalOnlyPolicy;
  /** The page's built files, when whoever serves the emulator has them (emulator/page.ts). */
  readonly page?: PageFiles | undefined;
}

export const CONTROL_PREFIX = "/emulator/v1/";

const OPEN_CORS = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "*",
  "access-control-allow-headers": "*",
  "access-control-expose-headers": "*",
} as const;

/** A preflight of the emulator's other routes (the health probe, the provider pages): open to every origin and header. */
function openPreflight(): Response {
  return new Response(null, { status: 204, headers: OPEN_CORS });
}

export async function extraRoutes(request: Request, url: URL, parts: RouteParts): Promise<Response | undefined> {
  if (isLocalOnlyPath(url.pathname)) {
    return localOnly(request, url, parts, () => {
      if (url.pathname.startsWith(CONTROL_PREFIX)) return controlApi(request, url, parts.control);
      if (isPagePath(url.pathname)) return pageAnswer(request, url, parts.page);
      // With the page there, the mailbox is its e-mail view; the plain page stays for an emulator without it (in-process).
      if (parts.page?.read("index.html") !== undefined && (request.method === "GET" || request.method === "HEAD"))
        return new Response(null, { status: 302, headers: { location: mailboxOnPage(url, MAILBOX_PAGE), "cache-control": "no-store" } });
      return mailboxPage(request, url, parts.store);
    });
  }
  if (request.method === "OPTIONS") return openPreflight();
  // The service's liveness and readiness probe (`?db=1` checks its database; the emulator's state is always there).
  if (url.pathname === "/health" && request.method === "GET") return Response.json({ status: "ok" }, { headers: OPEN_CORS });
  // Stored pictures are public, as the service's bucket is: any page may show them.
  if (url.pathname.startsWith(STORAGE_PREFIX)) return storedFile(request, url, parts.store);
  // The fake OAuth provider's consent page and the service's OAuth callback (emulator/oauth-provider.ts).
  if (url.pathname.startsWith(OAUTH_PROVIDER_PREFIX)) {
    const answer = await oauthProviderRoutes(request, url, parts.store);
    if (answer) return answer;
  }
  return undefined;
}

/** The control API, the mailbox (API and page) and the emulator's page: for this machine only. */
function isLocalOnlyPath(pathname: string): boolean {
  return (
    pathname.startsWith(CONTROL_PREFIX) ||
    isPagePath(pathname) ||
    pathname.startsWith(MAILBOX_API_PREFIX) ||
    pathname === MAILBOX_PAGE ||
    pathname.startsWith(`${MAILBOX_PAGE}/`)
  );
}

/** A local-only route's answer: refused for another host or origin, its own preflight, and a CORS grant for the trusted origin only. */
async function localOnly(
  request: Request,
  url: URL,
  parts: RouteParts,
  answer: () => Promise<Response | undefined> | Response | undefined,
): Promise<Response | undefined> {
  const refusal = localOnlyRefusal(request, url, parts.localOnly);
  if (refusal) return refusal;
  if (request.method === "OPTIONS") return localPreflight(request);
  const response = await answer();
  return response && withLocalCors(request, response);
}

/**
 * The routes under /api/v1 that are not the service's (the mailbox API): the
 * emulator answers them before the engine, so that they are neither routed
 * as operations nor written to the request log. Undefined for other requests.
 */
export async function routesBeforeEngine(request: Request, parts: RouteParts): Promise<Response | undefined> {
  if (!request.url.includes(MAILBOX_API_PREFIX)) return undefined;
  const url = new URL(request.url);
  if (!url.pathname.startsWith(MAILBOX_API_PREFIX)) return undefined;
  return localOnly(request, url, parts, () => mailboxApi(request, url, parts.store));
}

/** A stored file, as a public bucket serves it: its bytes and type to anyone, 404 when there is none. */
function storedFile(request: Request, url: URL, store: Store): Response {
  if (request.method !== "GET" && request.method !== "HEAD")
    return new Response(null, { status: 405, headers: { ...OPEN_CORS, allow: "GET, HEAD" } });
  let id: string;
  try {
    id = decodeURIComponent(url.pathname.slice(STORAGE_PREFIX.length));
  } catch {
    id = "";
  }
  const file = store.file(id);
  if (!file) return new Response("No such file", { status: 404, headers: { ...OPEN_CORS, "content-type": "text/plain" } });
  const bytes = Uint8Array.from(atob(file.data_base64), (c) => c.charCodeAt(0));
  return new Response(request.method === "HEAD" ? null : bytes, {
    headers: { ...OPEN_CORS, "content-type": file.content_type, "content-length": String(bytes.length) },
  });
}

// THE CONTROL API

const FAULT_KINDS = ["known-error", "status", "latency", "rate-limit", "drop"] as const;

/** A fault as the control API takes it, checked: the engine trusts what it is given. */
export function parseFault(value: unknown): Fault {
  if (value === null || typeof value !== "object")
    throw new ControlError(`"fault" must be an object with a "kind" (${FAULT_KINDS.join(", ")})`);
  const fault = value as Record<string, unknown>;
  const number = (key: string, min: number) => {
    const n = fault[key];
    if (typeof n !== "number" || !Number.isFinite(n) || n < min)
      throw new ControlError(`A "${String(fault["kind"])}" fault needs "${key}", a number >= ${min}`);
    return n;
  };
  switch (fault["kind"]) {
    case "known-error": {
      const code = fault["code"];
      if (typeof code !== "string" || !(code in knownErrorStatus))
        throw new ControlError(`"code" must be a known error code of the service, not ${JSON.stringify(code)}`);
      const details = fault["details"];
      if (details !== undefined && (details === null || typeof details !== "object")) throw new ControlError('"details" must be an object');
      return details === undefined
        ? { kind: "known-error", code: code as KnownErrorCode }
        : { kind: "known-error", code: code as KnownErrorCode, details: details as Record<string, unknown> };
    }
    case "status": {
      const status = number("status", 200);
      if (!Number.isInteger(status) || status > 599) throw new ControlError('"status" must be an HTTP status (200-599)');
      const body = fault["body"];
      if (body !== undefined && typeof body !== "string") throw new ControlError('"body" must be a string');
      return body === undefined ? { kind: "status", status } : { kind: "status", status, body };
    }
    case "latency":
      return { kind: "latency", ms: number("ms", 0) };
    case "rate-limit":
      return { kind: "rate-limit", retryAfterSeconds: number("retryAfterSeconds", 0) };
    case "drop":
      return { kind: "drop" };
    default:
      throw new ControlError(`"fault.kind" must be one of ${FAULT_KINDS.join(", ")}`);
  }
}

function operationIdOf(value: unknown): OperationId {
  if (typeof value !== "string" || !Object.hasOwn(operations, value))
    throw new ControlError(`"operationId" must name an operation of the document, not ${JSON.stringify(value)}`);
  return value as OperationId;
}

/** A user as the control API shows it: the record without its secrets. */
export function userView(user: UserRecord): Omit<UserRecord, "password_hash" | "totp_secret_base64"> & { has_password: boolean } {
  const { password_hash, totp_secret_base64: _secret, ...rest } = user;
  return { ...rest, has_password: password_hash !== null };
}

const CODE_KINDS: readonly CodeKind[] = [
  "email_verification",
  "password_reset",
  "magic_link",
  "team_invitation",
  "mfa_attempt",
  "passkey_registration",
  "passkey_authentication",
];

const clockView = (control: EmulatorControl) => ({ now: control.now(), iso: new Date(control.now()).toISOString() });

/**
 * Every control route: its path under /emulator/v1, and what each method it takes does.
 * emulator/control-openapi.json describes each of them (tests/emulator/control-api.test.ts
 * checks the two against each other and every answer against the document).
 */
const CONTROL_ROUTES: ControlRoutes = {
  reset: {
    async POST(request, _url, control) {
      const empty = optionalBoolean(await bodyOf(request), "empty");
      control.reset(empty === undefined ? {} : { empty });
      return ok();
    },
  },
  state: {
    GET: (_request, _url, control) => ok(control.exportState()),
    async PUT(request, _url, control) {
      const state = await bodyOf(request);
      try {
        control.importState(state as unknown as StateJson);
      } catch (error) {
        throw new ControlError(error instanceof Error ? error.message : String(error));
      }
      return ok();
    },
  },
  clock: {
    GET: (_request, _url, control) => ok(clockView(control)),
  },
  "clock/advance": {
    async POST(request, _url, control) {
      const ms = (await bodyOf(request))["ms"];
      if (typeof ms !== "number" || !Number.isFinite(ms) || ms < 0) throw new ControlError('"ms" must be a number of milliseconds >= 0');
      control.advanceClock(ms);
      return ok(clockView(control));
    },
  },
  faults: {
    GET: (_request, _url, control) =>
      ok(control.faults().map((rule) => ({ ...rule, remaining: rule.remaining === Infinity ? "always" : rule.remaining }))),
    async POST(request, _url, control) {
      const body = await bodyOf(request);
      const times = body["times"];
      if (times !== undefined && times !== "always" && (typeof times !== "number" || !Number.isInteger(times) || times < 1)) {
        throw new ControlError('"times" must be a whole number >= 1, or "always"');
      }
      control.injectFault(operationIdOf(body["operationId"]), parseFault(body["fault"]), {
        times: times === "always" ? Infinity : (times ?? 1),
      });
      return ok();
    },
    DELETE(_request, _url, control) {
      control.clearFaults();
      return ok();
    },
  },
  requests: {
    GET(_request, url, control) {
      const operationId = url.searchParams.get("operation_id");
      const since = url.searchParams.get("since");
      if (since !== null && !/^\d{1,15}$/.test(since))
        throw new ControlError('"since" must be the id of a line of the log (a whole number)');
      return ok(
        control.requests({
          ...(operationId === null ? {} : { operationId: operationIdOf(operationId) }),
          ...(since === null ? {} : { since: Number(since) }),
        }),
      );
    },
    DELETE(_request, _url, control) {
      control.clearRequests();
      return ok();
    },
  },
  emails: {
    GET(_request, url, control) {
      const to = url.searchParams.get("to");
      const projectId = url.searchParams.get("project_id");
      return ok(control.emails({ ...(to === null ? {} : { to }), ...(projectId === null ? {} : { projectId }) }));
    },
  },
  codes: {
    GET(_request, url, control) {
      const recipient = url.searchParams.get("recipient");
      const kind = url.searchParams.get("kind");
      if (kind !== null && !CODE_KINDS.includes(kind as CodeKind)) throw new ControlError(`"kind" must be one of ${CODE_KINDS.join(", ")}`);
      return ok(control.codes({ ...(recipient === null ? {} : { recipient }), ...(kind === null ? {} : { kind: kind as CodeKind }) }));
    },
  },
  users: {
    async POST(request, _url, control) {
      const body = await bodyOf(request);
      const optional = {
        email: optionalString(body, "email"),
        password: optionalString(body, "password"),
        displayName: optionalString(body, "displayName"),
        emailVerified: optionalBoolean(body, "emailVerified"),
        isAnonymous: optionalBoolean(body, "isAnonymous"),
        restrictedByAdmin: optionalBoolean(body, "restrictedByAdmin"),
        clientMetadata: body["clientMetadata"],
        serverMetadata: body["serverMetadata"],
      };
      const defined = Object.fromEntries(Object.entries(optional).filter(([, value]) => value !== undefined));
      const user = await control.createUser({ projectId: optionalString(body, "projectId") ?? DEMO_KEYS.projectId, ...defined });
      return ok(userView(user), 201);
    },
  },
  sessions: {
    async POST(request, _url, control) {
      const userId = optionalString(await bodyOf(request), "userId");
      if (userId === undefined) throw new ControlError('"userId" is required');
      return ok(await control.createSession(userId), 201);
    },
  },
  "email-verification-required": {
    async PUT(request, _url, control) {
      const body = await bodyOf(request);
      const required = optionalBoolean(body, "required");
      if (required === undefined) throw new ControlError('"required" (true or false) is required');
      const projectId = optionalString(body, "projectId") ?? DEMO_KEYS.projectId;
      control.setEmailVerificationRequired(projectId, required);
      return ok({ projectId, required });
    },
  },
  "publishable-client-key-required": {
    async PUT(request, _url, control) {
      const body = await bodyOf(request);
      const required = optionalBoolean(body, "required");
      if (required === undefined) throw new ControlError('"required" (true or false) is required');
      const projectId = optionalString(body, "projectId") ?? DEMO_KEYS.projectId;
      control.setPublishableClientKeyRequired(projectId, required);
      return ok({ projectId, required });
    },
  },
  "sign-up-rules": {
    async PUT(request, _url, control) {
      const body = await bodyOf(request);
      const projectId = optionalString(body, "projectId") ?? DEMO_KEYS.projectId;
      // A malformed rule is a TypeError, answered 400 with what is wrong.
      const config = parseSignUpRules(body);
      control.setSignUpRules(projectId, config);
      return ok({ projectId, ...config });
    },
  },
  "passkey-challenge": {
    GET: (_request, _url, control) => ok({ challenge: control.fixedChallenge() }),
    async PUT(request, _url, control) {
      const challenge = (await bodyOf(request))["challenge"];
      if (challenge !== null && typeof challenge !== "string")
        throw new ControlError('"challenge" must be a base64url string, or null for random challenges');
      control.setFixedChallenge(challenge);
      return ok({ challenge: control.fixedChallenge() });
    },
  },
  // What the emulator's page reads and changes (emulator/control-routes-inspect.ts).
  ...INSPECTION_ROUTES,
  // The document of these routes, loaded on first request (it is a chunk of its own in a bundle).
  "openapi.json": {
    async GET(_request, url) {
      const { default: document } = await import("./control-document.js");
      return ok({ ...document, servers: [{ url: `${url.origin}${CONTROL_PREFIX.slice(0, -1)}`, description: "This emulator" }] });
    },
  },
};

/** Every control route, `METHOD /path` under /emulator/v1 (`POST /users`): what emulator/control-openapi.json must describe. */
export function controlRoutes(): string[] {
  return Object.entries(CONTROL_ROUTES).flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method} /${path}`));
}

async function controlApi(request: Request, url: URL, control: EmulatorControl): Promise<Response> {
  const path = url.pathname.slice(CONTROL_PREFIX.length).replace(/\/+$/, "");
  const matched = matchControlRoute(CONTROL_ROUTES, path);
  try {
    if (matched === undefined) {
      throw new ControlError(`No control route ${request.method} ${url.pathname} (GET ${CONTROL_PREFIX}openapi.json lists them)`, 404);
    }
    const { methods, params } = matched;
    const handler = Object.hasOwn(methods, request.method) ? methods[request.method as ControlMethod] : undefined;
    if (handler === undefined) {
      // A known path asked with the wrong method (a GET where a POST is wanted): say which methods it takes.
      const allowed = Object.keys(methods);
      return ok({ error: `${request.method} ${url.pathname} is not a control route: use ${allowed.join(" or ")} ${url.pathname}` }, 405, {
        allow: allowed.join(", "),
      });
    }
    return await handler(request, url, control, params);
  } catch (error) {
    // The control functions throw RangeError / TypeError for what they refuse (an unknown project, a taken e-mail).
    if (error instanceof ControlError) return ok({ error: error.message }, error.status);
    if (error instanceof RangeError || error instanceof TypeError) return ok({ error: error.message }, 400);
    throw error;
  }
}
