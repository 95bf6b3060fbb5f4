// A project's configuration as the admin routes take and show it, as the
// service's projects CRUD schemas and its legacy-config translation do it (both
// versions; apps/backend/src/lib/config.tsx and lib/projects.tsx):
// - the service keeps OAuth providers and default permissions as records keyed
//   by id (one given twice counts once, the last) and trusted domains under
//   fresh ids, and lists them sorted on reading: providers and permissions by
//   id, domains by domain, comparing without case first;
// - its schema wants a standard e-mail server's every field and a standard
//   OAuth provider's client id and secret, none of the texts empty, and knows no
//   other field there; a provider's id is one of the version's providers;
// - 2.8.86 adds an e-mail theme (one of the project's themes: the emulator's
//   projects have the three default ones; an unknown stored id reads as the
//   default), each provider's `provider_config_id` (its key: the id) and Apple
//   bundle ids, and the e-mail-verification requirement on update.
import type { components } from "../../generated/schema.js";
import type { EmulatorRequest } from "../engine/context.js";
import { schemaError, statusFailure } from "../engine/errors.js";
import type { ServiceProfile } from "../engine/profile.js";
import type { ProjectConfigRecord } from "../engine/store.js";
import { EMAIL } from "./admin-email.js";

type Schemas = components["schemas"];
type ConfigUpdate = Schemas["ProjectConfigUpdate"];

/** The default e-mail themes of 2.8.86, by id (light, dark, colorful); a new project has the light one. */
export const DEFAULT_EMAIL_THEME_ID = "1df07ae6-abf3-4a40-83a5-a1a2cbe336ac";
const EMAIL_THEME_IDS = [DEFAULT_EMAIL_THEME_ID, "a0172b5d-cff0-463b-83bb-85124697373a", "c7e2d94f-8a1b-4e6d-b3f5-9d0a2e7c1b8f"];

/** The service's order of names: without case first, then the lower-case one of two that differ only in case. */
export function stringCompare(a: string, b: string): number {
  const cmp = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);
  return cmp(a.toUpperCase(), b.toUpperCase()) || cmp(b, a);
}

/** A list keyed by id as the service keeps it: one entry per id (the last given wins), sorted by id. */
function byId<T extends { readonly id: string }>(list: readonly T[]): T[] {
  return [...new Map(list.map((item) => [item.id, item])).values()].sort((a, b) => stringCompare(a.id, b.id));
}

/** The configuration as the admin view shows it, in the version's fields. */
export function adminConfigView(profile: ServiceProfile, config: ProjectConfigRecord): Schemas["ProjectConfig"] {
  const { email_theme, ...common } = structuredClone(config);
  if (!profile.projectThemesAndLogos) {
    return { ...common, oauth_providers: common.oauth_providers.map(({ provider_config_id, apple_bundle_ids, ...rest }) => rest) };
  }
  return {
    ...common,
    oauth_providers: common.oauth_providers.map((provider) => ({ provider_config_id: provider.id, ...provider })),
    email_theme: email_theme !== undefined && EMAIL_THEME_IDS.includes(email_theme) ? email_theme : DEFAULT_EMAIL_THEME_ID,
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

/** A field the schema requires, and requires non-empty when it is a text, of a `standard` server or provider. */
function requiredProblem(path: string, value: unknown): string[] {
  if (value === undefined) return [`${path} must be defined`];
  return value === "" ? [`${path} must not be empty`] : [];
}

const EMAIL_FIELDS = ["host", "port", "username", "password", "sender_name", "sender_email"] as const;

function emailConfigProblems(email: ConfigUpdate["email_config"]): string[] {
  if (email?.type !== "standard") return [];
  const path = "body.config.email_config";
  return EMAIL_FIELDS.flatMap((field) => {
    const value = email[field];
    const problems = requiredProblem(`${path}.${field}`, value);
    if (field === "sender_email" && typeof value === "string" && value !== "" && !EMAIL.test(value))
      problems.push(`${path}.sender_email must be a valid email`);
    return problems;
  });
}

/**
 * The schema's problems with the OAuth providers. Yup runs a provider's field tests in the reverse of their order (the
 * client id and secret depend on the type), and its sort by field name cannot put them back: "id" is in every path
 * under `oauth_providers`. So the secret comes before the id of the client, and the provider's id last.
 */
function oauthProviderProblems(profile: ServiceProfile, providers: ConfigUpdate["oauth_providers"]): string[] {
  return (providers ?? []).flatMap((provider, index) => {
    const path = `body.config.oauth_providers[${index}]`;
    const problems =
      provider.type === "standard"
        ? [...requiredProblem(`${path}.client_secret`, provider.client_secret), ...requiredProblem(`${path}.client_id`, provider.client_id)]
        : [];
    if (!profile.oauthProviders.includes(provider.id))
      problems.push(`${path}.id must be one of the following values: ${profile.oauthProviders.join(", ")}`);
    return problems;
  });
}

/**
 * `config` with the fields of `update` set: a field left out keeps its value, a list given replaces the whole list.
 * Every OAuth provider given is enabled, with the service's shared keys wherever it says `shared`: neither version
 * checks which providers those keys cover. The schema's problems are one SCHEMA_ERROR, in its order of the fields
 * (e-mail server, domains, OAuth providers).
 */
export function mergedConfig(
  request: EmulatorRequest,
  profile: ServiceProfile,
  config: ProjectConfigRecord,
  update: ConfigUpdate | undefined,
): ProjectConfigRecord {
  if (update === undefined) return config;
  const problems = [
    ...emailConfigProblems(update.email_config),
    ...(update.domains ?? []).flatMap(({ domain }, index) => domainProblems(`body.config.domains[${index}].domain`, domain)),
    ...oauthProviderProblems(profile, update.oauth_providers),
  ];
  if (problems.length > 0) throw schemaError(request, ...problems);
  const { require_email_verification: _setOnTheProject, ...fields } = structuredClone(update);
  const next: ProjectConfigRecord = { ...config, ...fields };
  if (update.oauth_providers !== undefined) {
    next.oauth_providers = byId(
      update.oauth_providers.map((provider) => {
        const { id, type, client_id, client_secret, facebook_config_id, microsoft_tenant_id, apple_bundle_ids } = provider;
        return {
          id,
          type,
          ...(client_id === undefined ? {} : { client_id }),
          ...(client_secret === undefined ? {} : { client_secret }),
          ...(facebook_config_id === undefined ? {} : { facebook_config_id }),
          ...(microsoft_tenant_id === undefined ? {} : { microsoft_tenant_id }),
          ...(apple_bundle_ids === undefined ? {} : { apple_bundle_ids: [...apple_bundle_ids] }),
        };
      }),
    );
    next.enabled_oauth_providers = next.oauth_providers.map(({ id }) => ({ id }));
  }
  if (update.domains !== undefined) next.domains = [...next.domains].sort((a, b) => stringCompare(a.domain, b.domain));
  for (const list of ["team_creator_default_permissions", "team_member_default_permissions", "user_default_permissions"] as const) {
    if (update[list] !== undefined) next[list] = byId(next[list]);
  }
  return next;
}

/** 2.8.86's check of an update's theme, after the schema's: a theme the project does not have is a plain-text 400. */
export function checkEmailTheme(update: ConfigUpdate | undefined): void {
  // The service checks only a non-empty id; an empty one is stored and reads as the default theme.
  if (update?.email_theme && !EMAIL_THEME_IDS.includes(update.email_theme)) throw statusFailure(400, "Invalid email theme");
}
