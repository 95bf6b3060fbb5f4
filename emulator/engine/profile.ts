// The service version the emulator answers as. Apps meet two: 2.8.11, the
// version the spec was written from, and 2.8.86, what the hosted service runs
// (the default). Everything that differs between them is decided here, as a
// profile the engine and the handlers read; no handler tests the version
// itself. Facts from the service's public source at both versions (request
// gate, tokens, anonymous sign-up).

import type { OperationId } from "../../generated/operations.js";
import { KNOWN_QUERY_2_8_11, KNOWN_QUERY_2_8_86, type KnownQuery } from "./query-policy.js";

/** The service versions the emulator can answer as. */
export const SERVICE_VERSIONS = ["2.8.11", "2.8.86"] as const;

/** A service version the emulator can answer as: `"2.8.11"` (the spec's) or `"2.8.86"` (today's hosted service). */
export type ServiceVersion = (typeof SERVICE_VERSIONS)[number];

/** The version the emulator answers as unless told otherwise: 2.8.86, what apps meet in production. */
export const DEFAULT_SERVICE_VERSION: ServiceVersion = "2.8.86";

/** How a version signs access tokens and publishes their keys. */
export type AccessTokenForm =
  /**
   * 2.8.11: one issuer for every project (`https://access-token.jwt-signature.stack-auth.com`), `aud` the project
   * id, camelCase `branchId` / `refreshTokenId`; the key set holds the project's one key, whatever the query says.
   */
  | "global-issuer"
  /**
   * 2.8.86: an issuer and an audience per kind of user (normal, restricted, anonymous), snake_case claims about the
   * user; two keys per audience, the restricted and anonymous audiences' only when the query asks for them.
   */
  | "per-audience";

/**
 * The service's CORS answer under `/api/`: the request headers its preflight allows, in its order (its middleware's
 * list), and whether every answer varies on them.
 */
export interface ServiceCors {
  readonly allowedRequestHeaders: readonly string[];
  readonly varyOnRequestHeaders: boolean;
}

// 2.8.11's middleware list; 2.8.86's adds the branch id, the anonymous-user header and ngrok's (not the restricted-user
// header: a browser app cannot send that one).
const CORS_2_8_11: readonly string[] = [
  "content-type",
  "authorization",
  "x-stack-project-id",
  "x-stack-override-error-status",
  "x-stack-random-nonce",
  "x-stack-client-version",
  "x-stack-disable-artificial-development-delay",
  "x-stack-access-type",
  "x-stack-publishable-client-key",
  "x-stack-secret-server-key",
  "x-stack-super-secret-admin-key",
  "x-stack-admin-access-token",
  "x-stack-refresh-token",
  "x-stack-access-token",
  "baggage",
  "sentry-trace",
  "x-vercel-protection-bypass",
];
const CORS_2_8_86: readonly string[] = [
  ...CORS_2_8_11.slice(0, 3),
  "x-stack-branch-id",
  ...CORS_2_8_11.slice(3, 14),
  "x-stack-allow-anonymous-user",
  ...CORS_2_8_11.slice(14),
  "ngrok-skip-browser-warning",
];

const BOT_CHALLENGE_FIELDS = ["bot_challenge_token", "bot_challenge_phase", "bot_challenge_unavailable"] as const;
// What server code may say of a user's sign-up since 2.8.86.
const SIGN_UP_FACTS = ["country_code", "risk_scores"] as const;

// What services before 2.8.11 took in a project's OAuth providers, which neither version knows.
const OAUTH_PROVIDER_ENABLED = "config.oauth_providers[].enabled";

// The fields of a project's create and update bodies that 2.8.11 does not know: 2.8.86's (logos, onboarding, themes,
// Apple bundles) and the older services' `enabled`.
const PROJECT_FIELDS_2_8_86 = [
  OAUTH_PROVIDER_ENABLED,
  "logo_url",
  "logo_full_url",
  "logo_dark_mode_url",
  "logo_full_dark_mode_url",
  "onboarding_status",
  "config.email_theme",
  "config.require_email_verification",
  "config.oauth_providers[].apple_bundle_ids",
] as const;

// The fields of a project's bodies that the hosted service added in 2.8.102 (the dashboard's setup choices; a
// development-environment project, chosen at creation only), which neither version knows.
const PROJECT_UPDATE_FIELDS_2_8_102 = ["onboarding_state"] as const;
const PROJECT_CREATE_FIELDS_2_8_102 = ["onboarding_state", "is_development_environment"] as const;

// The OAuth providers each version's schema knows (its `allProviders`), in its order.
const OAUTH_PROVIDERS_2_8_11 = [
  "google",
  "github",
  "microsoft",
  "spotify",
  "facebook",
  "discord",
  "gitlab",
  "bitbucket",
  "linkedin",
  "apple",
  "x",
];

/** What differs between the service versions, as the emulator plays them. */
export interface ServiceProfile {
  readonly version: ServiceVersion;
  readonly accessTokens: AccessTokenForm;
  /**
   * Whether the request gate refuses an anonymous user's access token without `x-stack-allow-anonymous-user: true`
   * (401 ANONYMOUS_AUTHENTICATION_NOT_ALLOWED) and a restricted user's without that or
   * `x-stack-allow-restricted-user: true` (403 RESTRICTED_USER_NOT_ALLOWED). False: both headers are ignored.
   */
  readonly gatesAnonymousAndRestrictedUsers: boolean;
  /** The projects on which anonymous sign-up works: `"every"`, or a fixed list (else 400 ANONYMOUS_ACCOUNTS_NOT_ENABLED). */
  readonly anonymousSignUpProjects: "every" | readonly string[];
  /** The display name an anonymous user is created with. */
  readonly anonymousDisplayName: string | null;
  /**
   * Whether signing up with a password, or signing in by magic link or OAuth as a new user, while an anonymous
   * user's session is held turns that user into the new one (same id). False: a new user is made beside it.
   */
  readonly upgradesAnonymousUsers: boolean;
  /**
   * What projects' admin views carry: 2.8.11 the number of their users (`user_count`), 2.8.86 the team that owns
   * them (`owner_team_id`) instead.
   */
  readonly projectView: "user-count" | "owner-team";
  /**
   * What `POST /internal/projects` does with `owner_team_id`: 2.8.11 refuses it as an unknown property (no team owns
   * its projects: see `managedProjects`), 2.8.86 requires it (a team of the internal project the user is a member of).
   */
  readonly projectOwnerTeam: "refused" | "required";
  /**
   * Which projects a user of the internal project manages (their admin access token opens them; `GET
   * /internal/projects` lists them): 2.8.11 keeps their ids in the user's `server_metadata.managedProjectIds`, which
   * project creation appends to and project deletion removes from, listed in that order (`"server-metadata"`);
   * 2.8.86 derives them from team ownership, the projects whose `owner_team_id` is a team the user is a member of
   * (`"owner-team"`).
   */
  readonly managedProjects: "server-metadata" | "owner-team";
  /**
   * Operations of the document this version does not have: its catch-all answers them with a plain-text 404
   * ("this page does not exist in Stack Auth's API"). 2.8.86 removed the block-based `/email-templates`; 2.8.11
   * has no `/internal/email-templates`, nor `POST /team-invitations/{id}/accept`. Neither has what 2.8.102 added
   * (`GET /internal/backend-urls`, {@link LATER_OPERATIONS}).
   */
  readonly missingOperations: readonly OperationId[];
  /**
   * The operations that refuse query parameters they do not know (400 SCHEMA_ERROR, "query contains unknown
   * properties: …"), with the names each knows; any other takes any query (engine/query-policy.ts). 2.8.11's
   * authorize route does not know `stack_response_mode`.
   */
  readonly knownQuery: KnownQuery;
  /**
   * Password sign-up's `verification_callback_url`: 2.8.11 requires it and, when the project does not trust it,
   * still signs the user up but sends no e-mail (`"required-lenient"`); 2.8.86 takes it optionally and refuses an
   * untrusted one before signing up, REDIRECT_URL_NOT_WHITELISTED (`"optional-strict"`).
   */
  readonly signUpVerificationUrl: "required-lenient" | "optional-strict";
  /**
   * Which errors `x-stack-override-error-status` answers as HTTP 200 with `x-stack-actual-status`: 2.8.11 every
   * error, 2.8.86 only 4xx (5xx keep their status).
   */
  readonly overriddenErrorStatuses: "all" | "4xx";
  /**
   * Whether e-mail addresses are stored trimmed and lower-cased (2.8.86) or as sent (2.8.11): contact channels' values,
   * users' primary e-mails among them (sign-up, `POST /users`, `PATCH /users/…`), so that an address already taken is
   * named in its stored form.
   */
  readonly normalizesContactEmails: boolean;
  /**
   * What server code's change of a user's primary e-mail does to the address it replaces (handlers/primary-email.ts):
   * 2.8.11 changes the primary channel in place and deletes it when the primary e-mail is removed (`"in-place"`);
   * 2.8.86 keeps it as a non-primary channel (signing in if it did) and makes the new address a channel of its own,
   * unverified unless `primary_email_verified` says otherwise (`"new-channel"`).
   */
  readonly primaryEmailChange: "in-place" | "new-channel";
  /**
   * Whether server views of users carry `country_code` and `risk_scores` (2.8.86): the country a sign-up came from
   * (engine/sign-up-country.ts; null for users made otherwise) and the sign-up's risk scores, which the public
   * service's fallback risk engine rates 0 for bots and free-trial abuse alike.
   */
  readonly signUpRisk: boolean;
  /**
   * Whether USER_EMAIL_ALREADY_EXISTS and CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE always say
   * `would_work_if_email_was_verified` (2.8.86: true, with the longer message, where the holder's address is
   * unverified and the flow would link to a verified one: a magic link, an OAuth account merged by e-mail).
   */
  readonly emailTakenSaysVerification: boolean;
  /**
   * What `profile_image_url` of users, teams and member profiles becomes: 2.8.11 keeps what it is given
   * (`"as-given"`); 2.8.86 moves a base64 image (`data:image/<type>;base64,…`) to its storage and keeps the stored
   * file's URL, keeps an http(s) URL, and refuses anything else with a plain 400 "Invalid profile image URL"
   * (`"stored"`; engine/images.ts). Both refuse a client's picture that is not a base64 image of a common type.
   */
  readonly profileImages: "as-given" | "stored";
  /** The plain-text 403 of the magic-link e-mail when the project has magic links (one-time codes) off. */
  readonly magicLinkDisabledText: string;
  /**
   * `GET /users`: 2.8.11 lists every user, anonymous ones too, and refuses the query flags it does not know
   * (`include_anonymous`, `include_restricted`, `only_anonymous`: SCHEMA_ERROR); 2.8.86 lists normal users unless
   * the flags say otherwise.
   */
  readonly userListing: "every-user" | "flags";
  /**
   * The log of sent e-mails (`GET /internal/emails`): 2.8.11 logs every e-mail it sends, test e-mails too, each with
   * the sender configuration it went out with and its mailer's error object (`"sent-emails"`); 2.8.86 logs its
   * outbox, the e-mails of its own flows (a test e-mail is sent directly, outside it), without sender
   * configuration, the error a string (`Send error: …`) or null (`"outbox"`).
   */
  readonly sentEmailLog: "sent-emails" | "outbox";
  /**
   * Whether `POST /internal/send-test-email` answers a message the server refused (EMESSAGE) as "Email server rejected
   * the email: <the mailer's message>" (2.8.86); 2.8.11 gives it the unknown error's words.
   */
  readonly testEmailNamesRejection: boolean;
  /** Whether ACCESS_TOKEN_EXPIRED's details say whose token it was (`project_id`, `user_id`, `refresh_token_id`: 2.8.86) besides when it expired. */
  readonly expiredTokenSaysWhose: boolean;
  /**
   * Whether `GET /internal/metrics` counts anonymous users in every figure (`"always"`: 2.8.11, which reads no
   * query) or only with `include_anonymous=true` (`"when-asked"`: 2.8.86).
   */
  readonly metricsCountAnonymous: "always" | "when-asked";
  /**
   * The request gate's project and client key: 2.8.11 answers an unknown project 404 PROJECT_NOT_FOUND and requires
   * a publishable client key of every client request (`"always-required"`); 2.8.86 answers an unknown project 400
   * CURRENT_PROJECT_NOT_FOUND and requires the key only of a project whose config says so
   * (`project.requirePublishableClientKey`, else 401 PUBLISHABLE_CLIENT_KEY_REQUIRED_FOR_PROJECT), a client
   * without one (or with the sentinel `__stack_public_client__`) passing otherwise (`"per-project"`). The same
   * requirement decides `POST /auth/oauth/token`'s `client_secret` on 2.8.86, checked before the grant. A project
   * made by `POST /internal/projects` on 2.8.86 does not require the key (the config's default, which project
   * creation leaves alone); the seeded projects do, as the service's migration set it for projects made before the
   * setting existed.
   */
  readonly publishableClientKey: "always-required" | "per-project";
  /**
   * Which origins a passkey may be registered from: 2.8.11 takes `localhost` where the project allows it and else
   * exactly a trusted domain's origin, refusing others as PASSKEY_AUTHENTICATION_FAILED ("Passkey registration failed
   * because …", `"exact-domain"`); 2.8.86 takes any origin a redirect may go to, refusing others as
   * PASSKEY_REGISTRATION_FAILED (`"redirect-policy"`).
   */
  readonly passkeyRegistrationOrigins: "exact-domain" | "redirect-policy";
  /**
   * Whether the project's sign-up rules (2.8.86's `auth.signUpRules`, `auth.signUpRulesDefaultAction`) decide every
   * sign-up: password, a new user's magic link or OAuth account, an anonymous user's upgrade (not anonymous sign-up
   * itself). A rejected sign-up is 403 SIGN_UP_REJECTED; a restricted one makes a user restricted by an
   * administrator. False (2.8.11): there are no sign-up rules, and what the control API sets is ignored.
   */
  readonly signUpRules: boolean;
  /**
   * `GET /auth/oauth/authorize/{provider}`: whether `after_callback_redirect_url` must be a URL on a trusted domain
   * (else REDIRECT_URL_NOT_WHITELISTED), `stack_response_mode=json` answers 200 `{ location }` instead of the
   * redirect, `provider_scope` with a provider of shared keys is refused on every flow, before the token is read, and
   * a link without `token` is a plain-text 400 (2.8.86, `"checked"`). 2.8.11 takes any string there, always
   * redirects, refuses extra scopes of shared keys only on a link, once its token was read, and reads a link's
   * missing token as an empty one, UNPARSABLE_ACCESS_TOKEN (`"lenient"`).
   */
  readonly oauthAuthorize: "lenient" | "checked";
  /**
   * The OAuth callback's known errors (neither version checks `redirect_uri` at authorize; both check it at the
   * callback, REDIRECT_URL_NOT_WHITELISTED). 2.8.11 redirects them (307) to the flow's error URL when it is trusted,
   * with `errorCode`, `message` and `details` (`"error-redirect-url"`). 2.8.86 tries the flow's `redirect_uri` first,
   * then its error URL, each when trusted or the mobile SDK's `stack-auth-mobile-oauth-url:` scheme (also taken as a
   * `redirect_uri`), adding `error=server_error` and `error_description` (`"redirect-uri-first"`). Else the error is
   * answered as it is.
   */
  readonly oauthCallbackErrors: "error-redirect-url" | "redirect-uri-first";
  /**
   * The token endpoint's answer to an authorization code exchanged with another `redirect_uri` than the authorize
   * call's (the code is spent all the same): 2.8.11 REDIRECT_URL_NOT_WHITELISTED (`"not-whitelisted"`), 2.8.86 a
   * plain-text 400 "Invalid redirect URI. …" (`"status-error"`).
   */
  readonly authorizationCodeRedirectMismatch: "not-whitelisted" | "status-error";
  /**
   * Whether the token endpoint's refresh grant answers `after_callback_redirect_url` and `afterCallbackRedirectUrl`
   * as null (2.8.86, whose OAuth model always sets them); 2.8.11 leaves them out there.
   */
  readonly refreshGrantAfterCallbackUrl: boolean;
  /**
   * `GET /team-invitations`: 2.8.11 lists a team's invitations only (`team_id` required; `user_id` is an unknown
   * property, SCHEMA_ERROR) and its items have no team name (`"by-team"`); 2.8.86 also lists the invitations sent to
   * a user's verified e-mails (`user_id`, `me` for a client; exactly one of the two) and every item carries
   * `team_display_name` (`"by-team-or-invitee"`).
   */
  readonly teamInvitationListing: "by-team" | "by-team-or-invitee";
  /**
   * How the e-mails of the sign-in flows are rendered: 2.8.11 renders the project's block-document template of the
   * kind (its own or the default) into HTML and a plain text (`"block-documents"`); 2.8.86 renders its default TSX
   * template of the kind, and
   * the team invitation worded anew (`"tsx-defaults"`). Both texts are wrapped at 80 columns with headings in upper
   * case and links bare after their label, as the service's HTML-to-text conversion writes them.
   */
  readonly mailTemplates: "block-documents" | "tsx-defaults";
  /**
   * Whether the magic-link e-mail to an app of `@stackframe/stack` 2.5.37 or older (as its `x-stack-client-version`,
   * `<platform> @stackframe/stack@<x.y.z>`, says) is the default template's first content: the link alone, without
   * the one-time code those SDKs cannot take (2.8.11; a project's own template is sent as it is). 2.8.86 mails
   * every client the same e-mail.
   */
  readonly linkOnlyMagicLinkForOldSdks: boolean;
  /**
   * Whether sign-up, the magic-link e-mail and the OAuth authorize call take a bot challenge (`bot_challenge_token`,
   * `bot_challenge_phase`, `bot_challenge_unavailable`; engine/bot-challenge.ts): 2.8.86. 2.8.11 does not know the
   * fields (`unknownBodyFields`).
   */
  readonly botChallenge: boolean;
  /**
   * Body fields of the document this version does not know, by operation (a later version added them): refused as
   * unknown properties, as its schema refuses them. `outer.inner` names a field of a field, `list[].name` a field of
   * a list's items.
   */
  readonly unknownBodyFields: { readonly [id in OperationId]?: readonly string[] };
  /**
   * Command-line login (handlers/cli.ts): 2.8.11 finds a login code in any project and stores the completing refresh
   * token unchecked (`"plain"`); 2.8.86 finds it in the project only, checks the refresh token, and hands a tool's
   * own anonymous session over (`anon_refresh_token`, `mode`: `"anonymous-handover"`).
   */
  readonly cliLogin: "plain" | "anonymous-handover";
  /** Whether the client's view of the project (`GET /projects/current`) lists its trusted domains (2.8.86). */
  readonly clientProjectDomains: boolean;
  /** The CORS headers of every answer under `/api/`: a browser app sends only the request headers the version allows. */
  readonly cors: ServiceCors;
  /**
   * Whether projects have 2.8.86's additions: an e-mail theme (`config.email_theme`, one of the default themes,
   * else a plain-text 400 "Invalid email theme"), four logo URLs, the dashboard's `onboarding_status`, each OAuth
   * provider's `provider_config_id` and `apple_bundle_ids`, and `config.require_email_verification` on update.
   * 2.8.11 has none of them (`unknownBodyFields`).
   */
  readonly projectThemesAndLogos: boolean;
  /**
   * The OAuth provider ids a project's config takes, in the order the schema's SCHEMA_ERROR lists them ("… must be
   * one of the following values: …"): 2.8.86 adds `twitch`. Each may use the service's shared keys or the project's.
   */
  readonly oauthProviders: readonly string[];
  /**
   * How the service guesses where a request comes from (its `getEndUserInfo`), for the activity it logs: only a
   * request whose user agent claims to be a browser (Mozilla, Chrome, Safari) and names a valid IP address. 2.8.11
   * trusts every proxy header, Cloudflare's first (`cf-connecting-ip`, `x-vercel-forwarded-for`, `x-real-ip`,
   * `x-forwarded-for`; the country from `cf-ipcountry`, else `x-vercel-ip-country`: `"trust-all"`). 2.8.86, with
   * no trusted proxy configured (its development setup), reads the client's headers first (`x-real-ip`,
   * `x-forwarded-for`, `x-vercel-forwarded-for`, `cf-connecting-ip`) and the country from `x-vercel-ip-country`,
   * else `cf-ipcountry`, trimmed and upper-cased (`"no-trusted-proxy"`).
   */
  readonly endUserHeaders: "trust-all" | "no-trusted-proxy";
  /**
   * What `GET /internal/metrics` reads activity from. 2.8.11 its `$user-activity` event log, one event per access
   * token issued: daily active users over the 30 days before now, a user's country from their latest event that has
   * one, `recently_active` the five users with the latest events, less those deleted since (`"user-activity-events"`).
   * 2.8.86 its `$token-refresh` events (in ClickHouse) for daily and monthly active users, countries and the
   * overviews' activity, and the users' last activity for `recently_active`; it also answers `auth_overview`,
   * `email_overview`, `payments_overview` and `analytics_overview` (`"token-refresh-events"`).
   */
  readonly activityMetrics: "user-activity-events" | "token-refresh-events";
}

/**
 * Operations of the document that only a version after both emulated ones has (`x-added-in: "2.8.102"`): every
 * profile answers them as a route it does not have, and no handler serves them.
 */
export const LATER_OPERATIONS: readonly OperationId[] = ["getBackendUrls"];

const PROFILES: { readonly [V in ServiceVersion]: ServiceProfile } = {
  "2.8.11": {
    version: "2.8.11",
    accessTokens: "global-issuer",
    gatesAnonymousAndRestrictedUsers: false,
    // Hard-coded in 2.8.11's anonymous sign-up route.
    anonymousSignUpProjects: ["9bee8100-8d83-4ad7-aaad-d6607e386a28", "71bd203a-14d9-4ccc-b704-32bfac0e2542", "internal"],
    anonymousDisplayName: "Anonymous user",
    upgradesAnonymousUsers: false,
    projectView: "user-count",
    projectOwnerTeam: "refused",
    managedProjects: "server-metadata",
    missingOperations: [
      ...LATER_OPERATIONS,
      "listInternalEmailTemplates",
      "updateInternalEmailTemplate",
      "deleteInternalEmailTemplate",
      "acceptTeamInvitationById",
    ],
    knownQuery: KNOWN_QUERY_2_8_11,
    signUpVerificationUrl: "required-lenient",
    overriddenErrorStatuses: "all",
    normalizesContactEmails: false,
    primaryEmailChange: "in-place",
    signUpRisk: false,
    emailTakenSaysVerification: false,
    profileImages: "as-given",
    magicLinkDisabledText: "Magic link is not enabled for this project",
    userListing: "every-user",
    sentEmailLog: "sent-emails",
    testEmailNamesRejection: false,
    expiredTokenSaysWhose: false,
    metricsCountAnonymous: "always",
    publishableClientKey: "always-required",
    passkeyRegistrationOrigins: "exact-domain",
    teamInvitationListing: "by-team",
    signUpRules: false,
    oauthAuthorize: "lenient",
    oauthCallbackErrors: "error-redirect-url",
    authorizationCodeRedirectMismatch: "not-whitelisted",
    refreshGrantAfterCallbackUrl: false,
    mailTemplates: "block-documents",
    linkOnlyMagicLinkForOldSdks: true,
    cors: { allowedRequestHeaders: CORS_2_8_11, varyOnRequestHeaders: false },
    botChallenge: false,
    cliLogin: "plain",
    clientProjectDomains: false,
    unknownBodyFields: {
      signUpWithPassword: BOT_CHALLENGE_FIELDS,
      sendMagicLinkCode: BOT_CHALLENGE_FIELDS,
      createCliLogin: ["anon_refresh_token"],
      completeCliLogin: ["mode"],
      updateAdminProject: [...PROJECT_FIELDS_2_8_86, ...PROJECT_UPDATE_FIELDS_2_8_102],
      createOwnedProject: [...PROJECT_FIELDS_2_8_86, ...PROJECT_CREATE_FIELDS_2_8_102],
      createUser: SIGN_UP_FACTS,
      updateUser: SIGN_UP_FACTS,
      updateCurrentUser: SIGN_UP_FACTS,
    },
    projectThemesAndLogos: false,
    oauthProviders: OAUTH_PROVIDERS_2_8_11,
    endUserHeaders: "trust-all",
    activityMetrics: "user-activity-events",
  },
  "2.8.86": {
    version: "2.8.86",
    accessTokens: "per-audience",
    gatesAnonymousAndRestrictedUsers: true,
    anonymousSignUpProjects: "every",
    anonymousDisplayName: null,
    upgradesAnonymousUsers: true,
    projectView: "owner-team",
    projectOwnerTeam: "required",
    managedProjects: "owner-team",
    missingOperations: [...LATER_OPERATIONS, "listEmailTemplates", "updateEmailTemplate", "resetEmailTemplate"],
    knownQuery: KNOWN_QUERY_2_8_86,
    signUpVerificationUrl: "optional-strict",
    overriddenErrorStatuses: "4xx",
    normalizesContactEmails: true,
    primaryEmailChange: "new-channel",
    signUpRisk: true,
    emailTakenSaysVerification: true,
    profileImages: "stored",
    magicLinkDisabledText: "OTP sign-in is not enabled for this project",
    userListing: "flags",
    sentEmailLog: "outbox",
    testEmailNamesRejection: true,
    expiredTokenSaysWhose: true,
    metricsCountAnonymous: "when-asked",
    publishableClientKey: "per-project",
    passkeyRegistrationOrigins: "redirect-policy",
    teamInvitationListing: "by-team-or-invitee",
    signUpRules: true,
    oauthAuthorize: "checked",
    oauthCallbackErrors: "redirect-uri-first",
    authorizationCodeRedirectMismatch: "status-error",
    refreshGrantAfterCallbackUrl: true,
    mailTemplates: "tsx-defaults",
    linkOnlyMagicLinkForOldSdks: false,
    cors: { allowedRequestHeaders: CORS_2_8_86, varyOnRequestHeaders: true },
    botChallenge: true,
    cliLogin: "anonymous-handover",
    clientProjectDomains: true,
    unknownBodyFields: {
      updateAdminProject: [OAUTH_PROVIDER_ENABLED, ...PROJECT_UPDATE_FIELDS_2_8_102],
      createOwnedProject: [OAUTH_PROVIDER_ENABLED, ...PROJECT_CREATE_FIELDS_2_8_102],
    },
    projectThemesAndLogos: true,
    oauthProviders: [...OAUTH_PROVIDERS_2_8_11, "twitch"],
    endUserHeaders: "no-trusted-proxy",
    activityMetrics: "token-refresh-events",
  },
};

/** Whether `version` is one the emulator can answer as. */
export function isServiceVersion(version: unknown): version is ServiceVersion {
  return typeof version === "string" && (SERVICE_VERSIONS as readonly string[]).includes(version);
}

/** The profile of `version` (default {@link DEFAULT_SERVICE_VERSION}); an unknown version throws, naming the known ones. */
export function serviceProfile(version: string = DEFAULT_SERVICE_VERSION): ServiceProfile {
  if (!isServiceVersion(version)) {
    throw new Error(`Unknown service version "${version}": the emulator answers as ${SERVICE_VERSIONS.join(" or ")}.`);
  }
  return PROFILES[version];
}

/** Whether anonymous sign-up works on the project under this profile. */
export function allowsAnonymousSignUp(profile: ServiceProfile, projectId: string): boolean {
  return profile.anonymousSignUpProjects === "every" || profile.anonymousSignUpProjects.includes(projectId);
}
