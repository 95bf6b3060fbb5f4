// A ClientAppContext of an admin app for testing admin modules on their own:
// the runtime client on a fake service with access type `admin`, either with
// the project's keys or with a project owner's session instead.
import { createStackClient } from "../../../../runtime/http/client.js";
import { createClientAppContext, type ClientAppContext } from "../../../../runtime/app/context.js";
import { resolveHandlerUrls } from "../../../../runtime/app/urls.js";
import type { OwnerSession } from "../../../../runtime/http/pipeline.js";
import { fakeService, jwt, testEnvironment, type Handler, type SentRequest } from "../../../helpers/fake-service.js";

export const PROJECT_ID = "6f4a3c2e-0b1d-4e5f-9a8b-7c6d5e4f3a2b";

/** The keys of a key-based admin app; the owner-session app has none. */
export const KEYS = { publishableClientKey: "pck-admin", secretServerKey: "ssk-admin", superSecretAdminKey: "sak-admin" } as const;

export function adminContext(handler: Handler, options: { readonly owner?: OwnerSession; readonly projectId?: string } = {}) {
  const service = fakeService(handler);
  const { env, waits } = testEnvironment(service.fetch);
  const projectId = options.projectId ?? PROJECT_ID;
  const client = createStackClient({
    projectId,
    accessType: "admin",
    tokenStore: null,
    environment: env,
    ...(options.owner ? { projectOwnerSession: options.owner } : KEYS),
  });
  const ctx: ClientAppContext = {
    client,
    env,
    projectId,
    publishableClientKey: options.owner ? undefined : KEYS.publishableClientKey,
    baseUrl: "https://api.stack-auth.com",
    urls: resolveHandlerUrls(undefined),
    redirectMethod: "none",
    oauthScopesOnSignIn: {},
    browser: null,
    sessions: () => client.requireSessions(),
    signIn: () => {
      throw new Error("an admin test does not sign in");
    },
    redirect: async () => undefined,
    absoluteUrl: (pathOrUrl) => new URL(pathOrUrl, "https://app.example.com/").toString(),

    boundTo: (view) => createClientAppContext(client.boundTo(view), ctx),
  };
  return { ctx, service, env, waits };
}

/** Method, path with query, and parsed JSON body of every request. */
export const sent = (s: { requests: SentRequest[] }) =>
  s.requests.map((r) => ({ method: r.method, path: r.path, body: r.body === "" ? undefined : (JSON.parse(r.body) as unknown) }));

/** The x-stack-* headers of a request whose values do not change between requests (the nonce does). */
export function stackHeadersOf(request: SentRequest | undefined): Record<string, string> {
  if (!request) throw new Error("no request was sent");
  return Object.fromEntries(
    Object.entries(request.headers).filter(([name]) => name.startsWith("x-stack-") && name !== "x-stack-random-nonce"),
  );
}

/** A project owner's session whose access token the test controls; counts what the pipeline asks of it. */
export function fakeOwnerSession(tokens: readonly string[] = [jwt({ sub: "owner-1" }), jwt({ sub: "owner-1", exp: 4102444800 })]) {
  let index = 0;
  const expired: string[] = [];
  let reads = 0;
  const owner: OwnerSession = {
    getTokens: async () => {
      reads++;
      return { accessToken: tokens[index] ?? null, refreshToken: "rt-owner" };
    },
    markAccessTokenExpired: (accessToken: string) => {
      expired.push(accessToken);
      // A real session refreshes on the next getTokens(); the fake moves on to its next token.
      if (accessToken === tokens[index]) index++;
    },
  };
  return { owner, expired, reads: () => reads, tokens };
}
