// The client app and the objects it hands out. Re-exports only.
export { StackClientApp, type GetUserOptions, type GetUserOr, type StackClientAppOptions } from "./client-app.js";
export type { Browser, BrowserLocation } from "./browser.js";
export type { RedirectMethod } from "./context.js";
export { Result } from "./result.js";
export type { HandlerUrls } from "./urls.js";
export type { RedirectToOptions } from "./redirect.js";
export type { PromptCliLoginOptions } from "./flows/cli.js";
export type { CurrentUser, ProjectCurrentUser, CurrentInternalUser } from "./objects/user.js";
export type { Team, TeamUser, TeamInvitation, TeamMemberProfile, EditableTeamMemberProfile } from "./objects/team.js";
export type { ApiKey, UserApiKey, UserApiKeyFirstView, TeamApiKey, TeamApiKeyFirstView } from "./objects/api-key.js";
export type { ContactChannel } from "./objects/contact-channel.js";
export type { ActiveSession, GeoInfo } from "./objects/active-session.js";
export type { TeamPermission } from "./objects/permission.js";
export type { OAuthConnection } from "./objects/connected-account.js";
export type { Project, AdminOwnedProject } from "./objects/project.js";
