// Connected accounts: the provider access token of a linked OAuth account (endpoints.md §A, wire contract §6).
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { KnownErrors } from "../../../../generated/known-errors.js";
import { isStackError } from "../../../../runtime/errors.js";
import { userConnectedAccountMethods } from "../../../../runtime/app/objects/connected-account.js";
import { fakeBrowser, testAppContext, type TestAppOptions } from "../../../helpers/app-context.js";
import { json, knownError, useFakeClock, type Handler, type SentRequest } from "../../../helpers/fake-service.js";
import { rejectionOf } from "../../../helpers/outcome.js";

const NOT_CONNECTED = () => knownError(400, "OAUTH_CONNECTION_NOT_CONNECTED_TO_USER", "The OAuth connection is not connected to any user.");
const MISSING_SCOPE = () =>
  knownError(400, "OAUTH_CONNECTION_DOES_NOT_HAVE_REQUIRED_SCOPE", "The OAuth connection does not have the required scope.");

function setup(handler: Handler, options: TestAppOptions = {}) {
  const t = testAppContext(handler, options);
  return { ...t, methods: userConnectedAccountMethods(t.ctx) };
}
const sent = (s: { requests: SentRequest[] }) => s.requests.map((r) => ({ method: r.method, path: r.path, body: JSON.parse(r.body) }));

/** A service that issues gh-token-1, gh-token-2, … */
function issuing(): Handler {
  let n = 0;
  return () => json({ access_token: `gh-token-${++n}` }, { status: 201 });
}

beforeEach(() => useFakeClock());
afterEach(() => vi.useRealTimers());

describe("getConnectedAccount", () => {
  it("is POST /connected-accounts/me/{provider}/access-token with the scopes space-separated", async () => {
    const { methods, service } = setup(issuing());
    const connection = await methods.getConnectedAccount("github", { scopes: ["repo", "read:user"] });
    expect(sent(service)).toEqual([
      { method: "POST", path: "/api/v1/connected-accounts/me/github/access-token", body: { scope: "repo read:user" } },
    ]);
    expect(connection).toEqual({ id: "github", getAccessToken: expect.any(Function) });
  });

  it("sends an empty scope when none is asked for", async () => {
    const { methods, service } = setup(issuing());
    await methods.getConnectedAccount("google");
    expect(sent(service)[0]!.body).toEqual({ scope: "" });
  });

  it("lower-cases the provider id in the path", async () => {
    const { methods, service } = setup(issuing());
    const connection = await methods.getConnectedAccount("GitHub");
    expect(service.requests[0]!.path).toBe("/api/v1/connected-accounts/me/github/access-token");
    expect(connection!.id).toBe("github");
  });

  it("answers the token it fetched on the first getAccessToken, and asks again, same scopes, on later calls", async () => {
    const { methods, service } = setup(issuing());
    const connection = (await methods.getConnectedAccount("github", { scopes: ["repo"] }))!;
    expect(await connection.getAccessToken()).toEqual({ accessToken: "gh-token-1" });
    expect(service.requests).toHaveLength(1);
    expect(await connection.getAccessToken()).toEqual({ accessToken: "gh-token-2" });
    expect(sent(service)[1]).toEqual({
      method: "POST",
      path: "/api/v1/connected-accounts/me/github/access-token",
      body: { scope: "repo" },
    });
  });

  it.each([
    ["not connected", NOT_CONNECTED],
    ["missing a scope", MISSING_SCOPE],
  ])("is null by default for a user %s", async (_, answer) => {
    const { methods } = setup(answer);
    expect(await methods.getConnectedAccount("github", { scopes: ["repo"] })).toBeNull();
  });

  it.each([
    ["not connected", NOT_CONNECTED],
    ["missing a scope", MISSING_SCOPE],
  ])("is null with or: return-null for a user %s", async (_, answer) => {
    const { methods } = setup(answer);
    expect(await methods.getConnectedAccount("github", { or: "return-null" })).toBeNull();
  });

  it("with or: throw throws the service's OAuthConnectionNotConnectedToUser", async () => {
    const { methods } = setup(NOT_CONNECTED);
    expect(await rejectionOf(methods.getConnectedAccount("github", { or: "throw" }))).toBeInstanceOf(
      KnownErrors.OAuthConnectionNotConnectedToUser,
    );
  });

  it("with or: throw throws the service's OAuthConnectionDoesNotHaveRequiredScope", async () => {
    const { methods } = setup(MISSING_SCOPE);
    expect(await rejectionOf(methods.getConnectedAccount("github", { scopes: ["repo"], or: "throw" }))).toBeInstanceOf(
      KnownErrors.OAuthConnectionDoesNotHaveRequiredScope,
    );
  });

  it("throws other errors whatever `or` says", async () => {
    const { methods } = setup(() =>
      knownError(400, "OAUTH_ACCESS_TOKEN_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS", "Access tokens are not available with shared OAuth keys."),
    );
    expect(await rejectionOf(methods.getConnectedAccount("github"))).toBeInstanceOf(
      KnownErrors.OAuthAccessTokenNotAvailableWithSharedOAuthKeys,
    );
  });

  it("with or: redirect starts the link flow for the provider and scopes, and never answers", async () => {
    const fake = fakeBrowser("https://app.example.com/settings?tab=github");
    const { methods, service } = setup(NOT_CONNECTED, { browser: fake.browser });
    let settled = false;
    const pending = methods.getConnectedAccount("github", { scopes: ["repo", "read:user"], or: "redirect" });
    pending.then(
      () => (settled = true),
      () => (settled = true),
    );
    // The PKCE challenge is hashed by WebCrypto, outside the fake clock: wait for the navigation.
    await vi.waitFor(() => expect(fake.assigned).toHaveLength(1));
    await vi.advanceTimersByTimeAsync(10_000);
    expect(service.requests).toHaveLength(1);
    const url = new URL(fake.assigned[0]!);
    expect(url.origin + url.pathname).toBe("https://api.stack-auth.com/api/v1/auth/oauth/authorize/github");
    expect(url.searchParams.get("type")).toBe("link");
    expect(url.searchParams.get("provider_scope")).toBe("repo read:user");
    expect(url.searchParams.get("after_callback_redirect_url")).toBe("https://app.example.com/settings?tab=github");
    expect(settled).toBe(false);
  });

  it("with or: redirect outside a browser is a configuration error", async () => {
    const { methods } = setup(NOT_CONNECTED);
    const error = await rejectionOf(methods.getConnectedAccount("github", { or: "redirect" }));
    expect(isStackError(error, "StackConfigurationError")).toBe(true);
  });

  it("without a provider id is a configuration error and sends nothing", async () => {
    const { methods, service } = setup(issuing());
    expect(isStackError(await rejectionOf(methods.getConnectedAccount("")), "StackConfigurationError")).toBe(true);
    expect(service.requests).toEqual([]);
  });
});
