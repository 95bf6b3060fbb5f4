import { describe, expect, it } from "vitest";
import { createRequestTokenStore } from "../../../runtime/tokens/request.js";
import type { StoredTokens } from "../../../runtime/tokens/store.js";
import { thrownBy } from "../../helpers/outcome.js";

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

  it.each([
    ['{"accessToken":"secret-at"', "Invalid x-stack-auth header: it is not valid JSON."],
    ['["secret-at","secret-rt"]', "Invalid x-stack-auth header: expected a JSON object, got an array."],
    ['"secret-at"', "Invalid x-stack-auth header: expected a JSON object, got a string."],
    ["null", "Invalid x-stack-auth header: expected a JSON object, got null."],
    ['{"accessToken":["secret-at"]}', "Invalid x-stack-auth header: accessToken must be a string or null, got an array."],
  ])("rejects the x-stack-auth header %s without quoting it", (header, message) => {
    const error = thrownBy(() => createRequestTokenStore(request({ "x-stack-auth": header }), projectId));
    expect(error.message).toBe(message);
    expect(error.message).not.toContain("secret");
    expect(error.cause).toBeUndefined();
  });

  it('rejects an x-stack-auth token that is the string "undefined"', () => {
    const error = thrownBy(() =>
      createRequestTokenStore(request({ "x-stack-auth": '{"accessToken":"undefined","refreshToken":"rt-1"}' }), projectId),
    );
    expect(error.message).toBe(
      'The access token from the x-stack-auth header is the string "undefined", usually an environment variable that is not set. Pass null when there is no access token.',
    );
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
    const told: StoredTokens[] = [];
    store.subscribe((tokens) => told.push(tokens));
    store.set({ refreshToken: "rt-1", accessToken: "at-new" });
    expect(store.get()).toEqual({ refreshToken: "rt-1", accessToken: "at-new" });
    expect(told).toEqual([{ refreshToken: "rt-1", accessToken: "at-new" }]);
  });
});
