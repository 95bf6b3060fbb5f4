// @vitest-environment jsdom
// The reference's read hooks, Suspense style: the exact request each makes, the
// objects it returns, its key, one request however many components read it,
// and typed errors at the error boundary.
import { cleanup, screen, waitFor } from "@testing-library/react";
import { useQuery } from "@tanstack/react-query";
import { HttpResponse } from "msw";
import { describe, expect, it } from "vitest";
import { KnownErrors } from "../../generated/known-errors.js";
import {
  createStackQueryClient,
  stackQueryKey,
  stackQueryOptions,
  useActiveSessions,
  useApiKeys,
  useConnectedAccount,
  useContactChannels,
  useOwnedProjects,
  usePermission,
  usePermissions,
  useProject,
  useReceivedTeamInvitations,
  useStackApp,
  useTeam,
  useTeamApiKeys,
  useTeamInvitations,
  useTeamProfile,
  useTeams,
  useTeamUsers,
} from "../../react/index.js";
import { UserNotSignedInError } from "../../runtime/errors.js";
import { renderWithStack } from "./render.js";
import { example, get, knownErrorResponse, post, signedIn, useStackServer, TEAM_ID, testApp } from "./stack-test.js";

const { server, requests, calls } = useStackServer(cleanup);

const USER_ID = "3241a285-8329-4d69-8f3d-316e08cf140c";
const serviceAnswers = () =>
  server.use(
    get("/users/me", () => HttpResponse.json(example("ClientUser"))),
    get("/projects/current", () => HttpResponse.json(example("ClientProject"))),
    get("/teams", () => HttpResponse.json(example("ClientTeamList"))),
    get("/teams/:id", () => HttpResponse.json(example("ClientTeam"))),
    get("/contact-channels", () => HttpResponse.json(example("ContactChannelList"))),
    get("/team-permissions", () => HttpResponse.json(example("TeamPermissionList"))),
    get("/project-permissions", () => HttpResponse.json(example("ProjectPermissionList"))),
    get("/user-api-keys", () => HttpResponse.json(example("UserApiKeyList"))),
    get("/team-api-keys", () => HttpResponse.json(example("TeamApiKeyList"))),
    get("/team-member-profiles", () => HttpResponse.json(example("TeamMemberProfileList"))),
    get("/team-member-profiles/:team/:user", () => HttpResponse.json(example("TeamMemberProfile"))),
    get("/team-invitations", () => HttpResponse.json(example("TeamInvitationList"))),
    get("/auth/sessions", () => HttpResponse.json(example("SessionList"))),
    get("/internal/projects", () => HttpResponse.json(example("AdminProjectList"))),
    post("/connected-accounts/me/github/access-token", () => HttpResponse.json({ access_token: "gho_token" })),
  );

/** Renders `read` (a hook call) signed in, and resolves to what it returned once it stopped suspending. */
async function readWith<T>(read: () => T, options: { projectId?: string } = {}) {
  serviceAnswers();
  const queryClient = createStackQueryClient();
  const { app } = testApp({ tokens: signedIn(), ...(options.projectId ? { app: { projectId: options.projectId } } : {}) });
  let value: T | undefined;
  function Probe() {
    value = read();
    return <p>read</p>;
  }
  renderWithStack(<Probe />, { app, queryClient });
  await screen.findByText("read");
  return { value: value as T, queryClient };
}

const team = { id: TEAM_ID };

describe("read hooks", () => {
  it("useProject reads GET /projects/current into the client Project", async () => {
    const { value, queryClient } = await readWith(() => useProject());
    expect(calls()).toEqual(["GET /projects/current"]);
    expect(value).toMatchObject({ id: "6f4a3c2e-0b1d-4e5f-9a8b-7c6d5e4f3a2b", displayName: "Acme" });
    expect(value.config.oauthProviders).toEqual([{ id: "github" }, { id: "google" }]);
    expect(queryClient.getQueryData(stackQueryKey("getCurrentProject", { project_id: "proj-1" }))).toBe(value);
  });

  it("useTeams reads GET /teams?user_id=me into Team objects, keyed listTeams { user_id: me }", async () => {
    const { value, queryClient } = await readWith(() => useTeams());
    expect(calls()).toEqual(["GET /users/me", "GET /teams?user_id=me"]);
    expect(value).toMatchObject([{ id: TEAM_ID, displayName: "Acme Engineering", profileImageUrl: null }]);
    expect(typeof value[0]!.listUsers).toBe("function");
    expect(queryClient.getQueryData(stackQueryKey("listTeams", { user_id: "me" }))).toBe(value);
  });

  it("useTeam(id) reads GET /teams/{id}", async () => {
    const { value } = await readWith(() => useTeam(TEAM_ID));
    expect(calls()).toEqual(["GET /users/me", `GET /teams/${TEAM_ID}`]);
    expect(value).toMatchObject({ id: TEAM_ID, displayName: "Acme Engineering" });
  });

  it("useContactChannels reads GET /contact-channels?user_id=me", async () => {
    const { value } = await readWith(() => useContactChannels());
    expect(calls()).toEqual(["GET /users/me", "GET /contact-channels?user_id=me"]);
    expect(value).toMatchObject([{ value: "ada@example.com", type: "email", isPrimary: true, isVerified: true, usedForAuth: true }]);
  });

  it("usePermissions(team) reads the team's permissions, recursive by default", async () => {
    const { value, queryClient } = await readWith(() => usePermissions(team));
    expect(calls()).toEqual(["GET /users/me", `GET /team-permissions?team_id=${TEAM_ID}&user_id=me&recursive=true`]);
    expect(value).toEqual([{ id: "$read_members" }, { id: "team_admin" }]);
    expect(queryClient.getQueryData(stackQueryKey("listTeamPermissions", { team_id: TEAM_ID, user_id: "me", recursive: "true" }))).toBe(
      value,
    );
  });

  it("usePermissions() reads project permissions, and recursive: false is sent", async () => {
    const { value } = await readWith(() => usePermissions({ recursive: false }));
    expect(calls()).toEqual(["GET /users/me", "GET /project-permissions?user_id=me&recursive=false"]);
    expect(value).toEqual([{ id: "billing_admin" }]);
  });

  it("usePermission picks one permission, or null, from the one list request", async () => {
    const { value } = await readWith(() => [usePermission(team, "team_admin"), usePermission(team, "nope"), usePermissions(team)] as const);
    expect(value[0]).toEqual({ id: "team_admin" });
    expect(value[1]).toBeNull();
    expect(calls("GET /team-permissions")).toHaveLength(1);
  });

  it("useApiKeys reads the user's keys", async () => {
    const { value } = await readWith(() => useApiKeys());
    expect(calls()).toEqual(["GET /users/me", "GET /user-api-keys?user_id=me"]);
    expect(value).toMatchObject([{ description: "CI deploys", type: "user", userId: USER_ID, value: { lastFour: "9f2a" } }]);
    expect(value[0]!.expiresAt).toEqual(new Date(4102444800000));
  });

  it("useTeamProfile reads GET /team-member-profiles/{team}/me", async () => {
    const { value } = await readWith(() => useTeamProfile(team));
    expect(calls()).toEqual(["GET /users/me", `GET /team-member-profiles/${TEAM_ID}/me`]);
    expect(value).toMatchObject({ displayName: "Ada", profileImageUrl: null });
  });

  it("useTeamUsers, useTeamInvitations and useTeamApiKeys read the team's lists", async () => {
    const { value } = await readWith(() => {
      const [first] = useTeams();
      return { users: useTeamUsers(first!), invitations: useTeamInvitations(first!), keys: useTeamApiKeys(first!) };
    });
    expect(calls().slice(2).sort()).toEqual(
      [
        `GET /team-member-profiles?team_id=${TEAM_ID}`,
        `GET /team-invitations?team_id=${TEAM_ID}`,
        `GET /team-api-keys?team_id=${TEAM_ID}`,
      ].sort(),
    );
    expect(value.users).toEqual([{ id: USER_ID, teamProfile: { displayName: "Ada", profileImageUrl: null } }]);
    expect(value.invitations).toMatchObject([{ recipientEmail: "grace@example.com", expiresAt: new Date(4102444800000) }]);
    expect(value.keys).toMatchObject([{ type: "team", teamId: TEAM_ID, description: "Team automation" }]);
  });

  it("useReceivedTeamInvitations reads GET /team-invitations?user_id=me into ReceivedTeamInvitation objects", async () => {
    const { value, queryClient } = await readWith(() => useReceivedTeamInvitations());
    expect(calls()).toEqual(["GET /users/me", "GET /team-invitations?user_id=me"]);
    expect(value).toEqual([
      {
        id: "2e7a9c1b-3f5d-4b8e-9a2c-6d1f8e3b5a7c",
        teamId: TEAM_ID,
        teamDisplayName: "Acme Engineering",
        recipientEmail: "grace@example.com",
        expiresAt: new Date(4102444800000),
        accept: expect.any(Function),
      },
    ]);
    expect(queryClient.getQueryData(stackQueryKey("listTeamInvitations", { user_id: "me" }))).toBe(value);
  });

  it("useActiveSessions reads GET /auth/sessions?user_id=me", async () => {
    const { value } = await readWith(() => useActiveSessions());
    expect(calls()).toEqual(["GET /users/me", "GET /auth/sessions?user_id=me"]);
    expect(value).toMatchObject([{ isCurrentSession: true, createdAt: new Date(1763251200000), lastUsedAt: new Date(1763683200000) }]);
  });

  it("useConnectedAccount fetches the provider's access token", async () => {
    const { value } = await readWith(() => useConnectedAccount("github", { scopes: ["repo"] }));
    expect(calls()).toEqual(["GET /users/me", "POST /connected-accounts/me/github/access-token"]);
    expect(requests[1]!.body).toBe(JSON.stringify({ scope: "repo" }));
    expect(value!.id).toBe("github");
    expect(await value!.getAccessToken()).toEqual({ accessToken: "gho_token" });
  });

  it("useOwnedProjects lists the internal project user's projects", async () => {
    const { value } = await readWith(() => useOwnedProjects(), { projectId: "internal" });
    expect(calls()).toEqual(["GET /users/me", "GET /internal/projects"]);
    expect(value).toMatchObject([{ displayName: "Acme", userCount: 42, createdAt: new Date(1763251200000) }]);
  });

  it("ten components reading teams cause one user request and one teams request", async () => {
    serviceAnswers();
    function Count() {
      return <p>{`teams:${useTeams().length}`}</p>;
    }
    renderWithStack(
      <>
        {Array.from({ length: 10 }, (_, i) => (
          <Count key={i} />
        ))}
      </>,
      { app: testApp({ tokens: signedIn() }).app },
    );
    expect(await screen.findAllByText("teams:1")).toHaveLength(10);
    expect(calls()).toEqual(["GET /users/me", "GET /teams?user_id=me"]);
  });
});

describe("errors", () => {
  it("a read that needs a user throws UserNotSignedInError to the boundary when nobody is signed in", async () => {
    function Teams() {
      return <p>{useTeams().length}</p>;
    }
    const { caught } = renderWithStack(<Teams />, { app: testApp().app });
    await screen.findByRole("alert");
    expect(caught[0]).toBeInstanceOf(UserNotSignedInError);
    expect(requests).toEqual([]);
  });

  it("a known error reaches the boundary as its KnownErrors class", async () => {
    server.use(
      get("/users/me", () => HttpResponse.json(example("ClientUser"))),
      post("/connected-accounts/me/github/access-token", () => knownErrorResponse(400, "OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED")),
    );
    function Account() {
      useConnectedAccount("github");
      return null;
    }
    const { caught } = renderWithStack(<Account />, { app: testApp({ tokens: signedIn() }).app });
    await screen.findByRole("alert");
    expect(caught[0]).toBeInstanceOf(KnownErrors.OAuthProviderNotFoundOrNotEnabled);
  });

  it("useQuery(stackQueryOptions(…)) reports a known error as its KnownErrors class", async () => {
    server.use(get("/teams/:id", () => knownErrorResponse(404, "TEAM_NOT_FOUND", "Team not found.")));
    let error: unknown;
    function Raw() {
      const query = useQuery(stackQueryOptions(useStackApp(), "getTeam", { path: { team_id: TEAM_ID } }));
      error = query.error;
      return <p>{query.status}</p>;
    }
    renderWithStack(<Raw />, { app: testApp({ tokens: signedIn() }).app });
    await screen.findByText("error");
    expect(error).toBeInstanceOf(KnownErrors.TeamNotFound);
  });

  it("a team hook given only an id says to pass a Team", async () => {
    function Users() {
      useTeamUsers({ id: TEAM_ID } as never);
      return null;
    }
    const { caught } = renderWithStack(<Users />, { app: testApp({ tokens: signedIn() }).app });
    await waitFor(() => expect(caught).toHaveLength(1));
    expect((caught[0] as Error).message).toBe(
      "useTeamUsers(team) needs a Team object as returned by useTeams() or useTeam(id), not only its id.",
    );
  });
});
