// The emulator's core: one `(request) => Promise<Response>` that answers as the
// service does. It routes by the generated operation table, authenticates,
// parses and checks the body against the document, runs the operation's
// handler, and answers in the service's protocol. Faults injected by a test
// and the request log live here, so they apply however the engine is reached
// (in-process, behind msw, over HTTP).
import { operations, type OperationId } from "../../generated/operations.js";
import { requestShapes, type Shape } from "../../generated/shapes.js";
import { endUserOf, recordTokenIssue } from "./activity.js";
import { authenticate } from "./auth.js";
import type { EmulatorContext, EmulatorRequest, Handlers, IssueCode, SignedIn } from "./context.js";
import { EmulatorError, fail, schemaError, StatusFailure } from "./errors.js";
import { STORAGE_PREFIX } from "./images.js";
import { bodyTextOf, corsHeaders, errorResponse, methodNotAllowed, preflight, statusResponse, toResponse } from "./http.js";
import { createMailer, type SharedEmailServer } from "./mail.js";
import { checkValue, queryProblems, withoutFields, type Checked } from "./request-schema.js";
import { hasPath, route } from "./router.js";
import type { ServiceProfile } from "./profile.js";
import { readAnswer, redactedSearch, RequestLog } from "./request-log.js";
import type { EndUserRecord, SessionRecord, Store, UserRecord } from "./store.js";
import { randomId, randomString, signAccessToken, type Signers } from "./tokens.js";
import { primaryChannelOf, restrictedReasonOf } from "./views.js";

export const API_PREFIX = "/api/v1";

/**
 * Where the service serves its API: its routes live under `/api/latest`, and its middleware rewrites `/api/v1/…`
 * there (through the migration folders of the versions between, none of which has a route the emulator plays), so
 * both answer alike.
 */
export const API_PREFIXES = [API_PREFIX, "/api/latest"] as const;

/** The path under the API of a URL path, or undefined for a path outside it. */
export function apiPathOf(pathname: string): string | undefined {
  for (const prefix of API_PREFIXES) {
    if (pathname === prefix) return "/";
    if (pathname.startsWith(`${prefix}/`)) return pathname.slice(prefix.length);
  }
  return undefined;
}

/** Whether the service's middleware treats a path as its API's (CORS headers, preflights): everything under `/api/`. */
function isApiPath(pathname: string): boolean {
  return pathname.startsWith("/api/");
}

/**
 * Operations whose request schema lets `auth` be null: a request without a project (no `x-stack-*` headers) reaches
 * them. The feature-support report is one: any app may send it.
 */
const WITHOUT_PROJECT: readonly OperationId[] = ["checkFeatureSupport"];

export interface EngineOptions {
  readonly store: Store;
  readonly signers: Signers;
  /** The service version played: what differs between versions. */
  readonly profile: ServiceProfile;
  readonly handlers: Handlers;
  readonly apiOrigin: string;
  /** The base of stored files' URLs; default `<apiOrigin>/emulator/storage`, where the emulator serves them. */
  readonly storageUrl?: string;
  readonly accessTokenLifetimeMs: number;
  /** The service's shared e-mail server (engine/mail.ts); default the emulator's own. */
  readonly sharedEmailServer?: SharedEmailServer;
  readonly now: () => number;
  /** Sees every exchange under /api/v1 (copies of the request and the answer): tests validate them against the document. */
  readonly onExchange?: ((exchange: Exchange) => void | Promise<void>) | undefined;
  /** Requests under other paths (the mailbox, the control API) go here first; undefined: not theirs. */
  readonly extraRoutes?: (request: Request, url: URL) => Promise<Response | undefined> | Response | undefined;
}

/** What an injected fault makes the emulator answer instead (`control.injectFault`): a known error, a status, a delay, a 429 with `Retry-After`, or a dropped connection. */
export type Fault =
  | {
      readonly kind: "known-error";
      readonly code: import("../../generated/known-errors.js").KnownErrorCode;
      readonly details?: Record<string, unknown>;
    }
  | { readonly kind: "status"; readonly status: number; readonly body?: string }
  | { readonly kind: "latency"; readonly ms: number }
  | { readonly kind: "rate-limit"; readonly retryAfterSeconds: number }
  | { readonly kind: "drop" };

export interface FaultRule {
  readonly operationId: OperationId;
  readonly fault: Fault;
  /** How many more requests it applies to; Infinity for all. */
  remaining: number;
}

/** One request under `/api/v1` and the emulator's response to it, as `onExchange` sees them (copies: reading their bodies changes nothing). */
export interface Exchange {
  readonly request: Request;
  readonly response: Response;
}

export interface Engine {
  readonly fetch: (request: Request) => Promise<Response>;
  readonly ctx: EmulatorContext;
  readonly faults: FaultRule[];
  readonly log: RequestLog;
}

export function createEngine(o: EngineOptions): Engine {
  const faults: FaultRule[] = [];
  const log = new RequestLog();
  const ctx = createContext(o);
  const cors = Object.entries(corsHeaders(o.profile.cors));

  async function handle(request: Request): Promise<Response> {
    const url = new URL(request.url);
    if (request.method === "OPTIONS" && isApiPath(url.pathname)) return preflight();
    const extra = await o.extraRoutes?.(request, url);
    if (extra) return extra;
    const requestId = randomId();
    const override = request.headers.has("x-stack-override-error-status");
    const path = apiPathOf(url.pathname);
    if (path === undefined) return statusResponse(404, `Not found: ${url.pathname}`, requestId, false);
    const served = (operationId: OperationId) => !o.profile.missingOperations.includes(operationId);
    const matched = route(request.method, path);
    if (!matched || !served(matched.operationId)) {
      // A path the version has under other methods: the framework's bare 405 (no body, no request id), which the
      // override-error-status header does not touch. Any other: the catch-all's plain-text 404.
      if (hasPath(path, served)) return methodNotAllowed();
      return statusResponse(404, notFoundText(url), requestId, override);
    }
    const { operationId, params } = matched;

    const fault = takeFault(faults, operationId);
    if (fault?.kind === "latency") await new Promise((resolve) => setTimeout(resolve, fault.ms));
    if (fault?.kind === "drop") throw new TypeError("fetch failed (the emulator dropped the connection: an injected fault)");
    if (fault?.kind === "status") return statusResponse(fault.status, fault.body ?? `Injected HTTP ${fault.status}`, requestId, override);
    if (fault?.kind === "rate-limit") {
      const response = statusResponse(429, "Too many requests", requestId, false);
      response.headers.set("retry-after", String(fault.retryAfterSeconds));
      return response;
    }
    try {
      if (fault?.kind === "known-error") throw fail(fault.code, fault.details);
      const unknownQuery = queryProblems(o.profile.knownQuery[operationId], url.searchParams);
      const body = await readBody(request, operationId, unknownQuery, o.profile.unknownBodyFields[operationId]);
      const info = operations[operationId];
      const withoutProject =
        WITHOUT_PROJECT.includes(operationId) && !request.headers.has("x-stack-project-id") && !request.headers.has("x-stack-access-type");
      const caller = info.stackHeaders && !withoutProject ? await authenticate(ctx, operationId, request.headers) : undefined;
      const handler = o.handlers[operationId];
      if (!handler) {
        return statusResponse(501, `The emulator does not implement ${operationId} (${request.method} ${path}) yet.`, requestId, override);
      }
      const emulated: EmulatorRequest = {
        operationId,
        method: request.method,
        url,
        params,
        query: url.searchParams,
        body,
        headers: request.headers,
        project: caller?.project as EmulatorRequest["project"],
        accessType: caller?.accessType ?? "client",
        user: caller?.user ?? null,
        session: caller?.session ?? null,
        owner: caller?.owner ?? null,
        requestId,
      };
      // The handler's context knows where the request came from: the access tokens it issues are logged from there.
      const handlerCtx = createContext(o, endUserOf(o.profile, request.headers));
      if (unknownQuery.length === 0) return toResponse(await handler(emulated, handlerCtx), requestId, override);
      if (request.method !== "GET") throw schemaError({ method: request.method, url }, ...unknownQuery);
      // A read has no effects: its handler's checks of the query's fields say what yup lists before the unknown names.
      throw await withQueryFieldProblems(() => handler(emulated, handlerCtx), { method: request.method, url }, unknownQuery);
    } catch (error) {
      // Whatever failed, the gate, the body's schema or the handler, failed in one of the service's two ways.
      if (error instanceof EmulatorError) return errorResponse(error, requestId, override);
      if (error instanceof StatusFailure) return statusResponse(error.status, error.text, requestId, override);
      throw error;
    }
  }

  return {
    ctx,
    faults,
    log,
    async fetch(request) {
      const started = performance.now();
      const url = new URL(request.url);
      const path = apiPathOf(url.pathname);
      const logged = path !== undefined && path !== "/" && request.method !== "OPTIONS";
      // The log keeps the request's body, and onExchange sees a copy: the engine reads the original. A request
      // without a body needs a copy only for onExchange.
      const copy = logged && (request.body !== null || o.onExchange) ? request.clone() : undefined;
      const handled = await handle(request);
      const answeredText = bodyTextOf(handled);
      let response = keptServerErrorStatus(o.profile, handled);
      const durationMs = Math.round((performance.now() - started) * 10) / 10;
      // The service's middleware puts its CORS headers on every answer under /api/, whatever answered.
      if (isApiPath(url.pathname)) for (const [name, value] of cors) response.headers.set(name, value);
      if (logged) {
        // onExchange reads the copy too: the log reads a copy of it then.
        const requestBody = copy === undefined ? "" : await (o.onExchange ? copy.clone() : copy).text();
        const answer = await readAnswer(response, answeredText);
        response = answer.response;
        if (o.onExchange && copy) await o.onExchange({ request: copy, response: response.clone() });
        log.add(
          {
            id: log.nextId(),
            at: ctx.now(),
            method: request.method,
            path: path + redactedSearch(url),
            operationId: route(request.method, path)?.operationId ?? null,
            projectId: request.headers.get("x-stack-project-id"),
            accessType: request.headers.get("x-stack-access-type"),
            status: Number(response.headers.get("x-stack-actual-status") ?? response.status),
            knownError: response.headers.get("x-stack-known-error"),
            durationMs,
          },
          { requestHeaders: [...request.headers], requestBody, responseHeaders: [...response.headers], responseBody: answer.text },
        );
      }
      return response;
    },
  };
}

/** What the service's catch-all answers for a route it does not have (its identifying first line, then the URL). */
function notFoundText(url: URL): string {
  return `404 — this page does not exist in Stack Auth's API.\n\nThe emulated service version has no such route.\n\nURL: ${url.href}\n`;
}

/** On versions that rewrite only 4xx, a 5xx answered under `x-stack-override-error-status` goes back to its status. */
function keptServerErrorStatus(profile: ServiceProfile, response: Response): Response {
  const actual = Number(response.headers.get("x-stack-actual-status") ?? 0);
  if (profile.overriddenErrorStatuses === "all" || actual < 500) return response;
  const headers = new Headers(response.headers);
  headers.delete("x-stack-actual-status");
  return new Response(response.body, { status: actual, statusText: response.statusText, headers });
}

function takeFault(faults: FaultRule[], operationId: OperationId): Fault | undefined {
  const index = faults.findIndex((rule) => rule.operationId === operationId && rule.remaining > 0);
  if (index < 0) return undefined;
  const rule = faults[index] as FaultRule;
  rule.remaining--;
  if (rule.remaining <= 0) faults.splice(index, 1);
  return rule.fault;
}

/**
 * The body as JSON (or a form, for the token endpoint, which takes JSON too: the service parses a body by its
 * content type), checked against the document's request schema in the service's words.
 */
async function readBody(
  request: Request,
  operationId: OperationId,
  unknownQuery: readonly string[],
  unknownFields: readonly string[] = [],
): Promise<unknown> {
  const url = new URL(request.url);
  const text = await request.text();
  const kind = operations[operationId].requestBody;
  const type = request.headers.get("content-type") ?? "";
  let body: unknown;
  if (kind === "none" || (type === "" && text.trim() === "")) {
    // No content type: the service parses no body at all.
    body = undefined;
  } else if (kind === "form" && !/^application\/json\b/i.test(type)) {
    body = Object.fromEntries(new URLSearchParams(text));
  } else if (text.trim() === "") {
    body = undefined;
  } else {
    if (type !== "" && !/^application\/json\b/i.test(type))
      throw fail("BODY_PARSING_ERROR", undefined, `Unsupported content type: ${type}`);
    try {
      body = JSON.parse(text);
    } catch {
      throw fail("BODY_PARSING_ERROR", undefined, "Invalid JSON in request body");
    }
  }
  // yup lists the body's problems before the query's (the request schema names `body` first).
  const shape = kind === "none" ? undefined : withoutFields(SERVICE_BODY_SHAPES[operationId] ?? requestShapes[operationId], unknownFields);
  const checked = shape === undefined ? { value: body, problems: [] } : checkBody(operationId, shape, body);
  // Unknown query names alone are answered after the gate (see handle()); with the body's problems, at once.
  const problems = checked.problems.length > 0 ? [...checked.problems, ...unknownQuery] : [];
  if (problems.length > 0) throw schemaError({ method: request.method, url }, ...problems);
  return body === undefined ? undefined : checked.value;
}

/** The SCHEMA_ERROR for unknown query names, after the query field problems the read's handler finds, if any. */
async function withQueryFieldProblems(run: () => unknown, line: { method: string; url: URL }, unknownQuery: readonly string[]) {
  try {
    await run();
  } catch (error) {
    if (!(error instanceof EmulatorError) && !(error instanceof StatusFailure)) throw error;
    if (!(error instanceof EmulatorError) || error.code !== "SCHEMA_ERROR") return schemaError(line, ...unknownQuery);
    const fields = error.message
      .split("\n")
      .filter((l) => l.startsWith("  - ") && !l.startsWith("  - query contains unknown properties"))
      .map((l) => l.slice(4));
    return schemaError(line, ...fields, ...unknownQuery);
  }
  return schemaError(line, ...unknownQuery);
}

/**
 * Operations whose own schema checks less of the body than the document asks of clients, the rest being their
 * handler's to answer as the service does: the token endpoint's schema knows only `grant_type` (any other field
 * passes), and its OAuth library answers a missing one (handlers/oauth-token.ts).
 */
const SERVICE_BODY_SHAPES: { readonly [id in OperationId]?: Shape } = {
  exchangeOAuthToken: { grant_type: ["=", "authorization_code", "refresh_token"] },
};

/**
 * Operations whose request schema makes the body `.defined()` (smart routes of the service at both versions): a
 * request without one is "body must be defined". Any other missing body is checked as an empty object.
 */
const BODY_REQUIRED: readonly OperationId[] = [
  "exchangeOAuthToken",
  "sendPasswordResetCode",
  "updatePassword",
  "setPassword",
  "signInWithPassword",
  "signUpWithPassword",
  "sendMagicLinkCode",
  "createSession",
  "pollCliLogin",
  "completeCliLogin",
  "sendTeamInvitation",
  "sendEmailVerificationCode",
  "sendContactChannelVerificationCode",
  "createInternalApiKey",
  "updateInternalEmailTemplate",
  "sendTestEmail",
];

function checkBody(operationId: OperationId, shape: Shape, body: unknown): Checked {
  if (body === undefined && BODY_REQUIRED.includes(operationId)) return { value: body, problems: ["body must be defined"] };
  return checkValue(shape, body ?? {}, "body");
}

/** The handlers' context; `endUser`: where the request came from, which the access tokens it issues are logged with. */
function createContext(o: EngineOptions, endUser: EndUserRecord | null = null): EmulatorContext {
  const mail = createMailer(o.store, o.now, o.sharedEmailServer);
  const accessTokenFor = async (session: SessionRecord) => {
    recordTokenIssue(o.store, o.now(), session, endUser);
    const user = o.store.user(session.user_id);
    const primary = user ? primaryChannelOf(o.store, user.id) : undefined;
    const isAnonymous = user?.is_anonymous ?? false;
    return signAccessToken(
      { signers: o.signers, profile: o.profile, apiOrigin: o.apiOrigin },
      {
        projectId: session.project_id,
        userId: session.user_id,
        sessionId: session.id,
        displayName: user?.display_name ?? null,
        email: primary?.value ?? null,
        emailVerified: primary?.is_verified ?? false,
        selectedTeamId: user?.selected_team_id ?? null,
        signedUpAtMillis: user?.signed_up_at_millis ?? o.now(),
        isAnonymous,
        restrictedReason: restrictedReasonOf(o.profile, o.store, user),
        requiresTotpMfa: (user?.totp_secret_base64 ?? null) !== null,
      },
      { nowMs: o.now(), lifetimeMs: o.accessTokenLifetimeMs },
    );
  };
  return {
    store: o.store,
    signers: o.signers,
    profile: o.profile,
    mail,
    now: o.now,
    apiOrigin: o.apiOrigin,
    storageUrl: (o.storageUrl ?? `${o.apiOrigin}${STORAGE_PREFIX}`).replace(/\/+$/, ""),
    accessTokenLifetimeMs: o.accessTokenLifetimeMs,
    accessTokenFor,
    async signIn(user: UserRecord, options = {}): Promise<SignedIn> {
      const now = o.now();
      const session: SessionRecord = {
        id: randomId(),
        project_id: user.project_id,
        user_id: user.id,
        refresh_token: randomString(45),
        created_at_millis: now,
        last_used_at_millis: now,
        expires_at_millis: options.expiresAtMillis ?? null,
        is_impersonation: options.isImpersonation ?? false,
      };
      o.store.insert("sessions", session);
      return { access_token: await accessTokenFor(session), refresh_token: session.refresh_token, session };
    },
    issueCode(c: IssueCode): string {
      const code = randomString(45);
      const link = c.callbackUrl === null ? null : withCode(c.callbackUrl, code);
      // One reading of the clock: a code lives exactly its lifetime, even across a millisecond's tick.
      const now = o.now();
      o.store.insert("codes", {
        code,
        project_id: c.projectId,
        kind: c.kind,
        created_at_millis: now,
        expires_at_millis: now + c.lifetimeMs,
        used_at_millis: null,
        attempts: 0,
        recipient: c.recipient,
        link,
        data: c.data,
      });
      return code;
    },
  };
}

function withCode(callbackUrl: string, code: string): string {
  const url = new URL(callbackUrl);
  url.searchParams.set("code", code);
  return url.toString();
}
