// The projects a user of the internal project owns (SPEC §6), each with its
// admin app on the owner's session. Loaded with the first listOwnedProjects()
// or createProject(), and it loads the admin half itself (a dynamic import), so
// that a client app's first load never carries it.
import type { components } from "../../../generated/schema.js";
import { StackConfigurationError, signalOf, untilAborted, type CallOptions, lazy } from "../../core.js";
import { adminProjectUpdateToWire } from "../admin/project.js";
import type { OwnerSession } from "../../pipeline.js";
import type { ClientAppContext } from "../context.js";
import { assertAnswered } from "../wire.js";
import { INTERNAL_PROJECT_ID, type AdminOwnedProject, type AdminProjectCreateOptions } from "./project.js";

const loadAdminHalf = /* @__PURE__ */ lazy("admin app", () => import("../admin/owned-project.js"));

type WireAdminProject = components["schemas"]["AdminProject"];

/** The owned projects of `wires`, each with its admin app on the owner's session (the one `ctx` is bound to). */
async function ownedProjectsOf(
  ctx: ClientAppContext,
  wires: readonly WireAdminProject[],
  call: CallOptions | undefined,
): Promise<AdminOwnedProject[]> {
  const { ownedProjectOf } = await untilAborted(loadAdminHalf(), call);
  // Looked up on every request rather than kept: the user's context is bound to
  // its session, so the projects' admin apps stop acting once it is over too.
  const sessions = ctx.sessions();
  const owner: OwnerSession = {
    getTokens: (minMillisLeft) => sessions.current().getTokens(minMillisLeft),
    markAccessTokenExpired: (accessToken) => sessions.current().markAccessTokenExpired(accessToken),
  };
  return untilAborted(Promise.all(wires.map((wire) => ownedProjectOf(ctx, owner, wire))), call);
}

/** The service would answer EXPECTED_INTERNAL_PROJECT; say what to do instead, before sending anything. */
function requireInternalProject(ctx: ClientAppContext, what: string): void {
  if (ctx.projectId !== INTERNAL_PROJECT_ID) {
    throw new StackConfigurationError(
      `${what} is only available to users of the internal project (projectId "${INTERNAL_PROJECT_ID}"); this app's projectId is "${ctx.projectId}". Manage other projects with an admin app.`,
    );
  }
}

/** The projects the signed-in user owns. */
export async function listOwnedProjects(ctx: ClientAppContext, options?: CallOptions): Promise<AdminOwnedProject[]> {
  requireInternalProject(ctx, "listOwnedProjects");
  const { data } = await ctx.client.send("GET /internal/projects", signalOf(options));
  assertAnswered(data, "GET /internal/projects");
  return ownedProjectsOf(ctx, data.items, options);
}

/**
 * Creates a project owned by the signed-in user, with the reference SDK's
 * options (`displayName`, `description`, `isProductionMode`, `config`); what the
 * config leaves out takes the service's defaults.
 */
export async function createProject(ctx: ClientAppContext, options: AdminProjectCreateOptions & CallOptions): Promise<AdminOwnedProject> {
  requireInternalProject(ctx, "createProject");
  if (typeof options !== "object" || options === null || typeof options.displayName !== "string") {
    throw new StackConfigurationError("createProject needs options: { displayName, description?, isProductionMode?, config? }.");
  }
  const body = { ...adminProjectUpdateToWire(options, "createProject"), display_name: options.displayName };
  const { data } = await ctx.client.send("POST /internal/projects", { body, ...signalOf(options) });
  assertAnswered(data, "POST /internal/projects", "the new project");
  const [project] = await ownedProjectsOf(ctx, [data], options);
  return project!;
}
