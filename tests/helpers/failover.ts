// A client on the hosted service's origins, for the failover tests: every
// Request the runtime hands its fetch is kept in order (`sent`, the list's
// included), and the fake service answers each origin as the test scripts.
import { createStackClient, type StackClientOptions } from "../../runtime/http/client.js";
import { createMemoryTokenStore } from "../../runtime/sessions/tokens/memory.js";
import { fakeService, jwt, testEnvironment, type Handler, type SentRequest } from "./fake-service.js";

export const PRIMARY = "https://api.stack-auth.com";
export const API1 = "https://api1.stack-auth.com";
export const API2 = "https://api2.stack-auth.com";

/** What fetch throws when nothing answers. */
export const down: Handler = () => {
  throw new TypeError("fetch failed");
};

/** Answers each origin with its handler; an origin without one is down. */
export function byOrigin(handlers: Readonly<Record<string, Handler>>): Handler {
  return (sent) => (handlers[new URL(sent.url).origin] ?? down)(sent);
}

/** The request's origin and path: `https://api1.stack-auth.com /api/v1/projects/current`. */
export const where = (sent: SentRequest) => `${new URL(sent.url).origin} ${sent.path}`;

export const inSeconds = (s: number) => Math.floor(Date.now() / 1000) + s;

export interface FailoverSetup {
  /** The answer to `GET /internal/backend-urls`; default the 404 of a version without it. */
  readonly list?: Handler;
  readonly options?: Partial<StackClientOptions>;
  /** The user's tokens; default a refresh token and an access token good for an hour. */
  readonly accessToken?: string;
}

export function failoverSetup(handler: Handler, o: FailoverSetup = {}) {
  const service = fakeService(handler, o.list ? { backendUrls: o.list } : {});
  const sent: Request[] = [];
  const { env, waits } = testEnvironment((request) => {
    sent.push(request);
    return service.fetch(request);
  });
  const store = createMemoryTokenStore({ refreshToken: "rt-secret", accessToken: o.accessToken ?? jwt({ exp: inSeconds(3600) }) });
  const client = createStackClient({
    projectId: "proj-1",
    publishableClientKey: "pck-secret",
    tokenStore: store,
    environment: env,
    ...o.options,
  });
  return { service, client, waits, sent, env, store };
}
