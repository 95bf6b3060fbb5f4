// @vitest-environment jsdom
// The objects the hooks hand out act for the session they were read in, as the
// runtime's do: once the tab's session has ended or another took its place, a
// kept user or team rejects with SessionEndedError and sends nothing. A copy
// hydrated from the server acts only for its own user; once the tab holds
// somebody else, it says so instead of acting for them.
import { act, cleanup, screen } from "@testing-library/react";
import { HttpResponse } from "msw";
import { describe, expect, it } from "vitest";
import { useTeams, useUser } from "../../react/index.js";
import { userJsonOf, userOf as hydratedUserOf, type UserJson } from "../../react/user-json.js";
import { SessionEndedError, type CurrentUser, type Team } from "../../runtime/index.js";
import { renderWithStack } from "./render.js";
import { example, get, patch, signedIn, useStackServer, testApp } from "./stack-test.js";

const { server, requests, calls } = useStackServer(cleanup);

const ada = example("ClientUser");
const teams = example("ClientTeamList");
const bob = { ...ada, id: "0b0b0b0b-0000-4000-8000-000000000b0b", display_name: "Bob", primary_email: "bob@example.com" };

function Keep({ onUser, onTeams }: { onUser: (user: CurrentUser) => void; onTeams: (teams: Team[]) => void }) {
  const user = useUser({ or: "throw" });
  const list = useTeams();
  onUser(user);
  onTeams(list);
  return <p>{`user:${user.displayName}`}</p>;
}

/** Ada is signed in in the tab; the hooks read her user and teams. */
async function adaOnScreen() {
  server.use(
    get("/users/me", () => HttpResponse.json(ada)),
    get("/teams", () => HttpResponse.json(teams)),
  );
  const { app, store } = testApp({ tokens: signedIn("rt-ada") });
  let user: CurrentUser | undefined;
  let list: Team[] = [];
  renderWithStack(<Keep onUser={(u) => (user = u)} onTeams={(t) => (list = t)} />, { app });
  await screen.findByText("user:Ada Lovelace");
  return { app, store, user: user!, team: list[0]! };
}

describe("objects from the hooks", () => {
  it.each([
    ["signed out", (store: ReturnType<typeof testApp>["store"]) => store.set({ refreshToken: null, accessToken: null })],
    ["replaced by another sign-in", (store: ReturnType<typeof testApp>["store"]) => store.set(signedIn("rt-bob"))],
    ["replaced by the same user signing in again", (store: ReturnType<typeof testApp>["store"]) => store.set(signedIn("rt-ada-again"))],
  ])("once the session is %s, a kept user and team reject and send nothing", async (_, change) => {
    const { store, user, team } = await adaOnScreen();
    server.use(get("/users/me", () => HttpResponse.json(bob)));
    await act(async () => change(store));
    const after = store.get();
    requests.length = 0;
    await expect(user.update({ displayName: "Mallory" })).rejects.toBeInstanceOf(SessionEndedError);
    await expect(user.listTeams()).rejects.toBeInstanceOf(SessionEndedError);
    await expect(user.getAuthJson()).rejects.toBeInstanceOf(SessionEndedError);
    await expect(team.update({ displayName: "Renamed" })).rejects.toBeInstanceOf(SessionEndedError);
    await expect(user.signOut()).rejects.toBeInstanceOf(SessionEndedError);
    expect(calls().filter((c) => !c.startsWith("GET /users/me"))).toEqual([]);
    // The tab's session is untouched by the stale objects.
    expect(store.get()).toEqual(after);
  });

  it("after a refresh of the access token the same objects go on acting", async () => {
    const { store, user } = await adaOnScreen();
    server.use(patch("/users/me", () => HttpResponse.json(ada)));
    // The same session: another tab refreshed the access token.
    await act(async () => store.set({ refreshToken: "rt-ada", accessToken: signedIn().accessToken }));
    requests.length = 0;
    await user.update({ displayName: "Ada L." });
    expect(calls()).toEqual(["PATCH /users/me"]);
    expect(requests[0]!.headers["x-stack-access-token"]).toBe(store.get().accessToken);
  });
});

describe("a user hydrated from the server", () => {
  /** Ada's user as the server's render sent it: JSON, with no user object behind it in this tab. */
  async function adaCopy() {
    return JSON.parse(JSON.stringify(userJsonOf(await userOf(ada)))) as UserJson;
  }

  it("acts through the tab's session when that session is its user's", async () => {
    const copy = await adaCopy();
    const { app } = testApp({ tokens: signedIn("rt-ada") });
    server.use(
      get("/users/me", () => HttpResponse.json(ada)),
      patch("/users/me", () => HttpResponse.json(ada)),
    );
    await hydratedUserOf(app, copy).update({ displayName: "Ada L." });
    expect(calls()).toEqual(["GET /users/me", "PATCH /users/me"]);
  });

  it("once the tab holds someone else, rejects without acting for them, and from then on asks nothing", async () => {
    const copy = await adaCopy();
    const { app, store } = testApp({ tokens: signedIn("rt-bob") });
    server.use(get("/users/me", () => HttpResponse.json(bob)));
    const hydrated = hydratedUserOf(app, copy);
    await expect(hydrated.update({ displayName: "Mallory" })).rejects.toBeInstanceOf(SessionEndedError);
    // Who is signed in was asked once; nothing acted for Bob.
    expect(calls()).toEqual(["GET /users/me"]);
    await expect(hydrated.signOut()).rejects.toBeInstanceOf(SessionEndedError);
    await expect(hydrated.getAuthJson()).rejects.toBeInstanceOf(SessionEndedError);
    await expect(hydrated.currentSession.getTokens()).rejects.toBeInstanceOf(SessionEndedError);
    expect(calls()).toEqual(["GET /users/me"]);
    expect(store.get().refreshToken).toBe("rt-bob");
  });
});

/** A CurrentUser of `wire` as a signed-in app reads it (for the JSON copy of the server's render). */
async function userOf(wire: Record<string, unknown>): Promise<CurrentUser> {
  server.use(get("/users/me", () => HttpResponse.json(wire)));
  const { app } = testApp({ tokens: signedIn("rt-server") });
  const user = await app.getUser({ or: "throw" });
  server.resetHandlers();
  requests.length = 0;
  return user;
}
