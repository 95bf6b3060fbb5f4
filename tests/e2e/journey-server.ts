// The journey's server side: users created whatever the sign-up setting and
// listed page by page, by search and by team; teams made and managed by the
// server; impersonation; the whole surface of a server user, run on each of its
// three forms (a user by id, a team member, the request's own user); a backend
// running the end-user flows through StackServerApp (and StackAdminApp, which
// is one); and every redirect of the three apps.
import { describe, expect, it } from "vitest";
import {
  KnownErrors,
  SessionEndedError,
  StackConfigurationError,
  type CurrentServerUser,
  type ServerTeam,
  type ServerUser,
  type StackServerApp,
} from "../../runtime/index.js";
import type { RedirectMethods } from "../../runtime/app/redirect-methods.js";
import { claimsOf, HANDLER, rejectionOf, SITE, type Cast, type E2E } from "./harness.js";

const VERIFY_PAGE = `${HANDLER}/email-verification`;

/** Where each redirect goes with the apps' URL set (handler pages, and home for the after-pages). */
const REDIRECTS: Readonly<Record<keyof RedirectMethods, string>> = {
  redirectToSignIn: `${HANDLER}/sign-in`,
  redirectToSignUp: `${HANDLER}/sign-up`,
  redirectToSignOut: `${HANDLER}/sign-out`,
  redirectToEmailVerification: `${HANDLER}/email-verification`,
  redirectToPasswordReset: `${HANDLER}/password-reset`,
  redirectToForgotPassword: `${HANDLER}/forgot-password`,
  redirectToHome: `${SITE}/`,
  redirectToOAuthCallback: `${HANDLER}/oauth-callback`,
  redirectToMagicLinkCallback: `${HANDLER}/magic-link-callback`,
  redirectToAfterSignIn: `${SITE}/`,
  redirectToAfterSignUp: `${SITE}/`,
  redirectToAfterSignOut: `${SITE}/`,
  redirectToAccountSettings: `${HANDLER}/account-settings`,
  redirectToError: `${HANDLER}/error`,
  redirectToTeamInvitation: `${HANDLER}/team-invitation`,
};

type UserForm = "ServerUser" | "ServerTeamUser" | "CurrentServerUser";

/**
 * Every method of a server user, each with its outcome read back: through a
 * fresh server read, a client app signed in as the user, or the mailbox.
 */
async function exerciseServerUser(
  e: E2E,
  form: UserForm,
  u: ServerUser | CurrentServerUser,
  login: { email: string; password: string },
): Promise<void> {
  const server = e.server();
  const reread = async () => (await server.getUser(u.id))!;
  const tag = form.toLowerCase();
  const signedIn = async (password = login.password) => {
    const app = e.client();
    const result = await app.signInWithCredential({ email: login.email, password, noRedirect: true });
    return { app, result };
  };

  // Profile and metadata.
  await u.update({ displayName: `${form} one`, clientMetadata: { step: 1 } });
  await u.setDisplayName(`${form} two`);
  await u.setClientMetadata({ step: 2 });
  await u.setClientReadOnlyMetadata({ plan: "pro" });
  await u.setServerMetadata({ crm: form });
  const r = await reread();
  expect([r.displayName, r.clientMetadata, r.clientReadOnlyMetadata, r.serverMetadata]).toEqual([
    `${form} two`,
    { step: 2 },
    { plan: "pro" },
    { crm: form },
  ]);
  const asClient = await (await signedIn()).app.getUser({ or: "throw" });
  expect([asClient.displayName, asClient.clientReadOnlyMetadata, "serverMetadata" in asClient]).toEqual([
    `${form} two`,
    { plan: "pro" },
    false,
  ]);

  // A new primary e-mail, verified from the mailbox.
  const address = `${tag}-new@example.com`;
  await u.setPrimaryEmail(address, { verified: false });
  expect([(await reread()).primaryEmail, (await reread()).primaryEmailVerified]).toEqual([address, false]);
  expect(await u.sendVerificationEmail()).toBeUndefined();
  expect((await e.client().verifyEmail(await e.codeFromMail(address, /^Verify your email/, VERIFY_PAGE))).status).toBe("ok");
  expect((await reread()).primaryEmailVerified).toBe(true);
  login.email = address;

  // Teams, the selected team, the member profile.
  const team = await u.createTeam({ displayName: `${form}'s team` });
  expect((await reread()).selectedTeam?.id).toBe(team.id);
  expect((await u.listTeams()).map((t) => t.id)).toContain(team.id);
  expect((await u.getTeam(team.id))?.displayName).toBe(`${form}'s team`);
  await u.setSelectedTeam(null);
  expect((await reread()).selectedTeam).toBeNull();
  await u.setSelectedTeam(team);
  expect((await reread()).selectedTeam?.id).toBe(team.id);
  await (await u.getTeamProfile(team)).update({ displayName: `${form} at work` });
  expect((await team.listUsers()).find((m) => m.id === u.id)?.teamProfile.displayName).toBe(`${form} at work`);

  // Permissions in the team and in the project.
  await u.grantPermission(team, "billing");
  expect(await u.hasPermission(team, "billing")).toBe(true);
  expect(await u.getPermission(team, "billing")).toEqual({ id: "billing" });
  expect((await u.listPermissions(team)).map((p) => p.id)).toEqual(expect.arrayContaining(["billing", "team_admin"]));
  await u.revokePermission(team, "billing");
  expect(await u.hasPermission(team, "billing")).toBe(false);
  await u.grantPermission("read_reports");
  expect((await u.listPermissions()).map((p) => p.id)).toEqual(["read_reports"]);
  expect(await u.getPermission("read_reports")).toEqual({ id: "read_reports" });
  await u.revokePermission("read_reports");
  expect(await u.hasPermission("read_reports")).toBe(false);
  await u.leaveTeam(team);
  expect((await u.listTeams()).map((t) => t.id)).not.toContain(team.id);

  // API keys.
  const key = await u.createApiKey({ description: `${form} key`, expiresAt: null });
  expect((await server.getUser({ apiKey: key.value }))?.id).toBe(u.id);
  const listed = (await u.listApiKeys()).find((k) => k.id === key.id)!;
  await listed.update({ description: `${form} key, renamed` });
  expect((await u.listApiKeys()).map((k) => k.description)).toEqual([`${form} key, renamed`]);
  await key.revoke();
  expect(await server.getUser({ apiKey: key.value })).toBeNull();

  // Contact channels.
  const alternate = `${tag}-alt@example.com`;
  const channel = await u.createContactChannel({ type: "email", value: alternate, usedForAuth: false });
  await channel.sendVerificationEmail();
  expect((await e.mailbox(alternate)).map((m) => m.subject)).toEqual(["Verify your email at Demo"]);
  await channel.update({ isVerified: true });
  expect((await u.listContactChannels()).find((c) => c.id === channel.id)?.isVerified).toBe(true);
  await channel.delete();
  // 2.8.86 keeps a replaced primary e-mail as a channel of its own; 2.8.11 changed the channel in place.
  const kept = e.serviceVersion === "2.8.11" ? [address] : [`${tag}@example.com`, address];
  expect((await u.listContactChannels()).map((c) => c.value).sort()).toEqual(kept.sort());

  // Sessions made by the server: an impersonation, listed to the project's admins only, and a plain one, revoked.
  const impersonation = await (await u.createSession({ isImpersonation: true })).getTokens();
  const impersonationId = claimsOf(impersonation.accessToken).refresh_token_id;
  const support = e.client({ tokenStore: { accessToken: impersonation.accessToken!, refreshToken: impersonation.refreshToken! } });
  expect((await support.getUser())?.id).toBe(u.id);
  expect((await u.getActiveSessions()).map((s) => s.id)).not.toContain(impersonationId);
  const asAdmin = (await e.admin().getUser(u.id))!;
  expect((await asAdmin.getActiveSessions()).find((s) => s.id === impersonationId)?.isImpersonation).toBe(true);
  const plain = await (await u.createSession()).getTokens();
  const plainId = claimsOf(plain.accessToken).refresh_token_id!;
  expect((await u.getActiveSessions()).find((s) => s.id === plainId)?.isImpersonation).toBe(false);
  await u.revokeSession(plainId);
  expect((await u.getActiveSessions()).map((s) => s.id)).not.toContain(plainId);
  expect(await e.client({ tokenStore: { accessToken: null, refreshToken: plain.refreshToken! } }).getUser()).toBeNull();

  // Passwords: only the user's own session can change one with the old password; the server sets one.
  if ("currentSession" in u) {
    const json = await u.getAuthJson();
    expect(claimsOf(json.accessToken).sub).toBe(u.id);
    expect([await u.getAccessToken(), await u.getRefreshToken()]).toEqual([json.accessToken, json.refreshToken]);
    expect(await u.currentSession.getTokens()).toEqual(json);
    expect(JSON.parse((await u.getAuthHeaders())["x-stack-auth"])).toEqual(json);
    expect(await u.updatePassword({ oldPassword: "wrong", newPassword: "changed by the user 1" })).toBeInstanceOf(
      KnownErrors.PasswordConfirmationMismatch,
    );
    expect(await u.updatePassword({ oldPassword: login.password, newPassword: "changed by the user 1" })).toBeUndefined();
    login.password = "changed by the user 1";
  } else {
    expect(await rejectionOf(u.updatePassword({ oldPassword: login.password, newPassword: "never sent 1234" }))).toBeInstanceOf(
      StackConfigurationError,
    );
  }
  expect((await signedIn()).result.status).toBe("ok");
  // Server code is not held to the sign-up password rules (the service checks only the length cap).
  expect(await u.setPassword({ password: "set by the server 1" })).toBeUndefined();
  // A password set by the server ends every session of the user.
  expect(await u.getActiveSessions()).toEqual([]);
  const old = (await signedIn()).result;
  expect(old.status === "error" && old.error).toBeInstanceOf(KnownErrors.EmailPasswordMismatch);
  expect((await signedIn("set by the server 1")).result.status).toBe("ok");

  await u.delete();
  expect(await server.getUser(u.id)).toBeNull();
  if ("signOut" in u) {
    // Deleting the user ended the session it was read in: the object acts for nobody now.
    expect(await rejectionOf(u.signOut())).toBeInstanceOf(SessionEndedError);
    expect(await rejectionOf(u.getAuthJson())).toBeInstanceOf(SessionEndedError);
  }
}

export function serverJourney(world: () => E2E, cast: Cast): void {
  describe("server user and team management, impersonation", () => {
    it("creates a user with every field; lists users page by page, by search and by team", async () => {
      const e = world();
      const server = e.server();
      const charles = await server.createUser({
        primaryEmail: "charles@example.com",
        primaryEmailVerified: true,
        primaryEmailAuthEnabled: true,
        password: "difference engine no 2",
        displayName: "Charles Babbage",
        otpAuthEnabled: false,
        clientMetadata: { engine: "difference" },
        clientReadOnlyMetadata: { medal: "gold" },
        serverMetadata: { funding: 17000 },
      });
      expect([charles.displayName, charles.primaryEmailVerified, charles.hasPassword, charles.serverMetadata]).toEqual([
        "Charles Babbage",
        true,
        true,
        { funding: 17000 },
      ]);
      const app = e.client();
      expect(
        (await app.signInWithCredential({ email: "charles@example.com", password: "difference engine no 2", noRedirect: true })).status,
      ).toBe("ok");
      expect((await app.getUser({ or: "throw" })).clientReadOnlyMetadata).toEqual({ medal: "gold" });

      const everyone = await server.listUsers();
      const pages: string[][] = [];
      let page = await server.listUsers({ limit: 2, orderBy: "signedUpAt", desc: true });
      for (;;) {
        pages.push(page.map((u) => u.id));
        if (page.nextCursor === null) break;
        page = await server.listUsers({ limit: 2, orderBy: "signedUpAt", desc: true, cursor: page.nextCursor });
      }
      expect(pages.every((p) => p.length <= 2)).toBe(true);
      expect(pages.flat().sort()).toEqual(everyone.map((u) => u.id).sort());
      expect(pages[0]![0]).toBe(charles.id);
      expect((await server.listUsers({ query: "Babbage" })).map((u) => u.id)).toEqual([charles.id]);
      expect((await server.listUsers({ teamId: cast.teamId })).map((u) => u.id)).toEqual([cast.adaId]);
    });

    it("makes a team, adds and removes members, sets its metadata, invites, keys and deletes it", async () => {
      const e = world();
      const server = e.server();
      const charles = (await server.listUsers({ query: "charles@example.com" }))[0]!;
      const team: ServerTeam = await server.createTeam({ displayName: "Difference Engines", creatorUserId: charles.id });
      expect((await server.listTeams()).map((t) => t.displayName)).toContain("Difference Engines");
      expect((await server.getTeam(team.id))?.createdAt).toBeInstanceOf(Date);

      await team.addUser(cast.adaId);
      const members = await team.listUsers();
      expect(members.map((m) => m.primaryEmail).sort()).toEqual(["ada@example.com", "charles@example.com"]);
      const adaLaptop = e.client();
      expect((await adaLaptop.signInWithCredential({ email: cast.adaEmail, password: cast.adaPassword, noRedirect: true })).status).toBe(
        "ok",
      );
      const adaUser = await adaLaptop.getUser({ or: "throw" });
      expect(await adaUser.hasPermission(team, "team_member")).toBe(true);

      await team.update({
        displayName: "Difference Engine No. 2",
        clientReadOnlyMetadata: { seats: 5 },
        serverMetadata: { plan: "enterprise" },
      });
      const reread = (await server.getTeam(team.id))!;
      expect([reread.displayName, reread.clientReadOnlyMetadata, reread.serverMetadata]).toEqual([
        "Difference Engine No. 2",
        { seats: 5 },
        { plan: "enterprise" },
      ]);
      expect((await adaUser.getTeam(team.id))?.clientReadOnlyMetadata).toEqual({ seats: 5 });

      await team.inviteUser({ email: "lovelace@lab.example.com" });
      expect((await team.listInvitations()).map((i) => i.recipientEmail)).toEqual(["lovelace@lab.example.com"]);
      const key = await team.createApiKey({ description: "Server-made", expiresAt: null });
      expect((await team.listApiKeys()).map((k) => k.id)).toEqual([key.id]);
      expect((await server.getTeam({ apiKey: key.value }))?.id).toBe(team.id);

      await team.removeUser(cast.adaId);
      expect((await adaUser.listTeams()).map((t) => t.id)).not.toContain(team.id);
      expect((await team.listUsers()).map((m) => m.id)).toEqual([charles.id]);
      await team.delete();
      expect(await server.getTeam(team.id)).toBeNull();
      expect(await server.getTeam({ apiKey: key.value })).toBeNull();
    });

    it("impersonates Charles: a server-made session signs an app in as him, listed as an impersonation to the project's admins only", async () => {
      const e = world();
      const charles = (await e.server().listUsers({ query: "charles@example.com" }))[0]!;
      const session = await charles.createSession({ isImpersonation: true, expiresInMillis: 3_600_000 });
      const { accessToken, refreshToken } = await session.getTokens();
      const sessionId = claimsOf(accessToken).refresh_token_id;
      const support = e.client({ tokenStore: { accessToken: accessToken!, refreshToken: refreshToken! } });
      const asCharles = await support.getUser({ or: "throw" });
      expect([asCharles.id, asCharles.displayName]).toEqual([charles.id, "Charles Babbage"]);
      await asCharles.setClientMetadata({ touchedBy: "support" });
      expect((await e.server().getUser(charles.id))?.clientMetadata).toEqual({ touchedBy: "support" });
      // As the service lists sessions: impersonations are shown to admin callers only.
      expect((await asCharles.getActiveSessions()).map((s) => s.id)).not.toContain(sessionId);
      expect((await charles.getActiveSessions()).map((s) => s.id)).not.toContain(sessionId);
      const listedToAdmins = (await (await e.admin().getUser(charles.id))!.getActiveSessions()).filter((s) => s.isImpersonation);
      expect(listedToAdmins.map((s) => s.id)).toEqual([sessionId]);
    });

    const userOf: Record<UserForm, (e: E2E, login: { email: string; password: string }) => Promise<ServerUser | CurrentServerUser>> = {
      ServerUser: async (e, login) => {
        const made = await e
          .server()
          .createUser({ primaryEmail: login.email, password: login.password, primaryEmailAuthEnabled: true, primaryEmailVerified: true });
        return (await e.server().getUser(made.id))!;
      },
      ServerTeamUser: async (e, login) => {
        const server = e.server();
        const made = await server.createUser({
          primaryEmail: login.email,
          password: login.password,
          primaryEmailAuthEnabled: true,
          primaryEmailVerified: true,
        });
        const team = await server.createTeam({ displayName: "Members' club" });
        await team.addUser(made.id);
        return (await team.listUsers()).find((m) => m.id === made.id)!;
      },
      CurrentServerUser: async (e, login) => {
        await e
          .server()
          .createUser({ primaryEmail: login.email, password: login.password, primaryEmailAuthEnabled: true, primaryEmailVerified: true });
        const browser = e.client();
        expect((await browser.signInWithCredential({ ...login, noRedirect: true })).status).toBe("ok");
        const headers = await browser.getAuthHeaders();
        return e.server({ tokenStore: null }).getUser({ tokenStore: new Request(`${SITE}/api`, { headers }), or: "throw" });
      },
    };

    it.each(["ServerUser", "ServerTeamUser", "CurrentServerUser"] as const)(
      "runs every method of a %s, each outcome read back",
      async (form) => {
        const e = world();
        const login = { email: `${form.toLowerCase()}@example.com`, password: `first password of ${form}` };
        await exerciseServerUser(e, form, await userOf[form](e, login), login);
      },
    );
  });

  describe("a backend running the end-user flows through StackServerApp, and through StackAdminApp", () => {
    it.each(["server", "admin"] as const)(
      "on the %s app: signs Dora up, verifies, signs out and in, resets her password, uses a magic link and joins a team",
      async (kind) => {
        const e = world();
        const backend: StackServerApp = e.app(kind);
        const dora = kind === "server" ? "dora@example.com" : "dora.admin@example.com";
        expect(await backend.getUser()).toBeNull();
        expect(await backend.getServerUser()).toBeNull();
        expect((await backend.getProject()).displayName).toBe("Demo");
        e.takeNavigations();
        expect((await backend.signUpWithCredential({ email: dora, password: "first of her passwords" })).status).toBe("ok");
        expect(e.takeNavigations()).toEqual([`${SITE}/`]);
        const me = await backend.getUser({ or: "throw" });
        expect([(await backend.getServerUser())?.id, me.primaryEmail, me.serverMetadata]).toEqual([me.id, dora, null]);
        expect((await backend.verifyEmail(await e.codeFromMail(dora, /^Verify your email/, VERIFY_PAGE))).status).toBe("ok");
        expect((await backend.getUser({ or: "throw" })).primaryEmailVerified).toBe(true);
        const json = await backend.getAuthJson();
        expect(claimsOf(json.accessToken).sub).toBe(me.id);
        expect(JSON.parse((await backend.getAuthHeaders())["x-stack-auth"])).toEqual(json);
        // Her access token, verified against the project's published keys without GET /users/me.
        const verification = await backend.verifyAccessToken(json.accessToken!);
        expect(verification.status === "ok" && verification.data.userId).toBe(me.id);
        const verified = await backend.getUser({ verify: "local", or: "throw" });
        expect([verified.id, verified.isAnonymous, verified.claims.userId]).toEqual([me.id, false, claimsOf(json.accessToken).sub]);
        // And as her access token describes her, without a request.
        expect((await backend.getPartialUser({ from: "token" }))?.id).toBe(me.id);

        await backend.signOut({ redirectUrl: `${SITE}/bye` });
        expect(e.takeNavigations()).toEqual([`${SITE}/bye`]);
        expect(await backend.getUser()).toBeNull();
        const wrong = await backend.signInWithCredential({ email: dora, password: "not hers", noRedirect: true });
        expect(wrong.status === "error" && wrong.error).toBeInstanceOf(KnownErrors.EmailPasswordMismatch);
        expect((await backend.signInWithCredential({ email: dora, password: "first of her passwords", noRedirect: true })).status).toBe(
          "ok",
        );

        expect((await backend.sendForgotPasswordEmail(dora)).status).toBe("ok");
        const reset = await e.codeFromMail(dora, /^Reset your password/, `${HANDLER}/password-reset`);
        expect((await backend.verifyPasswordResetCode(reset)).status).toBe("ok");
        expect((await backend.resetPassword({ code: reset, password: "second of her passwords" })).status).toBe("ok");
        expect((await e.client().signInWithCredential({ email: dora, password: "second of her passwords", noRedirect: true })).status).toBe(
          "ok",
        );

        await backend.signOut();
        expect((await backend.sendMagicLinkEmail(dora)).status).toBe("ok");
        const magic = await e.codeFromMail(dora, /^Sign in to Demo/, `${HANDLER}/magic-link-callback`);
        e.takeNavigations();
        expect((await backend.signInWithMagicLink(magic)).status).toBe("ok");
        expect(e.takeNavigations()).toEqual([`${SITE}/`]);
        expect((await backend.getUser())?.id).toBe(me.id);

        const team = (await e.server().getTeam(cast.teamId))!;
        await team.inviteUser({ email: dora });
        const invitation = await e.codeFromMail(dora, /invited to join/, `${HANDLER}/team-invitation`);
        expect((await backend.verifyTeamInvitationCode(invitation)).status).toBe("ok");
        const details = await backend.getTeamInvitationDetails(invitation);
        expect(details.status === "ok" && details.data.teamDisplayName).toBe("Analytical Engine Society");
        expect((await backend.acceptTeamInvitation(invitation)).status).toBe("ok");
        expect((await team.listUsers()).map((m) => m.primaryEmail)).toContain(dora);
      },
    );
  });

  describe("redirects", () => {
    it.each(["client", "server", "admin"] as const)("the %s app's redirectTo… methods each open their page", async (kind) => {
      const e = world();
      const app = e.app(kind);
      e.takeNavigations();
      for (const method of Object.keys(REDIRECTS) as (keyof RedirectMethods)[]) await app[method]();
      expect(e.takeNavigations()).toEqual(Object.values(REDIRECTS));
    });
  });
}
