// getSessionFromRequest, the helper for code in front of an app, against the
// emulator: a current token is verified locally, an expired one refreshed with
// the cookies and request headers to pass on, and nothing a request holds
// makes it throw.
import { describe, expect, it } from "vitest";
import { DEMO_KEYS } from "../../emulator/index.js";
import { getSessionFromRequest, type GetSessionFromRequestOptions } from "../../runtime/sessions/adapters/index.js";
import { StackClientApp } from "../../runtime/index.js";
import { demoAppOptions, useEmulator } from "../helpers/emulator.js";
import {
  accessTokenOf,
  PAST_EXPIRY_MS,
  PROJECT_ID,
  REFRESH_COOKIE,
  refreshCount,
  setCookies,
  signedIn,
  tokenCookieHeader,
} from "./helpers.js";

const emulator = useEmulator();

function options(o: Partial<GetSessionFromRequestOptions> = {}): GetSessionFromRequestOptions {
  const e = emulator();
  return {
    projectId: PROJECT_ID,
    publishableClientKey: DEMO_KEYS.publishableClientKey,
    baseUrl: e.apiOrigin,
    fetch: e.fetch,
    now: () => e.control.now(),
    ...o,
  };
}

const request = (headers: Record<string, string>) => new Request("http://app.test/dashboard", { headers });
const operations = () =>
  emulator()
    .control.requests()
    .map((r) => r.operationId);

describe("a request with a current access token", () => {
  it("is the user's session, judged from the project's keys alone", async () => {
    const { user, tokens } = await signedIn(emulator(), "ada@example.com");
    emulator().control.clearRequests();
    const result = await getSessionFromRequest(request({ cookie: tokenCookieHeader(tokens) }), options());
    expect(result).toMatchObject({ session: { userId: user.id, projectId: PROJECT_ID }, setCookie: [], requestHeaders: null, error: null });
    expect(operations()).toEqual(["getProjectJwks"]);
  });

  it("of an anonymous user is a session too, saying so, and is not refreshed", async () => {
    const app = new StackClientApp({ ...demoAppOptions(emulator()), tokenStore: "memory" });
    const anonymous = await app.getUser({ or: "anonymous" });
    const tokens = await app.getAuthJson();
    emulator().control.clearRequests();
    const result = await getSessionFromRequest(request({ "x-stack-auth": JSON.stringify(tokens) }), options());
    expect(result).toMatchObject({ session: { userId: anonymous.id, isAnonymous: true, isRestricted: true }, setCookie: [], error: null });
    expect(operations()).not.toContain("refreshAccessToken");
  });

  it("in x-stack-auth is the session too", async () => {
    const { user, tokens } = await signedIn(emulator(), "ada@example.com");
    const result = await getSessionFromRequest(request({ "x-stack-auth": JSON.stringify(tokens) }), options());
    expect(result.session?.userId).toBe(user.id);
  });

  it("with less than 20 s to live is refreshed ahead of the app behind", async () => {
    const { tokens } = await signedIn(emulator(), "ada@example.com");
    emulator().control.advanceClock(10 * 60 * 1000 - 15_000);
    const result = await getSessionFromRequest(request({ cookie: tokenCookieHeader(tokens) }), options());
    expect(result.session).not.toBeNull();
    expect(refreshCount(emulator())).toBe(1);
    expect(accessTokenOf(setCookies(result.setCookie)["stack-access"])).not.toBe(tokens.accessToken);
  });

  it("with less than 20 s to live stays the session when the refresh fails for now", async () => {
    const { user, tokens } = await signedIn(emulator(), "ada@example.com");
    emulator().control.advanceClock(10 * 60 * 1000 - 15_000);
    const fetch = failingTokenEndpoint();
    const result = await getSessionFromRequest(request({ cookie: tokenCookieHeader(tokens) }), options({ fetch }));
    expect(result).toMatchObject({ session: { userId: user.id }, setCookie: [], error: null });
  });
});

describe("a request whose access token expired", () => {
  it("is refreshed: the session, the new cookie, and the request's cookies with it, others kept as they came", async () => {
    const { user, tokens } = await signedIn(emulator(), "ada@example.com");
    emulator().control.advanceClock(PAST_EXPIRY_MS);
    const others = ['prefs={"a":1}', "theme=dark%20mode"];
    const result = await getSessionFromRequest(request({ cookie: tokenCookieHeader(tokens, ...others) }), options());

    expect(result.session?.userId).toBe(user.id);
    expect(result.error).toBeNull();
    const cookies = setCookies(result.setCookie);
    expect(Object.keys(cookies)).toEqual(["stack-access"]);
    const accessToken = accessTokenOf(cookies["stack-access"]) as string;
    expect(accessToken).not.toBe(tokens.accessToken);
    expect(result.requestHeaders?.get("cookie")).toBe(tokenCookieHeader({ ...tokens, accessToken }, ...others));

    // The app behind, given those headers, has a current token: no second refresh.
    const behind = await getSessionFromRequest(new Request("http://app.test/", { headers: result.requestHeaders! }), options());
    expect(behind).toMatchObject({ session: { userId: user.id }, setCookie: [], requestHeaders: null });
    expect(refreshCount(emulator())).toBe(1);
  });

  it("or missing, with the refresh cookie alone, is refreshed too", async () => {
    const { user, tokens } = await signedIn(emulator(), "ada@example.com");
    const result = await getSessionFromRequest(request({ cookie: `${REFRESH_COOKIE}=${tokens.refreshToken}` }), options());
    expect(result.session?.userId).toBe(user.id);
    expect(Object.keys(setCookies(result.setCookie))).toEqual(["stack-access"]);
  });

  it("in x-stack-auth is refreshed into the forwarded x-stack-auth, with no cookies", async () => {
    const { user, tokens } = await signedIn(emulator(), "ada@example.com");
    emulator().control.advanceClock(PAST_EXPIRY_MS);
    const result = await getSessionFromRequest(request({ "x-stack-auth": JSON.stringify(tokens) }), options());
    expect(result.session?.userId).toBe(user.id);
    expect(result.setCookie).toEqual([]);
    const forwarded = JSON.parse(result.requestHeaders?.get("x-stack-auth") ?? "{}") as { accessToken: string; refreshToken: string };
    expect(forwarded.refreshToken).toBe(tokens.refreshToken);
    expect(forwarded.accessToken).not.toBe(tokens.accessToken);
  });

  it("with a refresh token the service no longer knows is no session, and its cookies are deleted", async () => {
    const { tokens } = await signedIn(emulator(), "ada@example.com");
    emulator().control.advanceClock(PAST_EXPIRY_MS);
    const dead = { ...tokens, refreshToken: `${tokens.refreshToken}x` };
    const result = await getSessionFromRequest(request({ cookie: tokenCookieHeader(dead, "theme=dark") }), options());
    expect(result).toMatchObject({ session: null, error: null });
    const cookies = setCookies(result.setCookie);
    expect(cookies[REFRESH_COOKIE]?.attributes["max-age"]).toBe("0");
    expect(cookies["stack-access"]?.attributes["max-age"]).toBe("0");
    expect(result.requestHeaders?.get("cookie")).toBe("theme=dark");
  });

  it("shares a refresh that just finished with a request verified a moment later, not one 5 s later", async () => {
    const { tokens } = await signedIn(emulator(), "ada@example.com");
    emulator().control.advanceClock(PAST_EXPIRY_MS);
    const first = await getSessionFromRequest(request({ cookie: tokenCookieHeader(tokens) }), options());
    const second = await getSessionFromRequest(request({ cookie: tokenCookieHeader(tokens) }), options());
    expect(first.session).not.toBeNull();
    expect(second.session?.userId).toBe(first.session?.userId);
    expect(refreshCount(emulator())).toBe(1);
    emulator().control.advanceClock(5_000);
    await getSessionFromRequest(request({ cookie: tokenCookieHeader(tokens) }), options());
    expect(refreshCount(emulator())).toBe(2);
  });

  it("shares one refresh among parallel requests with the same tokens", async () => {
    const { tokens } = await signedIn(emulator(), "ada@example.com");
    emulator().control.advanceClock(PAST_EXPIRY_MS);
    const results = await Promise.all(
      [1, 2, 3].map(() => getSessionFromRequest(request({ cookie: tokenCookieHeader(tokens) }), options())),
    );
    expect(results.every((r) => r.session !== null)).toBe(true);
    expect(refreshCount(emulator())).toBe(1);
  });

  it("is no session, with the failure, when the token endpoint fails", async () => {
    const { tokens } = await signedIn(emulator(), "ada@example.com");
    emulator().control.advanceClock(PAST_EXPIRY_MS);
    const result = await getSessionFromRequest(request({ cookie: tokenCookieHeader(tokens) }), options({ fetch: failingTokenEndpoint() }));
    expect(result).toMatchObject({ session: null, setCookie: [], requestHeaders: null });
    expect(result.error?.name).toBe("HttpError");
    expect(JSON.stringify({ message: result.error?.message, error: result.error })).not.toContain(tokens.refreshToken);
  });
});

describe("a request that holds no usable session", () => {
  it.each([
    ["no cookies", {}],
    ["unrelated cookies", { cookie: "theme=dark" }],
    ["an unusable refresh cookie", { cookie: `${REFRESH_COOKIE}=undefined` }],
    ["a stack-access that is not a pair", { cookie: "stack-access=%7B%7D" }],
    ["an x-stack-auth that is not JSON", { "x-stack-auth": "{nope" }],
  ])("%s: no session, nothing to write, nothing asked of the service", async (_, headers) => {
    emulator().control.clearRequests();
    expect(await getSessionFromRequest(request(headers), options())).toEqual({
      session: null,
      setCookie: [],
      requestHeaders: null,
      error: null,
    });
    expect(operations()).toEqual([]);
  });

  it("a forged access token without a refresh token: no session, and why", async () => {
    const { tokens } = await signedIn(emulator(), "ada@example.com");
    const [header, payload] = tokens.accessToken.split(".");
    const forged = `${header}.${payload}.${"A".repeat(86)}`;
    const result = await getSessionFromRequest(request({ "x-stack-auth": JSON.stringify({ accessToken: forged }) }), options());
    expect(result.session).toBeNull();
    expect(result.error).toMatchObject({ name: "AccessTokenInvalidError", reason: "signature" });
  });

  it("a forged access token with a live refresh token is replaced by a refreshed one", async () => {
    const { user, tokens } = await signedIn(emulator(), "ada@example.com");
    const [header, payload] = tokens.accessToken.split(".");
    const forged = { ...tokens, accessToken: `${header}.${payload}.${"A".repeat(86)}` };
    const result = await getSessionFromRequest(request({ cookie: tokenCookieHeader(forged) }), options());
    expect(result.session?.userId).toBe(user.id);
    expect(accessTokenOf(setCookies(result.setCookie)["stack-access"])).not.toBe(forged.accessToken);
  });

  it("when the project's keys cannot be read: no session, the reason, and no refresh", async () => {
    const { tokens } = await signedIn(emulator(), "ada@example.com");
    const fetch = async (r: Request) => (r.url.includes("jwks") ? new Response("down", { status: 503 }) : emulator().fetch(r));
    const result = await getSessionFromRequest(request({ cookie: tokenCookieHeader(tokens) }), options({ fetch }));
    expect(result).toMatchObject({ session: null, setCookie: [], error: { reason: "jwks-unavailable" } });
    expect(refreshCount(emulator())).toBe(0);
  });

  it("a token endpoint that refuses the app's keys: no session, and the service's error", async () => {
    const { tokens } = await signedIn(emulator(), "ada@example.com");
    emulator().control.advanceClock(PAST_EXPIRY_MS);
    const result = await getSessionFromRequest(
      request({ cookie: tokenCookieHeader(tokens) }),
      options({ publishableClientKey: "pck_wrong" }),
    );
    expect(result).toMatchObject({ session: null, setCookie: [], error: { code: "INVALID_OAUTH_CLIENT_ID_OR_SECRET" } });
  });

  it("Secure on the cookies of an https request", async () => {
    const { tokens } = await signedIn(emulator(), "ada@example.com");
    emulator().control.advanceClock(PAST_EXPIRY_MS);
    const https = new Request("https://app.test/", { headers: { cookie: tokenCookieHeader(tokens) } });
    const result = await getSessionFromRequest(https, options());
    expect(setCookies(result.setCookie)["stack-access"]?.attributes).toHaveProperty("secure");
  });
});

/** The emulator, except that the token endpoint answers 500. */
function failingTokenEndpoint() {
  return async (r: Request) => (r.url.endsWith("/auth/oauth/token") ? new Response("broken", { status: 500 }) : emulator().fetch(r));
}
