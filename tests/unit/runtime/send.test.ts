// The runtime's own calls (client.send): the request it puts on the wire is the
// one openapi-fetch (client.api) makes for the same operation and init, and its
// `data` is what openapi-fetch would answer.
import "../../helpers/lazy-modules.js";
import { describe, expect, it } from "vitest";
import { createStackClient } from "../../../runtime/http/client.js";
import { ResponseFormatError } from "../../../runtime/http/request-errors.js";
import { createMemoryTokenStore } from "../../../runtime/sessions/tokens/memory.js";
import { answerAsDocumented } from "../../helpers/documented-answers.js";
import { fakeService, json, jwt, testEnvironment, type Handler, type SentRequest } from "../../helpers/fake-service.js";

const BASE = "https://api.example.com";

function clientWith(handler: Handler) {
  const service = fakeService(handler);
  const { env } = testEnvironment(service.fetch);
  const seen: string[] = [];
  const client = createStackClient({
    onRequest: (event) => seen.push(event.url),
    projectId: "p-1",
    publishableClientKey: "pck-1",
    baseUrl: BASE,
    tokenStore: createMemoryTokenStore({ refreshToken: "rt-1", accessToken: jwt({ exp: 2e9 }) }),
    environment: env,
  });
  return { client, requests: service.requests, seen };
}

/** What the wire sees, without the nonce (fresh per request by design). */
function wire(sent: SentRequest) {
  const { "x-stack-random-nonce": nonce, ...headers } = sent.headers;
  expect(nonce).toMatch(/^[A-Za-z0-9_-]+$/);
  return { method: sent.method, url: sent.url, headers, body: sent.body };
}

describe("client.send", () => {
  it("sends what client.api sends for the same operation and init: path, query, JSON body and headers", async () => {
    const viaSend = clientWith((sent) => answerAsDocumented(sent));
    const viaApi = clientWith((sent) => answerAsDocumented(sent));
    const path = { user_id: "u 1/ü", contact_channel_id: "c-1" };
    const body = { value: "a@example.com", is_primary: true };
    await viaSend.client.send("PATCH /contact-channels/{user_id}/{contact_channel_id}", { params: { path }, body });
    await viaApi.client.api.PATCH("/contact-channels/{user_id}/{contact_channel_id}", { params: { path }, body });
    const query = { user_id: "it's me", team_id: undefined };
    await viaSend.client.send("GET /teams", { params: { query } });
    await viaApi.client.api.GET("/teams", { params: { query } });
    await viaSend.client.send("GET /users/me", { headers: { "X-Extra": "1" } });
    await viaApi.client.api.GET("/users/me", { headers: { "X-Extra": "1" } });
    expect(viaSend.requests.map(wire)).toEqual(viaApi.requests.map(wire));
    // The onRequest hook sees the URL as the request holds it, whichever way it was made.
    expect(viaSend.seen).toEqual(viaApi.seen);
    expect(viaSend.requests.map((r) => r.url)).toEqual([
      `${BASE}/api/v1/contact-channels/u%201%2F%C3%BC/c-1`,
      `${BASE}/api/v1/teams?user_id=it%27s%20me`,
      `${BASE}/api/v1/users/me`,
    ]);
    expect(viaSend.requests[0]?.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(viaSend.requests[0]?.body ?? "")).toEqual(body);
    expect(viaSend.requests[2]?.headers["x-extra"]).toBe("1");
  });

  it("sends the form body of the operations that take one, as a form", async () => {
    const { client, requests } = clientWith(() =>
      json({ access_token: jwt({ exp: 2e9 }), refresh_token: "rt-2", is_new_user: false, user_id: "u-1" }),
    );
    const body = {
      grant_type: "authorization_code" as const,
      code: "code 1",
      redirect_uri: "https://app.example.com/cb",
      code_verifier: "v",
      client_id: "p-1",
      client_secret: "pck-1",
    };
    await client.send("POST /auth/oauth/token", { body });
    expect(requests[0]?.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(requests[0]?.body).toBe(new URLSearchParams(body).toString());
  });

  it("answers the checked body, and each caller sharing a read its own copy of it", async () => {
    const { client, requests } = clientWith((sent) => answerAsDocumented(sent));
    const [first, second] = await Promise.all([client.send("GET /users/me"), client.send("GET /users/me")]);
    expect(requests).toHaveLength(1);
    expect(first.data).toEqual(second.data);
    expect(first.data).not.toBe(second.data);
  });

  it("refuses an empty answer to an operation that promises JSON, as client.api does", async () => {
    const { client } = clientWith(() => new Response(null, { status: 204 }));
    const viaApi = clientWith(() => new Response(null, { status: 204 }));
    const viaSend = await client.send("DELETE /auth/sessions/current", { body: {} }).catch((error: unknown) => error);
    const fromApi = await viaApi.client.api.DELETE("/auth/sessions/current", { body: {} }).catch((error: unknown) => error);
    expect(viaSend).toBeInstanceOf(ResponseFormatError);
    expect((viaSend as Error).message).toBe(
      "signOutCurrentSession: the service answered HTTP 204 with a body that is not JSON (content-type: none)",
    );
    expect((fromApi as Error).message).toBe((viaSend as Error).message);
  });

  it("leaves a path parameter without a value in the path, percent-encoded, as openapi-fetch does", async () => {
    const viaSend = clientWith((sent) => answerAsDocumented(sent));
    const viaApi = clientWith((sent) => answerAsDocumented(sent));
    const init = { params: { path: { user_id: undefined as unknown as string } } };
    await viaSend.client.send("GET /users/{user_id}", init).catch(() => undefined);
    await viaApi.client.api.GET("/users/{user_id}", init).catch(() => undefined);
    expect(viaSend.requests[0]?.url).toBe(`${BASE}/api/v1/users/%7Buser_id%7D`);
    expect(viaSend.requests.map(wire)).toEqual(viaApi.requests.map(wire));
  });
});
