// Teams of the current user: the reference SDK's `Team` object and the team
// methods of `CurrentUser` (listTeams, getTeam, createTeam, leaveTeam,
// getTeamProfile), each one call of the service (SPEC §7 "Teams"). The calls
// (team-calls.ts) load with the first of them.
import type { components } from "../../../generated/schema.js";
import { StackAssertionError } from "../../errors.js";
import { lazy } from "../../lazy.js";
import type { CallOptions } from "../call-options.js";
import type { ClientAppContext } from "../context.js";
import { lazyMethods } from "../lazy-methods.js";
import type { ApiKeyCreationOptions, TeamApiKey, TeamApiKeyFirstView } from "./api-key.js";

const loadTeams = lazy("teams", () => import("./team-calls.js"));

type Schemas = components["schemas"];

/** JSON a caller may store as metadata. */
export type ReadonlyJson = null | boolean | number | string | readonly ReadonlyJson[] | { readonly [key: string]: ReadonlyJson };

export type TeamMemberProfile = {
  readonly displayName: string | null;
  readonly profileImageUrl: string | null;
};

export type TeamMemberProfileUpdateOptions = {
  readonly displayName?: string;
  readonly profileImageUrl?: string | null;
};

export type EditableTeamMemberProfile = TeamMemberProfile & {
  update(update: TeamMemberProfileUpdateOptions & CallOptions): Promise<void>;
};

export type TeamUser = {
  readonly id: string;
  readonly teamProfile: TeamMemberProfile;
};

export type TeamInvitation = {
  readonly id: string;
  readonly recipientEmail: string | null;
  readonly expiresAt: Date;
  revoke(options?: CallOptions): Promise<void>;
};

export type TeamUpdateOptions = {
  readonly displayName?: string;
  readonly profileImageUrl?: string | null;
  readonly clientMetadata?: ReadonlyJson;
};

export type TeamCreateOptions = {
  readonly displayName: string;
  readonly profileImageUrl?: string;
};

export type Team = {
  readonly id: string;
  readonly displayName: string;
  readonly profileImageUrl: string | null;
  // `any`, as in the reference, so that code reading its own metadata shape compiles unchanged.
  readonly clientMetadata: any;
  readonly clientReadOnlyMetadata: any;
  inviteUser(options: { email: string; callbackUrl?: string } & CallOptions): Promise<void>;
  listUsers(options?: CallOptions): Promise<TeamUser[]>;
  listInvitations(options?: CallOptions): Promise<TeamInvitation[]>;
  update(update: TeamUpdateOptions & CallOptions): Promise<void>;
  delete(options?: CallOptions): Promise<void>;
  createApiKey(options: ApiKeyCreationOptions<"team"> & CallOptions): Promise<TeamApiKeyFirstView>;
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
  listTeams(options?: CallOptions): Promise<Team[]>;
  /** The team if the current user is a member of it, else null. */
  getTeam(teamId: string, options?: CallOptions): Promise<Team | null>;
  /** Creates a team with the user as its first member and selects it. */
  createTeam(data: TeamCreateOptions & CallOptions): Promise<Team>;
  leaveTeam(team: { readonly id: string }, options?: CallOptions): Promise<void>;
  getTeamProfile(team: { readonly id: string }, options?: CallOptions): Promise<EditableTeamMemberProfile>;
}

export function userTeamMethods(ctx: ClientAppContext): UserTeamMethods {
  return lazyMethods(loadTeams, (m) => m.userTeamMethods(ctx), {
    listTeams: true,
    getTeam: true,
    createTeam: true,
    leaveTeam: true,
    getTeamProfile: true,
  });
}
