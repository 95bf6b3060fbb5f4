// An app written for the reference SDK (@stackframe/js 2.8.11), as its users write
// them: the imports below are the reference's own. `make typecheck` (tsc) checks
// this file against the reference's published declarations (the @stackframe/js and
// @stackframe/stack-shared dev dependencies); reference-app.test.ts changes nothing
// but the import specifiers to stackkit's, type-checks that copy against stackkit,
// and runs this code on stackkit against the emulator.
//
// Node code only, with the reference's constructor options: the project's base URL
// and keys come in as a reference app gets them from its configuration.
import {
  StackAdminApp,
  StackClientApp,
  StackServerApp,
  type AdminProject,
  type CurrentUser,
  type ServerTeam,
  type ServerUser,
  type Team,
} from "@stackframe/js";
import { KnownError, KnownErrors } from "@stackframe/stack-shared";
import { Result } from "@stackframe/stack-shared/dist/utils/results";

export interface ProjectSettings {
  readonly baseUrl: string;
  readonly projectId: string;
  readonly publishableClientKey: string;
  readonly secretServerKey: string;
  readonly superSecretAdminKey: string;
  /** Where the app's handler pages live; links in e-mails point there. */
  readonly handlerUrl: string;
}

export function createApps(settings: ProjectSettings) {
  const common = {
    baseUrl: settings.baseUrl,
    projectId: settings.projectId,
    publishableClientKey: settings.publishableClientKey,
    tokenStore: "memory",
    urls: { handler: settings.handlerUrl },
    noAutomaticPrefetch: true,
  } as const;
  const clientApp = new StackClientApp(common);
  const serverApp = new StackServerApp({ ...common, secretServerKey: settings.secretServerKey });
  const adminApp = new StackAdminApp({
    ...common,
    secretServerKey: settings.secretServerKey,
    superSecretAdminKey: settings.superSecretAdminKey,
  });
  return { clientApp, serverApp, adminApp };
}

/** What a known error tells the app: the fields app code reads, and which classes it is an instance of. */
function describeKnownError(error: unknown) {
  if (!(error instanceof KnownError)) throw error;
  return {
    errorCode: error.errorCode,
    statusCode: error.statusCode,
    isKnownError: KnownErrors.EmailPasswordMismatch.isInstance(error) || error instanceof KnownError,
  };
}

/** Sign-up, sign-in and the signed-in user's own account, teams and keys, through the client app. */
export async function clientJourney(clientApp: StackClientApp, email: string, password: string) {
  const signUp = await clientApp.signUpWithCredential({
    email,
    password,
    noRedirect: true,
    verificationCallbackUrl: clientApp.urls.emailVerification,
  });
  const signUpAgain = await clientApp.signUpWithCredential({ email, password, noRedirect: true });
  let duplicate: { errorCode: string; statusCode: number; instance: boolean } | null = null;
  if (signUpAgain.status === "error") {
    duplicate = {
      errorCode: signUpAgain.error.errorCode,
      statusCode: signUpAgain.error.statusCode,
      instance: signUpAgain.error instanceof KnownErrors.UserWithEmailAlreadyExists,
    };
  }

  const wrongPassword = await clientApp.signInWithCredential({ email, password: `${password}-wrong`, noRedirect: true });
  let mismatch: { errorCode: string; instance: boolean; message: string; json: unknown } | null = null;
  if (wrongPassword.status === "error") {
    mismatch = {
      errorCode: wrongPassword.error.errorCode,
      instance: wrongPassword.error instanceof KnownErrors.EmailPasswordMismatch,
      message: wrongPassword.error.humanReadableMessage,
      json: wrongPassword.error.toDescriptiveJson(),
    };
  }
  Result.orThrow(await clientApp.signInWithCredential({ email, password, noRedirect: true }));

  const user: CurrentUser = await clientApp.getUser({ or: "throw" });
  await user.update({ displayName: "Ada Lovelace", clientMetadata: { theme: "dark" } });
  const updated = await clientApp.getUser({ or: "throw" });

  const passwordError = await user.updatePassword({ oldPassword: `${password}-wrong`, newPassword: `${password}-new` });
  const passwordErrorCode = passwordError instanceof KnownErrors.PasswordConfirmationMismatch ? passwordError.errorCode : null;

  const team: Team = await user.createTeam({ displayName: "Analytical Engines" });
  await team.update({ displayName: "Analytical Engines Ltd" });
  const teams = await user.listTeams();
  const members = await team.listUsers();
  const profile = await user.getTeamProfile(team);
  const selected = (await clientApp.getUser({ or: "throw" })).selectedTeam;
  const isTeamAdmin = await user.hasPermission(team, "team_admin");

  const apiKey = await user.createApiKey({ description: "CI", expiresAt: new Date(Date.now() + 30 * 24 * 60 * 60 * 1000) });
  const listedKeys = await user.listApiKeys();

  // The service refuses to revoke the session in use: a thrown known error.
  const sessions = await user.getActiveSessions();
  const current = sessions.find((session) => session.isCurrentSession);
  const revokeCurrent = current ? await user.revokeSession(current.id).then(() => null, describeKnownError) : null;

  return {
    signUp: signUp.status,
    duplicate,
    mismatch,
    user: { id: user.id, primaryEmail: user.primaryEmail, hasPassword: user.hasPassword },
    updated: { displayName: updated.displayName, clientMetadata: updated.clientMetadata },
    passwordErrorCode,
    team: {
      id: team.id,
      listed: teams.map((t) => t.displayName),
      members: members.map((member) => member.id),
      profileDisplayName: profile.displayName,
      selectedTeamId: selected?.id ?? null,
      isTeamAdmin,
    },
    apiKey: {
      value: apiKey.value,
      keys: Object.keys(apiKey).sort(),
      isValid: apiKey.isValid(),
      whyInvalid: apiKey.whyInvalid(),
      listed: listedKeys.map((key) => ({ id: key.id, lastFour: key.value.lastFour, keys: Object.keys(key).sort() })),
    },
    revokeCurrent,
  };
}

/** Users and teams managed from the server, with the secret server key. */
export async function serverJourney(serverApp: StackServerApp, clientUserId: string, clientApiKey: string) {
  const grace: ServerUser = await serverApp.createUser({
    primaryEmail: "grace@example.com",
    primaryEmailAuthEnabled: true,
    password: "correct horse battery",
    displayName: "Grace Hopper",
    serverMetadata: { plan: "pro" },
  });
  const duplicate = await serverApp
    .createUser({ primaryEmail: "grace@example.com", primaryEmailAuthEnabled: true, password: "another password" })
    .then(
      () => null,
      (error: unknown) => ({
        ...describeKnownError(error),
        instance: error instanceof KnownErrors.UserWithEmailAlreadyExists,
      }),
    );

  const users = await serverApp.listUsers();
  const byId = await serverApp.getUser(grace.id);
  const byApiKey = await serverApp.getUser({ apiKey: clientApiKey });
  await byId?.update({ serverMetadata: { plan: "enterprise" } });
  const reread = await serverApp.getUser(grace.id);

  const team: ServerTeam = await serverApp.createTeam({ displayName: "Compilers" });
  await team.addUser(grace.id);
  await team.addUser(clientUserId);
  if (byId) await byId.grantPermission(team, "team_admin");
  const graceIsAdmin = byId ? await byId.hasPermission(team, "team_admin") : false;
  const members = (await team.listUsers()).map((member) => member.id).sort();
  await team.removeUser(clientUserId);
  const afterRemoval = (await team.listUsers()).map((member) => member.id);
  const fetched = await serverApp.getTeam(team.id);
  const listedTeams = (await serverApp.listTeams()).map((t) => t.displayName);
  await team.delete();
  const deletedTeam = await serverApp.getTeam(team.id);

  await grace.delete();
  const deletedUser = await serverApp.getUser(grace.id);

  return {
    created: { displayName: grace.displayName, primaryEmail: grace.primaryEmail, serverMetadata: grace.serverMetadata },
    duplicate,
    listed: users.some((u) => u.id === grace.id),
    byId: byId?.id ?? null,
    byApiKey: byApiKey?.id ?? null,
    serverMetadata: reread?.serverMetadata,
    team: {
      fetched: fetched?.displayName ?? null,
      listed: listedTeams.includes("Compilers"),
      members,
      afterRemoval,
      graceIsAdmin,
      deleted: deletedTeam,
    },
    deletedUser,
  };
}

/** The project's own settings, permission definitions and key sets, with the super-secret admin key. */
export async function adminJourney(adminApp: StackAdminApp) {
  const project: AdminProject = await adminApp.getProject();
  await project.update({ description: "Where engines are analysed" });
  const updated = await adminApp.getProject();

  await adminApp.createTeamPermissionDefinition({ id: "billing_manager", description: "Sees invoices", containedPermissionIds: [] });
  await adminApp.updateTeamPermissionDefinition("billing_manager", { description: "Sees and pays invoices" });
  const definitions = await adminApp.listTeamPermissionDefinitions();
  const billing = definitions.find((d) => d.id === "billing_manager");
  const again = await adminApp.createTeamPermissionDefinition({ id: "billing_manager", containedPermissionIds: [] }).then(
    () => null,
    (error: unknown) => describeKnownError(error).errorCode,
  );
  await adminApp.deleteTeamPermissionDefinition("billing_manager");
  const afterDelete = (await adminApp.listTeamPermissionDefinitions()).some((d) => d.id === "billing_manager");

  const keySet = await adminApp.createInternalApiKey({
    description: "Staging backend",
    expiresAt: new Date(Date.now() + 90 * 24 * 60 * 60 * 1000),
    hasPublishableClientKey: true,
    hasSecretServerKey: true,
    hasSuperSecretAdminKey: false,
  });
  await keySet.revoke();
  const revoked = (await adminApp.listInternalApiKeys()).find((k) => k.id === keySet.id);

  return {
    project: { id: project.id, description: updated.description, configKeys: Object.keys(updated.config).length > 0 },
    billing: billing ? { description: billing.description ?? null, containedPermissionIds: billing.containedPermissionIds } : null,
    again,
    afterDelete,
    keySet: {
      hasPublishable: typeof keySet.publishableClientKey === "string",
      hasSecret: typeof keySet.secretServerKey === "string",
      superSecretAdminKey: keySet.superSecretAdminKey,
      revokedIsValid: revoked?.isValid() ?? null,
      whyInvalid: revoked?.whyInvalid() ?? null,
    },
  };
}
