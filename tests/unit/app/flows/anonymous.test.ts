// Anonymous sign-up (SPEC §4 user retrieval; wire contract §14: no sticky rejection).
import { describe, expect, it } from "vitest";
import { KnownErrors } from "../../../../generated/known-errors.js";
import { createAnonymousSignUp, signUpAnonymously } from "../../../../runtime/app/flows/anonymous.js";
import { isStackError } from "../../../../runtime/errors.js";
import { HttpError } from "../../../../runtime/http/request-errors.js";
import { NO_TOKENS } from "../../../../runtime/sessions/tokens/store.js";
import { testAppContext } from "../../../helpers/app-context.js";
import { json, jwt, knownError } from "../../../helpers/fake-service.js";
import { rejectionOf } from "../../../helpers/outcome.js";

const ANON_ACCESS = jwt({ exp: Math.floor(Date.now() / 1000) + 600 });
const issued = () => json({ access_token: ANON_ACCESS, refresh_token: "rt-anon", user_id: "user-anon" });

describe("signUpAnonymously", () => {
  it("posts to /auth/anonymous/sign-up without a body", async () => {
    const { ctx, service } = testAppContext(issued, { tokens: NO_TOKENS });
    await signUpAnonymously(ctx);
    expect(service.requests.map((r) => ({ method: r.method, path: r.path, body: r.body }))).toEqual([
      { method: "POST", path: "/api/v1/auth/anonymous/sign-up", body: "" },
    ]);
    expect(service.requests[0]!.headers["x-stack-refresh-token"]).toBeUndefined();
  });

  it("stores the new user's tokens", async () => {
    const { ctx, store } = testAppContext(issued, { tokens: NO_TOKENS });
    await signUpAnonymously(ctx);
    expect(store!.get()).toEqual({ refreshToken: "rt-anon", accessToken: ANON_ACCESS });
  });

  it("throws ANONYMOUS_ACCOUNTS_NOT_ENABLED", async () => {
    const { ctx, store } = testAppContext(
      () => knownError(400, "ANONYMOUS_ACCOUNTS_NOT_ENABLED", "Anonymous accounts are not enabled for this project."),
      {
        tokens: NO_TOKENS,
      },
    );
    expect(await rejectionOf(signUpAnonymously(ctx))).toBeInstanceOf(KnownErrors.AnonymousAccountsNotEnabled);
    expect(store!.get()).toEqual(NO_TOKENS);
  });

  it("needs a token store, and creates no user without one", async () => {
    const { ctx, service } = testAppContext(issued, { tokens: null });
    expect(isStackError(await rejectionOf(signUpAnonymously(ctx)), "StackConfigurationError")).toBe(true);
    expect(service.requests).toEqual([]);
  });
});

describe("createAnonymousSignUp", () => {
  it("signs up once for 10 concurrent callers", async () => {
    const { ctx, service, store } = testAppContext(issued, { tokens: NO_TOKENS });
    const signUp = createAnonymousSignUp(ctx);
    const results = await Promise.all(Array.from({ length: 10 }, () => signUp()));
    expect(results).toEqual(Array.from({ length: 10 }, () => undefined));
    expect(service.requests).toHaveLength(1);
    expect(store!.get()).toEqual({ refreshToken: "rt-anon", accessToken: ANON_ACCESS });
  });

  it("fails every concurrent caller with the one failure, then retries on the next call", async () => {
    let calls = 0;
    const { ctx, service, store } = testAppContext(() => (++calls === 1 ? json({ message: "unavailable" }, { status: 503 }) : issued()), {
      tokens: NO_TOKENS,
    });
    const signUp = createAnonymousSignUp(ctx);
    const failures = await Promise.all(Array.from({ length: 10 }, () => rejectionOf(signUp())));
    expect(new Set(failures).size).toBe(1);
    expect(failures[0]).toBeInstanceOf(HttpError);
    expect(service.requests).toHaveLength(1);
    expect(store!.get()).toEqual(NO_TOKENS);

    await signUp();
    expect(service.requests).toHaveLength(2);
    expect(store!.get()).toEqual({ refreshToken: "rt-anon", accessToken: ANON_ACCESS });
  });

  it("starts a new sign-up once the previous one has settled", async () => {
    const { ctx, service } = testAppContext(issued, { tokens: NO_TOKENS });
    const signUp = createAnonymousSignUp(ctx);
    await signUp();
    await signUp();
    expect(service.requests).toHaveLength(2);
  });

  it("keeps separate guards for separate apps", async () => {
    const a = testAppContext(issued, { tokens: NO_TOKENS });
    const b = testAppContext(issued, { tokens: NO_TOKENS });
    await Promise.all([createAnonymousSignUp(a.ctx)(), createAnonymousSignUp(b.ctx)()]);
    expect([a.service.requests.length, b.service.requests.length]).toEqual([1, 1]);
  });
});
