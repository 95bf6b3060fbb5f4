// Runs one call of a public method against a fake service that answers the
// operation under test with a mutated answer and everything else validly, on
// a virtual clock, and says how it ended: a value (checked against what the
// method promises), a typed error, an untyped error, or a hang.
import type { AccessType, OperationId } from "../../generated/operations.js";
import { KnownError } from "../../generated/known-errors.js";
import { StackAdminApp } from "../../runtime/app/admin-app.js";
import "../helpers/lazy-modules.js";
import { StackClientApp } from "../../runtime/app/client-app.js";
import { StackServerApp } from "../../runtime/app/server-app.js";
import type { Environment } from "../../runtime/platform/env.js";
import { isStackError } from "../../runtime/errors.js";
import { matchOperation } from "../../runtime/http/operations.js";
import { createMemoryTokenStore } from "../../runtime/sessions/tokens/memory.js";
import type { TokenPair } from "../../runtime/sessions/tokens/store.js";
import { jwt } from "../helpers/fake-service.js";
import { ADMIN_PROJECT_ID, freshAccessToken, START_MILLIS, type BaseAnswer } from "./answers.js";
import { toJsonText, type Mutation, type ServedAnswer } from "./mutations.js";
import { walk, type Shape } from "./shapes.js";

// A VIRTUAL CLOCK

interface Timer {
  readonly id: number;
  readonly at: number;
  readonly seq: number;
  readonly callback: () => void;
}

/** Time that moves only when the driver fires the next timer. */
export class VirtualClock {
  now = START_MILLIS;
  #timers: Timer[] = [];
  #seq = 0;
  fired = 0;
  /** Bumped by the fake service on every request, so the driver knows work is under way. */
  activity = 0;

  readonly env: Pick<Environment, "now" | "setTimeout" | "clearTimeout"> = {
    now: () => this.now,
    setTimeout: (callback, ms) => {
      const delay = Number.isFinite(ms) && ms > 0 ? ms : 0;
      const timer = { id: ++this.#seq, at: this.now + delay, seq: this.#seq, callback };
      this.#timers.push(timer);
      return timer.id;
    },
    clearTimeout: (id) => {
      this.#timers = this.#timers.filter((t) => t.id !== id);
    },
  };

  get pending(): number {
    return this.#timers.length;
  }

  /** Moves time to the earliest timer and runs it. False when there is none. */
  fireNext(): boolean {
    if (this.#timers.length === 0) return false;
    let next = this.#timers[0]!;
    for (const t of this.#timers) if (t.at < next.at || (t.at === next.at && t.seq < next.seq)) next = t;
    this.#timers = this.#timers.filter((t) => t !== next);
    this.now = Math.max(this.now, next.at);
    this.fired++;
    next.callback();
    return true;
  }
}

const macrotask = () => new Promise<void>((resolve) => setImmediate(resolve));

export type Settled =
  { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: unknown } | { readonly hang: string };

/** Limits of one case: timers fired, and turns of the event loop with nothing to fire. */
const MAX_TIMERS = 200;
/** Turns with nothing settling before the earliest timer fires: an answer being read must not lose a race to its own timeout. */
const TURNS_BEFORE_TIMER = 3;
const IDLE_TURNS = 8;

/**
 * Drives `promise` on `clock`: lets the event loop turn, and when nothing is
 * left to do but timers, fires the earliest. A call still pending with no timer
 * left (or after too many) hangs.
 */
export async function drive(promise: Promise<unknown>, clock: VirtualClock): Promise<Settled> {
  let settled: Settled | undefined;
  promise.then(
    (value) => void (settled = { ok: true, value }),
    (error: unknown) => void (settled = { ok: false, error }),
  );
  let idle = 0;
  let activity = clock.activity;
  while (settled === undefined) {
    await macrotask();
    if (settled !== undefined) break;
    idle++;
    if (clock.activity !== activity) {
      activity = clock.activity;
      idle = 0;
      continue;
    }
    if (clock.pending > 0) {
      if (idle < TURNS_BEFORE_TIMER) continue;
      if (clock.fired >= MAX_TIMERS)
        return { hang: `still pending after ${MAX_TIMERS} timers (virtual time +${clock.now - START_MILLIS} ms)` };
      clock.fireNext();
      idle = 0;
    } else if (idle > IDLE_TURNS) {
      // One real pause before calling it a hang, in case something outside the loop is slow.
      await new Promise((resolve) => setTimeout(resolve, 5));
      if (settled !== undefined) break;
      return { hang: `pending with no timer left (virtual time +${clock.now - START_MILLIS} ms)` };
    }
  }
  return settled;
}

// THE APPS OF A CASE

export interface Apps {
  readonly client: StackClientApp;
  readonly server: StackServerApp;
  readonly admin: StackAdminApp;
  /** A client app of the internal project (the dashboard's), whose users own projects. */
  readonly internal: StackClientApp;
}

export type AppKind = keyof Apps;

export type TokenState = "signed-in" | "expired" | "none";

const URLS = {
  emailVerification: "https://app.example.com/handler/email-verification",
  passwordReset: "https://app.example.com/handler/password-reset",
  magicLinkCallback: "https://app.example.com/handler/magic-link-callback",
  teamInvitation: "https://app.example.com/handler/team-invitation",
};

function tokensOf(state: TokenState): TokenPair {
  if (state === "none") return { refreshToken: null, accessToken: null };
  const accessToken =
    state === "expired"
      ? jwt({ exp: Math.floor(START_MILLIS / 1000) - 60, sub: "3241a285-8329-4d69-8f3d-316e08cf140c" })
      : freshAccessToken();
  return { refreshToken: "rt-fuzz-stored", accessToken };
}

/** Only the app a case uses is built (an admin app costs three runtime clients). */
function buildApp(kind: AppKind, env: Partial<Environment>, tokens: TokenState): StackClientApp {
  const common = {
    tokenStore: createMemoryTokenStore(tokensOf(tokens)),
    environment: env,
    browser: null,
    redirectMethod: "none" as const,
    urls: URLS,
    noAutomaticPrefetch: true,
  };
  switch (kind) {
    case "client":
      return new StackClientApp({ projectId: "proj-fuzz", publishableClientKey: "pck-fuzz", ...common });
    case "internal":
      return new StackClientApp({ projectId: "internal", publishableClientKey: "pck-internal", ...common });
    case "server":
      return new StackServerApp({ projectId: "proj-fuzz", publishableClientKey: "pck-fuzz", secretServerKey: "ssk-fuzz", ...common });
    case "admin":
      return new StackAdminApp({
        projectId: ADMIN_PROJECT_ID,
        publishableClientKey: "pck-fuzz",
        secretServerKey: "ssk-fuzz",
        superSecretAdminKey: "sak-fuzz",
        ...common,
      });
  }
}

function lazyApps(env: Partial<Environment>, tokens: TokenState): Apps {
  const made = new Map<AppKind, StackClientApp>();
  const get = (kind: AppKind) => {
    let app = made.get(kind);
    if (!app) {
      app = buildApp(kind, env, tokens);
      made.set(kind, app);
    }
    return app;
  };
  return {
    get client() {
      return get("client");
    },
    get internal() {
      return get("internal");
    },
    get server() {
      return get("server") as StackServerApp;
    },
    get admin() {
      return get("admin") as StackAdminApp;
    },
  };
}

// ONE CASE

/** A step before the call under test found nothing: the valid answers do not fit together. Never a finding about the SDK. */
export class SetupError extends Error {
  override readonly name = "SetupError";
}

export interface MethodCase {
  /** `client.getUser`, `user.listTeams`, ... */
  readonly name: string;
  /** The operation whose answers are mutated. */
  readonly target: OperationId;
  /** The tokens in the app's store when the call starts. Default signed-in. */
  readonly tokens?: TokenState;
  /** The call, from freshly built apps to the value the caller gets. */
  readonly run: (apps: Apps) => Promise<unknown>;
  /** What the value must look like. */
  readonly shape: Shape;
  /** The value is the service's own data, passed on as it is (no documented fields): not walked. */
  readonly opaque?: true;
}

/** Answers every operation validly: the first candidate that passed the baseline, per access type. */
export type ValidAnswers = (op: OperationId, access: AccessType) => BaseAnswer | undefined;

export interface CaseOutcome {
  readonly settled: Settled;
  /** Answers served for the target operation. */
  readonly targetServed: number;
  /** Problems with the returned value (empty when it threw). */
  readonly problems: readonly string[];
  /** Requests the runtime sent without `redirect: "manual"`, by operation. */
  readonly followedRedirects: readonly string[];
  /** Requests the fake could not answer (an operation without a valid answer). */
  readonly unanswered: readonly string[];
  /** Requests to paths the API does not have; answered 404 as the service would. */
  readonly unknownRoutes: readonly string[];
  readonly operations: readonly string[];
}

const API = "/api/v1";

function respond(answer: ServedAnswer): Response {
  // Statuses that cannot carry a body are sent without one, as a server would.
  const body = answer.status === 204 || answer.status === 205 || answer.status === 304 ? null : answer.body;
  return new Response(body, { status: answer.status, headers: answer.headers });
}

/**
 * Runs `method` once. `mutation` (or none: the baseline) answers its target
 * operation; `valid` answers every other request; `targetAnswer` is the valid
 * answer the baseline serves for the target.
 */
export async function runCase(
  method: MethodCase,
  valid: ValidAnswers,
  targetAnswer: BaseAnswer,
  mutation: Mutation | null,
): Promise<CaseOutcome> {
  const clock = new VirtualClock();
  let served = 0;
  const followed: string[] = [];
  const unanswered: string[] = [];
  const unknownRoutes: string[] = [];
  const operations: string[] = [];
  let nonce = 0;
  const fetch = async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    const path = url.pathname.startsWith(API) ? url.pathname.slice(API.length) : url.pathname;
    const op = matchOperation(request.method, path).operationId;
    const name = op ?? `${request.method} ${path}`;
    clock.activity++;
    operations.push(name);
    if (request.redirect !== "manual") followed.push(name);
    if (op === method.target) {
      const attempt = served++;
      if (mutation) return respond(mutation.answer(attempt));
      return respond({
        status: targetAnswer.status,
        headers: targetAnswer.body === undefined ? {} : { "content-type": "application/json" },
        body: targetAnswer.body === undefined ? null : toJsonText(targetAnswer.body),
      });
    }
    if (op === undefined) {
      // A path the API does not have (an id from a broken answer put into a URL): the service's 404.
      unknownRoutes.push(name);
      return new Response("Not Found", { status: 404, headers: { "content-type": "text/plain" } });
    }
    const access = (request.headers.get("x-stack-access-type") ?? "client") as AccessType;
    const answer = valid(op, access);
    if (!answer) {
      unanswered.push(`${name} (${access})`);
      return new Response("no valid answer for this operation in the fuzz test", { status: 599 });
    }
    return respond({
      status: answer.status,
      headers: answer.body === undefined ? {} : { "content-type": "application/json" },
      body: answer.body === undefined ? null : toJsonText(answer.body),
    });
  };
  const env: Partial<Environment> = {
    ...clock.env,
    fetch,
    random: () => 0.5,
    randomBytes: (length) => Uint8Array.from({ length }, () => nonce++ & 0xff),
    isOffline: () => false,
  };
  const apps = lazyApps(env, method.tokens ?? "signed-in");
  let call: Promise<unknown>;
  try {
    call = method.run(apps);
  } catch (error) {
    // A method that throws synchronously instead of rejecting still ends the case.
    call = Promise.reject(error);
  }
  const settled = await drive(call, clock);
  const problems: string[] = [];
  if ("ok" in settled && settled.ok) {
    method.shape(settled.value, "result", problems);
    if (!method.opaque) walk(settled.value, "result", problems);
  }
  return {
    settled,
    targetServed: served,
    problems: firstProblems(problems),
    followedRedirects: followed,
    unanswered,
    unknownRoutes,
    operations,
  };
}

/**
 * One problem per bad field: the shape and the walk may both see it, and what
 * the walk finds inside a value of the wrong type is the same problem again.
 */
function firstProblems(problems: readonly string[]): string[] {
  const pathOf = (problem: string) => (problem.split(" ")[0] ?? "").replace(/:$/, "");
  const unique = [...new Set(problems)];
  const paths = unique.map(pathOf);
  return unique.filter((problem) => {
    const path = pathOf(problem);
    return !paths.some((other) => other !== path && (path.startsWith(`${other}.`) || path.startsWith(`${other}[`)));
  });
}

/** A typed error: one of the runtime's own, or a known error of the service. */
export function isTypedError(error: unknown): boolean {
  return isStackError(error) || error instanceof KnownError;
}

/** The class name of what was thrown, for reports. */
export function errorClass(error: unknown): string {
  if (error instanceof Error) return error.constructor?.name && error.constructor.name !== "Error" ? error.constructor.name : error.name;
  return `non-Error ${error === null ? "null" : typeof error}`;
}

const ROOT = new URL("../../", import.meta.url).pathname;

/** The first stack frame in this repository's own code (not node_modules, not Node), relative to the repository. */
export function firstFrame(error: unknown): string {
  const stack = error instanceof Error && typeof error.stack === "string" ? error.stack : "";
  const frames = stack.split("\n").filter((line) => /^\s+at /.test(line));
  const own = frames.find((line) => line.includes(ROOT) && !line.includes("node_modules") && !line.includes("/tests/fuzz/"));
  const frame = own ?? frames[0] ?? "(no stack)";
  return frame.trim().replace(/^at /, "").replace(`file://${ROOT}`, "").replace(ROOT, "");
}
