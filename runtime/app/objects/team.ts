// A team of the current user: the reference SDK's `Team` object (SPEC §7
// "Teams"), its members, invitations and API keys, each one call of the service.
import type { components, operations } from "../../../generated/schema.js";
import { requireOptions, signalOf, type CallOptions } from "../call-options.js";
import { StackAssertionError } from "../../errors.js";
import type { ClientAppContext } from "../context.js";
import { itemsOf, wireFields } from "../wire.js";
import { teamApiKeyMethods, type ApiKeyCreationOptions, type TeamApiKey, type TeamApiKeyFirstView } from "./api-key.js";

type Schemas = components["schemas"];
type WireTeamUpdate = operations["updateTeam"]["requestBody"]["content"]["application/json"];

/** JSON a caller may store as metadata. */
export type ReadonlyJson = null | boolean | number | string | readonly ReadonlyJson[] | { readonly [key: string]: ReadonlyJson };

/** A user's profile in one team: the name and picture they show there. */
export type TeamMemberProfile = {
  readonly displayName: string | null;
  readonly profileImageUrl: string | null;
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

/** The options of `team.update`, under their wire names (server code's add theirs: server-team.ts). */
export const TEAM_UPDATE_FIELDS = {
  displayName: "display_name",
  profileImageUrl: "profile_image_url",
  clientMetadata: "client_metadata",
} as const satisfies Record<keyof TeamUpdateOptions, keyof WireTeamUpdate>;

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
    ...teamMethods(ctx, teamId),
  };
}

/** The methods of the team `teamId`. */
export function teamMethods(ctx: ClientAppContext, teamId: string): TeamMethods {
  const keys = teamApiKeyMethods(ctx, teamId);
  const path = { team_id: teamId };
  return {
    async inviteUser(options) {
      requireOptions(options, "team.inviteUser", "{ email, callbackUrl? }");
      // The e-mail link must be absolute; by default it opens this app's team-invitation page.
      const callbackUrl = options.callbackUrl ?? ctx.absoluteUrl(ctx.urls.teamInvitation);
      await ctx.client.send("POST /team-invitations/send-code", {
        body: { email: options.email, team_id: teamId, callback_url: callbackUrl },
        ...signalOf(options),
      });
    },
    async listUsers(options) {
      const { data } = await ctx.client.send("GET /team-member-profiles", {
        params: { query: { team_id: teamId } },
        ...signalOf(options),
      });
      return itemsOf(data, "GET /team-member-profiles").map((profile) => ({
        id: profile.user_id,
        teamProfile: { displayName: profile.display_name ?? null, profileImageUrl: profile.profile_image_url ?? null },
      }));
    },
    async listInvitations(options) {
      const { data } = await ctx.client.send("GET /team-invitations", { params: { query: { team_id: teamId } }, ...signalOf(options) });
      return itemsOf(data, "GET /team-invitations").map((invitation) => ({
        id: invitation.id,
        recipientEmail: invitation.recipient_email ?? null,
        expiresAt: dateOf(invitation.expires_at_millis, "a team invitation's expires_at_millis"),
        async revoke(revokeOptions?: CallOptions) {
          await ctx.client.send("DELETE /team-invitations/{invitation_id}", {
            params: { path: { invitation_id: invitation.id }, query: { team_id: teamId } },
            ...signalOf(revokeOptions),
          });
        },
      }));
    },
    async update(update) {
      requireOptions(update, "team.update", "{ displayName?, profileImageUrl?, clientMetadata? }");
      await ctx.client.send("PATCH /teams/{team_id}", {
        params: { path },
        body: wireFields(update, TEAM_UPDATE_FIELDS) as WireTeamUpdate,
        ...signalOf(update),
      });
    },
    async delete(options) {
      await ctx.client.send("DELETE /teams/{team_id}", { params: { path }, ...signalOf(options) });
    },
    createApiKey: (options) => keys.createApiKey(options),
    listApiKeys: (options) => keys.listApiKeys(options),
  };
}

function dateOf(millis: unknown, what: string): Date {
  if (typeof millis !== "number" || !Number.isFinite(millis)) {
    throw new StackAssertionError(`The service answered ${what} that is not a time in milliseconds`);
  }
  return new Date(millis);
}
