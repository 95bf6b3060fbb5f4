// Mutations of teams, their members and invitations, and API keys (user and
// team). Each invalidates the reads it changes, by operation.
import type { UseMutationResult } from "@tanstack/react-query";
import type {
  ApiKey,
  ApiKeyCreationOptions,
  ApiKeyUpdateOptions,
  EditableTeamMemberProfile,
  OperationId,
  ReceivedTeamInvitation,
  StackkitError,
  Team,
  TeamApiKeyFirstView,
  TeamCreateOptions,
  TeamInvitation,
  TeamMemberProfileUpdateOptions,
  TeamUpdateOptions,
  UserApiKeyFirstView,
} from "../runtime/index.js";
import { requireObject, useStackMutation, type MutationContext } from "./mutation-core.js";
import type { TeamRef } from "./object-queries.js";
import { currentUserQueryOptions, requireUser } from "./user.js";

/** Whether `teamId` is the user's selected team, which the user object embeds. */
function isSelected({ app, client }: MutationContext, teamId: string | undefined): boolean {
  return teamId !== undefined && client.getQueryData(currentUserQueryOptions(app).queryKey)?.selectedTeam?.id === teamId;
}

const withUserIf = (condition: boolean, ids: OperationId[]): OperationId[] => (condition ? [...ids, "getCurrentUser"] : ids);

/**
 * Creates a team with the user as its first member (`POST /teams`); the service selects it, so the user changes
 * too. The mutation's data is the new Team.
 *
 * @example
 * ```tsx
 * const createTeam = useCreateTeam();
 * const submit = () =>
 *   createTeam.mutate({ displayName: name.trim() }, { onSuccess: (team) => navigate(`/teams/${team.id}`) });
 * return <button disabled={createTeam.isPending} onClick={submit}>Create team</button>;
 * ```
 */
export function useCreateTeam(): UseMutationResult<Team, StackkitError, TeamCreateOptions> {
  return useStackMutation("useCreateTeam()", {
    run: async ({ app, client }, data: TeamCreateOptions) => (await requireUser(app, client, "useCreateTeam()")).createTeam(data),
    changes: () => ["listTeams", "getTeam", "getCurrentUser"],
  });
}

/** What {@link useUpdateTeam}'s `mutate` takes: the team and its changes. */
export interface TeamUpdateVariables {
  readonly team: Team;
  readonly update: TeamUpdateOptions;
}

/**
 * Changes a team from useTeams or useTeam (`PATCH /teams/{team_id}`); takes `{ team, update }` and needs the team's
 * `$update_team` permission.
 *
 * @example
 * ```tsx
 * const updateTeam = useUpdateTeam();
 * const rename = (displayName: string) => updateTeam.mutate({ team, update: { displayName } });
 * return <button disabled={updateTeam.isPending} onClick={() => rename(name.trim())}>Rename</button>;
 * ```
 */
export function useUpdateTeam(): UseMutationResult<void, StackkitError, TeamUpdateVariables> {
  const hook = "useUpdateTeam()";
  return useStackMutation(hook, {
    run: (_, variables: TeamUpdateVariables) =>
      requireObject(variables?.team, "update", hook, "{ team, update } with a team from useTeams()").update(variables.update),
    changes: (context, { team }) => withUserIf(isSelected(context, team.id), ["listTeams", "getTeam"]),
  });
}

/**
 * Deletes a team from useTeams or useTeam (`DELETE /teams/{team_id}`); takes the Team and needs its `$delete_team`
 * permission.
 *
 * @example
 * ```tsx
 * const deleteTeam = useDeleteTeam();
 * const onConfirm = () => deleteTeam.mutate(team, { onSuccess: () => navigate("/teams") });
 * return <button disabled={deleteTeam.isPending} onClick={onConfirm}>Delete {team.displayName}</button>;
 * ```
 */
export function useDeleteTeam(): UseMutationResult<void, StackkitError, Team> {
  const hook = "useDeleteTeam()";
  return useStackMutation(hook, {
    run: (_, team: Team) => requireObject(team, "delete", hook, "a team from useTeams()").delete(),
    changes: (context, team) => withUserIf(isSelected(context, team.id), ["listTeams", "getTeam"]),
  });
}

/**
 * Leaves a team: it drops out of the user's teams, its member list loses the
 * user, and the user's profile and permissions there are gone (`DELETE /team-memberships/{team_id}/me`). Takes the
 * team (any object with its id).
 *
 * @example
 * ```tsx
 * const leave = useLeaveTeam();
 * return (
 *   <button disabled={leave.isPending} onClick={() => leave.mutate(team, { onSuccess: () => navigate("/teams") })}>
 *     Leave {team.displayName}
 *   </button>
 * );
 * ```
 */
export function useLeaveTeam(): UseMutationResult<void, StackkitError, TeamRef> {
  return useStackMutation("useLeaveTeam()", {
    run: async ({ app, client }, team: TeamRef) => (await requireUser(app, client, "useLeaveTeam()")).leaveTeam(team),
    changes: (context, team) =>
      withUserIf(isSelected(context, team.id), [
        "listTeams",
        "getTeam",
        "listTeamMemberProfiles",
        "getTeamMemberProfile",
        "listTeamPermissions",
      ]),
  });
}

/** What {@link useInviteUser}'s `mutate` takes: the team, the address to invite, and where the invitation's link goes. */
export interface TeamInviteVariables {
  readonly team: Team;
  readonly email: string;
  readonly callbackUrl?: string;
}

/**
 * E-mails an invitation to join the team (`POST /team-invitations/send-code`); takes `{ team, email, callbackUrl? }`
 * and needs the team's `$invite_members` permission. Refreshes useTeamInvitations.
 *
 * @example
 * ```tsx
 * const invite = useInviteUser();
 * const submit = () =>
 *   invite.mutate({ team, email: email.trim(), callbackUrl: `${location.origin}/handler/team-invitation` });
 * return <button disabled={invite.isPending} onClick={submit}>Send invitation</button>;
 * ```
 */
export function useInviteUser(): UseMutationResult<void, StackkitError, TeamInviteVariables> {
  const hook = "useInviteUser()";
  return useStackMutation(hook, {
    run: (_, variables: TeamInviteVariables) =>
      requireObject(variables?.team, "inviteUser", hook, "{ team, email } with a team from useTeams()").inviteUser({
        email: variables.email,
        ...(variables.callbackUrl === undefined ? {} : { callbackUrl: variables.callbackUrl }),
      }),
    changes: () => ["listTeamInvitations"],
  });
}

/**
 * Revokes a pending invitation from useTeamInvitations (`DELETE /team-invitations/{invitation_id}`); takes the
 * invitation itself.
 *
 * @example
 * ```tsx
 * const invitations = useTeamInvitations(team);
 * const revoke = useRevokeTeamInvitation();
 * return invitations.map((invitation) => (
 *   <button key={invitation.id} onClick={() => revoke.mutate(invitation)}>Revoke {invitation.recipientEmail}</button>
 * ));
 * ```
 */
export function useRevokeTeamInvitation(): UseMutationResult<void, StackkitError, TeamInvitation> {
  const hook = "useRevokeTeamInvitation()";
  return useStackMutation(hook, {
    run: (_, invitation: TeamInvitation) =>
      requireObject(invitation, "revoke", hook, "an invitation from useTeamInvitations(team)").revoke(),
    changes: () => ["listTeamInvitations"],
  });
}

/**
 * Accepts an invitation from useReceivedTeamInvitations (`POST /team-invitations/{invitation_id}/accept`): the
 * user joins its team. Refreshes the user's teams and the invitation lists.
 *
 * @example
 * ```tsx
 * const invitations = useReceivedTeamInvitations();
 * const accept = useAcceptReceivedTeamInvitation();
 * return invitations.map((invitation) => (
 *   <button key={invitation.id} onClick={() => accept.mutate(invitation)}>Join {invitation.teamDisplayName}</button>
 * ));
 * ```
 */
export function useAcceptReceivedTeamInvitation(): UseMutationResult<void, StackkitError, ReceivedTeamInvitation> {
  const hook = "useAcceptReceivedTeamInvitation()";
  return useStackMutation(hook, {
    run: (_, invitation: ReceivedTeamInvitation) =>
      requireObject(invitation, "accept", hook, "an invitation from useReceivedTeamInvitations()").accept(),
    changes: () => ["listTeamInvitations", "listTeams", "getTeam"],
  });
}

/** What {@link useUpdateTeamProfile}'s `mutate` takes: the user's profile in a team and its changes. */
export interface TeamProfileUpdateVariables {
  readonly profile: EditableTeamMemberProfile;
  readonly update: TeamMemberProfileUpdateOptions;
}

/**
 * Changes the user's profile in a team (`PATCH /team-member-profiles/{team_id}/me`), which also shows in the team's
 * member list; takes `{ profile, update }` with a profile from useTeamProfile.
 *
 * @example
 * ```tsx
 * const profile = useTeamProfile(team);
 * const update = useUpdateTeamProfile();
 * const save = (displayName: string) => update.mutate({ profile, update: { displayName } });
 * return <button disabled={update.isPending} onClick={() => save(name.trim())}>Save</button>;
 * ```
 */
export function useUpdateTeamProfile(): UseMutationResult<void, StackkitError, TeamProfileUpdateVariables> {
  const hook = "useUpdateTeamProfile()";
  return useStackMutation(hook, {
    run: (_, variables: TeamProfileUpdateVariables) =>
      requireObject(variables?.profile, "update", hook, "{ profile, update } with a profile from useTeamProfile(team)").update(
        variables.update,
      ),
    changes: () => ["getTeamMemberProfile", "listTeamMemberProfiles"],
  });
}

const keyList = (type: ApiKey["type"]): OperationId => (type === "team" ? "listTeamApiKeys" : "listUserApiKeys");

/**
 * Creates an API key: the user's, or with `team` the team's. The answer holds
 * the full key, shown this once (`POST /user-api-keys` or `POST /team-api-keys`).
 *
 * @example
 * ```tsx
 * const createKey = useCreateApiKey(); // useCreateApiKey(team) for a team key
 * const [secret, setSecret] = useState<string | null>(null);
 * const create = () =>
 *   createKey.mutate({ description: "CI", expiresAt: null }, { onSuccess: (key) => setSecret(key.value) });
 * return secret ? <code>{secret}</code> : <button onClick={create}>New API key</button>;
 * ```
 */
export function useCreateApiKey(): UseMutationResult<UserApiKeyFirstView, StackkitError, ApiKeyCreationOptions<"user">>;
export function useCreateApiKey(team: Team): UseMutationResult<TeamApiKeyFirstView, StackkitError, ApiKeyCreationOptions<"team">>;
export function useCreateApiKey(
  team?: Team,
): UseMutationResult<UserApiKeyFirstView | TeamApiKeyFirstView, StackkitError, ApiKeyCreationOptions> {
  const hook = "useCreateApiKey()";
  return useStackMutation(hook, {
    run: async ({ app, client }, options: ApiKeyCreationOptions): Promise<UserApiKeyFirstView | TeamApiKeyFirstView> =>
      team === undefined
        ? (await requireUser(app, client, hook)).createApiKey(options)
        : requireObject(team, "createApiKey", "useCreateApiKey(team)", "a team from useTeams()").createApiKey(options),
    changes: () => [keyList(team === undefined ? "user" : "team")],
  });
}

/** What {@link useUpdateApiKey}'s `mutate` takes: the API key and its changes. */
export interface ApiKeyUpdateVariables {
  readonly apiKey: ApiKey;
  readonly update: ApiKeyUpdateOptions;
}

/**
 * Changes a key's description (`PATCH /user-api-keys/{api_key_id}` or its team form); takes `{ apiKey, update }`
 * with a key from useApiKeys or useTeamApiKeys.
 *
 * @example
 * ```tsx
 * const updateKey = useUpdateApiKey();
 * const rename = (description: string) => updateKey.mutate({ apiKey, update: { description } });
 * return <button disabled={updateKey.isPending} onClick={() => rename("Deploy bot")}>Rename</button>;
 * ```
 */
export function useUpdateApiKey(): UseMutationResult<void, StackkitError, ApiKeyUpdateVariables> {
  const hook = "useUpdateApiKey()";
  return useStackMutation(hook, {
    run: (_, variables: ApiKeyUpdateVariables) =>
      requireObject(variables?.apiKey, "update", hook, "{ apiKey, update } with a key from useApiKeys()").update(variables.update),
    changes: (_, { apiKey }) => [keyList(apiKey.type)],
  });
}

/**
 * Revokes a key for good (`apiKey.revoke()`, a PATCH with `revoked: true`); takes a key from useApiKeys or
 * useTeamApiKeys, and refreshes that list.
 *
 * @example
 * ```tsx
 * const keys = useApiKeys();
 * const revoke = useRevokeApiKey();
 * return keys.map((key) => (
 *   <button key={key.id} disabled={!key.isValid()} onClick={() => revoke.mutate(key)}>Revoke {key.description}</button>
 * ));
 * ```
 */
export function useRevokeApiKey(): UseMutationResult<void, StackkitError, ApiKey> {
  const hook = "useRevokeApiKey()";
  return useStackMutation(hook, {
    run: (_, apiKey: ApiKey) => requireObject(apiKey, "revoke", hook, "a key from useApiKeys() or useTeamApiKeys(team)").revoke(),
    changes: (_, apiKey) => [keyList(apiKey.type)],
  });
}
