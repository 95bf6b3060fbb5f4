// Access tokens and their keys as the service signs and publishes them
// (apps/backend/src/lib/tokens.tsx, packages/stack-shared/src/utils/jwt.tsx at
// each version): 2.8.11's one issuer and camelCase claims, every key with exactly
// kty, alg, crv, x, y and kid, and a token refused from the second of its `exp`
// (jose's check: expired once `exp <= now`, in whole seconds).
import { decodeJwt, decodeProtectedHeader } from "jose";
import { describe, expect, it } from "vitest";
import { DEMO_KEYS, serviceOf, SERVICE_VERSIONS, signUp } from "./harness.js";

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
