// The project as its admins see it (SPEC §3 "Project (admin view)" with its
// full config) over /internal/projects/current: read, update, delete, and the
// production-mode check.
import type { components } from "../../../generated/schema.js";
import { checkAborted, signalOf, type CallOptions } from "../call-options.js";
import { StackAssertionError, StackConfigurationError } from "../../errors.js";
import type { ClientAppContext } from "../context.js";
import { assertAnswered } from "../wire.js";
import { getProductionModeErrors, type ProductionModeError } from "./production-mode.js";
import {
  adminProjectConfigFromWire,
  adminProjectConfigToWire,
  type AdminProjectConfig,
  type AdminProjectConfigUpdateOptions,
} from "./project-config.js";

/** The project with its full configuration, as its admin sees it (`adminApp.getProject()`): update or delete it. */
export interface AdminProject {
  readonly id: string;
  readonly displayName: string;
  readonly description: string | null;
  readonly createdAt: Date;
  /**
   * How many users the project has, as the service answered when this object was read
   * (`user_count`, which 2.8.11 sends). `undefined` when the service does not say: 2.8.86 and
   * later answer no count with the project (the newest official SDK's AdminProject has no
   * `userCount`); read `total_users` from `adminApp.getMetrics()` there, which leaves out
   * anonymous users.
   */
  readonly userCount: number | undefined;
  readonly isProductionMode: boolean;
  /**
   * Whether the project was created as a development environment (`is_development_environment`),
   * as the newest official SDK's AdminProject has it; set at creation
   * (`createProject({ isDevelopmentEnvironment })`), never updated. `undefined` when the service
   * does not say: the hosted service answers it since 2.8.102, 2.8.86 and 2.8.11 do not.
   */
  readonly isDevelopmentEnvironment: boolean | undefined;
  /**
   * The choices the project's owner made in the dashboard's setup (`onboarding_state`, the
   * hosted service's since 2.8.102); read only here, as the official SDK neither reads nor sets it.
   * `null` when none is recorded, which is also how a 2.8.86 or 2.8.11 service reads (they have none).
   */
  readonly onboardingState: AdminProjectOnboardingState | null;
  readonly config: AdminProjectConfig;
  /**
   * Changes the project (`PATCH /internal/projects/current`, only the fields
   * given); this object keeps showing the project as it was read. Resolves with nothing.
   *
   * @example
   * ```ts
   * const project = await admin.getProject();
   * await project.update({ displayName: "Acme Portal", config: { passkeyEnabled: true } });
   * const updated = await admin.getProject();
   * ```
   */
  update(update: AdminProjectUpdateOptions & CallOptions): Promise<void>;
  /**
   * Deletes the project with its users, teams and keys (`DELETE /internal/projects/current`).
   * It cannot be undone. Resolves with nothing.
   *
   * @example
   * ```ts
   * const project = await admin.getProject();
   * if (project.displayName === "Staging (old)" && project.userCount === 0) { // undefined: the service did not say
   *   await project.delete();
   * }
   * ```
   */
  delete(options?: CallOptions): Promise<void>;
  /**
   * What blocks production mode in this project as read (SPEC §5); empty when
   * nothing does. Computed here from the configuration, without a request.
   *
   * @example
   * ```ts
   * const project = await admin.getProject();
   * const errors = await project.getProductionModeErrors();
   * if (errors.length === 0) await project.update({ isProductionMode: true });
   * else for (const error of errors) console.warn(error.message, error.relativeFixUrl);
   * ```
   */
  getProductionModeErrors(options?: CallOptions): Promise<ProductionModeError[]>;
  /**
   * The same errors as getProductionModeErrors, returned at once: the reference 2.8.11's
   * synchronous form, which its `@stackframe/js` objects have too. Despite the name it is
   * no React hook; it only reads this object.
   *
   * @example
   * ```ts
   * const project = await admin.getProject();
   * const blocked = project.useProductionModeErrors().length > 0;
   * console.log(blocked ? "fix the domains first" : "ready for production mode");
   * ```
   */
  useProductionModeErrors(): ProductionModeError[];
}

/**
 * What a project's owner chose in the dashboard's setup (`AdminProject.onboardingState`). Each
 * choice is the service's string, so that one a later version adds still reads.
 *
 * @example
 * ```ts
 * const { onboardingState } = await admin.getProject();
 * if (onboardingState?.selectedApps.includes("teams")) console.log("the owner chose teams");
 * ```
 */
export interface AdminProjectOnboardingState {
  /** `"create-new"` (a new configuration) or `"link-existing"` (one kept in a repository). */
  readonly selectedConfigChoice: "create-new" | "link-existing" | (string & {});
  /** The ids of the dashboard's apps chosen: `"authentication"`, `"teams"`, `"payments"`, `"emails"`, … */
  readonly selectedApps: readonly string[];
  /** The sign-in methods chosen: `"credential"`, `"magicLink"`, `"passkey"`, `"google"`, `"github"`, `"microsoft"`. */
  readonly selectedSignInMethods: readonly string[];
  /** The e-mail theme chosen, or null for none. */
  readonly selectedEmailThemeId: string | null;
  /** Where the owner takes payments: `"US"` or `"OTHER"`. */
  readonly selectedPaymentsCountry: "US" | "OTHER" | (string & {});
}

/**
 * The fields of a project to change, for `AdminProject.update`; a field left
 * out keeps its value.
 *
 * @example
 * ```ts
 * const project = await admin.getProject();
 * await project.update({
 *   displayName: "Acme",
 *   description: null,
 *   config: { domains: [{ domain: "https://app.example.com", handlerPath: "/handler" }], allowLocalhost: false },
 * });
 * ```
 */
export interface AdminProjectUpdateOptions {
  /** The project's name, shown on the dashboard and in e-mails. */
  readonly displayName?: string;
  /** `null` removes the description. */
  readonly description?: string | null;
  /** Whether the project is in production mode; see `AdminProject.getProductionModeErrors` for what must hold first. */
  readonly isProductionMode?: boolean;
  /** The configuration fields to change; the others keep their values. */
  readonly config?: AdminProjectConfigUpdateOptions;
}

/** `GET /internal/projects/current`: the app's project with its full configuration. */
export async function getAdminProject(ctx: ClientAppContext, options?: CallOptions): Promise<AdminProject> {
  const { data } = await ctx.client.send("GET /internal/projects/current", signalOf(options));
  assertAnswered(data, "GET /internal/projects/current");
  return adminProjectFromWire(ctx, data, "GET /internal/projects/current");
}

/** The wire body of a project update or creation: only the fields given, in the wire's names. */
export function adminProjectUpdateToWire(update: AdminProjectUpdateOptions, what: string) {
  if (typeof update !== "object" || update === null) {
    throw new StackConfigurationError(
      `${what} needs the fields to set, for example { displayName: 'Acme' } or { config: { signUpEnabled: false } }.`,
    );
  }
  return {
    ...(update.displayName === undefined ? {} : { display_name: update.displayName }),
    ...(update.description === undefined ? {} : { description: update.description }),
    ...(update.isProductionMode === undefined ? {} : { is_production_mode: update.isProductionMode }),
    ...(update.config === undefined ? {} : { config: adminProjectConfigToWire(update.config) }),
  };
}

/** `PATCH /internal/projects/current` with only the fields given, in the wire's names. */
export async function updateAdminProject(ctx: ClientAppContext, update: AdminProjectUpdateOptions & CallOptions): Promise<void> {
  await ctx.client.send("PATCH /internal/projects/current", {
    body: adminProjectUpdateToWire(update, "project.update"),
    ...signalOf(update),
  });
}

/** `DELETE /internal/projects/current`. */
export async function deleteAdminProject(ctx: ClientAppContext, options?: CallOptions): Promise<void> {
  await ctx.client.send("DELETE /internal/projects/current", signalOf(options));
}

export function adminProjectFromWire(ctx: ClientAppContext, wire: components["schemas"]["AdminProject"], call: string): AdminProject {
  // An admin app speaks for one project; another project's data would be edited in the wrong place.
  if (wire.id !== ctx.projectId) {
    throw new StackAssertionError(
      `${call} answered project ${JSON.stringify(wire.id)}, but this app is for project ${JSON.stringify(ctx.projectId)}`,
    );
  }
  if (typeof wire.created_at_millis !== "number" || !Number.isFinite(wire.created_at_millis)) {
    throw new StackAssertionError(`${call} answered a project whose created_at_millis is not a time in milliseconds`);
  }
  const config = adminProjectConfigFromWire(wire.config, call);
  const project: AdminProject = {
    id: wire.id,
    displayName: wire.display_name,
    description: wire.description ?? null,
    createdAt: new Date(wire.created_at_millis),
    userCount: wire.user_count,
    isProductionMode: wire.is_production_mode,
    isDevelopmentEnvironment: wire.is_development_environment,
    onboardingState: onboardingStateOf(wire.onboarding_state),
    config,
    update: (update) => updateAdminProject(ctx, update),
    delete: (options) => deleteAdminProject(ctx, options),
    // Nothing to wait for, but an aborted call still rejects, as every call does.
    getProductionModeErrors: async (options) => {
      checkAborted(options);
      return getProductionModeErrors({ id: wire.id, config });
    },
    useProductionModeErrors: () => getProductionModeErrors({ id: wire.id, config }),
  };
  return Object.freeze(project);
}

function onboardingStateOf(wire: components["schemas"]["AdminProject"]["onboarding_state"]): AdminProjectOnboardingState | null {
  if (wire === undefined || wire === null) return null;
  return Object.freeze({
    selectedConfigChoice: wire.selected_config_choice,
    selectedApps: Object.freeze([...wire.selected_apps]),
    selectedSignInMethods: Object.freeze([...wire.selected_sign_in_methods]),
    selectedEmailThemeId: wire.selected_email_theme_id,
    selectedPaymentsCountry: wire.selected_payments_country,
  });
}
