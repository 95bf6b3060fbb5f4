// StackAdminApp: what project admins do (SPEC §1, §6, §7 Admin) with the
// reference SDK's public API. It is a server app whose requests carry access
// type "admin" and either the project's super secret admin key or, for a
// project owner, the owner's access token from the internal project (then no
// key headers at all). Every feature lives in its module under ./admin/,
// loaded with the app's first admin call (admin/app-methods.ts).
import { StackConfigurationError } from "../errors.js";
import { lazy } from "../lazy.js";
import type { OwnerSession } from "../pipeline.js";
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
import type { CallOptions } from "./call-options.js";
import { withRuntimeSettings, type RuntimeClientSettings } from "./runtime-settings.js";
import type { Result } from "./result.js";
import { StackServerApp, type StackServerAppOptions } from "./server-app.js";
import { provideServerContextOf } from "./admin/server-context.js";

const loadAdmin = lazy("admin app", () => import("./admin/app-methods.js"));

/** Omit over each member of a union (the plain Omit would merge the members). */
type OmitEach<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

export type StackAdminAppOptions =
  | (StackServerAppOptions & {
      /** The project's super secret admin key, sent as `x-stack-super-secret-admin-key`. */
      readonly superSecretAdminKey?: string;
      readonly projectOwnerSession?: undefined;
    })
  | (OmitEach<StackServerAppOptions, "publishableClientKey" | "secretServerKey"> & {
      /** A project owner's session in the internal project; its access token replaces every key. */
      readonly projectOwnerSession: OwnerSession;
    });

/** An admin app's server context; set by the class below, which alone reaches it, for owned projects. */
export class StackAdminApp extends StackServerApp {
  static {
    // Owned projects (admin/owned-project.ts) build their admin view on the app's server context, which stays protected.
    provideServerContextOf((app) => (app as StackAdminApp).serverCtx);
  }

  constructor(options: StackAdminAppOptions) {
    const { serverOptions, settings } = adminSettingsOf(options);
    super(withRuntimeSettings(serverOptions, settings));
  }

  // THE PROJECT

  /** The project with its full configuration, read afresh on every call (`GET /internal/projects/current`). */
  override getProject(options?: CallOptions): Promise<AdminProject> {
    // Admin calls carry no user tokens: the server context's client has none.
    return loadAdmin().then((m) => m.getAdminProject(this.serverCtx, options));
  }

  // PROJECT KEYS

  listInternalApiKeys(options?: CallOptions): Promise<InternalApiKey[]> {
    return loadAdmin().then((m) => m.listInternalApiKeys(this.serverCtx, options));
  }
  createInternalApiKey(options: InternalApiKeyCreateOptions & CallOptions): Promise<InternalApiKeyFirstView> {
    return loadAdmin().then((m) => m.createInternalApiKey(this.serverCtx, options));
  }

  // E-MAIL

  listEmailTemplates(options?: CallOptions): Promise<AdminEmailTemplate[]> {
    return loadAdmin().then((m) => m.listEmailTemplates(this.serverCtx, options));
  }
  updateEmailTemplate(type: EmailTemplateType, data: AdminEmailTemplateUpdateOptions & CallOptions): Promise<void> {
    return loadAdmin().then((m) => m.updateEmailTemplate(this.serverCtx, type, data));
  }
  resetEmailTemplate(type: EmailTemplateType, options?: CallOptions): Promise<void> {
    return loadAdmin().then((m) => m.resetEmailTemplate(this.serverCtx, type, options));
  }
  /** Sends a test message through `emailConfig`; a delivery failure is an error Result with the reason. */
  sendTestEmail(
    options: { readonly recipientEmail: string; readonly emailConfig: EmailConfig } & CallOptions,
  ): Promise<Result<undefined, { readonly errorMessage: string }>> {
    return loadAdmin().then((m) => m.sendTestEmail(this.serverCtx, options));
  }
  listSentEmails(options?: CallOptions): Promise<AdminSentEmail[]> {
    return loadAdmin().then((m) => m.listSentEmails(this.serverCtx, options));
  }

  // PERMISSION DEFINITIONS

  listTeamPermissionDefinitions(options?: CallOptions): Promise<AdminPermissionDefinition[]> {
    return this.permissionDefinitions("team").then((d) => d.list(options));
  }
  createTeamPermissionDefinition(data: AdminPermissionDefinitionCreateOptions & CallOptions): Promise<AdminPermissionDefinition> {
    return this.permissionDefinitions("team").then((d) => d.create(data));
  }
  updateTeamPermissionDefinition(permissionId: string, data: AdminPermissionDefinitionUpdateOptions & CallOptions): Promise<void> {
    return this.permissionDefinitions("team").then((d) => d.update(permissionId, data));
  }
  deleteTeamPermissionDefinition(permissionId: string, options?: CallOptions): Promise<void> {
    return this.permissionDefinitions("team").then((d) => d.delete(permissionId, options));
  }
  listProjectPermissionDefinitions(options?: CallOptions): Promise<AdminPermissionDefinition[]> {
    return this.permissionDefinitions("project").then((d) => d.list(options));
  }
  createProjectPermissionDefinition(data: AdminPermissionDefinitionCreateOptions & CallOptions): Promise<AdminPermissionDefinition> {
    return this.permissionDefinitions("project").then((d) => d.create(data));
  }
  updateProjectPermissionDefinition(permissionId: string, data: AdminPermissionDefinitionUpdateOptions & CallOptions): Promise<void> {
    return this.permissionDefinitions("project").then((d) => d.update(permissionId, data));
  }
  deleteProjectPermissionDefinition(permissionId: string, options?: CallOptions): Promise<void> {
    return this.permissionDefinitions("project").then((d) => d.delete(permissionId, options));
  }

  // WEBHOOKS AND METRICS

  /** A short-lived token that opens the project's webhook settings at Svix. */
  getSvixToken(options?: CallOptions): Promise<string> {
    return loadAdmin().then((m) => m.getSvixToken(this.serverCtx, options));
  }
  /** The dashboard's usage figures, as the service sends them. */
  getMetrics(options?: CallOptions): Promise<AdminMetrics> {
    return loadAdmin().then((m) => m.getMetrics(this.serverCtx, options));
  }

  // INTERNALS

  private permissionDefinitions(scope: PermissionScope) {
    return loadAdmin().then((m) => m.permissionDefinitions(this.serverCtx, scope));
  }
}

/**
 * The server-app options and the runtime settings of an admin app: access type
 * admin with the keys, or with the owner session and no keys at all (a key
 * beside the session would be sent too, so mixing them is refused).
 */
function adminSettingsOf(options: StackAdminAppOptions): { serverOptions: StackServerAppOptions; settings: RuntimeClientSettings } {
  if (typeof options !== "object" || options === null) {
    throw new StackConfigurationError(
      "StackAdminApp needs options: { projectId, tokenStore, superSecretAdminKey, ... } or { projectId, tokenStore, projectOwnerSession }.",
    );
  }
  const { superSecretAdminKey, projectOwnerSession, ...given } = options as StackServerAppOptions & {
    readonly superSecretAdminKey?: string;
    readonly projectOwnerSession?: OwnerSession;
  };
  // The admin project is read afresh on every getProject(), so a prefetch would be a wasted request
  // (and the client app would send it before this app's server context exists).
  const rest: StackServerAppOptions = { ...given, noAutomaticPrefetch: true };
  if (projectOwnerSession !== undefined) {
    if (typeof projectOwnerSession?.getTokens !== "function" || typeof projectOwnerSession.markAccessTokenExpired !== "function") {
      throw new StackConfigurationError(
        "projectOwnerSession must be a session of the internal project (an object with getTokens() and markAccessTokenExpired()).",
      );
    }
    if (superSecretAdminKey !== undefined || rest.secretServerKey !== undefined || rest.publishableClientKey !== undefined) {
      throw new StackConfigurationError(
        "StackAdminApp takes either projectOwnerSession or the project's keys, not both: leave out publishableClientKey, secretServerKey and superSecretAdminKey when you pass projectOwnerSession.",
      );
    }
    return { serverOptions: rest, settings: { accessType: "admin", projectOwnerSession } };
  }
  if (typeof superSecretAdminKey !== "string" || superSecretAdminKey === "") {
    throw new StackConfigurationError(
      "StackAdminApp needs superSecretAdminKey: the super secret admin key of your project (Stack Auth dashboard → Project Keys), or projectOwnerSession for a project owner. Keep it on the server.",
    );
  }
  return {
    serverOptions: rest,
    settings: {
      accessType: "admin",
      superSecretAdminKey,
      ...(rest.secretServerKey !== undefined && { secretServerKey: rest.secretServerKey }),
    },
  };
}
