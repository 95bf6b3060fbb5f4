// The state a fresh emulator starts with: the `internal` project as the
// service's seed script makes it with its development settings (the
// well-known keys, the four shared OAuth providers, sign-up and one-time
// codes on), per version, and a demo project whose id and publishable key the
// example app uses by default.
import type { ServiceProfile } from "./profile.js";
import type { KeySetRecord, PermissionDefinitionRecord, ProjectConfigRecord, ProjectRecord, Store, TeamRecord } from "./store.js";

/** The project id and keys of the emulator's `internal` project: Stack Auth's well-known keys for local development. */
export const INTERNAL_KEYS = {
  projectId: "internal",
  publishableClientKey: "this-publishable-client-key-is-for-local-development-only",
  secretServerKey: "this-secret-server-key-is-for-local-development-only",
  superSecretAdminKey: "this-super-secret-admin-key-is-for-local-development-only",
} as const;

/** The project id and keys of the emulator's demo project, which a fresh emulator has: what apps and tests against it use. */
export const DEMO_KEYS = {
  projectId: "6f4a3c2e-0b1d-4e5f-9a8b-7c6d5e4f3a2b",
  publishableClientKey: "pck_example_publishable_client_key",
  secretServerKey: "ssk_example_secret_server_key",
  superSecretAdminKey: "sak_example_super_secret_admin_key",
} as const;

/** A new project's configuration, as the service defaults it. */
export function defaultConfig(overrides: Partial<ProjectConfigRecord> = {}): ProjectConfigRecord {
  return {
    allow_localhost: true,
    sign_up_enabled: true,
    credential_enabled: true,
    magic_link_enabled: false,
    passkey_enabled: false,
    client_team_creation_enabled: false,
    client_user_deletion_enabled: false,
    allow_user_api_keys: false,
    allow_team_api_keys: false,
    oauth_providers: [],
    enabled_oauth_providers: [],
    domains: [],
    email_config: { type: "shared" },
    create_team_on_sign_up: false,
    team_creator_default_permissions: [{ id: "team_admin" }],
    team_member_default_permissions: [{ id: "team_member" }],
    user_default_permissions: [],
    oauth_account_merge_strategy: "link_method",
    ...overrides,
  };
}

/** The key sets never expire in practice: the service's seed gives the internal one 2099-12-31T23:59:59Z. */
const KEYS_EXPIRE_AT = Date.UTC(2099, 11, 31, 23, 59, 59);

/** The id the service's seed gives the internal project's key set. */
const INTERNAL_KEY_SET_ID = "3142e763-b230-44b5-8636-aa62f7489c26";

/** The team the 2.8.86 seed makes in the internal project and makes the internal project's owner. */
export const INTERNAL_TEAM_ID = "a23e1b7f-ab18-41fc-9ee6-7a9ca9fa543c";

function keySet(
  projectId: string,
  keys: { publishableClientKey: string; secretServerKey: string; superSecretAdminKey: string },
  createdAt: number,
): KeySetRecord {
  const internal = projectId === INTERNAL_KEYS.projectId;
  return {
    id: internal ? INTERNAL_KEY_SET_ID : "00000000-0000-4000-8000-000000000002",
    project_id: projectId,
    description: internal ? "Internal API key set" : "Development keys (seeded by the emulator)",
    created_at_millis: createdAt,
    expires_at_millis: KEYS_EXPIRE_AT,
    publishable_client_key: keys.publishableClientKey,
    secret_server_key: keys.secretServerKey,
    super_secret_admin_key: keys.superSecretAdminKey,
  };
}

type Definition = Pick<PermissionDefinitionRecord, "id" | "description" | "contained_permission_ids">;

/** What every project the service makes starts with (both versions): its two default team permissions. */
export const DEFAULT_TEAM_PERMISSIONS: readonly Definition[] = [
  {
    id: "team_admin",
    description: "Default permission for team admins",
    contained_permission_ids: ["$delete_team", "$invite_members", "$manage_api_keys", "$read_members", "$remove_members", "$update_team"],
  },
  { id: "team_member", description: "Default permission for team members", contained_permission_ids: ["$invite_members", "$read_members"] },
];

/**
 * The internal project's team permissions. 2.8.86's seed rewrites both (descriptions "1" and "2": the dashboard
 * only reads which system permissions they hold); 2.8.11's keeps the defaults.
 */
function internalTeamPermissions(profile: ServiceProfile | undefined): readonly Definition[] {
  if (profile?.version === "2.8.11") return DEFAULT_TEAM_PERMISSIONS;
  return [
    { id: "team_admin", description: "2", contained_permission_ids: ["$read_members", "$remove_members", "$update_team"] },
    { id: "team_member", description: "1", contained_permission_ids: ["$read_members"] },
  ];
}

/** The OAuth providers the development settings give the internal project, shared ones, in the order the service lists them. */
const INTERNAL_OAUTH_PROVIDERS = ["github", "google", "microsoft", "spotify"] as const;

/**
 * The internal project's configuration: the seed's development settings on the service's defaults. 2.8.86's seed
 * also turns on client team creation and a personal team for every new user (each dashboard user gets a team to
 * own projects with); 2.8.11's does neither. Neither turns on user API keys.
 */
function internalConfig(profile: ServiceProfile | undefined): ProjectConfigRecord {
  const newer = profile?.version !== "2.8.11";
  return defaultConfig({
    magic_link_enabled: true,
    client_team_creation_enabled: newer,
    create_team_on_sign_up: newer,
    oauth_providers: INTERNAL_OAUTH_PROVIDERS.map((id) => ({ id, type: "shared" as const })),
    enabled_oauth_providers: INTERNAL_OAUTH_PROVIDERS.map((id) => ({ id })),
  });
}

/** Puts the default projects and their keys into an empty store, as the service version of `profile` seeds them (default 2.8.86). */
export function seedDefaults(store: Store, now: number, profile?: ServiceProfile): void {
  const ownedByTeam = profile?.version !== "2.8.11";
  const internal: ProjectRecord = {
    id: INTERNAL_KEYS.projectId,
    display_name: "Stack Dashboard",
    description: "Stack's admin dashboard",
    created_at_millis: now,
    is_production_mode: false,
    config: internalConfig(profile),
    owner_team_id: ownedByTeam ? INTERNAL_TEAM_ID : null,
  };
  const demo: ProjectRecord = {
    id: DEMO_KEYS.projectId,
    display_name: "Demo",
    description: "The example app's project.",
    created_at_millis: now,
    is_production_mode: false,
    config: defaultConfig({
      magic_link_enabled: true,
      passkey_enabled: true,
      client_team_creation_enabled: true,
      client_user_deletion_enabled: true,
      allow_user_api_keys: true,
      allow_team_api_keys: true,
      // Signing in with them goes through the emulator's own provider page: nothing leaves the machine.
      oauth_providers: [
        { id: "github", type: "shared" },
        { id: "google", type: "shared" },
      ],
      enabled_oauth_providers: [{ id: "github" }, { id: "google" }],
    }),
    owner_team_id: null,
  };
  store.insert("projects", internal);
  store.insert("projects", demo);
  store.insert("keySets", keySet(internal.id, INTERNAL_KEYS, now));
  store.insert("keySets", keySet(demo.id, DEMO_KEYS, now));
  if (ownedByTeam) {
    const team: TeamRecord = {
      id: INTERNAL_TEAM_ID,
      project_id: internal.id,
      display_name: "Internal Team",
      profile_image_url: null,
      client_metadata: null,
      client_read_only_metadata: null,
      server_metadata: null,
      created_at_millis: now,
    };
    store.insert("teams", team);
  }
  const definitions: [ProjectRecord, readonly Definition[]][] = [
    [internal, internalTeamPermissions(profile)],
    [demo, DEFAULT_TEAM_PERMISSIONS],
  ];
  for (const [project, list] of definitions) {
    for (const definition of list) {
      store.insert("permissionDefinitions", {
        project_id: project.id,
        scope: "team",
        ...definition,
        contained_permission_ids: [...definition.contained_permission_ids],
      });
    }
  }
}
