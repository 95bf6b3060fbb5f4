// serverApp.getUser() for the request's user (issue #6; SPEC §4 "User
// retrieval"; wire contract §8): the tokens of the app or of a request, the
// `or` options, and what only the user's own session does.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import "../../../helpers/lazy-modules.js";
import { isStackError, UserNotSignedInError } from "../../../../runtime/errors.js";
import { SessionEndedError } from "../../../../runtime/app/bound-session.js";
import { signedInTokens } from "../../../helpers/app-context.js";
import { answerAsDocumented, wireTokens } from "../../../helpers/documented-answers.js";
import { json, jwt, knownError, useFakeClock, type Handler } from "../../../helpers/fake-service.js";
import { rejectionOf } from "../../../helpers/outcome.js";
import { routes, sent, setup, USER, USER_ID } from "./setup.js";
import { settleOnFakeTime } from "../../../helpers/outcome.js";

const inAnHour = () => Math.floor(Date.now() / 1000) + 3600;
const requestWith = (headers: Record<string, string>) => new Request("https://app.example.com/api/things", { headers });
/** The service answers GET /users/me for requests that carry an access token. */
const me: Handler = (r) =>
  r.headers["x-stack-access-token"] ? json(USER) : knownError(400, "CANNOT_GET_OWN_USER_WITHOUT_USER", "No user.");

const settle = settleOnFakeTime;

beforeEach(() => useFakeClock());
afterEach(() => vi.useRealTimers());

describe("whose user", () => {
  it("reads the user of a request's x-stack-auth header with a server request", async () => {
    const accessToken = jwt({ exp: inAnHour() });
    const { app, service } = setup(me);
    const user = await app.getUser({
      tokenStore: requestWith({ "x-stack-auth": JSON.stringify({ accessToken, refreshToken: "rt-req" }) }),
    });
    expect(sent(service)).toEqual([{ method: "GET", path: "/users/me" }]);
    expect(service.requests[0]!.headers).toMatchObject({
      "x-stack-access-token": accessToken,
      "x-stack-secret-server-key": "ssk-1",
      "x-stack-access-type": "server",
    });
    expect(user).toMatchObject({ id: USER_ID, lastActiveAt: new Date(USER.last_active_at_millis), serverMetadata: {} });
    expect(await user!.currentSession.getTokens()).toEqual({ accessToken, refreshToken: "rt-req" });
  });

  it("reads the user of a request's cookies, decoding the stack-access pair", async () => {
    const accessToken = jwt({ exp: inAnHour() });
    const cookie = `stack-refresh-proj-1=rt-c; stack-access=${encodeURIComponent(JSON.stringify(["rt-c", accessToken]))}`;
    const { app, service } = setup(me);
    expect((await app.getUser({ tokenStore: requestWith({ cookie }) }))?.id).toBe(USER_ID);
    expect(service.requests[0]!.headers["x-stack-access-token"]).toBe(accessToken);
  });

  it("reads the user of the app's own token store without options", async () => {
    const tokens = signedInTokens("rt-app");
    const { app, service } = setup(me, { tokens });
    expect((await app.getUser())?.id).toBe(USER_ID);
    expect(service.requests[0]!.headers["x-stack-access-token"]).toBe(tokens.accessToken);
  });

  it("takes an explicit { accessToken, refreshToken } pair", async () => {
    const accessToken = jwt({ exp: inAnHour() });
    const { app, service } = setup(me);
    expect((await app.getUser({ tokenStore: { accessToken, refreshToken: "rt-pair" } }))?.id).toBe(USER_ID);
    expect(service.requests[0]!.headers["x-stack-access-token"]).toBe(accessToken);
  });

  it("names the tokenStore option when there is none", async () => {
    const { app } = setup(me);
    const error = await rejectionOf(app.getUser({ tokenStore: null }));
    expect(isStackError(error, "StackConfigurationError")).toBe(true);
    expect(String(error)).toMatch(/tokenStore/);
  });
});

describe("when nobody is signed in", () => {
  it("returns null without a request for a request without tokens", async () => {
    const { app, service } = setup(me);
    expect(await app.getUser({ tokenStore: requestWith({}) })).toBeNull();
    expect(service.requests).toHaveLength(0);
  });

  it("returns null when the service says the tokens have no user", async () => {
    const { app } = setup(() => knownError(400, "CANNOT_GET_OWN_USER_WITHOUT_USER", "No user."), { tokens: signedInTokens() });
    expect(await app.getUser()).toBeNull();
  });

  it("with or: 'throw' fails with the spec's message", async () => {
    const { app } = setup(me);
    await expect(app.getUser({ or: "throw" })).rejects.toThrow(
      new UserNotSignedInError("User is not signed in but getUser was called with { or: 'throw' }"),
    );
  });

  it("with or: 'redirect' goes to sign-in, then resolves null, as the reference does", async () => {
    const { app, navigations } = setup(me);
    await expect(settle(app.getUser({ or: "redirect" }))).resolves.toBeNull();
    expect(navigations).toEqual(["/handler/sign-in"]);
  });

  it("counts an anonymous user as signed out unless anonymous access is asked for", async () => {
    const { app } = setup(() => json({ ...USER, is_anonymous: true }), { tokens: signedInTokens() });
    expect(await app.getUser()).toBeNull();
    expect(await app.getUser({ or: "anonymous-if-exists" })).toMatchObject({ isAnonymous: true });
  });

  it("with or: 'anonymous' signs up into the request's session, not the app's store", async () => {
    const tokens = { access_token: jwt({ exp: inAnHour(), sub: "anon" }), refresh_token: "rt-anon" };
    const { app, service, store } = setup((r) =>
      r.path === "/api/v1/auth/anonymous/sign-up" ? json(wireTokens({ ...tokens, user_id: USER_ID })) : me(r),
    );
    const user = await app.getUser({ or: "anonymous", tokenStore: requestWith({}) });
    expect(user).toMatchObject({ id: USER_ID });
    expect(sent(service).map((r) => `${r.method} ${r.path}`)).toEqual(["POST /auth/anonymous/sign-up", "GET /users/me"]);
    expect(await user.currentSession.getTokens()).toEqual({ accessToken: tokens.access_token, refreshToken: "rt-anon" });
    expect(store.get()).toEqual({ refreshToken: null, accessToken: null });
    // Another caller without tokens does not get that anonymous user.
    expect(await app.getUser({ tokenStore: requestWith({}) })).toBeNull();
  });
});

describe("the current server user", () => {
  // Equal pairs share one session (explicit token stores are cached), so each test has its own.
  let n = 0;
  const pair = () => ({ accessToken: jwt({ exp: inAnHour() }), refreshToken: `rt-cur-${++n}` });
  /** The service knows the user of a token on /users/me and answers everything else as documented. */
  const meOrSuccess: Handler = (r) => (r.path === "/api/v1/users/me" ? me(r) : answerAsDocumented(r));

  it("acts on itself with server requests by id, without the user's tokens", async () => {
    const { app, service } = setup(meOrSuccess);
    const user = await app.getUser({ tokenStore: pair(), or: "throw" });
    service.requests.length = 0;
    await user.setServerMetadata({ plan: "pro" });
    await user.leaveTeam({ id: USER.selected_team_id! });
    expect(sent(service).map((r) => `${r.method} ${r.path}`)).toEqual([
      `PATCH /users/${USER_ID}`,
      `DELETE /team-memberships/${USER.selected_team_id}/${USER_ID}`,
    ]);
    for (const r of service.requests) {
      expect(r.headers["x-stack-access-token"]).toBeUndefined();
      expect(r.headers).toMatchObject({ "x-stack-secret-server-key": "ssk-1", "x-stack-access-type": "server" });
    }
  });

  it("updatePassword goes through the user's own session", async () => {
    const tokens = pair();
    const { app, service } = setup(meOrSuccess);
    const user = await app.getUser({ tokenStore: tokens, or: "throw" });
    service.requests.length = 0;
    expect(await user.updatePassword({ oldPassword: "old", newPassword: "new" })).toBeUndefined();
    expect(sent(service)).toEqual([{ method: "POST", path: "/auth/password/update", body: { old_password: "old", new_password: "new" } }]);
    expect(service.requests[0]!.headers["x-stack-access-token"]).toBe(tokens.accessToken);
  });

  it("delete deletes the user by id and ends the user's session", async () => {
    const { app, service, store } = setup(routes({ "GET /users/me": () => json(USER) }), { tokens: signedInTokens() });
    const user = await app.getUser({ or: "throw" });
    service.requests.length = 0;
    await user.delete();
    expect(sent(service)).toEqual([{ method: "DELETE", path: `/users/${USER_ID}`, body: {} }]);
    expect(store.get()).toEqual({ refreshToken: null, accessToken: null });
  });

  it("signOut of a request's user ends that session only, and leaves the app's store alone", async () => {
    const tokens = pair();
    const appTokens = signedInTokens("rt-app");
    const { app, service, store } = setup(meOrSuccess, { tokens: appTokens });
    const user = await app.getUser({ tokenStore: tokens, or: "throw" });
    service.requests.length = 0;
    await settle(user.signOut());
    expect(sent(service)).toEqual([{ method: "DELETE", path: "/auth/sessions/current", body: {} }]);
    expect(service.requests[0]!.headers["x-stack-access-token"]).toBe(tokens.accessToken);
    // The user's session is over: its tokens are nobody's now, and the app's own session is untouched.
    await expect(user.currentSession.getTokens()).rejects.toBeInstanceOf(SessionEndedError);
    expect(store.get()).toEqual(appTokens);
  });

  it("getAuthHeaders gives the x-stack-auth header of the user's session", async () => {
    const tokens = pair();
    const { app } = setup(me);
    const user = await app.getUser({ tokenStore: tokens, or: "throw" });
    expect(await user.getAuthHeaders()).toEqual({ "x-stack-auth": JSON.stringify(tokens) });
  });

  it("a user of the internal project can also create and list owned projects", async () => {
    const { app } = setup(me, { app: { projectId: "internal" } });
    const user = await app.getUser({ tokenStore: pair(), or: "throw" });
    expect(typeof (user as unknown as { createProject?: unknown }).createProject).toBe("function");
    expect(typeof (user as unknown as { listOwnedProjects?: unknown }).listOwnedProjects).toBe("function");
  });
});
