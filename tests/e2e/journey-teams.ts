// The journey, second part: Ada's team, an invitation Grace accepts with the
// code of the mailed link, member profiles, the selected team, permissions
// (default, contained, granted and revoked by the server), and user and team
// API keys checked by the server until they are revoked or expire (the
// emulator's clock moved through its control API).
import { describe, expect, it } from "vitest";
import { KnownErrors, ServiceVersionError, type CurrentUser, type Team } from "../../runtime/index.js";
import { HANDLER, rejectionOf, type Cast, type E2E } from "./harness.js";

const INVITED = /invited to join/;
const INVITATION_PAGE = `${HANDLER}/team-invitation`;

export function teamJourney(world: () => E2E, cast: Cast): void {
  const ada = () => cast.ada.getUser({ or: "throw" });
  const grace = () => cast.grace.getUser({ or: "throw" });
  const teamOf = async (user: Promise<CurrentUser>): Promise<Team> => {
    const team = await (await user).getTeam(cast.teamId);
    if (!team) throw new Error("not a member of the team");
    return team;
  };

  describe("teams, invitations and member profiles", () => {
    it("Ada creates a team: she is its only member, it is her selected team, and the server sees it", async () => {
      const e = world();
      const user = await ada();
      const team = await user.createTeam({ displayName: "Analytical Engines" });
      cast.teamId = team.id;
      expect((await ada()).selectedTeam?.id).toBe(team.id);
      expect((await user.listTeams()).map((t) => t.displayName)).toEqual(["Analytical Engines"]);
      await team.update({ displayName: "Analytical Engine Society", clientMetadata: { founded: 1843 } });
      const onServer = await e.server().getTeam(team.id);
      expect([onServer?.displayName, onServer?.clientMetadata]).toEqual(["Analytical Engine Society", { founded: 1843 }]);
      expect((await team.listUsers()).map((u) => u.id)).toEqual([cast.adaId]);
    });

    it("invites Grace, who signs up and joins with the code of the link in her mailbox", async () => {
      const e = world();
      const team = await teamOf(ada());
      await team.inviteUser({ email: cast.graceEmail });
      const [invitation] = await team.listInvitations();
      expect(invitation?.recipientEmail).toBe(cast.graceEmail);
      expect(invitation!.expiresAt.getTime()).toBeGreaterThan(Date.now());

      cast.grace = e.client();
      expect(
        (await cast.grace.signUpWithCredential({ email: cast.graceEmail, password: cast.gracePassword, noRedirect: true })).status,
      ).toBe("ok");
      cast.graceId = (await grace()).id;
      const code = await e.codeFromMail(cast.graceEmail, INVITED, INVITATION_PAGE);
      expect((await cast.grace.verifyTeamInvitationCode(code)).status).toBe("ok");
      const details = await cast.grace.getTeamInvitationDetails(code);
      expect(details.status === "ok" && details.data.teamDisplayName).toBe("Analytical Engine Society");
      expect((await cast.grace.acceptTeamInvitation(code)).status).toBe("ok");
      const reused = await cast.grace.acceptTeamInvitation(code);
      expect(reused.status === "error" && reused.error).toBeInstanceOf(KnownErrors.VerificationCodeError);

      expect((await (await grace()).listTeams()).map((t) => t.id)).toEqual([cast.teamId]);
      expect((await team.listUsers()).map((u) => u.id).sort()).toEqual([cast.adaId, cast.graceId].sort());
      expect(await team.listInvitations()).toEqual([]);
      expect((await (await e.server().getTeam(cast.teamId))!.listUsers()).map((u) => u.primaryEmail).sort()).toEqual([
        cast.adaEmail,
        cast.graceEmail,
      ]);
    });

    it("revokes an invitation; its mailed code then opens nothing", async () => {
      const e = world();
      const team = await teamOf(ada());
      await team.inviteUser({ email: "charles@example.com" });
      const code = await e.codeFromMail("charles@example.com", INVITED, INVITATION_PAGE);
      const [invitation] = await team.listInvitations();
      await invitation!.revoke();
      expect(await team.listInvitations()).toEqual([]);
      const check = await e.client().verifyTeamInvitationCode(code);
      expect(check.status === "error" && check.error).toBeInstanceOf(KnownErrors.VerificationCodeError);
    });

    it("Ada lists the invitations sent to her verified address and joins by them (2.8.86); 2.8.11 has no such list", async () => {
      const e = world();
      const server = e.server();
      const user = await ada();
      const tokens = await user.currentSession.getTokens();
      const onServer = {
        byId: async () => (await server.getUser(cast.adaId))!,
        current: () =>
          e.server({ tokenStore: { accessToken: tokens.accessToken!, refreshToken: tokens.refreshToken! } }).getUser({ or: "throw" }),
        member: async () => (await (await server.getTeam(cast.teamId))!.listUsers()).find((u) => u.id === cast.adaId)!,
      };
      if (e.serviceVersion === "2.8.11") {
        for (const list of [
          () => user.listTeamInvitations(),
          ...Object.values(onServer).map((of) => async () => (await of()).listTeamInvitations()),
        ]) {
          expect(await rejectionOf(list())).toBeInstanceOf(ServiceVersionError);
        }
        return;
      }
      const looms = await server.createTeam({ displayName: "Jacquard Looms" });
      await looms.inviteUser({ email: cast.adaEmail, callbackUrl: INVITATION_PAGE });
      await looms.inviteUser({ email: cast.adaEmail, callbackUrl: INVITATION_PAGE });
      const received = await user.listTeamInvitations();
      expect(received.map((i) => [i.teamId, i.teamDisplayName, i.recipientEmail])).toEqual([
        [looms.id, "Jacquard Looms", cast.adaEmail],
        [looms.id, "Jacquard Looms", cast.adaEmail],
      ]);
      for (const of of Object.values(onServer)) expect(await (await of()).listTeamInvitations()).toHaveLength(2);
      await received[0]!.accept();
      expect((await user.listTeams()).map((t) => t.id)).toContain(looms.id);
      const [left] = await (await onServer.byId()).listTeamInvitations();
      await left!.accept();
      expect(await user.listTeamInvitations()).toEqual([]);
      await looms.delete();
    });

    it("Grace names herself in the team; Ada sees that member profile", async () => {
      const profile = await (await grace()).getTeamProfile({ id: cast.teamId });
      await profile.update({ displayName: "Grace H.", profileImageUrl: "https://example.com/grace.png" });
      const members = await (await teamOf(ada())).listUsers();
      expect(members.find((m) => m.id === cast.graceId)?.teamProfile).toEqual({
        displayName: "Grace H.",
        profileImageUrl: "https://example.com/grace.png",
      });
      // A member who never named herself in the team shows her own display name.
      expect(members.find((m) => m.id === cast.adaId)?.teamProfile.displayName).toBe("Augusta Ada King");
      expect((await (await grace()).getTeamProfile({ id: cast.teamId })).displayName).toBe("Grace H.");
    });

    it("Ada switches her selected team, and deletes a team she no longer needs", async () => {
      const e = world();
      const user = await ada();
      const scratch = await user.createTeam({ displayName: "Scratch" });
      expect((await ada()).selectedTeam?.id).toBe(scratch.id);
      await user.setSelectedTeam({ id: cast.teamId });
      expect((await ada()).selectedTeam?.displayName).toBe("Analytical Engine Society");
      await user.setSelectedTeam(null);
      expect((await ada()).selectedTeam).toBeNull();
      await user.setSelectedTeam(cast.teamId);
      await scratch.delete();
      expect(await user.getTeam(scratch.id)).toBeNull();
      expect(await e.server().getTeam(scratch.id)).toBeNull();
      expect((await ada()).selectedTeam?.id).toBe(cast.teamId);
    });
  });

  describe("permissions", () => {
    const team = () => ({ id: cast.teamId });

    it("gives the team's creator team_admin and a joiner team_member, each with what it contains", async () => {
      const user = await ada();
      expect((await user.listPermissions(team(), { recursive: false })).map((p) => p.id)).toEqual(["team_admin"]);
      expect((await user.listPermissions(team())).map((p) => p.id)).toEqual(
        expect.arrayContaining(["team_admin", "$update_team", "$delete_team", "$manage_api_keys"]),
      );
      expect(await user.getPermission(team(), "team_admin")).toEqual({ id: "team_admin" });
      expect(await user.hasPermission(team(), "$delete_team")).toBe(true);

      const member = await grace();
      expect((await member.listPermissions(team(), { recursive: false })).map((p) => p.id)).toEqual(["team_member"]);
      expect(await member.hasPermission(team(), "$invite_members")).toBe(true);
      expect(await member.hasPermission(team(), "$update_team")).toBe(false);
      expect(await member.getPermission(team(), "$update_team")).toBeNull();
      const error = await rejectionOf((await teamOf(grace())).update({ displayName: "Hijacked" }));
      expect(error).toBeInstanceOf(KnownErrors.TeamPermissionRequired);
      expect((await world().server().getTeam(cast.teamId))?.displayName).toBe("Analytical Engine Society");
    });

    it("the server grants Grace a project permission and a custom team permission, then revokes them", async () => {
      const e = world();
      const admin = e.admin();
      await admin.createProjectPermissionDefinition({ id: "read_reports", description: "Reads the reports" });
      await admin.createTeamPermissionDefinition({ id: "billing", description: "Pays the bills" });
      const onServer = (await e.server().getUser(cast.graceId))!;
      await onServer.grantPermission("read_reports");
      await onServer.grantPermission(team(), "billing");
      const member = await grace();
      expect(await member.hasPermission("read_reports")).toBe(true);
      expect((await member.listPermissions()).map((p) => p.id)).toEqual(["read_reports"]);
      expect(await member.getPermission("read_reports")).toEqual({ id: "read_reports" });
      expect(await member.hasPermission(team(), "billing")).toBe(true);

      await onServer.revokePermission("read_reports");
      await onServer.revokePermission(team(), "billing");
      expect(await member.hasPermission("read_reports")).toBe(false);
      expect(await member.getPermission("read_reports")).toBeNull();
      expect(await member.hasPermission(team(), "billing")).toBe(false);
    });
  });

  describe("user and team API keys", () => {
    it("Ada's user key stands for her on the server until she revokes it", async () => {
      const e = world();
      const user = await ada();
      const key = await user.createApiKey({ description: "CI", expiresAt: new Date(Date.now() + 3_600_000) });
      expect([key.type, key.userId, key.isValid(), typeof key.value]).toEqual(["user", cast.adaId, true, "string"]);
      expect((await e.server().getUser({ apiKey: key.value }))?.id).toBe(cast.adaId);

      const [listed] = await user.listApiKeys();
      expect([listed?.id, listed?.description, listed?.value]).toEqual([key.id, "CI", { lastFour: key.value.slice(-4) }]);
      await listed!.update({ description: "CI runner" });
      expect((await user.listApiKeys()).map((k) => k.description)).toEqual(["CI runner"]);

      await key.revoke();
      expect(await e.server().getUser({ apiKey: key.value })).toBeNull();
      const [revoked] = await user.listApiKeys();
      expect([revoked?.isValid(), revoked?.whyInvalid()]).toEqual([false, "manually-revoked"]);
    });

    it("a team key stands for the team; a member without $manage_api_keys is told there is no such key", async () => {
      const e = world();
      const team = await teamOf(ada());
      const key = await team.createApiKey({ description: "Deploys", expiresAt: null });
      expect([key.type, key.teamId, key.expiresAt]).toEqual(["team", cast.teamId, undefined]);
      expect((await e.server().getTeam({ apiKey: key.value }))?.id).toBe(cast.teamId);
      expect(await e.server().getUser({ apiKey: key.value })).toBeNull();

      const [listed] = await team.listApiKeys();
      await listed!.update({ description: "Deploys to production" });
      expect((await team.listApiKeys()).map((k) => k.description)).toEqual(["Deploys to production"]);
      await listed!.revoke();
      expect(await e.server().getTeam({ apiKey: key.value })).toBeNull();

      // As the service answers it (openapi/paths/team-api-keys.yaml): API_KEY_NOT_FOUND, so as not to reveal the team.
      const refused = await rejectionOf((await teamOf(grace())).createApiKey({ description: "mine", expiresAt: null }));
      expect(refused).toBeInstanceOf(KnownErrors.ApiKeyNotFound);
      expect(await team.listApiKeys()).toHaveLength(1);
    });

    it("a key past its expiry, as the emulator's clock moves on, no longer stands for anyone", async () => {
      const e = world();
      const key = await (await ada()).createApiKey({ description: "one hour", expiresAt: new Date(Date.now() + 3_600_000) });
      expect((await e.server().getUser({ apiKey: key.value }))?.id).toBe(cast.adaId);
      await e.advanceClock(2 * 3_600_000);
      expect(await e.server().getUser({ apiKey: key.value })).toBeNull();
      const log = await e.control<{ knownError: string | null }[]>("GET", "requests?operation_id=checkUserApiKey");
      expect(log.at(-1)?.knownError).toBe("API_KEY_EXPIRED");
    });

    it("Grace leaves the team: it is gone from her teams and from its members", async () => {
      const member = await grace();
      await member.leaveTeam({ id: cast.teamId });
      expect(await member.listTeams()).toEqual([]);
      expect(await member.getTeam(cast.teamId)).toBeNull();
      expect((await (await teamOf(ada())).listUsers()).map((u) => u.id)).toEqual([cast.adaId]);
    });
  });
}
