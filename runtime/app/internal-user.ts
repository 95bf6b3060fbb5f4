// The users of the internal project (the dashboard's own) and the projects they
// own, as the public types name them: each owned project's `app` is a
// StackAdminApp. The types stand here, above the admin app, rather than beside
// the user objects, so that no object, nor the client app, depends on the admin
// app: the apps hand the owned projects in (CurrentUserExtras.ownedProjects).
import type { CallOptions } from "./call-options.js";
import type { AdminProject } from "./admin/project.js";
import type { StackAdminApp } from "./admin-app.js";
import type { AdminProjectCreateOptions, INTERNAL_PROJECT_ID } from "./objects/project.js";
import type { CurrentUser } from "./objects/user.js";
import type { CurrentServerUser } from "./server/current-user.js";

/**
 * A project the signed-in user owns (internal project only): the admin view of
 * the project, and `app`, an admin app for it acting on the owner's session.
 */
export type AdminOwnedProject = AdminProject & {
  readonly app: StackAdminApp;
};

/** Only for users of the internal project (the dashboard's own project). */
export interface InternalUserExtra {
  /**
   * Creates a project owned by the user (`POST /internal/projects`) and returns it with `app`, an
   * admin app for it acting on the user's session. What `config` leaves out takes the service's defaults.
   *
   * @example
   * ```ts
   * const user = await app.getUser({ or: "throw" }); // an app of the "internal" project
   * const project = await user.createProject({ displayName: "Acme", config: { signUpEnabled: true } });
   * console.log(project.id);
   * const keys = await project.app.listInternalApiKeys();
   * ```
   */
  createProject(newProject: AdminProjectCreateOptions & CallOptions): Promise<AdminOwnedProject>;
  /**
   * The projects the user owns (`GET /internal/projects`), each with `app`, an admin app for it
   * acting on the user's session.
   *
   * @example
   * ```ts
   * const user = await app.getUser({ or: "throw" }); // an app of the "internal" project
   * const projects = await user.listOwnedProjects();
   * for (const project of projects) {
   *   console.log(project.id, project.displayName, project.userCount);
   * }
   * ```
   */
  listOwnedProjects(options?: CallOptions): Promise<AdminOwnedProject[]>;
}

/**
 * A {@link CurrentUser} of the internal project (the dashboard's own), who also owns projects:
 * `createProject` and `listOwnedProjects`.
 *
 * @interface
 */
export type CurrentInternalUser = CurrentUser & InternalUserExtra;

/** The current user of an app of project `ProjectId`: a {@link CurrentInternalUser} for the internal project (`"internal"`), a {@link CurrentUser} otherwise. */
export type ProjectCurrentUser<ProjectId extends string> = ProjectId extends typeof INTERNAL_PROJECT_ID ? CurrentInternalUser : CurrentUser;

/**
 * A {@link CurrentServerUser} of the internal project, who also owns projects: `createProject` and
 * `listOwnedProjects`.
 *
 * @interface
 */
export type CurrentInternalServerUser = CurrentServerUser & InternalUserExtra;
