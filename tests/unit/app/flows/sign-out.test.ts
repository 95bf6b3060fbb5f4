// Sign-out (SPEC §4 session states, §8 "refresh token error: sign-out continues", wire contract §14).
import { describe, expect, it } from "vitest";
import { KnownErrors } from "../../../../generated/known-errors.js";
import { signOut } from "../../../../runtime/app/flows/sign-out.js";
import { isStackError } from "../../../../runtime/errors.js";
import { HttpError } from "../../../../runtime/http/request-errors.js";
import { NO_TOKENS, type TokenPair } from "../../../../runtime/sessions/tokens/store.js";
import { signedInTokens, testAppContext } from "../../../helpers/app-context.js";
import { json, jwt, knownError, type Handler } from "../../../helpers/fake-service.js";
import { rejectionOf } from "../../../helpers/outcome.js";

function app(handler: Handler, tokens: TokenPair = signedInTokens()) {
  const t = testAppContext(handler, { tokens });
  const session = t.ctx.sessions().current();
  const afterSignOut: { refreshToken: string | null }[] = [];
  const redirects = { redirectAfterSignOut: async () => void afterSignOut.push({ refreshToken: t.store!.get().refreshToken }) };
  return { ...t, session, afterSignOut, redirects };
}

describe("signOut", () => {
  it("deletes the current session on the service with the user's access token", async () => {
    const { ctx, service, store, redirects } = app(() => json({ success: true }));
    const accessToken = store!.get().accessToken;
    await signOut(ctx, {}, redirects);
    expect(service.requests.map((r) => ({ method: r.method, path: r.path, body: r.body }))).toEqual([
      { method: "DELETE", path: "/api/v1/auth/sessions/current", body: "{}" },
    ]);
    expect(service.requests[0]!.headers["x-stack-access-token"]).toBe(accessToken);
  });

  it("ends the session, clears the store, then goes to after-sign-out", async () => {
    const { ctx, store, session, redirects, afterSignOut, navigations } = app(() => json({ success: true }));
    await signOut(ctx, undefined, redirects);
    expect(session.isKnownInvalid).toBe(true);
    expect(store!.get()).toEqual(NO_TOKENS);
    expect(afterSignOut).toEqual([{ refreshToken: null }]);
    expect(navigations).toEqual([]);
  });

  it("goes to redirectUrl when given", async () => {
    const { ctx, redirects, afterSignOut, navigations } = app(() => json({ success: true }));
    await signOut(ctx, { redirectUrl: new URL("https://app.example.com/bye") }, redirects);
    expect(navigations).toEqual(["https://app.example.com/bye"]);
    expect(afterSignOut).toEqual([]);
  });

  it("clears the store even when the service answers REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED", async () => {
    const { ctx, store, session, redirects, afterSignOut } = app(() =>
      knownError(
        401,
        "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED",
        "Refresh token not found for this project, or the session has expired/been revoked.",
      ),
    );
    await signOut(ctx, {}, redirects);
    expect(session.isKnownInvalid).toBe(true);
    expect(store!.get()).toEqual(NO_TOKENS);
    expect(afterSignOut).toHaveLength(1);
  });

  it("continues when the access token is unusable (SESSION_AUTHENTICATION_ERROR family)", async () => {
    const { ctx, store, redirects, afterSignOut } = app(() => knownError(401, "UNPARSABLE_ACCESS_TOKEN", "Access token is not parsable."));
    await signOut(ctx, {}, redirects);
    expect(store!.get()).toEqual(NO_TOKENS);
    expect(afterSignOut).toHaveLength(1);
  });

  it("continues when the refresh fails with a refresh-token error before the call", async () => {
    const expired = { refreshToken: "rt-dead", accessToken: jwt({ exp: Math.floor(Date.now() / 1000) - 60 }) };
    const { ctx, service, store, redirects, afterSignOut } = app(
      (r) =>
        r.path === "/api/v1/auth/oauth/token"
          ? json(
              { code: "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED", error: "gone" },
              { status: 401, headers: { "x-stack-known-error": "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED" } },
            )
          : knownError(401, "USER_AUTHENTICATION_REQUIRED", "User authentication required for this endpoint."),
      expired,
    );
    await signOut(ctx, {}, redirects);
    expect(service.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      "POST /api/v1/auth/oauth/token",
      "DELETE /api/v1/auth/sessions/current",
    ]);
    expect(store!.get()).toEqual(NO_TOKENS);
    expect(afterSignOut).toHaveLength(1);
  });

  it("signs out an anonymous user without looking the user up first", async () => {
    const anonymous = { refreshToken: "rt-anon", accessToken: jwt({ exp: Math.floor(Date.now() / 1000) + 3600 }) };
    const { ctx, service, store, redirects, afterSignOut } = app(() => json({ success: true }), anonymous);
    await signOut(ctx, {}, redirects);
    expect(service.requests.map((r) => `${r.method} ${r.path}`)).toEqual(["DELETE /api/v1/auth/sessions/current"]);
    expect(store!.get()).toEqual(NO_TOKENS);
    expect(afterSignOut).toHaveLength(1);
  });

  it("signs out a session that has only an access token", async () => {
    const accessToken = jwt({ exp: Math.floor(Date.now() / 1000) + 3600 });
    const { ctx, service, store, redirects } = app(() => json({ success: true }), { refreshToken: null, accessToken });
    await signOut(ctx, {}, redirects);
    expect(service.requests[0]!.headers["x-stack-access-token"]).toBe(accessToken);
    expect(store!.get()).toEqual(NO_TOKENS);
  });

  it("sends nothing when no one is signed in, and still redirects", async () => {
    const { ctx, service, store, redirects, afterSignOut } = app(() => json({ success: true }), NO_TOKENS);
    await signOut(ctx, {}, redirects);
    expect(service.requests).toEqual([]);
    expect(store!.get()).toEqual(NO_TOKENS);
    expect(afterSignOut).toHaveLength(1);
  });

  it("signs out locally, then throws without redirecting, when the service fails otherwise", async () => {
    const { ctx, store, session, redirects, afterSignOut } = app(() => json({ message: "boom" }, { status: 500 }));
    const error = await rejectionOf(signOut(ctx, {}, redirects));
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).status).toBe(500);
    expect(session.isKnownInvalid).toBe(true);
    expect(store!.get()).toEqual(NO_TOKENS);
    expect(afterSignOut).toEqual([]);
  });

  it("signs out locally, then throws a known error that says nothing about the session", async () => {
    const { ctx, store, redirects, afterSignOut } = app(() =>
      knownError(401, "INVALID_PUBLISHABLE_CLIENT_KEY", "The publishable key is not valid for the project."),
    );
    expect(await rejectionOf(signOut(ctx, {}, redirects))).toBeInstanceOf(KnownErrors.InvalidPublishableClientKey);
    expect(store!.get()).toEqual(NO_TOKENS);
    expect(afterSignOut).toEqual([]);
  });

  it("needs a token store", async () => {
    const t = testAppContext(() => json({ success: true }), { tokens: null });
    const error = await rejectionOf(signOut(t.ctx, {}, { redirectAfterSignOut: async () => {} }));
    expect(isStackError(error, "StackConfigurationError")).toBe(true);
    expect(t.service.requests).toEqual([]);
  });
});

describe("signOut whatever the store holds", () => {
  it("ends a session whose stored tokens cannot be tokens without telling the service, and clears the store", async () => {
    const { ctx, service, store, redirects, afterSignOut } = app(() => json({ success: true }));
    const cleared: TokenPair[] = [];
    let held: TokenPair = { refreshToken: "undefined", accessToken: "at\n1" };
    Object.assign(store!, { get: () => held, set: (tokens: TokenPair) => void cleared.push((held = tokens)) });
    await signOut(ctx, {}, redirects);
    expect(service.requests).toEqual([]);
    expect(held).toEqual(NO_TOKENS);
    expect(cleared.at(-1)).toEqual(NO_TOKENS);
    expect(afterSignOut).toEqual([{ refreshToken: null }]);
  });

  it("clears a store that throws when read, and resolves", async () => {
    const { ctx, service, store } = app(() => json({ success: true }));
    const cleared: TokenPair[] = [];
    const afterSignOut: string[] = [];
    Object.assign(store!, {
      get: () => {
        throw new Error("storage unavailable");
      },
      set: (tokens: TokenPair) => void cleared.push(tokens),
    });
    // The app's own redirects read the store; this one does not.
    await signOut(ctx, {}, { redirectAfterSignOut: async () => void afterSignOut.push("after-sign-out") });
    expect(service.requests).toEqual([]);
    expect(cleared).toEqual([NO_TOKENS]);
    expect(afterSignOut).toEqual(["after-sign-out"]);
  });
});
