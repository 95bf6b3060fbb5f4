// Command-line login as each version plays it (apps/backend/src/app/api/latest/auth/cli/{route,poll/route,
// complete/route}.tsx at 829dc5948 and HEAD): 2.8.86 lets the tool start with its own anonymous session
// (`anon_refresh_token`), which the browser can see (`mode: check`) and take over once (`claim-anon-session`), and
// checks the refresh token that completes the login; 2.8.11 knows neither field and stores what it is given.
import { describe, expect, it } from "vitest";
import { INTERNAL_KEYS, serviceOf, signUp, type Service } from "./harness.js";

const start = (service: Service, body: Record<string, unknown> = {}) => service.call("POST", "/auth/cli", { body });
const complete = (service: Service, body: Record<string, unknown>) => service.call("POST", "/auth/cli/complete", { body });
const poll = (service: Service, polling_code: string) => service.call("POST", "/auth/cli/poll", { body: { polling_code } });

async function anonymous(service: Service) {
  const answer = await service.call("POST", "/auth/anonymous/sign-up", { body: {} });
  expect(answer.status).toBe(200);
  return answer.body as { access_token: string; refresh_token: string; user_id: string };
}

describe("command-line login on 2.8.86", () => {
  it("a tool that starts with an anonymous session: the browser sees it, claims it once, and its tokens are that user's", async () => {
    const service = await serviceOf("2.8.86");
    const tool = await anonymous(service);
    const attempt = await start(service, { anon_refresh_token: tool.refresh_token });
    expect(attempt.status).toBe(200);
    const check = await complete(service, { login_code: attempt.body.login_code, mode: "check" });
    expect([check.status, check.body]).toEqual([200, { cli_session_state: "anonymous" }]);
    const claimed = await complete(service, { login_code: attempt.body.login_code, mode: "claim-anon-session" });
    expect([claimed.status, claimed.body.refresh_token]).toEqual([200, tool.refresh_token]);
    const me = await service.call("GET", "/users/me", {
      token: claimed.body.access_token,
      headers: { "x-stack-allow-anonymous-user": "true" },
    });
    expect([me.status, me.body.id, me.body.is_anonymous]).toEqual([200, tool.user_id, true]);
    const again = await complete(service, { login_code: attempt.body.login_code, mode: "claim-anon-session" });
    expect([again.status, again.body]).toEqual([400, "No anonymous session associated with this code"]);
    expect((await complete(service, { login_code: attempt.body.login_code, mode: "check" })).body).toEqual({ cli_session_state: "none" });
  });

  it("a tool without one: check says none; completing checks the refresh token, and the poll hands it over", async () => {
    const service = await serviceOf("2.8.86");
    const attempt = await start(service);
    expect((await complete(service, { login_code: attempt.body.login_code, mode: "check" })).body).toEqual({ cli_session_state: "none" });
    const missing = await complete(service, { login_code: attempt.body.login_code });
    expect([missing.status, missing.body]).toEqual([400, "refresh_token is required when mode is 'complete'"]);
    const unknown = await complete(service, { login_code: attempt.body.login_code, refresh_token: "not-a-session" });
    expect([unknown.status, unknown.body]).toEqual([400, "Invalid refresh token"]);
    const user = await signUp(service, "ada@example.com");
    const done = await complete(service, { login_code: attempt.body.login_code, refresh_token: user.refreshToken });
    expect([done.status, done.body]).toEqual([200, { success: true }]);
    const polled = await poll(service, attempt.body.polling_code);
    expect([polled.status, polled.body]).toEqual([201, { status: "success", refresh_token: user.refreshToken }]);
  });

  it("refuses an anon_refresh_token that is not an anonymous user's session of the project", async () => {
    const service = await serviceOf("2.8.86");
    const unknown = await start(service, { anon_refresh_token: "nope" });
    expect([unknown.status, unknown.body]).toEqual([400, "Invalid anon refresh token"]);
    const user = await signUp(service, "ada@example.com");
    const normal = await start(service, { anon_refresh_token: user.refreshToken });
    expect([normal.status, normal.body]).toEqual([400, "The provided refresh token does not belong to an anonymous user"]);
  });
});

describe("command-line login on 2.8.11", () => {
  it("knows neither anon_refresh_token nor mode, requires the refresh token, and stores it unchecked", async () => {
    const service = await serviceOf("2.8.11");
    const withAnon = await start(service, { anon_refresh_token: "x" });
    expect([withAnon.status, withAnon.body.details?.message]).toEqual([
      400,
      "Request validation failed on POST /api/v1/auth/cli:\n  - body contains unknown properties: anon_refresh_token",
    ]);
    const attempt = await start(service);
    const withMode = await complete(service, { login_code: attempt.body.login_code, mode: "check" });
    expect([withMode.status, withMode.body.code]).toEqual([400, "SCHEMA_ERROR"]);
    const without = await complete(service, { login_code: attempt.body.login_code });
    expect([without.status, without.body.details?.message]).toEqual([
      400,
      "Request validation failed on POST /api/v1/auth/cli/complete:\n  - body.refresh_token must be defined",
    ]);
    const done = await complete(service, { login_code: attempt.body.login_code, refresh_token: "anything" });
    expect([done.status, done.body]).toEqual([200, { success: true }]);
    // A code of another project is found, and refused for it.
    const internal = await service.call("POST", "/auth/cli", { keys: INTERNAL_KEYS, body: {} });
    const mismatch = await complete(service, { login_code: internal.body.login_code, refresh_token: "anything" });
    expect([mismatch.status, mismatch.body]).toEqual([400, "Project ID mismatch; please ensure that you are using the correct app url."]);
  });
});

describe.each(["2.8.11", "2.8.86"] as const)("another project's login code on %s", (version) => {
  it("is refused with the version's plain-text 400: 2.8.11 finds it and says the project differs, 2.8.86 does not find it", async () => {
    const service = await serviceOf(version);
    const user = await signUp(service, "ada@example.com");
    const internal = await service.call("POST", "/auth/cli", { keys: INTERNAL_KEYS, body: {} });
    const answer = await complete(service, { login_code: internal.body.login_code, refresh_token: user.refreshToken });
    expect([answer.status, answer.body]).toEqual([
      400,
      version === "2.8.11"
        ? "Project ID mismatch; please ensure that you are using the correct app url."
        : "Invalid login code or the code has expired",
    ]);
  });
});
