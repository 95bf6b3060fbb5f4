// @vitest-environment jsdom
// The user follows the session: a sign-in or sign-out here (the mutations) or
// in another tab (the token store's change event) refreshes every component,
// with no reload and no second fetch.
import { act, cleanup, fireEvent, screen, waitFor } from "@testing-library/react";
import { HttpResponse } from "msw";
import { describe, expect, it } from "vitest";
import { useSignIn, useSignOut, useTeams, useUser, useUserQuery } from "../../react/index.js";
import { NO_TOKENS } from "../../runtime/sessions/tokens/store.js";
import { renderWithStack, Suspended } from "./render.js";
import { del, example, get, knownErrorResponse, post, signedIn, useStackServer, testApp } from "./stack-test.js";

const { server, calls } = useStackServer(cleanup);

const ada = example("ClientUser");

function Who() {
  const user = useUser();
  return <p>{user ? `user:${user.displayName}` : "signed out"}</p>;
}

function WhoQuery() {
  const { data, isPending } = useUserQuery();
  return <p>{isPending ? "pending" : data ? `query:${data.displayName}` : "query: signed out"}</p>;
}

describe("a session change in another tab", () => {
  it("a sign-out there (the store emptied) clears the user here", async () => {
    server.use(get("/users/me", () => HttpResponse.json(ada)));
    const { app, store } = testApp({ tokens: signedIn() });
    renderWithStack(
      <>
        <Suspended>
          <Who />
        </Suspended>
        <WhoQuery />
      </>,
      { app },
    );
    await screen.findByText("user:Ada Lovelace");
    await screen.findByText("query:Ada Lovelace");
    act(() => store.set(NO_TOKENS));
    await screen.findByText("signed out");
    await screen.findByText("query: signed out");
    // Nobody to ask about: the empty session needs no request.
    expect(calls()).toEqual(["GET /users/me"]);
  });

  it("a sign-in there (new tokens in the store) shows the new user here, fetched once", async () => {
    server.use(get("/users/me", () => HttpResponse.json(ada)));
    const { app, store } = testApp();
    renderWithStack(
      <>
        <Suspended>
          <Who />
        </Suspended>
        <WhoQuery />
      </>,
      { app },
    );
    await screen.findByText("signed out");
    act(() => store.set(signedIn("rt-other-tab")));
    await screen.findByText("user:Ada Lovelace");
    await screen.findByText("query:Ada Lovelace");
    expect(calls()).toEqual(["GET /users/me"]);
  });

  it("drops the previous user's data from user-scoped reads", async () => {
    let teams = 0;
    server.use(
      get("/users/me", () => HttpResponse.json(ada)),
      get("/teams", () => {
        teams++;
        return HttpResponse.json(example("ClientTeamList"));
      }),
    );
    const { app, store } = testApp({ tokens: signedIn() });
    function Teams() {
      return <p>{`teams:${useTeams().length}`}</p>;
    }
    renderWithStack(<Teams />, { app });
    await screen.findByText("teams:1");
    act(() => store.set(signedIn("rt-someone-else")));
    // Reset, not just marked stale: the list is fetched again for the new session.
    await waitFor(() => expect(teams).toBe(2));
    await screen.findByText("teams:1");
  });

  function Teams() {
    return <p>{`teams:${useTeams().length}`}</p>;
  }

  it("a session of the same user (a new refresh token): the user and the teams stay on screen while refetched", async () => {
    let teams = 0;
    server.use(
      get("/users/me", () => HttpResponse.json(ada)),
      get("/teams", () => {
        teams++;
        return HttpResponse.json(example("ClientTeamList"));
      }),
    );
    const { app, store } = testApp({ tokens: signedIn() });
    renderWithStack(
      <>
        <Who />
        <Suspended>
          <Teams />
        </Suspended>
      </>,
      { app },
    );
    await screen.findByText("teams:1");
    act(() => store.set(signedIn("rt-rotated")));
    expect(screen.getByText("user:Ada Lovelace")).toBeTruthy();
    await waitFor(() => expect(teams).toBe(2));
    expect(screen.queryByText("loading")).toBeNull();
    expect(screen.queryByText("inner loading")).toBeNull();
    expect(calls()).toEqual(["GET /users/me", "GET /teams?user_id=me", "GET /users/me", "GET /teams?user_id=me"]);
  });

  it("a session of another user: the previous user stays until the new one is known, the previous teams are dropped", async () => {
    const bob = { ...ada, id: "5f1c3a9e-2b7d-4c8e-9a1f-3d5b7c9e1a2b", display_name: "Bob" };
    let answers = 0;
    server.use(
      get("/users/me", () => HttpResponse.json(answers++ === 0 ? ada : bob)),
      get("/teams", () => HttpResponse.json(answers <= 1 ? example("ClientTeamList") : { ...example("ClientTeamList"), items: [] })),
    );
    const { app, store } = testApp({ tokens: signedIn() });
    renderWithStack(
      <>
        <Who />
        <Suspended>
          <Teams />
        </Suspended>
      </>,
      { app },
    );
    await screen.findByText("teams:1");
    act(() => store.set(signedIn("rt-bob")));
    // useUser does not suspend: Ada until Bob's answer is in.
    expect(screen.getByText("user:Ada Lovelace")).toBeTruthy();
    await screen.findByText("user:Bob");
    // Ada's teams are gone by the time Bob shows: never Bob beside Ada's teams.
    expect(screen.queryByText("teams:1")).toBeNull();
    await screen.findByText("teams:0");
    expect(screen.queryByText("loading")).toBeNull();
  });
});

describe("sign-in and sign-out mutations", () => {
  function SignIn() {
    const signIn = useSignIn();
    return (
      <>
        <button onClick={() => signIn.mutate({ email: "ada@example.com", password: "pw" })}>sign in</button>
        {signIn.error ? <p>{`failed:${signIn.error.name}`}</p> : null}
      </>
    );
  }

  function SignOut() {
    const signOut = useSignOut();
    return <button onClick={() => signOut.mutate()}>sign out</button>;
  }

  it("useSignIn stores the session and every reader shows the user, fetched once", async () => {
    server.use(
      post("/auth/password/sign-in", () => HttpResponse.json({ ...example("SignInTokens"), access_token: signedIn().accessToken })),
      get("/users/me", () => HttpResponse.json(ada)),
    );
    const { app, store } = testApp();
    renderWithStack(
      <>
        <SignIn />
        <Suspended>
          <Who />
        </Suspended>
        <WhoQuery />
      </>,
      { app },
    );
    await screen.findByText("signed out");
    fireEvent.click(screen.getByText("sign in"));
    await screen.findByText("user:Ada Lovelace");
    await screen.findByText("query:Ada Lovelace");
    expect(store.get().refreshToken).not.toBeNull();
    expect(calls()).toEqual(["POST /auth/password/sign-in", "GET /users/me"]);
  });

  it("useSignIn reports a wrong password as the typed known error", async () => {
    server.use(post("/auth/password/sign-in", () => knownErrorResponse(400, "EMAIL_PASSWORD_MISMATCH", "Wrong e-mail or password.")));
    renderWithStack(<SignIn />, { app: testApp().app });
    fireEvent.click(screen.getByText("sign in"));
    await screen.findByText("failed:EmailPasswordMismatch");
  });

  it("useSignOut ends the session and every reader shows nobody", async () => {
    server.use(
      get("/users/me", () => HttpResponse.json(ada)),
      del("/auth/sessions/current", () => HttpResponse.json({ success: true })),
    );
    const { app, store } = testApp({ tokens: signedIn() });
    renderWithStack(
      <>
        <SignOut />
        <Suspended>
          <Who />
        </Suspended>
        <WhoQuery />
      </>,
      { app },
    );
    await screen.findByText("user:Ada Lovelace");
    fireEvent.click(screen.getByText("sign out"));
    await screen.findByText("signed out");
    await screen.findByText("query: signed out");
    expect(store.get()).toEqual(NO_TOKENS);
    expect(calls()).toEqual(["GET /users/me", "DELETE /auth/sessions/current"]);
  });
});
