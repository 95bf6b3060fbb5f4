// The state a fresh emulator starts with: the `internal` project with the
// service's well-known development keys (what Stack Auth's own local setup
// uses), and a demo project whose id and publishable key the example app
// uses by default.
import type { KeySetRecord, ProjectConfig, ProjectRecord, Store } from "./store.js";

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
export function defaultConfig(overrides: Partial<ProjectConfig> = {}): ProjectConfig {
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

/** Far enough ahead that seeded keys never expire in a test run. */
const KEYS_EXPIRE_AT = Date.UTC(2099, 0, 1);

function keySet(
  projectId: string,
  keys: { publishableClientKey: string; secretServerKey: string; superSecretAdminKey: string },
  createdAt: number,
): KeySetRecord {
  return {
    id: `${projectId === "internal" ? "00000000-0000-4000-8000-000000000001" : "00000000-0000-4000-8000-000000000002"}`,
    project_id: projectId,
    description: "Development keys (seeded by the emulator)",
    created_at_millis: createdAt,
    expires_at_millis: KEYS_EXPIRE_AT,
    publishable_client_key: keys.publishableClientKey,
    secret_server_key: keys.secretServerKey,
    super_secret_admin_key: keys.superSecretAdminKey,
  };
}

/** Puts the default projects and their keys into an empty store. */
export function seedDefaults(store: Store, now: number): void {
  const internal: ProjectRecord = {
    id: INTERNAL_KEYS.projectId,
    display_name: "Stack Dashboard",
    description: "The internal project: its users own the other projects.",
    created_at_millis: now,
    is_production_mode: false,
    config: defaultConfig({ client_team_creation_enabled: true, allow_user_api_keys: true, magic_link_enabled: true }),
    owner_team_id: null,
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
  store.put("projects", internal);
  store.put("projects", demo);
  store.put("keySets", keySet(internal.id, INTERNAL_KEYS, now));
  store.put("keySets", keySet(demo.id, DEMO_KEYS, now));
  for (const project of [internal, demo]) {
    for (const id of ["team_admin", "team_member"]) {
      store.put("permissionDefinitions", {
        project_id: project.id,
        scope: "team",
        id,
        description: id === "team_admin" ? "Administrates the team" : "A member of the team",
        contained_permission_ids:
          id === "team_admin"
            ? ["$update_team", "$delete_team", "$read_members", "$remove_members", "$invite_members", "$manage_api_keys"]
            : ["$read_members", "$invite_members"],
      });
    }
  }
}
