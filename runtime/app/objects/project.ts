// The project, as a client sees it (SPEC §3 "Project (client view)"), and, for
// users of the internal project only (the dashboard's own project), the
// projects they own (SPEC §6).
import type { components } from "../../../generated/schema.js";
import { StackConfigurationError } from "../../errors.js";
import type { OwnerSession } from "../../pipeline.js";
import { adminProjectUpdateToWire, type AdminProject, type AdminProjectUpdateOptions } from "../admin/project.js";
import { signalOf, untilAborted, type CallOptions } from "../call-options.js";
import type { ClientAppContext } from "../context.js";
import type { StackAdminApp } from "../admin-app.js";
import { assertAnswered } from "../wire.js";

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

export interface Project {
  readonly id: string;
  readonly displayName: string;
  readonly config: ProjectConfig;
}

/**
 * A project the signed-in user owns (internal project only): the admin view of
 * the project, and `app`, an admin app for it acting on the owner's session.
 */
export type AdminOwnedProject = AdminProject & {
  readonly app: StackAdminApp;
};

type WireAdminProject = components["schemas"]["AdminProject"];
type OwnedProjectFactory = (ctx: ClientAppContext, owner: OwnerSession, wire: WireAdminProject) => AdminOwnedProject;

let loadOwnedProjectFactory: (() => Promise<OwnedProjectFactory>) | undefined;

/** Hands over how owned projects are built; the package entry calls it with a lazy import of the admin half. */
export function provideOwnedProjectFactory(load: () => Promise<OwnedProjectFactory>): void {
  loadOwnedProjectFactory = load;
}

/** What a new project is made with; `config` takes the service's defaults for what it leaves out. */
export interface AdminProjectCreateOptions extends AdminProjectUpdateOptions {
  readonly displayName: string;
}

export const INTERNAL_PROJECT_ID = "internal";

/** The client view of this app's project: its name and the features it enables. */
export async function getProject(ctx: ClientAppContext, options?: CallOptions): Promise<Project> {
  const { data } = await ctx.client.api.GET("/projects/current", signalOf(options));
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

/**
 * The owned projects of `wires`, each with its admin app on the owner's current
 * session. The admin half is loaded on first use, so client apps do not bundle it.
 */
async function ownedProjectsOf(
  ctx: ClientAppContext,
  wires: readonly WireAdminProject[],
  call: CallOptions | undefined,
): Promise<AdminOwnedProject[]> {
  if (!loadOwnedProjectFactory) {
    throw new StackConfigurationError(
      'Owned projects come with their admin app, which is missing: import the app classes from "stackkit".',
    );
  }
  const ownedProjectOf = await untilAborted(loadOwnedProjectFactory(), call);
  const owner = ctx.sessions().current();
  return wires.map((wire) => ownedProjectOf(ctx, owner, wire));
}

/** The service would answer EXPECTED_INTERNAL_PROJECT; say what to do instead, before sending anything. */
function requireInternalProject(ctx: ClientAppContext, what: string): void {
  if (ctx.projectId !== INTERNAL_PROJECT_ID) {
    throw new StackConfigurationError(
      `${what} is only available to users of the internal project (projectId "${INTERNAL_PROJECT_ID}"); this app's projectId is "${ctx.projectId}". Manage other projects with an admin app.`,
    );
  }
}

/** The projects the signed-in user owns. */
export async function listOwnedProjects(ctx: ClientAppContext, options?: CallOptions): Promise<AdminOwnedProject[]> {
  requireInternalProject(ctx, "listOwnedProjects");
  const { data } = await ctx.client.api.GET("/internal/projects", signalOf(options));
  assertAnswered(data, "GET /internal/projects");
  return ownedProjectsOf(ctx, data.items, options);
}

/**
 * Creates a project owned by the signed-in user, with the reference SDK's
 * options (`displayName`, `description`, `isProductionMode`, `config`); what the
 * config leaves out takes the service's defaults.
 */
export async function createProject(ctx: ClientAppContext, options: AdminProjectCreateOptions & CallOptions): Promise<AdminOwnedProject> {
  requireInternalProject(ctx, "createProject");
  if (typeof options !== "object" || options === null || typeof options.displayName !== "string") {
    throw new StackConfigurationError("createProject needs options: { displayName, description?, isProductionMode?, config? }.");
  }
  const body = { ...adminProjectUpdateToWire(options, "createProject"), display_name: options.displayName };
  const { data } = await ctx.client.api.POST("/internal/projects", { body, ...signalOf(options) });
  assertAnswered(data, "POST /internal/projects", "the new project");
  const [project] = await ownedProjectsOf(ctx, [data], options);
  return project!;
}
