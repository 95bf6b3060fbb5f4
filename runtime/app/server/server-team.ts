// The reference SDK's ServerTeam (SPEC §3 "Team"; endpoints.md §C): a Team plus
// createdAt, serverMetadata, members with their team profiles, adding and
// removing members, and the server-side update. Invitations, deletion and API
// keys are the client Team's own calls, sent here with the secret server key.
import type { components, operations } from "../../../generated/schema.js";
import { requireOptions, signalOf, type CallOptions } from "../call-options.js";
import { itemsOf, wireFields } from "../wire.js";
import { StackAssertionError } from "../../errors.js";
import {
  createTeamObject,
  TEAM_UPDATE_FIELDS,
  type ReadonlyJson,
  type Team,
  type TeamMemberProfile,
  type TeamUpdateOptions,
} from "../objects/team.js";
import type { TeamCreateOptions } from "../objects/user-teams.js";
import { segment } from "./common.js";
import type { ServerAppContext, WireServerTeam } from "./context.js";
import { createServerUser, type ServerUser } from "./server-user.js";
import { withUserDestructureGuard } from "../objects/user-guard.js";

type WireTeamUpdate = operations["updateTeam"]["requestBody"]["content"]["application/json"];

/** A member of a team: the user, and how they appear in that team. */
export type ServerTeamUser = ServerUser & {
  readonly teamProfile: TeamMemberProfile;
};

/**
 * What a server's `team.update` changes (`PATCH /teams/{id}`): a client's fields plus the metadata
 * only server code may write; fields left out stay as they are.
 *
 * @example
 * ```ts
 * const options: ServerTeamUpdateOptions = { displayName: "Support (EU)", serverMetadata: { plan: "enterprise", seats: 25 } };
 * const team = await app.getTeam(teamId);
 * if (team !== null) await team.update(options);
 * ```
 */
export type ServerTeamUpdateOptions = TeamUpdateOptions & {
  /** JSON clients may read but not write; it replaces the team's client read-only metadata as a whole. */
  readonly clientReadOnlyMetadata?: ReadonlyJson;
  /** JSON only server code sees; it replaces the team's server metadata as a whole. */
  readonly serverMetadata?: ReadonlyJson;
};

/**
 * What server code makes a team with (`POST /teams`): a client's fields and, optionally, the user
 * who becomes its first member.
 *
 * @example
 * ```ts
 * const options: ServerTeamCreateOptions = { displayName: "Support", creatorUserId: user.id };
 * const team = await app.createTeam(options);
 * ```
 */
export type ServerTeamCreateOptions = TeamCreateOptions & {
  /** The user to add as the first member (with the team-creator default permissions); none when left out. */
  readonly creatorUserId?: string;
};

// listUsers and update replace the client's (an intersection would leave the client's as the first overload).
/**
 * Any team of the project as server code sees it (`serverApp.getTeam(id)`, `listTeams()`): every
 * field, server metadata included, its members as {@link ServerTeamUser}s, and the methods that
 * change it, acting by the team's id.
 *
 * @interface
 */
export type ServerTeam = Omit<Team, "listUsers" | "update"> & {
  readonly createdAt: Date;
  // `any`, as in the reference, so that code reading its own metadata shape compiles unchanged.
  readonly serverMetadata: any;
  /**
   * Every member with their team profile (`GET /team-member-profiles?team_id=`), each a full
   * ServerUser with `teamProfile`.
   *
   * @example
   * ```ts
   * const members = await team.listUsers();
   * for (const member of members) {
   *   console.log(member.primaryEmail, member.teamProfile.displayName);
   * }
   * ```
   */
  listUsers(options?: CallOptions): Promise<ServerTeamUser[]>;
  /**
   * Changes the team (`PATCH /teams/{id}`), server-only metadata included; only the fields given are
   * sent. This object keeps showing the team as it was read.
   *
   * @example
   * ```ts
   * await team.update({
   *   displayName: "Support (EU)",
   *   serverMetadata: { ...team.serverMetadata, region: "eu" },
   * });
   * ```
   */
  update(update: ServerTeamUpdateOptions & CallOptions): Promise<void>;
  /**
   * Makes the user a member (`POST /team-memberships/{team_id}/{user_id}`), with the project's
   * team-member default permissions. A user who already is one is thrown as TeamMembershipAlreadyExists.
   *
   * @example
   * ```ts
   * const team = await app.createTeam({ displayName: "Support" });
   * await team.addUser(userId);
   * ```
   */
  addUser(userId: string, options?: CallOptions): Promise<void>;
  /**
   * Removes the user from the team (`DELETE /team-memberships/{team_id}/{user_id}`). A user who is not
   * a member is thrown as TeamMembershipNotFound.
   *
   * @example
   * ```ts
   * const team = await app.getTeam(teamId);
   * if (team !== null) {
   *   await team.removeUser(userId);
   * }
   * ```
   */
  removeUser(userId: string, options?: CallOptions): Promise<void>;
};

const SERVER_TEAM_UPDATE_FIELDS = {
  ...TEAM_UPDATE_FIELDS,
  clientReadOnlyMetadata: "client_read_only_metadata",
  serverMetadata: "server_metadata",
} as const satisfies Record<keyof ServerTeamUpdateOptions, keyof WireTeamUpdate>;

/** The PATCH /teams/{id} body: only the fields given, snake_case. */
export function serverTeamUpdateToWire(update: ServerTeamUpdateOptions) {
  requireOptions(update, "team.update", "{ displayName?, profileImageUrl?, clientMetadata?, clientReadOnlyMetadata?, serverMetadata? }");
  return wireFields(update, SERVER_TEAM_UPDATE_FIELDS) as WireTeamUpdate;
}

/** The POST /teams body of server code. */
export function serverTeamCreateToWire(data: ServerTeamCreateOptions) {
  requireOptions(data, "createTeam", "{ displayName, profileImageUrl?, creatorUserId? }");
  return {
    display_name: data.displayName,
    ...(data.profileImageUrl !== undefined && { profile_image_url: data.profileImageUrl }),
    ...(data.creatorUserId !== undefined && { creator_user_id: segment(data.creatorUserId, "createTeam", "creatorUserId") }),
  };
}

/** Narrows a team answer of a server call to the server view. */
export function asServerTeam(
  wire: components["schemas"]["ServerTeam"] | components["schemas"]["ClientTeam"],
  call: string,
): WireServerTeam {
  if (typeof (wire as { created_at_millis?: unknown })?.created_at_millis !== "number") {
    throw new StackAssertionError(`${call} answered a team without created_at_millis; was it sent with access type "server"?`);
  }
  return wire as WireServerTeam;
}

export function createServerTeamObject(ctx: ServerAppContext, wire: WireServerTeam): ServerTeam {
  const team = createTeamObject(ctx, wire);
  const teamId = team.id;
  const membership = (userId: string, method: string, options: CallOptions | undefined) => ({
    params: { path: { team_id: teamId, user_id: segment(userId, method, "the user's id") } },
    body: {},
    ...signalOf(options),
  });
  return {
    ...team,
    createdAt: new Date(wire.created_at_millis),
    serverMetadata: wire.server_metadata ?? null,
    async listUsers(options) {
      const { data } = await ctx.client.send("GET /team-member-profiles", {
        params: { query: { team_id: teamId } },
        ...signalOf(options),
      });
      return itemsOf(data, "GET /team-member-profiles").map((profile) => {
        if (!("user" in profile) || typeof profile.user !== "object" || profile.user === null) {
          throw new StackAssertionError(
            'GET /team-member-profiles answered a member without the user; was it sent with access type "server"?',
          );
        }
        const teamProfile: TeamMemberProfile = {
          displayName: profile.display_name ?? null,
          profileImageUrl: profile.profile_image_url ?? null,
        };
        return Object.freeze(withUserDestructureGuard({ ...createServerUser(ctx, profile.user), teamProfile }));
      });
    },
    async update(update) {
      await ctx.client.send("PATCH /teams/{team_id}", {
        params: { path: { team_id: teamId } },
        body: serverTeamUpdateToWire(update),
        ...signalOf(update),
      });
    },
    async addUser(userId, options) {
      await ctx.client.send("POST /team-memberships/{team_id}/{user_id}", membership(userId, "team.addUser", options));
    },
    async removeUser(userId, options) {
      await ctx.client.send("DELETE /team-memberships/{team_id}/{user_id}", membership(userId, "team.removeUser", options));
    },
  };
}
