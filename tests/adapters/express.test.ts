// The Node adapter inside a real Express app (express 5.3) and a bare
// `node:http` server, each listening on 127.0.0.1 and called with fetch,
// against the emulator: cookie writes land on the response as Set-Cookie.
import express from "express";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { nodeRequestTokenStore } from "../../runtime/sessions/adapters/index.js";
import type { StackServerApp } from "../../runtime/index.js";
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
const servers: Server[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

async function listen(server: Server): Promise<string> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function expressApp(stack: StackServerApp) {
  const app = express();
  app.get("/me", async (req, res) => {
    const user = await stack.getUser({ tokenStore: nodeRequestTokenStore(req, res, { projectId: PROJECT_ID }) });
    res.json({ email: user?.primaryEmail ?? null });
  });
  app.post("/sign-out", async (req, res) => {
    const user = await stack.getUser({ tokenStore: nodeRequestTokenStore(req, res, { projectId: PROJECT_ID }) });
    await user?.signOut();
    res.status(204).end();
  });
  // A cookie the app sets itself stays beside the token cookies.
  app.get("/me-with-theme", async (req, res) => {
    res.cookie("theme", "dark");
    const user = await stack.getUser({ tokenStore: nodeRequestTokenStore(req, res, { projectId: PROJECT_ID }) });
    res.json({ email: user?.primaryEmail ?? null });
  });
  return app;
}

describe("nodeRequestTokenStore in an Express app", () => {
  it("reads the user of the token cookies, with no Set-Cookie when nothing changed", async () => {
    const { tokens } = await signedIn(emulator(), "ada@example.com");
    const url = await listen(createServer(expressApp(demoServerApp(emulator()))));
    const response = await fetch(`${url}/me`, { headers: { cookie: tokenCookieHeader(tokens) } });
    expect(await response.json()).toEqual({ email: "ada@example.com" });
    expect(response.headers.getSetCookie()).toEqual([]);
  });

  it("writes a refreshed access token to the response, next to the app's own cookies", async () => {
    const { tokens } = await signedIn(emulator(), "ada@example.com");
    emulator().control.advanceClock(PAST_EXPIRY_MS);
    const url = await listen(createServer(expressApp(demoServerApp(emulator()))));
    const response = await fetch(`${url}/me-with-theme`, { headers: { cookie: tokenCookieHeader(tokens) } });
    expect(await response.json()).toEqual({ email: "ada@example.com" });
    const cookies = setCookies(response.headers.getSetCookie());
    expect(Object.keys(cookies).sort()).toEqual(["stack-access", "theme"]);
    expect(accessTokenOf(cookies["stack-access"])).not.toBe(tokens.accessToken);
    expect(refreshCount(emulator())).toBe(1);
  });

  it("deletes both token cookies at sign-out", async () => {
    const { tokens } = await signedIn(emulator(), "ada@example.com");
    const url = await listen(createServer(expressApp(demoServerApp(emulator()))));
    const response = await fetch(`${url}/sign-out`, { method: "POST", headers: { cookie: tokenCookieHeader(tokens) } });
    expect(response.status).toBe(204);
    const cookies = setCookies(response.headers.getSetCookie());
    expect(cookies[REFRESH_COOKIE]?.attributes["max-age"]).toBe("0");
    expect(cookies["stack-access"]?.attributes["max-age"]).toBe("0");
  });

  it("reads x-stack-auth first and writes no cookies for it", async () => {
    const { tokens } = await signedIn(emulator(), "ada@example.com");
    emulator().control.advanceClock(PAST_EXPIRY_MS);
    const url = await listen(createServer(expressApp(demoServerApp(emulator()))));
    const response = await fetch(`${url}/me`, { headers: { "x-stack-auth": JSON.stringify(tokens) } });
    expect(await response.json()).toEqual({ email: "ada@example.com" });
    expect(response.headers.getSetCookie()).toEqual([]);
  });

  it("marks cookies Secure when a proxy in front says https", async () => {
    const { tokens } = await signedIn(emulator(), "ada@example.com");
    emulator().control.advanceClock(PAST_EXPIRY_MS);
    const url = await listen(createServer(expressApp(demoServerApp(emulator()))));
    const response = await fetch(`${url}/me`, { headers: { cookie: tokenCookieHeader(tokens), "x-forwarded-proto": "https" } });
    expect(setCookies(response.headers.getSetCookie())["stack-access"]?.attributes).toHaveProperty("secure");
  });
});

describe("nodeRequestTokenStore on a bare node:http server", () => {
  it("writes the refreshed cookie with setHeader, and nothing once the headers are sent", async () => {
    const { tokens } = await signedIn(emulator(), "ada@example.com");
    emulator().control.advanceClock(PAST_EXPIRY_MS);
    const stack = demoServerApp(emulator());
    const late: string[][] = [];
    const url = await listen(
      createServer(async (req: IncomingMessage, res: ServerResponse) => {
        if (req.url === "/late") {
          res.writeHead(200, { "content-type": "text/plain" });
          const tokenStore = nodeRequestTokenStore(req, res, { projectId: PROJECT_ID });
          const user = await stack.getUser({ tokenStore });
          late.push(tokenStore.setCookieHeaders());
          res.end(user?.primaryEmail ?? "");
          return;
        }
        const user = await stack.getUser({ tokenStore: nodeRequestTokenStore(req, res, { projectId: PROJECT_ID }) });
        res.end(user?.primaryEmail ?? "");
      }),
    );
    const response = await fetch(`${url}/`, { headers: { cookie: tokenCookieHeader(tokens) } });
    expect(await response.text()).toBe("ada@example.com");
    expect(Object.keys(setCookies(response.headers.getSetCookie()))).toEqual(["stack-access"]);

    const streamed = await fetch(`${url}/late`, { headers: { cookie: tokenCookieHeader(tokens) } });
    expect(await streamed.text()).toBe("ada@example.com");
    expect(streamed.headers.getSetCookie()).toEqual([]);
    expect(late[0]).toHaveLength(1);
  });
});
