// The English words of describeError: a title and a message per code, written
// for the person in front of the app, not for its developer. They never repeat
// the service's own `error` text (which names headers, keys and URLs), and they
// take only numbers from an error (a wait, a password length), so no token,
// address or developer detail can reach the screen through them.
//
// A code that is not here borrows the words of its family (the parents in its
// `codeChain`), then those of its HTTP status (REQUEST_FAILED, SERVER_ERROR).
// Apps translate by passing a map with the same keys (describeError's
// `options.messages`); anything their map leaves out comes from this table.
import type { ErrorMessage, ErrorMessages, MessageParams } from "./types.js";

const SETUP: ErrorMessage = {
  title: "This app isn't set up correctly",
  message: "Please try again later. If this keeps happening, contact the app's support.",
};
const SIGNED_OUT: ErrorMessage = { title: "You've been signed out", message: "Your session has ended. Please sign in again." };
const SIGN_IN_REQUIRED: ErrorMessage = { title: "Please sign in", message: "You need to be signed in to do this." };
const NOT_ALLOWED: ErrorMessage = { title: "Not allowed", message: "You don't have permission to do this." };
const ACCOUNT_NOT_FOUND: ErrorMessage = { title: "Account not found", message: "We couldn't find that account." };
const SHARED_KEYS: ErrorMessage = {
  title: "Not available",
  message: "Connecting accounts from this provider isn't available in this app yet.",
};
const FINISH_ACCOUNT = "Finish setting up your account";
const CLI_FAILED: ErrorMessage = {
  title: "Command-line sign-in failed",
  message: "Start the sign-in from your terminal again.",
};

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** The English title and message of every code `describeError` answers: the default words, and the keys an `ErrorMessages` map of another language gives. */
export const englishErrorMessages = {
  // What happens around the service: the network, its answers, the app itself.
  OFFLINE: { title: "You're offline", message: "Check your internet connection, then try again." },
  NETWORK_ERROR: {
    title: "Can't connect",
    message: "We couldn't reach the sign-in service. Check your internet connection and try again.",
  },
  TIMEOUT: { title: "This is taking too long", message: "The sign-in service didn't answer in time. Please try again." },
  RATE_LIMITED: {
    title: "Too many attempts",
    message: ({ seconds }: MessageParams) =>
      seconds === undefined
        ? "Please wait a moment, then try again."
        : `Please wait ${plural(seconds, "second", "seconds")}, then try again.`,
  },
  SERVICE_UNAVAILABLE: {
    title: "Service unavailable",
    message: "The sign-in service is unavailable right now. Please try again in a few minutes.",
  },
  SERVER_ERROR: { title: "Something went wrong on our side", message: "Please try again in a moment." },
  REQUEST_FAILED: { title: "Something went wrong", message: "We couldn't complete that. Please try again." },
  INVALID_RESPONSE: {
    title: "Something went wrong",
    message: "The sign-in service sent an answer we couldn't read. Please try again later.",
  },
  ABORTED: { title: "Cancelled", message: "The request was cancelled." },
  CONFIGURATION_ERROR: SETUP,
  NOT_SIGNED_IN: SIGN_IN_REQUIRED,
  UNKNOWN_ERROR: { title: "Something went wrong", message: "Please try again. If this keeps happening, contact the app's support." },

  // Signing in and up.
  EMAIL_PASSWORD_MISMATCH: { title: "Wrong e-mail or password", message: "Check your e-mail address and password, then try again." },
  USER_EMAIL_ALREADY_EXISTS: {
    title: "E-mail already in use",
    message: "An account with this e-mail address already exists. Sign in instead, or use another address.",
  },
  CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE: {
    title: "E-mail already in use",
    message: "This e-mail address is already used to sign in to another account.",
  },
  SIGN_UP_NOT_ENABLED: { title: "Sign-up is closed", message: "New accounts can't be created right now." },
  SIGN_UP_REJECTED: {
    title: "Sign-up not possible",
    message: "An account can't be created with these details. Contact the app's support if you think this is a mistake.",
  },
  BOT_CHALLENGE_REQUIRED: { title: "One more check", message: "Please complete the verification check, then try again." },
  BOT_CHALLENGE_FAILED: { title: "Check not passed", message: "We couldn't confirm that you're a person. Please try again." },
  PASSWORD_AUTHENTICATION_NOT_ENABLED: { title: "Password sign-in is off", message: "This app doesn't offer signing in with a password." },
  PASSKEY_AUTHENTICATION_NOT_ENABLED: { title: "Passkeys are off", message: "This app doesn't offer signing in with a passkey." },
  ANONYMOUS_ACCOUNTS_NOT_ENABLED: { title: "Guest access is off", message: "This app can't be used without an account." },
  USER_DOES_NOT_HAVE_PASSWORD: {
    title: "No password on this account",
    message: "This account signs in without a password. Use another sign-in method.",
  },
  MULTI_FACTOR_AUTHENTICATION_REQUIRED: {
    title: "Two-factor authentication",
    message: "Enter the six-digit code from your authenticator app.",
  },
  INVALID_TOTP_CODE: { title: "Wrong code", message: "That code didn't work. Enter the current code from your authenticator app." },

  // Passwords.
  PASSWORD_REQUIREMENTS_NOT_MET: { title: "Password not accepted", message: "Please choose a different password." },
  PASSWORD_TOO_SHORT: {
    title: "Password too short",
    message: ({ minLength }: MessageParams) =>
      minLength === undefined ? "Please choose a longer password." : `Use at least ${plural(minLength, "character", "characters")}.`,
  },
  PASSWORD_TOO_LONG: {
    title: "Password too long",
    message: ({ maxLength }: MessageParams) =>
      maxLength === undefined ? "Please choose a shorter password." : `Use at most ${plural(maxLength, "character", "characters")}.`,
  },
  PASSWORD_CONFIRMATION_MISMATCH: { title: "Wrong current password", message: "The current password you entered isn't right." },

  // E-mail links and codes.
  VERIFICATION_ERROR: { title: "Link not valid", message: "This link or code can't be used any more. Please request a new one." },
  VERIFICATION_CODE_NOT_FOUND: {
    title: "Link not valid",
    message: "This link or code isn't valid. Use the latest e-mail, or request a new one.",
  },
  VERIFICATION_CODE_EXPIRED: { title: "Link expired", message: "This link or code has expired. Please request a new one." },
  VERIFICATION_CODE_ALREADY_USED: { title: "Link already used", message: "This link or code has already been used." },
  VERIFICATION_CODE_MAX_ATTEMPTS_REACHED: {
    title: "Too many tries",
    message: "This code can't be used any more. Please request a new one.",
  },
  EMAIL_ALREADY_VERIFIED: { title: "Already verified", message: "This e-mail address is already verified." },
  EMAIL_NOT_VERIFIED: { title: "E-mail not verified", message: "Please verify your e-mail address first, with the link we sent you." },
  EMAIL_NOT_ASSOCIATED_WITH_USER: { title: "E-mail not found", message: "No account signs in with this e-mail address." },
  EMAIL_IS_NOT_PRIMARY_EMAIL: { title: "Not your primary e-mail", message: "Please use your primary e-mail address for this." },

  // Passkeys.
  PASSKEY_REGISTRATION_FAILED: { title: "Passkey not saved", message: "Your passkey couldn't be registered. Please try again." },
  PASSKEY_AUTHENTICATION_FAILED: {
    title: "Passkey sign-in failed",
    message: "Your passkey couldn't be used to sign in. Try again, or use another method.",
  },
  PASSKEY_WEBAUTHN_ERROR: {
    title: "Passkey request not completed",
    message: "Your device didn't complete the passkey request. Try again, or use another method.",
  },

  // OAuth providers and connected accounts.
  OUTER_OAUTH_TIMEOUT: { title: "Sign-in timed out", message: "The sign-in took too long. Please sign in again." },
  OAUTH_PROVIDER_ACCESS_DENIED: {
    title: "Sign-in cancelled",
    message: "The provider didn't grant access. Try again if you want to continue.",
  },
  OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED: { title: "Provider not available", message: "Signing in with this provider isn't available." },
  OAUTH_PROVIDER_TEMPORARILY_UNAVAILABLE: {
    title: "Provider not answering",
    message: "The sign-in provider isn't responding right now. Please try again in a few minutes.",
  },
  INVALID_AUTHORIZATION_CODE: { title: "Sign-in not completed", message: "This sign-in couldn't be completed. Please sign in again." },
  OAUTH_CONNECTION_ALREADY_CONNECTED_TO_ANOTHER_USER: {
    title: "Account already connected",
    message: "This account is already connected to another user.",
  },
  USER_ALREADY_CONNECTED_TO_ANOTHER_OAUTH_CONNECTION: {
    title: "Already connected",
    message: "You already connected a different account from this provider.",
  },
  OAUTH_CONNECTION_NOT_CONNECTED_TO_USER: { title: "Not connected", message: "This account isn't connected yet." },
  OAUTH_CONNECTION_DOES_NOT_HAVE_REQUIRED_SCOPE: {
    title: "More access needed",
    message: "Connect the account again and allow the access asked for.",
  },
  OAUTH_ACCESS_TOKEN_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS: SHARED_KEYS,
  OAUTH_EXTRA_SCOPE_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS: SHARED_KEYS,

  // Sessions.
  SESSION_AUTHENTICATION_ERROR: SIGNED_OUT,
  REFRESH_TOKEN_ERROR: SIGNED_OUT,
  CANNOT_DELETE_CURRENT_SESSION: {
    title: "This is your current session",
    message: "To end the session on this device, sign out instead.",
  },
  USER_AUTHENTICATION_REQUIRED: SIGN_IN_REQUIRED,
  // Guests and accounts still being set up (service 2.8.86).
  ANONYMOUS_AUTHENTICATION_NOT_ALLOWED: {
    title: "Please sign in",
    message: "You need an account to do this. Sign in or create one, then try again.",
  },
  RESTRICTED_USER_NOT_ALLOWED: {
    title: FINISH_ACCOUNT,
    message: "Your account can't do this yet. Finish setting it up (for example, verify your e-mail address), then try again.",
  },
  CANNOT_GET_OWN_USER_WITHOUT_USER: SIGN_IN_REQUIRED,
  USER_NOT_FOUND: ACCOUNT_NOT_FOUND,
  USER_ID_DOES_NOT_EXIST: ACCOUNT_NOT_FOUND,

  // Teams and permissions.
  TEAM_NOT_FOUND: { title: "Team not found", message: "This team doesn't exist, or you're no longer a member." },
  TEAM_MEMBERSHIP_NOT_FOUND: { title: "Not a member", message: "You're not a member of this team." },
  TEAM_MEMBERSHIP_ALREADY_EXISTS: { title: "Already a member", message: "You're already a member of this team." },
  TEAM_INVITATION_RESTRICTED_USER_NOT_ALLOWED: {
    title: FINISH_ACCOUNT,
    message: "Finish setting up your account (for example, verify your e-mail address) before you accept a team invitation.",
  },
  TEAM_PERMISSION_REQUIRED: NOT_ALLOWED,
  TEAM_PERMISSION_NOT_FOUND: NOT_ALLOWED,
  PROJECT_PERMISSION_REQUIRED: NOT_ALLOWED,

  // API keys.
  API_KEY_NOT_VALID: { title: "Key not valid", message: "This API key can't be used any more." },
  API_KEY_EXPIRED: { title: "Key expired", message: "This API key has expired." },
  API_KEY_REVOKED: { title: "Key revoked", message: "This API key has been revoked." },
  API_KEY_NOT_FOUND: { title: "Key not found", message: "We couldn't find this API key." },

  // Command-line sign-in.
  CLI_AUTH_ERROR: CLI_FAILED,
  INVALID_POLLING_CODE: CLI_FAILED,
  CLI_AUTH_EXPIRED_ERROR: { title: "Request expired", message: "This sign-in request has expired. Start it from your terminal again." },
  CLI_AUTH_USED_ERROR: { title: "Already used", message: "This sign-in request has already been used." },

  // What a person can fix by changing what they typed.
  SCHEMA_ERROR: { title: "Check what you entered", message: "Something in the form isn't valid. Please check it and try again." },
  ALL_OVERLOADS_FAILED: { title: "Check what you entered", message: "Something in the form isn't valid. Please check it and try again." },

  // What only the app's developer can fix: the words say so without the detail.
  PROJECT_AUTHENTICATION_ERROR: SETUP,
  PROJECT_NOT_FOUND: SETUP,
  CURRENT_PROJECT_NOT_FOUND: SETUP,
  BRANCH_DOES_NOT_EXIST: SETUP,
  REDIRECT_URL_NOT_WHITELISTED: SETUP,
  INVALID_OAUTH_CLIENT_ID_OR_SECRET: SETUP,
  INVALID_SCOPE: SETUP,
  BODY_PARSING_ERROR: SETUP,
  UNSUPPORTED_ERROR: {
    title: "Something went wrong",
    message: "Please try again later. If this keeps happening, contact the app's support.",
  },
} as const satisfies ErrorMessages;
