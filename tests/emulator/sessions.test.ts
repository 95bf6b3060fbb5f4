// Sessions through the SDK against the emulator: access tokens refreshed on the
// emulator's clock with the token endpoint, sign-out revoking the refresh
// token, listing and revoking sessions, sessions made by server code
// (impersonation), and what the service answers at the edges.
import { describe, expect, it } from "vitest";
import { DEMO_KEYS } from "../../emulator/index.js";
import { HttpError, isKnownError, StackAdminApp, StackClientApp, StackServerApp } from "../../runtime/index.js";
import { demoAppOptions, useEmulator } from "../helpers/emulator.js";

const emulator = useEmulator();

const MINUTE = 60_000;

const common = () => demoAppOptions(emulator());

type Tokens = { accessToken: string | null; refreshToken: string | null };
const clientApp = (tokenStore: "memory" | Tokens = "memory") => new StackClientApp({ ...common(), tokenStore });
const serverApp = () => new StackServerApp({ ...common(), tokenStore: null, secretServerKey: DEMO_KEYS.secretServerKey });
const adminApp = () =>
  new StackAdminApp({
    ...common(),
    tokenStore: null,
    secretServerKey: DEMO_KEYS.secretServerKey,
    superSecretAdminKey: DEMO_KEYS.superSecretAdminKey,
  });

/** A user of the demo project and a client app signed in as them (a sign-in of its own). */
async function signedIn(email = "ada@example.com") {
  const app = clientApp();
  const existing = emulator().engine.ctx.store.authChannelByEmail(DEMO_KEYS.projectId, email);
  if (!existing) await emulator().control.createUser({ projectId: DEMO_KEYS.projectId, email, password: "correct horse battery" });
  const result = await app.signInWithCredential({ email, password: "correct horse battery" });
  expect(result.status).toBe("ok");
  const user = await app.getUser({ or: "throw" });
  return { app, user };
}

/** A request as it goes on the wire, for what the SDK never sends. */
async function raw(
  method: string,
  path: string,
  o: { headers?: Record<string, string>; json?: unknown; form?: Record<string, string> } = {},
) {
  const e = emulator();
  const headers: Record<string, string> = { ...o.headers };
  let body: string | undefined;
  if (o.form) {
    headers["content-type"] = "application/x-www-form-urlencoded";
    body = new URLSearchParams(o.form).toString();
  } else if (o.json !== undefined) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(o.json);
  }
  const response = await e.fetch(new Request(`${e.apiOrigin}/api/v1${path}`, { method, headers, ...(body === undefined ? {} : { body }) }));
  const text = await response.text();
  return {
    status: response.status,
    knownError: response.headers.get("x-stack-known-error"),
    text,
    json: () => JSON.parse(text) as Record<string, unknown>,
  };
}

const CLIENT_HEADERS = {
  "x-stack-project-id": DEMO_KEYS.projectId,
  "x-stack-access-type": "client",
  "x-stack-publishable-client-key": DEMO_KEYS.publishableClientKey,
};

function tokenGrant(refreshToken: string, overrides: Record<string, string> = {}) {
  return raw("POST", "/auth/oauth/token", {
    form: {
      grant_type: "refresh_token",
      refresh_token: refreshToken,
      client_id: DEMO_KEYS.projectId,
      client_secret: DEMO_KEYS.publishableClientKey,
      ...overrides,
    },
  });
}

describe("access tokens and the token endpoint", () => {
  it("refreshes an expired access token with the refresh token, on the emulator's clock", async () => {
    const { app, user } = await signedIn();
    const before = await app.getAuthJson();
    emulator().control.clearRequests();
    emulator().control.advanceClock(11 * MINUTE);
    const refreshedAfter = emulator().control.now();

    expect((await app.getUser({ or: "throw" })).id).toBe(user.id);
    const after = await app.getAuthJson();
    expect(after.refreshToken).toBe(before.refreshToken);
    expect(after.accessToken).not.toBe(before.accessToken);
    const refreshes = emulator().control.requests({ operationId: "exchangeOAuthToken" });
    expect(refreshes.map((r) => r.status)).toEqual([200]);
    const session = emulator().engine.ctx.store.sessionByRefreshToken(before.refreshToken ?? "");
    expect(session?.last_used_at_millis).toBeGreaterThanOrEqual(refreshedAfter);
    expect(session?.last_used_at_millis).toBeLessThanOrEqual(refreshes[0]?.at ?? 0);
  });

  it("answers the refresh grant as the service's OAuth server does, and refuses bad clients, tokens and codes", async () => {
    const { app } = await signedIn();
    const { refreshToken } = await app.getAuthJson();
    const ok = await tokenGrant(refreshToken ?? "");
    expect(ok.status).toBe(200);
    expect(ok.json()).toMatchObject({
      access_token: expect.stringMatching(/^ey/),
      token_type: "Bearer",
      expires_in: 3599,
      scope: "legacy",
    });

    for (const overrides of [
      { client_secret: "pck_not_a_key" },
      { client_id: "no-such-project" },
      { client_secret: DEMO_KEYS.secretServerKey },
    ]) {
      const refused = await tokenGrant(refreshToken ?? "", overrides);
      expect([refused.status, refused.knownError, refused.json()["details"]]).toEqual([
        400,
        "INVALID_OAUTH_CLIENT_ID_OR_SECRET",
        { client_id: null },
      ]);
    }
    const unknown = await tokenGrant("not-a-refresh-token");
    expect([unknown.status, unknown.knownError]).toEqual([401, "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED"]);

    const code = await raw("POST", "/auth/oauth/token", {
      form: {
        grant_type: "authorization_code",
        code: "x".repeat(40),
        redirect_uri: "http://localhost:3000/handler/oauth-callback",
        code_verifier: "v".repeat(43),
        client_id: DEMO_KEYS.projectId,
        client_secret: DEMO_KEYS.publishableClientKey,
      },
    });
    expect([code.status, code.knownError]).toEqual([400, "INVALID_AUTHORIZATION_CODE"]);
  });

  it("refreshes with x-stack-refresh-token on POST /auth/sessions/current/refresh", async () => {
    const { app } = await signedIn();
    const { refreshToken } = await app.getAuthJson();
    const ok = await raw("POST", "/auth/sessions/current/refresh", {
      headers: { ...CLIENT_HEADERS, "x-stack-refresh-token": refreshToken ?? "" },
    });
    expect(ok.status).toBe(200);
    expect(Object.keys(ok.json())).toEqual(["access_token"]);
    const bad = await raw("POST", "/auth/sessions/current/refresh", { headers: { ...CLIENT_HEADERS, "x-stack-refresh-token": "nope" } });
    expect([bad.status, bad.knownError]).toEqual([401, "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED"]);
    const missing = await raw("POST", "/auth/sessions/current/refresh", { headers: CLIENT_HEADERS });
    expect([missing.status, missing.knownError]).toEqual([400, "SCHEMA_ERROR"]);
  });
});

describe("signing out", () => {
  it("revokes the refresh token: the session cannot be refreshed any more", async () => {
    const { app } = await signedIn();
    const tokens = await app.getAuthJson();
    await app.signOut();
    expect(await app.getUser()).toBeNull();
    expect(emulator().engine.ctx.store.sizes().sessions).toBe(0);

    const revived = clientApp({ accessToken: null, refreshToken: tokens.refreshToken });
    expect(await revived.getUser()).toBeNull();
    expect(emulator().control.requests({ operationId: "exchangeOAuthToken" }).at(-1)?.knownError).toBe(
      "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED",
    );

    // The access token outlives its session until `exp`, but there is nothing left to end.
    const again = await raw("DELETE", "/auth/sessions/current", {
      headers: { ...CLIENT_HEADERS, "x-stack-access-token": tokens.accessToken ?? "" },
      json: {},
    });
    expect([again.status, again.knownError]).toEqual([401, "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED"]);
  });

  it("ends the session of the access token, not that of x-stack-refresh-token", async () => {
    const first = await signedIn();
    const second = await signedIn();
    const a = await first.app.getAuthJson();
    const b = await second.app.getAuthJson();
    const answer = await raw("DELETE", "/auth/sessions/current", {
      headers: { ...CLIENT_HEADERS, "x-stack-access-token": a.accessToken ?? "", "x-stack-refresh-token": b.refreshToken ?? "" },
    });
    expect([answer.status, answer.json()]).toEqual([200, { success: true }]);
    const store = emulator().engine.ctx.store;
    expect(store.sessionByRefreshToken(a.refreshToken ?? "")).toBeUndefined();
    expect(store.sessionByRefreshToken(b.refreshToken ?? "")).toBeDefined();
  });
});

describe("a user's sessions", () => {
  it("lists the user's sessions, newest first, marking the current one, and revokes another one", async () => {
    const laptop = await signedIn();
    emulator().control.advanceClock(1000);
    const phone = await signedIn();
    const sessions = await laptop.user.getActiveSessions();
    expect(sessions.map((s) => [s.userId, s.isCurrentSession, s.isImpersonation])).toEqual([
      [laptop.user.id, false, false],
      [laptop.user.id, true, false],
    ]);
    expect(sessions[0]!.createdAt.getTime()).toBeGreaterThan(sessions[1]!.createdAt.getTime());

    await laptop.user.revokeSession(sessions[0]!.id);
    expect((await laptop.user.getActiveSessions()).map((s) => s.id)).toEqual([sessions[1]!.id]);
    // The phone's access token lives until it expires; then its refresh is refused.
    emulator().control.advanceClock(11 * MINUTE);
    expect(await phone.app.getUser()).toBeNull();
    expect((await laptop.app.getUser({ or: "throw" })).id).toBe(laptop.user.id);
  });

  it("refuses to revoke the current session, which stays signed in", async () => {
    const { app, user } = await signedIn();
    const [current] = await user.getActiveSessions();
    await expect(user.revokeSession(current!.id)).rejects.toSatisfy((e) => isKnownError(e, "CANNOT_DELETE_CURRENT_SESSION"));
    expect(await app.getUser()).not.toBeNull();
  });

  it("keeps clients to their own sessions, with the service's plain-text errors", async () => {
    const ada = await signedIn("ada@example.com");
    const grace = await signedIn("grace@example.com");
    const [graceSession] = await grace.user.getActiveSessions();

    const list = ada.app.api.GET("/auth/sessions", { params: { query: { user_id: grace.user.id } } });
    await expect(list).rejects.toSatisfy(
      (e) => e instanceof HttpError && e.status === 403 && e.body === "Client can only list sessions for their own user.",
    );
    const revoke = ada.user.revokeSession(graceSession!.id);
    await expect(revoke).rejects.toSatisfy((e) => e instanceof HttpError && e.status === 404 && e.body === "Session not found.");
    const unknown = ada.user.revokeSession("00000000-0000-4000-8000-000000000000");
    await expect(unknown).rejects.toSatisfy((e) => e instanceof HttpError && e.status === 404);
    expect(await grace.user.getActiveSessions()).toHaveLength(1);

    const noUserId = await raw("GET", "/auth/sessions", {
      headers: { ...CLIENT_HEADERS, "x-stack-access-token": (await ada.app.getAuthJson()).accessToken ?? "" },
    });
    expect([noUserId.status, noUserId.knownError]).toEqual([400, "SCHEMA_ERROR"]);
    const nobody = await raw("GET", "/auth/sessions?user_id=me", { headers: CLIENT_HEADERS });
    expect([nobody.status, nobody.knownError]).toEqual([400, "CANNOT_GET_OWN_USER_WITHOUT_USER"]);
  });
});

describe("sessions made by server code", () => {
  it("signs a user in without credentials; impersonation sessions are listed to admins only", async () => {
    const record = await emulator().control.createUser({ projectId: DEMO_KEYS.projectId, email: "ada@example.com" });
    const user = await serverApp().getUser(record.id);
    if (!user) throw new Error("no user");
    const created = await user.createSession();
    const app = clientApp(await created.getTokens());
    expect((await app.getUser({ or: "throw" })).id).toBe(record.id);

    const impersonation = await user.createSession({ isImpersonation: true });
    const impersonating = clientApp(await impersonation.getTokens());
    expect((await impersonating.getUser({ or: "throw" })).id).toBe(record.id);

    expect((await user.getActiveSessions()).map((s) => s.isImpersonation)).toEqual([false]);
    const admin = await adminApp().getUser(record.id);
    expect((await admin!.getActiveSessions()).map((s) => s.isImpersonation).sort()).toEqual([false, true]);
  });

  it("ends a session at its expires_in_millis", async () => {
    const record = await emulator().control.createUser({ projectId: DEMO_KEYS.projectId, email: "ada@example.com" });
    const created = await (await serverApp().getUser(record.id))!.createSession({ expiresInMillis: 5000 });
    const { refreshToken } = await created.getTokens();
    expect((await tokenGrant(refreshToken ?? "")).status).toBe(200);
    emulator().control.advanceClock(6000);
    expect((await tokenGrant(refreshToken ?? "")).knownError).toBe("REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED");
  });

  it("refuses an unknown user and is for server code only", async () => {
    const unknown = serverApp().api.POST("/auth/sessions", { body: { user_id: "00000000-0000-4000-8000-000000000000" } });
    await expect(unknown).rejects.toSatisfy((e) => isKnownError(e, "USER_ID_DOES_NOT_EXIST"));
    const record = await emulator().control.createUser({ projectId: DEMO_KEYS.projectId, email: "ada@example.com" });
    const asClient = await raw("POST", "/auth/sessions", { headers: CLIENT_HEADERS, json: { user_id: record.id } });
    expect([asClient.status, asClient.knownError]).toEqual([401, "INSUFFICIENT_ACCESS_TYPE"]);
  });
});

describe("feature support", () => {
  it("answers the service's plain-text message", async () => {
    const answer = await raw("POST", "/check-feature-support", { headers: CLIENT_HEADERS, json: { name: "rsc-handler-signIn" } });
    expect([answer.status, answer.text]).toEqual([
      200,
      "This feature is not yet supported. Please reach out to Stack support for more information.",
    ]);
    const named = await raw("POST", "/check-feature-support", {
      headers: CLIENT_HEADERS,
      json: { name: "x", feature_name: "Passkeys on TV" },
    });
    expect(named.text).toBe("Passkeys on TV is not yet supported. Please reach out to Stack support for more information.");
  });
});
