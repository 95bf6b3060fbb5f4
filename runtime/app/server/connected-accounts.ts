// A server user's connected accounts (endpoints.md §C): the access token the
// service keeps for one of the user's OAuth provider accounts. A user who has
// not connected the provider, or whose connection lacks a scope, is "not
// connected": null or the service's error. Linking an account needs the user's
// browser, so server code cannot ask for the redirect.
import { isKnownError } from "../../../generated/known-errors.js";
import { StackConfigurationError } from "../../errors.js";
import type { ConnectedAccountOptions, OAuthConnection, UserConnectedAccountMethods } from "../objects/connected-account.js";
import { answered } from "../wire.js";
import { segment } from "./common.js";
import type { ServerAppContext } from "./context.js";

function isNotConnected(error: unknown): boolean {
  return isKnownError(error, "OAUTH_CONNECTION_NOT_CONNECTED_TO_USER") || isKnownError(error, "OAUTH_CONNECTION_DOES_NOT_HAVE_REQUIRED_SCOPE");
}

export function serverUserConnectedAccountMethods(ctx: ServerAppContext, userId: string): UserConnectedAccountMethods {
  async function accessToken(provider: string, scope: string): Promise<string> {
    const { data } = await ctx.client.api.POST("/connected-accounts/{user_id}/{provider_id}/access-token", {
      params: { path: { user_id: userId, provider_id: provider } },
      body: { scope },
    });
    return answered(data, "POST /connected-accounts/{user_id}/{provider}/access-token").access_token;
  }

  function getConnectedAccount(providerId: string, options: ConnectedAccountOptions & { readonly or: "redirect" }): Promise<OAuthConnection>;
  function getConnectedAccount(providerId: string, options?: ConnectedAccountOptions): Promise<OAuthConnection | null>;
  async function getConnectedAccount(providerId: string, given?: ConnectedAccountOptions | null): Promise<OAuthConnection | null> {
    // Provider ids are lower-case on the wire.
    const provider = segment(providerId, "getConnectedAccount", 'a provider id, e.g. "github",').toLowerCase();
    const options = given ?? {};
    if (options.or === "redirect") {
      throw new StackConfigurationError(
        "getConnectedAccount({ or: \"redirect\" }) sends the user's browser through the OAuth link flow, which server code cannot do; use or: \"throw\" or \"return-null\" here, and link accounts in the browser (user.getConnectedAccount on a StackClientApp).",
      );
    }
    if (options.scopes !== undefined && (!Array.isArray(options.scopes) || !options.scopes.every((s) => typeof s === "string"))) {
      throw new StackConfigurationError('getConnectedAccount scopes must be a list of scope names, e.g. { scopes: ["repo"] }.');
    }
    const scope = (options.scopes ?? []).join(" ");
    let first: string;
    try {
      first = await accessToken(provider, scope);
    } catch (error) {
      if (isNotConnected(error) && options.or !== "throw") return null;
      throw error;
    }
    // The token just fetched answers the first getAccessToken(); later calls ask
    // the service again, which refreshes the provider token when it has expired.
    let prefetched: string | null = first;
    return {
      id: provider,
      async getAccessToken() {
        const token = prefetched ?? (await accessToken(provider, scope));
        prefetched = null;
        return { accessToken: token };
      },
    };
  }

  return { getConnectedAccount };
}
