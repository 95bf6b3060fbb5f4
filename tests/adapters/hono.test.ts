// The Fetch API adapter inside a real Hono app (hono 4.13), each request
// handled through `app.request()`, against the emulator: the user read from
// the request, refreshed tokens answered as Set-Cookie, sign-out deleting them.
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { fetchRequestTokenStore } from "../../runtime/sessions/adapters/index.js";
import { useEmulator } from "../helpers/emulator.js";
import {
  accessTokenOf,
  demoServerApp,
  PAST_EXPIRY_MS,
  PROJECT_ID,
  REFRESH_COOKIE,
  refreshCount,
  setCookies,
  signedIn,
  tokenCookieHeader,
} from "./helpers.js";

const emulator = useEmulator();

function honoApp() {
  const stack = demoServerApp(emulator());
  const app = new Hono();
  app.get("/me", async (c) => {
    const tokenStore = fetchRequestTokenStore(c.req.raw, { projectId: PROJECT_ID });
    const user = await stack.getUser({ tokenStore });
    for (const line of tokenStore.setCookieHeaders()) c.header("Set-Cookie", line, { append: true });
    return c.json({ email: user?.primaryEmail ?? null });
  });
  app.post("/sign-out", async (c) => {
    const tokenStore = fetchRequestTokenStore(c.req.raw, { projectId: PROJECT_ID });
    await (await stack.getUser({ tokenStore }))?.signOut();
    for (const line of tokenStore.setCookieHeaders()) c.header("Set-Cookie", line, { append: true });
    return c.body(null, 204);
  });
  return app;
}

describe("fetchRequestTokenStore in a Hono app", () => {
  it("reads the user of the token cookies and answers no Set-Cookie when nothing changed", async () => {
    const { tokens } = await signedIn(emulator(), "ada@example.com");
    const response = await honoApp().request("/me", { headers: { cookie: tokenCookieHeader(tokens, "theme=dark") } });
    expect(await response.json()).toEqual({ email: "ada@example.com" });
    expect(response.headers.getSetCookie()).toEqual([]);
  });

  it("answers a refreshed access token as a new stack-access cookie, which the next request uses as it is", async () => {
    const { tokens } = await signedIn(emulator(), "ada@example.com");
    emulator().control.advanceClock(PAST_EXPIRY_MS);
    const app = honoApp();

    const first = await app.request("/me", { headers: { cookie: tokenCookieHeader(tokens) } });
    expect(await first.json()).toEqual({ email: "ada@example.com" });
    const cookies = setCookies(first.headers.getSetCookie());
    expect(Object.keys(cookies)).toEqual(["stack-access"]);
    const accessToken = accessTokenOf(cookies["stack-access"]) as string;
    expect(accessToken).not.toBe(tokens.accessToken);
    expect(cookies["stack-access"]?.attributes).toMatchObject({ path: "/", samesite: "Lax", "max-age": "86400" });
    expect(refreshCount(emulator())).toBe(1);

    const second = await app.request("/me", { headers: { cookie: tokenCookieHeader({ ...tokens, accessToken }) } });
    expect(await second.json()).toEqual({ email: "ada@example.com" });
    expect(second.headers.getSetCookie()).toEqual([]);
    expect(refreshCount(emulator())).toBe(1);
  });

  it("reads x-stack-auth first, and writes no cookies for its tokens even after a refresh", async () => {
    const { tokens } = await signedIn(emulator(), "ada@example.com");
    const other = await signedIn(emulator(), "bob@example.com");
    emulator().control.advanceClock(PAST_EXPIRY_MS);
    const response = await honoApp().request("/me", {
      headers: { "x-stack-auth": JSON.stringify(tokens), cookie: tokenCookieHeader(other.tokens) },
    });
    expect(await response.json()).toEqual({ email: "ada@example.com" });
    expect(refreshCount(emulator())).toBe(1);
    expect(response.headers.getSetCookie()).toEqual([]);
  });

  it("deletes both token cookies when the user signs out", async () => {
    const { tokens } = await signedIn(emulator(), "ada@example.com");
    const response = await honoApp().request("/sign-out", { method: "POST", headers: { cookie: tokenCookieHeader(tokens) } });
    expect(response.status).toBe(204);
    const cookies = setCookies(response.headers.getSetCookie());
    expect(Object.keys(cookies).sort()).toEqual(["stack-access", REFRESH_COOKIE].sort());
    for (const cookie of Object.values(cookies)) expect(cookie).toMatchObject({ value: "", attributes: { "max-age": "0" } });
  });

  it("answers no user, and no cookies, for a request without tokens or with broken ones", async () => {
    const app = honoApp();
    for (const cookie of ["", "stack-access=garbage", `${REFRESH_COOKIE}=undefined`]) {
      const response = await app.request("/me", { headers: { cookie } });
      expect(await response.json()).toEqual({ email: null });
      expect(response.headers.getSetCookie()).toEqual([]);
    }
  });

  it("deletes the cookies of a refresh token the service no longer knows", async () => {
    const { tokens } = await signedIn(emulator(), "ada@example.com");
    emulator().control.advanceClock(PAST_EXPIRY_MS);
    const dead = { ...tokens, refreshToken: `${tokens.refreshToken}x` };
    const response = await honoApp().request("/me", { headers: { cookie: tokenCookieHeader(dead) } });
    expect(await response.json()).toEqual({ email: null });
    const cookies = setCookies(response.headers.getSetCookie());
    expect(cookies[REFRESH_COOKIE]?.attributes["max-age"]).toBe("0");
    expect(cookies["stack-access"]?.attributes["max-age"]).toBe("0");
  });
});
