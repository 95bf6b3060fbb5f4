// Type names of the reference SDK (`@stackframe/js` 2.8.11) that an app imports and
// that stackkit otherwise spells differently: each is stackkit's own type under the
// reference's name, so that code importing it needs only its import changed
// (README, "Migrate from `@stackframe/js`"). Types only: nothing here reaches a bundle.
import type { StackAdminAppOptions } from "./admin-app.js";
import type { StackClientAppOptions } from "./client-app-options.js";
import type { OAuthConnection } from "./objects/connected-account.js";
import type { TeamPermission } from "./objects/permission.js";
import type { ProjectConfig } from "./objects/project.js";
import type { TeamMemberProfile } from "./objects/team.js";
import type { BaseUser } from "./objects/user.js";
import type { StackServerAppOptions } from "./server/inherit.js";

// The type parameters only mirror the reference's (`StackClientAppConstructorOptions<true, string>`):
// stackkit's options do not depend on them.

/**
 * The reference's name of {@link StackClientAppOptions}.
 *
 * @example
 * ```ts
 * const options: StackClientAppConstructorOptions<true, string> = { projectId, publishableClientKey, tokenStore: "cookie" };
 * const app = new StackClientApp(options);
 * ```
 */
export type StackClientAppConstructorOptions<
  _HasTokenStore extends boolean = boolean,
  _ProjectId extends string = string,
> = StackClientAppOptions;
/**
 * The reference's name of {@link StackServerAppOptions}.
 *
 * @example
 * ```ts
 * const options: StackServerAppConstructorOptions<true, string> = { projectId, publishableClientKey, secretServerKey, tokenStore: "memory" };
 * const server = new StackServerApp(options);
 * ```
 */
export type StackServerAppConstructorOptions<
  _HasTokenStore extends boolean = boolean,
  _ProjectId extends string = string,
> = StackServerAppOptions;
/**
 * The reference's name of {@link StackAdminAppOptions}.
 *
 * @example
 * ```ts
 * const options: StackAdminAppConstructorOptions<false, string> = { projectId, superSecretAdminKey, tokenStore: null };
 * const admin = new StackAdminApp(options);
 * ```
 */
export type StackAdminAppConstructorOptions<
  _HasTokenStore extends boolean = boolean,
  _ProjectId extends string = string,
> = StackAdminAppOptions;

/** The extra OAuth scopes asked for at sign-in, per provider id (the `oauthScopesOnSignIn` option). */
export type OAuthScopesOnSignIn = NonNullable<StackClientAppOptions["oauthScopesOnSignIn"]>;

/**
 * A user's fields, without methods: what every user object has (the reference's `User`).
 *
 * @interface
 */
export type User = BaseUser;

/**
 * An OAuth provider of the project's client configuration (`project.config.oauthProviders`).
 *
 * @interface
 */
export type OAuthProviderConfig = ProjectConfig["oauthProviders"][number];

/** A connected account without its token method (the reference's base of `OAuthConnection`). */
export type Connection = Pick<OAuthConnection, "id">;

/** A project permission a user holds, as the server and admin apps list it. */
export type AdminProjectPermission = TeamPermission;

/** A team member's profile as the server app hands it out. */
export type ServerTeamMemberProfile = TeamMemberProfile;
