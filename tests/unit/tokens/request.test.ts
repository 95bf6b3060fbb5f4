import { describe, expect, it } from "vitest";
import { createRequestTokenStore } from "../../../runtime/sessions/tokens/request.js";
import type { TokenPair } from "../../../runtime/sessions/tokens/store.js";

const projectId = "proj-1";

function request(headers: Record<string, string>): { headers: Headers } {
  return { headers: new Headers(headers) };
}

describe("createRequestTokenStore", () => {
  it("reads x-stack-auth", () => {
    const store = createRequestTokenStore(request({ "x-stack-auth": '{"accessToken":"at-1","refreshToken":"rt-1"}' }), projectId);
    expect(store.get()).toEqual({ refreshToken: "rt-1", accessToken: "at-1" });
  });

  it("prefers x-stack-auth to the cookies", () => {
    const store = createRequestTokenStore(
      request({ "x-stack-auth": '{"accessToken":"at-h","refreshToken":"rt-h"}', cookie: "stack-refresh-proj-1=rt-c" }),
      projectId,
    );
    expect(store.get()).toEqual({ refreshToken: "rt-h", accessToken: "at-h" });
  });

  it("reads a missing x-stack-auth token as null", () => {
    const store = createRequestTokenStore(request({ "x-stack-auth": '{"accessToken":"at-1"}' }), projectId);
    expect(store.get()).toEqual({ refreshToken: null, accessToken: "at-1" });
  });

  // The header comes from the browser: whatever it holds must not make the server throw.
  it.each(['{"accessToken":"secret-at"', '["secret-at","secret-rt"]', '"secret-at"', "null", "", '{"accessToken":["secret-at"]}'])(
    "reads the malformed x-stack-auth header %j as no user",
    (header) => {
      const store = createRequestTokenStore(request({ "x-stack-auth": header, cookie: "stack-refresh-proj-1=rt-c" }), projectId);
      expect(store.get()).toEqual({ refreshToken: null, accessToken: null });
    },
  );

  it.each([
    ['{"accessToken":"undefined","refreshToken":"rt-1"}', { refreshToken: "rt-1", accessToken: null }],
    ['{"accessToken":"at-1","refreshToken":"undefined"}', { refreshToken: null, accessToken: null }],
    ['{"accessToken":"null","refreshToken":null}', { refreshToken: null, accessToken: null }],
    ['{"accessToken":"at\\u20ac","refreshToken":"rt-1"}', { refreshToken: "rt-1", accessToken: null }],
    ['{"accessToken":"at-1","refreshToken":"rt\\n1"}', { refreshToken: null, accessToken: null }],
    ['{"accessToken":"at 1"}', { refreshToken: null, accessToken: null }],
  ])("reads the x-stack-auth header %s without its unusable tokens", (header, tokens) => {
    expect(createRequestTokenStore(request({ "x-stack-auth": header }), projectId).get()).toEqual(tokens);
  });

  it.each([
    ["stack-refresh-proj-1=undefined", { refreshToken: null, accessToken: null }],
    ["stack-refresh-proj-1=%E2%82%AC", { refreshToken: null, accessToken: null }],
    ["stack-refresh-proj-1=rt-1; stack-access=undefined", { refreshToken: "rt-1", accessToken: null }],
    ["stack-refresh-proj-1=rt-1; stack-access=%5B%22rt-1%22%2C%22at%0A1%22%5D", { refreshToken: "rt-1", accessToken: null }],
    ["stack-refresh-proj-1=rt-1; stack-access=[1,2]", { refreshToken: "rt-1", accessToken: null }],
    ["stack-refresh-proj-1=rt-1; stack-access=not json", { refreshToken: "rt-1", accessToken: null }],
  ])("reads the cookies %s without their unusable tokens", (cookie, tokens) => {
    expect(createRequestTokenStore(request({ cookie }), projectId).get()).toEqual(tokens);
  });

  it("falls back to the cookie header", () => {
    const store = createRequestTokenStore(request({ cookie: "other=1; stack-refresh-proj-1=rt-1" }), projectId);
    expect(store.get()).toEqual({ refreshToken: "rt-1", accessToken: null });
  });

  it("decodes the stack-access pair: the access token is its second element", () => {
    const store = createRequestTokenStore(
      request({ cookie: "stack-refresh-proj-1=rt-1; stack-access=%5B%22rt-1%22%2C%22at-1%22%5D" }),
      projectId,
    );
    expect(store.get().accessToken).toBe("at-1");
  });

  it("ignores a stack-access pair made for another refresh token", () => {
    const store = createRequestTokenStore(request({ cookie: 'stack-refresh-proj-1=rt-1; stack-access=["rt-2","at-2"]' }), projectId);
    expect(store.get()).toEqual({ refreshToken: "rt-1", accessToken: null });
  });

  it("falls back to the legacy stack-refresh cookie", () => {
    const store = createRequestTokenStore(request({ cookie: 'stack-refresh=legacy-rt; stack-access=["legacy-rt","at-1"]' }), projectId);
    expect(store.get()).toEqual({ refreshToken: "legacy-rt", accessToken: "at-1" });
  });

  it("has no tokens for a request without either header", () => {
    expect(createRequestTokenStore(request({}), projectId).get()).toEqual({ refreshToken: null, accessToken: null });
  });

  it("keeps set() tokens in memory and tells subscribers", () => {
    const store = createRequestTokenStore(request({ cookie: "stack-refresh-proj-1=rt-1" }), projectId);
    const told: TokenPair[] = [];
    store.subscribe((tokens) => told.push(tokens));
    store.set({ refreshToken: "rt-1", accessToken: "at-new" });
    expect(store.get()).toEqual({ refreshToken: "rt-1", accessToken: "at-new" });
    expect(told).toEqual([{ refreshToken: "rt-1", accessToken: "at-new" }]);
  });
});
