// The claims of a verified access token, under the SDK's names. The service
// sets (emulator/engine/tokens.ts mirrors it): `sub` (the user), `aud` and
// `project_id` (the project), `branch_id`, `refresh_token_id` (the session:
// what `revokeSession` takes), `role`, `is_anonymous`, `iat`, `exp`, `iss`.
import type { JWTPayload } from "jose";
import { AccessTokenInvalidError } from "./errors.js";

/** What a verified access token says, under the SDK's names: the user, the project, the session and the token's times. */
export interface AccessTokenClaims {
  /** The signed-in user's id (`sub`). */
  readonly userId: string;
  /** The project the token is for (`aud`, and `project_id` when present). */
  readonly projectId: string;
  /** The project's branch (`branch_id`); "main" when the token does not say. */
  readonly branchId: string;
  /** The session (`refresh_token_id`, the id `revokeSession` takes); null when the token does not say. */
  readonly sessionId: string | null;
  /** Whether the user is anonymous (`is_anonymous`); false when the token does not say. */
  readonly isAnonymous: boolean;
  /** When the token was issued (`iat`); null when it does not say. */
  readonly issuedAt: Date | null;
  /** When the token expires (`exp`). */
  readonly expiresAt: Date;
  /** Every claim as the token carries it, for claims not named above. */
  readonly payload: Readonly<JWTPayload>;
}

/** The claims of a verified payload, or a "malformed" error when one has the wrong type. */
export function claimsOf(payload: JWTPayload, projectId: string): AccessTokenClaims | AccessTokenInvalidError {
  const { sub, exp, iat } = payload;
  const claim = (name: string): unknown => payload[name];
  if (typeof sub !== "string" || sub === "") return malformed("its `sub` (the user id) is missing or empty");
  if (typeof exp !== "number") return malformed("its `exp` is missing");
  const projectClaim = claim("project_id");
  // `aud` was checked against the project; a `project_id` naming another one is a token no service makes.
  if (projectClaim !== undefined && projectClaim !== projectId) return malformed("its `project_id` is not its audience");
  const branch = claim("branch_id");
  const session = claim("refresh_token_id");
  const anonymous = claim("is_anonymous");
  if (branch !== undefined && typeof branch !== "string") return malformed("its `branch_id` is not a string");
  if (session !== undefined && typeof session !== "string") return malformed("its `refresh_token_id` is not a string");
  if (anonymous !== undefined && typeof anonymous !== "boolean") return malformed("its `is_anonymous` is not a boolean");
  return {
    userId: sub,
    projectId,
    branchId: branch ?? "main",
    sessionId: session ?? null,
    isAnonymous: anonymous ?? false,
    issuedAt: typeof iat === "number" ? new Date(iat * 1000) : null,
    expiresAt: new Date(exp * 1000),
    payload,
  };
}

export function malformed(why: string, cause?: unknown): AccessTokenInvalidError {
  return new AccessTokenInvalidError("malformed", `The access token is malformed: ${why}.`, cause === undefined ? {} : { cause });
}
