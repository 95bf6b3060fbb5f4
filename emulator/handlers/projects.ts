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
import { storedPictureUrl } from "../engine/images.js";
import { DEFAULT_TEAM_PERMISSIONS, defaultConfig } from "../engine/seed.js";
import type { ProjectRecord, Store, UserRecord } from "../engine/store.js";
import { randomId } from "../engine/tokens.js";
import { requireUser } from "./common.js";
import { adminConfigView, checkEmailTheme, mergedConfig } from "./project-config.js";

type Schemas = components["schemas"];
type ConfigUpdate = Schemas["ProjectConfigUpdate"];

const LOGO_FIELDS = ["logo_url", "logo_full_url", "logo_dark_mode_url", "logo_full_dark_mode_url"] as const;
type LogoField = (typeof LOGO_FIELDS)[number];

/**
 * The project as its admins see it: with its whole configuration, and the number of its users (2.8.11) or the
 * team that owns it (2.8.86), as the profile says; 2.8.86 adds the logos and the onboarding stage.
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
    ...(ctx.profile.projectThemesAndLogos && {
      ...Object.fromEntries(LOGO_FIELDS.map((field) => [field, project[field] ?? null])),
      onboarding_status: project.onboarding_status ?? "completed",
    }),
    config: adminConfigView(ctx.profile, project.config),
  };
}

/** The service's yup checks of a logo field: a URL without spaces, of at most a megabyte (its base64 image limit). */
function logoProblems(body: ProjectFields): string[] {
  return LOGO_FIELDS.flatMap((field) => {
    const value = body[field];
    if (typeof value !== "string") return [];
    const path = `body.${field}`;
    return [
      ...(value.includes(" ") ? [`${path} contains spaces`] : []),
      ...(URL.canParse(value) ? [] : [`${path} is not a valid URL`]),
      ...(value.length > MAX_LOGO_LENGTH ? [`${path} must be at most ${MAX_LOGO_LENGTH} characters`] : []),
    ];
  });
}
const MAX_LOGO_LENGTH = 1_000_000;

/**
 * The logos a create or update sets, as 2.8.86 stores them (one after the other, in field order): an image as a
 * base64 `data:` URL goes to the emulator's storage and the stored file's URL is kept, an http(s) URL as given, null
 * removes one; anything else is the service's plain-text 400, worded as for profile images.
 */
function logoFields(ctx: EmulatorContext, projectId: string, body: ProjectFields): Partial<Record<LogoField, string | null>> {
  const set: Partial<Record<LogoField, string | null>> = {};
  for (const field of LOGO_FIELDS) {
    const value = body[field];
    if (value !== undefined) set[field] = storedPictureUrl(ctx, projectId, value, "project-logos");
  }
  return set;
}

/** What a create or update sets beside the config. */
interface ProjectFields extends Partial<Record<LogoField, string | null>> {
  readonly display_name?: string;
  readonly description?: string | null;
  readonly is_production_mode?: boolean;
  readonly onboarding_status?: string;
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
        enabled_oauth_providers: project.config.enabled_oauth_providers,
        ...(ctx.profile.clientProjectDomains && { domains: project.config.domains }),
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
    const problems = logoProblems(body);
    if (problems.length > 0) throw schemaError(request, ...problems);
    const config = mergedConfig(request, ctx.profile, defaultConfig(), body.config);
    const now = ctx.now();
    let ownerTeamId: string | null = null;
    if (body.owner_team_id !== undefined) {
      // 2.8.86: the project goes to a team of the internal project that the user is a member of.
      if (ctx.store.membership(body.owner_team_id, user.id) === undefined)
        throw fail("TEAM_MEMBERSHIP_NOT_FOUND", { team_id: body.owner_team_id, user_id: user.id });
      ownerTeamId = body.owner_team_id;
    }
    const id = randomId();
    const project: ProjectRecord = {
      id,
      display_name: body.display_name,
      description: body.description ?? "",
      created_at_millis: now,
      is_production_mode: body.is_production_mode ?? false,
      config,
      owner_team_id: ownerTeamId,
      ...logoFields(ctx, id, body),
      ...(body.onboarding_status !== undefined && { onboarding_status: body.onboarding_status }),
      ...(body.config?.require_email_verification !== undefined && { require_email_verification: body.config.require_email_verification }),
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
    const problems = logoProblems(body);
    if (problems.length > 0) throw schemaError(request, ...problems);
    const config = mergedConfig(request, ctx.profile, project.config, body.config);
    // 2.8.86's route checks the theme before it changes anything; the logos are stored next.
    checkEmailTheme(body.config);
    const logos = logoFields(ctx, project.id, body);
    const required = body.config?.require_email_verification;
    ctx.store.updateProject(project.id, {
      ...(body.display_name !== undefined && { display_name: body.display_name }),
      // The service stores a null description as an empty one.
      ...(body.description !== undefined && { description: body.description ?? "" }),
      ...(body.is_production_mode !== undefined && { is_production_mode: body.is_production_mode }),
      ...logos,
      ...(body.onboarding_status !== undefined && { onboarding_status: body.onboarding_status }),
      ...(required !== undefined && { require_email_verification: required }),
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
