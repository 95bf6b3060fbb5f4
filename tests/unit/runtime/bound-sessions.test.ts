// A view of a store's sessions bound to one session (BoundSessions), what user
// objects act through: it answers that session while the store holds it, and a
// SessionEndedError once the session has ended or another took the store's
// place; a bound client stops before sending. SessionEndedError is the reference's
// CANNOT_GET_OWN_USER_WITHOUT_USER, told apart from the service's own by name.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import "../../helpers/lazy-modules.js";
import { createKnownError, KnownErrors } from "../../../generated/known-errors.js";
import { BoundSessions, SessionEndedError } from "../../../runtime/app/bound-session.js";
import { createStackClient } from "../../../runtime/http/client.js";
import { isSessionEndedError, sessionEndedError } from "../../../runtime/sessions/session-ended.js";
import { createMemoryTokenStore } from "../../../runtime/sessions/tokens/memory.js";
import { NO_TOKENS } from "../../../runtime/sessions/tokens/store.js";
import { answerAsDocumented } from "../../helpers/documented-answers.js";
import { fakeService, jwt, testEnvironment, useFakeClock } from "../../helpers/fake-service.js";

const alice = () => ({ refreshToken: "rt-alice", accessToken: jwt({ sub: "alice", exp: Math.floor(Date.now() / 1000) + 3600 }) });

function setup() {
  const service = fakeService(answerAsDocumented);
  const { env } = testEnvironment(service.fetch);
  const store = createMemoryTokenStore(alice());
  const client = createStackClient({ projectId: "p", publishableClientKey: "k", tokenStore: store, environment: env });
  const sessions = client.requireSessions();
  const view = new BoundSessions(sessions, sessions.current());
  return { service, store, client, sessions, view };
}

beforeEach(() => useFakeClock());
afterEach(() => vi.useRealTimers());

describe("a view bound to a session", () => {
  it("answers that session while the store holds it, also after another access token for it arrived", () => {
    const { store, sessions, view } = setup();
    expect(view.current()).toBe(sessions.current());
    store.set({ refreshToken: "rt-alice", accessToken: jwt({ sub: "alice", exp: Math.floor(Date.now() / 1000) + 7200 }) });
    expect(view.current()).toBe(sessions.current());
    expect(view.peekCurrent()).toEqual(sessions.peekCurrent());
  });

  it.each([
    ["the store is emptied", NO_TOKENS],
    ["another user's pair is stored", { refreshToken: "rt-bob", accessToken: jwt({ sub: "bob" }) }],
    ["the same user signs in again", { refreshToken: "rt-alice-2", accessToken: jwt({ sub: "alice" }) }],
  ])("throws its error once %s, from current() and peekCurrent()", (_, next) => {
    const { store, view } = setup();
    store.set(next);
    expect(() => view.current()).toThrow(SessionEndedError);
    expect(() => view.peekCurrent()).toThrow(SessionEndedError);
  });

  it("throws once its session was invalidated, even while a store that cannot forget still holds the pair", () => {
    const { sessions, view } = setup();
    sessions.current().invalidate();
    expect(() => view.current()).toThrow(SessionEndedError);
  });

  it("signs out its own session only: another sign-in in the store is left alone", () => {
    const { store, sessions, view } = setup();
    const bob = { refreshToken: "rt-bob", accessToken: jwt({ sub: "bob" }) };
    const aliceSession = sessions.current();
    store.set(bob);
    view.signOut();
    expect(aliceSession.isKnownInvalid).toBe(true);
    expect(store.get()).toEqual(bob);
    expect(sessions.current().isKnownInvalid).toBe(false);
  });

  it("signs out its session and clears the store while the store holds it", () => {
    const { store, view } = setup();
    view.signOut();
    expect(store.get()).toEqual(NO_TOKENS);
  });
});

describe("a client bound to a session", () => {
  it("sends with that session's tokens, and once it is over sends nothing and rejects with the view's error", async () => {
    const { service, store, client, view } = setup();
    const bound = client.boundTo(view);
    await bound.send("GET /users/me");
    expect(service.requests.map((r) => r.headers["x-stack-access-token"])).toEqual([store.get().accessToken]);
    store.set({ refreshToken: "rt-bob", accessToken: jwt({ sub: "bob" }) });
    await expect(bound.send("PATCH /users/me", { body: { display_name: "Mallory" } })).rejects.toThrow(SessionEndedError);
    expect(service.requests).toHaveLength(1);
  });

  it("without user tokens (a server's calls by id) sends none, and stops too once the session is over", async () => {
    const { service, store, client, view } = setup();
    const server = createStackClient({
      projectId: "p",
      accessType: "server",
      secretServerKey: "ssk",
      tokenStore: null,
      environment: { fetch: service.fetch },
    }).boundTo(view);
    await server.send("GET /users/{user_id}", { params: { path: { user_id: "alice" } } });
    expect(service.requests[0]!.headers["x-stack-access-token"]).toBeUndefined();
    store.set(NO_TOKENS);
    await expect(server.send("DELETE /users/{user_id}", { params: { path: { user_id: "alice" } } })).rejects.toThrow(SessionEndedError);
    expect(service.requests).toHaveLength(1);
    expect(client.sessions).not.toBeNull();
  });
});

describe("SessionEndedError", () => {
  it("is a CANNOT_GET_OWN_USER_WITHOUT_USER with its own name and message", async () => {
    const error = await sessionEndedError();
    expect(error).toBeInstanceOf(SessionEndedError);
    expect(error).toBeInstanceOf(KnownErrors.CannotGetOwnUserWithoutUser);
    expect([error.name, error.code, error.errorCode, error.status]).toEqual([
      "SessionEndedError",
      "CANNOT_GET_OWN_USER_WITHOUT_USER",
      "CANNOT_GET_OWN_USER_WITHOUT_USER",
      400,
    ]);
    expect(isSessionEndedError(error)).toBe(true);
  });

  it("is not the service's own CANNOT_GET_OWN_USER_WITHOUT_USER", () => {
    const fromService = createKnownError("CANNOT_GET_OWN_USER_WITHOUT_USER");
    expect(fromService).toBeInstanceOf(KnownErrors.CannotGetOwnUserWithoutUser);
    expect(fromService).not.toBeInstanceOf(SessionEndedError);
    expect(isSessionEndedError(fromService)).toBe(false);
    expect(isSessionEndedError(new Error("SessionEndedError"))).toBe(false);
  });
});
