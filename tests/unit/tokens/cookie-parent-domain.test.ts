// @vitest-environment happy-dom
// The "cookie" token store of a client (createStackClient, and so every app) learns the page's
// trusted parent domain from the project (`GET /projects/current`, its `config.domains`, which
// services since 2.8.86 answer), once a session is there: on a subdomain of a domain the project
// trusts with every subdomain, the session goes to that domain's cookie, as the official SDKs
// keep a cross-subdomain session (cross-subdomain.test.ts has the layout itself).
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createStackClient } from "../../../runtime/http/client.js";
import { crockfordBase32 } from "../../helpers/official-cookies.js";
import { fakeService, json, jwt, testEnvironment } from "../../helpers/fake-service.js";

const projectId = "proj-1";
const custom = `stack-refresh-${projectId}--custom-${crockfordBase32("example.com")}`;

/** The project as a client of a 2.8.86 service sees it, trusting `domains`; without them, as 2.8.11 answers. */
function service(domains?: readonly string[], id = projectId) {
  const config = {
    sign_up_enabled: true,
    credential_enabled: true,
    magic_link_enabled: false,
    passkey_enabled: false,
    client_team_creation_enabled: false,
    client_user_deletion_enabled: false,
    allow_user_api_keys: false,
    allow_team_api_keys: false,
    enabled_oauth_providers: [],
    ...(domains && { domains: domains.map((domain) => ({ domain, handler_path: "/handler" })) }),
  };
  // (The document's fixtures are not read here: happy-dom's URL cannot name a file.)
  return fakeService((request) => {
    if (request.path !== "/api/v1/projects/current") throw new Error(`unexpected ${request.method} ${request.path}`);
    return json({ id, display_name: "Acme", config });
  });
}

function signedInClient(fake: ReturnType<typeof fakeService>, id = projectId) {
  const { env } = testEnvironment(fake.fetch);
  const client = createStackClient({ projectId: id, publishableClientKey: "pck-1", tokenStore: "cookie", environment: env });
  client.requireSessions().signIn({ refreshToken: "rt-1", accessToken: jwt({ exp: Math.floor(Date.now() / 1000) + 3600 }) });
  return client;
}

const cookieNames = () => document.cookie.split("; ").map((pair) => pair.slice(0, pair.indexOf("=")));

beforeEach(() => {
  (globalThis as unknown as { happyDOM: { setURL(url: string): void } }).happyDOM.setURL("https://app.example.com/dashboard");
});
function clearCookies() {
  for (const name of cookieNames()) {
    document.cookie = `${name}=; Max-Age=0; Path=/; Secure`;
    document.cookie = `${name}=; Max-Age=0; Path=/; Secure; Domain=example.com`;
  }
}
afterEach(clearCookies);

describe('the "cookie" token store of a client', () => {
  it("asks the project once after a sign-in, and moves the session to the parent domain it trusts with every subdomain", async () => {
    const fake = service(["https://example.com", "https://**.example.com"]);
    signedInClient(fake);
    await vi.waitFor(() => expect(cookieNames()).toContain(custom));
    expect(cookieNames()).toEqual(["stack-access", custom]);
    expect(fake.requests.map((r) => `${r.method} ${r.path}`)).toEqual(["GET /api/v1/projects/current"]);
    expect(fake.requests[0]!.headers["x-stack-publishable-client-key"]).toBe("pck-1");
  });

  it("keeps the session in the host's cookies when the project trusts no such domain, or says nothing of its domains (2.8.11)", async () => {
    // Projects of their own: another test's client, told of these writes on its project's channel, would lay its session out again.
    for (const [id, fake] of [
      ["proj-2", service(["https://example.com", "https://*.example.com"], "proj-2")],
      ["proj-3", service(undefined, "proj-3")],
    ] as const) {
      clearCookies();
      signedInClient(fake, id);
      await vi.waitFor(() => expect(fake.requests).toHaveLength(1));
      await new Promise((resolve) => setTimeout(resolve, 0));
      expect(cookieNames()).toEqual([`stack-refresh-${id}`, `__Host-stack-refresh-${id}--default`, "stack-access"]);
    }
  });

  it("asks nothing on a page loaded signed in, or at an access-token refresh: only a new session is laid out", async () => {
    const id = "proj-4";
    const fake = service(["https://example.com", "https://**.example.com"], id);
    document.cookie = `stack-refresh-${id}=rt-1; Path=/; Secure`;
    const { env } = testEnvironment(fake.fetch);
    const client = createStackClient({ projectId: id, publishableClientKey: "pck-1", tokenStore: "cookie", environment: env });
    expect(client.requireSessions().peekCurrent().refreshToken).toBe("rt-1");
    client.requireSessions().signIn({ refreshToken: "rt-1", accessToken: jwt({ exp: Math.floor(Date.now() / 1000) + 3600 }) });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(fake.requests).toEqual([]);
    expect(cookieNames()).toEqual([`stack-refresh-${id}`, "stack-access"]);
  });
});
