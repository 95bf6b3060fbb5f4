// The request's own user on a server app (`serverApp.getUser()`): a ServerUser
// plus what only that user's session can do, taken from the client's
// CurrentUser of the same session: its tokens, sign-out, passkey registration,
// changing the password (which checks the old one), and linking an OAuth
// account. Deleting the user ends that session, as on the client. Like every
// user object it acts for the session it was read in only: once that session
// is over, its calls by id stop too (bound-session.ts).
import type { GetConnectedAccountOptions, OAuthConnection } from "../objects/connected-account.js";
import { createCurrentUser, type Auth, type CurrentUserExtras } from "../objects/user.js";
import { boundContext } from "../bound-session.js";
import type { ClientAppContext } from "../context.js";
import type { ServerAppContext, WireServerUser } from "./context.js";
import { createServerUser, type ServerUser } from "./server-user.js";
import { withUserDestructureGuard } from "../objects/user-guard.js";

/**
 * The user of a request on a server app (`serverApp.getUser({ tokenStore: request })`): a
 * {@link ServerUser}, plus what only that user's session can do (its tokens, sign-out, passkeys).
 *
 * @interface
 */
export type CurrentServerUser = ServerUser & Auth;

/**
 * The current user of `sessionCtx`'s session (a context bound to it), whose
 * answer to GET /users/me is `wire`. Server requests go through `serverCtx`,
 * bound to the same session, session requests through `sessionCtx`.
 */
export function createCurrentServerUser(
  serverCtx: ServerAppContext,
  sessionCtx: ClientAppContext,
  wire: WireServerUser,
  extras: CurrentUserExtras,
): CurrentServerUser {
  const client = createCurrentUser(sessionCtx, wire, extras);
  const server = createServerUser(boundContext(serverCtx, sessionCtx.sessions()), wire);

  function getConnectedAccount(
    providerId: string,
    options: GetConnectedAccountOptions & { readonly or: "redirect" },
  ): Promise<OAuthConnection>;
  function getConnectedAccount(providerId: string, options?: GetConnectedAccountOptions): Promise<OAuthConnection | null>;
  function getConnectedAccount(providerId: string, options?: GetConnectedAccountOptions): Promise<OAuthConnection | null> {
    // Linking needs the user's browser and session; everything else is a server request.
    if (options?.or === "redirect") return client.getConnectedAccount(providerId, { ...options, or: "redirect" });
    return server.getConnectedAccount(providerId, options);
  }

  const user: Omit<CurrentServerUser, "_internalSession"> = {
    ...server,
    currentSession: client.currentSession,
    getAuthHeaders: client.getAuthHeaders,
    getAuthJson: client.getAuthJson,
    getAccessToken: client.getAccessToken,
    getRefreshToken: client.getRefreshToken,
    signOut: client.signOut,
    registerPasskey: client.registerPasskey,
    updatePassword: client.updatePassword,
    getConnectedAccount,
    async delete(options) {
      // The session that deleted the user ends, even if another sign-in replaced it meanwhile.
      const session = sessionCtx.sessions().current();
      await server.delete(options);
      session.invalidate();
    },
  };
  // A user of the internal project also owns projects (CurrentInternalServerUser): its client half has them.
  const owner = client as Partial<Record<"createProject" | "listOwnedProjects", unknown>>;
  const whole =
    owner.createProject === undefined ? user : { ...user, createProject: owner.createProject, listOwnedProjects: owner.listOwnedProjects };
  // The session, not enumerable, as on the client half (objects/user.ts).
  Object.defineProperty(whole, "_internalSession", { value: client._internalSession, enumerable: false });
  return Object.freeze(withUserDestructureGuard(whole as CurrentServerUser));
}
