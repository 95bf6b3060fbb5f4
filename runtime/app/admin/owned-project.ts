// An owned project (SPEC §6) as the reference SDK hands it out: loaded with the
// first listOwnedProjects() or createProject() (objects/owned-projects.ts), apart
// from the admin app's module, so that the package entry re-exports that module whole.
import type { components } from "../../../generated/schema.js";
import type { OwnerSession } from "../../pipeline.js";
import { StackAdminApp } from "../admin-app.js";
import type { ClientAppContext } from "../context.js";
import type { AdminOwnedProject } from "../objects/project.js";
import { adminProjectFromWire } from "./project.js";
import { serverContextOf } from "./server-context.js";

/**
 * A project the signed-in user of `ctx` owns, as the reference SDK hands it out:
 * its admin view, whose update and delete act through `app`, an admin app for
 * that project on the owner's session (the reference's `AdminOwnedProject`).
 */
export async function ownedProjectOf(
  ctx: ClientAppContext,
  owner: OwnerSession,
  wire: components["schemas"]["AdminProject"],
): Promise<AdminOwnedProject> {
  const app = new StackAdminApp({
    projectId: wire.id,
    baseUrl: ctx.baseUrl,
    tokenStore: null,
    projectOwnerSession: owner,
    environment: ctx.env,
    browser: ctx.browser,
    redirectMethod: ctx.redirectMethod,
  });
  return Object.freeze({ ...adminProjectFromWire(serverContextOf(app), wire, "GET /internal/projects"), app });
}
