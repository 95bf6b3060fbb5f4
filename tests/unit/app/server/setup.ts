// A StackServerApp on a fake service, and the wire fixtures of the server tests.
import { expect } from "vitest";
import type { components } from "../../../../generated/schema.js";
import { StackServerApp, type StackServerAppOptions } from "../../../../runtime/app/server-app.js";
import { createMemoryTokenStore } from "../../../../runtime/sessions/tokens/memory.js";
import type { TokenPair } from "../../../../runtime/sessions/tokens/store.js";
import { doc } from "../../../fixtures/document.js";
import { answerAsDocumented } from "../../../helpers/documented-answers.js";
import { fakeService, json, testEnvironment, type Handler, type SentRequest } from "../../../helpers/fake-service.js";

export type WireServerUser = components["schemas"]["ServerUser"];
export type WireServerTeam = components["schemas"]["ServerTeam"];

export const USER = doc.components.examples["ServerUser"]!.value as WireServerUser;
export const USER_ID = USER.id;
export const TEAM = USER.selected_team as WireServerTeam;
export const TEAM_ID = TEAM.id;
export const OTHER_ID = "0f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0";

export interface ServerSetup {
  readonly tokens?: TokenPair;
  readonly app?: Partial<StackServerAppOptions>;
}

export function setup(handler: Handler, options: ServerSetup = {}) {
  const service = fakeService(handler);
  const { env, waits } = testEnvironment(service.fetch);
  const store = createMemoryTokenStore(options.tokens ?? { refreshToken: null, accessToken: null });
  const navigations: string[] = [];
  const app = new StackServerApp({
    projectId: "proj-1",
    publishableClientKey: "pck-1",
    secretServerKey: "ssk-1",
    tokenStore: store,
    environment: env,
    browser: null,
    redirectMethod: { navigate: (url) => void navigations.push(url) },
    urls: {
      emailVerification: "https://app.example.com/handler/email-verification",
      teamInvitation: "https://app.example.com/handler/team-invitation",
    },
    ...options.app,
  } as StackServerAppOptions);
  return { app, service, store, env, waits, navigations };
}

/** Answers by "METHOD /path?query" (relative to /api/v1); anything else gets its operation's documented example. */
export function routes(table: Record<string, () => Response>): Handler {
  return (request) => {
    const route = `${request.method} ${request.path.replace(/^\/api\/v1/, "")}`;
    const answer = table[route];
    return answer ? answer() : answerAsDocumented(request);
  };
}

/** What was sent, as method, path under /api/v1, and parsed body. */
export function sent(service: { requests: SentRequest[] }) {
  return service.requests.map((r) => ({
    method: r.method,
    path: r.path.replace(/^\/api\/v1/, ""),
    ...(r.body === "" ? {} : { body: JSON.parse(r.body) as unknown }),
  }));
}

/** Every request went out as a server request: the secret key, access type server, and no user tokens. */
export function expectServerRequests(service: { requests: SentRequest[] }) {
  expect(service.requests.length).toBeGreaterThan(0);
  for (const request of service.requests) {
    expect(request.headers).toMatchObject({
      "x-stack-secret-server-key": "ssk-1",
      "x-stack-access-type": "server",
      "x-stack-project-id": "proj-1",
    });
    expect(request.headers["x-stack-access-token"]).toBeUndefined();
    expect(request.headers["x-stack-refresh-token"]).toBeUndefined();
  }
}

/** An app whose service knows the fixture user (and answers `table`), and that user as a ServerUser; requests are then emptied. */
export async function withServerUser(
  table: Record<string, () => Response> = {},
  wire: Partial<Record<keyof WireServerUser, unknown>> = {},
  options: ServerSetup = {},
) {
  const s = setup(routes({ [`GET /users/${USER_ID}`]: () => json({ ...USER, ...wire }), ...table }), options);
  const user = await s.app.getUser(USER_ID);
  if (!user) throw new Error("the fixture user was not found");
  s.service.requests.length = 0;
  return { ...s, user };
}

/** An app whose service knows the fixture team (and answers `table`), and that team as a ServerTeam; requests are then emptied. */
export async function withServerTeam(
  table: Record<string, () => Response> = {},
  wire: Partial<Record<keyof WireServerTeam, unknown>> = {},
) {
  const s = setup(routes({ [`GET /teams/${TEAM_ID}`]: () => json({ ...TEAM, ...wire }), ...table }));
  const team = await s.app.getTeam(TEAM_ID);
  if (!team) throw new Error("the fixture team was not found");
  s.service.requests.length = 0;
  return { ...s, team };
}
