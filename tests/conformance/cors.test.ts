// The service's CORS answer: its middleware (apps/backend/src/middleware.tsx at
// 2.8.11, src/proxy.tsx at 2.8.86) puts the same headers on every answer under
// /api/, preflights included, whatever route or error answered. A browser sends
// a request only when every header it carries is in the version's own list, so
// the emulator answers each version's list word for word: an app that works on
// the emulator's 2.8.11 profile works behind a real 2.8.11 service.
import { describe, expect, it } from "vitest";
import { serviceOf, SERVICE_VERSIONS, type ServiceVersion } from "./harness.js";

const ALLOWED_2_8_11 =
  "content-type, authorization, x-stack-project-id, x-stack-override-error-status, x-stack-random-nonce, " +
  "x-stack-client-version, x-stack-disable-artificial-development-delay, x-stack-access-type, " +
  "x-stack-publishable-client-key, x-stack-secret-server-key, x-stack-super-secret-admin-key, " +
  "x-stack-admin-access-token, x-stack-refresh-token, x-stack-access-token, baggage, sentry-trace, " +
  "x-vercel-protection-bypass";

const ALLOWED_2_8_86 =
  "content-type, authorization, x-stack-project-id, x-stack-branch-id, x-stack-override-error-status, " +
  "x-stack-random-nonce, x-stack-client-version, x-stack-disable-artificial-development-delay, x-stack-access-type, " +
  "x-stack-publishable-client-key, x-stack-secret-server-key, x-stack-super-secret-admin-key, " +
  "x-stack-admin-access-token, x-stack-refresh-token, x-stack-access-token, x-stack-allow-anonymous-user, baggage, " +
  "sentry-trace, x-vercel-protection-bypass, ngrok-skip-browser-warning";

const EXPECTED: Record<ServiceVersion, Record<string, string | null>> = {
  "2.8.11": {
    "access-control-allow-origin": "*",
    "access-control-allow-methods": "GET, POST, PUT, PATCH, DELETE, OPTIONS",
    "access-control-allow-headers": ALLOWED_2_8_11,
    "access-control-expose-headers": "content-type, x-stack-actual-status, x-stack-known-error",
    "access-control-max-age": "86400",
    vary: null,
  },
  "2.8.86": {
    "access-control-allow-origin": "*",
    "access-control-allow-methods": "GET, POST, PUT, PATCH, DELETE, OPTIONS",
    "access-control-allow-headers": ALLOWED_2_8_86,
    "access-control-expose-headers": "content-type, x-stack-actual-status, x-stack-known-error",
    "access-control-max-age": "86400",
    vary: ALLOWED_2_8_86,
  },
};

const corsOf = (headers: Headers) => Object.fromEntries(Object.keys(EXPECTED["2.8.11"]).map((name) => [name, headers.get(name)]));

describe.each(SERVICE_VERSIONS)("the CORS answer of %s", (version) => {
  it("answers a preflight under /api/ 204 with the version's own lists, on any path", async () => {
    const service = await serviceOf(version);
    for (const path of ["/api/v1/users/me", "/api/v1/no-such-route", "/api/latest/teams"]) {
      const answer = await service.emulator.fetch(
        new Request(`${service.emulator.apiOrigin}${path}`, {
          method: "OPTIONS",
          headers: {
            origin: "https://app.example.com",
            "access-control-request-method": "PATCH",
            "access-control-request-headers": "x-stack-project-id",
          },
        }),
      );
      expect([path, answer.status, corsOf(answer.headers)]).toEqual([path, 204, EXPECTED[version]]);
    }
  });

  it("puts the same headers on every answer: a success, a known error, the catch-all 404 and the framework's 405", async () => {
    const service = await serviceOf(version);
    const answers = [
      await service.call("GET", "/projects/current"),
      await service.call("GET", "/users/me", { token: "not-a-token" }),
      await service.call("GET", "/no-such-route"),
      await service.call("PUT", "/users/me"),
    ];
    expect(answers.map((a) => a.status)).toEqual([200, 401, 404, 405]);
    for (const answer of answers) expect(corsOf(answer.headers)).toEqual(EXPECTED[version]);
    service.expectViolations(/no-such-route|PUT \/api\/v1\/users\/me 405/);
  });

  it("allows the anonymous-user header only from 2.8.86, and the restricted-user header never", async () => {
    const service = await serviceOf(version);
    const allowed = (await service.call("GET", "/projects/current")).headers.get("access-control-allow-headers")!.split(", ");
    expect([allowed.includes("x-stack-allow-anonymous-user"), allowed.includes("x-stack-allow-restricted-user")]).toEqual([
      version !== "2.8.11",
      false,
    ]);
  });
});
