// The shortcuts each call takes (issue 13 §5) and what they must not change:
// the token store read as it holds now, tokens refreshed only when one is due,
// headers sent as the runtime and the app set them,
// fresh nonces, an abort honoured up to the moment of sending, and shared reads
// forgotten once answered.
import "../../helpers/lazy-modules.js";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createStackClient, type StackClientOptions } from "../../../runtime/http/client.js";
import { platformEnvironment } from "../../../runtime/platform/env.js";
import { requestEvent, type RequestEvent } from "../../../runtime/http/observe.js";
import { SessionManager } from "../../../runtime/sessions/session.js";
import { sendWithRetries, type TransportPolicy } from "../../../runtime/http/transport.js";
import { createMemoryTokenStore } from "../../../runtime/sessions/tokens/memory.js";
import { NO_TOKENS, type TokenPair, type TokenStore } from "../../../runtime/sessions/tokens/store.js";
import { answerAsDocumented } from "../../helpers/documented-answers.js";
import { fakeService, json, jwt, testEnvironment, useFakeClock, type Handler } from "../../helpers/fake-service.js";
import { rejectionOf } from "../../helpers/outcome.js";

const inSeconds = (s: number) => Math.floor(Date.now() / 1000) + s;

function setup(handler: Handler = answerAsDocumented, options: Partial<StackClientOptions> = {}) {
  const service = fakeService(handler);
  const { env } = testEnvironment(service.fetch);
  const client = createStackClient({
    projectId: "proj-1",
    publishableClientKey: "pck-1",
    tokenStore: createMemoryTokenStore({ refreshToken: "rt-1", accessToken: jwt({ exp: inSeconds(3600) }) }),
    environment: env,
    ...options,
  });
  return { service, client };
}

beforeEach(() => useFakeClock());
afterEach(() => vi.useRealTimers());

describe("the token store", () => {
  it("is read as it holds now, even when it changes the pair it hands back in place", async () => {
    const first = jwt({ exp: inSeconds(3600) });
    const second = jwt({ exp: inSeconds(7200) });
    const pair: { refreshToken: string | null; accessToken: string | null } = { refreshToken: "rt-1", accessToken: first };
    const store: TokenStore = { get: () => pair, set: () => {}, subscribe: () => () => {} };
    const { service, client } = setup(answerAsDocumented, { tokenStore: store });
    await client.api.GET("/projects/current");
    pair.accessToken = second;
    await client.api.GET("/projects/current");
    pair.refreshToken = null;
    pair.accessToken = null;
    await client.api.GET("/projects/current");
    expect(service.requests.map((r) => r.headers["x-stack-access-token"])).toEqual([first, second, undefined]);
  });
});

describe("a session's tokens for a request (getTokens)", () => {
  function sessionOf(tokens: TokenPair) {
    const refreshes: string[] = [];
    const { env } = testEnvironment(async () => json({}));
    const manager = new SessionManager(createMemoryTokenStore(tokens), env, async (refreshToken) => {
      refreshes.push(refreshToken);
      return jwt({ exp: inSeconds(3600) });
    });
    return { session: manager.current(), refreshes };
  }

  it("are the tokens when the access token has at least 20 s left, with no refresh", async () => {
    const tokens = { refreshToken: "rt-1", accessToken: jwt({ exp: inSeconds(21) }) };
    const { session, refreshes } = sessionOf(tokens);
    expect(await session.getTokens()).toEqual(tokens);
    expect(refreshes).toEqual([]);
  });

  it("are refreshed once when less than 20 s are left, and the refreshed pair is kept", async () => {
    const { session, refreshes } = sessionOf({ refreshToken: "rt-1", accessToken: jwt({ exp: inSeconds(19) }) });
    const refreshed = await session.getTokens();
    expect(refreshes).toEqual(["rt-1"]);
    expect(await session.getTokens()).toEqual(refreshed);
    expect(refreshes).toEqual(["rt-1"]);
  });

  it("are the access token as it is when there is no refresh token", async () => {
    const tokens = { refreshToken: null, accessToken: jwt({ exp: inSeconds(5) }) };
    const { session, refreshes } = sessionOf(tokens);
    expect(await session.getTokens()).toEqual(tokens);
    expect(refreshes).toEqual([]);
  });

  it("are null once the session is invalid", async () => {
    const { session } = sessionOf({ refreshToken: "rt-1", accessToken: jwt({ exp: inSeconds(3600) }) });
    session.invalidate();
    expect(await session.getTokens()).toBeNull();
  });

  it("are refreshed for an access token the service rejected, however long it has left", async () => {
    const tokens = { refreshToken: "rt-1", accessToken: jwt({ exp: inSeconds(1800) }) };
    const { session, refreshes } = sessionOf(tokens);
    session.markAccessTokenExpired(tokens.accessToken);
    const refreshed = await session.getTokens();
    expect(refreshes).toEqual(["rt-1"]);
    expect(refreshed?.accessToken).not.toBe(tokens.accessToken);
  });
});

describe("the headers sent", () => {
  it("take the app's extra headers over the runtime's own whatever their case", async () => {
    const { service, client } = setup(answerAsDocumented, { extraRequestHeaders: { "X-Stack-Client-Version": "js my-app@1.0.0" } });
    await client.api.GET("/projects/current");
    expect(service.requests[0]!.headers["x-stack-client-version"]).toBe("js my-app@1.0.0");
  });

  it("include an extra header whatever its name, __proto__ included", async () => {
    const extra = JSON.parse('{"__proto__": "p-1", "x-trace": "t-1"}') as Record<string, string>;
    const { service, client } = setup(answerAsDocumented, { extraRequestHeaders: extra });
    await client.api.GET("/projects/current");
    const sent = service.requests[0]!.headers;
    expect(Object.getOwnPropertyDescriptor(sent, "__proto__")?.value).toBe("p-1");
    expect(sent["x-trace"]).toBe("t-1");
  });

  it("carry a different nonce on every request, made 32 at a time from one draw of random bytes", async () => {
    const service = fakeService(answerAsDocumented);
    const draws: number[] = [];
    const { env } = testEnvironment(service.fetch, {
      randomBytes: (length) => {
        draws.push(length);
        return globalThis.crypto.getRandomValues(new Uint8Array(length));
      },
    });
    const client = createStackClient({ projectId: "proj-1", tokenStore: null, environment: env });
    for (let i = 0; i < 70; i++) await client.api.GET("/projects/current");
    const nonces = service.requests.map((r) => r.headers["x-stack-random-nonce"]);
    expect(new Set(nonces).size).toBe(70);
    for (const nonce of nonces) expect(nonce).toMatch(/^[a-z2-7]{45}$/);
    expect(draws).toEqual([28 * 32, 28 * 32, 28 * 32]);
  });

  it("are shown to hooks by name, in order, every value that could be secret redacted", async () => {
    const events: RequestEvent[] = [];
    const { client } = setup(answerAsDocumented, { onRequest: (event) => events.push(event) });
    await client.api.GET("/projects/current", { headers: { "x-a-first": "1" } });
    const names = Object.keys(events[0]!.headers);
    expect(names).toEqual([...names].sort());
    expect(events[0]!.headers).toMatchObject({
      "x-a-first": "[redacted]",
      "x-stack-project-id": "proj-1",
      "x-stack-access-token": "[redacted]",
    });
  });

  it("are shown alike to hooks whether held as a Headers or as plain fields", () => {
    const fields = { "x-stack-project-id": "proj-1", "content-type": "application/json", "x-stack-access-token": "at-1" };
    const url = "https://api.stack-auth.com/api/v1/teams";
    const asHeaders = requestEvent({ url, method: "POST", headers: new Headers(fields) }, "createTeam", 1);
    const asFields = requestEvent({ url, method: "POST", headers: fields }, "createTeam", 1);
    expect(asFields).toEqual(asHeaders);
    expect(Object.keys(asFields.headers)).toEqual(Object.keys(asHeaders.headers));
  });
});

describe("an attempt", () => {
  const policy: TransportPolicy = { requestTimeoutMs: 1_000, maxRetryAfterMs: 60_000, hooks: {} };
  const outgoing = { url: "https://api.stack-auth.com/api/v1/users/me", method: "GET", headers: {}, body: null };

  it("is sent once made", async () => {
    const service = fakeService(() => json({ ok: true }));
    const { env } = testEnvironment(service.fetch);
    const answer = await sendWithRetries(env, policy, async () => outgoing, {
      resendable: true,
      describe: "GET me",
      operationId: undefined,
    });
    expect(answer.status).toBe(200);
    expect(service.requests).toHaveLength(1);
  });

  it("whose call is aborted while it is being made is not sent", async () => {
    const service = fakeService(() => json({ ok: true }));
    const { env } = testEnvironment(service.fetch);
    const controller = new AbortController();
    const reason = new Error("left");
    const made = rejectionOf(
      sendWithRetries(
        env,
        policy,
        async () => {
          controller.abort(reason);
          return outgoing;
        },
        { resendable: true, describe: "GET me", operationId: undefined, signal: controller.signal },
      ),
    );
    expect(await made).toBe(reason);
    expect(service.requests).toEqual([]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("that cannot be made fails as it failed, without a retry", async () => {
    const service = fakeService(() => json({ ok: true }));
    const { env } = testEnvironment(service.fetch);
    const failure = new TypeError("not a header value");
    let made = 0;
    const error = await rejectionOf(
      sendWithRetries(
        env,
        policy,
        () => {
          made++;
          throw failure;
        },
        { resendable: true, describe: "GET me", operationId: undefined },
      ),
    );
    expect(error).toBe(failure);
    expect(made).toBe(1);
    expect(service.requests).toEqual([]);
  });

  it("goes through the platform's fetch with the request's URL, headers and safe settings", async () => {
    const seen: { url: string; init: RequestInit | undefined }[] = [];
    const spy = vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
      seen.push({ url: String(input), init });
      return json({ ok: true });
    });
    try {
      const headers = { "x-stack-project-id": "proj-1" };
      await sendWithRetries(platformEnvironment, { ...policy, requestTimeoutMs: 0 }, async () => ({ ...outgoing, headers }), {
        resendable: true,
        describe: "GET me",
        operationId: undefined,
      });
      expect(seen).toHaveLength(1);
      expect(seen[0]!.url).toBe(outgoing.url);
      expect(seen[0]!.init).toMatchObject({ method: "GET", headers, cache: "no-store", credentials: "omit", redirect: "manual" });
      expect(seen[0]!.init?.signal).toBeInstanceOf(AbortSignal);
    } finally {
      spy.mockRestore();
    }
  });
});

describe("a shared read", () => {
  it("is forgotten once answered: the same read afterwards is sent again", async () => {
    const { service, client } = setup();
    await client.api.GET("/projects/current");
    await client.api.GET("/projects/current");
    expect(service.requests).toHaveLength(2);
  });

  it("is forgotten once it failed, and a failure nobody waits for any more is not left unhandled", async () => {
    let fail = true;
    // A 400 without a known error: an answer no failover sends elsewhere.
    const { service, client } = setup((r) => (fail ? json({ message: "bad" }, { status: 400 }) : answerAsDocumented(r)));
    const controller = new AbortController();
    const left = rejectionOf(client.api.GET("/projects/current", { signal: controller.signal }));
    controller.abort();
    await left;
    const before = service.requests.length;
    const failed = await rejectionOf(client.api.GET("/projects/current"));
    expect((failed as Error).name).toBe("HttpError");
    expect(service.requests).toHaveLength(before + 1);
    fail = false;
    expect((await client.api.GET("/projects/current")).response.status).toBe(200);
    expect(service.requests).toHaveLength(before + 2);
  });
});

describe("a store that cannot even be read", () => {
  it("still signs out", () => {
    const store: TokenStore = {
      get: () => {
        throw new Error("unreadable");
      },
      set: vi.fn(),
      subscribe: () => () => {},
    };
    const { env } = testEnvironment(async () => json({}));
    const manager = new SessionManager(store, env, async () => null);
    expect(() => manager.signOut()).not.toThrow();
    expect(store.set).toHaveBeenCalledWith(NO_TOKENS);
  });
});
