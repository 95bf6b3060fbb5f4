// Verifying access tokens locally against the emulator's published keys (issue
// 15 §1), over real HTTP: what is accepted, and each reason a token is refused.
import { base64url, exportJWK, generateKeyPair, SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import { DEMO_KEYS, INTERNAL_KEYS } from "../../../emulator/index.js";
import { isStackError } from "../../../runtime/errors.js";
import {
  AccessTokenInvalidError,
  createAccessTokenVerifier,
  isAccessTokenInvalidError,
  type AccessTokenInvalidReason,
  type AccessTokenVerification,
  type AccessTokenVerifierOptions,
} from "../../../runtime/sessions/verify/index.js";
import { useService, type Service } from "./service.js";

const service = useService();

function verifier(s: Service, options: Partial<AccessTokenVerifierOptions> = {}) {
  return createAccessTokenVerifier({ projectId: DEMO_KEYS.projectId, baseUrl: s.url, fetch: s.fetch, ...options });
}

/** The error of a refused verification, checked to be one for `reason` that does not quote the token. */
function refusal(result: AccessTokenVerification, reason: AccessTokenInvalidReason, token?: string): AccessTokenInvalidError {
  if (result.status === "ok") throw new Error(`expected a refusal (${reason}), got the claims of ${result.data.userId}`);
  expect(result.error.reason).toBe(reason);
  if (token) expect(JSON.stringify({ message: result.error.message, json: result.error })).not.toContain(token.split(".")[2]);
  return result.error;
}

const json = (part: string) => JSON.parse(new TextDecoder().decode(base64url.decode(part))) as Record<string, unknown>;
const encoded = (value: object) => base64url.encode(JSON.stringify(value));

/** `token` with its header and payload changed and its signature kept. */
function edited(token: string, edit: { header?: object; payload?: object; signature?: string }) {
  const [header, payload, signature] = token.split(".") as [string, string, string];
  return [
    edit.header ? encoded({ ...json(header), ...edit.header }) : header,
    edit.payload ? encoded({ ...json(payload), ...edit.payload }) : payload,
    edit.signature ?? signature,
  ].join(".");
}

describe("a token the project signed", () => {
  it("is accepted with its claims: user, project, session, anonymity and times", async () => {
    const s = service();
    const { accessToken, userId } = await s.signIn("ada@example.com");
    const result = await verifier(s).verify(accessToken);

    expect(result.status).toBe("ok");
    if (result.status !== "ok") return;
    const [session] = await s.sessionsOf(accessToken, userId);
    expect(result.data).toMatchObject({
      userId,
      projectId: DEMO_KEYS.projectId,
      branchId: "main",
      sessionId: session?.id,
      isAnonymous: false,
    });
    expect(result.data.expiresAt.getTime() - (result.data.issuedAt?.getTime() ?? 0)).toBe(10 * 60 * 1000);
    expect(result.data.payload).toMatchObject({ sub: userId, aud: DEMO_KEYS.projectId, role: "authenticated" });
  });

  it("of an anonymous user is accepted only when anonymous users are, and says so", async () => {
    const s = service();
    const accessToken = await s.signUpAnonymously();
    const error = refusal(await verifier(s).verify(accessToken), "audience", accessToken);
    expect(error.message).toContain("`allowAnonymous: true`");
    const result = await verifier(s, { allowAnonymous: true }).verify(accessToken);
    expect(result.status === "ok" && result.data).toMatchObject({ isAnonymous: true, isRestricted: true });
    expect((await verifier(s).verify(accessToken, { allowAnonymous: true })).status).toBe("ok");
  });

  it("is judged without calling the service beyond its key set: no /users/me", async () => {
    const s = service();
    const { accessToken } = await s.signIn("ada@example.com");
    s.server.emulator.control.clearRequests();
    await verifier(s).verify(accessToken);
    expect(s.server.emulator.control.requests().map((r) => r.operationId)).toEqual(["getProjectJwks"]);
  });
});

describe("a token that is refused", () => {
  it("expired: past its exp on the service's clock (beyond the tolerance), with when", async () => {
    const s = service();
    const { accessToken } = await s.signIn("ada@example.com");
    const check = verifier(s, { now: () => s.server.emulator.control.now() });
    s.server.emulator.control.advanceClock(10 * 60 * 1000);
    expect((await check.verify(accessToken)).status).toBe("ok"); // within the 5 s tolerance
    s.server.emulator.control.advanceClock(6_000);

    const error = refusal(await check.verify(accessToken), "expired", accessToken);
    expect(error.expiredAt?.getTime()).toBe((json(accessToken.split(".")[1]!)["exp"] as number) * 1000);
    expect(error.message).toMatch(/^The access token expired at .*Z; refresh it\.$/);
  });

  it("tampered payload: another user's id with the original signature", async () => {
    const s = service();
    const { accessToken } = await s.signIn("ada@example.com");
    refusal(await verifier(s).verify(edited(accessToken, { payload: { sub: "someone-else" } })), "signature", accessToken);
  });

  it("tampered signature", async () => {
    const s = service();
    const { accessToken } = await s.signIn("ada@example.com");
    const signature = accessToken.split(".")[2]!;
    const flipped = signature.slice(0, 10) + (signature[10] === "A" ? "B" : "A") + signature.slice(11);
    refusal(await verifier(s).verify(edited(accessToken, { signature: flipped })), "signature", accessToken);
  });

  it("alg none, with or without a signature, before any key is fetched", async () => {
    const s = service();
    const { accessToken } = await s.signIn("ada@example.com");
    const check = verifier(s);
    refusal(await check.verify(edited(accessToken, { header: { alg: "none" }, signature: "" })), "algorithm");
    refusal(await check.verify(edited(accessToken, { header: { alg: "none" } })), "algorithm");
    expect(s.jwksRequests).toEqual([]);
  });

  it("HS256 signed with the project's public key as the secret (algorithm confusion)", async () => {
    const s = service();
    const { accessToken } = await s.signIn("ada@example.com");
    const jwks = (await (await fetch(`${s.url}/api/v1/projects/${DEMO_KEYS.projectId}/.well-known/jwks.json`)).json()) as {
      keys: object[];
    };
    const secret = new TextEncoder().encode(JSON.stringify(jwks.keys[0]));
    const forged = await new SignJWT(json(accessToken.split(".")[1]!))
      .setProtectedHeader({ alg: "HS256", kid: json(accessToken.split(".")[0]!)["kid"] as string })
      .sign(secret);
    refusal(await verifier(s).verify(forged), "algorithm");
  });

  it("another project's token: refused by its audience, without fetching any key", async () => {
    const s = service();
    const { accessToken } = await s.signIn("ada@example.com", INTERNAL_KEYS);
    const error = refusal(await verifier(s).verify(accessToken), "audience", accessToken);
    expect(error.message).toContain(DEMO_KEYS.projectId);
    expect(s.jwksRequests).toEqual([]);
  });

  it("another project's token re-addressed to this one: its key is not this project's", async () => {
    const s = service();
    const { accessToken } = await s.signIn("ada@example.com", INTERNAL_KEYS);
    const readdressed = edited(accessToken, {
      payload: { aud: DEMO_KEYS.projectId, project_id: DEMO_KEYS.projectId, iss: `${s.url}/api/v1/projects/${DEMO_KEYS.projectId}` },
    });
    refusal(await verifier(s, { cooldownMs: 0 }).verify(readdressed), "unknown-key");
    // Naming this project's key instead leaves a signature that does not match it.
    const demo = await s.signIn("grace@example.com");
    const kid = json(demo.accessToken.split(".")[0]!)["kid"];
    refusal(await verifier(s).verify(edited(readdressed, { header: { kid } })), "signature");
  });

  it("issuer: the project's token from another deployment of the service", async () => {
    const s = service();
    const { accessToken } = await s.signIn("ada@example.com");
    const error = refusal(
      await verifier(s, { issuer: `https://api.example.com/api/v1/projects/${DEMO_KEYS.projectId}` }).verify(accessToken),
      "issuer",
    );
    expect(error.message).toContain("set `issuer`");
    expect(
      (await verifier(s, { issuer: ["https://api.example.com", `${s.url}/api/v1/projects/${DEMO_KEYS.projectId}`] }).verify(accessToken))
        .status,
    ).toBe("ok");
  });

  it.each([
    ["an empty string", ""],
    ["the literal 'undefined'", "undefined"],
    ["two segments", "eyJhbGciOiJFUzI1NiJ9.e30"],
    ["a header that is not JSON", "bm90IGpzb24.e30.c2ln"],
    ["an encrypted JWT (five segments)", "a.b.c.d.e"],
    ["a very long string", "a".repeat(20_000)],
  ])("malformed: %s", async (_, token) => {
    const s = service();
    refusal(await verifier(s).verify(token), "malformed");
    expect(s.jwksRequests).toEqual([]);
  });

  it("malformed: no kid in its header", async () => {
    const s = service();
    const { accessToken } = await s.signIn("ada@example.com");
    refusal(await verifier(s).verify(edited(accessToken, { header: { kid: undefined } })), "malformed");
  });

  it("malformed: a signed token whose claims are of the wrong type", async () => {
    // A project key of the test's own, served by a fake key set: the service never signs such claims.
    const { privateKey, publicKey } = await generateKeyPair("ES256");
    const jwk = { ...(await exportJWK(publicKey)), kid: "k1", alg: "ES256", use: "sig" };
    const fetch = async () => Response.json({ keys: [jwk] });
    const issuer = "https://api.example.com/api/v1/projects/p1";
    const sign = (claims: object) =>
      new SignJWT({ ...claims })
        .setProtectedHeader({ alg: "ES256", kid: "k1" })
        .setIssuer(issuer)
        .setAudience("p1")
        .setSubject("u1")
        .setIssuedAt()
        .setExpirationTime("5m")
        .sign(privateKey);
    const check = createAccessTokenVerifier({ projectId: "p1", baseUrl: "https://api.example.com", fetch });
    expect((await check.verify(await sign({}))).status).toBe("ok");
    refusal(await check.verify(await sign({ is_anonymous: "no" })), "malformed");
    refusal(await check.verify(await sign({ refresh_token_id: 7 })), "malformed");
    refusal(await check.verify(await sign({ project_id: "p2" })), "malformed");
    const noExp = await new SignJWT({})
      .setProtectedHeader({ alg: "ES256", kid: "k1" })
      .setIssuer(issuer)
      .setAudience("p1")
      .setSubject("u1")
      .sign(privateKey);
    refusal(await check.verify(noExp), "malformed");
    const future = await new SignJWT({})
      .setProtectedHeader({ alg: "ES256", kid: "k1" })
      .setIssuer(issuer)
      .setAudience("p1")
      .setSubject("u1")
      .setNotBefore("1h")
      .setExpirationTime("2h")
      .sign(privateKey);
    refusal(await check.verify(future), "not-yet-valid");
  });
});

describe("the error", () => {
  it("is a stackkit error across copies (brand and name), with a JSON form that carries no token", async () => {
    const s = service();
    const { accessToken } = await s.signIn("ada@example.com");
    const error = refusal(await verifier(s).verify(edited(accessToken, { payload: { sub: "x" } })), "signature");
    expect(error).toBeInstanceOf(Error);
    expect(isStackError(error)).toBe(true);
    expect(isAccessTokenInvalidError(error)).toBe(true);
    expect(isAccessTokenInvalidError(error, "expired", "signature")).toBe(true);
    expect(isAccessTokenInvalidError(error, "expired")).toBe(false);
    expect(isAccessTokenInvalidError(new Error("x"))).toBe(false);
    expect(JSON.parse(JSON.stringify(error))).toEqual({ name: "AccessTokenInvalidError", reason: "signature", message: error.message });
  });
});
