// What the server objects share: the client app's context, but with a runtime
// client that carries no user tokens. Server objects act on users and teams by
// id with the secret server key; sending the app's current user's tokens along
// would expose them for nothing, and a stale access token would make unrelated
// server calls fail (wire contract §15, "token placement").
import type { components } from "../../../generated/schema.js";
import { createClientAppContext, type ClientAppContext } from "../context.js";

export type WireServerUser = components["schemas"]["ServerUser"];
export type WireServerTeam = components["schemas"]["ServerTeam"];

/** A context whose client has the app's keys and no token store. */
export type ServerAppContext = ClientAppContext;

/** The server context of the app whose own context is `base`: the same client without a token store. */
export function createServerContext(base: ClientAppContext): ServerAppContext {
  return createClientAppContext(base.client.withTokenStore(null), base);
}

const serverContexts = new WeakMap<ClientAppContext, ServerAppContext>();

/**
 * The one server context of the app whose own context is `base`: the server
 * app's, which an owned project's admin view (made beside its admin app) shares.
 */
export function serverContextOf(base: ClientAppContext): ServerAppContext {
  let ctx = serverContexts.get(base);
  if (ctx === undefined) serverContexts.set(base, (ctx = createServerContext(base)));
  return ctx;
}
