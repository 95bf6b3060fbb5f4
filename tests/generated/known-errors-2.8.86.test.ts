// The catalogue against the service's newest public source (2.8.86): every one of its 144 codes
// has its class, HTTP status and parent, and rebuilds the message the service sends from the
// details it sends. The table below is derived from packages/stack-shared/src/known-errors.tsx at
// 2.8.86 (each error built with sample arguments, its wire body recorded), not from openapi/, so
// that the test shows the document agrees with the service rather than with itself.
// Also: a code newer than the catalogue still arrives as a typed UNSUPPORTED_ERROR.
import { describe, expect, it } from "vitest";
import {
  createKnownError,
  isKnownError,
  knownErrorClasses,
  KnownErrors,
  knownErrorStatus,
  UnsupportedError,
  type KnownErrorCode,
} from "../../generated/known-errors.js";
import { knownErrorMessage } from "../../generated/known-error-messages.js";
import { readKnownError } from "../../runtime/http/known-error-answer.js";
import { existsOn, fullDocument } from "../helpers/document-view.js";

type Details = Record<string, unknown> | null;
/** [code, class name, status (0: abstract parent), parent code ("" for none), details sent, message sent]. */
type Row = readonly [code: string, className: string, status: number, parent: string, details?: Details, message?: string];

const CATALOGUE_2_8_86: readonly Row[] = [
  ["UNSUPPORTED_ERROR", "UnsupportedError", 500, "", {"originalErrorCode":"SOME_FUTURE_ERROR"}, "An error occurred that is not currently supported (possibly because it was added in a version of Stack that is newer than this client). The original unsupported error code was: SOME_FUTURE_ERROR"],
  ["BODY_PARSING_ERROR", "BodyParsingError", 400, "", null, "Invalid JSON in request body"],
  ["SCHEMA_ERROR", "SchemaError", 400, "", {"message":"Request validation failed on POST /api/v1/auth/password/sign-in:\n  - body.email must be a valid email"}, "Request validation failed on POST /api/v1/auth/password/sign-in:\n  - body.email must be a valid email"],
  ["ALL_OVERLOADS_FAILED", "AllOverloadsFailed", 400, "", {"overload_errors":[{"code":"SCHEMA_ERROR","error":"Missing body"},{"code":"SCHEMA_ERROR","error":"Wrong type"}]}, "This endpoint has multiple overloads, but they all failed to process the request.\n\n  Overload 1: {\n    \"code\": \"SCHEMA_ERROR\",\n    \"error\": \"Missing body\"\n  }\n  \n  Overload 2: {\n    \"code\": \"SCHEMA_ERROR\",\n    \"error\": \"Wrong type\"\n  }"],
  ["PROJECT_AUTHENTICATION_ERROR", "ProjectAuthenticationError", 0, ""],
  ["INVALID_PROJECT_AUTHENTICATION", "InvalidProjectAuthentication", 0, "PROJECT_AUTHENTICATION_ERROR"],
  ["PROJECT_KEY_WITHOUT_ACCESS_TYPE", "ProjectKeyWithoutAccessType", 400, "INVALID_PROJECT_AUTHENTICATION", null, "Either an API key or an admin access token was provided, but the x-stack-access-type header is missing. Set it to 'client', 'server', or 'admin' as appropriate."],
  ["INVALID_ACCESS_TYPE", "InvalidAccessType", 400, "INVALID_PROJECT_AUTHENTICATION", null, "The x-stack-access-type header must be 'client', 'server', or 'admin', but was 'superuser'."],
  ["ACCESS_TYPE_WITHOUT_PROJECT_ID", "AccessTypeWithoutProjectId", 400, "INVALID_PROJECT_AUTHENTICATION", {"request_type":"client"}, "The x-stack-access-type header was 'client', but the x-stack-project-id header was not provided.\n\nFor more information, see the docs on REST API authentication: https://docs.stack-auth.com/rest-api/overview#authentication"],
  ["ACCESS_TYPE_REQUIRED", "AccessTypeRequired", 400, "INVALID_PROJECT_AUTHENTICATION", null, "You must specify an access level for this Stack project. Make sure project API keys are provided (eg. x-stack-publishable-client-key) and you set the x-stack-access-type header to 'client', 'server', or 'admin'.\n\nFor more information, see the docs on REST API authentication: https://docs.stack-auth.com/rest-api/overview#authentication"],
  ["INSUFFICIENT_ACCESS_TYPE", "InsufficientAccessType", 401, "INVALID_PROJECT_AUTHENTICATION", {"actual_access_type":"client","allowed_access_types":["server","admin"]}, "The x-stack-access-type header must be 'server' or 'admin', but was 'client'."],
  ["INVALID_PUBLISHABLE_CLIENT_KEY", "InvalidPublishableClientKey", 401, "INVALID_PROJECT_AUTHENTICATION", {"project_id":"6f4a3c2e-0b1d-4e5f-9a8b-7c6d5e4f3a2b"}, "The publishable key is not valid for the project \"6f4a3c2e-0b1d-4e5f-9a8b-7c6d5e4f3a2b\". Does the project and/or the key exist?"],
  ["INVALID_SECRET_SERVER_KEY", "InvalidSecretServerKey", 401, "INVALID_PROJECT_AUTHENTICATION", {"project_id":"6f4a3c2e-0b1d-4e5f-9a8b-7c6d5e4f3a2b"}, "The secret server key is not valid for the project \"6f4a3c2e-0b1d-4e5f-9a8b-7c6d5e4f3a2b\". Does the project and/or the key exist?"],
  ["INVALID_SUPER_SECRET_ADMIN_KEY", "InvalidSuperSecretAdminKey", 401, "INVALID_PROJECT_AUTHENTICATION", {"project_id":"6f4a3c2e-0b1d-4e5f-9a8b-7c6d5e4f3a2b"}, "The super secret admin key is not valid for the project \"6f4a3c2e-0b1d-4e5f-9a8b-7c6d5e4f3a2b\". Does the project and/or the key exist?"],
  ["INVALID_ADMIN_ACCESS_TOKEN", "InvalidAdminAccessToken", 0, "INVALID_PROJECT_AUTHENTICATION"],
  ["UNPARSABLE_ADMIN_ACCESS_TOKEN", "UnparsableAdminAccessToken", 401, "INVALID_ADMIN_ACCESS_TOKEN", null, "Admin access token is not parsable."],
  ["ADMIN_ACCESS_TOKEN_EXPIRED", "AdminAccessTokenExpired", 401, "INVALID_ADMIN_ACCESS_TOKEN", {"expired_at_millis":1763683200000}, "Admin access token has expired. Please refresh it and try again. (The access token expired at 2025-11-21T00:00:00.000Z.)"],
  ["INVALID_PROJECT_FOR_ADMIN_ACCESS_TOKEN", "InvalidProjectForAdminAccessToken", 401, "INVALID_ADMIN_ACCESS_TOKEN", null, "Admin access tokens must be created on the internal project."],
  ["ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN", "AdminAccessTokenIsNotAdmin", 401, "INVALID_ADMIN_ACCESS_TOKEN", null, "Admin access token does not have the required permissions to access this project."],
  ["PROJECT_AUTHENTICATION_REQUIRED", "ProjectAuthenticationRequired", 0, "PROJECT_AUTHENTICATION_ERROR"],
  ["CLIENT_AUTHENTICATION_REQUIRED", "ClientAuthenticationRequired", 401, "PROJECT_AUTHENTICATION_REQUIRED", null, "The publishable client key must be provided."],
  ["PUBLISHABLE_CLIENT_KEY_REQUIRED_FOR_PROJECT", "PublishableClientKeyRequiredForProject", 401, "PROJECT_AUTHENTICATION_REQUIRED", {"project_id":"6f4a3c2e-0b1d-4e5f-9a8b-7c6d5e4f3a2b"}, "Publishable client keys are required for this project. Create one in Project Keys, or disable this requirement there to allow keyless client access."],
  ["SERVER_AUTHENTICATION_REQUIRED", "ServerAuthenticationRequired", 401, "PROJECT_AUTHENTICATION_REQUIRED", null, "The secret server key must be provided."],
  ["CLIENT_OR_SERVER_AUTHENTICATION_REQUIRED", "ClientOrServerAuthenticationRequired", 401, "PROJECT_AUTHENTICATION_REQUIRED", null, "Either the publishable client key or the secret server key must be provided."],
  ["CLIENT_OR_ADMIN_AUTHENTICATION_REQUIRED", "ClientOrAdminAuthenticationRequired", 401, "PROJECT_AUTHENTICATION_REQUIRED", null, "Either the publishable client key or the super secret admin key must be provided."],
  ["CLIENT_OR_SERVER_OR_ADMIN_AUTHENTICATION_REQUIRED", "ClientOrServerOrAdminAuthenticationRequired", 401, "PROJECT_AUTHENTICATION_REQUIRED", null, "Either the publishable client key, the secret server key, or the super secret admin key must be provided."],
  ["ADMIN_AUTHENTICATION_REQUIRED", "AdminAuthenticationRequired", 401, "PROJECT_AUTHENTICATION_REQUIRED", null, "The super secret admin key must be provided."],
  ["EXPECTED_INTERNAL_PROJECT", "ExpectedInternalProject", 401, "PROJECT_AUTHENTICATION_ERROR", null, "The project ID is expected to be internal."],
  ["SESSION_AUTHENTICATION_ERROR", "SessionAuthenticationError", 0, ""],
  ["INVALID_SESSION_AUTHENTICATION", "InvalidSessionAuthentication", 0, "SESSION_AUTHENTICATION_ERROR"],
  ["INVALID_ACCESS_TOKEN", "InvalidAccessToken", 0, "INVALID_SESSION_AUTHENTICATION"],
  ["UNPARSABLE_ACCESS_TOKEN", "UnparsableAccessToken", 401, "INVALID_ACCESS_TOKEN", null, "Access token is not parsable."],
  ["ACCESS_TOKEN_EXPIRED", "AccessTokenExpired", 401, "INVALID_ACCESS_TOKEN", {"expired_at_millis":1763683200000,"project_id":"6f4a3c2e-0b1d-4e5f-9a8b-7c6d5e4f3a2b","user_id":"3241a285-8329-4d69-8f3d-316e08cf140c","refresh_token_id":"8d2c4f1a-6b3e-4a7d-9c5f-1e2b3a4d5c6f"}, "Access token has expired. Please refresh it and try again. (The access token expired at 2025-11-21T00:00:00.000Z.) Project ID: 6f4a3c2e-0b1d-4e5f-9a8b-7c6d5e4f3a2b. User ID: 3241a285-8329-4d69-8f3d-316e08cf140c. Refresh token ID: 8d2c4f1a-6b3e-4a7d-9c5f-1e2b3a4d5c6f.\n\nDebug info: Most likely, you fetched the access token before it expired (for example, in a server component, pre-rendered page, or on page load), but then didn't refresh it before it expired. If this is the case, and you're using the SDK, make sure you call getAccessToken() every time you need to use the access token. If you're not using the SDK, make sure you refresh the access token with the refresh endpoint."],
  ["INVALID_PROJECT_FOR_ACCESS_TOKEN", "InvalidProjectForAccessToken", 401, "INVALID_ACCESS_TOKEN", {"expected_project_id":"6f4a3c2e-0b1d-4e5f-9a8b-7c6d5e4f3a2b","actual_project_id":"internal"}, "Access token not valid for this project. Expected project ID \"6f4a3c2e-0b1d-4e5f-9a8b-7c6d5e4f3a2b\", but the token is for project ID \"internal\"."],
  ["REFRESH_TOKEN_ERROR", "RefreshTokenError", 0, ""],
  ["REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED", "RefreshTokenNotFoundOrExpired", 401, "REFRESH_TOKEN_ERROR", null, "Refresh token not found for this project, or the session has expired/been revoked."],
  ["CANNOT_DELETE_CURRENT_SESSION", "CannotDeleteCurrentSession", 400, "REFRESH_TOKEN_ERROR", null, "Cannot delete the current session."],
  ["PROVIDER_REJECTED", "ProviderRejected", 401, "REFRESH_TOKEN_ERROR", null, "The provider refused to refresh their token. This usually means that the provider used to authenticate the user no longer regards this session as valid, and the user must re-authenticate."],
  ["USER_EMAIL_ALREADY_EXISTS", "UserWithEmailAlreadyExists", 409, "", {"email":"ada@example.com","would_work_if_email_was_verified":false}, "A user with email \"ada@example.com\" already exists."],
  ["EMAIL_NOT_VERIFIED", "EmailNotVerified", 400, "", null, "The email is not verified."],
  ["CANNOT_GET_OWN_USER_WITHOUT_USER", "CannotGetOwnUserWithoutUser", 400, "", null, "You have specified 'me' as a userId, but did not provide authentication for a user."],
  ["USER_ID_DOES_NOT_EXIST", "UserIdDoesNotExist", 400, "", {"user_id":"3241a285-8329-4d69-8f3d-316e08cf140c"}, "The given user with the ID 3241a285-8329-4d69-8f3d-316e08cf140c does not exist."],
  ["USER_NOT_FOUND", "UserNotFound", 404, "", null, "User not found."],
  ["RESTRICTED_USER_NOT_ALLOWED", "RestrictedUserNotAllowed", 403, "", {"restricted_reason":{"type":"email_not_verified"}}, "The user in the access token is in restricted state. Reason: email_not_verified. Please pass the X-Stack-Allow-Restricted-User header if this is intended."],
  ["PROJECT_NOT_FOUND", "ProjectNotFound", 404, "", {"project_id":"6f4a3c2e-0b1d-4e5f-9a8b-7c6d5e4f3a2b"}, "Project 6f4a3c2e-0b1d-4e5f-9a8b-7c6d5e4f3a2b not found or is not accessible with the current user."],
  ["CURRENT_PROJECT_NOT_FOUND", "CurrentProjectNotFound", 400, "", {"project_id":"6f4a3c2e-0b1d-4e5f-9a8b-7c6d5e4f3a2b"}, "The current project with ID 6f4a3c2e-0b1d-4e5f-9a8b-7c6d5e4f3a2b was not found. Please check the value of the x-stack-project-id header."],
  ["BRANCH_DOES_NOT_EXIST", "BranchDoesNotExist", 400, "", {"branch_id":"staging"}, "The branch with ID staging does not exist."],
  ["SIGN_UP_NOT_ENABLED", "SignUpNotEnabled", 400, "", null, "Creation of new accounts is not enabled for this project. Please ask the project owner to enable it."],
  ["SIGN_UP_REJECTED", "SignUpRejected", 403, "", {"message":"Your sign up was rejected by an administrator's sign-up rule."}, "Your sign up was rejected by an administrator's sign-up rule."],
  ["BOT_CHALLENGE_REQUIRED", "BotChallengeRequired", 409, "", null, "An additional bot challenge is required before sign-up can continue."],
  ["BOT_CHALLENGE_FAILED", "BotChallengeFailed", 400, "", {"message":"Visible bot challenge verification failed"}, "Visible bot challenge verification failed"],
  ["PASSWORD_AUTHENTICATION_NOT_ENABLED", "PasswordAuthenticationNotEnabled", 400, "", null, "Password authentication is not enabled for this project."],
  ["DATA_VAULT_STORE_DOES_NOT_EXIST", "DataVaultStoreDoesNotExist", 400, "", {"store_id":"store-1"}, "Data vault store with ID store-1 does not exist."],
  ["DATA_VAULT_STORE_HASHED_KEY_DOES_NOT_EXIST", "DataVaultStoreHashedKeyDoesNotExist", 400, "", {"store_id":"store-1","hashed_key":"hash-1"}, "Data vault store with ID store-1 does not contain a key with hash hash-1."],
  ["PASSKEY_AUTHENTICATION_NOT_ENABLED", "PasskeyAuthenticationNotEnabled", 400, "", null, "Passkey authentication is not enabled for this project."],
  ["ANONYMOUS_ACCOUNTS_NOT_ENABLED", "AnonymousAccountsNotEnabled", 400, "", null, "Anonymous accounts are not enabled for this project."],
  ["ANONYMOUS_AUTHENTICATION_NOT_ALLOWED", "AnonymousAuthenticationNotAllowed", 401, "", null, "X-Stack-Access-Token is for an anonymous user, but anonymous users are not enabled. Set the X-Stack-Allow-Anonymous-User header of this request to 'true' to allow anonymous users."],
  ["EMAIL_PASSWORD_MISMATCH", "EmailPasswordMismatch", 400, "", null, "Wrong e-mail or password."],
  ["REDIRECT_URL_NOT_WHITELISTED", "RedirectUrlNotWhitelisted", 400, "", null, "Redirect URL not whitelisted. Did you forget to add this domain to the trusted domains list on the Stack Auth dashboard?"],
  ["PASSWORD_REQUIREMENTS_NOT_MET", "PasswordRequirementsNotMet", 0, ""],
  ["PASSWORD_TOO_SHORT", "PasswordTooShort", 400, "PASSWORD_REQUIREMENTS_NOT_MET", {"min_length":8}, "Password too short. Minimum length is 8."],
  ["PASSWORD_TOO_LONG", "PasswordTooLong", 400, "PASSWORD_REQUIREMENTS_NOT_MET", {"maxLength":70}, "Password too long. Maximum length is 70."],
  ["USER_DOES_NOT_HAVE_PASSWORD", "UserDoesNotHavePassword", 400, "", null, "This user does not have password authentication enabled."],
  ["VERIFICATION_ERROR", "VerificationCodeError", 0, ""],
  ["VERIFICATION_CODE_NOT_FOUND", "VerificationCodeNotFound", 404, "VERIFICATION_ERROR", null, "The verification code does not exist for this project."],
  ["VERIFICATION_CODE_EXPIRED", "VerificationCodeExpired", 400, "VERIFICATION_ERROR", null, "The verification code has expired."],
  ["VERIFICATION_CODE_ALREADY_USED", "VerificationCodeAlreadyUsed", 409, "VERIFICATION_ERROR", null, "The verification link has already been used."],
  ["VERIFICATION_CODE_MAX_ATTEMPTS_REACHED", "VerificationCodeMaxAttemptsReached", 400, "VERIFICATION_ERROR", null, "The verification code nonce has reached the maximum number of attempts. This code is not valid anymore."],
  ["PASSWORD_CONFIRMATION_MISMATCH", "PasswordConfirmationMismatch", 400, "", null, "Passwords do not match."],
  ["EMAIL_ALREADY_VERIFIED", "EmailAlreadyVerified", 409, "", null, "The e-mail is already verified."],
  ["EMAIL_NOT_ASSOCIATED_WITH_USER", "EmailNotAssociatedWithUser", 400, "", null, "The e-mail is not associated with a user that could log in with that e-mail."],
  ["EMAIL_IS_NOT_PRIMARY_EMAIL", "EmailIsNotPrimaryEmail", 400, "", {"email":"ada@example.com","primary_email":"ada@work.example"}, "The given e-mail (ada@example.com) must equal the user's primary e-mail (ada@work.example)."],
  ["PASSKEY_REGISTRATION_FAILED", "PasskeyRegistrationFailed", 400, "", null, "The passkey could not be verified."],
  ["PASSKEY_WEBAUTHN_ERROR", "PasskeyWebAuthnError", 400, "", {"message":"The authenticator was not recognised.","code":"ERROR_AUTHENTICATOR_NOT_FOUND"}, "The authenticator was not recognised."],
  ["PASSKEY_AUTHENTICATION_FAILED", "PasskeyAuthenticationFailed", 400, "", null, "The passkey could not be verified."],
  ["PERMISSION_NOT_FOUND", "PermissionNotFound", 404, "", {"permission_id":"billing_admin"}, "Permission \"billing_admin\" not found. Make sure you created it on the dashboard."],
  ["WRONG_PERMISSION_SCOPE", "PermissionScopeMismatch", 404, "", {"permission_id":"billing_admin","expected_scope":"team","actual_scope":"project"}, "Permission \"billing_admin\" not found. (It was found for a different scope \"project\", but scope \"team\" was expected.)"],
  ["CONTAINED_PERMISSION_NOT_FOUND", "ContainedPermissionNotFound", 400, "", {"permission_id":"billing_admin"}, "Contained permission with ID \"billing_admin\" not found. Make sure you created it on the dashboard."],
  ["TEAM_NOT_FOUND", "TeamNotFound", 404, "", {"team_id":"9c2b7e4a-1f3d-4a6b-8e5c-2d7f9a1b3c5e"}, "Team 9c2b7e4a-1f3d-4a6b-8e5c-2d7f9a1b3c5e not found."],
  ["TEAM_ALREADY_EXISTS", "TeamAlreadyExists", 409, "", {"team_id":"9c2b7e4a-1f3d-4a6b-8e5c-2d7f9a1b3c5e"}, "Team 9c2b7e4a-1f3d-4a6b-8e5c-2d7f9a1b3c5e already exists."],
  ["TEAM_MEMBERSHIP_NOT_FOUND", "TeamMembershipNotFound", 404, "", {"team_id":"9c2b7e4a-1f3d-4a6b-8e5c-2d7f9a1b3c5e","user_id":"3241a285-8329-4d69-8f3d-316e08cf140c"}, "User 3241a285-8329-4d69-8f3d-316e08cf140c is not found in team 9c2b7e4a-1f3d-4a6b-8e5c-2d7f9a1b3c5e."],
  ["TEAM_INVITATION_RESTRICTED_USER_NOT_ALLOWED", "TeamInvitationRestrictedUserNotAllowed", 403, "", {"restricted_reason":{"type":"email_not_verified"}}, "Restricted users cannot accept team invitations. Reason: email_not_verified. Please complete the onboarding process before accepting team invitations."],
  ["EMAIL_TEMPLATE_ALREADY_EXISTS", "EmailTemplateAlreadyExists", 409, "", null, "Email template already exists."],
  ["OAUTH_CONNECTION_NOT_CONNECTED_TO_USER", "OAuthConnectionNotConnectedToUser", 400, "", null, "The OAuth connection is not connected to any user."],
  ["OAUTH_CONNECTION_ALREADY_CONNECTED_TO_ANOTHER_USER", "OAuthConnectionAlreadyConnectedToAnotherUser", 409, "", null, "The OAuth connection is already connected to another user."],
  ["OAUTH_CONNECTION_DOES_NOT_HAVE_REQUIRED_SCOPE", "OAuthConnectionDoesNotHaveRequiredScope", 400, "", null, "The OAuth connection does not have the required scope."],
  ["OAUTH_ACCESS_TOKEN_NOT_AVAILABLE", "OAuthAccessTokenNotAvailable", 400, "", {"provider":"github","details":"The provider did not return a refresh token."}, "Failed to retrieve an OAuth access token for the connected account (provider: github). The provider did not return a refresh token."],
  ["OAUTH_EXTRA_SCOPE_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS", "OAuthExtraScopeNotAvailableWithSharedOAuthKeys", 400, "", null, "Extra scopes are not available with shared OAuth keys. Please add your own OAuth keys on the Stack dashboard to use extra scopes."],
  ["OAUTH_ACCESS_TOKEN_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS", "OAuthAccessTokenNotAvailableWithSharedOAuthKeys", 400, "", null, "Access tokens are not available with shared OAuth keys. Please add your own OAuth keys on the Stack dashboard to use access tokens."],
  ["INVALID_OAUTH_CLIENT_ID_OR_SECRET", "InvalidOAuthClientIdOrSecret", 400, "", {"client_id":"6f4a3c2e-0b1d-4e5f-9a8b-7c6d5e4f3a2b"}, "The OAuth client ID or secret is invalid. The client ID must be equal to the project ID (potentially with a hash and a branch ID), and the client secret must be a publishable client key."],
  ["INVALID_SCOPE", "InvalidScope", 400, "", null, "The scope \"openid admin\" is not a valid OAuth scope for Stack."],
  ["USER_ALREADY_CONNECTED_TO_ANOTHER_OAUTH_CONNECTION", "UserAlreadyConnectedToAnotherOAuthConnection", 409, "", null, "The user is already connected to another OAuth account. Did you maybe selected the wrong account?"],
  ["OUTER_OAUTH_TIMEOUT", "OuterOAuthTimeout", 408, "", null, "The OAuth flow has timed out. Please sign in again."],
  ["OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED", "OAuthProviderNotFoundOrNotEnabled", 400, "", null, "The OAuth provider is not found or not enabled."],
  ["APPLE_BUNDLE_ID_NOT_CONFIGURED", "AppleBundleIdNotConfigured", 400, "", null, "Apple Sign In is enabled, but no Bundle IDs are configured. Please add your app's Bundle ID in the Stack Auth dashboard under OAuth Providers > Apple > Apple Bundle IDs."],
  ["OAUTH_PROVIDER_ACCOUNT_ID_ALREADY_USED_FOR_SIGN_IN", "OAuthProviderAccountIdAlreadyUsedForSignIn", 400, "", null, "A provider with the same account ID is already used for signing in."],
  ["MULTI_FACTOR_AUTHENTICATION_REQUIRED", "MultiFactorAuthenticationRequired", 400, "", {"attempt_code":"attempt-1"}, "Multi-factor authentication is required for this user."],
  ["INVALID_TOTP_CODE", "InvalidTotpCode", 400, "", null, "The TOTP code is invalid. Please try again."],
  ["USER_AUTHENTICATION_REQUIRED", "UserAuthenticationRequired", 401, "", null, "User authentication required for this endpoint."],
  ["TEAM_MEMBERSHIP_ALREADY_EXISTS", "TeamMembershipAlreadyExists", 409, "", null, "Team membership already exists."],
  ["PROJECT_PERMISSION_REQUIRED", "ProjectPermissionRequired", 401, "", {"user_id":"3241a285-8329-4d69-8f3d-316e08cf140c","permission_id":"billing_admin"}, "User 3241a285-8329-4d69-8f3d-316e08cf140c does not have permission billing_admin."],
  ["TEAM_PERMISSION_REQUIRED", "TeamPermissionRequired", 401, "", {"team_id":"9c2b7e4a-1f3d-4a6b-8e5c-2d7f9a1b3c5e","user_id":"3241a285-8329-4d69-8f3d-316e08cf140c","permission_id":"billing_admin"}, "User 3241a285-8329-4d69-8f3d-316e08cf140c does not have permission billing_admin in team 9c2b7e4a-1f3d-4a6b-8e5c-2d7f9a1b3c5e."],
  ["TEAM_PERMISSION_NOT_FOUND", "TeamPermissionNotFound", 401, "", {"team_id":"9c2b7e4a-1f3d-4a6b-8e5c-2d7f9a1b3c5e","user_id":"3241a285-8329-4d69-8f3d-316e08cf140c","permission_id":"billing_admin"}, "User 3241a285-8329-4d69-8f3d-316e08cf140c does not have permission billing_admin in team 9c2b7e4a-1f3d-4a6b-8e5c-2d7f9a1b3c5e."],
  ["INVALID_SHARED_OAUTH_PROVIDER_ID", "InvalidSharedOAuthProviderId", 400, "", {"provider_id":"myspace"}, "The shared OAuth provider with ID myspace is not valid."],
  ["INVALID_STANDARD_OAUTH_PROVIDER_ID", "InvalidStandardOAuthProviderId", 400, "", {"provider_id":"myspace"}, "The standard OAuth provider with ID myspace is not valid."],
  ["INVALID_AUTHORIZATION_CODE", "InvalidAuthorizationCode", 400, "", null, "The given authorization code is invalid."],
  ["INVALID_APPLE_CREDENTIALS", "InvalidAppleCredentials", 400, "", null, "The Apple Sign In credentials could not be verified. Please try signing in again."],
  ["OAUTH_PROVIDER_ACCESS_DENIED", "OAuthProviderAccessDenied", 400, "", null, "The OAuth provider denied access to the user."],
  ["OAUTH_PROVIDER_TEMPORARILY_UNAVAILABLE", "OAuthProviderTemporarilyUnavailable", 503, "", null, "The OAuth provider is temporarily unavailable. Please try signing in again."],
  ["CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE", "ContactChannelAlreadyUsedForAuthBySomeoneElse", 409, "", {"type":"email","contact_channel_value":"ada@example.com","would_work_if_email_was_verified":false}, "This email \"(ada@example.com)\" is already used for authentication by another account."],
  ["INVALID_POLLING_CODE", "InvalidPollingCodeError", 400, "", null, "The polling code is invalid or does not exist."],
  ["CLI_AUTH_ERROR", "CliAuthError", 400, "", null, "The login code is not valid."],
  ["CLI_AUTH_EXPIRED_ERROR", "CliAuthExpiredError", 400, "", null, "CLI authentication request expired. Please try again."],
  ["CLI_AUTH_USED_ERROR", "CliAuthUsedError", 400, "", null, "This authentication token has already been used."],
  ["API_KEY_NOT_VALID", "ApiKeyNotValid", 0, ""],
  ["API_KEY_EXPIRED", "ApiKeyExpired", 401, "API_KEY_NOT_VALID", null, "API key has expired."],
  ["API_KEY_REVOKED", "ApiKeyRevoked", 401, "API_KEY_NOT_VALID", null, "API key has been revoked."],
  ["WRONG_API_KEY_TYPE", "WrongApiKeyType", 400, "API_KEY_NOT_VALID", {"expected_type":"user","actual_type":"team"}, "This endpoint is for user API keys, but a team API key was provided."],
  ["API_KEY_NOT_FOUND", "ApiKeyNotFound", 404, "API_KEY_NOT_VALID", null, "API key not found."],
  ["PUBLIC_API_KEY_CANNOT_BE_REVOKED", "PublicApiKeyCannotBeRevoked", 400, "API_KEY_NOT_VALID", null, "Public API keys cannot be revoked by the secretscanner endpoint."],
  ["PERMISSION_ID_ALREADY_EXISTS", "PermissionIdAlreadyExists", 400, "", {"permission_id":"billing_admin"}, "Permission with ID \"billing_admin\" already exists. Choose a different ID."],
  ["EMAIL_RENDERING_ERROR", "EmailRenderingError", 400, "", {"error":"Subject is required"}, "Failed to render email with theme: Subject is required"],
  ["TEMPLATE_SOURCE_REWRITE_ERROR", "TemplateSourceRewriteError", 400, "", {"error":"Unexpected token"}, "Failed to rewrite template source: Unexpected token"],
  ["REQUIRES_CUSTOM_EMAIL_SERVER", "RequiresCustomEmailServer", 400, "", null, "This action requires a custom SMTP server. Please edit your email server configuration and try again."],
  ["EMAIL_CAPACITY_BOOST_ALREADY_ACTIVE", "EmailCapacityBoostAlreadyActive", 409, "", {"expires_at":"2025-11-22T00:00:00.000Z"}, "Email capacity boost is already active until 2025-11-22T00:00:00.000Z."],
  ["EMAIL_NOT_EDITABLE", "EmailNotEditable", 400, "", {"email_id":"0b7e3f9a-2c4d-4e1f-8a6b-5d3c2e1f4a7b","status":"SENT"}, "Email with ID \"0b7e3f9a-2c4d-4e1f-8a6b-5d3c2e1f4a7b\" cannot be edited because it is in status \"SENT\". Only emails in PAUSED, PREPARING, RENDERING, RENDER_ERROR, SCHEDULED, QUEUED, or SERVER_ERROR status can be edited."],
  ["ITEM_NOT_FOUND", "ItemNotFound", 404, "", {"item_id":"credits"}, "Item with ID \"credits\" not found."],
  ["ITEM_CUSTOMER_TYPE_DOES_NOT_MATCH", "ItemCustomerTypeDoesNotMatch", 400, "", {"item_id":"credits","customer_id":"9c2b7e4a-1f3d-4a6b-8e5c-2d7f9a1b3c5e","item_customer_type":"user","actual_customer_type":"team"}, "The team with ID \"9c2b7e4a-1f3d-4a6b-8e5c-2d7f9a1b3c5e\" is not a valid customer for the item with ID \"credits\". The item is configured to only be available for user customers, but the customer is a team."],
  ["CUSTOMER_DOES_NOT_EXIST", "CustomerDoesNotExist", 400, "", {"customer_id":"9c2b7e4a-1f3d-4a6b-8e5c-2d7f9a1b3c5e"}, "Customer with ID \"9c2b7e4a-1f3d-4a6b-8e5c-2d7f9a1b3c5e\" does not exist."],
  ["SUBSCRIPTION_INVOICE_NOT_FOUND", "SubscriptionInvoiceNotFound", 404, "", {"subscription_invoice_id":"inv-1"}, "Subscription invoice with ID \"inv-1\" does not exist."],
  ["ONE_TIME_PURCHASE_NOT_FOUND", "OneTimePurchaseNotFound", 404, "", {"one_time_purchase_id":"purchase-1"}, "One-time purchase with ID \"purchase-1\" does not exist."],
  ["SUBSCRIPTION_ALREADY_REFUNDED", "SubscriptionAlreadyRefunded", 400, "", {"subscription_id":"sub-1"}, "Subscription with ID \"sub-1\" was already refunded."],
  ["ONE_TIME_PURCHASE_ALREADY_REFUNDED", "OneTimePurchaseAlreadyRefunded", 400, "", {"one_time_purchase_id":"purchase-1"}, "One-time purchase with ID \"purchase-1\" was already refunded."],
  ["TEST_MODE_PURCHASE_NON_REFUNDABLE", "TestModePurchaseNonRefundable", 400, "", null, "Test mode purchases are not refundable."],
  ["PRODUCT_DOES_NOT_EXIST", "ProductDoesNotExist", 400, "", {"product_id":"pro-plan","context":null}, "Product with ID \"pro-plan\" does not exist."],
  ["PRODUCT_CUSTOMER_TYPE_DOES_NOT_MATCH", "ProductCustomerTypeDoesNotMatch", 400, "", {"product_id":"pro-plan","customer_id":"9c2b7e4a-1f3d-4a6b-8e5c-2d7f9a1b3c5e","product_customer_type":"user","actual_customer_type":"team"}, "The team with ID \"9c2b7e4a-1f3d-4a6b-8e5c-2d7f9a1b3c5e\" is not a valid customer for the inline product that has been passed in. The product is configured to only be available for user customers, but the customer is a team."],
  ["PRODUCT_ALREADY_GRANTED", "ProductAlreadyGranted", 400, "", {"product_id":"pro-plan","customer_id":"9c2b7e4a-1f3d-4a6b-8e5c-2d7f9a1b3c5e"}, "Customer with ID \"9c2b7e4a-1f3d-4a6b-8e5c-2d7f9a1b3c5e\" already owns product \"pro-plan\"."],
  ["ITEM_QUANTITY_INSUFFICIENT_AMOUNT", "ItemQuantityInsufficientAmount", 400, "", {"item_id":"credits","customer_id":"9c2b7e4a-1f3d-4a6b-8e5c-2d7f9a1b3c5e","quantity":5}, "The item with ID \"credits\" has an insufficient quantity for the customer with ID \"9c2b7e4a-1f3d-4a6b-8e5c-2d7f9a1b3c5e\". An attempt was made to charge 5 credits."],
  ["STRIPE_ACCOUNT_INFO_NOT_FOUND", "StripeAccountInfoNotFound", 404, "", null, "Stripe account information not found. Please make sure the user has onboarded with Stripe."],
  ["ANALYTICS_QUERY_TIMEOUT", "AnalyticsQueryTimeout", 400, "", {"timeout_ms":5000}, "The query timed out. Please try again with a shorter query or increase the timeout. Timeout was 5000ms."],
  ["ANALYTICS_QUERY_ERROR", "AnalyticsQueryError", 400, "", {"error":"Unknown column 'foo'"}, "Unknown column 'foo'"],
  ["ANALYTICS_NOT_ENABLED", "AnalyticsNotEnabled", 400, "", null, "Analytics is not enabled for this project."],
  ["DEFAULT_PAYMENT_METHOD_REQUIRED", "DefaultPaymentMethodRequired", 400, "", {"customer_type":"team","customer_id":"9c2b7e4a-1f3d-4a6b-8e5c-2d7f9a1b3c5e"}, "No default payment method is set for this customer."],
  ["NEW_PURCHASES_BLOCKED", "NewPurchasesBlocked", 403, "", null, "New purchases are currently blocked for this project. Please contact support for more information."],
];

const MORE_MESSAGES_2_8_86: readonly (readonly [code: string, details: Details, message: string])[] = [
  ["ADMIN_ACCESS_TOKEN_EXPIRED", {"expired_at_millis":null}, "Admin access token has expired. Please refresh it and try again."],
  ["PUBLISHABLE_CLIENT_KEY_REQUIRED_FOR_PROJECT", {"project_id":null}, "Publishable client keys are required for this project. Create one in Project Keys, or disable this requirement there to allow keyless client access."],
  ["ACCESS_TOKEN_EXPIRED", {"expired_at_millis":1763683200000,"project_id":null,"user_id":null,"refresh_token_id":null}, "Access token has expired. Please refresh it and try again. (The access token expired at 2025-11-21T00:00:00.000Z.)\n\nDebug info: Most likely, you fetched the access token before it expired (for example, in a server component, pre-rendered page, or on page load), but then didn't refresh it before it expired. If this is the case, and you're using the SDK, make sure you call getAccessToken() every time you need to use the access token. If you're not using the SDK, make sure you refresh the access token with the refresh endpoint."],
  ["ACCESS_TOKEN_EXPIRED", {"expired_at_millis":null,"project_id":null,"user_id":null,"refresh_token_id":null}, "Access token has expired. Please refresh it and try again.\n\nDebug info: Most likely, you fetched the access token before it expired (for example, in a server component, pre-rendered page, or on page load), but then didn't refresh it before it expired. If this is the case, and you're using the SDK, make sure you call getAccessToken() every time you need to use the access token. If you're not using the SDK, make sure you refresh the access token with the refresh endpoint."],
  ["ACCESS_TOKEN_EXPIRED", {"expired_at_millis":1763683200000,"project_id":null,"user_id":null,"refresh_token_id":null}, "Access token has expired. Please refresh it and try again. (The access token expired at 2025-11-21T00:00:00.000Z.)\n\nDebug info: Most likely, you fetched the access token before it expired (for example, in a server component, pre-rendered page, or on page load), but then didn't refresh it before it expired. If this is the case, and you're using the SDK, make sure you call getAccessToken() every time you need to use the access token. If you're not using the SDK, make sure you refresh the access token with the refresh endpoint."],
  ["USER_EMAIL_ALREADY_EXISTS", {"email":"ada@example.com","would_work_if_email_was_verified":true}, "A user with email \"ada@example.com\" already exists but the email is not verified. Please login to your existing account with the method you used to sign up, and then verify your email to sign in with this login method."],
  ["RESTRICTED_USER_NOT_ALLOWED", {"restricted_reason":{"type":"anonymous"}}, "The user in the access token is in restricted state. Reason: anonymous. Please pass the X-Stack-Allow-Restricted-User header if this is intended."],
  ["RESTRICTED_USER_NOT_ALLOWED", {"restricted_reason":{"type":"restricted_by_administrator"}}, "The user in the access token is in restricted state. Reason: restricted_by_administrator. Please pass the X-Stack-Allow-Restricted-User header if this is intended."],
  ["SIGN_UP_REJECTED", {"message":"Sign-ups from this domain are closed."}, "Sign-ups from this domain are closed."],
  ["INVALID_OAUTH_CLIENT_ID_OR_SECRET", {"client_id":null}, "The OAuth client ID or secret is invalid. The client ID must be equal to the project ID (potentially with a hash and a branch ID), and the client secret must be a publishable client key."],
  ["CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE", {"type":"email","contact_channel_value":null,"would_work_if_email_was_verified":false}, "This email  is already used for authentication by another account."],
  ["CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE", {"type":"email","contact_channel_value":"ada@example.com","would_work_if_email_was_verified":true}, "This email \"(ada@example.com)\" is already used for authentication by another account but the email is not verified. Please login to your existing account with the method you used to sign up, and then verify your email to sign in with this login method."],
  ["CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE", {"type":"email","contact_channel_value":null,"would_work_if_email_was_verified":true}, "This email  is already used for authentication by another account but the email is not verified. Please login to your existing account with the method you used to sign up, and then verify your email to sign in with this login method."],
  ["ITEM_CUSTOMER_TYPE_DOES_NOT_MATCH", {"item_id":"credits","customer_id":"9c2b7e4a-1f3d-4a6b-8e5c-2d7f9a1b3c5e","item_customer_type":null,"actual_customer_type":"team"}, "The team with ID \"9c2b7e4a-1f3d-4a6b-8e5c-2d7f9a1b3c5e\" is not a valid customer for the item with ID \"credits\". The item is missing a customer type field. Please make sure it is set up correctly in your project configuration."],
  ["PRODUCT_DOES_NOT_EXIST", {"product_id":"pro-plan","context":"server_only"}, "Product with ID \"pro-plan\" is marked as server-only and cannot be accessed client side."],
  ["PRODUCT_DOES_NOT_EXIST", {"product_id":"pro-plan","context":"item_exists"}, "Product with ID \"pro-plan\" does not exist, but an item with this ID exists."],
  ["PRODUCT_CUSTOMER_TYPE_DOES_NOT_MATCH", {"product_id":null,"customer_id":"9c2b7e4a-1f3d-4a6b-8e5c-2d7f9a1b3c5e","product_customer_type":null,"actual_customer_type":"team"}, "The team with ID \"9c2b7e4a-1f3d-4a6b-8e5c-2d7f9a1b3c5e\" is not a valid customer for the inline product that has been passed in. The product is missing a customer type field. Please make sure it is set up correctly in your project configuration."],
];

/** Codes whose message the service writes from something it does not send in `details`: only its text can be kept. */
const TEXT_NOT_IN_DETAILS = new Set([
  "INVALID_ACCESS_TYPE",
  "INVALID_SCOPE",
  "CLI_AUTH_ERROR",
  "PASSKEY_REGISTRATION_FAILED",
  "PASSKEY_AUTHENTICATION_FAILED",
]);

const entries = CATALOGUE_2_8_86.map(([code, className, status, parent, details, message]) => ({
  code: code as KnownErrorCode,
  className,
  status,
  parent,
  details: details ?? undefined,
  message: message ?? "",
}));
const parentOf = new Map(entries.map((e) => [e.code, e.parent]));
const chainOf = (code: string): KnownErrorCode[] => {
  const chain = [code];
  for (let parent = parentOf.get(code as KnownErrorCode); parent; parent = parentOf.get(parent as KnownErrorCode)) chain.push(parent);
  return chain as KnownErrorCode[];
};
const concrete = entries.filter((e) => e.status !== 0);
const classOf = (name: string) => KnownErrors[name as keyof typeof KnownErrors];

/** The catalogue's codes that exist on 2.8.86 by the document's own markers (a later code carries a later `x-added-in`). */
const codesOn2886 = Object.entries((fullDocument().components as { schemas: Record<string, Record<string, unknown>> }).schemas)
  .filter(([, schema]) => schema["x-stack-known-error"] !== undefined && existsOn(schema, "2.8.86"))
  .map(([code]) => code);

describe("the catalogue has every code of 2.8.86", () => {
  it("exactly 144 codes in 2.8.86's view, the same as the service's, each with a class", () => {
    expect(new Set(entries.map((e) => e.code)).size).toBe(144);
    expect(codesOn2886.sort()).toEqual(entries.map((e) => e.code).sort());
    for (const { code, className } of entries) expect(knownErrorClasses[code]).toBe(classOf(className));
  });

  it.each(entries)("$code: class $className, status $status, parent $parent", ({ code, className, status, parent }) => {
    const Class = knownErrorClasses[code];
    expect(Class).toBe(classOf(className));
    expect(Class.errorCode).toBe(code);
    expect(knownErrorStatus[code]).toBe(status === 0 ? undefined : status);
    expect(Class.codeChain).toEqual(chainOf(code));
    if (parent) expect(Object.getPrototypeOf(Class)).toBe(knownErrorClasses[parent as KnownErrorCode]);
  });
});

describe("a wire body of 2.8.86 rebuilds", () => {
  it.each(concrete)("$code, keeping the service's message and details", ({ code, className, status, details, message }) => {
    const error = createKnownError(code, details, { status, message });
    expect(error).toBeInstanceOf(classOf(className));
    expect(error.name).toBe(className);
    expect(error.code).toBe(code);
    expect(error.status).toBe(status);
    expect(error.message).toBe(message);
    expect(error.details).toEqual(details);
    for (const family of chainOf(code)) {
      expect(isKnownError(error, family)).toBe(true);
      expect(error).toBeInstanceOf(knownErrorClasses[family]);
    }
  });

  it.each(concrete.filter((e) => !TEXT_NOT_IN_DETAILS.has(e.code)))(
    "$code: knownErrorMessage makes the service's message from the details it sends",
    ({ code, details, message }) => {
      expect(knownErrorMessage(code, details as never)).toBe(message);
    },
  );

  it.each(MORE_MESSAGES_2_8_86)("%s with details %j: knownErrorMessage makes the service's message", (code, details, message) => {
    expect(knownErrorMessage(code as KnownErrorCode, (details ?? undefined) as never)).toBe(message);
  });

  it.each(entries.filter((e) => e.status === 0))(
    "$code, an abstract parent the service never sends, still rebuilds as its class",
    ({ code, className }) => {
      const error = createKnownError(code, undefined, { status: 400, message: "From the service." });
      expect(error).toBeInstanceOf(classOf(className));
      expect(error.message).toBe("From the service.");
    },
  );
});

describe("the codes apps meet on 2.8.86", () => {
  it("ANONYMOUS_AUTHENTICATION_NOT_ALLOWED: a 401 of its own, not a session error", () => {
    const error = createKnownError("ANONYMOUS_AUTHENTICATION_NOT_ALLOWED", undefined, { status: 401 });
    expect(error).toBeInstanceOf(KnownErrors.AnonymousAuthenticationNotAllowed);
    expect(error.errorCode).toBe("ANONYMOUS_AUTHENTICATION_NOT_ALLOWED");
    expect(isKnownError(error, "INVALID_ACCESS_TOKEN")).toBe(false);
  });

  it("RESTRICTED_USER_NOT_ALLOWED: typed restricted_reason", () => {
    const error = createKnownError("RESTRICTED_USER_NOT_ALLOWED", { restricted_reason: { type: "email_not_verified" } }, { status: 403 });
    if (!isKnownError(error, "RESTRICTED_USER_NOT_ALLOWED")) throw new Error("not narrowed");
    const reason: "anonymous" | "email_not_verified" | "restricted_by_administrator" | undefined = error.details?.restricted_reason.type;
    expect(reason).toBe("email_not_verified");
    expect(error.statusCode).toBe(403);
  });

  it("PUBLISHABLE_CLIENT_KEY_REQUIRED_FOR_PROJECT is a PROJECT_AUTHENTICATION_REQUIRED and a PROJECT_AUTHENTICATION_ERROR", () => {
    const error = createKnownError("PUBLISHABLE_CLIENT_KEY_REQUIRED_FOR_PROJECT", { project_id: null }, { status: 401 });
    expect(error).toBeInstanceOf(KnownErrors.ProjectAuthenticationRequired);
    expect(error).toBeInstanceOf(KnownErrors.ProjectAuthenticationError);
    expect(error).not.toBeInstanceOf(KnownErrors.InvalidProjectAuthentication);
  });

  it("old codes whose details grew still take the spec era's details", () => {
    expect(knownErrorMessage("ACCESS_TOKEN_EXPIRED", { expired_at_millis: 1763683200000 })).toBe(
      "Access token has expired. Please refresh it and try again. (The access token expired at 2025-11-21T00:00:00.000Z.)",
    );
    expect(knownErrorMessage("USER_EMAIL_ALREADY_EXISTS", { email: "ada@example.com" })).toBe('A user with email "ada@example.com" already exists.');
    expect(knownErrorMessage("CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE", { type: "email", contact_channel_value: null })).toBe(
      "This email is already used for authentication by another account.",
    );
  });
});

describe("a code newer than the catalogue", () => {
  const body = { code: "PAYMENT_METHOD_EXPIRED", details: { customer_id: "c1", expired_at_millis: 1 }, error: "The card has expired." };

  it("arrives as a typed UNSUPPORTED_ERROR that keeps its code, details, status and text", () => {
    const error = readKnownError(
      { status: 402, headers: new Headers({ "x-stack-known-error": body.code }), text: JSON.stringify(body) },
      "listItems",
    );
    expect(error).toBeInstanceOf(UnsupportedError);
    expect(isKnownError(error, "UNSUPPORTED_ERROR")).toBe(true);
    expect(error?.errorCode).toBe("UNSUPPORTED_ERROR");
    expect(error?.details).toEqual({ originalErrorCode: "PAYMENT_METHOD_EXPIRED" });
    expect((error as UnsupportedError).originalDetails).toEqual(body.details);
    expect(error?.status).toBe(402);
    expect(error?.message).toBe("The card has expired.");
  });

  it("without text, its message names the code", () => {
    const error = readKnownError(
      { status: 400, headers: new Headers({ "x-stack-known-error": body.code }), text: JSON.stringify({ code: body.code }) },
      "listItems",
    );
    expect(error?.message).toBe('UNSUPPORTED_ERROR {"originalErrorCode":"PAYMENT_METHOD_EXPIRED"}');
  });
});
