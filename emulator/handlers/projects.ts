// Projects: the client's view of the current project; the admin view with its
// full configuration (read, update, delete the current project); and, for
// users of the internal project, the projects they manage (list, create). Who
// manages a project is the profile's: on 2.8.11 the users whose server metadata
// lists its id, on 2.8.86 the members of its owner team; their admin access
// tokens open it.
import type { components } from "../../generated/schema.js";
import { INTERNAL_PROJECT_ID, managedProjectIds } from "../engine/auth.js";
import type { EmulatorContext, EmulatorRequest, Handlers } from "../engine/context.js";
import { fail, schemaError } from "../engine/errors.js";
import { DEFAULT_TEAM_PERMISSIONS, defaultConfig } from "../engine/seed.js";
import type { ProjectConfigRecord, ProjectRecord, Store, UserRecord } from "../engine/store.js";
import { randomId } from "../engine/tokens.js";
import { projectConfigView } from "../engine/views.js";
import { requireUser } from "./common.js";

type Schemas = components["schemas"];
type ConfigUpdate = Schemas["ProjectConfigUpdate"];

/** The providers the service knows: any of them with the project's own OAuth app, a few with its shared development keys. */
const STANDARD_PROVIDERS = [
  "google",
  "github",
  "microsoft",
  "spotify",
  "facebook",
  "discord",
  "gitlab",
  "bitbucket",
  "linkedin",
  "apple",
  "x",
];
const SHARED_PROVIDERS = ["google", "github", "microsoft", "spotify"];

/**
 * The project as its admins see it: with its whole configuration, and the number of its users (2.8.11) or the
 * team that owns it (2.8.86), as the profile says.
 */
export function adminProjectView(ctx: EmulatorContext, project: ProjectRecord): Schemas["AdminProject"] {
  const userCount = ctx.store.usersOf(project.id).length;
  return {
    id: project.id,
    display_name: project.display_name,
    description: project.description,
    created_at_millis: project.created_at_millis,
    ...(ctx.profile.projectView === "user-count" ? { user_count: userCount } : { owner_team_id: project.owner_team_id }),
    is_production_mode: project.is_production_mode,
    config: projectConfigView(project.config),
  };
}

/**
 * What the service's schema says of a trusted domain (both versions): no spaces, a URL, and one starting with http://
 * or https:// — each failing test a line of its own, in that order; the last one's message does not name the field.
 */
function domainProblems(path: string, domain: string): string[] {
  const problems: string[] = [];
  if (domain.includes(" ")) problems.push(`${path} contains spaces`);
  if (!URL.canParse(domain)) problems.push(`${path} is not a valid URL`);
  if (!/^https?:\/\//.test(domain)) problems.push("URL must start with http:// or https://");
  return problems;
}

/**
 * `config` with the fields of `update` set: a field left out keeps its value, a
 * list given replaces the whole list. Every OAuth provider given is enabled.
 */
function mergedConfig(request: EmulatorRequest, config: ProjectConfigRecord, update: ConfigUpdate | undefined): ProjectConfigRecord {
  if (update === undefined) return config;
  if (update.domains !== undefined) {
    const problems = update.domains.flatMap(({ domain }, index) => domainProblems(`body.config.domains[${index}].domain`, domain));
    if (problems.length > 0) throw schemaError(request, ...problems);
  }
  const next: ProjectConfigRecord = { ...config, ...structuredClone(update) };
  if (update.oauth_providers !== undefined) {
    next.oauth_providers = update.oauth_providers.map((provider, index) => {
      if (provider.type === "shared" && !SHARED_PROVIDERS.includes(provider.id))
        throw fail("INVALID_SHARED_OAUTH_PROVIDER_ID", { provider_id: provider.id });
      if (provider.type === "standard") {
        if (!STANDARD_PROVIDERS.includes(provider.id)) throw fail("INVALID_STANDARD_OAUTH_PROVIDER_ID", { provider_id: provider.id });
        if (provider.client_id === undefined || provider.client_secret === undefined) {
          throw schemaError(request, `body.config.oauth_providers[${index}] of type standard needs client_id and client_secret`);
        }
      }
      const { id, type, client_id, client_secret, facebook_config_id, microsoft_tenant_id } = provider;
      return {
        id,
        type,
        ...(client_id === undefined ? {} : { client_id }),
        ...(client_secret === undefined ? {} : { client_secret }),
        ...(facebook_config_id === undefined ? {} : { facebook_config_id }),
        ...(microsoft_tenant_id === undefined ? {} : { microsoft_tenant_id }),
      };
    });
    next.enabled_oauth_providers = next.oauth_providers.map(({ id }) => ({ id }));
  }
  const email = update.email_config;
  if (email?.type === "standard") {
    const missing = (["host", "port", "username", "password", "sender_name", "sender_email"] as const).filter(
      (field) => email[field] === undefined,
    );
    if (missing.length > 0) throw schemaError(request, `body.config.email_config of type standard needs ${missing.join(", ")}`);
  }
  return next;
}

/** What a create or update sets beside the config. */
interface ProjectFields {
  readonly display_name?: string;
  readonly description?: string | null;
  readonly is_production_mode?: boolean;
  readonly config?: ConfigUpdate;
}

/** The permissions every new project starts with, as the service makes them (the seeded demo project's too). */
function addDefaultPermissionDefinitions(store: Store, projectId: string): void {
  for (const { id, description, contained_permission_ids } of DEFAULT_TEAM_PERMISSIONS) {
    store.insert("permissionDefinitions", {
      project_id: projectId,
      scope: "team",
      id,
      description,
      contained_permission_ids: [...contained_permission_ids],
    });
  }
}

/**
 * Only users of the internal project own projects: USER_AUTHENTICATION_REQUIRED without a user, then (both versions
 * check in this order) EXPECTED_INTERNAL_PROJECT on another project.
 */
function requireInternalUser(request: EmulatorRequest) {
  const user = requireUser(request);
  if (request.project.id !== INTERNAL_PROJECT_ID) throw fail("EXPECTED_INTERNAL_PROJECT");
  return user;
}

/** `user`'s server metadata with `managedProjectIds` set to `ids`, its other fields kept (2.8.11's managed list). */
function setManagedProjectIds(store: Store, user: UserRecord, ids: readonly string[]): void {
  const meta = user.server_metadata;
  const rest = typeof meta === "object" && meta !== null && !Array.isArray(meta) ? meta : {};
  store.updateUser(user.id, { server_metadata: { ...rest, managedProjectIds: [...ids] } });
}

export const projectHandlers = {
  // Public (no x-stack headers): the keys a backend verifies the project's access tokens with.
  getProjectJwks: async ({ params, query }, ctx) => {
    const projectId = params["project_id"] ?? "";
    if (ctx.store.project(projectId) === undefined) throw fail("PROJECT_NOT_FOUND", { project_id: projectId });
    const body = await ctx.signers.jwks(ctx.profile, projectId, {
      includeAnonymous: query.get("include_anonymous") === "true",
      includeRestricted: query.get("include_restricted") === "true",
    });
    return ctx.profile.accessTokens === "per-audience" ? { body, cacheControl: "public, max-age=3600" } : { body };
  },
  getCurrentProject: ({ project }, ctx) => ({
    body: {
      id: project.id,
      display_name: project.display_name,
      config: {
        sign_up_enabled: project.config.sign_up_enabled,
        credential_enabled: project.config.credential_enabled,
        magic_link_enabled: project.config.magic_link_enabled,
        passkey_enabled: project.config.passkey_enabled,
        client_team_creation_enabled: project.config.client_team_creation_enabled,
        client_user_deletion_enabled: project.config.client_user_deletion_enabled,
        allow_user_api_keys: project.config.allow_user_api_keys,
        allow_team_api_keys: project.config.allow_team_api_keys,
        enabled_oauth_providers: projectConfigView(project.config).enabled_oauth_providers,
        ...(ctx.profile.clientProjectDomains && { domains: projectConfigView(project.config).domains }),
      },
    },
  }),

  listOwnedProjects: (request, ctx) => {
    const user = requireInternalUser(request);
    const projects = managedProjectIds(ctx, user).flatMap((id) => {
      const project = ctx.store.project(id);
      return project ? [project] : [];
    });
    // 2.8.11 lists them in the order of the user's list (oldest first); 2.8.86 newest first.
    if (ctx.profile.managedProjects === "owner-team") projects.reverse().sort((a, b) => b.created_at_millis - a.created_at_millis);
    return { body: { items: projects.map((project) => adminProjectView(ctx, project)), is_paginated: false } };
  },

  createOwnedProject: (request, ctx) => {
    const user = requireInternalUser(request);
    const body = request.body as ProjectFields & { readonly display_name: string; readonly owner_team_id?: string };
    // Both versions check the body before anything else: 2.8.11 does not know owner_team_id, 2.8.86 requires it.
    if (ctx.profile.projectOwnerTeam === "refused" && body.owner_team_id !== undefined)
      throw schemaError(request, "body contains unknown properties: owner_team_id");
    if (ctx.profile.projectOwnerTeam === "required" && body.owner_team_id === undefined)
      throw schemaError(request, "body.owner_team_id must be defined");
    const config = mergedConfig(request, defaultConfig(), body.config);
    const now = ctx.now();
    let ownerTeamId: string | null = null;
    if (body.owner_team_id !== undefined) {
      // 2.8.86: the project goes to a team of the internal project that the user is a member of.
      if (ctx.store.membership(body.owner_team_id, user.id) === undefined)
        throw fail("TEAM_MEMBERSHIP_NOT_FOUND", { team_id: body.owner_team_id, user_id: user.id });
      ownerTeamId = body.owner_team_id;
    }
    const project: ProjectRecord = {
      id: randomId(),
      display_name: body.display_name,
      description: body.description ?? "",
      created_at_millis: now,
      is_production_mode: body.is_production_mode ?? false,
      config,
      owner_team_id: ownerTeamId,
      // 2.8.86 makes projects without the requirement (its config's default); only older projects were given it.
      ...(ctx.profile.publishableClientKey === "per-project" ? { require_publishable_client_key: false } : {}),
    };
    ctx.store.insert("projects", project);
    // 2.8.11: no team owns it; its id joins the end of the creator's managed list in their server metadata.
    if (ctx.profile.managedProjects === "server-metadata")
      setManagedProjectIds(ctx.store, user, [...managedProjectIds(ctx, user), project.id]);
    addDefaultPermissionDefinitions(ctx.store, project.id);
    return { status: 201, body: adminProjectView(ctx, project) };
  },

  getAdminProject: ({ project }, ctx) => ({ body: adminProjectView(ctx, project) }),

  updateAdminProject: (request, ctx) => {
    const project = request.project;
    const body = (request.body ?? {}) as ProjectFields;
    const config = mergedConfig(request, project.config, body.config);
    ctx.store.updateProject(project.id, {
      ...(body.display_name !== undefined && { display_name: body.display_name }),
      ...(body.description !== undefined && { description: body.description }),
      ...(body.is_production_mode !== undefined && { is_production_mode: body.is_production_mode }),
      config,
    });
    return { body: adminProjectView(ctx, project) };
  },

  deleteAdminProject: ({ project }, ctx) => {
    ctx.store.deleteProject(project.id);
    // 2.8.11 takes its id out of every internal user's managed list that has it.
    if (ctx.profile.managedProjects === "server-metadata") {
      for (const user of ctx.store.usersOf(INTERNAL_PROJECT_ID)) {
        const ids = managedProjectIds(ctx, user);
        if (ids.includes(project.id))
          setManagedProjectIds(
            ctx.store,
            user,
            ids.filter((id) => id !== project.id),
          );
      }
    }
    return { body: { success: true } };
  },
} satisfies Handlers;
