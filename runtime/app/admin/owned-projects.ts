// The projects a user of the internal project owns (SPEC §6): listing and
// creating them, and making each one's admin app on the owner's session. The
// app that builds the user loads this module with the first listOwnedProjects()
// or createProject() and hands those to the user (CurrentUserExtras.ownedProjects):
// it is the only way from a client app to the admin app, so neither a client
// app's first load nor any user object carries the admin app.
import type { components } from "../../../generated/schema.js";
import { StackAdminApp } from "../admin-app.js";
import { internalsOf } from "../app-internals.js";
import { signalOf, untilAborted, type CallOptions } from "../call-options.js";
import { StackAssertionError, StackConfigurationError } from "../../errors.js";
import { ServiceVersionError } from "../../http/request-errors.js";
import type { ClientAppContext } from "../context.js";
import type { AdminOwnedProject } from "../internal-user.js";
import { INTERNAL_PROJECT_ID, type AdminProjectCreateOptions } from "../objects/project.js";
import { ownerSessionOf } from "../objects/user.js";
import { serverContextOf, type ServerAppContext } from "../server/context.js";
import { answered, assertAnswered, schemaProblems, itemsOf } from "../wire.js";
import { adminProjectFromWire, adminProjectUpdateToWire } from "./project.js";

type WireAdminProject = components["schemas"]["AdminProject"];

/**
 * An admin app for project `projectId`, acting on the session `ctx` is bound to
 * (the owner's, in the internal project), with the server context its admin
 * view of the project acts through.
 */
export function ownedProjectApp(ctx: ClientAppContext, projectId: string): { readonly app: StackAdminApp; readonly ctx: ServerAppContext } {
  // The user's context is bound to its session, so the project's admin app stops acting once it is over too.
  const app = new StackAdminApp({
    projectId,
    baseUrl: ctx.baseUrl,
    ...(ctx.client.failover !== undefined && { failover: ctx.client.failover }),
    tokenStore: null,
    projectOwnerSession: ownerSessionOf(ctx),
    environment: ctx.env,
    browser: ctx.browser,
    redirectMethod: ctx.redirectMethod,
  });
  const internals = internalsOf(app);
  if (internals === undefined) throw new StackAssertionError("an admin app records its internals when it is constructed");
  return { app, ctx: serverContextOf(internals.ctx) };
}

/** The owned projects of `wires`, each with its admin app on the owner's session (the one `ctx` is bound to). */
async function ownedProjectsOf(
  ctx: ClientAppContext,
  wires: readonly WireAdminProject[],
  call: CallOptions | undefined,
): Promise<AdminOwnedProject[]> {
  const ownedProject = (wire: WireAdminProject): AdminOwnedProject => {
    const owned = ownedProjectApp(ctx, wire.id);
    return Object.freeze({ ...adminProjectFromWire(owned.ctx, wire, "GET /internal/projects"), app: owned.app });
  };
  return untilAborted(Promise.resolve(wires.map(ownedProject)), call);
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

// The owner team, across versions (service-versions.md §3). Both versions check the body
// before doing anything, and say what is wrong in SCHEMA_ERROR's message, one "- " line per
// problem: 2.8.86 "- body.owner_team_id must be defined", 2.8.11 "- body contains unknown
// properties: owner_team_id". A refusal about owner_team_id alone is how the version shows.
const OWNER_TEAM_REQUIRED = /^- body\.owner_team_id must be defined$/;
const OWNER_TEAM_UNKNOWN = /^- body contains unknown properties: owner_team_id$/;

// The hosted service's since 2.8.102; both versions list it among the body's unknown properties.
const DEVELOPMENT_ENVIRONMENT_UNKNOWN = /^- body contains unknown properties: (.+, )?is_development_environment(, .+)?$/;

/** Whether `error` is a SCHEMA_ERROR with a problem of the form `problem` among others. */
function refusedAmong(error: unknown, problem: RegExp): boolean {
  return (schemaProblems(error) ?? []).some((line) => problem.test(line));
}

/** Whether `error` is a SCHEMA_ERROR whose every problem is of the form `problem`. */
function refusedOnlyFor(error: unknown, problem: RegExp): boolean {
  const problems = schemaProblems(error) ?? [];
  return problems.length > 0 && problems.every((line) => problem.test(line));
}

/**
 * The team a project goes to when the call names none and the service requires one: the
 * user's selected team, else the first of the user's teams (as the dashboard's new-project
 * page picks), else a new team named after the project, created with the user as its creator.
 */
async function defaultOwnerTeam(ctx: ClientAppContext, displayName: string, options: CallOptions): Promise<string> {
  const { data: me } = await ctx.client.send("GET /users/me", signalOf(options));
  const selected = answered(me, "GET /users/me").selected_team_id;
  if (typeof selected === "string") return selected;
  const { data: teams } = await ctx.client.send("GET /teams", { params: { query: { user_id: "me" } }, ...signalOf(options) });
  const items = itemsOf(teams, "GET /teams");
  if (items[0] !== undefined) return items[0].id;
  const { data: created } = await ctx.client.send("POST /teams", {
    body: { display_name: displayName, creator_user_id: "me" },
    ...signalOf(options),
  });
  return answered(created, "POST /teams").id;
}

/**
 * Creates a project owned by the signed-in user, with the reference SDK's
 * options (`displayName`, `description`, `isProductionMode`, `config`); what the
 * config leaves out takes the service's defaults.
 */
export async function createProject(ctx: ClientAppContext, options: AdminProjectCreateOptions & CallOptions): Promise<AdminOwnedProject> {
  requireInternalProject(ctx, "createProject");
  if (
    typeof options !== "object" ||
    options === null ||
    typeof options.displayName !== "string" ||
    (options.teamId !== undefined && typeof options.teamId !== "string") ||
    (options.isDevelopmentEnvironment !== undefined && typeof options.isDevelopmentEnvironment !== "boolean")
  ) {
    throw new StackConfigurationError(
      "createProject needs options: { displayName, teamId?, isDevelopmentEnvironment?, description?, isProductionMode?, config? }.",
    );
  }
  const body = {
    ...adminProjectUpdateToWire(options, "createProject"),
    display_name: options.displayName,
    ...(options.isDevelopmentEnvironment !== undefined && { is_development_environment: options.isDevelopmentEnvironment }),
  };
  const create = (ownerTeamId: string | undefined) =>
    ctx.client.send("POST /internal/projects", {
      body: ownerTeamId === undefined ? body : { ...body, owner_team_id: ownerTeamId },
      ...signalOf(options),
    });
  let answer: Awaited<ReturnType<typeof create>>;
  try {
    answer = await create(options.teamId);
  } catch (error) {
    // Refused by 2.8.86 and 2.8.11 alike, beside whatever else they say of the owner team.
    if (options.isDevelopmentEnvironment !== undefined && refusedAmong(error, DEVELOPMENT_ENVIRONMENT_UNKNOWN)) {
      throw new ServiceVersionError(
        "user.createProject",
        "2.8.86",
        "it has no development-environment projects and refused is_development_environment (isDevelopmentEnvironment, which came with 2.8.102), so no project was created",
        "leave isDevelopmentEnvironment out",
      );
    }
    if (options.teamId === undefined && refusedOnlyFor(error, OWNER_TEAM_REQUIRED)) {
      answer = await create(await defaultOwnerTeam(ctx, options.displayName, options));
    } else if (options.teamId !== undefined && refusedOnlyFor(error, OWNER_TEAM_UNKNOWN)) {
      throw new ServiceVersionError(
        "user.createProject",
        "2.8.11",
        "it has no owner teams and refused owner_team_id (teamId), so no project was created",
        "leave teamId out; the project then belongs to the signed-in user",
      );
    } else {
      throw error;
    }
  }
  const { data } = answer;
  assertAnswered(data, "POST /internal/projects", "the new project");
  const [project] = await ownedProjectsOf(ctx, [data], options);
  return project!;
}
