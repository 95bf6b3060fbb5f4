// Anonymous and restricted users on both service versions, as the newest
// official SDK treats them: getUser counts a restricted user only with
// includeRestricted (or an anonymous `or`), a user says isRestricted and why
// (2.8.11, which has no restricted users, gives anonymous users that reason, as
// 2.8.86 does), getPartialUser reads the access token without a request, and
// listUsers leaves anonymous users out on both unless asked.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import "../../helpers/lazy-modules.js";
import { StackClientApp } from "../../../runtime/app/client-app.js";
import { StackConfigurationError, UserNotSignedInError } from "../../../runtime/errors.js";
import { createMemoryTokenStore } from "../../../runtime/sessions/tokens/memory.js";
import type { TokenPair } from "../../../runtime/sessions/tokens/store.js";
import { doc } from "../../fixtures/document.js";
import { signedInTokens } from "../../helpers/app-context.js";
import { fakeService, json, jwt, knownError, testEnvironment, useFakeClock, type Handler } from "../../helpers/fake-service.js";
import { rejectionOf } from "../../helpers/outcome.js";
import { setup as serverSetup } from "./server/setup.js";

const CLIENT_USER = doc.components.examples["ClientUser"]!.value as Record<string, unknown>;
const SERVER_USER = doc.components.examples["ServerUser"]!.value as Record<string, unknown>;

/** A user as 2.8.11 answers it (no restriction fields) or as 2.8.86 does. */
const v2811 = (o: Record<string, unknown> = {}) => ({ ...CLIENT_USER, ...o });
const v2886 = (o: Record<string, unknown> = {}) => ({ ...CLIENT_USER, is_restricted: false, restricted_reason: null, ...o });
const ANONYMOUS_2811 = v2811({ is_anonymous: true, display_name: "Anonymous user", primary_email: null });
const ANONYMOUS_2886 = v2886({
  is_anonymous: true,
  display_name: null,
  primary_email: null,
  is_restricted: true,
  restricted_reason: { type: "anonymous" },
});
const UNVERIFIED_2886 = v2886({ primary_email_verified: false, is_restricted: true, restricted_reason: { type: "email_not_verified" } });

function setup(handler: Handler, tokens: TokenPair = signedInTokens()) {
  const service = fakeService(handler);
  const { env } = testEnvironment(service.fetch);
  const app = new StackClientApp({
    projectId: "proj-1",
    publishableClientKey: "pck-1",
    tokenStore: createMemoryTokenStore(tokens),
    environment: env,
    browser: null,
    redirectMethod: "none",
    noAutomaticPrefetch: true,
  });
  return { app, service };
}

beforeEach(() => useFakeClock());
afterEach(() => vi.useRealTimers());

describe("a user's restriction", () => {
  it.each([
    ["2.8.11, a user", v2811(), false, null],
    ["2.8.11, an anonymous user", ANONYMOUS_2811, true, { type: "anonymous" }],
    ["2.8.86, a user", v2886(), false, null],
    ["2.8.86, an anonymous user", ANONYMOUS_2886, true, { type: "anonymous" }],
    ["2.8.86, a user whose e-mail the project requires verified", UNVERIFIED_2886, true, { type: "email_not_verified" }],
    [
      "2.8.86, a user an administrator restricted",
      v2886({ is_restricted: true, restricted_reason: { type: "restricted_by_administrator" } }),
      true,
      { type: "restricted_by_administrator" },
    ],
  ])("%s: isRestricted %s, restrictedReason %j", async (_, wire, isRestricted, restrictedReason) => {
    const { app } = setup(() => json(wire));
    const user = await app.getUser({ or: "anonymous-if-exists", includeRestricted: true });
    expect([user?.isRestricted, user?.restrictedReason]).toEqual([isRestricted, restrictedReason]);
  });
});

describe("getUser and restricted users", () => {
  it.each([
    [{}, null],
    [{ includeRestricted: true }, "user"],
    [{ or: "anonymous-if-exists" as const }, "user"],
    [{ or: "throw" as const, includeRestricted: true }, "user"],
  ])("a user whose e-mail is not verified yet, with %j: %s", async (options, expected) => {
    const { app } = setup(() => json(UNVERIFIED_2886));
    const user = await app.getUser(options);
    expect(user === null ? null : "user").toBe(expected);
  });

  it("counts an anonymous user only for an anonymous `or`, even with includeRestricted", async () => {
    const { app } = setup(() => json(ANONYMOUS_2886));
    expect(await app.getUser({ includeRestricted: true })).toBeNull();
    expect((await app.getUser({ or: "anonymous-if-exists" }))?.isAnonymous).toBe(true);
  });

  it("or: 'throw' throws for a restricted user without includeRestricted", async () => {
    const { app } = setup(() => json(UNVERIFIED_2886));
    expect(await rejectionOf(app.getUser({ or: "throw" }))).toBeInstanceOf(UserNotSignedInError);
  });

  it("refuses { or: 'anonymous', includeRestricted: false } before any request", async () => {
    const { app, service } = setup(() => json(UNVERIFIED_2886));
    expect(await rejectionOf(app.getUser({ or: "anonymous", includeRestricted: false }))).toEqual(
      new StackConfigurationError(
        "getUser cannot take { or: 'anonymous' } with { includeRestricted: false }: every anonymous user is a restricted user.",
      ),
    );
    expect(service.requests).toEqual([]);
  });

  it("or: 'anonymous' keeps a restricted user rather than signing up over it", async () => {
    const { app, service } = setup(() => json(UNVERIFIED_2886));
    expect((await app.getUser({ or: "anonymous" })).restrictedReason).toEqual({ type: "email_not_verified" });
    expect(service.requests.map((r) => r.path)).toEqual(["/api/v1/users/me"]);
  });
});

describe("getPartialUser({ from: 'token' })", () => {
  const now = () => Math.floor(Date.now() / 1000);
  const token2886 = (claims: Record<string, unknown>) =>
    jwt({
      exp: now() + 600,
      sub: "user-1",
      ...claims,
    } as never);

  it("reads a 2.8.86 token's user without a request", async () => {
    const accessToken = token2886({
      name: "Ada",
      email: "ada@example.com",
      email_verified: false,
      is_anonymous: false,
      is_restricted: true,
      restricted_reason: { type: "email_not_verified" },
      requires_totp_mfa: true,
      signed_up_at: 1_767_225_600,
    });
    const { app, service } = setup(() => json({}), { refreshToken: "rt", accessToken });
    expect(await app.getPartialUser({ from: "token" })).toEqual({
      id: "user-1",
      displayName: "Ada",
      primaryEmail: "ada@example.com",
      primaryEmailVerified: false,
      isAnonymous: false,
      isMultiFactorRequired: true,
      isRestricted: true,
      restrictedReason: { type: "email_not_verified" },
      signedUpAt: new Date(1_767_225_600_000),
    });
    expect(service.requests).toEqual([]);
  });

  it("reads a 2.8.11 token's user: the id, the rest null and false", async () => {
    const accessToken = jwt({ exp: now() + 600, sub: "user-1", branchId: "main", refreshTokenId: "r1", role: "authenticated" } as never);
    const { app } = setup(() => json({}), { refreshToken: "rt", accessToken });
    expect(await app.getPartialUser({ from: "token" })).toEqual({
      id: "user-1",
      displayName: null,
      primaryEmail: null,
      primaryEmailVerified: false,
      isAnonymous: false,
      isMultiFactorRequired: false,
      isRestricted: false,
      restrictedReason: null,
      signedUpAt: null,
    });
  });

  it("is null for an anonymous user unless or: 'anonymous-if-exists', told by the claim or the audience", async () => {
    for (const claims of [{ is_anonymous: true }, { aud: "proj-1:anon" }]) {
      const { app } = setup(() => json({}), { refreshToken: "rt", accessToken: token2886(claims) });
      expect(await app.getPartialUser({ from: "token" })).toBeNull();
      expect(await app.getPartialUser({ from: "token", or: "anonymous-if-exists" })).toMatchObject({
        isAnonymous: true,
        isRestricted: true,
        restrictedReason: { type: "anonymous" },
      });
    }
  });

  it("is null without a request when nobody is signed in, or the access token has expired", async () => {
    const expired = setup(() => json({}), { refreshToken: "rt", accessToken: jwt({ exp: now() - 1, sub: "user-1" }) });
    expect(await expired.app.getPartialUser({ from: "token" })).toBeNull();
    expect(expired.service.requests).toEqual([]);
    const nobody = setup(() => json({}), { refreshToken: null, accessToken: null });
    expect(await nobody.app.getPartialUser({ from: "token" })).toBeNull();
  });

  it("refuses another `from` or `or` with a StackConfigurationError", async () => {
    const { app } = setup(() => json({}));
    expect(await rejectionOf(app.getPartialUser({ from: "cookies" } as never))).toEqual(
      new StackConfigurationError(
        'getPartialUser reads the user from the access token or from Convex: pass { from: "token" } or { from: "convex", ctx }, got "cookies".',
      ),
    );
    expect(await rejectionOf(app.getPartialUser({ from: "token", or: "throw" } as never))).toEqual(
      new StackConfigurationError('getPartialUser: or must be "return-null" or "anonymous-if-exists", got "throw".'),
    );
  });
});

describe("listUsers and anonymous users", () => {
  const anonymous = { ...SERVER_USER, id: "0a0a0a0a-0000-4000-8000-00000000000a", is_anonymous: true };
  const server = (handler: Handler) => serverSetup(handler);
  const page = (items: unknown[]) => json({ items, is_paginated: true, pagination: { next_cursor: null } });

  it("leaves anonymous users out by default, and asks for nothing the service may not know", async () => {
    const { app, service } = server(() => page([SERVER_USER, anonymous]));
    expect((await app.listUsers()).map((u) => u.id)).toEqual([SERVER_USER["id"]]);
    expect(service.requests.map((r) => r.path)).toEqual(["/api/v1/users"]);
  });

  it("2.8.86: includeAnonymous and includeRestricted are sent as include_anonymous and include_restricted", async () => {
    const { app, service } = server(() => page([SERVER_USER, anonymous]));
    const users = await app.listUsers({ includeAnonymous: true, includeRestricted: true, limit: 5 });
    expect(users.map((u) => u.id)).toEqual([SERVER_USER["id"], anonymous.id]);
    expect(service.requests.map((r) => r.path)).toEqual(["/api/v1/users?limit=5&include_anonymous=true&include_restricted=true"]);
  });

  it("2.8.11, which refuses the flags with SCHEMA_ERROR, is asked again without them; it lists anonymous users anyway", async () => {
    const { app, service } = server((r) =>
      r.path.includes("include_") ? knownError(400, "SCHEMA_ERROR", "Request validation failed") : page([SERVER_USER, anonymous]),
    );
    const users = await app.listUsers({ includeAnonymous: true });
    expect(users.map((u) => u.id)).toEqual([SERVER_USER["id"], anonymous.id]);
    expect(service.requests.map((r) => r.path)).toEqual(["/api/v1/users?include_anonymous=true", "/api/v1/users"]);
  });

  it("2.8.86: onlyAnonymous is sent as only_anonymous beside include_anonymous", async () => {
    const { app, service } = server(() => page([anonymous]));
    const users = await app.listUsers({ includeAnonymous: true, onlyAnonymous: true });
    expect(users.map((u) => u.id)).toEqual([anonymous.id]);
    expect(service.requests.map((r) => r.path)).toEqual(["/api/v1/users?include_anonymous=true&only_anonymous=true"]);
  });

  it("2.8.11: onlyAnonymous keeps the anonymous users of the list asked for again without the flags", async () => {
    const { app, service } = server((r) =>
      r.path.includes("_anonymous") ? knownError(400, "SCHEMA_ERROR", "Request validation failed") : page([SERVER_USER, anonymous]),
    );
    const users = await app.listUsers({ includeAnonymous: true, onlyAnonymous: true });
    expect(users.map((u) => u.id)).toEqual([anonymous.id]);
    expect(service.requests.map((r) => r.path)).toEqual(["/api/v1/users?include_anonymous=true&only_anonymous=true", "/api/v1/users"]);
  });

  it("refuses onlyAnonymous without includeAnonymous, sending nothing, as the service would answer 400", async () => {
    const { app, service } = server(() => page([anonymous]));
    const error = await rejectionOf(app.listUsers({ onlyAnonymous: true }));
    expect((error as Error).message).toBe("listUsers takes onlyAnonymous: true only with includeAnonymous: true.");
    expect(service.requests).toEqual([]);
  });
});
