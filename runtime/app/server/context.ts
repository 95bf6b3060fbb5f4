// What the server objects share: the client app's context, but with a runtime
// client that carries no user tokens. Server objects act on users and teams by
// id with the secret server key; sending the app's current user's tokens along
// would expose them for nothing, and a stale access token would make unrelated
// server calls fail (wire contract §15, "token placement").
import type { components } from "../../../generated/schema.js";
import type { StackClient } from "../../client.js";
import { StackAssertionError } from "../../errors.js";
import type { ClientAppContext } from "../context.js";
import { createServerTeamObject, type ServerTeam } from "./server-team.js";
import { createServerUser, type ServerUser } from "./server-user.js";

export type WireServerUser = components["schemas"]["ServerUser"];
export type WireServerTeam = components["schemas"]["ServerTeam"];

export interface ServerObjectFactory {
  user(wire: WireServerUser): ServerUser;
  team(wire: WireServerTeam): ServerTeam;
}

export interface ServerAppContext extends ClientAppContext {
  /** Users and teams refer to each other (a user's teams, a team's users); both are made here. */
  readonly objects: ServerObjectFactory;
}

/** The server context of an app whose (user-facing) context is `base`; `client` must have no token store. */
export function createServerContext(base: ClientAppContext, client: StackClient): ServerAppContext {
  const ctx: ServerAppContext = {
    ...base,
    client,
    sessions: () => client.requireSessions(),
    signIn: () => {
      throw new StackAssertionError("Server objects act by id and never sign anybody in.");
    },
    objects: {
      user: (wire) => createServerUser(ctx, wire),
      team: (wire) => createServerTeamObject(ctx, wire),
    },
  };
  return ctx;
}
