// Access tokens and their keys as the service signs and publishes them
// (apps/backend/src/lib/tokens.tsx, packages/stack-shared/src/utils/jwt.tsx at
// each version): 2.8.11's one issuer and camelCase claims, every key with exactly
// kty, alg, crv, x, y and kid, and a token refused from the second of its `exp`
// (jose's check, without clock tolerance: expired once `exp <= now`, in whole seconds),
// on whatever route it is sent to.
import { decodeJwt, decodeProtectedHeader } from "jose";
import { describe, expect, it } from "vitest";
import { DEMO_KEYS, ownedProject, serviceOf, SERVICE_VERSIONS, signUp } from "./harness.js";

describe("the 2.8.11 access token", () => {
  it("has the global issuer, the project as audience, and exactly the claims sub, branchId, refreshTokenId, role, iss, iat, aud, exp", async () => {
    const service = await serviceOf("2.8.11");
    const user = await signUp(service, "ada@example.com");
    const header = decodeProtectedHeader(user.accessToken);
    expect(Object.keys(header).sort()).toEqual(["alg", "kid"]);
    expect(header.alg).toBe("ES256");
    const claims = decodeJwt(user.accessToken);
    expect(Object.keys(claims).sort()).toEqual(["aud", "branchId", "exp", "iat", "iss", "refreshTokenId", "role", "sub"]);
    expect([claims.iss, claims.aud, claims.sub, claims["branchId"], claims["role"]]).toEqual([
      "https://access-token.jwt-signature.stack-auth.com",
      DEMO_KEYS.projectId,
      user.userId,
      "main",
      "authenticated",
    ]);
  });

  it("publishes the project's one key, whatever the query asks", async () => {
    const service = await serviceOf("2.8.11");
    const user = await signUp(service, "ada@example.com");
    const jwks = await service.call("GET", `/projects/${DEMO_KEYS.projectId}/.well-known/jwks.json?include_anonymous=true`);
    expect(jwks.status).toBe(200);
    expect(jwks.body.keys).toHaveLength(1);
    expect(jwks.body.keys[0].kid).toBe(decodeProtectedHeader(user.accessToken).kid);
  });
});

describe.each(SERVICE_VERSIONS)("access tokens on %s", (version) => {
  it("publishes keys with exactly kty, alg, crv, x, y and kid", async () => {
    const service = await serviceOf(version);
    const jwks = await service.call("GET", `/projects/${DEMO_KEYS.projectId}/.well-known/jwks.json`);
    expect(jwks.body.keys.length).toBeGreaterThan(0);
    for (const key of jwks.body.keys) {
      expect(Object.keys(key).sort()).toEqual(["alg", "crv", "kid", "kty", "x", "y"]);
      expect([key.kty, key.alg, key.crv]).toEqual(["EC", "ES256", "P-256"]);
    }
  });

  it("expires a token exactly the configured lifetime after it was issued, in whole seconds", async () => {
    const service = await serviceOf(version, { accessTokenLifetimeMs: 60_000 });
    const user = await signUp(service, "ada@example.com");
    const { iat, exp } = decodeJwt(user.accessToken);
    expect(Number(exp) - Number(iat)).toBe(60);
    expect(Number(iat)).toBe(Math.floor(Number(iat)));
  });

  it("accepts a token until its exp second and refuses it from that second on, ACCESS_TOKEN_EXPIRED", async () => {
    const service = await serviceOf(version, { accessTokenLifetimeMs: 60_000 });
    const user = await signUp(service, "ada@example.com");
    const expMs = Number(decodeJwt(user.accessToken).exp) * 1000;
    const control = service.emulator.control;
    // Just before the boundary (a margin for the time the requests take).
    control.advanceClock(expMs - control.now() - 200);
    const before = await service.call("GET", "/users/me", { token: user.accessToken });
    expect(before.status).toBe(200);
    control.advanceClock(expMs - control.now());
    const at = await service.call("GET", "/users/me", { token: user.accessToken });
    expect([at.status, at.body.code, at.body.details.expired_at_millis]).toEqual([401, "ACCESS_TOKEN_EXPIRED", expMs]);
  });
});

describe.each(SERVICE_VERSIONS)("an access token of another project on %s", (version) => {
  it("is verified before its project is compared: expired, ACCESS_TOKEN_EXPIRED; forged, UNPARSABLE_ACCESS_TOKEN", async () => {
    const service = await serviceOf(version, { accessTokenLifetimeMs: 60_000 });
    const other = await ownedProject(service);
    const keys = await service.call("POST", "/internal/api-keys", {
      as: "admin",
      keys: { projectId: other.projectId },
      adminToken: other.adminToken,
      body: {
        description: "k",
        has_publishable_client_key: true,
        has_secret_server_key: false,
        has_super_secret_admin_key: false,
        expires_at_millis: 4102444800000,
      },
    });
    expect(keys.status, JSON.stringify(keys.body)).toBe(200);
    const user = await signUp(service, "ada@example.com", {
      projectId: other.projectId,
      publishableClientKey: keys.body.publishable_client_key,
    });
    const live = await service.call("GET", "/users/me", { token: user.accessToken });
    expect([live.status, live.body.code]).toEqual([401, "INVALID_PROJECT_FOR_ACCESS_TOKEN"]);
    const [header, payload] = user.accessToken.split(".");
    const forged = await service.call("GET", "/users/me", { token: `${header}.${payload}.AAAA` });
    expect([forged.status, forged.body.code]).toEqual([401, "UNPARSABLE_ACCESS_TOKEN"]);
    service.emulator.control.advanceClock(61_000);
    const expired = await service.call("GET", "/users/me", { token: user.accessToken });
    expect([expired.status, expired.body.code]).toEqual([401, "ACCESS_TOKEN_EXPIRED"]);
  });
});

// apps/backend/src/route-handlers/smart-request.tsx at both revisions: the request gate decodes an access token sent
// with an access type and a project id on every route, before the route's own schema looks at the user.
describe.each(SERVICE_VERSIONS)("an expired access token on %s", (version) => {
  it("is refused on a route that has no use for the user too, ACCESS_TOKEN_EXPIRED", async () => {
    const service = await serviceOf(version, { accessTokenLifetimeMs: 60_000 });
    const user = await signUp(service, "ada@example.com");
    service.emulator.control.advanceClock(61_000);
    const project = await service.call("GET", "/projects/current", { token: user.accessToken });
    expect([project.status, project.body.code]).toEqual([401, "ACCESS_TOKEN_EXPIRED"]);
    const refresh = await service.call("POST", "/auth/sessions/current/refresh", {
      token: user.accessToken,
      headers: { "x-stack-refresh-token": user.refreshToken },
    });
    expect([refresh.status, refresh.body.code]).toEqual([401, "ACCESS_TOKEN_EXPIRED"]);
    // Without it, the same session refreshes.
    const fresh = await service.call("POST", "/auth/sessions/current/refresh", { headers: { "x-stack-refresh-token": user.refreshToken } });
    expect(fresh.status).toBe(200);
  });
});
