// Local verification of access tokens: the public names. The verification itself
// (verification.ts, with jose's checks) loads with a verifier's first verify().
export type { AccessTokenClaims, AccessTokenRestrictedReason } from "./claims.js";
export { AccessTokenInvalidError, isAccessTokenInvalidError, type AccessTokenInvalidReason } from "./errors.js";
export {
  createAccessTokenVerifier,
  verifyAccessToken,
  type AccessTokenVerification,
  type AccessTokenVerifier,
  type AccessTokenVerifierOptions,
  type VerifyAccessTokenCallOptions,
} from "./verify.js";
