// The reference SDK's read hooks, Suspense style: each suspends until its answer
// is there, throws its error to the nearest error boundary, and shares its
// cache entry (and so its request) with every other component reading the same.
// Reads that need a user throw a UserNotSignedInError when nobody is signed in.
import { useSuspenseQuery } from "@tanstack/react-query";
import type {
  ActiveSession,
  AdminOwnedProject,
  ConnectedAccountOptions,
  ContactChannel,
  EditableTeamMemberProfile,
  OAuthConnection,
  Project,
  Team,
  TeamApiKey,
  TeamInvitation,
  TeamPermission,
  TeamUser,
  UserApiKey,
} from "../runtime/index.js";
import {
  activeSessionsQueryOptions,
  apiKeysQueryOptions,
  connectedAccountQueryOptions,
  contactChannelsQueryOptions,
  ownedProjectsQueryOptions,
  permissionsQueryOptions,
  projectQueryOptions,
  teamApiKeysQueryOptions,
  teamInvitationsQueryOptions,
  teamProfileQueryOptions,
  teamQueryOptions,
  teamsQueryOptions,
  teamUsersQueryOptions,
  type PermissionsOptions,
  type TeamRef,
} from "./object-queries.js";
import { useStackContextFor } from "./provider.js";

/** The client view of the project. */
export function useProject(): Project {
  const { app, queryClient } = useStackContextFor("useProject()");
  return useSuspenseQuery(projectQueryOptions(app), queryClient).data;
}

/** The teams the signed-in user is a member of. */
export function useTeams(): Team[] {
  const { app, queryClient } = useStackContextFor("useTeams()");
  return useSuspenseQuery(teamsQueryOptions(app), queryClient).data;
}

/** The team if the signed-in user is a member of it, else null. */
export function useTeam(teamId: string): Team | null {
  const { app, queryClient } = useStackContextFor("useTeam(id)");
  return useSuspenseQuery(teamQueryOptions(app, teamId), queryClient).data;
}

export function useContactChannels(): ContactChannel[] {
  const { app, queryClient } = useStackContextFor("useContactChannels()");
  return useSuspenseQuery(contactChannelsQueryOptions(app), queryClient).data;
}

/** The signed-in user's permissions in `team`, or at project level without one. Recursive unless told otherwise. */
export function usePermissions(team: TeamRef, options?: PermissionsOptions): TeamPermission[];
export function usePermissions(options?: PermissionsOptions): TeamPermission[];
export function usePermissions(first?: TeamRef | PermissionsOptions, second?: PermissionsOptions): TeamPermission[] {
  const { app, queryClient } = useStackContextFor("usePermissions()");
  const [team, options] = isTeamRef(first) ? [first, second] : [null, first];
  return useSuspenseQuery(permissionsQueryOptions(app, team, options), queryClient).data;
}

/** One permission of the signed-in user (in `team`, or at project level), or null. Shares usePermissions' request. */
export function usePermission(team: TeamRef, permissionId: string): TeamPermission | null;
export function usePermission(permissionId: string): TeamPermission | null;
export function usePermission(first: TeamRef | string, second?: string): TeamPermission | null {
  const { app, queryClient } = useStackContextFor("usePermission()");
  const [team, permissionId] = typeof first === "string" ? [null, first] : [first, second];
  const query = useSuspenseQuery(
    { ...permissionsQueryOptions(app, team), select: (list: TeamPermission[]) => list.find((p) => p.id === permissionId) ?? null },
    queryClient,
  );
  return query.data;
}

/** The signed-in user's API keys. */
export function useApiKeys(): UserApiKey[] {
  const { app, queryClient } = useStackContextFor("useApiKeys()");
  return useSuspenseQuery(apiKeysQueryOptions(app), queryClient).data;
}

/** A team's API keys (the reference's `team.useApiKeys()`); needs the team's `$manage_api_keys` permission. */
export function useTeamApiKeys(team: Team): TeamApiKey[] {
  const { queryClient } = useStackContextFor("useTeamApiKeys(team)");
  return useSuspenseQuery(teamApiKeysQueryOptions(team), queryClient).data;
}

/** The signed-in user's profile in `team`, editable. */
export function useTeamProfile(team: TeamRef): EditableTeamMemberProfile {
  const { app, queryClient } = useStackContextFor("useTeamProfile(team)");
  return useSuspenseQuery(teamProfileQueryOptions(app, team), queryClient).data;
}

/** The members of `team` (the reference's `team.useUsers()`). */
export function useTeamUsers(team: Team): TeamUser[] {
  const { queryClient } = useStackContextFor("useTeamUsers(team)");
  return useSuspenseQuery(teamUsersQueryOptions(team), queryClient).data;
}

/** The pending invitations of `team` (the reference's `team.useInvitations()`). */
export function useTeamInvitations(team: Team): TeamInvitation[] {
  const { queryClient } = useStackContextFor("useTeamInvitations(team)");
  return useSuspenseQuery(teamInvitationsQueryOptions(team), queryClient).data;
}

/** Every session (device) the signed-in user is signed in on. */
export function useActiveSessions(): ActiveSession[] {
  const { app, queryClient } = useStackContextFor("useActiveSessions()");
  return useSuspenseQuery(activeSessionsQueryOptions(app), queryClient).data;
}

/**
 * The user's connection to an OAuth provider, or null when not connected
 * (`or: "throw"` throws instead; `or: "redirect"` starts the link flow and stays suspended).
 */
export function useConnectedAccount(providerId: string, options: ConnectedAccountOptions & { readonly or: "redirect" }): OAuthConnection;
export function useConnectedAccount(providerId: string, options?: ConnectedAccountOptions): OAuthConnection | null;
export function useConnectedAccount(providerId: string, options?: ConnectedAccountOptions): OAuthConnection | null {
  const { app, queryClient } = useStackContextFor("useConnectedAccount()");
  return useSuspenseQuery(connectedAccountQueryOptions(app, providerId, options), queryClient).data;
}

/** The projects the signed-in user owns (apps of the internal project only). */
export function useOwnedProjects(): AdminOwnedProject[] {
  const { app, queryClient } = useStackContextFor("useOwnedProjects()");
  return useSuspenseQuery(ownedProjectsQueryOptions(app), queryClient).data;
}

function isTeamRef(value: TeamRef | PermissionsOptions | undefined): value is TeamRef {
  return typeof value === "object" && value !== null && typeof (value as { id?: unknown }).id === "string";
}
