// The example Next.js App Router app (examples/next-app), built with Next 16
// and with Next 15 and served with `next start` on 127.0.0.1, against an
// emulator started here: the real `cookies()` of `next/headers` in a server
// component and in route handlers, and the middleware on Next's edge runtime.
// next-build.ts says how the app is built.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_KEYS } from "../../emulator/index.js";
import { startEmulatorServer, type EmulatorServer } from "../../emulator/server.js";
import { documentChecker, TEST_PASSWORD } from "../helpers/emulator.js";
import { accessTokenOf, PROJECT_ID, REFRESH_COOKIE, setCookies, tokenCookieHeader, type Tokens } from "./helpers.js";
import { serveExample, type NextMajor, type ServedExample } from "./next-build.js";

/** The JSON twin of the refresh cookie; `__Host-` since the example's cookies are Secure. */
const DEFAULT_REFRESH_COOKIE = `__Host-${REFRESH_COOKIE}--default`;

const MINUTE = 60_000;
const EMAIL = "ada@example.com";

/** Where a redirect goes (Next answers some with a relative Location). */
function locationOf(response: Response): URL {
  return new URL(response.headers.get("location") ?? "", response.url);
}

/** The `cookie` header a browser sends back after these `Set-Cookie` lines (deleted cookies left out). */
function cookiesFrom(lines: readonly string[]): string {
  return lines
    .map((line) => line.split(";")[0] ?? "")
    .filter((pair) => !pair.endsWith("="))
    .join("; ");
}

describe.each([16, 15] as const satisfies readonly NextMajor[])("the Next.js example built with Next %i", (major) => {
  const checker = documentChecker();
  let api: EmulatorServer;
  let app: ServedExample;
  /** A session whose access token expired before the app started. */
  let stale: Tokens;

  /** The app's answer; a server error fails the test with what the server logged. */
  const answer = async (path: string, init: RequestInit) => {
    const response = await fetch(`${app.url}${path}`, { ...init, redirect: "manual" });
    if (response.status >= 500)
      throw new Error(`${init.method ?? "GET"} ${path} answered ${response.status}; the server logged:\n${app.serverLog()}`);
    return response;
  };
  const get = (path: string, headers: Record<string, string> = {}) => answer(path, { headers });
  const post = (path: string, form: Record<string, string>, headers: Record<string, string> = {}) =>
    answer(path, { method: "POST", body: new URLSearchParams(form), headers });
  const refreshes = () => api.emulator.control.requests().filter((r) => r.operationId === "exchangeOAuthToken").length;

  beforeAll(async () => {
    // Tokens made on a clock 20 minutes behind are expired once it catches up.
    api = await startEmulatorServer({ port: 0, startTimeMs: Date.now() - 20 * MINUTE, onExchange: checker.onExchange });
    const user = await api.emulator.control.createUser({ projectId: PROJECT_ID, email: EMAIL, password: TEST_PASSWORD });
    stale = await api.emulator.control.createSession(user.id);
    api.emulator.control.advanceClock(20 * MINUTE);
    app = await serveExample(major, {
      STACK_API_URL: api.url,
      STACK_PROJECT_ID: PROJECT_ID,
      STACK_PUBLISHABLE_CLIENT_KEY: DEMO_KEYS.publishableClientKey,
      STACK_SECRET_SERVER_KEY: DEMO_KEYS.secretServerKey,
    });
  }, 180_000);

  afterAll(async () => {
    await app?.stop();
    await api?.close();
    expect(checker.violations).toEqual([]);
  });

  it("the home page, a server component, shows nobody without cookies", async () => {
    const response = await get("/");
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('data-testid="signed-out"');
  });

  it("signing in through the route handler sets the token cookies through Next's cookies()", async () => {
    const response = await post("/api/sign-in", { email: EMAIL, password: TEST_PASSWORD, after_auth_return_to: "/dashboard" });
    expect(response.status).toBe(303);
    expect(locationOf(response).pathname).toBe("/dashboard");
    const cookies = setCookies(response.headers.getSetCookie());
    // The plain cookie, which every official SDK reads (2.8.108 when none of its own hexclave cookies is there),
    // and its JSON twin, where the official SDKs since 2.8.49 keep a host's session.
    expect(Object.keys(cookies)).toEqual([REFRESH_COOKIE, DEFAULT_REFRESH_COOKIE, "stack-access"]);
    expect(cookies[REFRESH_COOKIE]?.attributes).toMatchObject({ path: "/", "max-age": "31536000", samesite: "lax" });
    expect(JSON.parse(decodeURIComponent(cookies[DEFAULT_REFRESH_COOKIE]!.value)).refresh_token).toBe(cookies[REFRESH_COOKIE]?.value);
    expect(JSON.parse(cookies["stack-access"]!.value)[0]).toBe(cookies[REFRESH_COOKIE]?.value);

    const dashboard = await get("/dashboard", { cookie: cookiesFrom(response.headers.getSetCookie()) });
    expect(dashboard.status).toBe(200);
    expect(await dashboard.text()).toContain(EMAIL);
    expect(dashboard.headers.getSetCookie()).toEqual([]);
  });

  it("a wrong password goes back to the form, with no cookies", async () => {
    const response = await post("/api/sign-in", { email: EMAIL, password: "wrong password" });
    expect(response.status).toBe(303);
    expect(locationOf(response).searchParams.get("error")).toBe("EMAIL_PASSWORD_MISMATCH");
    expect(response.headers.getSetCookie()).toEqual([]);
  });

  it("the middleware sends a request without a session to the sign-in page, and back afterwards", async () => {
    const response = await get("/dashboard?tab=1");
    expect(response.status).toBe(307);
    const location = locationOf(response);
    expect(location.pathname).toBe("/sign-in");
    expect(location.searchParams.get("after_auth_return_to")).toBe("/dashboard?tab=1");
  });

  it("the middleware refreshes an expired token once: the new cookie in the answer, the page behind on the new token", async () => {
    api.emulator.control.clearRequests();
    const response = await get("/dashboard", { cookie: tokenCookieHeader(stale, "theme=dark") });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain(EMAIL);
    const cookies = setCookies(response.headers.getSetCookie());
    expect(Object.keys(cookies)).toEqual(["stack-access"]);
    expect(accessTokenOf(cookies["stack-access"])).not.toBe(stale.accessToken);
    // The server component saw the middleware's token: it did not refresh again.
    expect(refreshes()).toBe(1);
  });

  it("the home page reads the user of an expired token, refreshing for its render only (Next forbids the write)", async () => {
    api.emulator.control.clearRequests();
    const response = await get("/", { cookie: tokenCookieHeader(stale) });
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('data-testid="signed-in"');
    expect(html).toContain(EMAIL);
    expect(response.headers.getSetCookie()).toEqual([]);
    expect(refreshes()).toBe(1);
  });

  it("a route handler refreshes an expired token and writes the new cookie through cookies()", async () => {
    const response = await get("/api/me", { cookie: tokenCookieHeader(stale) });
    expect(await response.json()).toMatchObject({ user: { primaryEmail: EMAIL } });
    const cookies = setCookies(response.headers.getSetCookie());
    expect(Object.keys(cookies)).toEqual(["stack-access"]);
    expect(accessTokenOf(cookies["stack-access"])).not.toBe(stale.accessToken);
  });

  it("signing out ends the session and deletes the token cookies; the middleware then turns it away", async () => {
    const signIn = await post("/api/sign-in", { email: EMAIL, password: TEST_PASSWORD });
    const cookie = cookiesFrom(signIn.headers.getSetCookie());
    const response = await post("/api/sign-out", {}, { cookie });
    expect(response.status).toBe(303);
    expect(locationOf(response).pathname).toBe("/");
    const cookies = setCookies(response.headers.getSetCookie());
    expect(Object.keys(cookies).sort()).toEqual(["stack-access", REFRESH_COOKIE, DEFAULT_REFRESH_COOKIE].sort());
    for (const deleted of Object.values(cookies)) expect(deleted).toMatchObject({ value: "", attributes: { "max-age": "0" } });

    // The refresh token is revoked: with an expired access token beside it, the middleware finds no session and deletes the cookies.
    const refreshToken = setCookies(signIn.headers.getSetCookie())[REFRESH_COOKIE]!.value;
    const after = await get("/dashboard", { cookie: tokenCookieHeader({ refreshToken, accessToken: stale.accessToken }) });
    expect(after.status).toBe(307);
    expect(setCookies(after.headers.getSetCookie())[REFRESH_COOKIE]?.attributes["max-age"]).toBe("0");
  });
});
