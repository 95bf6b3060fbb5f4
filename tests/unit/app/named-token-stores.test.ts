// The token stores a call names by their string (`getUser({ tokenStore: "memory" })`), and an
// app made with "nextjs-cookie" where there are no cookies to reach (a server): as in the
// official SDK, "memory" is the app's one memory store, and "nextjs-cookie" on a server fails
// where the app's own store is read, not when the app is made.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import "../../helpers/lazy-modules.js";
import { StackClientApp } from "../../../runtime/app/client-app.js";
import { StackServerApp } from "../../../runtime/app/server-app.js";
import { isStackError } from "../../../runtime/errors.js";
import { createMemoryTokenStore } from "../../../runtime/sessions/tokens/memory.js";
import { answerAsDocumented, documentedExample, wireTokens, wireUser } from "../../helpers/documented-answers.js";
import { fakeService, json, jwt, testEnvironment, useFakeClock, type Handler } from "../../helpers/fake-service.js";
import { rejectionOf } from "../../helpers/outcome.js";

const inAnHour = () => Math.floor(Date.now() / 1000) + 3600;
const NEXTJS_COOKIE_ON_A_SERVER =
  'The "nextjs-cookie" token store works only in a browser, as "cookie": stackkit cannot reach Next.js\'s cookies() by itself. ' +
  "On a server, pass the request (anything with headers.get, e.g. a Request), " +
  "or await nextCookiesTokenStore(cookies, { projectId }) with cookies from next/headers.";

/** The service: sign-in and anonymous sign-up answer `accessToken` and rt-1; /users/me user-1, anonymous or not. */
function service(accessToken: string, anonymous = false): Handler {
  return (request) => {
    if (request.path === "/api/v1/auth/password/sign-in" || request.path === "/api/v1/auth/anonymous/sign-up") {
      return json(wireTokens({ access_token: accessToken, refresh_token: "rt-1" }));
    }
    if (request.path === "/api/v1/users/me") return json(wireUser({ id: "user-1", is_anonymous: anonymous }));
    return answerAsDocumented(request);
  };
}

function clientApp(handler: Handler, tokenStore: ConstructorParameters<typeof StackClientApp>[0]["tokenStore"]) {
  const fake = fakeService(handler);
  const { env } = testEnvironment(fake.fetch);
  const app = new StackClientApp({ projectId: "proj-1", publishableClientKey: "pck-1", tokenStore, environment: env, browser: null });
  return { app, requests: fake.requests };
}

beforeEach(() => useFakeClock());
afterEach(() => vi.useRealTimers());

describe('tokenStore: "memory" named per call', () => {
  it("is the app's own session when the app was made with it: the user signed in there, without another request", async () => {
    const accessToken = jwt({ exp: inAnHour() });
    const { app, requests } = clientApp(service(accessToken), "memory");
    await app.signInWithCredential({ email: "ada@example.com", password: "pw", noRedirect: true });
    expect(await app.getAccessToken({ tokenStore: "memory" })).toBe(accessToken);
    expect(await app.getRefreshToken({ tokenStore: "memory" })).toBe("rt-1");
    expect((await app.getUser({ tokenStore: "memory" }))?.id).toBe("user-1");
    expect(requests.map((r) => r.path)).toEqual([
      "/api/v1/auth/password/sign-in",
      "/api/v1/users/me",
      "/api/v1/users/me",
      "/api/v1/users/me",
    ]);
  });

  it("is one memory store of the app's, kept from call to call, when the app was made with another store", async () => {
    const { app, requests } = clientApp(service(jwt({ exp: inAnHour() }), true), createMemoryTokenStore());
    expect(await app.getUser({ tokenStore: "memory" })).toBeNull();
    const anonymous = await app.getUser({ tokenStore: "memory", or: "anonymous" });
    const again = await app.getUser({ tokenStore: "memory", or: "anonymous-if-exists" });
    expect(again?.id).toBe(anonymous.id);
    expect(requests.filter((r) => r.path === "/api/v1/auth/anonymous/sign-up")).toHaveLength(1);
    // The app's own store was never written.
    expect(await app.getUser()).toBeNull();
  });
});

describe('tokenStore: "nextjs-cookie" on a server (no document)', () => {
  function serverApp(handler: Handler) {
    const fake = fakeService(handler);
    const { env } = testEnvironment(fake.fetch);
    const app = new StackServerApp({
      projectId: "proj-1",
      publishableClientKey: "pck-1",
      secretServerKey: "ssk-1",
      tokenStore: "nextjs-cookie",
      environment: env,
      browser: null,
    });
    return { app, requests: fake.requests };
  }

  it("makes the app, whose calls that need no user go without user tokens", async () => {
    const { app, requests } = serverApp(answerAsDocumented);
    await app.getProject();
    expect(requests).toHaveLength(1);
    expect(requests[0]!.headers["x-stack-access-token"]).toBeUndefined();
    expect(requests[0]!.headers["x-stack-refresh-token"]).toBeUndefined();
  });

  it("rejects getUser() on the app's own store, saying what a server passes instead, and sends nothing", async () => {
    const { app, requests } = serverApp(answerAsDocumented);
    const error = await rejectionOf(app.getUser());
    expect(isStackError(error, "StackConfigurationError")).toBe(true);
    expect((error as Error).message).toBe(NEXTJS_COOKIE_ON_A_SERVER);
    expect(requests).toHaveLength(0);
  });

  it("reads the user of a request's cookies passed per call", async () => {
    const accessToken = jwt({ exp: inAnHour() });
    const { app, requests } = serverApp((request) =>
      request.path === "/api/v1/users/me" ? json(documentedExample("ServerUser", { id: "user-1" })) : answerAsDocumented(request),
    );
    const refresh = encodeURIComponent(JSON.stringify({ refresh_token: "rt-a", updated_at_millis: Date.now() }));
    const access = encodeURIComponent(JSON.stringify(["rt-a", accessToken]));
    const request = { headers: new Headers({ cookie: `stack-refresh-proj-1--default=${refresh}; stack-access=${access}` }) };
    const user = await app.getUser({ tokenStore: request });
    expect(user?.id).toBe("user-1");
    expect(requests.map((r) => [r.path, r.headers["x-stack-access-token"]])).toEqual([["/api/v1/users/me", accessToken]]);
  });

  it("answers null for a request without token cookies", async () => {
    const { app, requests } = serverApp(answerAsDocumented);
    expect(await app.getUser({ tokenStore: { headers: new Headers({ cookie: "" }) } })).toBeNull();
    expect(requests).toHaveLength(0);
  });
});
