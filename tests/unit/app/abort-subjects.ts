// The tables of abort.test.ts: every method of the apps and of the objects they
// hand out, by name, with how to call it with a signal. A method is either a
// call (or several, one per overload), "sync" (it returns no promise), or
// "protected" (for subclasses, not public). The test enumerates the methods of
// each object, so a method missing here fails it.
import type {
  ActiveSession,
  AdminOwnedProject,
  AdminProject,
  ApiKey,
  ContactChannel,
  CreatedSession,
  CurrentInternalUser,
  CurrentServerUser,
  CurrentUser,
  EditableTeamMemberProfile,
  InternalApiKey,
  OAuthConnection,
  ReceivedTeamInvitation,
  ServerContactChannel,
  ServerTeam,
  ServerUser,
  StackClientApp,
  StackServerApp,
  Team,
  TeamInvitation,
} from "../../../runtime/index.js";
import { StackAdminApp } from "../../../runtime/index.js";
import { ADMIN_PROJECT_ID, TEAM_ID, USER_ID, type World, type WorldKind } from "./abort-world.js";

export interface Case<S> {
  readonly call: (subject: S, signal: AbortSignal) => Promise<unknown>;
  /** Nothing to wait for (the answer is at hand): only an already aborted signal can stop it. */
  readonly local?: true;
  /** Expire the access token first, so the call waits for a refresh. */
  readonly stale?: true;
  /** The call waits for work other callers share (a cached read, a refresh): that work goes on, with its timers. */
  readonly shared?: true;
}
export type Entry<S> = Case<S> | readonly Case<S>[] | "sync" | "protected";
export type Table<S> = Record<string, Entry<S>>;

export interface Subject<S> {
  readonly name: string;
  readonly world: WorldKind;
  readonly make: (world: World) => Promise<S>;
  readonly table: Table<S>;
}

const first = async <T>(list: Promise<T[]>): Promise<T> => (await list)[0]!;
const user = async (w: World) => (await w.app.getUser({ or: "throw" })) as CurrentUser;
const serverApp = (w: World) => w.app as StackServerApp;
const b64url = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
/** An ES256-shaped access token of `projectId` as the service (at the default base URL) issues it; its signature is not checked here. */
const tokenFor = (projectId: string) =>
  [
    b64url({ alg: "ES256", kid: "key-1", typ: "JWT" }),
    b64url({ sub: USER_ID, aud: projectId, iss: `https://api.stack-auth.com/api/v1/projects/${projectId}`, exp: 4102444800 }),
    "c2lnbmF0dXJl",
  ].join(".");
const email = "ada@example.com";
const team = { id: TEAM_ID };

// THE APPS

const REDIRECTS = [
  "redirectToSignIn",
  "redirectToSignUp",
  "redirectToSignOut",
  "redirectToEmailVerification",
  "redirectToPasswordReset",
  "redirectToForgotPassword",
  "redirectToHome",
  "redirectToOAuthCallback",
  "redirectToMagicLinkCallback",
  "redirectToAfterSignIn",
  "redirectToAfterSignUp",
  "redirectToAfterSignOut",
  "redirectToAccountSettings",
  "redirectToError",
  "redirectToTeamInvitation",
] as const;

const clientApp: Table<StackClientApp> = {
  getUser: { call: (a, signal) => a.getUser({ signal }) },
  getPartialUser: { call: (a, signal) => a.getPartialUser({ from: "token", signal }), local: true },
  signOut: { call: (a, signal) => a.signOut({ signal }) },
  onSessionChange: "sync",
  getAuthJson: { call: (a, signal) => a.getAuthJson({ signal }), stale: true, shared: true },
  getAuthHeaders: { call: (a, signal) => a.getAuthHeaders({ signal }), stale: true, shared: true },
  getAccessToken: { call: (a, signal) => a.getAccessToken({ signal }) },
  getRefreshToken: { call: (a, signal) => a.getRefreshToken({ signal }) },
  // Answers Convex's token getter, which Convex calls without a signal.
  getConvexClientAuth: "sync",
  getConvexHttpClientAuth: { call: (a, signal) => a.getConvexHttpClientAuth({ signal }), stale: true, shared: true },
  getProject: { call: (a, signal) => a.getProject({ signal }), shared: true },
  signInWithCredential: { call: (a, signal) => a.signInWithCredential({ email, password: "pw", signal }) },
  signUpWithCredential: { call: (a, signal) => a.signUpWithCredential({ email, password: "pw", signal }) },
  sendForgotPasswordEmail: { call: (a, signal) => a.sendForgotPasswordEmail(email, { signal }) },
  verifyPasswordResetCode: { call: (a, signal) => a.verifyPasswordResetCode("code", { signal }) },
  resetPassword: { call: (a, signal) => a.resetPassword({ code: "code", password: "pw", signal }) },
  verifyEmail: { call: (a, signal) => a.verifyEmail("code", { signal }) },
  sendMagicLinkEmail: { call: (a, signal) => a.sendMagicLinkEmail(email, { signal }) },
  signInWithMagicLink: { call: (a, signal) => a.signInWithMagicLink("code", { signal }) },
  signInWithMfa: { call: (a, signal) => a.signInWithMfa("123456", "attempt-code", { signal }) },
  signInWithPasskey: { call: (a, signal) => a.signInWithPasskey({ signal }) },
  signInWithOAuth: { call: (a, signal) => a.signInWithOAuth("github", { signal }) },
  callOAuthCallback: { call: (a, signal) => a.callOAuthCallback({ signal }) },
  promptCliLogin: { call: (a, signal) => a.promptCliLogin({ appUrl: "https://app.example.com", signal }) },
  completeCliLogin: { call: (a, signal) => a.completeCliLogin("login-code", { signal }) },
  verifyTeamInvitationCode: { call: (a, signal) => a.verifyTeamInvitationCode("code", { signal }) },
  acceptTeamInvitation: { call: (a, signal) => a.acceptTeamInvitation("code", { signal }) },
  getTeamInvitationDetails: { call: (a, signal) => a.getTeamInvitationDetails("code", { signal }) },
  ...Object.fromEntries(REDIRECTS.map((name) => [name, { call: (a: StackClientApp, signal: AbortSignal) => a[name]({ signal }) }])),
  currentUser: "protected",
  sessionOf: "protected",
  signedOutUser: "protected",
  userExtras: "protected",
};

const serverAppTable: Table<StackServerApp> = {
  ...(clientApp as Table<StackServerApp>),
  getUser: [
    { call: (a, signal) => a.getUser({ signal }) },
    { call: (a, signal) => a.getUser(USER_ID, { signal }) },
    { call: (a, signal) => a.getUser({ apiKey: "key", signal }) },
  ],
  getServerUser: { call: (a, signal) => a.getServerUser({ signal }) },
  // A token that passes the checks made before the project's keys are fetched, so the call waits for them.
  verifyAccessToken: {
    call: (a, signal) => a.verifyAccessToken(tokenFor(a instanceof StackAdminApp ? ADMIN_PROJECT_ID : "proj-1"), { signal }),
  },
  verifiedUser: "protected",
  createUser: { call: (a, signal) => a.createUser({ primaryEmail: email, signal }) },
  listUsers: { call: (a, signal) => a.listUsers({ signal }) },
  createTeam: { call: (a, signal) => a.createTeam({ displayName: "Team", signal }) },
  getTeam: [{ call: (a, signal) => a.getTeam(TEAM_ID, { signal }) }, { call: (a, signal) => a.getTeam({ apiKey: "key", signal }) }],
  listTeams: { call: (a, signal) => a.listTeams({ signal }) },
};

const definition = { id: "read", description: "Reads" };
const adminAppTable: Table<StackAdminApp> = {
  ...(serverAppTable as Table<StackAdminApp>),
  getProject: { call: (a, signal) => a.getProject({ signal }) },
  listInternalApiKeys: { call: (a, signal) => a.listInternalApiKeys({ signal }) },
  createInternalApiKey: {
    call: (a, signal) =>
      a.createInternalApiKey({
        description: "k",
        expiresAt: new Date(4102444800000),
        hasPublishableClientKey: true,
        hasSecretServerKey: false,
        hasSuperSecretAdminKey: false,
        signal,
      }),
  },
  listEmailTemplates: { call: (a, signal) => a.listEmailTemplates({ signal }) },
  updateEmailTemplate: { call: (a, signal) => a.updateEmailTemplate("password_reset", { subject: "Reset", signal }) },
  resetEmailTemplate: { call: (a, signal) => a.resetEmailTemplate("password_reset", { signal }) },
  sendTestEmail: {
    call: (a, signal) =>
      a.sendTestEmail({
        recipientEmail: email,
        emailConfig: { host: "smtp.example.com", port: 587, username: "u", password: "p", senderEmail: email, senderName: "Ada" },
        signal,
      }),
  },
  listSentEmails: { call: (a, signal) => a.listSentEmails({ signal }) },
  listTeamPermissionDefinitions: { call: (a, signal) => a.listTeamPermissionDefinitions({ signal }) },
  createTeamPermissionDefinition: { call: (a, signal) => a.createTeamPermissionDefinition({ ...definition, signal }) },
  updateTeamPermissionDefinition: { call: (a, signal) => a.updateTeamPermissionDefinition("read", { description: "R", signal }) },
  deleteTeamPermissionDefinition: { call: (a, signal) => a.deleteTeamPermissionDefinition("read", { signal }) },
  listProjectPermissionDefinitions: { call: (a, signal) => a.listProjectPermissionDefinitions({ signal }) },
  createProjectPermissionDefinition: { call: (a, signal) => a.createProjectPermissionDefinition({ ...definition, signal }) },
  updateProjectPermissionDefinition: { call: (a, signal) => a.updateProjectPermissionDefinition("read", { description: "R", signal }) },
  deleteProjectPermissionDefinition: { call: (a, signal) => a.deleteProjectPermissionDefinition("read", { signal }) },
  getSvixToken: { call: (a, signal) => a.getSvixToken({ signal }) },
  getMetrics: { call: (a, signal) => a.getMetrics({ signal }) },
  permissionDefinitions: "protected",
};

// WHAT THE CLIENT APP HANDS OUT

const authTable: Table<
  Pick<CurrentUser, "getAuthHeaders" | "getAuthJson" | "getAccessToken" | "getRefreshToken" | "signOut" | "registerPasskey">
> = {
  getAuthHeaders: { call: (u, signal) => u.getAuthHeaders({ signal }), stale: true, shared: true },
  getAuthJson: { call: (u, signal) => u.getAuthJson({ signal }), stale: true, shared: true },
  getAccessToken: { call: (u, signal) => u.getAccessToken({ signal }), stale: true, shared: true },
  getRefreshToken: { call: (u, signal) => u.getRefreshToken({ signal }), stale: true, shared: true },
  signOut: { call: (u, signal) => u.signOut({ signal }) },
  registerPasskey: { call: (u, signal) => u.registerPasskey({ signal }) },
};

/** The methods every user has, the signed-in user's and a server's alike (`U` says which). */
function userTable<U extends CurrentUser | ServerUser>(): Table<U> {
  const u = (call: (user: CurrentUser & ServerUser, signal: AbortSignal) => Promise<unknown>): Case<U> => ({
    call: call as unknown as Case<U>["call"],
  });
  return {
    update: u((x, signal) => x.update({ displayName: "Ada", signal })),
    setDisplayName: u((x, signal) => x.setDisplayName("Ada", { signal })),
    setClientMetadata: u((x, signal) => x.setClientMetadata({ theme: "dark" }, { signal })),
    setSelectedTeam: u((x, signal) => x.setSelectedTeam(TEAM_ID, { signal })),
    delete: u((x, signal) => x.delete({ signal })),
    sendVerificationEmail: u((x, signal) => x.sendVerificationEmail({ signal })),
    updatePassword: u((x, signal) => x.updatePassword({ oldPassword: "a", newPassword: "b", signal })),
    setPassword: u((x, signal) => x.setPassword({ password: "pw", signal })),
    listTeams: u((x, signal) => x.listTeams({ signal })),
    getTeam: u((x, signal) => x.getTeam(TEAM_ID, { signal })),
    createTeam: u((x, signal) => x.createTeam({ displayName: "Team", signal })),
    leaveTeam: u((x, signal) => x.leaveTeam(team, { signal })),
    getTeamProfile: u((x, signal) => x.getTeamProfile(team, { signal })),
    listTeamInvitations: u((x, signal) => x.listTeamInvitations({ signal })),
    listApiKeys: u((x, signal) => x.listApiKeys({ signal })),
    createApiKey: u((x, signal) => x.createApiKey({ description: "k", expiresAt: null, signal })),
    listContactChannels: u((x, signal) => x.listContactChannels({ signal })),
    createContactChannel: u((x, signal) => x.createContactChannel({ value: email, type: "email", usedForAuth: false, signal })),
    getActiveSessions: u((x, signal) => x.getActiveSessions({ signal })),
    revokeSession: u((x, signal) => x.revokeSession("session-1", { signal })),
    listPermissions: [u((x, signal) => x.listPermissions(team, { signal })), u((x, signal) => x.listPermissions({ signal }))],
    getPermission: [u((x, signal) => x.getPermission(team, "read", { signal })), u((x, signal) => x.getPermission("read", { signal }))],
    hasPermission: [u((x, signal) => x.hasPermission(team, "read", { signal })), u((x, signal) => x.hasPermission("read", { signal }))],
    getConnectedAccount: u((x, signal) => x.getConnectedAccount("github", { signal })),
  };
}

const currentUser: Table<CurrentUser> = { ...userTable<CurrentUser>(), ...authTable };

const teamTable: Table<Team> = {
  inviteUser: { call: (t, signal) => t.inviteUser({ email, signal }) },
  listUsers: { call: (t, signal) => t.listUsers({ signal }) },
  listInvitations: { call: (t, signal) => t.listInvitations({ signal }) },
  update: { call: (t, signal) => t.update({ displayName: "Team", signal }) },
  delete: { call: (t, signal) => t.delete({ signal }) },
  createApiKey: { call: (t, signal) => t.createApiKey({ description: "k", expiresAt: null, signal }) },
  listApiKeys: { call: (t, signal) => t.listApiKeys({ signal }) },
};

const apiKeyTable: Table<ApiKey> = {
  update: { call: (k, signal) => k.update({ description: "k", signal }) },
  revoke: { call: (k, signal) => k.revoke({ signal }) },
  isValid: "sync",
  whyInvalid: "sync",
};

const contactChannelTable: Table<ContactChannel | ServerContactChannel> = {
  sendVerificationEmail: { call: (c, signal) => c.sendVerificationEmail({ signal }) },
  update: { call: (c, signal) => c.update({ value: email, signal }) },
  delete: { call: (c, signal) => c.delete({ signal }) },
};

const receivedInvitationTable: Table<ReceivedTeamInvitation> = { accept: { call: (i, signal) => i.accept({ signal }) } };
const profileTable: Table<EditableTeamMemberProfile> = { update: { call: (p, signal) => p.update({ displayName: "Ada", signal }) } };
const connectionTable: Table<OAuthConnection> = { getAccessToken: { call: (c, signal) => c.getAccessToken({ signal }) } };
const adminProjectTable: Table<AdminProject> = {
  update: { call: (p, signal) => p.update({ displayName: "Acme", signal }) },
  delete: { call: (p, signal) => p.delete({ signal }) },
  getProductionModeErrors: { call: (p, signal) => p.getProductionModeErrors({ signal }), local: true },
  useProductionModeErrors: "sync",
};

/** A connection whose prefetched token is used up, so its next getAccessToken() asks the service. */
async function connection(u: Promise<CurrentUser | ServerUser>): Promise<OAuthConnection> {
  const found = (await (await u).getConnectedAccount("github"))!;
  await found.getAccessToken();
  return found;
}

// WHAT THE SERVER APP HANDS OUT

const serverUser: Table<ServerUser> = {
  ...userTable<ServerUser>(),
  updatePassword: { call: (x, signal) => x.updatePassword({ oldPassword: "a", newPassword: "b", signal }), local: true },
  setClientReadOnlyMetadata: { call: (x, signal) => x.setClientReadOnlyMetadata({ plan: "pro" }, { signal }) },
  setServerMetadata: { call: (x, signal) => x.setServerMetadata({ plan: "pro" }, { signal }) },
  setPrimaryEmail: { call: (x, signal) => x.setPrimaryEmail(email, { verified: true, signal }) },
  createSession: { call: (x, signal) => x.createSession({ signal }) },
  grantPermission: [
    { call: (x, signal) => x.grantPermission(team, "read", { signal }) },
    { call: (x, signal) => x.grantPermission("read", { signal }) },
  ],
  revokePermission: [
    { call: (x, signal) => x.revokePermission(team, "read", { signal }) },
    { call: (x, signal) => x.revokePermission("read", { signal }) },
  ],
};

const currentServerUser: Table<CurrentServerUser> = {
  ...(serverUser as Table<CurrentServerUser>),
  ...authTable,
  // The request's own user has a session, so the old password can be checked.
  updatePassword: { call: (x, signal) => x.updatePassword({ oldPassword: "a", newPassword: "b", signal }) },
};

const serverTeamTable: Table<ServerTeam> = {
  ...(teamTable as Table<ServerTeam>),
  addUser: { call: (t, signal) => t.addUser(USER_ID, { signal }) },
  removeUser: { call: (t, signal) => t.removeUser(USER_ID, { signal }) },
};

const byId = async (w: World) => (await serverApp(w).getUser(USER_ID))!;
const adminApp = (w: World) => w.app as StackAdminApp;
const teamOf = async (w: World) => first((await user(w)).listTeams());
const internalUser = user as (w: World) => Promise<CurrentInternalUser>;

const subject = <S>(name: string, world: WorldKind, make: (w: World) => Promise<S>, table: Table<S>): Subject<S> => ({
  name,
  world,
  make,
  table,
});

export const SUBJECTS = [
  subject("StackClientApp", "client", async (w) => w.app, clientApp),
  subject("CurrentUser", "client", user, currentUser),
  subject("CurrentUser.currentSession", "client", async (w) => (await user(w)).currentSession, {
    getTokens: { call: (s, signal) => s.getTokens({ signal }), stale: true, shared: true },
  }),
  subject("Team", "client", teamOf, teamTable),
  subject<TeamInvitation>("TeamInvitation", "client", async (w) => first((await teamOf(w)).listInvitations()), {
    revoke: { call: (i, signal) => i.revoke({ signal }) },
  }),
  subject("ReceivedTeamInvitation", "client", async (w) => first((await user(w)).listTeamInvitations()), receivedInvitationTable),
  subject("EditableTeamMemberProfile", "client", async (w) => (await user(w)).getTeamProfile(team), profileTable),
  subject("UserApiKey", "client", async (w) => first((await user(w)).listApiKeys()), apiKeyTable),
  subject("TeamApiKey", "client", async (w) => first((await teamOf(w)).listApiKeys()), apiKeyTable),
  subject("ContactChannel", "client", async (w) => first((await user(w)).listContactChannels()), contactChannelTable),
  subject<ActiveSession>("ActiveSession", "client", async (w) => first((await user(w)).getActiveSessions()), {}),
  subject("OAuthConnection", "client", (w) => connection(user(w)), connectionTable),
  subject("CurrentInternalUser", "internal", internalUser, {
    ...(currentUser as Table<CurrentInternalUser>),
    createProject: { call: (u, signal) => u.createProject({ displayName: "New", signal }) },
    listOwnedProjects: { call: (u, signal) => u.listOwnedProjects({ signal }) },
  }),
  subject<AdminOwnedProject>(
    "AdminOwnedProject",
    "internal",
    async (w) => first((await internalUser(w)).listOwnedProjects()),
    adminProjectTable,
  ),
  subject("StackServerApp", "server", async (w) => serverApp(w), serverAppTable),
  subject("CurrentServerUser", "server", (w) => serverApp(w).getUser({ or: "throw" }), currentServerUser),
  subject("ServerUser", "server", byId, serverUser),
  subject("ServerTeam", "server", async (w) => (await serverApp(w).getTeam(TEAM_ID))!, serverTeamTable),
  subject("ServerTeamUser", "server", async (w) => first((await serverApp(w).getTeam(TEAM_ID))!.listUsers()), serverUser),
  subject("ServerContactChannel", "server", async (w) => first((await byId(w)).listContactChannels()), contactChannelTable),
  subject("ServerUser's ApiKey", "server", async (w) => first((await byId(w)).listApiKeys()), apiKeyTable),
  subject(
    "ServerUser's ReceivedTeamInvitation",
    "server",
    async (w) => first((await byId(w)).listTeamInvitations()),
    receivedInvitationTable,
  ),
  subject("ServerUser's EditableTeamMemberProfile", "server", async (w) => (await byId(w)).getTeamProfile(team), profileTable),
  subject("ServerUser's OAuthConnection", "server", (w) => connection(byId(w)), connectionTable),
  subject<CreatedSession>("CreatedSession", "server", async (w) => (await byId(w)).createSession(), {
    getTokens: { call: (s, signal) => s.getTokens({ signal }), local: true },
  }),
  subject("StackAdminApp", "admin", async (w) => adminApp(w), adminAppTable),
  subject("AdminProject", "admin", (w) => adminApp(w).getProject(), adminProjectTable),
  subject<InternalApiKey>("InternalApiKey", "admin", async (w) => first(adminApp(w).listInternalApiKeys()), {
    revoke: { call: (k, signal) => k.revoke({ signal }) },
    isValid: "sync",
    whyInvalid: "sync",
  }),
] as unknown as readonly Subject<never>[];
