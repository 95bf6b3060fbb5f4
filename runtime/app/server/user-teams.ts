// A server user's teams (endpoints.md §C): the teams they belong to, creating a
// team with them as its first member, leaving one, and their team profile.
// Leaving is a server request for this user (DELETE /team-memberships/{team}/{user});
// the reference sends it as a client request without the secret key (wire contract §14).
import { callOf, requireOptions, signalOf, type CallOptions } from "../call-options.js";
import { listReceivedTeamInvitations, type ReceivedTeamInvitation } from "../objects/received-invitations.js";
import { editableTeamProfile, type EditableTeamMemberProfile } from "../objects/user-teams.js";
import { answered } from "../wire.js";
import { teamIdOf } from "./common.js";
import type { ServerAppContext } from "./context.js";
import {
  asServerTeam,
  createServerTeamObject,
  serverTeamCreateToWire,
  type ServerTeam,
  type ServerTeamCreateOptions,
} from "./server-team.js";
import { listTeamPage, type ServerListTeamsOptions } from "./team-listing.js";

export interface ServerUserTeamMethods {
  /**
   * The teams the user is a member of (`GET /teams?user_id=`), as server teams: without options
   * all of them, with them one page, searched and sorted, whose `nextCursor` reads the next page
   * (null on the last page, and for the whole list). The options are the hosted service's since
   * 2.8.102: a 2.8.86 or 2.8.11 service refuses them, and the call rejects with a
   * `ServiceVersionError`.
   *
   * @example
   * ```ts
   * const user = await app.getUser(userId);
   * const teams = (await user?.listTeams()) ?? [];
   * console.log(teams.map((team) => team.displayName));
   * const newest = await user?.listTeams({ limit: 5, orderBy: "createdAt", desc: true });
   * ```
   */
  listTeams(options?: ServerListTeamsOptions & CallOptions): Promise<ServerTeam[] & { nextCursor: string | null }>;
  /**
   * The team if the user is a member of it, else null; read from the user's teams (`GET /teams?user_id=`).
   *
   * @example
   * ```ts
   * const team = await user.getTeam(teamId);
   * if (team === null) {
   *   return new Response("Not a member of this team", { status: 403 });
   * }
   * ```
   */
  getTeam(teamId: string, options?: CallOptions): Promise<ServerTeam | null>;
  /**
   * Creates a team with this user as its first member and selects it (`POST /teams`, then
   * `PATCH /users/{id}`).
   *
   * @example
   * ```ts
   * const user = await app.getUser(userId);
   * if (user !== null) {
   *   const team = await user.createTeam({ displayName: "Ada's team" });
   *   await team.inviteUser({ email: "grace@example.com" });
   * }
   * ```
   */
  createTeam(data: Omit<ServerTeamCreateOptions, "creatorUserId"> & CallOptions): Promise<ServerTeam>;
  /**
   * Removes the user from the team (`DELETE /team-memberships/{team_id}/{user_id}`); `team` is a team
   * or any object with its id.
   *
   * @example
   * ```ts
   * const user = await app.getUser(userId);
   * if (user !== null) {
   *   await user.leaveTeam({ id: teamId });
   * }
   * ```
   */
  leaveTeam(team: { readonly id: string }, options?: CallOptions): Promise<void>;
  /**
   * The user's profile in the team (`GET /team-member-profiles/{team_id}/{user_id}`), which server code
   * can change with `update`; `team` is a team or any object with its id.
   *
   * @example
   * ```ts
   * const profile = await user.getTeamProfile({ id: teamId });
   * console.log(profile.displayName, profile.profileImageUrl);
   * await profile.update({ displayName: "Ada (Support)" });
   * ```
   */
  getTeamProfile(team: { readonly id: string }, options?: CallOptions): Promise<EditableTeamMemberProfile>;
  /**
   * The pending invitations sent to the user's verified e-mail addresses
   * (`GET /team-invitations?user_id=`, with the server key); `accept()` joins this user to the
   * invitation's team. A 2.8.86 service feature: a 2.8.11 service refuses it with a ServiceVersionError.
   *
   * @example
   * ```ts
   * const user = await app.getUser(userId);
   * for (const invitation of (await user?.listTeamInvitations()) ?? []) {
   *   if (invitation.teamId === teamId) await invitation.accept();
   * }
   * ```
   */
  listTeamInvitations(options?: CallOptions): Promise<ReceivedTeamInvitation[]>;
}

export function serverUserTeamMethods(ctx: ServerAppContext, userId: string): ServerUserTeamMethods {
  const listTeams = (options?: ServerListTeamsOptions & CallOptions) =>
    listTeamPage(ctx, userId, options, "user.listTeams", (team) => createServerTeamObject(ctx, asServerTeam(team, "GET /teams")));
  return {
    listTeams,
    listTeamInvitations: (options) => listReceivedTeamInvitations(ctx, userId, "user.listTeamInvitations", options),
    async getTeam(teamId, options) {
      // Membership is what is asked, so the answer comes from the user's own teams, all of them.
      return (await listTeams(callOf(options))).find((team) => team.id === teamId) ?? null;
    },
    async createTeam(data) {
      requireOptions(data, "user.createTeam", "{ displayName, profileImageUrl? }");
      const signal = signalOf(data);
      const created = await ctx.client.send("POST /teams", {
        body: serverTeamCreateToWire({ ...data, creatorUserId: userId }),
        ...signal,
      });
      const team = createServerTeamObject(ctx, asServerTeam(answered(created.data, "POST /teams"), "POST /teams"));
      await ctx.client.send("PATCH /users/{user_id}", {
        params: { path: { user_id: userId } },
        body: { selected_team_id: team.id },
        ...signal,
      });
      return team;
    },
    async leaveTeam(team, options) {
      await ctx.client.send("DELETE /team-memberships/{team_id}/{user_id}", {
        params: { path: { team_id: teamIdOf(team, "user.leaveTeam"), user_id: userId } },
        body: {},
        ...signalOf(options),
      });
    },
    async getTeamProfile(team, options) {
      const path = { team_id: teamIdOf(team, "user.getTeamProfile"), user_id: userId };
      const { data } = await ctx.client.send("GET /team-member-profiles/{team_id}/{user_id}", { params: { path }, ...signalOf(options) });
      const profile = answered(data, "GET /team-member-profiles/{team_id}/{user_id}");
      return editableTeamProfile(ctx, path, profile);
    },
  };
}
