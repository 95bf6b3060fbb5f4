// The calls behind connected accounts (endpoints.md §A). A user who has not
// connected the provider, or whose connection lacks a scope, is "not
// connected": null, a thrown error, or the link flow, as the caller chooses.
import { isKnownError } from "../../../generated/known-error-guard.js";
import { StackConfigurationError, callOf, signalOf, untilAborted, type CallOptions } from "../../core.js";
import type { ClientAppContext } from "../context.js";
import { linkOAuthAccount } from "../flows/oauth.js";
import { assertAnswered } from "../wire.js";
import type { GetConnectedAccountOptions, OAuthConnection, UserConnectedAccountMethods } from "./connected-account.js";

/** The answers that mean "this user has no usable connection to the provider". */
function isNotConnected(error: unknown): boolean {
  return (
    isKnownError(error, "OAUTH_CONNECTION_NOT_CONNECTED_TO_USER") || isKnownError(error, "OAUTH_CONNECTION_DOES_NOT_HAVE_REQUIRED_SCOPE")
  );
}

/**
 * The connected-account methods of a user: `me` for the signed-in user; server
 * code passes a user id, and then cannot ask for the link flow (it needs that
 * user's browser).
 */
export function userConnectedAccountMethods(ctx: ClientAppContext, userId = "me"): UserConnectedAccountMethods {
  async function accessToken(provider: string, scope: string, call: CallOptions | undefined): Promise<string> {
    const { data } = await ctx.client.send("POST /connected-accounts/{user_id}/{provider_id}/access-token", {
      params: { path: { user_id: userId, provider_id: provider } },
      body: { scope },
      ...signalOf(call),
    });
    assertAnswered(data, "POST /connected-accounts/{user_id}/{provider}/access-token", "an access token");
    return data.access_token;
  }

  function getConnectedAccount(
    providerId: string,
    options: GetConnectedAccountOptions & { readonly or: "redirect" },
  ): Promise<OAuthConnection>;
  function getConnectedAccount(providerId: string, options?: GetConnectedAccountOptions): Promise<OAuthConnection | null>;
  async function getConnectedAccount(providerId: string, given?: GetConnectedAccountOptions | null): Promise<OAuthConnection | null> {
    // "." and ".." would be resolved away as path segments and reach another route.
    if (typeof providerId !== "string" || providerId === "" || providerId === "." || providerId === "..") {
      throw new StackConfigurationError('getConnectedAccount needs a provider id, e.g. "github".');
    }
    const options = given ?? {};
    if (options.or === "redirect" && userId !== "me") {
      throw new StackConfigurationError(
        'getConnectedAccount({ or: "redirect" }) sends the user\'s browser through the OAuth link flow, which server code cannot do; use or: "throw" or "return-null" here, and link accounts in the browser (user.getConnectedAccount on a StackClientApp).',
      );
    }
    if (options.scopes !== undefined && (!Array.isArray(options.scopes) || !options.scopes.every((s) => typeof s === "string"))) {
      throw new StackConfigurationError('getConnectedAccount scopes must be a list of scope names, e.g. { scopes: ["repo"] }.');
    }
    // Provider ids are lower-case on the wire, as in the authorize URL.
    const provider = providerId.toLowerCase();
    const scopes = [...(options.scopes ?? [])];
    const scope = scopes.join(" ");
    let first: string;
    try {
      first = await accessToken(provider, scope, options);
    } catch (error) {
      if (!isNotConnected(error) || options.or === "throw") throw error;
      if (options.or !== "redirect") return null;
      // As given: the flow also looks the provider up in oauthScopesOnSignIn.
      await linkOAuthAccount(ctx, providerId, { scopes, ...callOf(options) });
      // The page is going to the provider; like getUser({ or: "redirect" }), the
      // caller is never answered, so no code runs on as if it had a connection.
      return untilAborted(new Promise<never>(() => {}), options);
    }
    // The token just fetched answers the first getAccessToken(); later calls ask
    // the service again, which refreshes the provider token when it has expired.
    let prefetched: string | null = first;
    return {
      id: provider,
      async getAccessToken(tokenOptions?: CallOptions) {
        const token = prefetched ?? (await accessToken(provider, scope, tokenOptions));
        prefetched = null;
        return { accessToken: token };
      },
    };
  }

  return { getConnectedAccount };
}
