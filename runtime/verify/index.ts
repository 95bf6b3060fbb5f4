// Local verification of access tokens (issue 15 §1). Re-exports only.
export type { AccessTokenClaims } from "./claims.js";
export { AccessTokenInvalidError, isAccessTokenInvalidError, type AccessTokenInvalidReason } from "./errors.js";
export {
  createAccessTokenVerifier,
  verifyAccessToken,
  type AccessTokenVerification,
  type AccessTokenVerifier,
  type AccessTokenVerifierOptions,
  type VerifyAccessTokenCallOptions,
} from "./verify.js";
