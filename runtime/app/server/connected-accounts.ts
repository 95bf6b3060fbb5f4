// A server user's connected accounts (endpoints.md §C): the client's methods
// with the user's id instead of `me`. Linking an account needs the user's
// browser, so server code cannot ask for the redirect.
import type { UserConnectedAccountMethods } from "../objects/connected-account.js";
import { userConnectedAccountMethods } from "../objects/connected-account.js";
import type { ServerAppContext } from "./context.js";

export function serverUserConnectedAccountMethods(ctx: ServerAppContext, userId: string): UserConnectedAccountMethods {
  return userConnectedAccountMethods(ctx, userId);
}
