// After the user changes what its access token says (name, selected team, second factor), the
// next use of the session gets a new token, as the official SDK does after `user.update`: a
// service that issues tokens from the user as it is now answers the refresh, and the token the
// app hands out says what the user is now.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { decodeJwt } from "jose";
import "../../../helpers/lazy-modules.js";
import { StackClientApp } from "../../../../runtime/app/client-app.js";
import { createMemoryTokenStore } from "../../../../runtime/sessions/tokens/memory.js";
import type { TokenPair } from "../../../../runtime/sessions/tokens/store.js";
import { answerAsDocumented, documentedExample, wireUser } from "../../../helpers/documented-answers.js";
import { fakeService, json, jwt, knownError, testEnvironment, useFakeClock } from "../../../helpers/fake-service.js";

const TEAM_ID = "5a1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0";

/** A service holding one user: PATCH /users/me and POST /teams change it, and each token it issues carries its claims. */
function userService() {
  const state = { name: null as string | null, selectedTeamId: null as string | null, issued: 0, patchFails: false };
  const token = () => {
    state.issued++;
    return jwt({ exp: Math.floor(Date.now() / 1000) + 3600, name: state.name, selected_team_id: state.selectedTeamId, n: state.issued });
  };
  const fake = fakeService((request) => {
    const route = `${request.method} ${request.path}`;
    if (route === "POST /api/v1/auth/oauth/token") return json({ access_token: token() });
    if (route === "GET /api/v1/users/me") return json(wireUser({ id: "user-1", display_name: state.name }));
    if (route === "PATCH /api/v1/users/me") {
      if (state.patchFails) return knownError(400, "SCHEMA_ERROR", "Bad request.");
      const body = JSON.parse(request.body) as { display_name?: string | null; selected_team_id?: string | null };
      if (body.display_name !== undefined) state.name = body.display_name;
      if (body.selected_team_id !== undefined) state.selectedTeamId = body.selected_team_id;
      return json(wireUser({ id: "user-1", display_name: state.name }));
    }
    if (route === "POST /api/v1/teams") return json(documentedExample("ClientTeam", { id: TEAM_ID }));
    return answerAsDocumented(request);
  });
  return { state, token, fake };
}

function setup(tokens?: (issue: () => string) => TokenPair) {
  const { state, token, fake } = userService();
  const { env } = testEnvironment(fake.fetch);
  const store = createMemoryTokenStore(tokens ? tokens(token) : { refreshToken: "rt-1", accessToken: token() });
  const app = new StackClientApp({
    projectId: "proj-1",
    publishableClientKey: "pck-1",
    tokenStore: store,
    environment: env,
    browser: null,
  });
  const routes = () => fake.requests.map((r) => `${r.method} ${r.path.replace("/api/v1", "")}`);
  return { app, state, store, routes };
}

const claims = (token: string | null) => decodeJwt(token as string);

beforeEach(() => useFakeClock());
afterEach(() => vi.useRealTimers());

describe("the access token after the user changes", () => {
  it("setDisplayName: the next getAccessToken refreshes it once, and the new one carries the new name", async () => {
    const { app, store, routes } = setup();
    const user = await app.getUser({ or: "throw" });
    const before = await user.getAccessToken();
    expect(claims(before)["name"]).toBeNull();
    await user.setDisplayName("Ada Lovelace");
    const after = await user.getAccessToken();
    expect(claims(after)["name"]).toBe("Ada Lovelace");
    expect(after).not.toBe(before);
    expect(await user.getAccessToken()).toBe(after);
    expect(routes()).toEqual(["GET /users/me", "PATCH /users/me", "POST /auth/oauth/token"]);
    expect(store.get()).toEqual({ refreshToken: "rt-1", accessToken: after });
  });

  it("setSelectedTeam, and null: each next token carries the selection", async () => {
    const { app } = setup();
    const user = await app.getUser({ or: "throw" });
    await user.setSelectedTeam(TEAM_ID);
    expect(claims(await user.getAccessToken())["selected_team_id"]).toBe(TEAM_ID);
    await user.setSelectedTeam(null);
    expect(claims(await user.getAccessToken())["selected_team_id"]).toBeNull();
  });

  it("createTeam, which selects the new team: the next token carries it", async () => {
    const { app, routes } = setup();
    const user = await app.getUser({ or: "throw" });
    const team = await user.createTeam({ displayName: "Platform" });
    expect(claims(await user.getAccessToken())["selected_team_id"]).toBe(team.id);
    expect(routes()).toEqual(["GET /users/me", "POST /teams", "PATCH /users/me", "POST /auth/oauth/token"]);
  });

  it("update({}), which changes nothing here but what another party changed: the next token is issued anew", async () => {
    const { app, state, routes } = setup();
    const user = await app.getUser({ or: "throw" });
    state.name = "Set by an admin";
    await user.update({});
    expect(claims(await app.getAccessToken())["name"]).toBe("Set by an admin");
    expect(routes().filter((r) => r === "POST /auth/oauth/token")).toHaveLength(1);
  });

  it("keeps the token when the update fails", async () => {
    const { app, state, routes } = setup();
    const user = await app.getUser({ or: "throw" });
    const before = await user.getAccessToken();
    state.patchFails = true;
    await expect(user.setDisplayName("Ada")).rejects.toThrow("Bad request.");
    expect(await user.getAccessToken()).toBe(before);
    expect(routes()).not.toContain("POST /auth/oauth/token");
  });

  it("keeps the token of a session held by an access token alone, which cannot get another", async () => {
    const { app, routes } = setup((issue) => ({ refreshToken: null, accessToken: issue() }));
    const user = await app.getUser({ or: "throw" });
    const before = await user.getAccessToken();
    await user.setDisplayName("Ada");
    expect(await user.getAccessToken()).toBe(before);
    expect(routes()).toEqual(["GET /users/me", "PATCH /users/me"]);
  });
});
