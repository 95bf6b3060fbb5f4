// What server code may set on a user (endpoints.md §C, POST /users and
// PATCH /users/{id}): the reference SDK's option names, sent as the wire's
// snake_case, only the fields given. The reference leaves otp_auth_enabled and
// passkey_auth_enabled out of its server update; here every field is sent.
import type { operations } from "../../../generated/schema.js";
import { requireOptions } from "../call-options.js";
import { StackConfigurationError } from "../../errors.js";
import type { ReadonlyJson } from "../objects/team.js";
import { USER_UPDATE_FIELDS, userUpdateBody, type UserUpdateOptions } from "../objects/user-profile.js";
import { wireFields } from "../wire.js";

type WireUserUpdate = operations["updateUser"]["requestBody"]["content"]["application/json"];
type WireUserCreate = operations["createUser"]["requestBody"]["content"]["application/json"];

/**
 * A user's sign-up risk scores as server code sets them (`riskScores`, wire `risk_scores.sign_up`):
 * integers from 0 to 100, as the service rates sign-ups; services since 2.8.86.
 *
 * @example
 * ```ts
 * const riskScores: SignUpRiskScoresOptions = { signUp: { bot: 61, freeTrialAbuse: 27 } };
 * await app.createUser({ primaryEmail: "imported@example.com", countryCode: "US", riskScores });
 * ```
 */
export interface SignUpRiskScoresOptions {
  /** The scores of the user's sign-up. */
  readonly signUp: {
    /** How likely the sign-up was a bot's, 0 to 100. */
    readonly bot: number;
    /** How likely the sign-up abuses a free trial, 0 to 100. */
    readonly freeTrialAbuse: number;
  };
}

/**
 * What server code may change on a user (`user.update`, `PATCH /users/{id}`): a client's fields plus
 * the e-mail, password and metadata only the server may set; fields left out stay as they are.
 *
 * @example
 * ```ts
 * const options: ServerUserUpdateOptions = {
 *   primaryEmail: "ada@example.com",
 *   primaryEmailVerified: true,
 *   serverMetadata: { plan: "pro" },
 * };
 * await user.update(options);
 * ```
 */
export type ServerUserUpdateOptions = UserUpdateOptions & {
  /** The user's primary e-mail address; `null` removes it. */
  readonly primaryEmail?: string | null;
  /** Whether the primary e-mail counts as verified. */
  readonly primaryEmailVerified?: boolean;
  /** Whether the user may sign in with the primary e-mail (password or one-time code). */
  readonly primaryEmailAuthEnabled?: boolean;
  /** JSON clients may read but not write; it replaces the user's client read-only metadata as a whole. */
  readonly clientReadOnlyMetadata?: ReadonlyJson;
  /** JSON only server code sees; it replaces the user's server metadata as a whole. */
  readonly serverMetadata?: ReadonlyJson;
  /** A new password; `null` removes it. The service ends the user's sessions. */
  readonly password?: string | null;
  /** A password hash in Modular Crypt Format, instead of `password`. */
  readonly passwordHash?: string;
  /** Only `false`: turns an anonymous user into a regular one. */
  readonly isAnonymous?: false;
  /** The two-letter country the user signed up from (`"US"`; trimmed and upper-cased); `null` for none. Services since 2.8.86 (2.8.11 refuses it). */
  readonly countryCode?: string | null;
  /** The sign-up's risk scores. Services since 2.8.86 (2.8.11 refuses them). */
  readonly riskScores?: SignUpRiskScoresOptions;
};

/**
 * What server code makes a user with (`createUser`, `POST /users`); every field is optional, and
 * those left out take the service's defaults.
 *
 * @example
 * ```ts
 * const options: ServerUserCreateOptions = {
 *   primaryEmail: "ada@example.com",
 *   primaryEmailVerified: true,
 *   primaryEmailAuthEnabled: true,
 *   password: "correct horse battery staple",
 *   displayName: "Ada Lovelace",
 * };
 * const user = await app.createUser(options);
 * ```
 */
export type ServerUserCreateOptions = {
  /** The user's primary e-mail address; none when left out or `null`. */
  readonly primaryEmail?: string | null;
  /** Whether the user may sign in with the primary e-mail (password or one-time code). */
  readonly primaryEmailAuthEnabled?: boolean;
  /** The user's password; none when left out (the user then signs in another way). */
  readonly password?: string;
  /** Whether the user may sign in with a one-time code or magic link sent to the primary e-mail. */
  readonly otpAuthEnabled?: boolean;
  /** The user's name; none when left out. */
  readonly displayName?: string;
  /** Whether the primary e-mail counts as verified. */
  readonly primaryEmailVerified?: boolean;
  // `any`, as in the reference, so that code passing its own metadata types compiles unchanged.
  /** JSON the client may read and write. */
  readonly clientMetadata?: any;
  /** JSON clients may read but not write. */
  readonly clientReadOnlyMetadata?: any;
  /** JSON only server code sees. */
  readonly serverMetadata?: any;
  /** The two-letter country the user signed up from (an imported user's; trimmed and upper-cased); none when left out. Services since 2.8.86 (2.8.11 refuses it). */
  readonly countryCode?: string | null;
  /** The sign-up's risk scores; 0 each when left out. Services since 2.8.86 (2.8.11 refuses them). */
  readonly riskScores?: SignUpRiskScoresOptions;
};

/** Key of the options → key of the wire body, for fields sent as they are. */
const UPDATE_FIELDS = {
  ...USER_UPDATE_FIELDS,
  clientReadOnlyMetadata: "client_read_only_metadata",
  serverMetadata: "server_metadata",
  primaryEmail: "primary_email",
  primaryEmailVerified: "primary_email_verified",
  primaryEmailAuthEnabled: "primary_email_auth_enabled",
  password: "password",
  passwordHash: "password_hash",
  isAnonymous: "is_anonymous",
  countryCode: "country_code",
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
  countryCode: "country_code",
} as const satisfies Record<Exclude<keyof ServerUserCreateOptions, "riskScores">, keyof WireUserCreate>;

/** The PATCH /users/{id} body of `options`. */
export function serverUserUpdateToWire(options: ServerUserUpdateOptions): WireUserUpdate {
  requireOptions(options, "user.update", 'the fields to change, e.g. { displayName: "Ada", serverMetadata: { plan: "pro" } }');
  const body = userUpdateBody(options, UPDATE_FIELDS);
  if (options.riskScores !== undefined) body["risk_scores"] = riskScoresToWire(options.riskScores, "user.update");
  return body as WireUserUpdate;
}

/** The POST /users body of `options`. */
export function serverUserCreateToWire(options: ServerUserCreateOptions): WireUserCreate {
  requireOptions(options, "createUser", "{ primaryEmail?, password?, primaryEmailVerified?, primaryEmailAuthEnabled?, displayName?, ... }");
  const body = wireFields(options, CREATE_FIELDS);
  if (options.riskScores !== undefined) body["risk_scores"] = riskScoresToWire(options.riskScores, "createUser");
  return body as WireUserCreate;
}

/** `risk_scores` of `riskScores`, its shape checked: a misspelt key would otherwise be sent as a score of nothing. */
function riskScoresToWire(riskScores: SignUpRiskScoresOptions, method: string) {
  const signUp = (riskScores as { signUp?: { bot?: unknown; freeTrialAbuse?: unknown } } | null)?.signUp;
  if (typeof signUp !== "object" || signUp === null || typeof signUp.bot !== "number" || typeof signUp.freeTrialAbuse !== "number") {
    throw new StackConfigurationError(`${method}: riskScores must be { signUp: { bot, freeTrialAbuse } }, each a number from 0 to 100.`);
  }
  return { sign_up: { bot: signUp.bot, free_trial_abuse: signUp.freeTrialAbuse } };
}
