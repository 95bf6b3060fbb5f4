// @vitest-environment jsdom
// Mutations: the exact request, and the invalidation of exactly the reads the
// change affects (by `["stackkit", operationId]` prefix), seen both through
// invalidateQueries calls and through which reads are fetched again.
import { act, cleanup, renderHook, screen, waitFor } from "@testing-library/react";
import type { UseMutationResult } from "@tanstack/react-query";
import { HttpResponse } from "msw";
import type { ReactNode } from "react";
import { describe, expect, it, vi } from "vitest";
import {
  createStackQueryClient,
  StackProvider,
  useAcceptReceivedTeamInvitation,
  useContactChannels,
  useCreateApiKey,
  useCreateContactChannel,
  useCreateTeam,
  useDeleteContactChannel,
  useInviteUser,
  useLeaveTeam,
  useRevokeApiKey,
  useRevokeSession,
  useSetPassword,
  useTeams,
  useUpdateContactChannel,
  useUpdatePassword,
  useUpdateTeam,
  useUpdateTeamProfile,
  useUpdateUser,
  useUser,
} from "../../react/index.js";
import { KnownErrors } from "../../generated/known-errors.js";
import type { ApiKey, ContactChannel, CurrentUser, Team } from "../../runtime/index.js";
import { renderWithStack } from "./render.js";
import { del, example, get, knownErrorResponse, patch, post, signedIn, useStackServer, TEAM_ID, testApp } from "./stack-test.js";

const { server, requests, calls } = useStackServer(cleanup);

const OTHER_TEAM = "1b2c3d4e-5f6a-4b7c-8d9e-0f1a2b3c4d5e";
const ok = () => HttpResponse.json({ success: true });

function answers() {
  server.use(
    get("/users/me", () => HttpResponse.json(example("ClientUser"))),
    get("/teams", () => HttpResponse.json(example("ClientTeamList"))),
    get("/contact-channels", () => HttpResponse.json(example("ContactChannelList"))),
    get("/user-api-keys", () => HttpResponse.json(example("UserApiKeyList"))),
    get("/team-api-keys", () => HttpResponse.json(example("TeamApiKeyList"))),
    get("/team-invitations", () => HttpResponse.json(example("TeamInvitationList"))),
    get("/team-member-profiles/:team/:user", () => HttpResponse.json(example("TeamMemberProfile"))),
    get("/auth/sessions", () => HttpResponse.json(example("SessionList"))),
    patch("/users/me", () => HttpResponse.json(example("ClientUser"))),
    post("/teams", () => HttpResponse.json({ ...example("ClientTeam"), id: OTHER_TEAM, display_name: "New" })),
    patch("/teams/:id", () => HttpResponse.json(example("ClientTeam"))),
    del("/team-memberships/:team/:user", ok),
    post("/team-invitations/:id/accept", () => HttpResponse.json({})),
    post("/team-invitations/send-code", () => HttpResponse.json({ success: true, id: "2e7a9c1b-3f5d-4b8e-9a2c-6d1f8e3b5a7c" })),
    patch("/team-member-profiles/:team/:user", () => HttpResponse.json(example("TeamMemberProfile"))),
    post("/user-api-keys", () => HttpResponse.json(example("UserApiKeyFirstView"))),
    post("/team-api-keys", () => HttpResponse.json(example("TeamApiKeyFirstView"))),
    patch("/user-api-keys/:id", () => HttpResponse.json(example("UserApiKey"))),
    patch("/team-api-keys/:id", () => HttpResponse.json(example("TeamApiKey"))),
    post("/contact-channels", () => HttpResponse.json(example("ContactChannel"))),
    patch("/contact-channels/:user/:id", () => HttpResponse.json(example("ContactChannel"))),
    del("/contact-channels/:user/:id", ok),
    del("/auth/sessions/:id", ok),
    post("/auth/password/update", ok),
    post("/auth/password/set", ok),
    // A change to the user (a name, a selected team) has the next request refresh the access token first.
    post("/auth/oauth/token", () => HttpResponse.json({ access_token: signedIn().accessToken })),
  );
}

/**
 * Runs one mutation hook signed in: `prepare` reads what it needs (teams, keys …)
 * through the app, then `mutate` runs. Returns the requests the mutation sent
 * and the key prefixes it invalidated.
 */
async function mutation<V, D>(useHook: () => UseMutationResult<D, Error, V>, variables: (user: CurrentUser) => Promise<V> | V) {
  answers();
  const queryClient = createStackQueryClient();
  const { app } = testApp({ tokens: signedIn() });
  const user = (await app.getUser({ or: "throw" })) as CurrentUser;
  const given = await variables(user);
  queryClient.setQueryData(["stackkit", "getCurrentUser", { user_id: "me" }], user);
  requests.length = 0;
  const invalidated: unknown[] = [];
  const original = queryClient.invalidateQueries.bind(queryClient);
  vi.spyOn(queryClient, "invalidateQueries").mockImplementation((filters, options) => {
    invalidated.push(filters?.queryKey);
    return original(filters, options);
  });
  const wrapper = ({ children }: { children: ReactNode }) => (
    <StackProvider app={app} queryClient={queryClient}>
      {children}
    </StackProvider>
  );
  const hook = renderHook(useHook, { wrapper });
  let data: D | undefined;
  let error: unknown;
  await act(async () => {
    data = await hook.result.current.mutateAsync(given).catch((e: unknown) => {
      error = e;
      return undefined;
    });
  });
  return { sent: calls(), bodies: requests.map((r) => r.body), invalidated, data, error };
}

const prefixes = (...ids: string[]) => ids.map((id) => ["stackkit", id]);
const teamOf = async (user: CurrentUser) => (await user.listTeams())[0] as Team;
const channelOf = async (user: CurrentUser) => (await user.listContactChannels())[0] as ContactChannel;

describe("mutations invalidate exactly what they change", () => {
  it("useUpdateUser: PATCH /users/me; the user", async () => {
    const r = await mutation(useUpdateUser, () => ({ displayName: "Ada L." }));
    expect(r.sent).toEqual(["PATCH /users/me"]);
    expect(r.bodies[0]).toBe(JSON.stringify({ display_name: "Ada L." }));
    expect(r.invalidated).toEqual(prefixes("getCurrentUser"));
  });

  it("useCreateTeam: POST /teams and the selection; teams, team and the user", async () => {
    const r = await mutation(useCreateTeam, () => ({ displayName: "New" }));
    expect(r.sent).toEqual(["POST /teams", "PATCH /users/me"]);
    expect(r.data).toMatchObject({ id: OTHER_TEAM, displayName: "New" });
    expect(r.invalidated).toEqual(prefixes("listTeams", "getTeam", "getCurrentUser"));
  });

  it("useUpdateTeam of the selected team: teams, team and the user (which embeds it)", async () => {
    const r = await mutation(useUpdateTeam, async (user) => ({ team: await teamOf(user), update: { displayName: "Renamed" } }));
    expect(r.sent).toEqual([`PATCH /teams/${TEAM_ID}`]);
    expect(r.invalidated).toEqual(prefixes("listTeams", "getTeam", "getCurrentUser"));
  });

  it("useLeaveTeam of the selected team: teams, team, its members, the profile and permissions there, and the user", async () => {
    const r = await mutation(useLeaveTeam, () => ({ id: TEAM_ID }));
    expect(r.sent).toEqual([`DELETE /team-memberships/${TEAM_ID}/me`]);
    expect(r.invalidated).toEqual(
      prefixes("listTeams", "getTeam", "listTeamMemberProfiles", "getTeamMemberProfile", "listTeamPermissions", "getCurrentUser"),
    );
  });

  it("useLeaveTeam of another team leaves the user alone", async () => {
    const r = await mutation(useLeaveTeam, () => ({ id: OTHER_TEAM }));
    expect(r.invalidated).not.toContainEqual(["stackkit", "getCurrentUser"]);
  });

  it("useInviteUser: POST /team-invitations/send-code; the invitations", async () => {
    const r = await mutation(useInviteUser, async (user) => ({
      team: await teamOf(user),
      email: "grace@example.com",
      callbackUrl: "https://app.example.com/join",
    }));
    expect(r.sent).toEqual(["POST /team-invitations/send-code"]);
    expect(JSON.parse(r.bodies[0]!)).toEqual({
      email: "grace@example.com",
      team_id: TEAM_ID,
      callback_url: "https://app.example.com/join",
    });
    expect(r.invalidated).toEqual(prefixes("listTeamInvitations"));
  });

  it("useAcceptReceivedTeamInvitation: POST /team-invitations/{id}/accept?user_id=me; the invitations and the teams", async () => {
    const r = await mutation(useAcceptReceivedTeamInvitation, async (user) => (await user.listTeamInvitations())[0]!);
    expect(r.sent).toEqual(["POST /team-invitations/2e7a9c1b-3f5d-4b8e-9a2c-6d1f8e3b5a7c/accept?user_id=me"]);
    expect(r.invalidated).toEqual(prefixes("listTeamInvitations", "listTeams", "getTeam"));
  });

  it("useUpdateTeamProfile: PATCH the profile; the profile and the member list", async () => {
    const r = await mutation(useUpdateTeamProfile, async (user) => ({
      profile: await user.getTeamProfile({ id: TEAM_ID }),
      update: { displayName: "A." },
    }));
    expect(r.sent).toEqual([`PATCH /team-member-profiles/${TEAM_ID}/me`]);
    expect(r.invalidated).toEqual(prefixes("getTeamMemberProfile", "listTeamMemberProfiles"));
  });

  it("useCreateApiKey: POST /user-api-keys; the user's keys", async () => {
    const r = await mutation(
      () => useCreateApiKey(),
      () => ({ description: "CI", expiresAt: null }),
    );
    expect(r.sent).toEqual(["POST /user-api-keys"]);
    expect(JSON.parse(r.bodies[0]!)).toEqual({ user_id: "me", description: "CI", expires_at_millis: null });
    expect(r.data).toMatchObject({ value: "sk_user_3k9d7f2h5j8l1n4q6s0u2w5y7a9c9f2a" });
    expect(r.invalidated).toEqual(prefixes("listUserApiKeys"));
  });

  it("useCreateApiKey(team): POST /team-api-keys; the team's keys", async () => {
    answers();
    const { app } = testApp({ tokens: signedIn() });
    const team = await teamOf((await app.getUser({ or: "throw" })) as CurrentUser);
    const r = await mutation(
      () => useCreateApiKey(team),
      () => ({ description: "Bot", expiresAt: null }),
    );
    expect(r.sent).toEqual(["POST /team-api-keys"]);
    expect(r.invalidated).toEqual(prefixes("listTeamApiKeys"));
  });

  it("useRevokeApiKey: PATCH the key with revoked; the keys of its kind", async () => {
    const r = await mutation(useRevokeApiKey, async (user) => (await user.listApiKeys())[0] as ApiKey);
    expect(r.sent).toEqual(["PATCH /user-api-keys/7d3f1b9e-5a2c-4e8b-b6d1-3c9a7e5f1b2d?user_id=me"]);
    expect(r.bodies[0]).toBe(JSON.stringify({ revoked: true }));
    expect(r.invalidated).toEqual(prefixes("listUserApiKeys"));
  });

  it("useCreateContactChannel: POST /contact-channels; the channels (and the user for a primary one)", async () => {
    const plain = await mutation(useCreateContactChannel, () => ({ value: "a@b.c", type: "email" as const, usedForAuth: false }));
    expect(plain.sent).toEqual(["POST /contact-channels"]);
    expect(plain.invalidated).toEqual(prefixes("listContactChannels"));
    const primary = await mutation(useCreateContactChannel, () => ({
      value: "a@b.c",
      type: "email" as const,
      usedForAuth: true,
      isPrimary: true,
    }));
    expect(primary.invalidated).toEqual(prefixes("listContactChannels", "getCurrentUser"));
  });

  it("useUpdateContactChannel and useDeleteContactChannel of the primary channel: the channels and the user", async () => {
    const updated = await mutation(useUpdateContactChannel, async (user) => ({
      channel: await channelOf(user),
      update: { usedForAuth: false },
    }));
    expect(updated.sent).toEqual(["PATCH /contact-channels/me/5a8e2c1f-7b3d-4e9a-a6c2-8f1d3b5e7a9c"]);
    expect(updated.invalidated).toEqual(prefixes("listContactChannels", "getCurrentUser"));
    const deleted = await mutation(useDeleteContactChannel, channelOf);
    expect(deleted.sent).toEqual(["DELETE /contact-channels/me/5a8e2c1f-7b3d-4e9a-a6c2-8f1d3b5e7a9c"]);
    expect(deleted.invalidated).toEqual(prefixes("listContactChannels", "getCurrentUser"));
  });

  it("useRevokeSession: DELETE /auth/sessions/{id}; the sessions", async () => {
    const r = await mutation(useRevokeSession, () => "b1f4c0de-2a8e-4c61-9d3e-5f7a1b2c3d4e");
    expect(r.sent).toEqual(["DELETE /auth/sessions/b1f4c0de-2a8e-4c61-9d3e-5f7a1b2c3d4e?user_id=me"]);
    expect(r.invalidated).toEqual(prefixes("listSessions"));
  });

  it("useSetPassword: the user (hasPassword); useUpdatePassword: nothing read changes", async () => {
    const set = await mutation(useSetPassword, () => ({ password: "correct horse" }));
    expect(set.sent).toEqual(["POST /auth/password/set"]);
    expect(set.invalidated).toEqual(prefixes("getCurrentUser"));
    const updated = await mutation(useUpdatePassword, () => ({ oldPassword: "a", newPassword: "b" }));
    expect(updated.sent).toEqual(["POST /auth/password/update"]);
    expect(updated.invalidated).toEqual([]);
  });

  it("a failed mutation is its typed error and invalidates nothing", async () => {
    const r = await mutation(useUpdatePassword, () => {
      server.use(post("/auth/password/update", () => knownErrorResponse(400, "PASSWORD_CONFIRMATION_MISMATCH")));
      return { oldPassword: "wrong", newPassword: "b" };
    });
    expect(r.error).toBeInstanceOf(KnownErrors.PasswordConfirmationMismatch);
    expect(r.invalidated).toEqual([]);
  });
});

describe("refetches after a mutation", () => {
  it("creating a team fetches the teams and the user again, and not the contact channels", async () => {
    answers();
    const { app } = testApp({ tokens: signedIn() });
    let create: UseMutationResult<Team, Error, { displayName: string }> | undefined;
    function Screen() {
      const user = useUser({ or: "throw" });
      const teams = useTeams();
      const channels = useContactChannels();
      create = useCreateTeam();
      return <p>{`${user.displayName}:${teams.length}:${channels.length}`}</p>;
    }
    renderWithStack(<Screen />, { app });
    await screen.findByText("Ada Lovelace:1:1");
    requests.length = 0;
    await act(async () => {
      await create!.mutateAsync({ displayName: "New" });
    });
    await waitFor(() =>
      expect(
        calls()
          .filter((c) => c.startsWith("GET"))
          .sort(),
      ).toEqual(["GET /teams?user_id=me", "GET /users/me"]),
    );
    // The new team is the selected one, which the access token says: the refetches go with a new token.
    expect(calls("POST")).toEqual(["POST /teams", "POST /auth/oauth/token"]);
  });
});
