// What a user does with its own profile and account (SPEC §3 "User"): change
// its fields (`PATCH /users/me`), select a team, delete itself, verify its
// e-mail and set or change its password. Client users and the server's user
// of a request alike; the methods need only the context they act on.
import type { EmailAlreadyVerified, PasswordConfirmationMismatch, PasswordRequirementsNotMet } from "../../../generated/known-errors.js";
import type { operations } from "../../../generated/schema.js";
import { callOf, signalOf, type CallOptions } from "../call-options.js";
import { StackConfigurationError } from "../../errors.js";
import type { ClientAppContext } from "../context.js";
import { setPassword, updatePassword } from "../flows/password.js";
import { errorOf } from "../result-of.js";
import { accessTokenClaimsChanged } from "../token-claims.js";
import { wireFields, type WireNames } from "../wire.js";
import type { ReadonlyJson, Team } from "./team.js";

/**
 * What `user.update` changes (`PATCH /users/me`); fields left out stay as they are.
 *
 * @example
 * ```ts
 * const options: UserUpdateOptions = {
 *   displayName: "Ada Lovelace",
 *   clientMetadata: { theme: "dark" },
 *   selectedTeamId: null,
 * };
 * await user.update(options);
 * ```
 */
export interface UserUpdateOptions {
  /** The user's name; `null` removes it. */
  readonly displayName?: string | null;
  /** The URL of the user's picture; `null` removes it. */
  readonly profileImageUrl?: string | null;
  /** JSON the client may read and write; it replaces the user's client metadata as a whole. */
  readonly clientMetadata?: ReadonlyJson;
  /** The id of the team to select (one the user is a member of); `null` selects none. */
  readonly selectedTeamId?: string | null;
  /** The TOTP secret's bytes; enables TOTP multi-factor sign-in. `null` disables it. */
  readonly totpMultiFactorSecret?: Uint8Array | null;
  /** Whether the user may sign in with a one-time code or magic link sent to the primary e-mail. */
  readonly otpAuthEnabled?: boolean;
  /** Whether the user may sign in with a registered passkey. */
  readonly passkeyAuthEnabled?: boolean;
}

export interface UserProfileMethods {
  readonly selectedTeam: Team | null;
  /**
   * Changes several fields at once (`PATCH /users/me`); only the fields given are sent. This object
   * keeps showing the user as it was read: get the user again to see the change. The session's
   * access token is refreshed on its next use, so that its claims (name, selected team, second
   * factor, restriction) say what the user is now, as in the official SDK.
   *
   * @example
   * ```ts
   * const user = await app.getUser({ or: "throw" });
   * await user.update({ displayName: "Ada Lovelace", profileImageUrl: null });
   * const updated = await app.getUser({ or: "throw" });
   * ```
   */
  update(update: UserUpdateOptions & CallOptions): Promise<void>;
  /**
   * Changes the user's display name (`update({ displayName })`).
   *
   * @example
   * ```ts
   * const user = await app.getUser({ or: "throw" });
   * await user.setDisplayName("Ada Lovelace");
   * ```
   */
  setDisplayName(displayName: string, options?: CallOptions): Promise<void>;
  /**
   * Replaces the user's client metadata as a whole (`update({ clientMetadata })`); merge with the
   * current value yourself to keep other keys.
   *
   * @example
   * ```ts
   * const user = await app.getUser({ or: "throw" });
   * await user.setClientMetadata({ ...user.clientMetadata, theme: "dark" });
   * ```
   */
  setClientMetadata(metadata: ReadonlyJson, options?: CallOptions): Promise<void>;
  /**
   * Selects a team of the user (`update({ selectedTeamId })`): a Team, an object with its id, the id
   * itself, or `null` to select none. Anything else throws a StackConfigurationError.
   *
   * @example
   * ```ts
   * const [first] = await user.listTeams();
   * await user.setSelectedTeam(first ?? null);
   * ```
   */
  setSelectedTeam(team: Team | { readonly id: string } | string | null, options?: CallOptions): Promise<void>;
  /**
   * Deletes the user (the project must allow it); the session ends (`DELETE /users/me`).
   *
   * @example
   * ```ts
   * const user = await app.getUser({ or: "throw" });
   * if (confirm("Delete your account? This cannot be undone.")) {
   *   await user.delete();
   * }
   * ```
   */
  delete(options?: CallOptions): Promise<void>;
}

/** What a user's account does with its e-mail and password, on the client and the server alike. */
export interface UserAccountMethods {
  /**
   * E-mails a verification link to the primary e-mail. As in the reference SDK it
   * answers `undefined`, or returns (does not throw) EmailAlreadyVerified. The link points at
   * `callbackUrl`, by default this app's email-verification page. A user without a primary e-mail
   * gets a StackConfigurationError.
   *
   * @example
   * ```ts
   * const user = await app.getUser({ or: "throw" });
   * const error = await user.sendVerificationEmail();
   * if (error) {
   *   console.log("Already verified:", error.code); // "EMAIL_ALREADY_VERIFIED"
   * }
   * ```
   */
  sendVerificationEmail(options?: { readonly callbackUrl?: string } & CallOptions): Promise<EmailAlreadyVerified | void>;
  /**
   * `undefined` on success; a wrong old password or a refused new one is returned
   * (not thrown), as in the reference SDK. It checks the old password, so it needs
   * the user's own session: a server app can call it on the request's user only.
   * The call is `POST /auth/password/update`; the service ends the user's other sessions.
   *
   * @example
   * ```ts
   * const error = await user.updatePassword({ oldPassword: "correct horse", newPassword: "battery staple 42" });
   * if (error) {
   *   // "PASSWORD_CONFIRMATION_MISMATCH" (wrong old password) or a password requirement code
   *   console.error(error.code, error.message);
   * }
   * ```
   */
  updatePassword(
    options: {
      readonly oldPassword: string;
      readonly newPassword: string;
    } & CallOptions,
  ): Promise<PasswordConfirmationMismatch | PasswordRequirementsNotMet | void>;
  /**
   * Gives a password to a user who has none, for example one who signed up with OAuth
   * (`POST /auth/password/set`). `undefined` on success (the service ends the user's other sessions);
   * a refused password is returned (not thrown), as in the reference SDK.
   *
   * @example
   * ```ts
   * if (!user.hasPassword) {
   *   const error = await user.setPassword({ password: "battery staple 42" });
   *   if (error) console.error("Password refused:", error.message);
   * }
   * ```
   */
  setPassword(options: { readonly password: string } & CallOptions): Promise<PasswordRequirementsNotMet | void>;
}

type WireUserUpdate = operations["updateCurrentUser"]["requestBody"]["content"]["application/json"];

/** The options of `user.update` sent as they are, under their wire names (server code's add theirs: user-options.ts). */
export const USER_UPDATE_FIELDS = {
  displayName: "display_name",
  profileImageUrl: "profile_image_url",
  clientMetadata: "client_metadata",
  selectedTeamId: "selected_team_id",
  otpAuthEnabled: "otp_auth_enabled",
  passkeyAuthEnabled: "passkey_auth_enabled",
} as const satisfies Record<Exclude<keyof UserUpdateOptions, "totpMultiFactorSecret">, keyof WireUserUpdate>;

/** A PATCH /users body of `options`: the given fields `fields` names, and the TOTP secret's bytes as base64. */
export function userUpdateBody(options: UserUpdateOptions, fields: WireNames): Record<string, unknown> {
  const body = wireFields(options, fields);
  const secret = options.totpMultiFactorSecret;
  if (secret !== undefined) {
    if (secret !== null && !(secret instanceof Uint8Array)) {
      throw new StackConfigurationError("totpMultiFactorSecret must be the secret's bytes (a Uint8Array), or null to turn TOTP off.");
    }
    body["totp_secret_base64"] = secret === null ? null : base64(secret);
  }
  return body;
}

function base64(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** The PATCH /users/me body: only the fields given, snake_case. */
function userUpdateToWire(options: UserUpdateOptions): WireUserUpdate {
  if (typeof options !== "object" || options === null) {
    throw new StackConfigurationError('user.update needs an object of the fields to change, e.g. { displayName: "Ada" }.');
  }
  return userUpdateBody(options, USER_UPDATE_FIELDS) as WireUserUpdate;
}

/** A team, its id, or null; anything else would silently clear the selection, so it is refused. */
function selectedTeamIdOf(team: unknown): string | null {
  if (team === null || typeof team === "string") return team;
  if (typeof team === "object" && typeof (team as { id?: unknown }).id === "string") return (team as { id: string }).id;
  throw new StackConfigurationError("setSelectedTeam needs a team (as returned by listTeams() or getTeam()), a team id, or null.");
}

/** The setters of one field that every user has, made of its `update` (the signed-in user's, or server code's). */
export function profileSetters(
  update: (options: UserUpdateOptions & CallOptions) => Promise<void>,
): Pick<UserProfileMethods, "setDisplayName" | "setClientMetadata" | "setSelectedTeam"> {
  return {
    setDisplayName: (displayName, options) => update({ displayName, ...callOf(options) }),
    setClientMetadata: (metadata, options) => update({ clientMetadata: metadata, ...callOf(options) }),
    setSelectedTeam: async (team, options) => update({ selectedTeamId: selectedTeamIdOf(team), ...callOf(options) }),
  };
}

/** The profile and account methods that need only the app's context (sendVerificationEmail needs the user's e-mail). */
export function profileMethods(
  ctx: ClientAppContext,
): Omit<UserProfileMethods, "selectedTeam"> & Omit<UserAccountMethods, "sendVerificationEmail"> {
  const update = async (options: UserUpdateOptions & CallOptions) => {
    await ctx.client.send("PATCH /users/me", { body: userUpdateToWire(options), ...signalOf(options) });
    // The name, selected team or second factor the access token carries may have changed (an empty update re-reads them too).
    accessTokenClaimsChanged(ctx);
  };
  return {
    update,
    ...profileSetters(update),
    async delete(options) {
      // The session that deleted the user ends, even if another sign-in replaced it meanwhile.
      const session = ctx.sessions().current();
      await ctx.client.send("DELETE /users/me", signalOf(options));
      session.invalidate();
    },
    updatePassword: (options) => updatePassword(ctx, options),
    setPassword: (options) => setPassword(ctx, options),
  };
}

/** What sendVerificationEmail throws for a user without a primary e-mail (the signed-in user, or any user for server code). */
export function noPrimaryEmail(): StackConfigurationError {
  return new StackConfigurationError(
    'sendVerificationEmail needs a primary e-mail, and this user has none; add one with createContactChannel({ value, type: "email", usedForAuth, isPrimary: true }).',
  );
}

/** The sendVerificationEmail of a user whose primary e-mail is `email` (`POST /contact-channels/send-verification-code`). */
export function sendVerificationEmailOf(ctx: ClientAppContext, email: string | null): UserAccountMethods["sendVerificationEmail"] {
  return async (options) => {
    if (email === null) {
      throw noPrimaryEmail();
    }
    const callback_url = ctx.absoluteUrl(options?.callbackUrl ?? ctx.urls.emailVerification);
    return errorOf(
      () => ctx.client.send("POST /contact-channels/send-verification-code", { body: { email, callback_url }, ...signalOf(options) }),
      ["EMAIL_ALREADY_VERIFIED"],
    );
  };
}
