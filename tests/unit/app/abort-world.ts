// The world of the cancellation tests (abort.test.ts): an app of each kind on a
// service that answers as the document does until it is told to hang, then
// takes every request and never answers it, as a stalled network would (the
// request's signal still rejects it, as fetch does). Timers are real but
// counted, so a test can tell a call that waits from one that finished, and
// whether an aborted call left a timer behind.
import { StackAdminApp, StackClientApp, StackServerApp } from "../../../runtime/index.js";
import type { Environment } from "../../../runtime/platform/env.js";
import { createMemoryTokenStore } from "../../../runtime/sessions/tokens/memory.js";
import { fakeBrowser, signedInTokens } from "../../helpers/app-context.js";
import { answerAsDocumented, documentedExample } from "../../helpers/documented-answers.js";
import { fakeService, json, testEnvironment, type SentRequest } from "../../helpers/fake-service.js";

export type WorldKind = "client" | "internal" | "server" | "admin";

export const ADMIN_PROJECT_ID = documentedExample<{ id: string }>("AdminProject").id;
const SERVER_USER = documentedExample("ServerUser");
export const USER_ID = SERVER_USER["id"] as string;
export const TEAM_ID = (SERVER_USER["selected_team"] as { id: string }).id;
const SERVER_TEAM = SERVER_USER["selected_team"] as Record<string, unknown>;
/** The state of an OAuth flow this browser started; the page is its callback. */
const STATE = "abcdefghijklmnopqrstuv0123456789";

/** Where a server answers differently from the client view the document's examples show. */
function serverAnswer(sent: SentRequest): Response | null {
  const route = `${sent.method} ${sent.path.replace(/^\/api\/v1/, "").replace(/\?.*$/, "")}`;
  if (route === "GET /users/me" || route === `GET /users/${USER_ID}`) return json(SERVER_USER);
  if (route === `GET /teams/${TEAM_ID}` || route === "POST /teams") return json(SERVER_TEAM);
  if (route === "GET /teams") return json({ items: [SERVER_TEAM], is_paginated: false });
  const profile = { team_id: TEAM_ID, user_id: USER_ID, display_name: "Ada", profile_image_url: null, user: SERVER_USER };
  if (route === "GET /team-member-profiles") return json({ items: [profile], is_paginated: false });
  if (route === `GET /team-member-profiles/${TEAM_ID}/${USER_ID}`) return json(profile);
  return null;
}

export interface World {
  readonly kind: WorldKind;
  readonly app: StackClientApp;
  /** What reached the service since the last reset, as `METHOD /path`. */
  readonly requests: string[];
  /** How often the page was sent somewhere (the OAuth authorize URL, the app's redirects). */
  navigationCount(): number;
  /** Timers started and not yet fired or cleared. */
  readonly activeTimers: ReadonlySet<unknown>;
  /** From now on every request hangs until its signal aborts. */
  hang(): void;
  /** From now on requests are answered again. */
  answer(): void;
  /** Moves the clock on, so that the signed-in session's access token has expired. */
  expireAccessToken(): void;
  /** Clears what is left (timers of work no caller waits for), so nothing outlives the test. */
  dispose(): void;
}

/** A world of `kind`; `override` answers what it wants to, the document's examples the rest. */
export function world(kind: WorldKind, override: (sent: SentRequest) => Response | null = () => null): World {
  const requests: string[] = [];
  let hanging = false;
  let skew = 0;
  const documented = fakeService(
    (sent) => override(sent) ?? (kind === "server" || kind === "admin" ? serverAnswer(sent) : null) ?? answerAsDocumented(sent),
  );
  const fetch = (request: Request): Promise<Response> => {
    requests.push(`${request.method} ${new URL(request.url).pathname.replace(/^\/api\/v1/, "")}`);
    return hanging ? untilAborted(request.signal) : documented.fetch(request);
  };
  const active = new Set<unknown>();
  const { env } = testEnvironment(fetch, {
    now: () => Date.now() + skew,
    setTimeout: (callback, ms) => {
      const id = setTimeout(() => {
        active.delete(id);
        callback();
      }, ms);
      active.add(id);
      return id;
    },
    clearTimeout: (id) => {
      active.delete(id);
      clearTimeout(id as ReturnType<typeof setTimeout>);
    },
  });
  const page = fakeBrowser(`https://app.example.com/handler/oauth-callback?code=c-1&state=${STATE}`);
  page.browser.document.cookie = `stack-oauth-outer-${STATE}=verifier-of-the-flow`;
  const navigations: string[] = [];
  const app = appOf(kind, env, page.browser, navigations);
  return {
    kind,
    app,
    requests,
    navigationCount: () => navigations.length + page.assigned.length + page.replaced.length,
    activeTimers: active,
    hang: () => {
      hanging = true;
      requests.length = 0;
    },
    answer: () => {
      hanging = false;
    },
    expireAccessToken: () => {
      skew = 2 * 3600 * 1000;
    },
    dispose: () => {
      for (const id of active) clearTimeout(id as ReturnType<typeof setTimeout>);
      active.clear();
    },
  };
}

function appOf(
  kind: WorldKind,
  env: Environment,
  browser: ReturnType<typeof fakeBrowser>["browser"],
  navigations: string[],
): StackClientApp {
  const common = {
    tokenStore: createMemoryTokenStore(signedInTokens()),
    environment: env,
    browser,
    // Navigating waits 2000 ms afterwards: a wait the signal must cut short.
    redirectMethod: { navigate: (url: string) => void navigations.push(url) },
    noAutomaticPrefetch: true,
  };
  if (kind === "client" || kind === "internal") {
    return new StackClientApp({ projectId: kind === "internal" ? "internal" : "proj-1", publishableClientKey: "pck-1", ...common });
  }
  if (kind === "server")
    return new StackServerApp({ projectId: "proj-1", publishableClientKey: "pck-1", secretServerKey: "ssk-1", ...common });
  return new StackAdminApp({
    projectId: ADMIN_PROJECT_ID,
    publishableClientKey: "pck-1",
    secretServerKey: "ssk-1",
    superSecretAdminKey: "sak-1",
    ...common,
  });
}

/** What fetch does with a request nobody answers: nothing, until its signal aborts. */
function untilAborted(signal: AbortSignal): Promise<Response> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    signal.addEventListener("abort", () => reject(signal.reason), { once: true });
  });
}
