// @vitest-environment jsdom
// useUser (Suspense) and useUserQuery (React Query's result) over msw: one
// request for many readers, and each `or` option of getUser.
import { act, cleanup, screen, waitFor } from "@testing-library/react";
import { HttpResponse } from "msw";
import { describe, expect, it } from "vitest";
import { createStackQueryClient, useUser, useUserQuery } from "../../react/index.js";
import { StackConfigurationError, UserNotSignedInError } from "../../runtime/errors.js";
import { StrictMode } from "react";
import { renderWithStack, Suspended } from "./render.js";
import { example, get, knownErrorResponse, post, signedIn, useStackServer, testApp } from "./stack-test.js";

const { server, requests, calls } = useStackServer(cleanup);

const ada = example("ClientUser");
const anonymous = { ...ada, id: "anon-1", display_name: null, primary_email: null, is_anonymous: true };
const meAnswers = (body: Record<string, unknown>) => get("/users/me", () => HttpResponse.json(body));

function Name({ or }: { or?: "redirect" | "throw" | "return-null" | "anonymous" | "anonymous-if-exists" }) {
  const user = useUser(or ? { or } : {});
  return <p>{user === null ? "nobody" : `user:${user.displayName ?? user.id}`}</p>;
}

function QueryName({ or }: { or?: "redirect" | "throw" | "return-null" | "anonymous" | "anonymous-if-exists" }) {
  const { data, isPending, error } = useUserQuery(or ? { or } : {});
  if (error) return <p>{`error:${error.name}`}</p>;
  if (isPending) return <p>pending</p>;
  return <p>{data === null ? "nobody" : `user:${data.displayName ?? data.id}`}</p>;
}

describe("useUser (Suspense)", () => {
  it("ten components reading the user cause one request", async () => {
    server.use(meAnswers(ada));
    const { app } = testApp({ tokens: signedIn() });
    renderWithStack(
      <>
        {Array.from({ length: 10 }, (_, i) => (
          <Name key={i} />
        ))}
      </>,
      { app },
    );
    expect(screen.getByText("loading")).toBeTruthy();
    expect(await screen.findAllByText("user:Ada Lovelace")).toHaveLength(10);
    expect(calls()).toEqual(["GET /users/me"]);
  });

  it("suspends until the user is known, then renders the reference's CurrentUser", async () => {
    server.use(meAnswers(ada));
    const { app } = testApp({ tokens: signedIn() });
    let seen: unknown;
    function Probe() {
      seen = useUser();
      return <p>done</p>;
    }
    renderWithStack(<Probe />, { app });
    await screen.findByText("done");
    expect(seen).toMatchObject({ id: ada["id"], displayName: "Ada Lovelace", primaryEmail: "ada@example.com", isAnonymous: false });
    expect((seen as { signedUpAt: Date }).signedUpAt).toEqual(new Date(1763251200000));
  });

  it("or: 'return-null' (the default) gives null without a request when nobody is signed in", async () => {
    const { app } = testApp();
    renderWithStack(<Name />, { app });
    await screen.findByText("nobody");
    expect(requests).toEqual([]);
  });

  it("or: 'return-null' counts an anonymous user as nobody", async () => {
    server.use(meAnswers(anonymous));
    const { app } = testApp({ tokens: signedIn() });
    renderWithStack(<Name or="return-null" />, { app });
    await screen.findByText("nobody");
  });

  it("or: 'throw' throws a UserNotSignedInError to the error boundary", async () => {
    const { app } = testApp();
    const { caught } = renderWithStack(<Name or="throw" />, { app });
    expect((await screen.findByRole("alert")).textContent).toBe(
      "UserNotSignedInError: User is not signed in but useUser() was called with { or: 'throw' }",
    );
    expect(caught[0]).toBeInstanceOf(UserNotSignedInError);
  });

  it("or: 'redirect' goes to sign-in once and stays suspended", async () => {
    const { app, navigations } = testApp();
    renderWithStack(
      <>
        <Name or="redirect" />
        <Name or="redirect" />
      </>,
      { app },
    );
    await waitFor(() => expect(navigations).toEqual(["/handler/sign-in"]));
    expect(screen.getByText("loading")).toBeTruthy();
  });

  it("or: 'anonymous' signs up once for many readers and renders the anonymous user", async () => {
    let token: string | null = null;
    server.use(
      post("/auth/anonymous/sign-up", () => {
        token = signedIn("rt-anon").accessToken;
        return HttpResponse.json({ ...example("SignInTokens"), access_token: token, refresh_token: "rt-anon", user_id: "anon-1" });
      }),
      get("/users/me", ({ request }) =>
        request.headers.get("x-stack-access-token") === token && token !== null
          ? HttpResponse.json(anonymous)
          : knownErrorResponse(400, "CANNOT_GET_OWN_USER_WITHOUT_USER"),
      ),
    );
    const { app, store } = testApp();
    renderWithStack(
      <>
        <Name or="anonymous" />
        <Name or="anonymous" />
        <Name or="anonymous" />
      </>,
      { app },
    );
    expect(await screen.findAllByText("user:anon-1")).toHaveLength(3);
    expect(calls("POST")).toEqual(["POST /auth/anonymous/sign-up"]);
    expect(store.get().refreshToken).toBe("rt-anon");
  });

  it("or: 'anonymous-if-exists' gives an anonymous user, and null without one", async () => {
    server.use(meAnswers(anonymous));
    const signedInAnonymously = testApp({ tokens: signedIn() });
    const first = renderWithStack(<Name or="anonymous-if-exists" />, { app: signedInAnonymously.app });
    await screen.findByText("user:anon-1");
    first.unmount();
    renderWithStack(<Name or="anonymous-if-exists" />, { app: testApp().app });
    await screen.findByText("nobody");
    expect(calls("POST")).toEqual([]);
  });

  it("a restricted user counts only with includeRestricted, from the one request", async () => {
    server.use(meAnswers({ ...ada, is_restricted: true, restricted_reason: { type: "email_not_verified" } }));
    const { app } = testApp({ tokens: signedIn() });
    function Both() {
      const strict = useUser();
      const lenient = useUser({ includeRestricted: true });
      return <p>{`${strict === null ? "nobody" : "user"}/${lenient?.restrictedReason?.type ?? "nobody"}`}</p>;
    }
    renderWithStack(<Both />, { app });
    await screen.findByText("nobody/email_not_verified");
    expect(calls()).toEqual(["GET /users/me"]);
  });
});

describe("the or option", () => {
  it("an unknown value is a StackConfigurationError listing the valid ones", async () => {
    const { caught } = renderWithStack(<Name or={"sometimes" as never} />, { app: testApp().app });
    await screen.findByRole("alert");
    expect(caught[0]).toBeInstanceOf(StackConfigurationError);
    expect((caught[0] as Error).message).toBe(
      'useUser(): or must be one of "redirect", "throw", "return-null", "anonymous", "anonymous-if-exists", "anonymous-if-exists[deprecated]"; got "sometimes".',
    );
  });

  it("under StrictMode a redirect still happens once", async () => {
    const { app, navigations } = testApp();
    renderWithStack(
      <StrictMode>
        <Name or="redirect" />
        <QueryName or="redirect" />
      </StrictMode>,
      { app },
    );
    await waitFor(() => expect(navigations).toEqual(["/handler/sign-in"]));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(navigations).toEqual(["/handler/sign-in"]);
  });
});

describe("useUserQuery (no Suspense)", () => {
  it("is pending first, then has the user as data", async () => {
    server.use(meAnswers(ada));
    const { app } = testApp({ tokens: signedIn() });
    renderWithStack(<QueryName />, { app });
    expect(screen.getByText("pending")).toBeTruthy();
    await screen.findByText("user:Ada Lovelace");
  });

  it("shares the request with useUser", async () => {
    server.use(meAnswers(ada));
    const { app } = testApp({ tokens: signedIn() });
    renderWithStack(
      <>
        <QueryName />
        <QueryName />
        <Suspended>
          <Name />
        </Suspended>
      </>,
      { app },
    );
    await waitFor(() => expect(screen.getAllByText("user:Ada Lovelace")).toHaveLength(3));
    expect(calls()).toEqual(["GET /users/me"]);
  });

  it("or: 'return-null' gives null data when nobody is signed in", async () => {
    renderWithStack(<QueryName or="return-null" />, { app: testApp().app });
    await screen.findByText("nobody");
  });

  it("or: 'throw' reports a UserNotSignedInError as the error", async () => {
    renderWithStack(<QueryName or="throw" />, { app: testApp().app });
    await screen.findByText("error:UserNotSignedInError");
  });

  it("or: 'redirect' stays pending while it goes to sign-in", async () => {
    const { app, navigations } = testApp();
    renderWithStack(<QueryName or="redirect" />, { app });
    await waitFor(() => expect(navigations).toEqual(["/handler/sign-in"]));
    expect(screen.getByText("pending")).toBeTruthy();
  });

  it("or: 'anonymous' stays pending during the sign-up, then has the anonymous user", async () => {
    let token: string | null = null;
    server.use(
      post("/auth/anonymous/sign-up", () => {
        token = signedIn("rt-anon").accessToken;
        return HttpResponse.json({ ...example("SignInTokens"), access_token: token, refresh_token: "rt-anon", user_id: "anon-1" });
      }),
      get("/users/me", () => HttpResponse.json(anonymous)),
    );
    renderWithStack(<QueryName or="anonymous" />, { app: testApp().app });
    expect(screen.getByText("pending")).toBeTruthy();
    await screen.findByText("user:anon-1");
    expect(calls("POST")).toEqual(["POST /auth/anonymous/sign-up"]);
  });

  it("or: 'anonymous' reports a failed sign-up as the error", async () => {
    server.use(post("/auth/anonymous/sign-up", () => knownErrorResponse(400, "ANONYMOUS_ACCOUNTS_NOT_ENABLED")));
    renderWithStack(<QueryName or="anonymous" />, { app: testApp().app });
    await screen.findByText("error:AnonymousAccountsNotEnabled");
  });

  it("or: 'anonymous-if-exists' gives the anonymous user", async () => {
    server.use(meAnswers(anonymous));
    renderWithStack(<QueryName or="anonymous-if-exists" />, { app: testApp({ tokens: signedIn() }).app });
    await screen.findByText("user:anon-1");
  });

  it("uses the QueryClient given to the provider", async () => {
    server.use(meAnswers(ada));
    const queryClient = createStackQueryClient();
    const { app } = testApp({ tokens: signedIn() });
    renderWithStack(<QueryName />, { app, queryClient });
    await screen.findByText("user:Ada Lovelace");
    expect(queryClient.getQueryData(["stackkit", "getCurrentUser", { user_id: "me" }])).toMatchObject({ displayName: "Ada Lovelace" });
    await act(async () => undefined);
  });
});
