// The admin app of a project that a user of the internal project owns (SPEC §6),
// on that user's session. The apps hand this to the users they build
// (CurrentUserExtras.adminAppFor) and load it with the first listOwnedProjects()
// or createProject(): it is the only module that a client app reaches the admin
// app through, so a client app's first load never carries it.
import { StackAdminApp } from "../admin-app.js";
import { internalsOf } from "../app-internals.js";
import type { ClientAppContext } from "../context.js";
import type { OwnedProjectApp } from "../objects/project.js";
import { serverContextOf } from "../server/context.js";
import { StackAssertionError } from "../../errors.js";

/**
 * An admin app for project `projectId`, acting on the session `ctx` is bound to
 * (the owner's, in the internal project), with the server context its admin
 * view of the project acts through.
 */
export function ownedProjectApp(ctx: ClientAppContext, projectId: string): OwnedProjectApp<StackAdminApp> {
  // Looked up on every request rather than kept: the user's context is bound to
  // its session, so the project's admin app stops acting once it is over too.
  const sessions = ctx.sessions();
  const app = new StackAdminApp({
    projectId,
    baseUrl: ctx.baseUrl,
    tokenStore: null,
    projectOwnerSession: {
      getTokens: (minMillisLeft) => sessions.current().getTokens(minMillisLeft),
      markAccessTokenExpired: (accessToken) => sessions.current().markAccessTokenExpired(accessToken),
    },
    environment: ctx.env,
    browser: ctx.browser,
    redirectMethod: ctx.redirectMethod,
  });
  const internals = internalsOf(app);
  if (internals === undefined) throw new StackAssertionError("an admin app records its internals when it is constructed");
  return { app, ctx: serverContextOf(internals.ctx) };
}
