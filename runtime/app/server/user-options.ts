// What server code may set on a user (endpoints.md §C, POST /users and
// PATCH /users/{id}): the reference SDK's option names, sent as the wire's
// snake_case, only the fields given. The reference leaves otp_auth_enabled and
// passkey_auth_enabled out of its server update; here every field is sent.
import type { operations } from "../../../generated/schema.js";
import { StackConfigurationError } from "../../errors.js";
import type { ReadonlyJson } from "../objects/team.js";
import type { UserUpdateOptions } from "../objects/user.js";
import { requireOptions } from "./common.js";

type WireUserUpdate = operations["updateUser"]["requestBody"]["content"]["application/json"];
type WireUserCreate = operations["createUser"]["requestBody"]["content"]["application/json"];

export type ServerUserUpdateOptions = UserUpdateOptions & {
  readonly primaryEmail?: string | null;
  readonly primaryEmailVerified?: boolean;
  /** Whether the user may sign in with the primary e-mail (password or one-time code). */
  readonly primaryEmailAuthEnabled?: boolean;
  readonly clientReadOnlyMetadata?: ReadonlyJson;
  readonly serverMetadata?: ReadonlyJson;
  /** A new password; `null` removes it. The service ends the user's sessions. */
  readonly password?: string | null;
  /** A password hash in Modular Crypt Format, instead of `password`. */
  readonly passwordHash?: string;
  /** Only `false`: turns an anonymous user into a regular one. */
  readonly isAnonymous?: false;
};

export type ServerUserCreateOptions = {
  readonly primaryEmail?: string | null;
  readonly primaryEmailAuthEnabled?: boolean;
  readonly password?: string;
  readonly otpAuthEnabled?: boolean;
  readonly displayName?: string;
  readonly primaryEmailVerified?: boolean;
  // `any`, as in the reference, so that code passing its own metadata types compiles unchanged.
  readonly clientMetadata?: any;
  readonly clientReadOnlyMetadata?: any;
  readonly serverMetadata?: any;
};

/** Key of the options → key of the wire body, for fields sent as they are. */
const UPDATE_FIELDS = {
  displayName: "display_name",
  profileImageUrl: "profile_image_url",
  clientMetadata: "client_metadata",
  clientReadOnlyMetadata: "client_read_only_metadata",
  serverMetadata: "server_metadata",
  selectedTeamId: "selected_team_id",
  otpAuthEnabled: "otp_auth_enabled",
  passkeyAuthEnabled: "passkey_auth_enabled",
  primaryEmail: "primary_email",
  primaryEmailVerified: "primary_email_verified",
  primaryEmailAuthEnabled: "primary_email_auth_enabled",
  password: "password",
  passwordHash: "password_hash",
  isAnonymous: "is_anonymous",
} as const satisfies Partial<Record<keyof ServerUserUpdateOptions, keyof WireUserUpdate>>;

const CREATE_FIELDS = {
  primaryEmail: "primary_email",
  primaryEmailAuthEnabled: "primary_email_auth_enabled",
  password: "password",
  otpAuthEnabled: "otp_auth_enabled",
  displayName: "display_name",
  primaryEmailVerified: "primary_email_verified",
  clientMetadata: "client_metadata",
  clientReadOnlyMetadata: "client_read_only_metadata",
  serverMetadata: "server_metadata",
} as const satisfies Record<keyof ServerUserCreateOptions, keyof WireUserCreate>;

/** The PATCH /users/{id} body of `options`. */
export function serverUserUpdateToWire(options: ServerUserUpdateOptions): WireUserUpdate {
  requireOptions(options, "user.update", 'the fields to change, e.g. { displayName: "Ada", serverMetadata: { plan: "pro" } }');
  const body: Record<string, unknown> = renamed(options, UPDATE_FIELDS);
  const secret = options.totpMultiFactorSecret;
  if (secret !== undefined) {
    if (secret !== null && !(secret instanceof Uint8Array)) {
      throw new StackConfigurationError("totpMultiFactorSecret must be the secret's bytes (a Uint8Array), or null to turn TOTP off.");
    }
    body["totp_secret_base64"] = secret === null ? null : base64(secret);
  }
  return body as WireUserUpdate;
}

/** The POST /users body of `options`. */
export function serverUserCreateToWire(options: ServerUserCreateOptions): WireUserCreate {
  requireOptions(options, "createUser", "{ primaryEmail?, password?, primaryEmailVerified?, primaryEmailAuthEnabled?, displayName?, ... }");
  return renamed(options, CREATE_FIELDS) as WireUserCreate;
}

/** The given (not undefined) fields of `options` under their wire names. */
function renamed(options: object, fields: Readonly<Record<string, string>>): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const [key, wireKey] of Object.entries(fields)) {
    const value = (options as Record<string, unknown>)[key];
    if (value !== undefined) body[wireKey] = value;
  }
  return body;
}

function base64(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}
