// The records of the emulator's state, one type a table, and the JSON the
// state exports as. Records hold wire-shaped fields (snake_case) so that views
// are thin; what the service never shows (password hashes, token secrets) is
// kept beside.
import type { components } from "../../../generated/schema.js";
import type { SignUpRulesConfig } from "../sign-up-rules.js";

export type ProjectConfigRecord = components["schemas"]["ProjectConfig"];

export interface ProjectRecord {
  readonly id: string;
  readonly display_name: string;
  readonly description: string | null;
  readonly created_at_millis: number;
  readonly is_production_mode: boolean;
  readonly config: ProjectConfigRecord;
  /** The team of the internal project whose members own this project (null for the internal project). */
  readonly owner_team_id: string | null;
  /** 2.8.86's onboarding.requireEmailVerification: users whose primary e-mail is unverified are restricted. Absent: false. */
  readonly require_email_verification?: boolean;
  /** 2.8.86's project.requirePublishableClientKey: client requests must carry the publishable key. Absent: true. */
  readonly require_publishable_client_key?: boolean;
  /** 2.8.86's auth.signUpRules and auth.signUpRulesDefaultAction. Absent: none, every sign-up allowed. */
  readonly sign_up_rules?: SignUpRulesConfig;
  /** 2.8.86's logos (URLs) and the dashboard's onboarding stage. Absent: null, and `completed`. */
  readonly logo_url?: string | null;
  readonly logo_full_url?: string | null;
  readonly logo_dark_mode_url?: string | null;
  readonly logo_full_dark_mode_url?: string | null;
  readonly onboarding_status?: string;
}

/** A key set of a project (`/internal/api-keys`): the keys apps authenticate with. */
export interface KeySetRecord {
  readonly id: string;
  readonly project_id: string;
  readonly description: string;
  readonly created_at_millis: number;
  readonly expires_at_millis: number;
  readonly manually_revoked_at_millis?: number;
  readonly publishable_client_key?: string;
  readonly secret_server_key?: string;
  readonly super_secret_admin_key?: string;
}

/** A user as the emulator keeps it, in the service's snake_case (what `control.createUser()` answers, a TestUser's `record`). */
export interface UserRecord {
  readonly id: string;
  readonly project_id: string;
  readonly display_name: string | null;
  readonly profile_image_url: string | null;
  readonly signed_up_at_millis: number;
  readonly last_active_at_millis: number;
  readonly client_metadata: unknown;
  readonly client_read_only_metadata: unknown;
  readonly server_metadata: unknown;
  readonly selected_team_id: string | null;
  readonly is_anonymous: boolean;
  /** Restricted by an administrator (2.8.86: its tokens are restricted users'); absent when not. */
  readonly restricted_by_admin?: boolean;
  /** What the server view shows of why (a restricting sign-up rule notes itself here); absent: null. */
  readonly restricted_by_admin_private_details?: string;
  /** The country the user signed up from (2.8.86's `country_code`), when the sign-up told it; absent: null. */
  readonly country_code?: string | null;
  /** The sign-up's risk scores as server code set them (2.8.86's `risk_scores.sign_up`); absent: 0 each, as the fallback engine rates. */
  readonly risk_scores?: { readonly bot: number; readonly free_trial_abuse: number };
  readonly otp_auth_enabled: boolean;
  readonly passkey_auth_enabled: boolean;
  /** Base64 of the TOTP secret's bytes, when multi-factor sign-in is on. */
  readonly totp_secret_base64: string | null;
  /** `salt:hash`, base64 each (SHA-256 of salt and password); null without a password. */
  readonly password_hash: string | null;
  /** Linked provider accounts; `scopes` are what the provider granted through the OAuth flow (absent for accounts set by server code, which have no provider tokens). */
  readonly oauth_providers: { id: string; account_id: string; email?: string | null; scopes?: string[] }[];
}

export interface ContactChannelRecord {
  readonly id: string;
  readonly project_id: string;
  readonly user_id: string;
  readonly type: "email";
  readonly value: string;
  readonly is_verified: boolean;
  readonly is_primary: boolean;
  readonly used_for_auth: boolean;
}

/** A session: what a refresh token stands for. */
export interface SessionRecord {
  readonly id: string;
  readonly project_id: string;
  readonly user_id: string;
  readonly refresh_token: string;
  readonly created_at_millis: number;
  readonly last_used_at_millis: number | null;
  readonly expires_at_millis: number | null;
  readonly is_impersonation: boolean;
}

export interface TeamRecord {
  readonly id: string;
  readonly project_id: string;
  readonly display_name: string;
  readonly profile_image_url: string | null;
  readonly client_metadata: unknown;
  readonly client_read_only_metadata: unknown;
  readonly server_metadata: unknown;
  readonly created_at_millis: number;
}

/** A membership, with the member's profile in the team. */
export interface MembershipRecord {
  readonly project_id: string;
  readonly team_id: string;
  readonly user_id: string;
  readonly display_name: string | null;
  readonly profile_image_url: string | null;
}

export interface PermissionDefinitionRecord {
  readonly project_id: string;
  readonly scope: "team" | "project";
  readonly id: string;
  readonly description: string | null;
  readonly contained_permission_ids: string[];
}

/** A permission granted directly (not through containment). */
export interface GrantRecord {
  readonly project_id: string;
  readonly scope: "team" | "project";
  /** Null for a project permission. */
  readonly team_id: string | null;
  readonly user_id: string;
  readonly permission_id: string;
}

export interface ApiKeyRecord {
  readonly id: string;
  readonly project_id: string;
  readonly type: "user" | "team";
  readonly user_id: string | null;
  readonly team_id: string | null;
  readonly description: string;
  /** The full secret; the service shows it once, then only its last four characters. */
  readonly value: string;
  readonly is_public: boolean;
  readonly created_at_millis: number;
  readonly expires_at_millis: number | null;
  readonly manually_revoked_at_millis: number | null;
}

/** What a one-time code is for (a {@link CodeRecord}'s `kind`). */
export type CodeKind =
  | "email_verification"
  | "password_reset"
  | "magic_link"
  | "team_invitation"
  | "mfa_attempt"
  | "passkey_registration"
  | "passkey_authentication";

/** A one-time code the service mailed (or handed out): what it is for and what it carries. */
export interface CodeRecord {
  readonly code: string;
  readonly project_id: string;
  readonly kind: CodeKind;
  readonly created_at_millis: number;
  readonly expires_at_millis: number;
  readonly used_at_millis: number | null;
  readonly attempts: number;
  /** Who it was sent to, and the link that carried it. */
  readonly recipient: string;
  readonly link: string | null;
  readonly data: Readonly<Record<string, unknown>>;
}

/** A registered passkey (a WebAuthn credential) of a user; the service keeps at most one per user. */
export interface PasskeyRecord {
  readonly id: string;
  readonly project_id: string;
  readonly user_id: string;
  /** The credential id, base64url, as the authenticator named it. */
  readonly credential_id: string;
  /** The COSE public key, base64url. */
  readonly public_key: string;
  /** The signature counter last seen; an assertion must come with a higher one (unless both are 0). */
  readonly counter: number;
  readonly transports: readonly string[];
  readonly created_at_millis: number;
}

/**
 * A step of an OAuth flow (emulator/handlers/oauth.ts): the flow an authorize
 * call started (keyed by its inner state), a grant of the emulator's fake
 * provider, or the authorization code the app exchanges at the token endpoint.
 */
export interface OAuthCodeRecord {
  readonly id: string;
  readonly kind: "flow" | "provider_grant" | "authorization_code";
  readonly project_id: string;
  readonly created_at_millis: number;
  readonly expires_at_millis: number;
  readonly used_at_millis: number | null;
  readonly data: Readonly<Record<string, unknown>>;
}

/** An e-mail the emulator sent, as it keeps it, in the service's snake_case (`control.emails()`). */
export interface EmailRecord {
  readonly id: string;
  readonly project_id: string;
  readonly to: readonly string[];
  readonly from: string;
  readonly subject: string;
  readonly text: string;
  readonly html: string;
  readonly sent_at_millis: number;
  /**
   * Why sending failed (a test e-mail to a bad server), null when it went. The
   * service keeps its mailer's error object here: `{rawError, errorType, canRetry, message}`.
   */
  readonly error: string | Readonly<Record<string, unknown>> | null;
  /** The e-mail configuration it went out with, without the password (`/internal/emails`); absent: the project's at the time. */
  readonly sender_config?: Readonly<Record<string, unknown>> | null;
  /** A test e-mail of `send-test-email`, which 2.8.86 sends outside its log of sent e-mails. */
  readonly test?: boolean;
}

/** A command-line login attempt (`/auth/cli`): the tool polls with `polling_code`, the browser completes it with `login_code`. */
export interface CliLoginRecord {
  readonly id: string;
  readonly project_id: string;
  readonly polling_code: string;
  readonly login_code: string;
  readonly created_at_millis: number;
  readonly expires_at_millis: number;
  /** The refresh token the browser handed over; null while waiting. */
  readonly refresh_token: string | null;
  /** The tool's own anonymous session (2.8.86's `anon_refresh_token`), until the browser claims it or completes; absent in older state files. */
  readonly anon_refresh_token?: string | null;
  /** When the tool read the refresh token (a later poll answers `used`). */
  readonly used_at_millis: number | null;
}

/** A project's customised e-mail template (`/email-templates/{type}`); a type without one uses the default. Keyed `project_id/type`. */
export interface EmailTemplateRecord {
  readonly id: string;
  readonly project_id: string;
  readonly type: "email_verification" | "password_reset" | "magic_link" | "team_invitation";
  readonly subject: string;
  readonly content: unknown;
}

/** Where a request came from, as far as its headers tell the service (its end-user IP info). */
export interface EndUserRecord {
  readonly ip: string;
  readonly country_code?: string;
  readonly region_code?: string;
  readonly city_name?: string;
  readonly latitude?: number;
  readonly longitude?: number;
  readonly tz_identifier?: string;
}

/**
 * An access token the service issued, as its event log keeps it (`$session-activity`, and on 2.8.86
 * `$token-refresh`): what its metrics count as activity. Events outlive their user, as the service's do; they go
 * with their project.
 */
export interface ActivityEventRecord {
  readonly id: string;
  readonly project_id: string;
  readonly user_id: string;
  readonly session_id: string;
  readonly at_millis: number;
  /** Whether the user was anonymous when the token was issued. */
  readonly is_anonymous: boolean;
  readonly end_user: EndUserRecord | null;
}

/**
 * A file in the emulator's storage (2.8.86 moves base64 profile images there): served at
 * `/emulator/storage/<id>`, its id `<folder>/<uuid>.<format>` as the service names its stored files.
 */
export interface FileRecord {
  readonly id: string;
  readonly project_id: string;
  readonly content_type: string;
  readonly data_base64: string;
  readonly created_at_millis: number;
}

/** Every table, by name (what `StateJson` lists). */
export interface Tables {
  readonly projects: Map<string, ProjectRecord>;
  readonly keySets: Map<string, KeySetRecord>;
  readonly users: Map<string, UserRecord>;
  readonly contactChannels: Map<string, ContactChannelRecord>;
  readonly sessions: Map<string, SessionRecord>;
  readonly teams: Map<string, TeamRecord>;
  /** Keyed `team_id/user_id`. */
  readonly memberships: Map<string, MembershipRecord>;
  /** Keyed `project_id/scope/id`. */
  readonly permissionDefinitions: Map<string, PermissionDefinitionRecord>;
  /** Keyed `project_id/scope/team_id/user_id/permission_id`. */
  readonly grants: Map<string, GrantRecord>;
  readonly apiKeys: Map<string, ApiKeyRecord>;
  readonly codes: Map<string, CodeRecord>;
  readonly emails: Map<string, EmailRecord>;
  readonly cliLogins: Map<string, CliLoginRecord>;
  readonly emailTemplates: Map<string, EmailTemplateRecord>;
  readonly passkeys: Map<string, PasskeyRecord>;
  readonly oauthCodes: Map<string, OAuthCodeRecord>;
  readonly activityEvents: Map<string, ActivityEventRecord>;
  readonly files: Map<string, FileRecord>;
}

export type TableName = keyof Tables;

/** Fields to change in a record (the store's update operations take them; records themselves are read-only outside the store). */
export type Changes<T> = { -readonly [K in keyof T]?: T[K] };

/** The record type of a table. */
export type RowOf<T extends TableName> = Tables[T] extends Map<string, infer R> ? R : never;

/** The tables in the order the state exports them (which keeps exported files byte-compatible). */
export const TABLE_NAMES: readonly TableName[] = [
  "projects",
  "keySets",
  "users",
  "contactChannels",
  "sessions",
  "teams",
  "memberships",
  "permissionDefinitions",
  "grants",
  "apiKeys",
  "codes",
  "emails",
  "cliLogins",
  "emailTemplates",
  "passkeys",
  "oauthCodes",
  "activityEvents",
  "files",
];

/** The state as JSON: every table as a list of records. */
export interface StateJson {
  readonly version: 1;
  readonly tables: { readonly [T in TableName]?: readonly unknown[] };
}
