// The signed-in user (SPEC §3 "User"): the reference SDK's CurrentUser, built
// from the wire ClientUser. Fields are a snapshot of that answer; methods act on
// the session it was read in. Its profile and account methods (user-profile.ts),
// teams, API keys, contact channels, sessions, permissions and connected
// accounts come from their own modules; this one assembles them.
import type { components } from "../../../generated/schema.js";
import type { AccessTokenRestrictedReason } from "../../sessions/verify/claims.js";
import { checkAborted, untilAborted, type CallOptions } from "../call-options.js";
import type { TokenPair } from "../../sessions/tokens/store.js";
import type { OwnerSession } from "../../http/pipeline.js";
import type { ClientAppContext } from "../context.js";
import type { RegisterPasskeyError } from "../flows/passkey.js";
import type { Result } from "../result.js";
import { userSessionMethods, type UserSessionMethods } from "./active-session.js";
import { userApiKeyMethods, type UserApiKeyMethods } from "./api-key.js";
import { userConnectedAccountMethods, type UserConnectedAccountMethods } from "./connected-account.js";
import { userContactChannelMethods, type UserContactChannelMethods } from "./contact-channel.js";
import { userPermissionMethods, type UserPermissionMethods } from "./permission.js";
import { INTERNAL_PROJECT_ID, type AdminProjectCreateOptions, type OwnedProject } from "./project.js";
import { createTeamObject } from "./team.js";
import { profileMethods, sendVerificationEmailOf, type UserAccountMethods, type UserProfileMethods } from "./user-profile.js";
import { withUserDestructureGuard } from "./user-guard.js";
import { userTeamMethods, type UserTeamMethods } from "./user-teams.js";

export type WireClientUser = components["schemas"]["ClientUser"];

/** An OAuth provider account the user signed in with. */
export interface OAuthProviderConnection {
  readonly id: string;
  readonly accountId: string;
  readonly email?: string;
}

export interface BaseUser {
  readonly id: string;
  readonly displayName: string | null;
  /** Not necessarily unique across users: identify users by `id`. */
  readonly primaryEmail: string | null;
  readonly primaryEmailVerified: boolean;
  readonly profileImageUrl: string | null;
  readonly signedUpAt: Date;
  // `any`, as in the reference, so that code reading its own metadata shape compiles unchanged.
  readonly clientMetadata: any;
  readonly clientReadOnlyMetadata: any;
  readonly hasPassword: boolean;
  /** Whether the user may sign in with the primary e-mail (wire `auth_with_email`). */
  readonly emailAuthEnabled: boolean;
  readonly otpAuthEnabled: boolean;
  readonly oauthProviders: readonly OAuthProviderConnection[];
  readonly passkeyAuthEnabled: boolean;
  /** Whether sign-in asks for a TOTP code (wire `requires_totp_mfa`). */
  readonly isMultiFactorRequired: boolean;
  readonly isAnonymous: boolean;
  /**
   * Whether the user is restricted: signed in, but not yet allowed everything (an anonymous
   * user; on services since 2.8.86 also an unverified e-mail the project requires verified,
   * or an administrator's restriction). `getUser()` counts restricted users as nobody unless
   * `includeRestricted` (or an anonymous `or`) asks for them. On 2.8.11, which has no
   * restricted users, it is true for anonymous users only, as the newer service has it.
   */
  readonly isRestricted: boolean;
  /** Why the user is restricted (`{ type: "email_not_verified" }`, `"anonymous"`, `"restricted_by_administrator"`); null when not. */
  readonly restrictedReason: RestrictedReason | null;
}

/** Why a user is restricted (the newest official SDK's name): the same as an access token says it. */
export type RestrictedReason = AccessTokenRestrictedReason;

/**
 * Whether the user of `wire` is restricted, and why: what the service says, or, from a
 * service that does not say (2.8.11), what it would say: anonymous users are restricted.
 */
export function restrictionOf(wire: {
  readonly is_anonymous: boolean;
  readonly is_restricted?: boolean;
  readonly restricted_reason?: RestrictedReason | null;
}): { readonly isRestricted: boolean; readonly restrictedReason: RestrictedReason | null } {
  const isRestricted = wire.is_restricted ?? wire.is_anonymous;
  const restrictedReason = wire.restricted_reason ?? (isRestricted && wire.is_anonymous ? { type: "anonymous" as const } : null);
  return { isRestricted, restrictedReason: restrictedReason && Object.freeze({ type: restrictedReason.type }) };
}

/** What the app composes into the user: the flows that need the app's own redirects and state. */
export interface CurrentUserExtras {
  /** The app's sign-out (the same as app.signOut). */
  signOut(options?: { readonly redirectUrl?: string | URL } & CallOptions): Promise<void>;
  /** The passkey registration flow, with the app's WebAuthn. */
  registerPasskey(options?: { readonly hostname?: string } & CallOptions): Promise<Result<undefined, RegisterPasskeyError>>;
  /**
   * The projects the user owns, each with its admin app on the user's session, loaded by the
   * app on first use (admin/owned-projects.ts); used by users of the internal project only.
   */
  readonly ownedProjects: OwnedProjectMethods;
}

/** What users of the internal project do besides (InternalUserExtra), as the objects see it: the projects' `app` is the app's to type. */
export interface OwnedProjectMethods {
  createProject(newProject: AdminProjectCreateOptions & CallOptions): Promise<OwnedProject<unknown>>;
  listOwnedProjects(options?: CallOptions): Promise<OwnedProject<unknown>[]>;
}

/** What only the user of the session at hand can do: read its tokens and auth headers, sign out and register a passkey. Part of {@link CurrentUser} and {@link CurrentServerUser}. */
export interface Auth {
  /**
   * The session this user was read in, as the official SDK names it: what `StackAdminApp` takes as
   * `projectOwnerSession`, so that a project owner (a user of the internal project) administers their projects
   * without the project's keys. Not enumerable: it is the session itself, not a field of the user. It acts only for
   * that session, and rejects with a SessionEndedError once the session has ended or another sign-in replaced it.
   *
   * @example
   * ```ts
   * const owner = await internalApp.getUser({ or: "throw" });
   * const admin = new StackAdminApp({ projectId, tokenStore: null, projectOwnerSession: owner._internalSession });
   * ```
   */
  readonly _internalSession: OwnerSession;
  readonly currentSession: {
    /**
     * The tokens of the session this user was read in, the access token with at least 20 s of life.
     * Once that session has ended or another sign-in replaced it, rejects with a SessionEndedError
     * (never another session's tokens); `app.getAuthJson()` answers for whoever is signed in now.
     *
     * @example
     * ```ts
     * const { accessToken } = await user.currentSession.getTokens();
     * if (accessToken !== null) {
     *   await fetch("https://api.example.com/me", { headers: { Authorization: `Bearer ${accessToken}` } });
     * }
     * ```
     */
    getTokens(options?: CallOptions): Promise<TokenPair>;
  };
  /**
   * `{ "x-stack-auth": JSON }` for requests to the app's own backend (never sent to the service): the
   * session's tokens as JSON, refreshed first when the access token is about to expire.
   *
   * @example
   * ```ts
   * const user = await app.getUser({ or: "throw" });
   * const response = await fetch("/api/todos", {
   *   headers: await user.getAuthHeaders(),
   * });
   * ```
   */
  getAuthHeaders(options?: CallOptions): Promise<{ "x-stack-auth": string }>;
  /**
   * The session's tokens, `{ accessToken, refreshToken }` (the same as `currentSession.getTokens()`);
   * a SessionEndedError once this user's session has ended or was replaced.
   *
   * @example
   * ```ts
   * const { accessToken, refreshToken } = await user.getAuthJson();
   * // Hand them to a worker or a native part of the app that calls your backend.
   * worker.postMessage({ accessToken, refreshToken });
   * ```
   */
  getAuthJson(options?: CallOptions): Promise<TokenPair>;
  /**
   * The session's access token (the `accessToken` of `currentSession.getTokens()`): refreshed first
   * when it has less than 20 s left, null when the session has none and cannot get one. A
   * SessionEndedError once this user's session has ended or was replaced.
   *
   * @example
   * ```ts
   * const accessToken = await user.getAccessToken();
   * await fetch("https://api.example.com/me", { headers: { Authorization: `Bearer ${accessToken}` } });
   * ```
   */
  getAccessToken(options?: CallOptions): Promise<string | null>;
  /**
   * The session's refresh token (the `refreshToken` of `currentSession.getTokens()`), null for a
   * session held by an access token alone. A SessionEndedError once this user's session has ended
   * or was replaced.
   *
   * @example
   * ```ts
   * const refreshToken = await user.getRefreshToken();
   * if (refreshToken !== null) await saveForTheCommandLineTool(refreshToken);
   * ```
   */
  getRefreshToken(options?: CallOptions): Promise<string | null>;
  /**
   * Signs the user out of the session it was read in: ends it on the service
   * (`DELETE /auth/sessions/current`), clears the token store, then goes to `redirectUrl` or the
   * app's after-sign-out page. If the service cannot be told, this device is signed out anyway
   * and the error is thrown instead of redirecting. Once that session has ended or another
   * sign-in replaced it, it rejects with a SessionEndedError and leaves the current session alone.
   *
   * @example
   * ```ts
   * const user = await app.getUser({ or: "throw" });
   * await user.signOut({ redirectUrl: "/goodbye" });
   * ```
   */
  signOut(options?: { readonly redirectUrl?: string | URL } & CallOptions): Promise<void>;
  /**
   * Registers a passkey for the user in the browser, scoped to `hostname` (default: the page's
   * hostname). A failed WebAuthn ceremony or a credential the service rejects comes back as an
   * error Result (PasskeyWebAuthnError, PasskeyRegistrationFailed), not thrown.
   *
   * @example
   * ```ts
   * const result = await user.registerPasskey();
   * if (result.status === "error") {
   *   console.error("Could not add the passkey:", result.error.message);
   * }
   * ```
   */
  registerPasskey(options?: { readonly hostname?: string } & CallOptions): Promise<Result<undefined, RegisterPasskeyError>>;
}

/**
 * The signed-in user, as `app.getUser()` answers it: the profile, and the methods for the
 * account, teams, API keys, contact channels, sessions, permissions and connected accounts.
 *
 * A user acts for the session it was read in, and so does everything reached through it
 * (its teams, their member profiles and invitations, its contact channels, API keys,
 * permissions, connected accounts and owned projects). Once that session has ended (a
 * sign-out, here or in another tab) or another sign-in took its place (even the same user's),
 * every call rejects with a SessionEndedError and sends nothing: get the user again with
 * `app.getUser()`. A refreshed access token is the same session.
 *
 * @interface
 */
export type CurrentUser = BaseUser &
  Auth &
  UserProfileMethods &
  UserAccountMethods &
  UserTeamMethods &
  UserApiKeyMethods &
  UserContactChannelMethods &
  UserSessionMethods &
  UserPermissionMethods &
  UserConnectedAccountMethods;

function oauthProviderFromWire(p: WireClientUser["oauth_providers"][number]): OAuthProviderConnection {
  return typeof p.email === "string" ? { id: p.id, accountId: p.account_id, email: p.email } : { id: p.id, accountId: p.account_id };
}

/**
 * The session `ctx` is bound to, as an admin app acts on a project owner's: looked up on every call rather than
 * kept, so that it stops acting once that session is over.
 */
export function ownerSessionOf(ctx: ClientAppContext): OwnerSession {
  return Object.freeze({
    getTokens: (minMillisLeft?: number) => ctx.sessions().current().getTokens(minMillisLeft),
    markAccessTokenExpired: (accessToken: string) => ctx.sessions().current().markAccessTokenExpired(accessToken),
  });
}

/** The session tokens, for the app's own backend: they need only the app's context. */
function sessionTokenMethods(ctx: ClientAppContext): Omit<Auth, "signOut" | "registerPasskey" | "_internalSession"> {
  const currentSession = {
    async getTokens(options?: CallOptions): Promise<TokenPair> {
      checkAborted(options);
      // The refresh may be shared with other callers: this one only stops waiting.
      const tokens = await untilAborted(ctx.sessions().current().getTokens(), options);
      return { accessToken: tokens?.accessToken ?? null, refreshToken: tokens?.refreshToken ?? null };
    },
  };
  return {
    currentSession: Object.freeze(currentSession),
    async getAuthHeaders(options) {
      return { "x-stack-auth": JSON.stringify(await currentSession.getTokens(options)) };
    },
    getAuthJson: (options) => currentSession.getTokens(options),
    getAccessToken: async (options) => (await currentSession.getTokens(options)).accessToken,
    getRefreshToken: async (options) => (await currentSession.getTokens(options)).refreshToken,
  };
}

/** What every user of one context shares: the methods that need nothing but the context. */
type SharedUserMethods = Omit<
  CurrentUser,
  keyof BaseUser | "currentSession" | "selectedTeam" | "signOut" | "registerPasskey" | "sendVerificationEmail" | "_internalSession"
> &
  Partial<OwnedProjectMethods>;

interface SharedUserParts {
  /** The users' prototype. */
  readonly methods: SharedUserMethods;
  /** An own property of each user (a frozen prototype's property could not be shadowed), so it shows as data does. */
  readonly currentSession: Auth["currentSession"];
}

// Built once per context, not per user: a getUser() answer then costs one object
// with the wire data (issue 13 §5). Keyed weakly, so a context that goes also takes its methods.
const sharedParts = new WeakMap<ClientAppContext, SharedUserParts>();

/** `ownedProjects` is the app's: one app built `ctx`, and hands every user of it the same. */
function sharedPartsOf(ctx: ClientAppContext, ownedProjects: OwnedProjectMethods): SharedUserParts {
  let parts = sharedParts.get(ctx);
  if (parts === undefined) {
    const { currentSession, ...tokenMethods } = sessionTokenMethods(ctx);
    const methods: SharedUserMethods = {
      ...tokenMethods,
      ...profileMethods(ctx),
      ...userTeamMethods(ctx),
      ...userApiKeyMethods(ctx),
      ...userContactChannelMethods(ctx),
      ...userSessionMethods(ctx),
      ...userPermissionMethods(ctx),
      ...userConnectedAccountMethods(ctx),
      ...(ctx.projectId === INTERNAL_PROJECT_ID && {
        createProject: (newProject: AdminProjectCreateOptions & CallOptions) => ownedProjects.createProject(newProject),
        listOwnedProjects: (options?: CallOptions) => ownedProjects.listOwnedProjects(options),
      }),
    };
    // Not enumerable, so a user's fields and methods stay what they were; defined before the methods are frozen.
    Object.defineProperty(methods, "_internalSession", { value: ownerSessionOf(ctx), enumerable: false });
    parts = { methods: Object.freeze(withUserDestructureGuard(methods)), currentSession };
    sharedParts.set(ctx, parts);
  }
  return parts;
}

type Writable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * The CurrentUser of `wire` (the answer of GET /users/me). Users of the
 * internal project also get createProject and listOwnedProjects.
 *
 * The fields, `currentSession`, `selectedTeam` and what depends on this user
 * (signOut, registerPasskey, sendVerificationEmail) are own properties; the
 * other methods are inherited from an object shared by the context's users.
 * Every method is a closure, never reads `this`, and so works detached
 * (`const { listTeams } = user`), as the server's current user uses them.
 */
export function createCurrentUser(ctx: ClientAppContext, wire: WireClientUser, extras: CurrentUserExtras): CurrentUser {
  const shared = sharedPartsOf(ctx, extras.ownedProjects);
  const user: Writable<CurrentUser> = Object.create(shared.methods);
  user.id = wire.id;
  user.displayName = wire.display_name;
  user.primaryEmail = wire.primary_email;
  user.primaryEmailVerified = wire.primary_email_verified;
  user.profileImageUrl = wire.profile_image_url;
  user.signedUpAt = new Date(wire.signed_up_at_millis);
  user.clientMetadata = wire.client_metadata;
  user.clientReadOnlyMetadata = wire.client_read_only_metadata;
  user.hasPassword = wire.has_password;
  user.emailAuthEnabled = wire.auth_with_email;
  user.otpAuthEnabled = wire.otp_auth_enabled;
  user.oauthProviders = wire.oauth_providers.map(oauthProviderFromWire);
  user.passkeyAuthEnabled = wire.passkey_auth_enabled;
  user.isMultiFactorRequired = wire.requires_totp_mfa;
  user.isAnonymous = wire.is_anonymous;
  const restriction = restrictionOf(wire);
  user.isRestricted = restriction.isRestricted;
  user.restrictedReason = restriction.restrictedReason;
  user.currentSession = shared.currentSession;
  user.selectedTeam = wire.selected_team ? createTeamObject(ctx, wire.selected_team) : null;
  user.signOut = (options) => extras.signOut(options);
  user.registerPasskey = (options) => extras.registerPasskey(options);
  user.sendVerificationEmail = sendVerificationEmailOf(ctx, wire.primary_email);
  return Object.freeze(user);
}
