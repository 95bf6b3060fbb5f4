// Local verification of the access tokens of both versions of the service
// (reference service-versions.md §2): 2.8.11's (one issuer for every project,
// camelCase claims) and 2.8.86's (an issuer and an audience per kind of user,
// the user's claims in snake_case, two keys per audience), each served as its
// version serves its key set; what is accepted, with which claims, and each
// refusal with its reason.
import { base64url, exportJWK, generateKeyPair, SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import { StackServerApp } from "../../../runtime/app/server-app.js";
import { StackConfigurationError, UserNotSignedInError } from "../../../runtime/errors.js";
import {
  createAccessTokenVerifier,
  verifyAccessToken,
  type AccessTokenInvalidError,
  type AccessTokenInvalidReason,
  type AccessTokenVerification,
  type AccessTokenVerifierOptions,
} from "../../../runtime/sessions/verify/index.js";
import {
  BASE_URL,
  fakeService,
  GLOBAL_ISSUER,
  issuerOf,
  Keyring,
  OTHER_PROJECT,
  PROJECT,
  type FakeService,
  type Version,
} from "./versions.js";

const JWKS = `GET /api/v1/projects/${PROJECT}/.well-known/jwks.json`;

function verifier(service: FakeService, options: Partial<AccessTokenVerifierOptions> = {}) {
  return createAccessTokenVerifier({ projectId: PROJECT, baseUrl: service.baseUrl, fetch: service.fetch, ...options });
}

function accepted(result: AccessTokenVerification) {
  if (result.status === "error") throw new Error(`expected the claims, got a refusal (${result.error.reason}): ${result.error.message}`);
  return result.data;
}

function refusal(result: AccessTokenVerification, reason: AccessTokenInvalidReason): AccessTokenInvalidError {
  if (result.status === "ok") throw new Error(`expected a refusal (${reason}), got the claims of ${result.data.userId}`);
  expect(result.error.reason).toBe(reason);
  return result.error;
}

const json = (part: string) => JSON.parse(new TextDecoder().decode(base64url.decode(part))) as Record<string, unknown>;

/** `token` with its payload changed and its signature kept. */
function edited(token: string, payload: object) {
  const [header, body, signature] = token.split(".") as [string, string, string];
  return [header, base64url.encode(JSON.stringify({ ...json(body), ...payload })), signature].join(".");
}

describe("a 2.8.11 token (one issuer for every project, camelCase claims)", () => {
  it("is accepted with its user, project, branch and session; the newer claims are absent", async () => {
    const service = fakeService("2.8.11");
    const token = await service.token({ userId: "user-1", sessionId: "session-1" });
    const claims = accepted(await verifier(service).verify(token));

    expect(claims).toMatchObject({
      userId: "user-1",
      projectId: PROJECT,
      branchId: "main",
      sessionId: "session-1",
      isAnonymous: false,
      isRestricted: false,
    });
    for (const name of ["email", "emailVerified", "name", "selectedTeamId", "requiresTotpMfa", "signedUpAt", "restrictedReason"]) {
      expect(claims).not.toHaveProperty(name);
    }
    expect(claims.expiresAt.getTime() - (claims.issuedAt?.getTime() ?? 0)).toBe(600_000);
    expect(claims.payload).toMatchObject({ iss: GLOBAL_ISSUER, aud: PROJECT, branchId: "main", refreshTokenId: "session-1" });
    expect(service.requests).toEqual([JWKS]);
  });

  it("is accepted by one-shot verifyAccessToken, and by a verifier with a proxy's issuer", async () => {
    const service = fakeService("2.8.11");
    const token = await service.token();
    const options = { projectId: PROJECT, baseUrl: BASE_URL, fetch: service.fetch };
    expect(accepted(await verifyAccessToken(token, options)).projectId).toBe(PROJECT);
    // Its issuer names no deployment: whoever the normal issuer is, the global one goes with the project's audience.
    expect(accepted(await verifier(service, { issuer: "https://proxy.example.com/api/v1/projects/x" }).verify(token)).projectId).toBe(
      PROJECT,
    );
  });

  it("is accepted after the service moved to 2.8.86, which still publishes its key first", async () => {
    const keyring = new Keyring();
    const before = await fakeService("2.8.11", { keyring }).token({ sessionId: "session-1" });
    const after = fakeService("2.8.86", { keyring });
    expect(accepted(await verifier(after).verify(before)).sessionId).toBe("session-1");
  });

  it("of another project is refused by its audience before any key is fetched, whatever its issuer", async () => {
    const service = fakeService("2.8.11");
    const token = await service.token({ projectId: OTHER_PROJECT });
    expect(refusal(await verifier(service).verify(token), "audience").message).toContain(PROJECT);
    expect(service.requests).toEqual([]);
  });

  it("of another project re-addressed to this one: its key is the other project's", async () => {
    const service = fakeService("2.8.11");
    const token = edited(await service.token({ projectId: OTHER_PROJECT }), { aud: PROJECT });
    refusal(await verifier(service, { cooldownMs: 0 }).verify(token), "unknown-key");
  });

  it("with an audience of restricted or anonymous users is refused: no 2.8.11 token has one", async () => {
    const service = fakeService("2.8.11");
    for (const audience of [`${PROJECT}:anon`, `${PROJECT}:restricted`]) {
      const token = await service.token({ audience });
      expect(refusal(await verifier(service, { allowAnonymous: true }).verify(token), "issuer").message).toContain(
        issuerOf(BASE_URL, PROJECT, audience.endsWith(":anon") ? "anonymous" : "restricted"),
      );
    }
    expect(service.requests).toEqual([]);
  });

  it("forged (signed with a key that is not the project's, under its kid) is refused: signature", async () => {
    const service = fakeService("2.8.11");
    const genuine = await service.token();
    const { privateKey } = await generateKeyPair("ES256");
    const forged = await new SignJWT(json(genuine.split(".")[1]!))
      .setProtectedHeader(json(genuine.split(".")[0]!) as { alg: string; kid: string })
      .sign(privateKey);
    refusal(await verifier(service).verify(forged), "signature");
  });

  it("past its exp (beyond the clock tolerance) is refused: expired, with when", async () => {
    const service = fakeService("2.8.11");
    const iat = Math.floor(Date.now() / 1000) - 700;
    const error = refusal(await verifier(service).verify(await service.token({ iat })), "expired");
    expect(error.expiredAt?.getTime()).toBe((iat + 600) * 1000);
  });

  it("with a claim of the wrong type is refused: malformed", async () => {
    const service = fakeService("2.8.11");
    refusal(await verifier(service).verify(await service.token({ claims: { refreshTokenId: 7 } })), "malformed");
    refusal(await verifier(service).verify(await service.token({ claims: { branchId: null } })), "malformed");
  });
});

describe("a 2.8.86 token (an issuer and an audience per kind of user, snake_case claims)", () => {
  it("of a normal user is accepted with every claim about the user, typed", async () => {
    const service = fakeService("2.8.86");
    const claims = accepted(await verifier(service).verify(await service.token({ userId: "user-1", sessionId: "session-1" })));

    expect(claims).toEqual({
      userId: "user-1",
      projectId: PROJECT,
      branchId: "main",
      sessionId: "session-1",
      isAnonymous: false,
      isRestricted: false,
      restrictedReason: null,
      email: "ada@example.com",
      emailVerified: true,
      name: "Ada Lovelace",
      selectedTeamId: "0b7c1b2e-4a4f-4c3e-9d47-2f1f3c5a6b7d",
      requiresTotpMfa: false,
      signedUpAt: new Date(1_767_225_600_000),
      issuedAt: expect.any(Date),
      expiresAt: expect.any(Date),
      payload: expect.objectContaining({ iss: issuerOf(BASE_URL, PROJECT, "normal"), aud: PROJECT, project_id: PROJECT }),
    });
    // The normal users' keys only: nothing asks for the others.
    expect(service.requests).toEqual([JWKS]);
  });

  it("signed with either of its audience's two published keys is accepted", async () => {
    const service = fakeService("2.8.86");
    const check = verifier(service);
    expect(accepted(await check.verify(await service.token({ key: 0 }))).userId).toBeDefined();
    expect(accepted(await check.verify(await service.token({ key: 1 }))).userId).toBeDefined();
    expect(service.requests).toEqual([JWKS]);
  });

  it("of a restricted user is refused unless restricted users are accepted; their keys come with include_restricted", async () => {
    const service = fakeService("2.8.86");
    const token = await service.token({ kind: "restricted" });

    const error = refusal(await verifier(service).verify(token), "audience");
    expect(error.message).toContain("`allowRestricted: true`");
    expect(service.requests).toEqual([]);

    const claims = accepted(await verifier(service, { allowRestricted: true }).verify(token));
    expect(claims).toMatchObject({
      projectId: PROJECT,
      isAnonymous: false,
      isRestricted: true,
      restrictedReason: { type: "email_not_verified" },
      emailVerified: false,
    });
    expect(service.requests).toEqual([`${JWKS}?include_restricted=true`]);
    // Accepting anonymous users accepts restricted ones.
    expect(accepted(await verifier(service, { allowAnonymous: true }).verify(token)).isRestricted).toBe(true);
  });

  it("of an anonymous user is refused unless anonymous users are accepted; their keys come with include_anonymous", async () => {
    const service = fakeService("2.8.86");
    const token = await service.token({ kind: "anonymous" });

    expect(refusal(await verifier(service).verify(token), "audience").message).toContain("`allowAnonymous: true`");
    refusal(await verifier(service, { allowRestricted: true }).verify(token), "audience");
    expect(service.requests).toEqual([]);

    const claims = accepted(await verifier(service, { allowAnonymous: true }).verify(token));
    expect(claims).toMatchObject({
      isAnonymous: true,
      isRestricted: true,
      restrictedReason: { type: "anonymous" },
      email: null,
      name: null,
    });
    expect(service.requests).toEqual([`${JWKS}?include_anonymous=true`]);
  });

  it("the call's allowAnonymous takes precedence over the verifier's", async () => {
    const service = fakeService("2.8.86");
    const token = await service.token({ kind: "anonymous" });
    expect(accepted(await verifier(service).verify(token, { allowAnonymous: true })).isAnonymous).toBe(true);
    refusal(await verifier(service, { allowAnonymous: true }).verify(token, { allowAnonymous: false }), "audience");
    // The one-shot form takes both in one object.
    const options = { projectId: PROJECT, baseUrl: BASE_URL, fetch: service.fetch };
    refusal(await verifyAccessToken(token, options), "audience");
    expect(accepted(await verifyAccessToken(token, { ...options, allowAnonymous: true })).isAnonymous).toBe(true);
  });

  it("whose claims say anonymous or restricted under the normal audience is refused unless such users are accepted", async () => {
    // The emulator's tokens, and the service's between the two versions, mark anonymous users by a claim only.
    const service = fakeService("2.8.86");
    const anonymous = await service.token({ claims: { is_anonymous: true } });
    refusal(await verifier(service).verify(anonymous), "audience");
    expect(accepted(await verifier(service, { allowAnonymous: true }).verify(anonymous))).toMatchObject({
      isAnonymous: true,
      isRestricted: true,
    });
    const restricted = await service.token({ claims: { is_restricted: true, restricted_reason: { type: "restricted_by_administrator" } } });
    refusal(await verifier(service).verify(restricted), "audience");
    expect(accepted(await verifier(service, { allowRestricted: true }).verify(restricted)).restrictedReason).toEqual({
      type: "restricted_by_administrator",
    });
    // Their keys are in the normal users' set (each verifier fetched it once).
    expect(new Set(service.requests)).toEqual(new Set([JWKS]));
  });

  it("with the issuer of another kind of user than its audience is refused: issuer", async () => {
    const service = fakeService("2.8.86");
    const check = verifier(service, { allowAnonymous: true });
    const cases = [
      { kind: "anonymous", issuer: issuerOf(BASE_URL, PROJECT, "normal") },
      { kind: "anonymous", issuer: issuerOf(BASE_URL, PROJECT, "restricted") },
      { kind: "restricted", issuer: issuerOf(BASE_URL, PROJECT, "anonymous") },
      { kind: "normal", issuer: issuerOf(BASE_URL, PROJECT, "anonymous") },
      // 2.8.11's issuer goes with the project's own audience only.
      { kind: "anonymous", issuer: GLOBAL_ISSUER },
      { kind: "restricted", issuer: GLOBAL_ISSUER },
    ] as const;
    for (const { kind, issuer } of cases) refusal(await check.verify(await service.token({ kind, issuer })), "issuer");
    expect(service.requests).toEqual([]);
  });

  it("with the issuer of another project is refused: issuer", async () => {
    const service = fakeService("2.8.86");
    for (const kind of ["normal", "restricted", "anonymous"] as const) {
      const token = await service.token({ kind, issuer: issuerOf(BASE_URL, OTHER_PROJECT, kind) });
      refusal(await verifier(service, { allowAnonymous: true }).verify(token), "issuer");
    }
  });

  it("of another project, of any kind, is refused by its audience before any key is fetched", async () => {
    const service = fakeService("2.8.86");
    for (const kind of ["normal", "restricted", "anonymous"] as const) {
      const token = await service.token({ kind, projectId: OTHER_PROJECT });
      refusal(await verifier(service, { allowAnonymous: true }).verify(token), "audience");
    }
    // An audience that only starts with the project id, or a list of audiences, is not the project's.
    refusal(await verifier(service).verify(await service.token({ audience: `${PROJECT}:admin` })), "audience");
    refusal(await verifier(service).verify(edited(await service.token(), { aud: [PROJECT] })), "audience");
    expect(service.requests).toEqual([]);
  });

  it("of another project re-addressed to this one is refused: its key is not this project's", async () => {
    const service = fakeService("2.8.86");
    const other = await service.token({ kind: "anonymous", projectId: OTHER_PROJECT });
    const readdressed = edited(other, { aud: `${PROJECT}:anon`, iss: issuerOf(BASE_URL, PROJECT, "anonymous"), project_id: PROJECT });
    refusal(await verifier(service, { allowAnonymous: true, cooldownMs: 0 }).verify(readdressed), "unknown-key");
  });

  it("whose project_id is not its audience's is refused: malformed", async () => {
    const service = fakeService("2.8.86");
    refusal(await verifier(service).verify(await service.token({ claims: { project_id: OTHER_PROJECT } })), "malformed");
  });

  it("an anonymous user's token changed to pass for a normal user's is refused", async () => {
    const service = fakeService("2.8.86");
    const anonymous = await service.token({ kind: "anonymous" });
    const normal = {
      aud: PROJECT,
      iss: issuerOf(BASE_URL, PROJECT, "normal"),
      is_anonymous: false,
      is_restricted: false,
      restricted_reason: null,
    };
    // Its key is the anonymous users' one, which the normal users' set does not hold.
    refusal(await verifier(service, { allowAnonymous: true, cooldownMs: 0 }).verify(edited(anonymous, normal)), "unknown-key");
    // Where its key is known, the changed claims break the signature.
    refusal(await verifier(service, { allowAnonymous: true }).verify(edited(anonymous, { is_anonymous: false })), "signature");
  });

  it("forged, tampered or expired is refused with the reason", async () => {
    const service = fakeService("2.8.86");
    const genuine = await service.token({ kind: "anonymous" });
    const check = verifier(service, { allowAnonymous: true });
    const { privateKey } = await generateKeyPair("ES256");
    const forged = await new SignJWT(json(genuine.split(".")[1]!))
      .setProtectedHeader(json(genuine.split(".")[0]!) as { alg: string; kid: string })
      .sign(privateKey);
    refusal(await check.verify(forged), "signature");
    refusal(await check.verify(edited(genuine, { sub: "someone-else" })), "signature");
    refusal(await check.verify(await service.token({ kind: "anonymous", iat: Math.floor(Date.now() / 1000) - 606 })), "expired");
    // Within the 5 s tolerance it is still current.
    accepted(await check.verify(await service.token({ kind: "anonymous", iat: Math.floor(Date.now() / 1000) - 603 })));
  });

  it("signed with another algorithm than ES256 is refused before any key is fetched: algorithm", async () => {
    const service = fakeService("2.8.86");
    const genuine = await service.token();
    const { kid } = json(genuine.split(".")[0]!) as { kid: string };
    const payload = json(genuine.split(".")[1]!);
    const es384 = await generateKeyPair("ES384");
    const rs256 = await generateKeyPair("RS256");
    const secret = new TextEncoder().encode(JSON.stringify(await exportJWK(es384.publicKey)));
    for (const [alg, key] of [
      ["ES384", es384.privateKey],
      ["RS256", rs256.privateKey],
      ["HS256", secret],
    ] as const) {
      refusal(await verifier(service).verify(await new SignJWT(payload).setProtectedHeader({ alg, kid }).sign(key)), "algorithm");
    }
    expect(service.requests).toEqual([]);
  });

  it.each([
    ["email_verified", "yes"],
    ["email", 42],
    ["name", false],
    ["selected_team_id", 1],
    ["requires_totp_mfa", "no"],
    ["signed_up_at", "2026-01-01"],
    ["is_restricted", "no"],
    ["restricted_reason", "email_not_verified"],
    ["restricted_reason", { reason: "x" }],
    ["branch_id", 1],
  ])("whose %s is %j is refused: malformed", async (claim, value) => {
    const service = fakeService("2.8.86");
    const error = refusal(await verifier(service).verify(await service.token({ claims: { [claim]: value } })), "malformed");
    expect(error.message).toContain(`\`${claim}\``);
  });
});

describe("a proxy's issuer", () => {
  it("gives the issuers of restricted and anonymous users' tokens too when it has the service's shape", async () => {
    const internal = "http://stack.internal:8102";
    const service = fakeService("2.8.86");
    const check = verifier(service, { issuer: issuerOf(internal, PROJECT, "normal"), allowAnonymous: true });
    for (const kind of ["normal", "restricted", "anonymous"] as const) {
      accepted(await check.verify(await service.token({ kind, issuer: issuerOf(internal, PROJECT, kind) })));
      refusal(await check.verify(await service.token({ kind })), "issuer");
    }
    // An issuer of another shape names the normal users' issuer only.
    const other = verifier(service, { issuer: "https://auth.example.com", allowAnonymous: true });
    const error = refusal(await other.verify(await service.token({ kind: "anonymous" })), "issuer");
    expect(error.message).toContain("set `issuer`");
  });
});

describe("the options", () => {
  it("are told what is wrong with allowAnonymous or allowRestricted that is not a boolean", async () => {
    const service = fakeService("2.8.86");
    expect(() => verifier(service, { allowAnonymous: "yes" as never })).toThrow(StackConfigurationError);
    expect(() => verifier(service, { allowRestricted: 1 as never })).toThrow(StackConfigurationError);
    await expect(verifier(service).verify(await service.token(), { allowAnonymous: "yes" as never })).rejects.toThrow(
      StackConfigurationError,
    );
  });
});

/** A server app of the project on a service of `version` that answers only its key set. */
function serverApp(service: FakeService) {
  return new StackServerApp({
    projectId: PROJECT,
    publishableClientKey: "pck_test",
    secretServerKey: "ssk_test",
    baseUrl: service.baseUrl,
    tokenStore: null,
    noAutomaticPrefetch: true,
    environment: { fetch: service.fetch },
  });
}

describe.each<Version>(["2.8.11", "2.8.86"])('StackServerApp on %s: getUser({ verify: "local" })', (version) => {
  it("answers the signed-in user from the token alone", async () => {
    const service = fakeService(version);
    const accessToken = await service.token({ userId: "user-1", sessionId: "session-1" });
    const app = serverApp(service);

    const user = await app.getUser({ verify: "local", tokenStore: { accessToken, refreshToken: null } });

    expect(user).toMatchObject({
      id: "user-1",
      isAnonymous: false,
      isRestricted: false,
      claims: { userId: "user-1", projectId: PROJECT, branchId: "main", sessionId: "session-1" },
    });
    expect(user?.claims.email).toBe(version === "2.8.11" ? undefined : "ada@example.com");
    expect(service.requests).toEqual([JWKS]);
    expect(accepted(await app.verifyAccessToken(accessToken)).userId).toBe("user-1");
    expect(service.requests).toEqual([JWKS]);
  });

  it("answers null (or throws with or: 'throw') for a forged or another project's token", async () => {
    const service = fakeService(version);
    const app = serverApp(service);
    const other = await service.token({ projectId: OTHER_PROJECT });
    const forged = edited(await service.token(), { sub: "someone-else" });
    for (const accessToken of [other, forged]) {
      expect(await app.getUser({ verify: "local", tokenStore: { accessToken, refreshToken: null } })).toBeNull();
      await expect(app.getUser({ verify: "local", or: "throw", tokenStore: { accessToken, refreshToken: null } })).rejects.toThrow(
        UserNotSignedInError,
      );
    }
  });
});

describe('StackServerApp on 2.8.86: getUser({ verify: "local" }) and anonymous or restricted users', () => {
  it.each(["anonymous", "restricted"] as const)("counts a %s user only with or: 'anonymous-if-exists'", async (kind) => {
    const service = fakeService("2.8.86");
    const app = serverApp(service);
    const tokenStore = { accessToken: await service.token({ kind }), refreshToken: null };

    expect(await app.getUser({ verify: "local", tokenStore })).toBeNull();
    // Refused by the audience: the keys of such users were not even fetched.
    expect(service.requests).toEqual([]);
    expect(await app.getUser({ verify: "local", or: "anonymous-if-exists", tokenStore })).toMatchObject({
      isAnonymous: kind === "anonymous",
      isRestricted: true,
    });
    expect(service.requests).toEqual([`${JWKS}?include_${kind}=true`]);
    // verifyAccessToken says so the same way.
    refusal(await app.verifyAccessToken(tokenStore.accessToken), "audience");
    expect(accepted(await app.verifyAccessToken(tokenStore.accessToken, { allowAnonymous: true })).isRestricted).toBe(true);
  });
});
