// The Convex integration, as the official SDK has it: a Convex function's caller read from its
// context (`getPartialUser({ from: "convex", ctx })`, the server's `getUser({ from: "convex", ctx })`),
// the tokens a Convex client sends (`getConvexClientAuth`, `getConvexHttpClientAuth`), and the
// providers of a Convex auth config (`getConvexProvidersConfig`).
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import "../../helpers/lazy-modules.js";
import { StackClientApp } from "../../../runtime/app/client-app.js";
import type { ConvexCtx, ConvexUserIdentity } from "../../../runtime/app/convex-context.js";
import { getConvexProvidersConfig } from "../../../runtime/app/convex-providers.js";
import { StackServerApp } from "../../../runtime/app/server-app.js";
import { isStackError } from "../../../runtime/errors.js";
import { createMemoryTokenStore } from "../../../runtime/sessions/tokens/memory.js";
import type { TokenPair } from "../../../runtime/sessions/tokens/store.js";
import { answerAsDocumented, documentedExample } from "../../helpers/documented-answers.js";
import { fakeService, json, jwt, testEnvironment, useFakeClock, type Handler } from "../../helpers/fake-service.js";
import { rejectionOf } from "../../helpers/outcome.js";

const USER_ID = "3241a285-8329-4d69-8f3d-316e08cf140c";
const seconds = (offsetMs = 0) => Math.floor((Date.now() + offsetMs) / 1000);
/** A token issued `agoMs` ago that lives `lifeMs` more. */
const token = (agoMs: number, lifeMs = 600_000) => jwt({ iat: seconds(-agoMs), exp: seconds(lifeMs) });
const convexCtx = (identity: ConvexUserIdentity | null): ConvexCtx => ({ auth: { getUserIdentity: async () => identity } });

function setup(tokens: TokenPair, handler: Handler = answerAsDocumented) {
  let issued = 0;
  const service = fakeService((request) =>
    request.path === "/api/v1/auth/oauth/token"
      ? json({ access_token: jwt({ iat: seconds(), exp: seconds(600_000), issued: ++issued }) })
      : handler(request),
  );
  const { env } = testEnvironment(service.fetch);
  const options = { projectId: "proj-1", publishableClientKey: "pck-1", environment: env, browser: null } as const;
  const client = new StackClientApp({ ...options, tokenStore: createMemoryTokenStore(tokens) });
  const server = new StackServerApp({ ...options, secretServerKey: "ssk-1", tokenStore: createMemoryTokenStore(tokens) });
  const paths = () => service.requests.map((r) => `${r.method} ${r.path.replace("/api/v1", "")}`);
  return { client, server, paths };
}

const NOBODY: TokenPair = { refreshToken: null, accessToken: null };

beforeEach(() => useFakeClock());
afterEach(() => vi.useRealTimers());

describe('getPartialUser({ from: "convex", ctx })', () => {
  it("is the caller as the identity Convex made of its token names it, without a request", async () => {
    const { client, paths } = setup(NOBODY);
    const identity = {
      subject: USER_ID,
      tokenIdentifier: `https://api.stack-auth.com/api/v1/projects/proj-1|${USER_ID}`,
      name: "Ada Lovelace",
      email: "ada@example.com",
      email_verified: true,
      is_anonymous: false,
      is_restricted: true,
      restricted_reason: { type: "email_not_verified" },
      requires_totp_mfa: true,
      signed_up_at: 1_763_251_200,
    };
    expect(await client.getPartialUser({ from: "convex", ctx: convexCtx(identity) })).toEqual({
      id: USER_ID,
      displayName: "Ada Lovelace",
      primaryEmail: "ada@example.com",
      primaryEmailVerified: true,
      isAnonymous: false,
      isMultiFactorRequired: true,
      isRestricted: true,
      restrictedReason: { type: "email_not_verified" },
      signedUpAt: new Date(1_763_251_200_000),
    });
    expect(paths()).toEqual([]);
  });

  it("answers an anonymous caller, as the official SDK does whatever `or` says; reads Convex's emailVerified spelling", async () => {
    const { client } = setup(NOBODY);
    const partial = await client.getPartialUser({
      from: "convex",
      ctx: convexCtx({ subject: USER_ID, is_anonymous: true, emailVerified: true }),
    });
    expect(partial).toMatchObject({
      id: USER_ID,
      displayName: null,
      primaryEmail: null,
      primaryEmailVerified: true,
      isAnonymous: true,
      isRestricted: true,
      restrictedReason: { type: "anonymous" },
      signedUpAt: null,
    });
  });

  it("is null for a caller Convex found no identity for", async () => {
    const { client } = setup({ refreshToken: "rt-1", accessToken: token(0) });
    expect(await client.getPartialUser({ from: "convex", ctx: convexCtx(null) })).toBeNull();
  });

  it("refuses a context without auth.getUserIdentity, and a from it does not know", async () => {
    const { client } = setup(NOBODY);
    const noCtx = await rejectionOf(client.getPartialUser({ from: "convex", ctx: {} as ConvexCtx }));
    expect(isStackError(noCtx, "StackConfigurationError")).toBe(true);
    expect((noCtx as Error).message).toBe(
      'getPartialUser needs the Convex function\'s context: pass { from: "convex", ctx } with its ctx.',
    );
    const unknown = await rejectionOf(client.getPartialUser({ from: "cookies" } as never));
    expect((unknown as Error).message).toBe(
      'getPartialUser reads the user from the access token or from Convex: pass { from: "token" } or { from: "convex", ctx }, got "cookies".',
    );
  });
});

describe('the server\'s getUser({ from: "convex", ctx })', () => {
  const serverUser = (overrides: Record<string, unknown> = {}) => documentedExample("ServerUser", { id: USER_ID, ...overrides });

  it("is the user the identity's subject names, read by id", async () => {
    const { server, paths } = setup(NOBODY, (r) => (r.path === `/api/v1/users/${USER_ID}` ? json(serverUser()) : answerAsDocumented(r)));
    const user = await server.getUser({ from: "convex", ctx: convexCtx({ subject: USER_ID }) });
    expect(user?.id).toBe(USER_ID);
    expect(paths()).toEqual([`GET /users/${USER_ID}`]);
  });

  it("is null for an anonymous user unless or: 'anonymous'", async () => {
    const { server } = setup(NOBODY, (r) => json(serverUser({ is_anonymous: true, is_restricted: true })));
    const ctx = convexCtx({ subject: USER_ID });
    expect(await server.getUser({ from: "convex", ctx })).toBeNull();
    expect(await server.getUser({ from: "convex", ctx, or: "return-null" })).toBeNull();
    expect((await server.getUser({ from: "convex", ctx, or: "anonymous" }))?.isAnonymous).toBe(true);
  });

  it("is null without an identity, sending nothing, and refuses an `or` it does not know", async () => {
    const { server, paths } = setup(NOBODY);
    expect(await server.getUser({ from: "convex", ctx: convexCtx(null) })).toBeNull();
    expect(paths()).toEqual([]);
    const error = await rejectionOf(server.getUser({ from: "convex", ctx: convexCtx(null), or: "throw" } as never));
    expect((error as Error).message).toBe('getUser({ from: "convex" }): or must be "return-null" or "anonymous", got "throw".');
  });
});

describe("getConvexClientAuth", () => {
  it("hands Convex the session's token while it has 20 s left and was issued at most 75 s ago, without a request", async () => {
    const held = token(75_000);
    const { client, paths } = setup({ refreshToken: "rt-1", accessToken: held });
    expect(await client.getConvexClientAuth()({ forceRefreshToken: false })).toBe(held);
    expect(paths()).toEqual([]);
  });

  it("refreshes a token issued longer ago than 75 s, or with less than 20 s left, first", async () => {
    const old = setup({ refreshToken: "rt-1", accessToken: token(76_000) });
    const fresh = await old.client.getConvexClientAuth()({ forceRefreshToken: false });
    expect(fresh).not.toBeNull();
    expect(old.paths()).toEqual(["POST /auth/oauth/token"]);
    const dying = setup({ refreshToken: "rt-1", accessToken: token(0, 19_000) });
    await dying.client.getConvexClientAuth()({ forceRefreshToken: false });
    expect(dying.paths()).toEqual(["POST /auth/oauth/token"]);
  });

  it("with forceRefreshToken (Convex refused the last one) hands a newly issued token", async () => {
    const held = token(0);
    const { client, paths } = setup({ refreshToken: "rt-1", accessToken: held });
    const getter = client.getConvexClientAuth({});
    const forced = await getter({ forceRefreshToken: true });
    expect(forced).not.toBe(held);
    expect(paths()).toEqual(["POST /auth/oauth/token"]);
    expect(await getter({ forceRefreshToken: false })).toBe(forced);
    expect(paths()).toEqual(["POST /auth/oauth/token"]);
  });

  it("is null when nobody is signed in, and reads a tokenStore given to it", async () => {
    const { client, paths } = setup(NOBODY);
    expect(await client.getConvexClientAuth()({ forceRefreshToken: true })).toBeNull();
    const theirs = token(0);
    const getter = client.getConvexClientAuth({ tokenStore: { accessToken: theirs, refreshToken: "rt-theirs" } });
    expect(await getter({ forceRefreshToken: false })).toBe(theirs);
    expect(paths()).toEqual([]);
  });

  it("hands a session without a refresh token its token while it has 20 s left, and nothing when forced", async () => {
    const held = token(120_000, 20_000);
    const { client, paths } = setup({ refreshToken: null, accessToken: held });
    expect(await client.getConvexClientAuth()({ forceRefreshToken: false })).toBe(held);
    expect(await client.getConvexClientAuth()({ forceRefreshToken: true })).toBeNull();
    vi.advanceTimersByTime(1);
    expect(await client.getConvexClientAuth()({ forceRefreshToken: false })).toBeNull();
    expect(paths()).toEqual([]);
  });
});

describe("getConvexHttpClientAuth", () => {
  it("is the session's token, refreshed as getConvexClientAuth's, or an empty string when nobody is signed in", async () => {
    const held = token(0);
    expect(await setup({ refreshToken: "rt-1", accessToken: held }).client.getConvexHttpClientAuth()).toBe(held);
    const { client, paths } = setup(NOBODY);
    expect(await client.getConvexHttpClientAuth({ tokenStore: "memory" })).toBe("");
    expect(paths()).toEqual([]);
  });
});

describe("getConvexProvidersConfig", () => {
  it("lists the project's users' and anonymous users' issuers with their keys, ES256", () => {
    const providers = getConvexProvidersConfig({ projectId: "proj-1" });
    expect(providers.map((p) => ({ ...p, issuer: p.issuer.href, jwks: p.jwks.href }))).toEqual([
      {
        type: "customJwt",
        issuer: "https://api.stack-auth.com/api/v1/projects/proj-1",
        jwks: "https://api.stack-auth.com/api/v1/projects/proj-1/.well-known/jwks.json",
        algorithm: "ES256",
      },
      {
        type: "customJwt",
        issuer: "https://api.stack-auth.com/api/v1/projects-anonymous-users/proj-1",
        jwks: "https://api.stack-auth.com/api/v1/projects/proj-1/.well-known/jwks.json?include_anonymous=true",
        algorithm: "ES256",
      },
    ]);
    expect(getConvexProvidersConfig({ projectId: "proj-1", baseUrl: "http://localhost:8102" })[0]!.issuer.href).toBe(
      "http://localhost:8102/api/v1/projects/proj-1",
    );
  });

  it("refuses a missing project id", () => {
    expect(() => getConvexProvidersConfig({} as never)).toThrow(
      "getConvexProvidersConfig needs { projectId }: the id of your project on the Stack Auth dashboard.",
    );
  });
});
