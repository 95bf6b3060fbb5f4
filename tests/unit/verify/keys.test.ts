// The project's key set behind local verification, against the emulator over
// HTTP: cached and shared, refetched once for an unknown kid (the service
// rotated its key) and no more often than the cooldown, and a service that
// cannot be reached reported as such, never as a bad token.
import { describe, expect, it } from "vitest";
import { DEMO_KEYS } from "../../../emulator/index.js";
import { NetworkError, StackConfigurationError } from "../../../runtime/errors.js";
import { HttpError, RequestTimeoutError } from "../../../runtime/http/request-errors.js";
import { createAccessTokenVerifier, verifyAccessToken, type AccessTokenVerifierOptions } from "../../../runtime/sessions/verify/index.js";
import { useService, type Service } from "./service.js";

const service = useService();
const JWKS_PATH = `/api/v1/projects/${DEMO_KEYS.projectId}/.well-known/jwks.json`;

/** A verifier on a clock the test moves. */
function verifier(s: Service, options: Partial<AccessTokenVerifierOptions> = {}) {
  const clock = { now: Date.now() };
  const check = createAccessTokenVerifier({
    projectId: DEMO_KEYS.projectId,
    baseUrl: s.url,
    fetch: s.fetch,
    now: () => clock.now,
    ...options,
  });
  return { check, advance: (ms: number) => (clock.now += ms) };
}

const reasonOf = (result: { status: string; error?: { reason: string } }) => (result.status === "ok" ? "ok" : result.error?.reason);

describe("the key set", () => {
  it("is fetched once and reused for every token while it is younger than cacheMaxAgeMs", async () => {
    const s = service();
    const ada = await s.signIn("ada@example.com");
    const grace = await s.signIn("grace@example.com");
    const { check, advance } = verifier(s, { cacheMaxAgeMs: 60_000 });

    expect(reasonOf(await check.verify(ada.accessToken))).toBe("ok");
    expect(reasonOf(await check.verify(grace.accessToken))).toBe("ok");
    advance(59_000);
    expect(reasonOf(await check.verify(ada.accessToken))).toBe("ok");
    expect(s.jwksRequests).toEqual([JWKS_PATH]);
    advance(1_000);
    expect(reasonOf(await check.verify(ada.accessToken))).toBe("ok");
    expect(s.jwksRequests).toEqual([JWKS_PATH, JWKS_PATH]);
  });

  it("is fetched once for concurrent first verifications", async () => {
    const s = service();
    const { accessToken } = await s.signIn("ada@example.com");
    const { check } = verifier(s);
    const results = await Promise.all(Array.from({ length: 10 }, () => check.verify(accessToken)));
    expect(results.map(reasonOf)).toEqual(Array(10).fill("ok"));
    expect(s.jwksRequests).toHaveLength(1);
  });

  it("is shared by one-shot verifyAccessToken calls with the same fetch, base URL and project", async () => {
    const s = service();
    const { accessToken } = await s.signIn("ada@example.com");
    const options = { projectId: DEMO_KEYS.projectId, baseUrl: s.url, fetch: s.fetch };
    expect(reasonOf(await verifyAccessToken(accessToken, options))).toBe("ok");
    expect(reasonOf(await verifyAccessToken(accessToken, options))).toBe("ok");
    expect(s.jwksRequests).toHaveLength(1);
    // A different base URL is a different key set (here: the same server under another name).
    expect(
      reasonOf(
        await verifyAccessToken(accessToken, {
          ...options,
          baseUrl: `${s.url}/`,
          issuer: `${s.url}/api/v1/projects/${DEMO_KEYS.projectId}`,
        }),
      ),
    ).toBe("ok");
    expect(s.jwksRequests).toHaveLength(1); // a trailing slash names the same URL
    expect(
      reasonOf(
        await verifyAccessToken(accessToken, {
          ...options,
          baseUrl: s.url.replace("127.0.0.1", "localhost"),
          issuer: `${s.url}/api/v1/projects/${DEMO_KEYS.projectId}`,
        }),
      ),
    ).toBe("ok");
    expect(s.jwksRequests).toHaveLength(2);
  });
});

describe("key rotation", () => {
  it("a token signed with a new key refetches the set exactly once, then verifies", async () => {
    const s = service();
    const before = await s.signIn("ada@example.com");
    const { check, advance } = verifier(s);
    expect(reasonOf(await check.verify(before.accessToken))).toBe("ok");

    await s.rotateKeys();
    const after = await s.signIn("grace@example.com");
    advance(30_000); // past the cooldown since the first fetch
    const results = await Promise.all(Array.from({ length: 5 }, () => check.verify(after.accessToken)));
    expect(results.map(reasonOf)).toEqual(Array(5).fill("ok"));
    expect(s.jwksRequests).toHaveLength(2);
    expect(reasonOf(await check.verify(after.accessToken))).toBe("ok");
    expect(s.jwksRequests).toHaveLength(2);
  });

  it("an unknown kid within the cooldown of the last fetch is refused without another request", async () => {
    const s = service();
    const before = await s.signIn("ada@example.com");
    const { check, advance } = verifier(s, { cooldownMs: 30_000 });
    expect(reasonOf(await check.verify(before.accessToken))).toBe("ok");
    await s.rotateKeys();
    const after = await s.signIn("grace@example.com");

    advance(29_000);
    expect(reasonOf(await check.verify(after.accessToken))).toBe("unknown-key");
    expect(s.jwksRequests).toHaveLength(1);
    advance(1_000);
    expect(reasonOf(await check.verify(after.accessToken))).toBe("ok");
    expect(s.jwksRequests).toHaveLength(2);
    // The emulator drops the old key at once (the service keeps it listed while its tokens live): the old token's kid is now unknown,
    // and the set was just fetched, so it is refused without a request.
    const old = await check.verify(before.accessToken);
    expect(reasonOf(old)).toBe("unknown-key");
    expect(old.status === "error" && old.error.message).toMatch(/names a signing key the project does not publish/);
    expect(s.jwksRequests).toHaveLength(2);
  });
});

describe("a key set that cannot be read", () => {
  it("service down: jwks-unavailable with a NetworkError cause, never a verdict on the token", async () => {
    const s = service();
    const { accessToken } = await s.signIn("ada@example.com");
    await s.stop();
    const result = await verifier(s).check.verify(accessToken);
    expect(reasonOf(result)).toBe("jwks-unavailable");
    expect(result.status === "error" && result.error.cause).toBeInstanceOf(NetworkError);
  });

  it("an HTTP error: the status and the known-error code are in the message, the answer in the cause", async () => {
    const s = service();
    const { accessToken } = await s.signIn("ada@example.com");
    s.server.emulator.control.injectFault("getProjectJwks", { kind: "status", status: 503, body: "down for maintenance" });
    const result = await verifier(s).check.verify(accessToken);
    if (result.status === "ok") throw new Error("expected a refusal");
    expect(result.error.reason).toBe("jwks-unavailable");
    expect(result.error.message).toContain("HTTP 503");
    expect(result.error.cause).toBeInstanceOf(HttpError);
    expect(result.error.cause).toMatchObject({ status: 503, body: "down for maintenance" });
  });

  it("a project the service does not know: PROJECT_NOT_FOUND", async () => {
    const s = service();
    const { accessToken } = await s.signIn("ada@example.com");
    // The demo token, re-addressed to a project that does not exist, gets past the audience check and asks for that project's keys.
    const [header, payload, signature] = accessToken.split(".") as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString());
    const url = s.url;
    const other = Buffer.from(
      JSON.stringify({ ...claims, aud: "no-such-project", iss: `${url}/api/v1/projects/no-such-project` }),
    ).toString("base64url");
    const check = createAccessTokenVerifier({ projectId: "no-such-project", baseUrl: url, fetch: s.fetch });
    const result = await check.verify([header, other, signature].join("."));
    expect(result.status === "error" && result.error.message).toContain("HTTP 404 (PROJECT_NOT_FOUND)");
  });

  it("a dropped connection, then one request a second at most while it fails, then recovery", async () => {
    const s = service();
    const { accessToken } = await s.signIn("ada@example.com");
    const { check, advance } = verifier(s);
    s.server.emulator.control.injectFault("getProjectJwks", { kind: "drop" }, { times: 2 });

    expect(reasonOf(await check.verify(accessToken))).toBe("jwks-unavailable");
    expect(reasonOf(await check.verify(accessToken))).toBe("jwks-unavailable");
    expect(s.jwksRequests).toHaveLength(1);
    advance(1_000);
    expect(reasonOf(await check.verify(accessToken))).toBe("jwks-unavailable");
    expect(s.jwksRequests).toHaveLength(2);
    advance(1_000);
    expect(reasonOf(await check.verify(accessToken))).toBe("ok");
    expect(s.jwksRequests).toHaveLength(3);
  });

  it("no answer within timeoutMs: a RequestTimeoutError cause", async () => {
    const s = service();
    const { accessToken } = await s.signIn("ada@example.com");
    s.server.emulator.control.injectFault("getProjectJwks", { kind: "latency", ms: 1_000 });
    const result = await verifier(s, { timeoutMs: 50 }).check.verify(accessToken);
    expect(result.status === "error" && result.error.cause).toBeInstanceOf(RequestTimeoutError);
  });

  it.each([
    ["not JSON", () => new Response("<html>"), /not JSON/],
    ["not a key set", () => Response.json({ items: [] }), /not a JSON Web Key Set/],
    ["a member that is not a key", () => Response.json({ keys: [42] }), /not a JSON Web Key/],
    ["a private key", () => Response.json({ keys: [{ kty: "EC", crv: "P-256", x: "a", y: "b", d: "c", kid: "k" }] }), /private key/],
    ["a redirect", () => new Response(null, { status: 302, headers: { location: "https://evil.example/jwks.json" } }), /redirect/],
  ])("an answer that is %s", async (_, answer, message) => {
    const s = service();
    const { accessToken } = await s.signIn("ada@example.com");
    const requests: Request[] = [];
    const fetch = async (request: Request) => (requests.push(request), answer());
    const result = await createAccessTokenVerifier({ projectId: DEMO_KEYS.projectId, baseUrl: s.url, fetch }).verify(accessToken);
    expect(reasonOf(result)).toBe("jwks-unavailable");
    expect(result.status === "error" && result.error.message).toMatch(message);
    expect(requests[0]).toMatchObject({ method: "GET", redirect: "manual", credentials: "omit", cache: "no-store" });
    expect([...requests[0]!.headers.keys()].filter((name) => name.startsWith("x-stack-"))).toEqual([]);
  });
});

describe("the caller", () => {
  it("can cancel the wait for the key set; the fetch goes on for others", async () => {
    const s = service();
    const { accessToken } = await s.signIn("ada@example.com");
    s.server.emulator.control.injectFault("getProjectJwks", { kind: "latency", ms: 200 });
    const { check } = verifier(s);
    const controller = new AbortController();
    const cancelled = check.verify(accessToken, { signal: controller.signal });
    const other = check.verify(accessToken);
    controller.abort();
    await expect(cancelled).rejects.toMatchObject({ name: "AbortError" });
    expect(reasonOf(await other)).toBe("ok");
    expect(s.jwksRequests).toHaveLength(1);
    await expect(check.verify(accessToken, { signal: AbortSignal.abort() })).rejects.toMatchObject({ name: "AbortError" });
  });

  it.each([
    ["no project id", {}],
    ["an empty project id", { projectId: "" }],
    ["a base URL that is not http(s)", { projectId: "p", baseUrl: "ftp://example.com" }],
    ["a negative cooldown", { projectId: "p", cooldownMs: -1 }],
    ["a zero timeout", { projectId: "p", timeoutMs: 0 }],
    ["an empty issuer list", { projectId: "p", issuer: [] }],
  ])("is told what is wrong with %s", async (_, options) => {
    expect(() => createAccessTokenVerifier(options as AccessTokenVerifierOptions)).toThrow(StackConfigurationError);
    await expect(verifyAccessToken("x.y.z", options as AccessTokenVerifierOptions)).rejects.toThrow(StackConfigurationError);
  });
});
