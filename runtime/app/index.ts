// The client app and the objects it hands out, and the types of the server and
// admin apps' objects. The classes are named re-exports: a bundler (esbuild, with
// the package's sideEffects: false) may drop the initialisation of a module
// reached only through `export *` when that module is also loaded on demand,
// leaving its class undefined (tests/package/bundles.test.ts). The server and admin
// classes, and Result, are named by the entry (runtime/index.ts).
export { StackClientApp } from "./client-app.js";
export type { GetUserOptions, GetUserOr, StackClientAppOptions } from "./client-app-options.js";
export type { GetPartialUserOptions, TokenPartialUser } from "./partial-user.js";
export type { ConvexAuthArgs, ConvexCtx, ConvexUserIdentity } from "./convex-context.js";
export type { Browser, BrowserLocation } from "../platform/browser.js";
export type { RedirectMethod } from "./context.js";
// Result itself: runtime/index.ts.
export type { CallOptions } from "./call-options.js";
export type { HandlerUrls } from "./urls.js";
export type { RedirectTo } from "./redirect-methods.js";
export type { RedirectToOptions } from "./redirect.js";
export type { CliLoginError, PromptCliLoginOptions } from "./flows/cli.js";
export type { SignInOptions } from "./flows/sign-in.js";
export type { SignUpWithCredentialOptions } from "./flows/sign-up.js";
export type {
  BotChallengeAction,
  BotChallengeOptions,
  BotChallengePhase,
  BotChallengeProvider,
  BotChallengeRequest,
} from "./bot-challenge-options.js";
export type { RegisterPasskeyError, SignInWithPasskeyError } from "./flows/passkey.js";
export type { Auth, CurrentUser, RestrictedReason } from "./objects/user.js";
export type { UserUpdateOptions } from "./objects/user-profile.js";
export type { ProjectCurrentUser, CurrentInternalUser } from "./internal-user.js";
export type { Team, TeamUser, TeamInvitation, TeamMemberProfile, TeamUpdateOptions, ReadonlyJson } from "./objects/team.js";
export type { EditableTeamMemberProfile, TeamCreateOptions, TeamMemberProfileUpdateOptions } from "./objects/user-teams.js";
export type { ReceivedTeamInvitation } from "./objects/received-invitations.js";
export type {
  ApiKey,
  ApiKeyType,
  ApiKeyInvalidReason,
  UserApiKey,
  UserApiKeyFirstView,
  TeamApiKey,
  TeamApiKeyFirstView,
  ApiKeyCreationOptions,
  ApiKeyUpdateOptions,
} from "./objects/api-key.js";
export type { ContactChannel, ContactChannelCreateOptions, ContactChannelUpdateOptions } from "./objects/contact-channel.js";
export type { ActiveSession, GeoInfo } from "./objects/active-session.js";
export type { TeamPermission, PermissionListOptions, PermissionScope } from "./objects/permission.js";
export type { OAuthConnection, ConnectedAccountOptions, GetConnectedAccountOptions } from "./objects/connected-account.js";
export type { Project, ProjectConfig, AdminProjectCreateOptions } from "./objects/project.js";
export type { AdminOwnedProject } from "./internal-user.js";
// The reference SDK's names of types stackkit spells differently (README, "Migrate from `@stackframe/js`").
export type {
  AdminProjectPermission,
  Connection,
  OAuthProviderConfig,
  OAuthScopesOnSignIn,
  ServerTeamMemberProfile,
  StackAdminAppConstructorOptions,
  StackClientAppConstructorOptions,
  StackServerAppConstructorOptions,
  User,
} from "./reference-names.js";
// The server app's objects (the class itself: runtime/index.ts).
export type {
  ServerGetUserOptions,
  ServerListTeamsOptions,
  ServerListUsersOptions,
  StackServerAppOptions,
  VerifiedServerUser,
  VerifiedUserOr,
} from "./server-app.js";
export type { ServerUser, ServerBaseUser } from "./server/server-user.js";
export type { CurrentServerUser } from "./server/current-user.js";
export type { CurrentInternalServerUser } from "./internal-user.js";
export type { ServerTeam, ServerTeamUser, ServerTeamCreateOptions, ServerTeamUpdateOptions } from "./server/server-team.js";
export type { ServerUserCreateOptions, ServerUserUpdateOptions, SignUpRiskScoresOptions } from "./server/user-options.js";
export type {
  ServerContactChannel,
  ServerContactChannelCreateOptions,
  ServerContactChannelUpdateOptions,
} from "./server/user-contact-channels.js";
export type { CreateSessionOptions, CreatedSession } from "./server/user-sessions.js";
// What the admin app hands out (the class itself: runtime/index.ts).
export type { StackAdminAppOptions } from "./admin-app.js";
export type { AdminProject, AdminProjectOnboardingState, AdminProjectUpdateOptions } from "./admin/project.js";
export type {
  AdminProjectConfig,
  AdminProjectConfigUpdateOptions,
  AdminDomainConfig,
  AdminOAuthProviderConfig,
  AdminEmailConfig,
  AdminTeamPermission,
  OAuthAccountMergeStrategy,
} from "./admin/project-config.js";
export type { ProductionModeError } from "./admin/production-mode.js";
export type {
  InternalApiKey,
  InternalApiKeyBase,
  InternalApiKeyFirstView,
  InternalApiKeyCreateOptions,
  InternalApiKeyInvalidReason,
} from "./admin/internal-api-keys.js";
export type { AdminEmailTemplate, AdminEmailTemplateUpdateOptions, AdminSentEmail, EmailConfig, EmailTemplateType } from "./admin/email.js";
export type {
  AdminPermissionDefinition,
  AdminPermissionDefinitionCreateOptions,
  AdminPermissionDefinitionUpdateOptions,
  AdminTeamPermissionDefinition,
  AdminTeamPermissionDefinitionCreateOptions,
  AdminTeamPermissionDefinitionUpdateOptions,
  AdminProjectPermissionDefinition,
  AdminProjectPermissionDefinitionCreateOptions,
  AdminProjectPermissionDefinitionUpdateOptions,
} from "./admin/permission-definitions.js";
export type { AdminMetrics } from "./admin/dashboard-data.js";
