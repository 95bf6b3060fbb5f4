// The claims of a verified access token, under the SDK's names. The service has
// written two forms (apps/backend/src/lib/tokens.tsx of each version):
// - 2.8.11: `sub`, `branchId`, `refreshTokenId`, `role`, `iat`, `exp`, `aud` (the
//   project id) and one `iss` for every project;
// - 2.8.86: `sub`, `project_id`, `branch_id`, `refresh_token_id`, `role`, `name`,
//   `email`, `email_verified`, `selected_team_id`, `signed_up_at`,
//   `is_anonymous`, `is_restricted`, `restricted_reason`, `requires_totp_mfa`,
//   `iat`, `exp`, with an audience per kind of user (`<id>`, `<id>:restricted`,
//   `<id>:anon`). Both are read; a claim of the wrong type is "malformed".
import type { JWTPayload } from "jose";
import { AccessTokenInvalidError } from "./errors.js";

/** The kinds of user an access token's audience names: `<id>`, `<id>:restricted` or `<id>:anon`. */
export type AudienceKind = "normal" | "restricted" | "anonymous";

/**
 * Why a user is restricted (an access token's `restricted_reason`): the user is
 * anonymous, their primary e-mail is not verified while the project requires it, or an
 * administrator restricted them. Services newer than this SDK may add types.
 *
 * @example
 * ```ts
 * const result = await verifier.verify(token, { allowRestricted: true });
 * if (result.status === "ok" && result.data.restrictedReason?.type === "email_not_verified") {
 *   return Response.redirect(new URL("/verify-email", request.url));
 * }
 * ```
 */
export interface AccessTokenRestrictedReason {
  /** `"anonymous"`, `"email_not_verified"` or `"restricted_by_administrator"` on 2.8.86. */
  readonly type: "anonymous" | "email_not_verified" | "restricted_by_administrator" | (string & {});
}

/**
 * What a verified access token says, under the SDK's names: the user, the project, the
 * session and the token's times, and what newer services (2.8.86) add about the user.
 * The fields marked optional are absent when the token does not carry the claim (a
 * 2.8.11 token carries none of them).
 */
export interface AccessTokenClaims {
  /** The signed-in user's id (`sub`). */
  readonly userId: string;
  /** The project the token is for (its `aud`, without a `:anon` or `:restricted` suffix; `project_id` when present agrees). */
  readonly projectId: string;
  /** The project's branch (`branch_id`, or 2.8.11's `branchId`); "main" when the token does not say. */
  readonly branchId: string;
  /** The session (`refresh_token_id`, or 2.8.11's `refreshTokenId`: the id `revokeSession` takes); null when the token does not say. */
  readonly sessionId: string | null;
  /**
   * Whether the user is anonymous: the token's audience is the project's anonymous one
   * (`<id>:anon`), or its `is_anonymous` says so. False when neither does (2.8.11's
   * tokens do not tell anonymous users apart).
   */
  readonly isAnonymous: boolean;
  /**
   * Whether the user is restricted (anonymous, an unverified e-mail the project requires
   * verified, or restricted by an administrator): the audience is `<id>:restricted` or
   * `<id>:anon`, or `is_restricted` says so, or the user is anonymous. False otherwise.
   */
  readonly isRestricted: boolean;
  /** Why the user is restricted (`restricted_reason`); null when the token says the user is not. */
  readonly restrictedReason?: AccessTokenRestrictedReason | null;
  /** The user's primary e-mail (`email`); null when the user has none. */
  readonly email?: string | null;
  /** Whether the primary e-mail is verified (`email_verified`). */
  readonly emailVerified?: boolean;
  /** The user's display name (`name`); null when the user has none. */
  readonly name?: string | null;
  /** The team the user selected (`selected_team_id`); null when none is selected. */
  readonly selectedTeamId?: string | null;
  /** Whether the user has TOTP multi-factor authentication on (`requires_totp_mfa`). */
  readonly requiresTotpMfa?: boolean;
  /** When the user signed up (`signed_up_at`, in seconds). */
  readonly signedUpAt?: Date;
  /** When the token was issued (`iat`); null when it does not say. */
  readonly issuedAt: Date | null;
  /** When the token expires (`exp`). */
  readonly expiresAt: Date;
  /** Every claim as the token carries it, for claims not named above. */
  readonly payload: Readonly<JWTPayload>;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** The claims of a payload verified for `projectId` under an audience of `kind`, or a "malformed" error when one has the wrong type. */
export function claimsOf(payload: JWTPayload, projectId: string, kind: AudienceKind): AccessTokenClaims | AccessTokenInvalidError {
  const { sub, exp, iat } = payload;
  if (typeof sub !== "string" || sub === "") return malformed("its `sub` (the user id) is missing or empty");
  if (typeof exp !== "number") return malformed("its `exp` is missing");
  const read = claimReader(payload);
  // The audience was checked against the project; a `project_id` naming another one is a token no service makes.
  const project = read("project_id", "string");
  if (project !== undefined && project !== projectId) return malformed("its `project_id` is not its audience");
  const branch = read("branch_id", "string") ?? read("branchId", "string");
  const session = read("refresh_token_id", "string") ?? read("refreshTokenId", "string");
  const anonymous = read("is_anonymous", "boolean");
  const restricted = read("is_restricted", "boolean");
  const reason = read("restricted_reason", "reason");
  const email = read("email", "string?");
  const emailVerified = read("email_verified", "boolean");
  const name = read("name", "string?");
  const team = read("selected_team_id", "string?");
  const mfa = read("requires_totp_mfa", "boolean");
  const signedUp = read("signed_up_at", "number");
  if (read.error) return read.error;

  // The audience decides what the user is at least; a claim can only add to it.
  const isAnonymous = kind === "anonymous" || anonymous === true;
  const isRestricted = isAnonymous || kind === "restricted" || restricted === true;
  const claims: Mutable<AccessTokenClaims> = {
    userId: sub,
    projectId,
    branchId: branch ?? "main",
    sessionId: session ?? null,
    isAnonymous,
    isRestricted,
    issuedAt: typeof iat === "number" ? new Date(iat * 1000) : null,
    expiresAt: new Date(exp * 1000),
    payload,
  };
  if (reason !== undefined) claims.restrictedReason = reason;
  if (email !== undefined) claims.email = email;
  if (emailVerified !== undefined) claims.emailVerified = emailVerified;
  if (name !== undefined) claims.name = name;
  if (team !== undefined) claims.selectedTeamId = team;
  if (mfa !== undefined) claims.requiresTotpMfa = mfa;
  if (signedUp !== undefined) claims.signedUpAt = new Date(signedUp * 1000);
  return claims;
}

interface ClaimTypes {
  string: string;
  "string?": string | null;
  boolean: boolean;
  number: number;
  reason: AccessTokenRestrictedReason | null;
}

const CLAIM_TYPE_NAMES: { readonly [K in keyof ClaimTypes]: string } = {
  string: "a string",
  "string?": "a string or null",
  boolean: "a boolean",
  number: "a number",
  reason: "an object with a string `type`, or null",
};

interface ClaimReader {
  <K extends keyof ClaimTypes>(name: string, type: K): ClaimTypes[K] | undefined;
  /** The first claim of the wrong type, as a "malformed" error. */
  readonly error: AccessTokenInvalidError | undefined;
}

/** Reads claims of `payload`: undefined when absent, the value when of `type`; the first of another type is kept as `error`. */
function claimReader(payload: JWTPayload): ClaimReader {
  let error: AccessTokenInvalidError | undefined;
  const read = <K extends keyof ClaimTypes>(name: string, type: K): ClaimTypes[K] | undefined => {
    const value = payload[name];
    if (value === undefined) return undefined;
    if (isOfType(value, type)) return value;
    error ??= malformed(`its \`${name}\` is not ${CLAIM_TYPE_NAMES[type]}`);
    return undefined;
  };
  return Object.defineProperty(read, "error", { get: () => error }) as ClaimReader;
}

function isOfType<K extends keyof ClaimTypes>(value: unknown, type: K): value is ClaimTypes[K] {
  switch (type) {
    case "string":
      return typeof value === "string";
    case "string?":
      return value === null || typeof value === "string";
    case "boolean":
      return typeof value === "boolean";
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    default:
      return (
        value === null || (typeof value === "object" && !Array.isArray(value) && typeof (value as { type?: unknown }).type === "string")
      );
  }
}

export function malformed(why: string, cause?: unknown): AccessTokenInvalidError {
  return new AccessTokenInvalidError("malformed", `The access token is malformed: ${why}.`, cause === undefined ? {} : { cause });
}
