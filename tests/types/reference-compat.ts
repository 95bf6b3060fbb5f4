// Type test, checked by `make typecheck` (tsc): an app written for the
// reference SDK's API (@stackframe/js v2.8.11) compiles against stackkit with
// only its import changed. Nothing here runs; it only has to type-check.
import { KnownErrors, StackClientApp } from "../../runtime/index.js"; // in an app: from "stackkit"

export async function writtenForTheReferenceSdk(email: string, password: string): Promise<void> {
  const app = new StackClientApp({
    projectId: "6f4a3c2e-0b1d-4e5f-9a8b-7c6d5e4f3a2b",
    publishableClientKey: "pck_…",
    tokenStore: "cookie",
    urls: { afterSignIn: "/dashboard", handler: "/auth" },
    oauthScopesOnSignIn: { github: ["repo"] },
  });

  const signIn = await app.signInWithCredential({ email, password, noRedirect: true });
  if (signIn.status === "error") {
    if (signIn.error instanceof KnownErrors.EmailPasswordMismatch) return;
  }
  const signUp = await app.signUpWithCredential({ email, password, verificationCallbackUrl: "https://app.example.com/verify" });
  if (signUp.status === "error" && signUp.error instanceof KnownErrors.UserWithEmailAlreadyExists) return;
  await app.sendForgotPasswordEmail(email);
  await app.resetPassword({ code: "c", password });
  await app.verifyEmail("c");
  const magic = await app.sendMagicLinkEmail(email);
  if (magic.status === "ok") console.info(magic.data.nonce.length);
  await app.signInWithMagicLink("code");
  await app.signInWithPasskey();
  await app.signInWithOAuth("github");
  const handled: boolean = await app.callOAuthCallback();
  const details = await app.getTeamInvitationDetails("code");
  if (details.status === "ok") console.info(details.data.teamDisplayName, handled);

  const user = await app.getUser({ or: "redirect" });
  const maybeUser = await app.getUser();
  console.info(maybeUser?.primaryEmail);
  const name: string | null = user.displayName;
  const signedUpAt: Date = user.signedUpAt;
  console.info(name, signedUpAt.toISOString(), user.primaryEmailVerified, user.isAnonymous, user.hasPassword, user.clientMetadata);
  await user.update({ displayName: "Ada", clientMetadata: { theme: "dark" } });
  await user.setDisplayName("Ada L.");
  await user.sendVerificationEmail();
  await user.updatePassword({ oldPassword: password, newPassword: "new password" });

  const teams = await user.listTeams();
  console.info(teams.map((team) => team.displayName));
  const team = await user.createTeam({ displayName: "Acme" });
  await team.inviteUser({ email: "grace@example.com" });
  await team.update({ displayName: "Acme Inc." });
  const members = await team.listUsers();
  console.info(members.map((m) => m.teamProfile.displayName));
  await user.setSelectedTeam(team);
  const selected = user.selectedTeam;
  console.info(selected?.id);
  const isAdmin: boolean = await user.hasPermission(team, "team_admin");
  const permissions = await user.listPermissions(team, { recursive: false });
  console.info(
    isAdmin,
    permissions.map((p) => p.id),
  );
  await user.leaveTeam(team);

  const channels = await user.listContactChannels();
  console.info(channels.map((c) => [c.value, c.isPrimary, c.isVerified, c.usedForAuth]));
  const sessions = await user.getActiveSessions();
  for (const session of sessions) if (!session.isCurrentSession) await user.revokeSession(session.id);

  const key = await user.createApiKey({ description: "CI", expiresAt: new Date(Date.now() + 86_400_000) });
  const fullValue: string = key.value;
  const keys = await user.listApiKeys();
  console.info(
    fullValue.length,
    keys.map((k) => [k.value.lastFour, k.isValid(), k.whyInvalid()]),
  );
  await keys[0]?.revoke();

  const connection = await user.getConnectedAccount("github", { scopes: ["repo"] });
  if (connection) console.info((await connection.getAccessToken()).accessToken);

  const project = await app.getProject();
  console.info(project.displayName, project.config.signUpEnabled, project.config.oauthProviders);
  const cli = await app.promptCliLogin({ appUrl: "https://app.example.com" });
  if (cli.status === "ok") console.info(cli.data.length);
  await app.redirectToSignIn();
  await app.redirectToAfterSignOut({ replace: true });
  await user.signOut();
  await app.signOut();
  console.info(app.urls.signIn, app.projectId, app.version);
}
