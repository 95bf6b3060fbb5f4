// Which operations refuse query parameters they do not know, and the names each knows, per service version.
//
// The service validates a request with yup and refuses unknown properties under `query` as under `body`
// (apps/backend/src/route-handlers/smart-request.tsx validate(): noUnknownPathPrefixes ["body", "query", "params"];
// packages/stack-shared/src/schema-fields.ts yupObject: the no-unknown-object-properties test). That holds on every
// route that declares a query schema: each route of the CRUD handler (apps/backend/src/route-handlers/crud-handler.tsx:
// `querySchema ?? yupObject({})`) and each smart route whose request schema has `query: yupObject(…)`. The other
// smart routes take any query. Derived once from the service's route files at 829dc5948 (2.8.11) and HEAD (2.8.86),
// each mapped by method and path to the document's operation: an operation listed refuses unknown query parameters
// on that version, one not listed takes any. The names an operation knows are the document's query parameters in
// that version's view (x-added-in), those of the CRUD route's shared query schema, plus one the service takes that the
// document leaves out (the authorize route's `error_redirect_uri`).
import type { OperationId } from "../../generated/operations.js";

/** The operations that refuse unknown query parameters, each with the names it knows. */
export type KnownQuery = { readonly [id in OperationId]?: readonly string[] };

// A CRUD route's operations (list, create, read, update, delete) share its one query schema: each knows every name
// of it, not only those its own document lists (crud-handler.tsx passes `querySchema` to every operation).
const USERS_2_8_11 = ["team_id", "limit", "cursor", "order_by", "desc", "query"];
const USERS_2_8_86 = [...USERS_2_8_11, "include_anonymous", "only_anonymous", "include_restricted"];
const TEAMS = ["user_id", "add_current_user"];
const MEMBER_PROFILES = ["user_id", "team_id"];
const CONTACT_CHANNELS = ["user_id", "contact_channel_id"];
const TEAM_PERMISSIONS = ["team_id", "user_id", "permission_id", "recursive"];
const PROJECT_PERMISSIONS = ["user_id", "permission_id", "recursive"];

export const KNOWN_QUERY_2_8_11: KnownQuery = {
  startOAuthAuthorization: [
    "client_id",
    "client_secret",
    "redirect_uri",
    "scope",
    "state",
    "grant_type",
    "code_challenge",
    "code_challenge_method",
    "response_type",
    "type",
    "error_redirect_url",
    "after_callback_redirect_url",
    "token",
    "provider_scope",
    "error_redirect_uri",
  ],
  resetPassword: [],
  checkPasswordResetCode: [],
  signInWithMagicLink: [],
  checkMagicLinkCode: [],
  registerPasskey: [],
  signInWithPasskey: [],
  signInWithMfa: [],
  listSessions: ["user_id"],
  deleteSession: ["user_id"],
  getCurrentUser: USERS_2_8_11,
  updateCurrentUser: USERS_2_8_11,
  deleteCurrentUser: USERS_2_8_11,
  listUsers: USERS_2_8_11,
  createUser: USERS_2_8_11,
  getUser: USERS_2_8_11,
  updateUser: USERS_2_8_11,
  deleteUser: USERS_2_8_11,
  listTeams: TEAMS,
  createTeam: TEAMS,
  getTeam: TEAMS,
  updateTeam: TEAMS,
  deleteTeam: TEAMS,
  addTeamMember: [],
  removeTeamMember: [],
  listTeamInvitations: ["team_id"],
  revokeTeamInvitation: ["team_id"],
  acceptTeamInvitation: [],
  checkTeamInvitationCode: [],
  getTeamInvitationDetails: [],
  listTeamMemberProfiles: MEMBER_PROFILES,
  getTeamMemberProfile: MEMBER_PROFILES,
  updateTeamMemberProfile: MEMBER_PROFILES,
  listContactChannels: CONTACT_CHANNELS,
  createContactChannel: CONTACT_CHANNELS,
  verifyEmail: [],
  checkEmailVerificationCode: [],
  getContactChannel: CONTACT_CHANNELS,
  updateContactChannel: CONTACT_CHANNELS,
  deleteContactChannel: CONTACT_CHANNELS,
  listTeamPermissions: TEAM_PERMISSIONS,
  grantTeamPermission: TEAM_PERMISSIONS,
  revokeTeamPermission: TEAM_PERMISSIONS,
  listProjectPermissions: PROJECT_PERMISSIONS,
  grantProjectPermission: PROJECT_PERMISSIONS,
  revokeProjectPermission: PROJECT_PERMISSIONS,
  listTeamPermissionDefinitions: [],
  createTeamPermissionDefinition: [],
  updateTeamPermissionDefinition: [],
  deleteTeamPermissionDefinition: [],
  listProjectPermissionDefinitions: [],
  createProjectPermissionDefinition: [],
  updateProjectPermissionDefinition: [],
  deleteProjectPermissionDefinition: [],
  listUserApiKeys: ["user_id"],
  createUserApiKey: [],
  getUserApiKey: ["user_id"],
  updateUserApiKey: ["user_id"],
  checkUserApiKey: [],
  listTeamApiKeys: ["team_id"],
  createTeamApiKey: [],
  getTeamApiKey: ["team_id"],
  updateTeamApiKey: ["team_id"],
  checkTeamApiKey: [],
  getCurrentProject: [],
  listOwnedProjects: [],
  createOwnedProject: [],
  getAdminProject: [],
  updateAdminProject: [],
  deleteAdminProject: [],
  listInternalApiKeys: [],
  getInternalApiKey: [],
  updateInternalApiKey: [],
  listEmailTemplates: [],
  updateEmailTemplate: [],
  resetEmailTemplate: [],
  listSentEmails: [],
  createSvixToken: [],
  createConnectedAccountAccessToken: [],
};

/** The block-based template routes 2.8.86 removed; its others as 2.8.11's, with what it added. */
const { listEmailTemplates, updateEmailTemplate, resetEmailTemplate, ...KEPT_FROM_2_8_11 } = KNOWN_QUERY_2_8_11;

export const KNOWN_QUERY_2_8_86: KnownQuery = {
  ...KEPT_FROM_2_8_11,
  startOAuthAuthorization: [
    ...(KNOWN_QUERY_2_8_11.startOAuthAuthorization ?? []),
    "stack_response_mode",
    "bot_challenge_token",
    "bot_challenge_phase",
    "bot_challenge_unavailable",
  ],
  getCurrentUser: USERS_2_8_86,
  updateCurrentUser: USERS_2_8_86,
  deleteCurrentUser: USERS_2_8_86,
  listUsers: USERS_2_8_86,
  createUser: USERS_2_8_86,
  getUser: USERS_2_8_86,
  updateUser: USERS_2_8_86,
  deleteUser: USERS_2_8_86,
  listTeamInvitations: ["team_id", "user_id"],
  revokeTeamInvitation: ["team_id", "user_id"],
  // Smart routes 2.8.86 gave a query schema.
  acceptTeamInvitationById: ["user_id"],
  getProjectJwks: ["include_anonymous", "include_restricted"],
  getMetrics: ["include_anonymous"],
};
