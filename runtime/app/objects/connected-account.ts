// Connected accounts (endpoints.md §A): an OAuth provider account linked to the
// signed-in user, and the provider access token the service keeps for it. The
// calls (connected-account-calls.ts, with the OAuth link flow) load with the first of them.
import { lazy } from "../../lazy.js";
import type { CallOptions } from "../call-options.js";
import type { ClientAppContext } from "../context.js";
import { lazyMethods } from "../lazy-methods.js";

const loadConnectedAccounts = lazy("connected accounts", () => import("./connected-account-calls.js"));

export interface OAuthConnection {
  /** The provider id, for example `github`. */
  readonly id: string;
  /** An access token of the provider for this account, with at least the scopes asked for. */
  getAccessToken(options?: CallOptions): Promise<{ accessToken: string }>;
}

export interface ConnectedAccountOptions {
  /** Provider scopes the token must have. */
  readonly scopes?: readonly string[];
  /**
   * When the user is not connected (or lacks a scope): `"return-null"` (default)
   * answers null, `"throw"` throws the service's error
   * (OAuthConnectionNotConnectedToUser or OAuthConnectionDoesNotHaveRequiredScope),
   * `"redirect"` starts the OAuth link flow for the provider and those scopes.
   */
  readonly or?: "redirect" | "throw" | "return-null";
}

/** What getConnectedAccount takes: the account's options and the call's signal. */
export type GetConnectedAccountOptions = ConnectedAccountOptions & CallOptions;

export interface UserConnectedAccountMethods {
  getConnectedAccount(providerId: string, options: GetConnectedAccountOptions & { readonly or: "redirect" }): Promise<OAuthConnection>;
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
