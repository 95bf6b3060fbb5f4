// The public calls the fuzz test makes: client, server and admin app methods
// and the methods of the objects they hand out. Each names the operation whose
// answer is mutated (the calls that lead to the object are answered validly)
// and the shape of what it must return.
import type { CurrentInternalUser } from "../../runtime/app/internal-user.js";
import { SetupError, type Apps, type MethodCase } from "./harness.js";
import {
  and,
  arr,
  bool,
  calls,
  date,
  fn,
  knownError,
  lit,
  ndate,
  nstr,
  nullable,
  num,
  obj,
  oneOf,
  opt,
  result,
  str,
  undef,
  type Shape,
} from "./shapes.js";

export const USER_ID = "3241a285-8329-4d69-8f3d-316e08cf140c";
export const TEAM_ID = "9c2b7e4a-1f3d-4a6b-8e5c-2d7f9a1b3c5e";
const FUTURE = new Date(Date.UTC(2030, 0, 1));

function must<T>(value: T | null | undefined, what: string): T {
  if (value === null || value === undefined) throw new SetupError(`setup: ${what} came back empty from a valid answer`);
  return value;
}

// SHAPES OF WHAT THE METHODS RETURN

const team = obj({ id: str, displayName: str, profileImageUrl: nstr, inviteUser: fn, listUsers: fn });
const serverTeam = and(team, obj({ createdAt: date, addUser: fn }));
const userFields = {
  id: str,
  displayName: nstr,
  primaryEmail: nstr,
  primaryEmailVerified: bool,
  profileImageUrl: nstr,
  signedUpAt: date,
  hasPassword: bool,
  emailAuthEnabled: bool,
  otpAuthEnabled: bool,
  passkeyAuthEnabled: bool,
  isMultiFactorRequired: bool,
  isAnonymous: bool,
  oauthProviders: arr(obj({ id: str, accountId: str, email: opt(str) })),
};
const user = obj({ ...userFields, selectedTeam: nullable(team), listTeams: fn });
const serverUser = obj({ ...userFields, lastActiveAt: date, selectedTeam: nullable(serverTeam), listTeams: fn });
const contactChannel = obj({ id: str, value: str, type: lit("email"), isPrimary: bool, isVerified: bool, usedForAuth: bool });
const apiKeyBase = {
  id: str,
  description: str,
  expiresAt: opt(date),
  manuallyRevokedAt: opt(ndate),
  createdAt: date,
  type: lit("user", "team"),
  userId: opt(str),
  teamId: opt(str),
};
const validity = and(calls("isValid", bool), calls("whyInvalid", oneOf(lit(null, "manually-revoked", "expired"))));
const apiKey = and(obj({ ...apiKeyBase, value: oneOf(str, obj({ lastFour: str })) }), validity);
const apiKeyFirstView = and(obj({ ...apiKeyBase, value: str }), validity);
const session = obj({ id: str, userId: str, createdAt: date, isImpersonation: bool, lastUsedAt: opt(date), isCurrentSession: bool });
const permission = obj({ id: str });
const profile = obj({ displayName: nstr, profileImageUrl: nstr });
const teamUser = obj({ id: str, teamProfile: profile });
const invitation = obj({ id: str, recipientEmail: nstr, expiresAt: date });
const project = obj({
  id: str,
  displayName: str,
  config: obj({
    signUpEnabled: bool,
    credentialEnabled: bool,
    magicLinkEnabled: bool,
    passkeyEnabled: bool,
    clientTeamCreationEnabled: bool,
    clientUserDeletionEnabled: bool,
    allowTeamApiKeys: bool,
    allowUserApiKeys: bool,
    oauthProviders: arr(obj({ id: str })),
  }),
});
const permissionList = arr(obj({ id: str }));
const adminProject = obj({
  id: str,
  displayName: str,
  description: nstr,
  createdAt: date,
  userCount: opt(num),
  isProductionMode: bool,
  config: obj({
    signUpEnabled: bool,
    credentialEnabled: bool,
    magicLinkEnabled: bool,
    passkeyEnabled: bool,
    clientTeamCreationEnabled: bool,
    clientUserDeletionEnabled: bool,
    allowLocalhost: bool,
    createTeamOnSignUp: bool,
    allowUserApiKeys: bool,
    allowTeamApiKeys: bool,
    oauthAccountMergeStrategy: lit("link_method", "raise_error", "allow_duplicates"),
    teamCreatorDefaultPermissions: permissionList,
    teamMemberDefaultPermissions: permissionList,
    userDefaultPermissions: permissionList,
    domains: arr(obj({ domain: str, handlerPath: str })),
    oauthProviders: arr(obj({ id: str, type: lit("shared", "standard") })),
    emailConfig: opt(obj({ type: lit("shared", "standard") })),
  }),
});
const ownedProject = and(adminProject, obj({ app: obj({ projectId: str }) }));
const lastFour = nullable(obj({ lastFour: str }));
const internalKeyBase = { id: str, description: str, expiresAt: date, manuallyRevokedAt: ndate, createdAt: date };
const internalKeyValidity = and(calls("isValid", bool), calls("whyInvalid", oneOf(lit(null, "manually-revoked", "expired"))));
const internalKey = and(
  obj({ ...internalKeyBase, publishableClientKey: lastFour, secretServerKey: lastFour, superSecretAdminKey: lastFour }),
  internalKeyValidity,
);
const internalKeyFirstView = and(
  obj({ ...internalKeyBase, publishableClientKey: opt(str), secretServerKey: opt(str), superSecretAdminKey: opt(str) }),
  internalKeyValidity,
);
const emailTemplate = obj({ type: str, subject: str, isDefault: bool });
const sentEmail = obj({ id: str, to: arr(str), subject: str, sentAt: date });
const permissionDefinition = obj({ id: str, description: opt(str), containedPermissionIds: arr(str) });
const tokenPair = obj({ accessToken: nstr, refreshToken: nstr });
const metrics: Shape = (value, path, problems) => {
  if (typeof value !== "object" || value === null || Array.isArray(value)) problems.push(`${path} should be an object of figures`);
};
const voidOrKnown = oneOf(undef, knownError);
/** A sign-in's Result, and the user the next call sees. */
const signedIn = obj({ result: result(undef), user: nullable(user) });

// HOW EACH CALL REACHES ITS OBJECT (through valid answers)

const me = async (apps: Apps) => must(await apps.client.getUser(), "the signed-in user");
const myTeam = async (apps: Apps) => must(await (await me(apps)).getTeam(TEAM_ID), "the user's team");
const serverUserOf = async (apps: Apps) => must(await apps.server.getUser(USER_ID), "the user by id");
const serverTeamOf = async (apps: Apps) => must(await apps.server.getTeam(TEAM_ID), "the team by id");
const internalUser = async (apps: Apps) => must(await apps.internal.getUser(), "the internal project's user") as CurrentInternalUser;
const teamRef = { id: TEAM_ID };

/** The sign-in, then the signed-in user as the next call sees them: stored tokens must be usable. */
async function thenUser(apps: Apps, signIn: Promise<unknown>) {
  const outcome = await signIn;
  return { result: outcome, user: await apps.client.getUser() };
}

const connected = async (connection: { id: string; getAccessToken(): Promise<{ accessToken: string }> } | null) =>
  connection && { id: connection.id, token: await connection.getAccessToken() };
const connectedShape = nullable(obj({ id: str, token: obj({ accessToken: str }) }));

export const METHODS: readonly MethodCase[] = [
  // CLIENT APP
  { name: "client.getUser", target: "getCurrentUser", run: (a) => a.client.getUser(), shape: nullable(user) },
  {
    name: "client.getUser (refresh)",
    target: "exchangeOAuthToken",
    tokens: "expired",
    run: (a) => a.client.getUser(),
    shape: nullable(user),
  },
  {
    name: "client.getAuthJson (refresh)",
    target: "exchangeOAuthToken",
    tokens: "expired",
    run: (a) => a.client.getAuthJson(),
    shape: tokenPair,
  },
  {
    name: "client.getUser({or:'anonymous'})",
    target: "signUpAnonymously",
    tokens: "none",
    run: (a) => a.client.getUser({ or: "anonymous" }),
    shape: user,
  },
  { name: "client.getProject", target: "getCurrentProject", run: (a) => a.client.getProject(), shape: project },
  {
    name: "client.signInWithCredential",
    target: "signInWithPassword",
    tokens: "none",
    run: (a) => thenUser(a, a.client.signInWithCredential({ email: "ada@example.com", password: "correct horse", noRedirect: true })),
    shape: signedIn,
  },
  {
    name: "client.signUpWithCredential",
    target: "signUpWithPassword",
    tokens: "none",
    run: (a) => thenUser(a, a.client.signUpWithCredential({ email: "ada@example.com", password: "correct horse", noRedirect: true })),
    shape: signedIn,
  },
  {
    name: "client.signInWithMagicLink",
    target: "signInWithMagicLink",
    tokens: "none",
    run: (a) => thenUser(a, a.client.signInWithMagicLink("code-123456", { noRedirect: true })),
    shape: signedIn,
  },
  {
    name: "client.signInWithMfa",
    target: "signInWithMfa",
    tokens: "none",
    run: (a) => thenUser(a, a.client.signInWithMfa("123456", "attempt-code", { noRedirect: true })),
    shape: signedIn,
  },
  {
    name: "client.sendForgotPasswordEmail",
    target: "sendPasswordResetCode",
    tokens: "none",
    run: (a) => a.client.sendForgotPasswordEmail("ada@example.com"),
    shape: result(undef),
  },
  {
    name: "client.verifyPasswordResetCode",
    target: "checkPasswordResetCode",
    tokens: "none",
    run: (a) => a.client.verifyPasswordResetCode("code"),
    shape: result(undef),
  },
  {
    name: "client.resetPassword",
    target: "resetPassword",
    tokens: "none",
    run: (a) => a.client.resetPassword({ code: "code", password: "new password" }),
    shape: result(undef),
  },
  { name: "client.verifyEmail", target: "verifyEmail", run: (a) => a.client.verifyEmail("code"), shape: result(undef) },
  {
    name: "client.sendMagicLinkEmail",
    target: "sendMagicLinkCode",
    tokens: "none",
    run: (a) => a.client.sendMagicLinkEmail("ada@example.com"),
    shape: result(obj({ nonce: str })),
  },
  {
    name: "client.acceptTeamInvitation",
    target: "acceptTeamInvitation",
    run: (a) => a.client.acceptTeamInvitation("code"),
    shape: result(undef),
  },
  {
    name: "client.verifyTeamInvitationCode",
    target: "checkTeamInvitationCode",
    run: (a) => a.client.verifyTeamInvitationCode("code"),
    shape: result(undef),
  },
  {
    name: "client.getTeamInvitationDetails",
    target: "getTeamInvitationDetails",
    run: (a) => a.client.getTeamInvitationDetails("code"),
    shape: result(obj({ teamDisplayName: str })),
  },
  {
    name: "client.promptCliLogin (start)",
    target: "createCliLogin",
    run: (a) => a.client.promptCliLogin({ appUrl: "https://app.example.com", maxAttempts: 3 }),
    shape: result(str),
  },
  {
    name: "client.promptCliLogin (poll)",
    target: "pollCliLogin",
    run: (a) => a.client.promptCliLogin({ appUrl: "https://app.example.com", maxAttempts: 3 }),
    shape: result(str),
  },
  {
    name: "client.completeCliLogin",
    target: "completeCliLogin",
    run: (a) => a.client.completeCliLogin("login-code"),
    shape: result(undef),
  },
  { name: "client.signOut", target: "signOutCurrentSession", run: (a) => a.client.signOut(), shape: undef },

  // THE CLIENT'S CURRENT USER
  { name: "user.listTeams", target: "listTeams", run: async (a) => (await me(a)).listTeams(), shape: arr(team) },
  { name: "user.getTeam", target: "getTeam", run: async (a) => (await me(a)).getTeam(TEAM_ID), shape: nullable(team) },
  { name: "user.createTeam", target: "createTeam", run: async (a) => (await me(a)).createTeam({ displayName: "Fuzz" }), shape: team },
  { name: "user.getTeamProfile", target: "getTeamMemberProfile", run: async (a) => (await me(a)).getTeamProfile(teamRef), shape: profile },
  {
    name: "user.listContactChannels",
    target: "listContactChannels",
    run: async (a) => (await me(a)).listContactChannels(),
    shape: arr(contactChannel),
  },
  {
    name: "user.createContactChannel",
    target: "createContactChannel",
    run: async (a) => (await me(a)).createContactChannel({ value: "ada@example.com", type: "email", usedForAuth: false }),
    shape: contactChannel,
  },
  { name: "user.listApiKeys", target: "listUserApiKeys", run: async (a) => (await me(a)).listApiKeys(), shape: arr(apiKey) },
  {
    name: "user.createApiKey",
    target: "createUserApiKey",
    run: async (a) => (await me(a)).createApiKey({ description: "fuzz", expiresAt: FUTURE }),
    shape: apiKeyFirstView,
  },
  { name: "user.getActiveSessions", target: "listSessions", run: async (a) => (await me(a)).getActiveSessions(), shape: arr(session) },
  {
    name: "user.revokeSession",
    target: "deleteSession",
    run: async (a) => (await me(a)).revokeSession("b1f4c0de-2a8e-4c61-9d3e-5f7a1b2c3d4e"),
    shape: undef,
  },
  {
    name: "user.listPermissions",
    target: "listProjectPermissions",
    run: async (a) => (await me(a)).listPermissions(),
    shape: arr(permission),
  },
  {
    name: "user.listPermissions(team)",
    target: "listTeamPermissions",
    run: async (a) => (await me(a)).listPermissions(teamRef),
    shape: arr(permission),
  },
  {
    name: "user.hasPermission(team)",
    target: "listTeamPermissions",
    run: async (a) => (await me(a)).hasPermission(teamRef, "$read_members"),
    shape: bool,
  },
  {
    name: "user.getConnectedAccount",
    target: "createConnectedAccountAccessToken",
    run: async (a) => connected(await (await me(a)).getConnectedAccount("github")),
    shape: connectedShape,
  },
  { name: "user.update", target: "updateCurrentUser", run: async (a) => (await me(a)).update({ displayName: "Ada" }), shape: undef },
  {
    name: "user.sendVerificationEmail",
    target: "sendEmailVerificationCode",
    run: async (a) => (await me(a)).sendVerificationEmail(),
    shape: voidOrKnown,
  },
  {
    name: "user.updatePassword",
    target: "updatePassword",
    run: async (a) => (await me(a)).updatePassword({ oldPassword: "a", newPassword: "b" }),
    shape: voidOrKnown,
  },
  { name: "user.setPassword", target: "setPassword", run: async (a) => (await me(a)).setPassword({ password: "b" }), shape: voidOrKnown },
  { name: "user.leaveTeam", target: "removeTeamMember", run: async (a) => (await me(a)).leaveTeam(teamRef), shape: undef },
  { name: "user.delete", target: "deleteCurrentUser", run: async (a) => (await me(a)).delete(), shape: undef },
  {
    name: "user.currentSession.getTokens (refresh)",
    target: "exchangeOAuthToken",
    tokens: "expired",
    // The refresh under test comes first, inside getUser: an answer that signs the user out is the SDK's to report
    // (UserNotSignedInError), not a setup that went wrong.
    run: async (a) => (await a.client.getUser({ or: "throw" })).currentSession.getTokens(),
    shape: tokenPair,
  },

  // A CLIENT TEAM
  { name: "team.listUsers", target: "listTeamMemberProfiles", run: async (a) => (await myTeam(a)).listUsers(), shape: arr(teamUser) },
  {
    name: "team.listInvitations",
    target: "listTeamInvitations",
    run: async (a) => (await myTeam(a)).listInvitations(),
    shape: arr(invitation),
  },
  { name: "team.listApiKeys", target: "listTeamApiKeys", run: async (a) => (await myTeam(a)).listApiKeys(), shape: arr(apiKey) },
  {
    name: "team.createApiKey",
    target: "createTeamApiKey",
    run: async (a) => (await myTeam(a)).createApiKey({ description: "fuzz", expiresAt: null }),
    shape: apiKeyFirstView,
  },
  {
    name: "team.inviteUser",
    target: "sendTeamInvitation",
    run: async (a) => (await myTeam(a)).inviteUser({ email: "grace@example.com" }),
    shape: undef,
  },
  { name: "team.update", target: "updateTeam", run: async (a) => (await myTeam(a)).update({ displayName: "Fuzz" }), shape: undef },

  // THE INTERNAL PROJECT'S USER
  {
    name: "internalUser.listOwnedProjects",
    target: "listOwnedProjects",
    run: async (a) => (await internalUser(a)).listOwnedProjects(),
    shape: arr(ownedProject),
  },
  {
    name: "internalUser.createProject",
    target: "createOwnedProject",
    run: async (a) => (await internalUser(a)).createProject({ displayName: "Fuzz" }),
    shape: ownedProject,
  },

  // SERVER APP
  { name: "server.getUser()", target: "getCurrentUser", run: (a) => a.server.getUser(), shape: nullable(serverUser) },
  { name: "server.getUser(id)", target: "getUser", run: (a) => a.server.getUser(USER_ID), shape: nullable(serverUser) },
  {
    name: "server.getUser({apiKey})",
    target: "checkUserApiKey",
    run: (a) => a.server.getUser({ apiKey: "stack_user_key" }),
    shape: nullable(serverUser),
  },
  {
    name: "server.getTeam({apiKey})",
    target: "checkTeamApiKey",
    run: (a) => a.server.getTeam({ apiKey: "stack_team_key" }),
    shape: nullable(serverTeam),
  },
  {
    name: "server.listUsers",
    target: "listUsers",
    run: (a) => a.server.listUsers({ limit: 10 }),
    shape: and(arr(serverUser), obj({ nextCursor: nstr })),
  },
  {
    name: "server.createUser",
    target: "createUser",
    run: (a) => a.server.createUser({ primaryEmail: "ada@example.com" }),
    shape: serverUser,
  },
  { name: "server.listTeams", target: "listTeams", run: (a) => a.server.listTeams(), shape: arr(serverTeam) },
  { name: "server.getTeam(id)", target: "getTeam", run: (a) => a.server.getTeam(TEAM_ID), shape: nullable(serverTeam) },
  { name: "server.createTeam", target: "createTeam", run: (a) => a.server.createTeam({ displayName: "Fuzz" }), shape: serverTeam },

  // A SERVER USER
  { name: "serverUser.listTeams", target: "listTeams", run: async (a) => (await serverUserOf(a)).listTeams(), shape: arr(serverTeam) },
  {
    name: "serverUser.getTeamProfile",
    target: "getTeamMemberProfile",
    run: async (a) => (await serverUserOf(a)).getTeamProfile(teamRef),
    shape: profile,
  },
  {
    name: "serverUser.listContactChannels",
    target: "listContactChannels",
    run: async (a) => (await serverUserOf(a)).listContactChannels(),
    shape: arr(contactChannel),
  },
  {
    name: "serverUser.createContactChannel",
    target: "createContactChannel",
    run: async (a) =>
      (await serverUserOf(a)).createContactChannel({ value: "ada@example.com", type: "email", usedForAuth: true, isVerified: true }),
    shape: contactChannel,
  },
  {
    name: "serverUser.sendVerificationEmail (channels)",
    target: "listContactChannels",
    run: async (a) => (await serverUserOf(a)).sendVerificationEmail(),
    shape: voidOrKnown,
  },
  {
    name: "serverUser.sendVerificationEmail (send)",
    target: "sendContactChannelVerificationCode",
    run: async (a) => (await serverUserOf(a)).sendVerificationEmail(),
    shape: voidOrKnown,
  },
  {
    name: "serverUser.listApiKeys",
    target: "listUserApiKeys",
    run: async (a) => (await serverUserOf(a)).listApiKeys(),
    shape: arr(apiKey),
  },
  {
    name: "serverUser.createApiKey",
    target: "createUserApiKey",
    run: async (a) => (await serverUserOf(a)).createApiKey({ description: "fuzz", expiresAt: null }),
    shape: apiKeyFirstView,
  },
  {
    name: "serverUser.getActiveSessions",
    target: "listSessions",
    run: async (a) => (await serverUserOf(a)).getActiveSessions(),
    shape: arr(session),
  },
  {
    name: "serverUser.createSession",
    target: "createSession",
    run: async (a) => (await (await serverUserOf(a)).createSession({ isImpersonation: true })).getTokens(),
    shape: tokenPair,
  },
  {
    name: "serverUser.listPermissions(team)",
    target: "listTeamPermissions",
    run: async (a) => (await serverUserOf(a)).listPermissions(teamRef),
    shape: arr(permission),
  },
  {
    name: "serverUser.grantPermission",
    target: "grantProjectPermission",
    run: async (a) => (await serverUserOf(a)).grantPermission("fuzz_permission"),
    shape: undef,
  },
  {
    name: "serverUser.update",
    target: "updateUser",
    run: async (a) => (await serverUserOf(a)).update({ serverMetadata: { plan: "pro" } }),
    shape: undef,
  },
  { name: "serverUser.delete", target: "deleteUser", run: async (a) => (await serverUserOf(a)).delete(), shape: undef },
  {
    name: "serverUser.getConnectedAccount",
    target: "createConnectedAccountAccessToken",
    run: async (a) => connected(await (await serverUserOf(a)).getConnectedAccount("github")),
    shape: connectedShape,
  },

  // A SERVER TEAM
  {
    name: "serverTeam.listUsers",
    target: "listTeamMemberProfiles",
    run: async (a) => (await serverTeamOf(a)).listUsers(),
    shape: arr(and(serverUser, obj({ teamProfile: profile }))),
  },
  {
    name: "serverTeam.listInvitations",
    target: "listTeamInvitations",
    run: async (a) => (await serverTeamOf(a)).listInvitations(),
    shape: arr(invitation),
  },
  { name: "serverTeam.addUser", target: "addTeamMember", run: async (a) => (await serverTeamOf(a)).addUser(USER_ID), shape: undef },
  {
    name: "serverTeam.removeUser",
    target: "removeTeamMember",
    run: async (a) => (await serverTeamOf(a)).removeUser(USER_ID),
    shape: undef,
  },

  // ADMIN APP
  { name: "admin.getProject", target: "getAdminProject", run: (a) => a.admin.getProject(), shape: adminProject },
  {
    name: "adminProject.update",
    target: "updateAdminProject",
    run: async (a) => (await a.admin.getProject()).update({ displayName: "Fuzz" }),
    shape: undef,
  },
  { name: "admin.listInternalApiKeys", target: "listInternalApiKeys", run: (a) => a.admin.listInternalApiKeys(), shape: arr(internalKey) },
  {
    name: "admin.createInternalApiKey",
    target: "createInternalApiKey",
    run: (a) =>
      a.admin.createInternalApiKey({
        description: "fuzz",
        expiresAt: FUTURE,
        hasPublishableClientKey: true,
        hasSecretServerKey: true,
        hasSuperSecretAdminKey: false,
      }),
    shape: internalKeyFirstView,
  },
  {
    name: "internalApiKey.revoke",
    target: "updateInternalApiKey",
    run: async (a) => must((await a.admin.listInternalApiKeys())[0], "a key set").revoke(),
    shape: undef,
  },
  { name: "admin.listEmailTemplates", target: "listEmailTemplates", run: (a) => a.admin.listEmailTemplates(), shape: arr(emailTemplate) },
  {
    name: "admin.sendTestEmail",
    target: "sendTestEmail",
    run: (a) =>
      a.admin.sendTestEmail({
        recipientEmail: "ada@example.com",
        emailConfig: {
          host: "smtp.example.com",
          port: 587,
          username: "u",
          password: "p",
          senderEmail: "no-reply@example.com",
          senderName: "Fuzz",
        },
      }),
    shape: oneOf(obj({ status: lit("ok"), data: undef }), obj({ status: lit("error"), error: obj({ errorMessage: str }) })),
  },
  { name: "admin.listSentEmails", target: "listSentEmails", run: (a) => a.admin.listSentEmails(), shape: arr(sentEmail) },
  {
    name: "admin.listTeamPermissionDefinitions",
    target: "listTeamPermissionDefinitions",
    run: (a) => a.admin.listTeamPermissionDefinitions(),
    shape: arr(permissionDefinition),
  },
  {
    name: "admin.createTeamPermissionDefinition",
    target: "createTeamPermissionDefinition",
    run: (a) => a.admin.createTeamPermissionDefinition({ id: "fuzz_permission" }),
    shape: permissionDefinition,
  },
  {
    name: "admin.updateTeamPermissionDefinition",
    target: "updateTeamPermissionDefinition",
    run: (a) => a.admin.updateTeamPermissionDefinition("fuzz_permission", { description: "d" }),
    shape: undef,
  },
  {
    name: "admin.listProjectPermissionDefinitions",
    target: "listProjectPermissionDefinitions",
    run: (a) => a.admin.listProjectPermissionDefinitions(),
    shape: arr(permissionDefinition),
  },
  {
    name: "admin.createProjectPermissionDefinition",
    target: "createProjectPermissionDefinition",
    run: (a) => a.admin.createProjectPermissionDefinition({ id: "fuzz_permission" }),
    shape: permissionDefinition,
  },
  {
    name: "admin.deleteProjectPermissionDefinition",
    target: "deleteProjectPermissionDefinition",
    run: (a) => a.admin.deleteProjectPermissionDefinition("fuzz_permission"),
    shape: undef,
  },
  { name: "admin.getSvixToken", target: "createSvixToken", run: (a) => a.admin.getSvixToken(), shape: str },
  { name: "admin.getMetrics", target: "getMetrics", run: (a) => a.admin.getMetrics(), shape: metrics, opaque: true },
  { name: "admin.listUsers", target: "listUsers", run: (a) => a.admin.listUsers(), shape: and(arr(serverUser), obj({ nextCursor: nstr })) },
];
