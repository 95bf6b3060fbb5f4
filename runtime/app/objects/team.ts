// Teams of the current user: the reference SDK's `Team` object and the team
// methods of `CurrentUser` (listTeams, getTeam, createTeam, leaveTeam,
// getTeamProfile), each one call of the service (SPEC §7 "Teams"). The calls
// (team-calls.ts) load with the first of them.
import type { components } from "../../../generated/schema.js";
import { StackAssertionError, lazy, type CallOptions } from "../../core.js";
import type { ClientAppContext } from "../context.js";
import { lazyMethods } from "../lazy-methods.js";
import type { ApiKeyCreationOptions, TeamApiKey, TeamApiKeyFirstView } from "./api-key.js";
import type { ReceivedTeamInvitation } from "./received-invitations.js";

const loadTeams = /* @__PURE__ */ lazy("teams", () => import("./team-calls.js"));

type Schemas = components["schemas"];

/** JSON a caller may store as metadata. */
export type ReadonlyJson = null | boolean | number | string | readonly ReadonlyJson[] | { readonly [key: string]: ReadonlyJson };

/** A user's profile in one team: the name and picture they show there. */
export type TeamMemberProfile = {
  readonly displayName: string | null;
  readonly profileImageUrl: string | null;
};

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

/** A member of a team as its other members see it (`team.listUsers()`): the user's id and profile in the team. */
export type TeamUser = {
  readonly id: string;
  readonly teamProfile: TeamMemberProfile;
};

/** An invitation to a team sent by e-mail and not yet accepted (`team.listInvitations()`). */
export type TeamInvitation = {
  readonly id: string;
  readonly recipientEmail: string | null;
  readonly expiresAt: Date;
  /**
   * Withdraws the invitation (`DELETE /team-invitations/{invitation_id}`): its link no longer works.
   *
   * @example
   * ```ts
   * const invitations = await team.listInvitations();
   * for (const invitation of invitations) {
   *   if (invitation.recipientEmail === "grace@example.com") await invitation.revoke();
   * }
   * ```
   */
  revoke(options?: CallOptions): Promise<void>;
};

/**
 * What `Team.update` changes; fields left out stay as they are.
 *
 * @example
 * ```ts
 * const options: TeamUpdateOptions = { displayName: "Platform", clientMetadata: { plan: "pro" } };
 * await team.update(options);
 * ```
 */
export type TeamUpdateOptions = {
  /** The team's new name. */
  readonly displayName?: string;
  /** The URL of the team's picture; `null` removes it. */
  readonly profileImageUrl?: string | null;
  /** JSON the client may read and write; it replaces the team's client metadata as a whole. */
  readonly clientMetadata?: ReadonlyJson;
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

/** A team the signed-in user belongs to (`user.listTeams()`, `user.getTeam(id)`): its profile and metadata, its members, invitations and API keys. */
export type Team = {
  readonly id: string;
  readonly displayName: string;
  readonly profileImageUrl: string | null;
  // `any`, as in the reference, so that code reading its own metadata shape compiles unchanged.
  readonly clientMetadata: any;
  readonly clientReadOnlyMetadata: any;
  /**
   * E-mails an invitation to join the team to `email` (`POST /team-invitations/send-code`). Its
   * link is `callbackUrl` with a `code` added, by default this app's team-invitation page. A client
   * needs the team's `$invite_members` permission.
   *
   * @example
   * ```ts
   * await team.inviteUser({ email: "grace@example.com" });
   * // Or with a page of your own, on a trusted domain:
   * await team.inviteUser({ email: "alan@example.com", callbackUrl: "https://app.example.com/join-team" });
   * ```
   */
  inviteUser(options: { email: string; callbackUrl?: string } & CallOptions): Promise<void>;
  /**
   * The team's members with their team profiles (`GET /team-member-profiles`). A client needs the
   * team's `$read_members` permission.
   *
   * @example
   * ```ts
   * const members = await team.listUsers();
   * for (const member of members) {
   *   console.log(member.id, member.teamProfile.displayName ?? "(no name)");
   * }
   * ```
   */
  listUsers(options?: CallOptions): Promise<TeamUser[]>;
  /**
   * The team's pending invitations (`GET /team-invitations`). A client needs the team's
   * `$read_members` and `$invite_members` permissions.
   *
   * @example
   * ```ts
   * const invitations = await team.listInvitations();
   * for (const invitation of invitations) {
   *   console.log(invitation.recipientEmail, invitation.expiresAt.toISOString());
   * }
   * ```
   */
  listInvitations(options?: CallOptions): Promise<TeamInvitation[]>;
  /**
   * Changes the team (`PATCH /teams/{team_id}`); only the fields given are sent, and this object keeps
   * showing the team as it was read. A client needs the team's `$update_team` permission.
   *
   * @example
   * ```ts
   * const team = await user.getTeam(teamId);
   * if (team !== null) {
   *   await team.update({ displayName: "Platform", profileImageUrl: null });
   * }
   * ```
   */
  update(update: TeamUpdateOptions & CallOptions): Promise<void>;
  /**
   * Deletes the team (`DELETE /teams/{team_id}`). A client needs the team's
   * `$delete_team` permission.
   *
   * @example
   * ```ts
   * const team = await user.getTeam(teamId);
   * if (team !== null && (await user.hasPermission(team, "$delete_team"))) {
   *   await team.delete();
   * }
   * ```
   */
  delete(options?: CallOptions): Promise<void>;
  /**
   * Creates an API key for the team (`POST /team-api-keys`) and returns it with its full `value`, which
   * is shown this once. A client needs the team's `$manage_api_keys` permission.
   *
   * @example
   * ```ts
   * const key = await team.createApiKey({
   *   description: "Billing export",
   *   expiresAt: new Date(Date.now() + 30 * 24 * 60 * 60 * 1000),
   * });
   * console.log(key.value); // store it now: later reads show only the last four characters
   * ```
   */
  createApiKey(options: ApiKeyCreationOptions<"team"> & CallOptions): Promise<TeamApiKeyFirstView>;
  /**
   * The team's API keys, revoked and expired ones included (`GET /team-api-keys`); each shows only the
   * last four characters of its value. A client needs the team's `$manage_api_keys` permission.
   *
   * @example
   * ```ts
   * const keys = await team.listApiKeys();
   * for (const key of keys.filter((k) => k.isValid())) {
   *   console.log(key.description, `…${key.value.lastFour}`);
   * }
   * ```
   */
  listApiKeys(options?: CallOptions): Promise<TeamApiKey[]>;
};

/** What a team does, as opposed to what it holds. */
export type TeamMethods = Omit<Team, "id" | "displayName" | "profileImageUrl" | "clientMetadata" | "clientReadOnlyMetadata">;

export function createTeamObject(ctx: ClientAppContext, wire: Schemas["ClientTeam"]): Team {
  if (typeof wire?.id !== "string") throw new StackAssertionError("The service answered a team without an id");
  const teamId = wire.id;
  return {
    id: teamId,
    displayName: wire.display_name,
    profileImageUrl: wire.profile_image_url ?? null,
    clientMetadata: wire.client_metadata ?? null,
    clientReadOnlyMetadata: wire.client_read_only_metadata ?? null,
    ...lazyMethods(loadTeams, (m) => m.teamMethods(ctx, teamId), {
      inviteUser: true,
      listUsers: true,
      listInvitations: true,
      update: true,
      delete: true,
      createApiKey: true,
      listApiKeys: true,
    }),
  };
}

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
  return lazyMethods(loadTeams, (m) => m.userTeamMethods(ctx), {
    listTeams: true,
    getTeam: true,
    createTeam: true,
    leaveTeam: true,
    getTeamProfile: true,
    listTeamInvitations: true,
  });
}
