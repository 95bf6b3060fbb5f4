// Connected accounts (endpoints.md §A): an OAuth provider account linked to the
// signed-in user, and the provider access token the service keeps for it. The
// calls (connected-account-calls.ts, with the OAuth link flow) load with the first of them.
import { lazy, type CallOptions } from "../../core.js";
import type { ClientAppContext } from "../context.js";
import { lazyMethods } from "../lazy-methods.js";

const loadConnectedAccounts = /* @__PURE__ */ lazy("connected accounts", () => import("./connected-account-calls.js"));

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
export function userConnectedAccountMethods(ctx: ClientAppContext, userId = "me"): UserConnectedAccountMethods {
  return lazyMethods(loadConnectedAccounts, (m) => m.userConnectedAccountMethods(ctx, userId), { getConnectedAccount: true });
}
