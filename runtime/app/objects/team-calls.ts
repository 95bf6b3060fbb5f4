// The calls behind teams (SPEC §7 "Teams"): what a Team object and the current
// user's team methods send, one call of the service each.
import { isKnownError } from "../../../generated/known-error-guard.js";
import type { components } from "../../../generated/schema.js";
import { StackAssertionError, StackConfigurationError, checkAborted, signalOf, type CallOptions } from "../../core.js";
import type { ClientAppContext } from "../context.js";
import { answered } from "../wire.js";
import { teamApiKeyMethods } from "./api-key-calls.js";
import { listReceivedTeamInvitations } from "./received-invitations.js";
import { createTeamObject, type TeamMethods, type UserTeamMethods } from "./team.js";

type WireMetadata = components["schemas"]["Metadata"];

/** The methods of the team `teamId`. */
export function teamMethods(ctx: ClientAppContext, teamId: string): TeamMethods {
  const keys = teamApiKeyMethods(ctx, teamId);
  const path = { team_id: teamId };
  return {
    async inviteUser(options) {
      requireObject(options, "team.inviteUser", "{ email, callbackUrl? }");
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
      requireObject(update, "team.update", "{ displayName?, profileImageUrl?, clientMetadata? }");
      await ctx.client.send("PATCH /teams/{team_id}", {
        params: { path },
        body: {
          ...(update.displayName === undefined ? {} : { display_name: update.displayName }),
          ...(update.profileImageUrl === undefined ? {} : { profile_image_url: update.profileImageUrl }),
          // The generated Metadata type cannot spell "any JSON object"; the value is JSON all the same.
          ...(update.clientMetadata === undefined ? {} : { client_metadata: update.clientMetadata as WireMetadata }),
        },
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

// Team ids are UUIDs (the service rejects anything else with SCHEMA_ERROR). Checking
// first also keeps "", "." and ".." out of the path, where they would name other routes.
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

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
      if (typeof teamId !== "string" || !UUID.test(teamId)) return null;
      try {
        const { data } = await ctx.client.send("GET /teams/{team_id}", { params: { path: { team_id: teamId } }, ...signalOf(options) });
        return createTeamObject(ctx, answered(data, "GET /teams/{team_id}"));
      } catch (error) {
        if (isKnownError(error, "TEAM_NOT_FOUND") || isKnownError(error, "TEAM_MEMBERSHIP_NOT_FOUND")) return null;
        throw error;
      }
    },
    async createTeam(data) {
      requireObject(data, "createTeam", "{ displayName, profileImageUrl? }");
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
      const profile = answered(data, "GET /team-member-profiles/{team_id}/me");
      return {
        displayName: profile.display_name ?? null,
        profileImageUrl: profile.profile_image_url ?? null,
        async update(update) {
          requireObject(update, "teamProfile.update", "{ displayName?, profileImageUrl? }");
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
    },
  };
}

function teamIdOf(team: { readonly id: string } | null | undefined, method: string): string {
  if (typeof team?.id !== "string" || team.id === "") {
    throw new StackConfigurationError(`${method} needs a team (an object with its id), as returned by listTeams() or getTeam().`);
  }
  return team.id;
}

function requireObject(value: unknown, method: string, shape: string): void {
  if (typeof value !== "object" || value === null) throw new StackConfigurationError(`${method} needs options: ${shape}.`);
}

function itemsOf<T>(data: { items: T[] } | undefined, call: string): T[] {
  const items = answered(data, call).items;
  if (!Array.isArray(items)) throw new StackAssertionError(`${call} answered without an items list`);
  return items;
}

function dateOf(millis: unknown, what: string): Date {
  if (typeof millis !== "number" || !Number.isFinite(millis)) {
    throw new StackAssertionError(`The service answered ${what} that is not a time in milliseconds`);
  }
  return new Date(millis);
}
