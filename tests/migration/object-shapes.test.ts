// The objects the apps hand out have the enumerable members of the reference
// SDK's (@stackframe/js 2.8.11): the objects its `_…FromCrud` and `_create…`
// functions build (packages/template/src/lib/stack-app/apps/implementations/),
// without the React-only members. A member whose value is undefined is a member
// all the same (a key that never expires has `expiresAt`), so snapshots and
// Object.keys agree with the reference's. The deliberate differences are listed
// here and in the README ("What is different on purpose"); members the newest
// official SDK added for today's service (a user's isRestricted, restrictedReason
// and listTeamInvitations) are kept, and marked where they are listed.
import { afterEach, beforeEach, expect, it } from "vitest";
import { StackClientApp, type CurrentInternalUser } from "../../runtime/index.js";
import { appsFor, createTestUser, INTERNAL_KEYS, signInAs, startEmulator, type TestEmulator } from "../../testing/index.js";

const BASE_USER = [
  "id",
  "displayName",
  "primaryEmail",
  "primaryEmailVerified",
  "profileImageUrl",
  "signedUpAt",
  "clientMetadata",
  "clientReadOnlyMetadata",
  "hasPassword",
  "emailAuthEnabled",
  "otpAuthEnabled",
  "oauthProviders",
  "passkeyAuthEnabled",
  "isMultiFactorRequired",
  "isAnonymous",
  // Not in 2.8.11's objects: the newest official SDK's, for services since 2.8.86, which have restricted users.
  "isRestricted",
  "restrictedReason",
  "toClientJson",
];
// getAccessToken and getRefreshToken: not in 2.8.11's objects; the official SDK's since (2.8.77 has them).
const AUTH = [
  "_internalSession",
  "currentSession",
  "getAuthHeaders",
  "getAuthJson",
  "getAccessToken",
  "getRefreshToken",
  "registerPasskey",
  "signOut",
];
const USER_METHODS = [
  "getActiveSessions",
  "revokeSession",
  "setDisplayName",
  "setClientMetadata",
  "setSelectedTeam",
  "getConnectedAccount",
  "getTeam",
  "listTeams",
  "createTeam",
  "leaveTeam",
  "listPermissions",
  "getPermission",
  "hasPermission",
  "update",
  "sendVerificationEmail",
  "updatePassword",
  "setPassword",
  "selectedTeam",
  "getTeamProfile",
  "delete",
  "listContactChannels",
  "createContactChannel",
  "listApiKeys",
  "createApiKey",
  // Not in 2.8.11's objects: the newest official SDK's, for services since 2.8.86, which list the invitations a user received.
  "listTeamInvitations",
];
const SERVER_USER = [
  ...BASE_USER,
  ...USER_METHODS,
  "lastActiveAt",
  "serverMetadata",
  // Not in 2.8.11's objects: the official SDK's since, for the server-only fields services since 2.8.86 answer.
  "restrictedByAdmin",
  "restrictedByAdminReason",
  "restrictedByAdminPrivateDetails",
  "countryCode",
  "riskScores",
  "setPrimaryEmail",
  "grantPermission",
  "revokePermission",
  "createSession",
  "setClientReadOnlyMetadata",
  "setServerMetadata",
];
const TEAM = [
  "id",
  "displayName",
  "profileImageUrl",
  "clientMetadata",
  "clientReadOnlyMetadata",
  "inviteUser",
  "listUsers",
  "listInvitations",
  "update",
  "delete",
  "listApiKeys",
  "createApiKey",
];
const API_KEY = [
  "id",
  "description",
  "expiresAt",
  "manuallyRevokedAt",
  "createdAt",
  "type",
  "value",
  "isValid",
  "whyInvalid",
  "revoke",
  "update",
];
const ADMIN_PROJECT = [
  "id",
  "displayName",
  "description",
  "createdAt",
  "userCount",
  "isProductionMode",
  // Not in 2.8.11's objects: the newest official SDK's (2.8.102), for what the hosted service answers since;
  // onboardingState is the service's field beside it, which that SDK does not read.
  "isDevelopmentEnvironment",
  "onboardingState",
  "config",
  "update",
  "delete",
  "getProductionModeErrors",
  "useProductionModeErrors",
];
const INTERNAL_API_KEY = [
  "id",
  "description",
  "expiresAt",
  "manuallyRevokedAt",
  "createdAt",
  "isValid",
  "whyInvalid",
  "revoke",
  "publishableClientKey",
  "secretServerKey",
  "superSecretAdminKey",
];

/** The reference's internals, which stackkit's objects do not have. */
const INTERNALS = new Set(["_internalSession", "toClientJson"]);

const sorted = (names: readonly string[]) => names.filter((name) => !INTERNALS.has(name)).sort();
/** Every enumerable member, own or inherited (a CurrentUser's shared methods are inherited). */
const members = (value: object) => {
  const names: string[] = [];
  for (const name in value) names.push(name);
  return names.sort();
};
/** The members, each of them the object's own. */
const own = (value: object) => {
  expect(Object.keys(value).sort()).toEqual(members(value));
  return members(value);
};

let emulator: TestEmulator;
beforeEach(async () => {
  // The reference SDK's service, 2.8.11: its objects (block-based e-mail templates among them) are what is compared.
  emulator = await startEmulator({ serviceVersion: "2.8.11" });
});
afterEach(() => emulator.close());

it("the client app's objects", async () => {
  const app = appsFor(emulator).client({ urls: { handler: "http://localhost:3000/handler" } });
  await signInAs(app, await createTestUser(emulator, { displayName: "Ada" }));
  const user = await app.getUser({ or: "throw" });

  // Its methods but signOut, registerPasskey and sendVerificationEmail are inherited from one
  // object per app (README): the members are the reference's, not all of them own.
  expect(members(user)).toEqual(sorted([...BASE_USER, ...AUTH, ...USER_METHODS]));
  expect(own(user.currentSession)).toEqual(["getTokens"]);

  const team = await user.createTeam({ displayName: "Acme" });
  expect(own(team)).toEqual(sorted(TEAM));
  const [member] = await team.listUsers();
  expect(own(member!)).toEqual(["id", "teamProfile"]);
  expect(own(member!.teamProfile)).toEqual(["displayName", "profileImageUrl"]);
  await team.inviteUser({ email: "grace@example.com" });
  const [invitation] = await team.listInvitations();
  expect(own(invitation!)).toEqual(sorted(["id", "recipientEmail", "expiresAt", "revoke"]));
  expect(own(await user.getTeamProfile(team))).toEqual(sorted(["displayName", "profileImageUrl", "update"]));
  const [permission] = await user.listPermissions(team);
  expect(own(permission!)).toEqual(["id"]);

  const [channel] = await user.listContactChannels();
  expect(own(channel!)).toEqual(
    sorted(["id", "value", "type", "isVerified", "isPrimary", "usedForAuth", "sendVerificationEmail", "update", "delete"]),
  );
  const [session] = await user.getActiveSessions();
  expect(own(session!)).toEqual(sorted(["id", "userId", "createdAt", "isImpersonation", "lastUsedAt", "isCurrentSession", "geoInfo"]));

  const created = await user.createApiKey({ description: "never expires", expiresAt: null });
  expect(own(created)).toEqual(sorted([...API_KEY, "userId"]));
  expect(created.expiresAt).toBeUndefined();
  const [listed] = await user.listApiKeys();
  expect(own(listed!)).toEqual(sorted([...API_KEY, "userId"]));
  const teamKey = await team.createApiKey({ description: "bot", expiresAt: new Date(Date.now() + 86_400_000) });
  expect(own(teamKey)).toEqual(sorted([...API_KEY, "teamId"]));

  const project = await app.getProject();
  expect(own(project)).toEqual(["config", "displayName", "id"]);
  expect(own(project.config)).toEqual(
    sorted([
      "signUpEnabled",
      "credentialEnabled",
      "magicLinkEnabled",
      "passkeyEnabled",
      "clientTeamCreationEnabled",
      "clientUserDeletionEnabled",
      "allowTeamApiKeys",
      "allowUserApiKeys",
      "oauthProviders",
    ]),
  );
  expect(project.config.oauthProviders.map(own)).toEqual(project.config.oauthProviders.map(() => ["id"]));
});

it("the server app's objects", async () => {
  const apps = appsFor(emulator);
  const client = apps.client();
  const server = apps.server();
  const testUser = await createTestUser(emulator);
  await signInAs(client, testUser);

  const user = (await server.getUser(testUser.id))!;
  expect(own(user)).toEqual(sorted(SERVER_USER));
  const current = await server.getUser({ tokenStore: await client.getUser({ or: "throw" }).then((u) => u.getAuthJson()), or: "throw" });
  expect(own(current)).toEqual(sorted([...SERVER_USER, ...AUTH]));

  const team = await server.createTeam({ displayName: "Support" });
  expect(own(team)).toEqual(sorted([...TEAM, "createdAt", "serverMetadata", "addUser", "removeUser"]));
  await team.addUser(user.id);
  const [member] = await team.listUsers();
  expect(own(member!)).toEqual(sorted([...SERVER_USER, "teamProfile"]));
  expect(own(await user.getTeamProfile(team))).toEqual(sorted(["displayName", "profileImageUrl", "update"]));
  const [channel] = await user.listContactChannels();
  expect(own(channel!)).toEqual(
    sorted(["id", "value", "type", "isVerified", "isPrimary", "usedForAuth", "sendVerificationEmail", "update", "delete"]),
  );
  expect(own(await user.createSession({}))).toEqual(["getTokens"]);
  expect(own(await user.createApiKey({ description: "server-made", expiresAt: null }))).toEqual(sorted([...API_KEY, "userId"]));
});

it("the admin app's objects", async () => {
  const admin = appsFor(emulator).admin();
  const project = await admin.getProject();
  expect(own(project)).toEqual(sorted(ADMIN_PROJECT));
  expect(own(project.config)).toEqual(
    sorted([
      "signUpEnabled",
      "credentialEnabled",
      "magicLinkEnabled",
      "passkeyEnabled",
      "clientTeamCreationEnabled",
      "clientUserDeletionEnabled",
      "allowLocalhost",
      "oauthAccountMergeStrategy",
      "allowUserApiKeys",
      "allowTeamApiKeys",
      "oauthProviders",
      "emailConfig",
      "domains",
      "createTeamOnSignUp",
      "teamCreatorDefaultPermissions",
      "teamMemberDefaultPermissions",
      "userDefaultPermissions",
    ]),
  );

  const keySet = await admin.createInternalApiKey({
    description: "backend",
    expiresAt: new Date(Date.now() + 86_400_000),
    hasPublishableClientKey: true,
    hasSecretServerKey: true,
    hasSuperSecretAdminKey: false,
  });
  expect(own(keySet)).toEqual(sorted(INTERNAL_API_KEY));
  const [listed] = await admin.listInternalApiKeys();
  expect(own(listed!)).toEqual(sorted(INTERNAL_API_KEY));

  const definition = await admin.createTeamPermissionDefinition({ id: "billing", containedPermissionIds: [] });
  expect(own(definition)).toEqual(["containedPermissionIds", "description", "id"]);
  const projectDefinition = await admin.createProjectPermissionDefinition({ id: "beta", containedPermissionIds: [] });
  expect(own(projectDefinition)).toEqual(["containedPermissionIds", "description", "id"]);

  const [template] = await admin.listEmailTemplates();
  expect(own(template!)).toEqual(sorted(["type", "subject", "content", "isDefault"]));
  await admin.sendTestEmail({
    recipientEmail: "ops@example.com",
    emailConfig: {
      host: "smtp.example.com",
      port: 587,
      username: "u",
      password: "p",
      senderEmail: "no-reply@example.com",
      senderName: "Acme",
    },
  });
  const [sent] = await admin.listSentEmails();
  expect(own(sent!)).toEqual(sorted(["id", "to", "subject", "recipient", "sentAt", "error"]));
});

it("an owned project of the internal project", async () => {
  const app = new StackClientApp({
    projectId: INTERNAL_KEYS.projectId,
    publishableClientKey: INTERNAL_KEYS.publishableClientKey,
    baseUrl: emulator.apiOrigin,
    environment: { fetch: emulator.fetch },
    tokenStore: "memory",
    noAutomaticPrefetch: true,
  });
  const owner = await createTestUser(emulator, { projectId: INTERNAL_KEYS.projectId });
  await signInAs(app, owner);
  const user = (await app.getUser({ or: "throw" })) as CurrentInternalUser;
  expect(members(user)).toEqual(sorted([...BASE_USER, ...AUTH, ...USER_METHODS, "createProject", "listOwnedProjects"]));
  const project = await user.createProject({ displayName: "Side project" });
  expect(own(project)).toEqual(sorted([...ADMIN_PROJECT, "app"]));
});
