// Local verification of access tokens (issue 15 §1). Re-exports only.
export type { AccessTokenClaims, AccessTokenRestrictedReason } from "./claims.js";
// Whole-module re-exports (both export only public names): a server app loads the
// verifier on first use, and a named re-export here would pull it into every first load.
export * from "./errors.js";
export * from "./verify.js";
