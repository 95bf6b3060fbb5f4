// The React entry, `stackkit/react`. React Query hooks and query options are
// built on the runtime; the runtime entry never imports React. Re-exports only.
/**
 * React bindings: the current user, their teams, API keys and the rest as React Query
 * queries and mutations, on the apps of `stackkit`.
 *
 * Where to start: wrap the app in {@link StackProvider} (with a `StackClientApp`); read with
 * {@link useUser}, {@link useTeams} and the other `use…` hooks (Suspense), or with the query
 * options ({@link currentUserQueryOptions}, {@link stackQueryOptions}, …) in your own
 * `useQuery`; change things with the mutations ({@link useUpdateUser}, {@link useSignIn}, …).
 * For server rendering, {@link prefetchUser} and {@link StackProviderProps.dehydratedState}.
 *
 * @packageDocumentation
 * @module stackkit/react
 */

export { stackQueryKey, stackQueryPrefix, isStackQueryKey, type StackQueryKey, type StackQueryParams } from "./query-keys.js";
export { createStackQueryClient, STACK_GC_TIME_MS, STACK_STALE_TIME_MS } from "./query-client.js";
export { StackProvider, useStackApp, useStackQueryClient, type StackProviderProps } from "./provider.js";
export { isUserScopedQuery, resetUserScopedQueries } from "./session-sync.js";
export { currentUserQueryOptions, prefetchUser, useUser, useUserQuery, type CurrentUserQueryOptions } from "./user.js";
export type { TeamJson, UserJson } from "./user-json.js";
export {
  useActiveSessions,
  useApiKeys,
  useConnectedAccount,
  useContactChannels,
  useOwnedProjects,
  usePermission,
  usePermissions,
  useProject,
  useReceivedTeamInvitations,
  useTeam,
  useTeamApiKeys,
  useTeamInvitations,
  useTeamProfile,
  useTeams,
  useTeamUsers,
} from "./hooks.js";
export {
  activeSessionsQueryOptions,
  apiKeysQueryOptions,
  connectedAccountQueryOptions,
  contactChannelsQueryOptions,
  ownedProjectsQueryOptions,
  permissionsQueryOptions,
  projectQueryOptions,
  receivedTeamInvitationsQueryOptions,
  teamApiKeysQueryOptions,
  teamInvitationsQueryOptions,
  teamProfileQueryOptions,
  teamQueryOptions,
  teamsQueryOptions,
  teamUsersQueryOptions,
  type PermissionsOptions,
  type TeamRef,
} from "./object-queries.js";
export {
  STACK_READ_OPERATIONS,
  stackQueryOptions,
  type HasStackApi,
  type ReadOperationId,
  type StackReadData,
  type StackReadParams,
  type StackReadParamsArg,
  type StackReadQueryOptions,
} from "./query-options.js";
export { invalidateOperations } from "./mutation-core.js";
export {
  useCreateContactChannel,
  useDeleteContactChannel,
  useDeleteUser,
  useRevokeSession,
  useSetPassword,
  useSignIn,
  useSignOut,
  useSignUp,
  useUpdateContactChannel,
  useUpdatePassword,
  useUpdateUser,
  type ContactChannelUpdateVariables,
  type CredentialSignInVariables,
  type CredentialSignUpVariables,
} from "./mutations.js";
export {
  useAcceptReceivedTeamInvitation,
  useCreateApiKey,
  useCreateTeam,
  useDeleteTeam,
  useInviteUser,
  useLeaveTeam,
  useRevokeApiKey,
  useRevokeTeamInvitation,
  useUpdateApiKey,
  useUpdateTeam,
  useUpdateTeamProfile,
  type ApiKeyUpdateVariables,
  type TeamInviteVariables,
  type TeamProfileUpdateVariables,
  type TeamUpdateVariables,
} from "./team-mutations.js";
