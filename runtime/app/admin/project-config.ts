// The owner's view of a project's configuration (SPEC §3 "Project config"), in
// the reference SDK's camelCase names, and its translation to and from the
// wire's snake_case. Reading is strict about what the admin view must carry;
// writing sends only the fields the caller gave, so nothing else is reset.
import type { components } from "../../../generated/schema.js";
import { StackAssertionError, StackConfigurationError } from "../../errors.js";

type Schemas = components["schemas"];

/** What happens when an OAuth sign-in finds a user with the same e-mail: link the provider to that user, refuse, or make another user. */
export type OAuthAccountMergeStrategy = "link_method" | "raise_error" | "allow_duplicates";

/** A trusted domain: an absolute URL and where the app's handler lives on it. */
export interface AdminDomainConfig {
  readonly domain: string;
  readonly handlerPath: string;
}

/** `shared` uses the service's development keys; `standard` the project's own OAuth app. */
export type AdminOAuthProviderConfig = { readonly id: string } & (
  | { readonly type: "shared" }
  | {
      readonly type: "standard";
      readonly clientId: string;
      readonly clientSecret: string;
      readonly facebookConfigId?: string;
      readonly microsoftTenantId?: string;
    }
);

/** `shared` sends through the service's mail server; `standard` through the project's SMTP server. */
export type AdminEmailConfig =
  | { readonly type: "shared" }
  | {
      readonly type: "standard";
      readonly host: string;
      readonly port: number;
      readonly username: string;
      readonly password: string;
      readonly senderName: string;
      readonly senderEmail: string;
    };

/** A default permission (granted on team creation, team join or sign-up): just its id, as the reference names it. */
/** A permission given by default: just its id (the same shape as the user's TeamPermission). */
export interface AdminTeamPermission {
  readonly id: string;
}

/** The project's whole configuration, as its admin reads and changes it: sign-in methods, OAuth providers, trusted domains, e-mail, teams and API keys. */
export interface AdminProjectConfig {
  readonly signUpEnabled: boolean;
  readonly credentialEnabled: boolean;
  readonly magicLinkEnabled: boolean;
  readonly passkeyEnabled: boolean;
  readonly clientTeamCreationEnabled: boolean;
  readonly clientUserDeletionEnabled: boolean;
  readonly allowLocalhost: boolean;
  readonly createTeamOnSignUp: boolean;
  readonly allowUserApiKeys: boolean;
  readonly allowTeamApiKeys: boolean;
  readonly oauthAccountMergeStrategy: OAuthAccountMergeStrategy;
  readonly teamCreatorDefaultPermissions: AdminTeamPermission[];
  readonly teamMemberDefaultPermissions: AdminTeamPermission[];
  readonly userDefaultPermissions: AdminTeamPermission[];
  readonly domains: AdminDomainConfig[];
  readonly oauthProviders: AdminOAuthProviderConfig[];
  /** Absent only when the service sends none. */
  readonly emailConfig?: AdminEmailConfig;
}

/**
 * The `config` of a project update. Every field optional: what is left out keeps
 * its value; a list given replaces the whole list.
 *
 * @example
 * ```ts
 * const project = await admin.getProject();
 * await project.update({
 *   config: {
 *     signUpEnabled: false,
 *     oauthProviders: [...project.config.oauthProviders, { id: "github", type: "shared" }],
 *   },
 * });
 * ```
 */
export interface AdminProjectConfigUpdateOptions {
  /** Whether new users may sign up; when false, only existing users can sign in. */
  readonly signUpEnabled?: boolean;
  /** Whether e-mail and password sign-in is offered. */
  readonly credentialEnabled?: boolean;
  /** Whether sign-in by magic link (a one-time e-mail link or code) is offered. */
  readonly magicLinkEnabled?: boolean;
  /** Whether sign-in with a passkey is offered. */
  readonly passkeyEnabled?: boolean;
  /** Whether signed-in users may create teams from the client. */
  readonly clientTeamCreationEnabled?: boolean;
  /** Whether signed-in users may delete their own account from the client. */
  readonly clientUserDeletionEnabled?: boolean;
  /** Whether any `localhost` address is trusted for redirects and callbacks (for development). */
  readonly allowLocalhost?: boolean;
  /** Whether every new user gets a personal team at sign-up. */
  readonly createTeamOnSignUp?: boolean;
  /** Whether users may create API keys of their own. */
  readonly allowUserApiKeys?: boolean;
  /** Whether teams may have API keys. */
  readonly allowTeamApiKeys?: boolean;
  /** What an OAuth sign-in does when its e-mail belongs to an existing account: link it, refuse, or make a second account. */
  readonly oauthAccountMergeStrategy?: OAuthAccountMergeStrategy;
  /** The team permissions granted to whoever creates a team; replaces the whole list. */
  readonly teamCreatorDefaultPermissions?: readonly { readonly id: string }[];
  /** The team permissions granted to every member who joins a team; replaces the whole list. */
  readonly teamMemberDefaultPermissions?: readonly { readonly id: string }[];
  /** The project permissions granted to every user at sign-up; replaces the whole list. */
  readonly userDefaultPermissions?: readonly { readonly id: string }[];
  /** The trusted domains with their handler paths; replaces the whole list. */
  readonly domains?: readonly AdminDomainConfig[];
  /** The OAuth providers offered at sign-in, shared or with the project's own OAuth app; replaces the whole list. */
  readonly oauthProviders?: readonly AdminOAuthProviderConfig[];
  /** How the project's e-mails are sent: the service's mail server (`shared`) or the project's SMTP server (`standard`). */
  readonly emailConfig?: AdminEmailConfig;
}

const FLAGS = [
  ["signUpEnabled", "sign_up_enabled"],
  ["credentialEnabled", "credential_enabled"],
  ["magicLinkEnabled", "magic_link_enabled"],
  ["passkeyEnabled", "passkey_enabled"],
  ["clientTeamCreationEnabled", "client_team_creation_enabled"],
  ["clientUserDeletionEnabled", "client_user_deletion_enabled"],
  ["allowLocalhost", "allow_localhost"],
  ["createTeamOnSignUp", "create_team_on_sign_up"],
  ["allowUserApiKeys", "allow_user_api_keys"],
  ["allowTeamApiKeys", "allow_team_api_keys"],
] as const satisfies readonly (readonly [keyof AdminProjectConfig, keyof Schemas["ProjectConfig"]])[];

const PERMISSION_LISTS = [
  ["teamCreatorDefaultPermissions", "team_creator_default_permissions"],
  ["teamMemberDefaultPermissions", "team_member_default_permissions"],
  ["userDefaultPermissions", "user_default_permissions"],
] as const;

type Flag = (typeof FLAGS)[number][0];

/** The config of `GET /internal/projects/current`, in the reference's names. */
export function adminProjectConfigFromWire(wire: Schemas["ProjectConfig"] | undefined, call: string): AdminProjectConfig {
  if (typeof wire !== "object" || wire === null) throw new StackAssertionError(`${call} answered a project without its config`);
  const missing = (field: string): never => {
    throw new StackAssertionError(`${call} answered a project config without ${field}`);
  };
  const flags = Object.fromEntries(
    FLAGS.map(([name, field]) => [name, typeof wire[field] === "boolean" ? wire[field] : missing(field)]),
  ) as Record<Flag, boolean>;
  const permissions = (list: Schemas["PermissionReference"][] | undefined) => (list ?? []).map((p) => ({ id: p.id }));
  const emailConfig = wire.email_config === undefined ? undefined : emailConfigFromWire(wire.email_config, call);
  return {
    ...flags,
    oauthAccountMergeStrategy: wire.oauth_account_merge_strategy ?? missing("oauth_account_merge_strategy"),
    teamCreatorDefaultPermissions: permissions(wire.team_creator_default_permissions),
    teamMemberDefaultPermissions: permissions(wire.team_member_default_permissions),
    userDefaultPermissions: permissions(wire.user_default_permissions),
    domains: (wire.domains ?? []).map((d) => ({ domain: d.domain, handlerPath: d.handler_path })),
    oauthProviders: (wire.oauth_providers ?? []).map((p) => oauthProviderFromWire(p, call)),
    ...(emailConfig === undefined ? {} : { emailConfig }),
  };
}

function oauthProviderFromWire(p: Schemas["OAuthProviderConfig"], call: string): AdminOAuthProviderConfig {
  if (p.type === "shared") return { id: p.id, type: "shared" };
  if (p.type !== "standard")
    throw new StackAssertionError(`${call} answered OAuth provider ${p.id} of unknown type ${JSON.stringify(p.type)}`);
  // A standard provider is the project's own OAuth app: without its credentials it could not work.
  if (typeof p.client_id !== "string" || typeof p.client_secret !== "string") {
    throw new StackAssertionError(`${call} answered the standard OAuth provider ${p.id} without its client_id and client_secret`);
  }
  // Both provider-specific fields are members of every standard provider, undefined where they do not apply,
  // as on the reference's, whose declaration also calls them optional (hence the assertion).
  return {
    id: p.id,
    type: "standard",
    clientId: p.client_id,
    clientSecret: p.client_secret,
    facebookConfigId: p.facebook_config_id ?? undefined,
    microsoftTenantId: p.microsoft_tenant_id ?? undefined,
  } as AdminOAuthProviderConfig;
}

function emailConfigFromWire(e: Schemas["EmailConfig"], call: string): AdminEmailConfig {
  if (e.type === "shared") return { type: "shared" };
  const { host, port, username, password, sender_name, sender_email } = e;
  if (
    e.type !== "standard" ||
    typeof host !== "string" ||
    typeof port !== "number" ||
    typeof username !== "string" ||
    typeof password !== "string" ||
    typeof sender_name !== "string" ||
    typeof sender_email !== "string"
  ) {
    throw new StackAssertionError(`${call} answered an email config that is neither shared nor a complete standard (SMTP) config`);
  }
  return { type: "standard", host, port, username, password, senderName: sender_name, senderEmail: sender_email };
}

/** The wire's `config` of `PATCH /internal/projects/current`: only the fields given. */
export function adminProjectConfigToWire(options: AdminProjectConfigUpdateOptions): Schemas["ProjectConfigUpdate"] {
  if (typeof options !== "object" || options === null) {
    throw new StackConfigurationError(
      "project.update: config must be an object of the fields to change, for example { signUpEnabled: false }.",
    );
  }
  const wire: Record<string, unknown> = {};
  for (const [name, field] of FLAGS) if (options[name] !== undefined) wire[field] = options[name];
  for (const [name, field] of PERMISSION_LISTS) {
    const list = options[name];
    if (list !== undefined) wire[field] = listOf(list, `config.${name}`).map((p) => ({ id: p.id }));
  }
  if (options.oauthAccountMergeStrategy !== undefined) wire.oauth_account_merge_strategy = options.oauthAccountMergeStrategy;
  if (options.domains !== undefined) {
    wire.domains = listOf(options.domains, "config.domains").map((d) => ({ domain: d.domain, handler_path: d.handlerPath }));
  }
  if (options.oauthProviders !== undefined)
    wire.oauth_providers = listOf(options.oauthProviders, "config.oauthProviders").map(oauthProviderToWire);
  if (options.emailConfig !== undefined) wire.email_config = emailConfigToWire(options.emailConfig);
  return wire as Schemas["ProjectConfigUpdate"];
}

function listOf<T>(value: readonly T[], name: string): readonly T[] {
  if (!Array.isArray(value)) throw new StackConfigurationError(`project.update: ${name} must be a list; it replaces the whole list.`);
  return value;
}

function oauthProviderToWire(p: AdminOAuthProviderConfig): Schemas["OAuthProviderConfig"] {
  if (p?.type === "shared") return { id: p.id, type: "shared" };
  if (p?.type !== "standard") {
    throw new StackConfigurationError(
      `project.update: each OAuth provider needs type "shared" or "standard" (with clientId and clientSecret).`,
    );
  }
  return {
    id: p.id,
    type: "standard",
    client_id: p.clientId,
    client_secret: p.clientSecret,
    ...(p.facebookConfigId === undefined ? {} : { facebook_config_id: p.facebookConfigId }),
    ...(p.microsoftTenantId === undefined ? {} : { microsoft_tenant_id: p.microsoftTenantId }),
  };
}

/** An email config in the wire's names (also the SMTP part of a test email). */
export function emailConfigToWire(e: AdminEmailConfig): Schemas["EmailConfig"] {
  if (e?.type === "shared") return { type: "shared" };
  if (e?.type !== "standard") {
    throw new StackConfigurationError(
      `The email config needs type "shared", or "standard" with host, port, username, password, senderName and senderEmail.`,
    );
  }
  return {
    type: "standard",
    host: e.host,
    port: e.port,
    username: e.username,
    password: e.password,
    sender_name: e.senderName,
    sender_email: e.senderEmail,
  };
}
