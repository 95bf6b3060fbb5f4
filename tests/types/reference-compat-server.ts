// Type test, checked by `make typecheck` (tsc): server code written for the
// reference SDK's API (@stackframe/js v2.8.11) compiles against stackkit with
// only its import changed. Nothing here runs; it only has to type-check.
import {
  KnownErrors,
  StackClientApp,
  StackServerApp,
  type CurrentUser,
  type ServerTeam,
  type ServerUser,
  type Team,
} from "../../runtime/index.js"; // in an app: from "stackkit"

export async function serverCodeWrittenForTheReferenceSdk(request: Request): Promise<void> {
  const app = new StackServerApp({
    projectId: "6f4a3c2e-0b1d-4e5f-9a8b-7c6d5e4f3a2b",
    publishableClientKey: "pck_…",
    secretServerKey: "ssk_…",
    tokenStore: "memory",
  });

  // The request's user, and the current user's server fields.
  const me = await app.getUser({ tokenStore: request });
  if (me) {
    const lastActiveAt: Date = me.lastActiveAt;
    console.info(lastActiveAt.toISOString(), me.serverMetadata, me.primaryEmail);
    await me.setServerMetadata({ plan: "pro" });
    console.info((await me.getAuthJson()).accessToken, await me.getAccessToken(), await app.getRefreshToken({ tokenStore: request }));
  }
  const required = await app.getUser({ tokenStore: request, or: "throw" });
  console.info(required.id);

  // List users, page by page.
  let cursor: string | undefined;
  do {
    const page = await app.listUsers({ limit: 100, orderBy: "signedUpAt", desc: true, ...(cursor ? { cursor } : {}) });
    for (const user of page) console.info(user.id, user.displayName, user.signedUpAt.getTime(), user.lastActiveAt);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  const found: ServerUser[] = await app.listUsers({ query: "ada" });
  // The official SDK 2.8.102's orders and pages (the hosted service's since 2.8.102).
  const active = await app.listUsers({ orderBy: "lastActiveAt", desc: true, limit: 10 });
  const teamPage = await app.listTeams({ query: "acme", orderBy: "createdAt", desc: true, limit: 10 });
  const nextTeams: ServerTeam[] = teamPage.nextCursor === null ? [] : await app.listTeams({ cursor: teamPage.nextCursor });
  console.info(active.nextCursor, nextTeams.length);
  console.info(found.length);

  // Create users and a team; add a user.
  const ada = await app.createUser({
    primaryEmail: "ada@example.com",
    primaryEmailVerified: true,
    primaryEmailAuthEnabled: true,
    password: "correct horse battery staple",
    displayName: "Ada",
    serverMetadata: { stripeCustomerId: "cus_123" },
  });
  const team: ServerTeam = await app.createTeam({ displayName: "Acme", creatorUserId: ada.id });
  await team.addUser(ada.id);
  await team.update({ displayName: "Acme Inc.", serverMetadata: { tier: "gold" }, clientReadOnlyMetadata: { seats: 5 } });
  const members = await team.listUsers();
  console.info(members.map((m) => [m.id, m.teamProfile.displayName, m.serverMetadata]));
  await team.inviteUser({ email: "grace@example.com", callbackUrl: "https://app.example.com/handler/team-invitation" });
  for (const invitation of await team.listInvitations()) await invitation.revoke();
  console.info(team.createdAt.getTime(), team.serverMetadata);
  await team.removeUser(ada.id);

  // Read users and teams by id and by API key.
  const byId = await app.getUser(ada.id);
  const byKey = await app.getUser({ apiKey: "sk_user_…" });
  const sameTeam = await app.getTeam(team.id);
  const keyTeam = await app.getTeam({ apiKey: "sk_team_…" });
  console.info(byId?.id, byKey?.id, sameTeam?.displayName, keyTeam?.id, (await app.listTeams()).length);

  // Impersonate.
  const session = await ada.createSession({ isImpersonation: true });
  const { accessToken, refreshToken } = await session.getTokens();
  console.info(accessToken?.length, refreshToken?.length);
  const plain = await ada.createSession();
  console.info(await plain.getTokens());

  // Permissions, at team and project level.
  await ada.grantPermission(team, "team_admin");
  await ada.grantPermission("admin");
  const isAdmin: boolean = await ada.hasPermission(team, "team_admin");
  const permissions = await ada.listPermissions(team, { recursive: false });
  console.info(
    isAdmin,
    permissions.map((p) => p.id),
  );
  await ada.revokePermission(team, "team_admin");
  await ada.revokePermission("admin");

  // The rest of ServerUser.
  await ada.update({
    displayName: "Ada L.",
    primaryEmailVerified: true,
    clientReadOnlyMetadata: { a: 1 },
    serverMetadata: { b: 2 },
    password: "new pw",
  });
  await ada.setPrimaryEmail("ada@lovelace.example", { verified: true });
  await ada.setClientReadOnlyMetadata({ plan: "pro" });
  await ada.setDisplayName("Countess");
  const teams: ServerTeam[] = await ada.listTeams();
  const adaTeamPage = await ada.listTeams({ limit: 5, orderBy: "createdAt" });
  console.info(adaTeamPage.nextCursor);
  if (teams[0]) await ada.leaveTeam(teams[0]);
  const channel = await ada.createContactChannel({ value: "ada@work.example", type: "email", usedForAuth: false, isVerified: true });
  await channel.update({ isPrimary: true });
  for (const c of await ada.listContactChannels()) console.info(c.value, c.isVerified);
  for (const s of await ada.getActiveSessions()) if (s.isImpersonation) await ada.revokeSession(s.id);
  const key = await ada.createApiKey({ description: "CI", expiresAt: null });
  console.info(
    key.value.length,
    (await ada.listApiKeys()).map((k) => k.whyInvalid()),
  );
  const github = await ada.getConnectedAccount("github", { scopes: ["repo"] });
  if (github) console.info((await github.getAccessToken()).accessToken);
  const setPassword = await ada.setPassword({ password: "another" });
  if (setPassword instanceof KnownErrors.PasswordRequirementsNotMet) return;
  await ada.delete();

  // Server objects are client objects too: code written for a CurrentUser or a Team accepts them.
  const asClientUser: CurrentUser | null = me;
  const asTeam: Team = team;
  console.info(asClientUser?.id, asTeam.id);
}

export function builtFromAClientApp(clientApp: StackClientApp): StackServerApp {
  return new StackServerApp({ inheritsFrom: clientApp, secretServerKey: "ssk_…" });
}

export function needsAProject(): void {
  // @ts-expect-error: a server app needs a projectId and a tokenStore, or a client app to inherit them from
  new StackServerApp({ secretServerKey: "ssk_…" });
}
