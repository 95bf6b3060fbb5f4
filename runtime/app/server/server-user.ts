// The reference SDK's ServerUser (SPEC §3 "User": every field of a user plus
// lastActiveAt and serverMetadata), built from the wire ServerUser. Every
// method is a server request about this user's id, never `me`, so it works for
// any user; the request's own user gets the session-bound extras in
// current-user.ts.
import { callOf, checkAborted, requireOptions, signalOf, type CallOptions } from "../call-options.js";
import { StackAssertionError, StackConfigurationError } from "../../errors.js";
import { userApiKeyMethods, type UserApiKeyMethods } from "../objects/api-key.js";
import { userConnectedAccountMethods, type UserConnectedAccountMethods } from "../objects/connected-account.js";
import { createCurrentUser, type BaseUser } from "../objects/user.js";
import { noPrimaryEmail, profileSetters, type UserAccountMethods } from "../objects/user-profile.js";
import { sendChannelVerification } from "../objects/contact-channel.js";
import { errorOf } from "../result-of.js";
import { segment } from "./common.js";
import type { ServerAppContext, WireServerUser } from "./context.js";
import { asServerTeam, createServerTeamObject, type ServerTeam } from "./server-team.js";
import { serverUserContactChannelMethods, type ServerUserContactChannelMethods } from "./user-contact-channels.js";
import { serverUserUpdateToWire, type ServerUserUpdateOptions } from "./user-options.js";
import { serverUserPermissionMethods, type ServerUserPermissionMethods } from "./user-permissions.js";
import { serverUserSessionMethods, type ServerUserSessionMethods } from "./user-sessions.js";
import { serverUserTeamMethods, type ServerUserTeamMethods } from "./user-teams.js";
import { withUserDestructureGuard } from "../objects/user-guard.js";

/** What server code sees of a user beyond its public fields: when it was last active, and its server metadata. */
export interface ServerBaseUser {
  /** When the service last saw the user (wire `last_active_at_millis`). */
  readonly lastActiveAt: Date;
  // `any`, as in the reference, so that code reading its own metadata shape compiles unchanged.
  readonly serverMetadata: any;
  /** Whether an administrator or a sign-up rule restricted the user (2.8.86; false from 2.8.11, which cannot). */
  readonly restrictedByAdmin: boolean;
  /** The reason the user may be shown for that restriction, if any. */
  readonly restrictedByAdminReason: string | null;
  /** What only server code sees of the restriction (which sign-up rule, say). */
  readonly restrictedByAdminPrivateDetails: string | null;
  /** The two-letter country the user signed up from, as far as the service could tell (2.8.86; null from 2.8.11). */
  readonly countryCode: string | null;
  /**
   * How the service rated the sign-up, each score from 0 to 100 (2.8.86). A 2.8.11 service rates
   * nothing: its users read 0, as 2.8.86 reads users made before it rated sign-ups.
   */
  readonly riskScores: { readonly signUp: { readonly bot: number; readonly freeTrialAbuse: number } };
}

/** The server-only fields of `wire` that 2.8.86 added, read as 2.8.11 would have them when absent. */
function serverFieldsOf(wire: WireServerUser): Omit<ServerBaseUser, "lastActiveAt" | "serverMetadata"> {
  const signUp = wire.risk_scores?.sign_up;
  return {
    restrictedByAdmin: wire.restricted_by_admin ?? false,
    restrictedByAdminReason: wire.restricted_by_admin_reason ?? null,
    restrictedByAdminPrivateDetails: wire.restricted_by_admin_private_details ?? null,
    countryCode: wire.country_code ?? null,
    riskScores: Object.freeze({ signUp: Object.freeze({ bot: signUp?.bot ?? 0, freeTrialAbuse: signUp?.free_trial_abuse ?? 0 }) }),
  };
}

export interface ServerUserProfileMethods {
  readonly selectedTeam: ServerTeam | null;
  /**
   * Changes several fields at once (`PATCH /users/{id}`), server-only fields included; only the fields
   * given are sent. This object keeps showing the user as it was read: get the user again to see the change.
   *
   * @example
   * ```ts
   * const user = await app.getUser(userId);
   * if (user === null) throw new Error("No such user");
   * await user.update({ displayName: "Ada Lovelace", primaryEmailVerified: true, serverMetadata: { plan: "pro" } });
   * ```
   */
  update(update: ServerUserUpdateOptions & CallOptions): Promise<void>;
  /**
   * Changes the user's display name (`update({ displayName })`).
   *
   * @example
   * ```ts
   * const user = await app.getUser(userId);
   * await user?.setDisplayName("Ada Lovelace");
   * ```
   */
  setDisplayName(displayName: string, options?: CallOptions): Promise<void>;
  /**
   * Replaces the user's client metadata as a whole (`update({ clientMetadata })`); merge with the
   * current value yourself to keep other keys.
   *
   * @example
   * ```ts
   * const user = await app.getUser(userId);
   * if (user !== null) {
   *   await user.setClientMetadata({ ...user.clientMetadata, theme: "dark" });
   * }
   * ```
   */
  setClientMetadata(metadata: any, options?: CallOptions): Promise<void>;
  /**
   * Replaces the metadata clients may read but not write (`update({ clientReadOnlyMetadata })`), as a
   * whole; merge with the current value yourself to keep other keys.
   *
   * @example
   * ```ts
   * const user = await app.getUser(userId);
   * if (user !== null) {
   *   await user.setClientReadOnlyMetadata({ ...user.clientReadOnlyMetadata, plan: "pro" });
   * }
   * ```
   */
  setClientReadOnlyMetadata(metadata: any, options?: CallOptions): Promise<void>;
  /**
   * Replaces the metadata only server code sees (`update({ serverMetadata })`), as a whole; merge
   * with the current value yourself to keep other keys.
   *
   * @example
   * ```ts
   * const user = await app.getUser(userId);
   * if (user !== null) {
   *   await user.setServerMetadata({ ...user.serverMetadata, stripeCustomerId: "cus_123" });
   * }
   * ```
   */
  setServerMetadata(metadata: any, options?: CallOptions): Promise<void>;
  /**
   * Changes the user's primary e-mail (`update({ primaryEmail })`), and with `verified` whether it
   * counts as verified; `null` removes it. An address another user has is thrown as
   * UserWithEmailAlreadyExists.
   *
   * @example
   * ```ts
   * const user = await app.getUser(userId);
   * await user?.setPrimaryEmail("ada@example.com", { verified: true });
   * ```
   */
  setPrimaryEmail(email: string | null, options?: { readonly verified?: boolean | undefined } & CallOptions): Promise<void>;
  /**
   * Selects one of the user's teams (`update({ selectedTeamId })`): a team, its id, or null for none.
   * A team the user is not a member of is thrown as TeamMembershipNotFound.
   *
   * @example
   * ```ts
   * const user = await app.getUser(userId);
   * const [first] = (await user?.listTeams()) ?? [];
   * await user?.setSelectedTeam(first ?? null);
   * ```
   */
  setSelectedTeam(team: { readonly id: string } | string | null, options?: CallOptions): Promise<void>;
  /**
   * Deletes the user (`DELETE /users/{id}`). On the request's own user (from `getUser()`), its
   * session ends as well.
   *
   * @example
   * ```ts
   * const user = await app.getUser(userId);
   * if (user !== null) {
   *   await user.delete();
   * }
   * ```
   */
  delete(options?: CallOptions): Promise<void>;
}

/**
 * Any user of the project as server code sees it (`serverApp.getUser(id)`, `listUsers()`): every field,
 * server metadata included, and the methods that change the user, their teams, API keys, contact
 * channels, sessions, permissions and connected accounts, acting by the user's id.
 *
 * @interface
 */
export type ServerUser = BaseUser &
  ServerBaseUser &
  ServerUserProfileMethods &
  UserAccountMethods &
  ServerUserTeamMethods &
  UserApiKeyMethods &
  ServerUserContactChannelMethods &
  ServerUserSessionMethods &
  ServerUserPermissionMethods &
  UserConnectedAccountMethods;

/** Narrows a user answer of a server call to the server view. */
export function asServerUser(wire: unknown, call: string): WireServerUser {
  if (typeof (wire as { last_active_at_millis?: unknown } | null)?.last_active_at_millis !== "number") {
    throw new StackAssertionError(`${call} answered a user without last_active_at_millis (the client view) to a server request`);
  }
  return wire as WireServerUser;
}

/** The fields every user has, mapped as the client maps them. */
function baseUserOf(ctx: ServerAppContext, wire: WireServerUser): BaseUser {
  const noSession = async () => {
    throw new StackConfigurationError("Only the user of a session can do this; use the user returned by getUser().");
  };
  const user = createCurrentUser(ctx, wire, {
    signOut: noSession,
    registerPasskey: noSession,
    ownedProjects: { createProject: noSession, listOwnedProjects: noSession },
  });
  return {
    id: user.id,
    displayName: user.displayName,
    primaryEmail: user.primaryEmail,
    primaryEmailVerified: user.primaryEmailVerified,
    profileImageUrl: user.profileImageUrl,
    signedUpAt: user.signedUpAt,
    clientMetadata: user.clientMetadata,
    clientReadOnlyMetadata: user.clientReadOnlyMetadata,
    hasPassword: user.hasPassword,
    emailAuthEnabled: user.emailAuthEnabled,
    otpAuthEnabled: user.otpAuthEnabled,
    oauthProviders: user.oauthProviders,
    passkeyAuthEnabled: user.passkeyAuthEnabled,
    isMultiFactorRequired: user.isMultiFactorRequired,
    isAnonymous: user.isAnonymous,
    isRestricted: user.isRestricted,
    restrictedReason: user.restrictedReason,
  };
}

function profileMethods(ctx: ServerAppContext, wire: WireServerUser): ServerUserProfileMethods & UserAccountMethods {
  const params = { path: { user_id: segment(wire.id, "ServerUser", "the user's id") } };
  const update = async (options: ServerUserUpdateOptions & CallOptions) => {
    await ctx.client.send("PATCH /users/{user_id}", { params, body: serverUserUpdateToWire(options), ...signalOf(options) });
  };
  const channels = serverUserContactChannelMethods(ctx, wire.id);
  return {
    selectedTeam: wire.selected_team ? createServerTeamObject(ctx, asServerTeam(wire.selected_team, "The user's selected_team")) : null,
    update,
    ...profileSetters(update),
    setClientReadOnlyMetadata: (metadata, options) => update({ clientReadOnlyMetadata: metadata, ...callOf(options) }),
    setServerMetadata: (metadata, options) => update({ serverMetadata: metadata, ...callOf(options) }),
    setPrimaryEmail: (email, options) =>
      update({
        primaryEmail: email,
        ...(options?.verified !== undefined && { primaryEmailVerified: options.verified }),
        ...callOf(options),
      }),
    async delete(options) {
      await ctx.client.send("DELETE /users/{user_id}", { params, body: {}, ...signalOf(options) });
    },
    async sendVerificationEmail(options) {
      // Server code has no `me`: the e-mail goes through the primary e-mail's contact channel.
      const primary = (await channels.listContactChannels(callOf(options))).find((c) => c.isPrimary && c.type === "email");
      if (!primary) {
        throw noPrimaryEmail();
      }
      return sendChannelVerification(ctx, wire.id, primary.id, options?.callbackUrl, options);
    },
    async updatePassword(options) {
      checkAborted(options);
      throw new StackConfigurationError(
        "updatePassword checks the old password and so needs the user's own session: call it on the user from getUser() (with that user's tokenStore), or set a new password with user.setPassword({ password }).",
      );
    },
    async setPassword(options) {
      requireOptions(options, "user.setPassword", "{ password }");
      return errorOf(() => update({ password: options.password, ...callOf(options) }), ["PASSWORD_REQUIREMENTS_NOT_MET"]);
    },
  };
}

/** The ServerUser of `wire` (a user as a server call answers it). */
export function createServerUser(ctx: ServerAppContext, wire: WireServerUser): ServerUser {
  const userId = wire.id;
  const user: ServerUser = {
    ...baseUserOf(ctx, wire),
    lastActiveAt: new Date(wire.last_active_at_millis),
    serverMetadata: wire.server_metadata ?? null,
    ...serverFieldsOf(wire),
    ...profileMethods(ctx, wire),
    ...serverUserTeamMethods(ctx, userId),
    ...userApiKeyMethods(ctx, userId),
    ...serverUserContactChannelMethods(ctx, userId),
    ...serverUserSessionMethods(ctx, userId),
    ...serverUserPermissionMethods(ctx, userId),
    ...userConnectedAccountMethods(ctx, userId),
  };
  return Object.freeze(withUserDestructureGuard(user));
}
