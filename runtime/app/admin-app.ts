// StackAdminApp: what project admins do (SPEC §1, §6, §7 Admin) with the
// reference SDK's public API. It is a server app whose requests carry access
// type "admin" and either the project's super secret admin key or, for a
// project owner, the owner's access token from the internal project (then no
// key headers at all), checked as admin/credentials.ts says. Every feature
// lives in its module under ./admin/, loaded with the app's first admin call
// (admin/app-methods.ts).
import type { CallOptions } from "./call-options.js";
import { lazy } from "../platform/lazy.js";
import type { OwnerAccessTokenGetter, OwnerSession } from "../http/pipeline.js";
import type { AdminMetrics } from "./admin/dashboard-data.js";
import type { AdminEmailTemplate, AdminEmailTemplateUpdateOptions, AdminSentEmail, EmailConfig, EmailTemplateType } from "./admin/email.js";
import type { InternalApiKey, InternalApiKeyCreateOptions, InternalApiKeyFirstView } from "./admin/internal-api-keys.js";
import type {
  AdminPermissionDefinition,
  AdminPermissionDefinitionCreateOptions,
  AdminPermissionDefinitionUpdateOptions,
  PermissionScope,
} from "./admin/permission-definitions.js";
import type { AdminProject } from "./admin/project.js";
import { adminRuntimeSettings, checkedAdminOptions, type AdminCredentials } from "./admin/credentials.js";
import { runtimeSettingsOf, type RuntimeClientSettings } from "./app-internals.js";
import type { Result } from "./result.js";
import { StackServerApp, type StackServerAppOptions } from "./server-app.js";

const loadAdmin = /* @__PURE__ */ lazy("admin app", () => import("./admin/app-methods.js"));

/** Omit over each member of a union (the plain Omit would merge the members). */
type OmitEach<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/**
 * What {@link StackAdminApp} takes: the server app's options with the project's
 * super secret admin key, or, for a project owner, the owner's session in the
 * internal project instead of any key.
 *
 * @example
 * ```ts
 * const admin = new StackAdminApp({
 *   projectId: process.env.STACK_PROJECT_ID!,
 *   secretServerKey: process.env.STACK_SECRET_SERVER_KEY!,
 *   superSecretAdminKey: process.env.STACK_SUPER_SECRET_ADMIN_KEY!,
 *   tokenStore: null,
 * });
 * ```
 */
export type StackAdminAppOptions =
  | (StackServerAppOptions & {
      /** The project's super secret admin key, sent as `x-stack-super-secret-admin-key`. */
      readonly superSecretAdminKey?: string;
      /** Not given with the keys: `projectOwnerSession` replaces them all. */
      readonly projectOwnerSession?: undefined;
    })
  | (OmitEach<StackServerAppOptions, "publishableClientKey" | "secretServerKey"> & {
      /**
       * A project owner's session in the internal project (`user._internalSession` of a user of
       * the internal project), whose access token replaces every key, refreshed as it is due; or,
       * as the official SDK also takes, a function answering the owner's access token (null when
       * there is none), asked before each request, which keeps the token fresh itself.
       */
      readonly projectOwnerSession: OwnerSession | OwnerAccessTokenGetter;
    });

export class StackAdminApp extends StackServerApp {
  constructor(options: StackAdminAppOptions) {
    super(checkedAdminOptions(options));
  }

  /**
   * The runtime client's settings for this class, from options the constructor
   * has checked: access type "admin" with the owner's session, or with the keys.
   * @internal
   */
  protected static override [runtimeSettingsOf](options: StackServerAppOptions & AdminCredentials): RuntimeClientSettings {
    return adminRuntimeSettings(options);
  }

  // THE PROJECT

  /**
   * The project with its full configuration, read afresh on every call
   * (`GET /internal/projects/current`); the object it answers also updates and
   * deletes the project.
   *
   * @example
   * ```ts
   * const project = await admin.getProject();
   * console.log(project.displayName, project.config.signUpEnabled);
   * await project.update({ config: { signUpEnabled: false } });
   * ```
   */
  override getProject(options?: CallOptions): Promise<AdminProject> {
    // Admin calls carry no user tokens: the server context's client has none.
    return loadAdmin().then((m) => m.getAdminProject(this.serverCtx, options));
  }

  // PROJECT KEYS

  /**
   * Every key set of the project (`GET /internal/api-keys`), with only the last
   * four characters of each key; `whyInvalid()` tells the expired and revoked ones.
   *
   * @example
   * ```ts
   * const keySets = await admin.listInternalApiKeys();
   * for (const keySet of keySets) {
   *   console.log(keySet.description, keySet.secretServerKey?.lastFour ?? "-", keySet.whyInvalid() ?? "valid");
   * }
   * ```
   */
  listInternalApiKeys(options?: CallOptions): Promise<InternalApiKey[]> {
    return loadAdmin().then((m) => m.listInternalApiKeys(this.serverCtx, options));
  }
  /**
   * Creates a key set (`POST /internal/api-keys`) and answers it with the keys
   * asked for in full, shown this once. Throws a StackConfigurationError when
   * `expiresAt` is not a valid Date.
   *
   * @example
   * ```ts
   * const keySet = await admin.createInternalApiKey({
   *   description: "Billing service",
   *   expiresAt: new Date(Date.now() + 365 * 24 * 3600 * 1000),
   *   hasPublishableClientKey: false,
   *   hasSecretServerKey: true,
   *   hasSuperSecretAdminKey: false,
   * });
   * await saveSecret("STACK_SECRET_SERVER_KEY", keySet.secretServerKey!);
   * ```
   */
  createInternalApiKey(options: InternalApiKeyCreateOptions & CallOptions): Promise<InternalApiKeyFirstView> {
    return loadAdmin().then((m) => m.createInternalApiKey(this.serverCtx, options));
  }

  // E-MAIL

  /**
   * The project's e-mail templates (`GET /email-templates`): one per type, the
   * service's default where the project has none of its own (`isDefault`).
   * Services since 2.8.86 removed these templates for TSX source under
   * `/internal/email-templates`, which has no subject or template document to
   * read: there the call rejects with a `ServiceVersionError` naming that route
   * and the template id each type of e-mail is sent with.
   *
   * @example
   * ```ts
   * const templates = await admin.listEmailTemplates();
   * for (const template of templates) {
   *   console.log(template.type, template.subject, template.isDefault ? "(default)" : "(custom)");
   * }
   * ```
   */
  listEmailTemplates(options?: CallOptions): Promise<AdminEmailTemplate[]> {
    return loadAdmin().then((m) => m.listEmailTemplates(this.serverCtx, options));
  }
  /**
   * Changes the template of one type (`PATCH /email-templates/{type}`); only the
   * fields given are sent. Resolves with nothing. Services since 2.8.86 take TSX
   * source instead, which a subject and a template document do not convert to:
   * there the call changes nothing and rejects with a `ServiceVersionError` naming
   * `PATCH /internal/email-templates/{template_id}` and the type's template id.
   *
   * @example
   * ```ts
   * await admin.updateEmailTemplate("email_verification", {
   *   subject: "Confirm your e-mail for Acme",
   * });
   * ```
   */
  updateEmailTemplate(type: EmailTemplateType, data: AdminEmailTemplateUpdateOptions & CallOptions): Promise<void> {
    return loadAdmin().then((m) => m.updateEmailTemplate(this.serverCtx, type, data));
  }
  /**
   * Drops the project's own template of one type, so that the service's default
   * is used again (`DELETE /email-templates/{type}`). Resolves with nothing.
   * Services since 2.8.86, which answer that route as one they do not have, send
   * each type of e-mail with the template of a fixed id; the call then deletes
   * the project's version of it (`DELETE /internal/email-templates/{id}`), which
   * brings back the service's default. On their shared e-mail server, which always
   * sends the defaults, they refuse: `REQUIRES_CUSTOM_EMAIL_SERVER`.
   *
   * @example
   * ```ts
   * await admin.resetEmailTemplate("password_reset");
   * const templates = await admin.listEmailTemplates();
   * console.log(templates.find((t) => t.type === "password_reset")?.isDefault); // true
   * ```
   */
  resetEmailTemplate(type: EmailTemplateType, options?: CallOptions): Promise<void> {
    return loadAdmin().then((m) => m.resetEmailTemplate(this.serverCtx, type, options));
  }
  /**
   * Sends a test message through `emailConfig` (`POST /internal/send-test-email`);
   * a delivery failure is an error Result with the SMTP server's reason in `errorMessage`.
   *
   * @example
   * ```ts
   * const result = await admin.sendTestEmail({
   *   recipientEmail: "me@example.com",
   *   emailConfig: { host: "smtp.example.com", port: 587, username, password, senderEmail: "no-reply@example.com", senderName: "Acme" },
   * });
   * if (result.status === "error") console.error("Delivery failed:", result.error.errorMessage);
   * ```
   */
  sendTestEmail(
    options: { readonly recipientEmail: string; readonly emailConfig: EmailConfig } & CallOptions,
  ): Promise<Result<undefined, { readonly errorMessage: string }>> {
    return loadAdmin().then((m) => m.sendTestEmail(this.serverCtx, options));
  }
  /**
   * The e-mails the project sent (`GET /internal/emails`), each with its
   * recipients, subject, time and, for a failed one, the error. Read from both
   * versions: 2.8.86 may write a recipient as `"User ID: <uuid>"` and an error as
   * a sentence (see {@link AdminSentEmail}).
   *
   * @example
   * ```ts
   * const sent = await admin.listSentEmails();
   * const failed = sent.filter((email) => email.error !== null);
   * console.log(`${failed.length} of ${sent.length} e-mails failed`);
   * ```
   */
  listSentEmails(options?: CallOptions): Promise<AdminSentEmail[]> {
    return loadAdmin().then((m) => m.listSentEmails(this.serverCtx, options));
  }

  // PERMISSION DEFINITIONS

  /**
   * The team permissions the project defines (`GET /team-permission-definitions`).
   *
   * @example
   * ```ts
   * const definitions = await admin.listTeamPermissionDefinitions();
   * for (const definition of definitions) {
   *   console.log(definition.id, definition.description ?? "", definition.containedPermissionIds.join(", "));
   * }
   * ```
   */
  listTeamPermissionDefinitions(options?: CallOptions): Promise<AdminPermissionDefinition[]> {
    return this.permissionDefinitions("team").then((d) => d.list(options));
  }
  /**
   * Defines a team permission (`POST /team-permission-definitions`) and answers
   * it. An id already in use throws `KnownErrors.PermissionIdAlreadyExists`.
   *
   * @example
   * ```ts
   * const permission = await admin.createTeamPermissionDefinition({
   *   id: "billing_admin",
   *   description: "Manages the team's invoices",
   *   containedPermissionIds: ["$read_members"],
   * });
   * ```
   */
  createTeamPermissionDefinition(data: AdminPermissionDefinitionCreateOptions & CallOptions): Promise<AdminPermissionDefinition> {
    return this.permissionDefinitions("team").then((d) => d.create(data));
  }
  /**
   * Changes a team permission (`PATCH /team-permission-definitions/{permission_id}`):
   * a new `id` renames it, `containedPermissionIds` replaces the whole list.
   * Resolves with nothing.
   *
   * @example
   * ```ts
   * await admin.updateTeamPermissionDefinition("billing_admin", {
   *   description: "Manages invoices and payment methods",
   * });
   * ```
   */
  updateTeamPermissionDefinition(permissionId: string, data: AdminPermissionDefinitionUpdateOptions & CallOptions): Promise<void> {
    return this.permissionDefinitions("team").then((d) => d.update(permissionId, data));
  }
  /**
   * Deletes a team permission (`DELETE /team-permission-definitions/{permission_id}`).
   * Resolves with nothing.
   *
   * @example
   * ```ts
   * const definitions = await admin.listTeamPermissionDefinitions();
   * if (definitions.some((definition) => definition.id === "billing_admin")) {
   *   await admin.deleteTeamPermissionDefinition("billing_admin");
   * }
   * ```
   */
  deleteTeamPermissionDefinition(permissionId: string, options?: CallOptions): Promise<void> {
    return this.permissionDefinitions("team").then((d) => d.delete(permissionId, options));
  }
  /**
   * The project-wide permissions the project defines (`GET /project-permission-definitions`).
   *
   * @example
   * ```ts
   * const definitions = await admin.listProjectPermissionDefinitions();
   * const ids = definitions.map((definition) => definition.id);
   * console.log(ids.includes("beta_tester") ? "beta is defined" : "no beta permission yet");
   * ```
   */
  listProjectPermissionDefinitions(options?: CallOptions): Promise<AdminPermissionDefinition[]> {
    return this.permissionDefinitions("project").then((d) => d.list(options));
  }
  /**
   * Defines a project-wide permission (`POST /project-permission-definitions`)
   * and answers it. An id already in use throws `KnownErrors.PermissionIdAlreadyExists`.
   *
   * @example
   * ```ts
   * const permission = await admin.createProjectPermissionDefinition({
   *   id: "beta_tester",
   *   description: "Sees beta features",
   * });
   * console.log(permission.id, permission.containedPermissionIds);
   * ```
   */
  createProjectPermissionDefinition(data: AdminPermissionDefinitionCreateOptions & CallOptions): Promise<AdminPermissionDefinition> {
    return this.permissionDefinitions("project").then((d) => d.create(data));
  }
  /**
   * Changes a project-wide permission (`PATCH /project-permission-definitions/{permission_id}`):
   * a new `id` renames it, `containedPermissionIds` replaces the whole list.
   * Resolves with nothing.
   *
   * @example
   * ```ts
   * // A new id renames the permission.
   * await admin.updateProjectPermissionDefinition("beta_tester", {
   *   id: "early_access",
   *   description: "Sees features before launch",
   * });
   * ```
   */
  updateProjectPermissionDefinition(permissionId: string, data: AdminPermissionDefinitionUpdateOptions & CallOptions): Promise<void> {
    return this.permissionDefinitions("project").then((d) => d.update(permissionId, data));
  }
  /**
   * Deletes a project-wide permission (`DELETE /project-permission-definitions/{permission_id}`).
   * Resolves with nothing.
   *
   * @example
   * ```ts
   * try {
   *   await admin.deleteProjectPermissionDefinition("early_access");
   * } catch (error) {
   *   console.error("Could not delete the permission", error);
   * }
   * ```
   */
  deleteProjectPermissionDefinition(permissionId: string, options?: CallOptions): Promise<void> {
    return this.permissionDefinitions("project").then((d) => d.delete(permissionId, options));
  }

  // WEBHOOKS AND METRICS

  /**
   * A short-lived token that opens the project's webhook settings at Svix
   * (`POST /webhooks/svix-token`).
   *
   * @example
   * ```ts
   * const token = await admin.getSvixToken();
   * // The dashboard page opens Svix's webhook portal with it.
   * res.json({ svixToken: token });
   * ```
   */
  getSvixToken(options?: CallOptions): Promise<string> {
    return loadAdmin().then((m) => m.getSvixToken(this.serverCtx, options));
  }
  /**
   * The dashboard's usage figures, as the service sends them (`GET /internal/metrics`):
   * an object keyed `total_users`, `daily_users` and so on, whose shape is not a contract.
   *
   * @example
   * ```ts
   * const metrics = await admin.getMetrics();
   * const totalUsers = typeof metrics["total_users"] === "number" ? metrics["total_users"] : 0;
   * console.log(`${totalUsers} users`);
   * ```
   */
  getMetrics(options?: CallOptions): Promise<AdminMetrics> {
    return loadAdmin().then((m) => m.getMetrics(this.serverCtx, options));
  }

  // INTERNALS

  private permissionDefinitions(scope: PermissionScope) {
    return loadAdmin().then((m) => m.permissionDefinitions(this.serverCtx, scope));
  }
}
