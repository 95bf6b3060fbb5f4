// The project, as a client sees it (SPEC §3 "Project (client view)"), and the
// shapes of the projects users of the internal project (the dashboard's own)
// own (SPEC §6). Listing and creating those, each with its admin app, is
// admin/owned-projects.ts, which the app that built the user loads and hands
// to it (CurrentUserExtras.ownedProjects): objects never reach the admin app.
import { signalOf, type CallOptions } from "../call-options.js";
import type { AdminProject, AdminProjectUpdateOptions } from "../admin/project.js";
import type { ClientAppContext } from "../context.js";
import { assertAnswered } from "../wire.js";

/** The project's configuration that the client sees: which sign-in methods and features are on. */
export interface ProjectConfig {
  readonly signUpEnabled: boolean;
  readonly credentialEnabled: boolean;
  readonly magicLinkEnabled: boolean;
  readonly passkeyEnabled: boolean;
  readonly clientTeamCreationEnabled: boolean;
  readonly clientUserDeletionEnabled: boolean;
  readonly allowTeamApiKeys: boolean;
  readonly allowUserApiKeys: boolean;
  /** The OAuth providers users can sign in with. */
  readonly oauthProviders: readonly { readonly id: string }[];
}

/** The app's project as the client sees it (`app.getProject()`): its id, name and public configuration. */
export interface Project {
  readonly id: string;
  readonly displayName: string;
  readonly config: ProjectConfig;
}

/** A project the signed-in user owns: the admin view of the project, and `app`, its admin app (AdminOwnedProject). */
export type OwnedProject<App> = AdminProject & { readonly app: App };

/**
 * What a new project is made with; `config` takes the service's defaults for what it leaves out.
 *
 * @example
 * ```ts
 * const options: AdminProjectCreateOptions = { displayName: "Acme Portal", config: { allowLocalhost: true } };
 * const project = await user.createProject(options); // user: a signed-in user of the internal project
 * ```
 */
export interface AdminProjectCreateOptions extends AdminProjectUpdateOptions {
  /** The new project's name. */
  readonly displayName: string;
  /**
   * The team (of the internal project, with the user as a member) that will own the project,
   * sent as `owner_team_id`, as the newest official SDK's `createProject({ teamId })`. Services
   * since 2.8.86 require an owner team: left out there, the project goes to the user's selected
   * team, else to the first team the user is a member of (what the dashboard's new-project page
   * picks), else to a new team named after the project with the user as its creator. 2.8.11 has
   * no owner teams and is sent nothing of it; given there, the call rejects with a
   * `ServiceVersionError` and creates nothing.
   */
  readonly teamId?: string;
  /**
   * Creates the project as a development environment (`is_development_environment`), as the
   * newest official SDK's `createProject({ isDevelopmentEnvironment })`; it stays one
   * (`AdminProject.isDevelopmentEnvironment`). The hosted service's since 2.8.102: a 2.8.86 or
   * 2.8.11 service refuses it, and the call rejects with a `ServiceVersionError` and creates nothing.
   */
  readonly isDevelopmentEnvironment?: boolean;
}

export const INTERNAL_PROJECT_ID = "internal";

/** The client view of this app's project: its name and the features it enables. */
export async function getProject(ctx: ClientAppContext, options?: CallOptions): Promise<Project> {
  const { data } = await ctx.client.send("GET /projects/current", signalOf(options));
  assertAnswered(data, "GET /projects/current");
  const c = data.config;
  return {
    id: data.id,
    displayName: data.display_name,
    config: {
      signUpEnabled: c.sign_up_enabled,
      credentialEnabled: c.credential_enabled,
      magicLinkEnabled: c.magic_link_enabled,
      passkeyEnabled: c.passkey_enabled,
      clientTeamCreationEnabled: c.client_team_creation_enabled,
      clientUserDeletionEnabled: c.client_user_deletion_enabled,
      allowTeamApiKeys: c.allow_team_api_keys,
      allowUserApiKeys: c.allow_user_api_keys,
      oauthProviders: c.enabled_oauth_providers.map((p) => ({ id: p.id })),
    },
  };
}
