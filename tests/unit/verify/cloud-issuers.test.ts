// The hosted service's two names (issue 31 §2): it answers as api.stack-auth.com
// and as api.hexclave.com (and their dev and staging twins) and writes the host a
// request came through into `iss`, so a verifier of either base URL accepts the
// tokens of both names, for each kind of user; a self-hosted service keeps exactly
// its own issuer; 2.8.11's global issuer keeps working where it did.
import { describe, expect, it } from "vitest";
import { StackClientApp } from "../../../runtime/app/client-app.js";
import { StackServerApp } from "../../../runtime/app/server-app.js";
import type { AccessTokenInvalidReason, AccessTokenVerification } from "../../../runtime/sessions/verify/index.js";
import { createAccessTokenVerifier } from "../../../runtime/sessions/verify/index.js";
import { fakeService, GLOBAL_ISSUER, issuerOf, PROJECT, type FakeService, type Kind } from "./versions.js";

const PAIRS = [
  ["https://api.stack-auth.com", "https://api.hexclave.com"],
  ["https://api.dev.stack-auth.com", "https://api.dev.hexclave.com"],
  ["https://api.staging.stack-auth.com", "https://api.staging.hexclave.com"],
] as const;
const KINDS: readonly Kind[] = ["normal", "restricted", "anonymous"];
const SELF_HOSTED = "https://auth.example.com";

/** The verifier of an app whose base URL is the service's, accepting every kind of user. */
const verifier = (service: FakeService) =>
  createAccessTokenVerifier({ projectId: PROJECT, baseUrl: service.baseUrl, fetch: service.fetch, allowAnonymous: true });

function outcome(result: AccessTokenVerification): "ok" | { reason: AccessTokenInvalidReason; message: string } {
  return result.status === "ok" ? "ok" : { reason: result.error.reason, message: result.error.message };
}

const issuerRefusal = (issuers: readonly string[]) => ({
  reason: "issuer",
  message: `The access token was not issued by ${issuers.join(" or ")} (its \`iss\`). If the API is reached through a proxy, set \`issuer\`.`,
});

describe.each(PAIRS.flatMap(([stack, hexclave]) => [[stack, hexclave] as const, [hexclave, stack] as const]))(
  "an app whose baseUrl is %s",
  (baseUrl, sibling) => {
    it.each(KINDS)("accepts a %s user's token issued under its own name and under %s's twin", async (kind) => {
      const service = fakeService("2.8.86", { baseUrl });
      const check = verifier(service);
      expect(outcome(await check.verify(await service.token({ kind })))).toBe("ok");
      expect(outcome(await check.verify(await service.token({ kind, issuer: issuerOf(sibling, PROJECT, kind) })))).toBe("ok");
    });

    it("still accepts 2.8.11's global issuer with the project's audience", async () => {
      const service = fakeService("2.8.11", { baseUrl });
      expect(outcome(await verifier(service).verify(await service.token()))).toBe("ok");
    });

    it("refuses a foreign issuer, naming the three it accepts", async () => {
      const service = fakeService("2.8.86", { baseUrl });
      const foreign = await service.token({ issuer: issuerOf("https://api.example.net", PROJECT, "normal") });
      expect(outcome(await verifier(service).verify(foreign))).toEqual(
        issuerRefusal([issuerOf(baseUrl, PROJECT, "normal"), issuerOf(sibling, PROJECT, "normal"), GLOBAL_ISSUER]),
      );
    });
  },
);

describe("an app of a self-hosted service", () => {
  it.each(KINDS)("accepts a %s user's token of its own issuer only, not the hosted service's names", async (kind) => {
    const service = fakeService("2.8.86", { baseUrl: SELF_HOSTED });
    const check = verifier(service);
    expect(outcome(await check.verify(await service.token({ kind })))).toBe("ok");
    const own = kind === "normal" ? [issuerOf(SELF_HOSTED, PROJECT, kind), GLOBAL_ISSUER] : [issuerOf(SELF_HOSTED, PROJECT, kind)];
    for (const hosted of ["https://api.hexclave.com", "https://api.stack-auth.com"]) {
      const token = await service.token({ kind, issuer: issuerOf(hosted, PROJECT, kind) });
      expect(outcome(await check.verify(token))).toEqual(issuerRefusal(own));
    }
  });

  it("refuses a foreign issuer with the error it gave before the hosted service had two names", async () => {
    const service = fakeService("2.8.86", { baseUrl: SELF_HOSTED });
    const foreign = await service.token({ issuer: issuerOf("https://api.example.net", PROJECT, "normal") });
    expect(outcome(await verifier(service).verify(foreign))).toEqual({
      reason: "issuer",
      message: `The access token was not issued by ${SELF_HOSTED}/api/v1/projects/${PROJECT} or https://access-token.jwt-signature.stack-auth.com (its \`iss\`). If the API is reached through a proxy, set \`issuer\`.`,
    });
  });
});

describe("an issuer given to the verifier", () => {
  it("is taken as it is: the hosted service's other name is not added to it", async () => {
    const service = fakeService("2.8.86", { baseUrl: "https://api.stack-auth.com" });
    const check = createAccessTokenVerifier({
      projectId: PROJECT,
      baseUrl: service.baseUrl,
      issuer: issuerOf("https://api.stack-auth.com", PROJECT, "normal"),
      fetch: service.fetch,
    });
    expect(outcome(await check.verify(await service.token()))).toBe("ok");
    const hexclave = await service.token({ issuer: issuerOf("https://api.hexclave.com", PROJECT, "normal") });
    expect(outcome(await check.verify(hexclave))).toEqual(
      issuerRefusal([issuerOf("https://api.stack-auth.com", PROJECT, "normal"), GLOBAL_ISSUER]),
    );
  });
});

describe("the apps", () => {
  it("StackServerApp on https://api.hexclave.com verifies a token issued through api.stack-auth.com, for every kind of user", async () => {
    const service = fakeService("2.8.86", { baseUrl: "https://api.hexclave.com" });
    const app = new StackServerApp({
      projectId: PROJECT,
      publishableClientKey: "pck_test",
      secretServerKey: "ssk_test",
      baseUrl: service.baseUrl,
      tokenStore: null,
      noAutomaticPrefetch: true,
      environment: { fetch: service.fetch },
    });
    for (const kind of KINDS) {
      const token = await service.token({ kind, userId: `user-${kind}`, issuer: issuerOf("https://api.stack-auth.com", PROJECT, kind) });
      const result = await app.verifyAccessToken(token, { allowAnonymous: true });
      expect(result.status === "ok" && [result.data.userId, result.data.isAnonymous, result.data.isRestricted]).toEqual([
        `user-${kind}`,
        kind === "anonymous",
        kind !== "normal",
      ]);
    }
  });

  it("getPartialUser of an app on https://api.stack-auth.com reads a token issued through api.hexclave.com", async () => {
    const service = fakeService("2.8.86", { baseUrl: "https://api.stack-auth.com" });
    const accessToken = await service.token({ userId: "user-1", issuer: issuerOf("https://api.hexclave.com", PROJECT, "normal") });
    const app = new StackClientApp({
      projectId: PROJECT,
      publishableClientKey: "pck_test",
      baseUrl: service.baseUrl,
      tokenStore: { accessToken, refreshToken: null },
      noAutomaticPrefetch: true,
      redirectMethod: "none",
      environment: { fetch: service.fetch },
    });
    expect(await app.getPartialUser({ from: "token" })).toMatchObject({ id: "user-1", primaryEmail: "ada@example.com" });
    expect(service.requests).toEqual([]);
  });
});
