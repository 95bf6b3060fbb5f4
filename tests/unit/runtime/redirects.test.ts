// No secret follows a redirect (issue: hardening §1). Real HTTP servers on
// 127.0.0.1 and the platform's fetch: the service origin answers with a
// redirect, and nothing may reach the place it points to, on this origin or
// another, whatever the status, the method, the key or the endpoint.
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createStackClient, type StackClientOptions } from "../../../runtime/http/client.js";
import { UnexpectedRedirectError } from "../../../runtime/http/request-errors.js";
import { createMemoryTokenStore } from "../../../runtime/sessions/tokens/memory.js";
import { jwt } from "../../helpers/fake-service.js";

interface Seen {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage["headers"];
  readonly body: string;
}

/** A server that records what reaches it and answers with what `answer` says. */
async function recordingServer(answer: (seen: Seen) => { status: number; headers?: Record<string, string>; body?: string }) {
  const seen: Seen[] = [];
  const server: Server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString()));
    request.on("end", () => {
      const entry = { method: request.method ?? "", url: request.url ?? "", headers: request.headers, body };
      seen.push(entry);
      const { status, headers = {}, body: out = "" } = answer(entry);
      response.writeHead(status, headers).end(out);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { seen, origin, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const STATUSES = [301, 302, 303, 307, 308] as const;
const REFRESH_TOKEN = "rt-secret-refresh-token";
const SECRET_SERVER_KEY = "ssk-secret-server-key";
const liveAccess = () => jwt({ exp: Math.floor(Date.now() / 1000) + 3600 });
const expiredAccess = () => jwt({ exp: Math.floor(Date.now() / 1000) - 60 });

let redirect: { status: number; location: string } = { status: 307, location: "" };
let service: Awaited<ReturnType<typeof recordingServer>>;
let elsewhere: Awaited<ReturnType<typeof recordingServer>>;

beforeAll(async () => {
  service = await recordingServer((seen) =>
    seen.url.startsWith("/api/v1/")
      ? { status: redirect.status, headers: { location: redirect.location }, body: "moved" }
      : { status: 200, headers: { "content-type": "application/json" }, body: "{}" },
  );
  elsewhere = await recordingServer(() => ({ status: 200, headers: { "content-type": "application/json" }, body: "{}" }));
});
afterAll(async () => {
  await service.close();
  await elsewhere.close();
});
beforeEach(() => {
  service.seen.length = 0;
  elsewhere.seen.length = 0;
});

function client(options: Partial<StackClientOptions> = {}, accessToken = liveAccess()) {
  return createStackClient({
    projectId: "proj-1",
    publishableClientKey: "pck-public-key",
    baseUrl: service.origin,
    tokenStore: createMemoryTokenStore({ refreshToken: REFRESH_TOKEN, accessToken }),
    environment: { fetch: (request) => fetch(request) },
    ...options,
  });
}

const CALLS = {
  "a GET with the user's access token (getCurrentUser)": {
    operation: "GET",
    path: "/api/v1/users/me",
    run: () => client().api.GET("/users/me"),
  },
  "a POST with a JSON body (createTeam)": {
    operation: "POST",
    path: "/api/v1/teams",
    run: () => client().api.POST("/teams", { body: { display_name: "Secret team" } }),
  },
  "a server call with the secret server key (getUser)": {
    operation: "GET",
    path: "/api/v1/users/u1",
    run: () =>
      client({ accessType: "server", secretServerKey: SECRET_SERVER_KEY, tokenStore: null }).api.GET("/users/{user_id}", {
        params: { path: { user_id: "u1" } },
      }),
  },
  "the token endpoint, posting the refresh token": {
    operation: "POST",
    path: "/api/v1/auth/oauth/token",
    run: () => client({}, expiredAccess()).api.GET("/users/me"),
  },
} as const;

describe.each(Object.entries(CALLS))("%s answered with a redirect", (_, call) => {
  describe.each(["same-origin", "cross-origin"] as const)("%s", (where) => {
    it.each(STATUSES)("%i: nothing reaches the Location; the caller gets an UnexpectedRedirectError", async (status) => {
      const location = where === "same-origin" ? `${service.origin}/elsewhere` : `${elsewhere.origin}/collect`;
      redirect = { status, location };
      const error = await call.run().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(UnexpectedRedirectError);
      expect(error).toMatchObject({ name: "UnexpectedRedirectError", status });
      const message = (error as Error).message;
      expect(message).toBe(
        `${call.operation} ${service.origin}${call.path} was answered with HTTP ${status}. The Stack Auth API never redirects an API call, ` +
          "so the redirect was not followed and nothing was sent to its location. Check the API's base URL (and any proxy in front of it).",
      );
      for (const secret of [REFRESH_TOKEN, SECRET_SERVER_KEY, "pck-public-key", location]) expect(message).not.toContain(secret);
      // Exactly one request, to the service; none to the Location, here or there.
      expect(service.seen.map((s) => `${s.method} ${s.url}`)).toEqual([`${call.operation} ${call.path}`]);
      expect(elsewhere.seen).toEqual([]);
    });
  });
});
