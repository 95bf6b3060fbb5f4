// Connected accounts (endpoints.md §A): an OAuth provider account linked to the
// signed-in user, and the provider access token the service keeps for it. A
// user who has not connected the provider, or whose connection lacks a scope,
// is "not connected": null, a thrown error, or the link flow, as the caller
// chooses. The link flow is OAuth's, loaded (through the one OAuth loader,
// flows/loaders.ts) only when a redirect is asked for.
import { isKnownError } from "../../../generated/known-error-guard.js";
import { callOf, signalOf, untilAborted, type CallOptions } from "../call-options.js";
import { StackConfigurationError } from "../../errors.js";
import type { ClientAppContext } from "../context.js";
import { loadOAuth } from "../flows/loaders.js";
import { assertAnswered } from "../wire.js";

/** An OAuth provider account connected to the user (`user.getConnectedAccount(provider)`), whose access token calls the provider's API. */
export interface OAuthConnection {
  /** The provider id, for example `github`. */
  readonly id: string;
  /**
   * An access token of the provider for this account, with at least the scopes asked for
   * (`POST /connected-accounts/{user_id}/{provider_id}/access-token`; the service refreshes an
   * expired provider token). Use it to call the provider's own API.
   *
   * @example
   * ```ts
   * const github = await user.getConnectedAccount("github", { scopes: ["repo"], or: "throw" });
   * const { accessToken } = await github!.getAccessToken();
   * const response = await fetch("https://api.github.com/user/repos", {
   *   headers: { Authorization: `Bearer ${accessToken}` },
   * });
   * ```
   */
  getAccessToken(options?: CallOptions): Promise<{ accessToken: string }>;
}

/**
 * What `getConnectedAccount` asks of the connection: the provider scopes it needs, and what
 * happens when the user is not connected.
 *
 * @example
 * ```ts
 * const options: ConnectedAccountOptions = { scopes: ["https://www.googleapis.com/auth/drive.readonly"], or: "redirect" };
 * const google = await user.getConnectedAccount("google", options);
 * const { accessToken } = await google.getAccessToken();
 * ```
 */
export interface ConnectedAccountOptions {
  /** Provider scopes the token must have. Default none: any connection to the provider will do. */
  readonly scopes?: readonly string[];
  /**
   * When the user is not connected (or lacks a scope): `"return-null"` (default)
   * answers null, `"throw"` throws the service's error
   * (OAuthConnectionNotConnectedToUser or OAuthConnectionDoesNotHaveRequiredScope),
   * `"redirect"` starts the OAuth link flow for the provider and those scopes.
   */
  readonly or?: "redirect" | "throw" | "return-null";
}

/**
 * What getConnectedAccount takes: the account's options and the call's signal.
 *
 * @example
 * ```ts
 * const options: GetConnectedAccountOptions = { scopes: ["repo"], or: "return-null", signal: AbortSignal.timeout(5000) };
 * const github = await user.getConnectedAccount("github", options);
 * if (github === null) console.log("GitHub is not connected");
 * ```
 */
export type GetConnectedAccountOptions = ConnectedAccountOptions & CallOptions;

export interface UserConnectedAccountMethods {
  /**
   * The user's connection to the OAuth provider `providerId` (for example `"github"`), with
   * `or: "redirect"`: when the user is not connected or lacks a scope, the browser goes through
   * the OAuth link flow for those scopes and this call never resolves. Client apps only.
   *
   * @example
   * ```ts
   * const user = await app.getUser({ or: "redirect" });
   * const github = await user.getConnectedAccount("github", { scopes: ["repo"], or: "redirect" });
   * const { accessToken } = await github.getAccessToken();
   * ```
   */
  getConnectedAccount(providerId: string, options: GetConnectedAccountOptions & { readonly or: "redirect" }): Promise<OAuthConnection>;
  /**
   * The user's connection to the OAuth provider `providerId` (for example `"github"`), checked
   * by asking the service for an access token with the given scopes. When the user is not
   * connected or lacks a scope it resolves to null (default) or, with `or: "throw"`, throws
   * OAuthConnectionNotConnectedToUser or OAuthConnectionDoesNotHaveRequiredScope.
   *
   * @example
   * ```ts
   * const github = await user.getConnectedAccount("github", { scopes: ["repo"] });
   * if (github === null) {
   *   console.log("Connect GitHub first");
   * } else {
   *   const { accessToken } = await github.getAccessToken();
   * }
   * ```
   */
  getConnectedAccount(providerId: string, options?: GetConnectedAccountOptions): Promise<OAuthConnection | null>;
}

/**
 * The connected-account methods of a user: `me` for the signed-in user; server
 * code passes a user id, and then cannot ask for the link flow (it needs that
 * user's browser).
 */

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
      const { linkOAuthAccount } = await loadOAuth();
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
