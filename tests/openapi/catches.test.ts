// Each operation lists at least the known errors the reference SDK turns into a
// result value: the "Known errors -> value" column of reference/endpoints.md,
// typed in here by hand, with each "family" expanded to its leaf codes.
import { describe, expect, it } from "vitest";
import { operations } from "../fixtures/document.js";

const VERIFICATION = ["VERIFICATION_CODE_NOT_FOUND", "VERIFICATION_CODE_EXPIRED", "VERIFICATION_CODE_ALREADY_USED", "VERIFICATION_CODE_MAX_ATTEMPTS_REACHED"];
const PASSWORD_REQUIREMENTS = ["PASSWORD_TOO_SHORT", "PASSWORD_TOO_LONG"];
const REFRESH_TOKEN = ["REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED", "PROVIDER_REJECTED"];
const API_KEY_NOT_VALID = ["API_KEY_EXPIRED", "API_KEY_REVOKED", "WRONG_API_KEY_TYPE", "API_KEY_NOT_FOUND", "PUBLIC_API_KEY_CANNOT_BE_REVOKED"];

const catches: [operationId: string, codes: string[]][] = [
  ["exchangeOAuthToken", [...REFRESH_TOKEN, "MULTI_FACTOR_AUTHENTICATION_REQUIRED"]],
  ["sendPasswordResetCode", ["USER_NOT_FOUND"]],
  ["sendEmailVerificationCode", ["EMAIL_ALREADY_VERIFIED"]],
  ["sendMagicLinkCode", ["REDIRECT_URL_NOT_WHITELISTED"]],
  ["resetPassword", VERIFICATION],
  ["checkPasswordResetCode", VERIFICATION],
  ["updatePassword", ["PASSWORD_CONFIRMATION_MISMATCH", ...PASSWORD_REQUIREMENTS]],
  ["setPassword", PASSWORD_REQUIREMENTS],
  ["verifyEmail", VERIFICATION],
  ["registerPasskey", ["PASSKEY_REGISTRATION_FAILED"]],
  ["signInWithPasskey", ["PASSKEY_AUTHENTICATION_FAILED"]],
  ["acceptTeamInvitation", VERIFICATION],
  ["checkTeamInvitationCode", VERIFICATION],
  ["getTeamInvitationDetails", VERIFICATION],
  ["signInWithPassword", ["EMAIL_PASSWORD_MISMATCH"]],
  ["signUpWithPassword", ["USER_EMAIL_ALREADY_EXISTS", ...PASSWORD_REQUIREMENTS]],
  ["signInWithMagicLink", VERIFICATION],
  ["signOutCurrentSession", ["REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED"]],
  ["getCurrentUser", ["CANNOT_GET_OWN_USER_WITHOUT_USER"]],
  ["getCurrentProject", ["PROJECT_NOT_FOUND"]],
  ["createConnectedAccountAccessToken", ["OAUTH_CONNECTION_DOES_NOT_HAVE_REQUIRED_SCOPE", "OAUTH_CONNECTION_NOT_CONNECTED_TO_USER"]],
  ["sendContactChannelVerificationCode", ["EMAIL_ALREADY_VERIFIED"]],
  ["completeCliLogin", ["SCHEMA_ERROR"]],
  ["checkUserApiKey", API_KEY_NOT_VALID],
  ["checkTeamApiKey", API_KEY_NOT_VALID],
  ["getUser", ["USER_NOT_FOUND"]],
  ["deleteSession", ["CANNOT_DELETE_CURRENT_SESSION"]],
  ["pollCliLogin", ["INVALID_POLLING_CODE"]],
  ["signInWithMfa", ["INVALID_TOTP_CODE"]],
];

const byId = new Map(operations.map((o) => [o.op.operationId, o.op]));

describe("known errors a caller turns into a value", () => {
  it.each(catches)("%s lists them", (operationId, codes) => {
    expect(byId.get(operationId)?.["x-stack-known-errors"]).toEqual(expect.arrayContaining(codes));
  });
});
