// StackServerApp.verifyAccessToken and getUser({ verify: "local" }) against the
// emulator's published keys: the identity comes from the token, with no
// GET /users/me until getFullUser() asks for it.
import { describe, expect, it } from "vitest";
import { DEMO_KEYS } from "../../../emulator/index.js";
import { StackServerApp } from "../../../runtime/app/server-app.js";
import type { Fetch } from "../../../runtime/platform/env.js";
import { StackConfigurationError, UserNotSignedInError } from "../../../runtime/errors.js";
import { isAccessTokenInvalidError } from "../../../runtime/sessions/verify/index.js";
import { useService, type Service } from "./service.js";

const service = useService();

/** A server app of the demo project on the emulator, and the paths of the requests it sent. */
function serverApp(s: Service, options: { readonly jwksDown?: boolean } = {}) {
  const sent: string[] = [];
  const fetch: Fetch = async (request) => {
    const path = new URL(request.url).pathname;
    sent.push(`${request.method} ${path}`);
    if (options.jwksDown && path.endsWith("/.well-known/jwks.json")) return new Response("down", { status: 503 });
    return s.fetch(request);
  };
  const app = new StackServerApp({
    projectId: DEMO_KEYS.projectId,
    publishableClientKey: DEMO_KEYS.publishableClientKey,
    secretServerKey: DEMO_KEYS.secretServerKey,
    baseUrl: s.url,
    tokenStore: null,
    noAutomaticPrefetch: true,
    environment: { fetch },
  });
  return { app, sent, userRequests: () => sent.filter((r) => r.endsWith("/users/me")).length };
}

const JWKS = `GET /api/v1/projects/${DEMO_KEYS.projectId}/.well-known/jwks.json`;

describe("StackServerApp.verifyAccessToken", () => {
  it("answers the claims of a token the project signed, reading only the project's keys", async () => {
    const s = service();
    const { accessToken, userId } = await s.signIn("grace@example.com");
    const { app, sent } = serverApp(s);

    const result = await app.verifyAccessToken(accessToken);

    expect(result.status).toBe("ok");
    if (result.status === "ok") expect(result.data).toMatchObject({ userId, projectId: DEMO_KEYS.projectId, isAnonymous: false });
    expect(sent).toEqual([JWKS]);
    // The keys are cached with the app: a second token costs no request.
    expect((await app.verifyAccessToken(accessToken)).status).toBe("ok");
    expect(sent).toEqual([JWKS]);
  });

  it("refuses a token whose signature was changed", async () => {
    const s = service();
    const { accessToken } = await s.signIn("grace@example.com");
    const [header, payload] = accessToken.split(".");
    const result = await serverApp(s).app.verifyAccessToken(`${header}.${payload}.AAAA`);
    expect(result.status).toBe("error");
    if (result.status === "error") expect(isAccessTokenInvalidError(result.error, "signature", "malformed")).toBe(true);
  });
});

describe('getUser({ verify: "local" })', () => {
  it("answers the identity the token proves without GET /users/me; the full user is a getUser away", async () => {
    const s = service();
    const { accessToken, userId } = await s.signIn("grace@example.com");
    const { app, sent, userRequests } = serverApp(s);

    const verified = await app.getUser({ verify: "local", tokenStore: { accessToken, refreshToken: null } });

    expect(verified).toMatchObject({ id: userId, isAnonymous: false, claims: { userId, projectId: DEMO_KEYS.projectId } });
    expect(sent).toEqual([JWKS]);
    // The full user is read only when asked for, on the same tokens.
    const user = await app.getUser({ tokenStore: { accessToken, refreshToken: null } });
    expect(user?.id).toBe(userId);
    expect(user?.primaryEmail).toBe("grace@example.com");
    expect(userRequests()).toBe(1);
  });

  it("answers null for a token that does not verify, or throws UserNotSignedInError with or: 'throw'", async () => {
    const s = service();
    const { accessToken } = await s.signIn("grace@example.com");
    const [header, payload] = accessToken.split(".");
    const forged = { accessToken: `${header}.${payload}.AAAA`, refreshToken: null };
    const { app, userRequests } = serverApp(s);

    expect(await app.getUser({ verify: "local", tokenStore: forged })).toBeNull();
    await expect(app.getUser({ verify: "local", or: "throw", tokenStore: forged })).rejects.toThrow(
      new UserNotSignedInError("User is not signed in but getUser was called with { verify: 'local', or: 'throw' }"),
    );
    expect(await app.getUser({ verify: "local", tokenStore: { accessToken: null, refreshToken: null } })).toBeNull();
    expect(userRequests()).toBe(0);
  });

  it("counts an anonymous user only with or: 'anonymous-if-exists'", async () => {
    const s = service();
    const accessToken = await s.signUpAnonymously();
    const { app } = serverApp(s);
    const tokenStore = { accessToken, refreshToken: null };

    expect(await app.getUser({ verify: "local", tokenStore })).toBeNull();
    expect(await app.getUser({ verify: "local", or: "anonymous-if-exists", tokenStore })).toMatchObject({ isAnonymous: true });
  });

  it("rejects with the AccessTokenInvalidError when the project's keys cannot be read: the token was not judged", async () => {
    const s = service();
    const { accessToken } = await s.signIn("grace@example.com");
    const { app } = serverApp(s, { jwksDown: true });

    const error = await app.getUser({ verify: "local", tokenStore: { accessToken, refreshToken: null } }).catch((e: unknown) => e);
    expect(isAccessTokenInvalidError(error, "jwks-unavailable")).toBe(true);
  });

  it("refuses an `or` that would need requests of its own, and any verify but 'local'", async () => {
    const s = service();
    const { app } = serverApp(s);
    await expect(app.getUser({ verify: "local", or: "redirect" } as never)).rejects.toThrow(
      new StackConfigurationError(
        'getUser({ verify: "local" }) takes or: "return-null", "throw" or "anonymous-if-exists", not "redirect": the others need requests of their own.',
      ),
    );
    await expect(app.getUser({ verify: "remote" } as never)).rejects.toThrow(
      new StackConfigurationError('getUser: verify takes "local" only, not "remote".'),
    );
  });
});
