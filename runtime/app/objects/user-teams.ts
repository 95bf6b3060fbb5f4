// The current user's teams: the team methods of `CurrentUser` (listTeams,
// getTeam, createTeam, leaveTeam, getTeamProfile, listTeamInvitations), each
// one call of the service (SPEC §7 "Teams").
import { isKnownError } from "../../../generated/known-error-guard.js";
import { checkAborted, requireOptions, signalOf, type CallOptions } from "../call-options.js";
import { StackConfigurationError } from "../../errors.js";
import type { ClientAppContext } from "../context.js";
import { accessTokenClaimsChanged } from "../token-claims.js";
import { answered, isUuid, itemsOf } from "../wire.js";
import { listReceivedTeamInvitations, type ReceivedTeamInvitation } from "./received-invitations.js";
import { createTeamObject, type Team, type TeamMemberProfile } from "./team.js";

/**
 * What `EditableTeamMemberProfile.update` changes in the user's profile in one team; fields left out stay as they are.
 *
 * @example
 * ```ts
 * const options: TeamMemberProfileUpdateOptions = { displayName: "Ada (Platform)", profileImageUrl: null };
 * const profile = await user.getTeamProfile(team);
 * await profile.update(options);
 * ```
 */
export type TeamMemberProfileUpdateOptions = {
  /** The name the user shows in this team. */
  readonly displayName?: string;
  /** The picture the user shows in this team; `null` removes it. */
  readonly profileImageUrl?: string | null;
};

/**
 * The signed-in user's own profile in a team, which they may change (`user.getTeamProfile(team)`).
 *
 * @interface
 */
export type EditableTeamMemberProfile = TeamMemberProfile & {
  /**
   * Changes the user's own profile in the team (`PATCH /team-member-profiles/{team_id}/{user_id}`);
   * only the fields given are sent. This object keeps showing the profile as it was read.
   *
   * @example
   * ```ts
   * const profile = await user.getTeamProfile(team);
   * if (profile.displayName === null) {
   *   await profile.update({ displayName: user.displayName ?? "New member" });
   * }
   * ```
   */
  update(update: TeamMemberProfileUpdateOptions & CallOptions): Promise<void>;
};

/**
 * What a new team is made with (`createTeam`).
 *
 * @example
 * ```ts
 * const options: TeamCreateOptions = { displayName: "Platform", profileImageUrl: "https://example.com/platform.png" };
 * const team = await user.createTeam(options);
 * ```
 */
export type TeamCreateOptions = {
  /** The team's name. */
  readonly displayName: string;
  /** The URL of the team's picture; default none. */
  readonly profileImageUrl?: string;
};

export interface UserTeamMethods {
  /**
   * The teams the user is a member of (`GET /teams?user_id=me`).
   *
   * @example
   * ```ts
   * const user = await app.getUser({ or: "throw" });
   * const teams = await user.listTeams();
   * for (const team of teams) {
   *   console.log(team.id, team.displayName, team.id === user.selectedTeam?.id ? "(selected)" : "");
   * }
   * ```
   */
  listTeams(options?: CallOptions): Promise<Team[]>;
  /**
   * The team if the current user is a member of it, else null (`GET /teams/{team_id}`). An id that
   * is not a UUID, a team that does not exist and one the user is not in all answer null.
   *
   * @example
   * ```ts
   * const team = await user.getTeam(teamId);
   * if (team === null) {
   *   throw new Error("No such team, or you are not a member of it");
   * }
   * console.log(team.displayName);
   * ```
   */
  getTeam(teamId: string, options?: CallOptions): Promise<Team | null>;
  /**
   * Creates a team with the user as its first member and selects it (`POST /teams`, then
   * `PATCH /users/me`). The project must allow clients to create teams; its refusal is thrown.
   *
   * @example
   * ```ts
   * const team = await user.createTeam({ displayName: "Platform" });
   * await team.inviteUser({ email: "grace@example.com" });
   * ```
   */
  createTeam(data: TeamCreateOptions & CallOptions): Promise<Team>;
  /**
   * Removes the user from the team (`DELETE /team-memberships/{team_id}/me`); `team` is a Team or
   * any object with the team's id.
   *
   * @example
   * ```ts
   * const team = await user.getTeam(teamId);
   * if (team !== null) {
   *   await user.leaveTeam(team);
   * }
   * ```
   */
  leaveTeam(team: { readonly id: string }, options?: CallOptions): Promise<void>;
  /**
   * The user's own profile in the team (`GET /team-member-profiles/{team_id}/me`), which it can
   * change with `update`; `team` is a Team or any object with the team's id.
   *
   * @example
   * ```ts
   * const profile = await user.getTeamProfile(team);
   * console.log(profile.displayName, profile.profileImageUrl);
   * await profile.update({ displayName: "Ada L." });
   * ```
   */
  getTeamProfile(team: { readonly id: string }, options?: CallOptions): Promise<EditableTeamMemberProfile>;
  /**
   * The pending invitations sent to the user's verified e-mail addresses
   * (`GET /team-invitations?user_id=me`), each naming its team and accepted with `accept()`. A
   * 2.8.86 service feature: a 2.8.11 service refuses it with a ServiceVersionError (nothing is
   * listed there; its invitations are accepted with the e-mailed code, `app.acceptTeamInvitation(code)`).
   *
   * @example
   * ```ts
   * const invitations = await user.listTeamInvitations();
   * const acme = invitations.find((invitation) => invitation.teamDisplayName === "Acme");
   * if (acme) await acme.accept();
   * ```
   */
  listTeamInvitations(options?: CallOptions): Promise<ReceivedTeamInvitation[]>;
}

export function userTeamMethods(ctx: ClientAppContext): UserTeamMethods {
  return {
    async listTeams(options) {
      const { data } = await ctx.client.send("GET /teams", { params: { query: { user_id: "me" } }, ...signalOf(options) });
      return itemsOf(data, "GET /teams").map((team) => createTeamObject(ctx, team));
    },
    async getTeam(teamId, options) {
      checkAborted(options);
      // One request instead of the reference's "list all, then filter". A team that
      // does not exist and one the user is not a member of both read as "no such team".
      if (!isUuid(teamId)) return null;
      try {
        const { data } = await ctx.client.send("GET /teams/{team_id}", { params: { path: { team_id: teamId } }, ...signalOf(options) });
        return createTeamObject(ctx, answered(data, "GET /teams/{team_id}"));
      } catch (error) {
        if (isKnownError(error, "TEAM_NOT_FOUND") || isKnownError(error, "TEAM_MEMBERSHIP_NOT_FOUND")) return null;
        throw error;
      }
    },
    async createTeam(data) {
      requireOptions(data, "createTeam", "{ displayName, profileImageUrl? }");
      // Whether clients may create teams is the project's client_team_creation_enabled
      // flag, enforced by the service; its refusal reaches the caller as thrown.
      const created = await ctx.client.send("POST /teams", {
        body: {
          display_name: data.displayName,
          ...(data.profileImageUrl === undefined ? {} : { profile_image_url: data.profileImageUrl }),
          creator_user_id: "me",
        },
        ...signalOf(data),
      });
      const team = createTeamObject(ctx, answered(created.data, "POST /teams"));
      await ctx.client.send("PATCH /users/me", { body: { selected_team_id: team.id }, ...signalOf(data) });
      accessTokenClaimsChanged(ctx);
      return team;
    },
    async leaveTeam(team, options) {
      await ctx.client.send("DELETE /team-memberships/{team_id}/{user_id}", {
        params: { path: { team_id: teamIdOf(team, "leaveTeam"), user_id: "me" } },
        body: {},
        ...signalOf(options),
      });
    },
    listTeamInvitations: (options) => listReceivedTeamInvitations(ctx, "me", "user.listTeamInvitations", options),
    async getTeamProfile(team, options) {
      const path = { team_id: teamIdOf(team, "getTeamProfile"), user_id: "me" };
      const { data } = await ctx.client.send("GET /team-member-profiles/{team_id}/{user_id}", { params: { path }, ...signalOf(options) });
      return editableTeamProfile(ctx, path, answered(data, "GET /team-member-profiles/{team_id}/me"));
    },
  };
}

/** The profile `profile` of user `path.user_id` in team `path.team_id`, which `update` changes (the signed-in user's, or any user's for server code). */
export function editableTeamProfile(
  ctx: ClientAppContext,
  path: { readonly team_id: string; readonly user_id: string },
  profile: { readonly display_name: string | null; readonly profile_image_url: string | null },
): EditableTeamMemberProfile {
  return {
    displayName: profile.display_name ?? null,
    profileImageUrl: profile.profile_image_url ?? null,
    async update(update) {
      requireOptions(update, "teamProfile.update", "{ displayName?, profileImageUrl? }");
      await ctx.client.send("PATCH /team-member-profiles/{team_id}/{user_id}", {
        params: { path },
        body: {
          ...(update.displayName === undefined ? {} : { display_name: update.displayName }),
          ...(update.profileImageUrl === undefined ? {} : { profile_image_url: update.profileImageUrl }),
        },
        ...signalOf(update),
      });
    },
  };
}

function teamIdOf(team: { readonly id: string } | null | undefined, method: string): string {
  if (typeof team?.id !== "string" || team.id === "") {
    throw new StackConfigurationError(`${method} needs a team (an object with its id), as returned by listTeams() or getTeam().`);
  }
  return team.id;
}
