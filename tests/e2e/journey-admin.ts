// The journey's admin side, through StackAdminApp over HTTP: the project with
// its full configuration and what stands between it and production mode; the
// project's own key sets (made, used by apps, listed, revoked); e-mail
// templates customised and mailed with, a test e-mail, the sent-e-mail log;
// metrics and the webhook portal token; team and project permission
// definitions; users and teams as the server manages them. Then the dashboard
// itself: a user of the internal project who signs up with GitHub runs every
// method of her CurrentInternalUser, creates projects and manages them through
// their `app` (an admin app on her session), and deletes them.
import { afterEach, describe, expect, it, vi } from "vitest";
import { DEMO_KEYS, INTERNAL_KEYS } from "../../emulator/index.js";
import {
  KnownErrors,
  ServiceVersionError,
  type CurrentInternalUser,
  type StackAdminApp,
  type StackClientApp,
} from "../../runtime/index.js";
import { FakePage, oauthRoundTrip, useAuthenticator } from "./browser.js";
import { claimsOf, HANDLER, rejectionOf, SITE, type Cast, type E2E } from "./harness.js";
import { GITHUB } from "./journey-browser.js";
import { startSmtpServer } from "../conformance/smtp-server.js";

const SMTP = {
  host: "smtp.acme.example.com",
  port: 587,
  username: "mailer",
  password: "secret",
  senderEmail: "noreply@acme.example.com",
  senderName: "Acme",
};
const DAY = 24 * 3_600_000;

export function adminJourney(world: () => E2E, cast: Cast): void {
  describe("the project, as its admin configures it", () => {
    it("reads the full configuration, changes it, and lists what stands between it and production mode", async () => {
      const e = world();
      const admin = e.admin();
      // An admin app acting with keys has nobody signed in on its own store: no token to describe.
      expect(await admin.getPartialUser({ from: "token" })).toBeNull();
      const project = await admin.getProject();
      expect([project.id, project.displayName, project.isProductionMode]).toEqual([DEMO_KEYS.projectId, "Demo", false]);
      expect(project.config).toMatchObject({
        signUpEnabled: true,
        passkeyEnabled: true,
        allowLocalhost: true,
        oauthAccountMergeStrategy: "link_method",
        emailConfig: { type: "shared" },
      });
      // 2.8.11 counts the project's users; 2.8.86 does not say.
      expect(project.userCount).toBe(e.serviceVersion === "2.8.11" ? (await admin.listUsers()).length : undefined);

      await project.update({
        description: "The example app's project, configured end to end",
        config: {
          domains: [
            { domain: SITE, handlerPath: "/handler" },
            { domain: "https://app.example.com", handlerPath: "/handler" },
          ],
          teamMemberDefaultPermissions: [{ id: "team_member" }],
        },
      });
      const changed = await admin.getProject();
      expect([changed.description, changed.config.domains]).toEqual([
        "The example app's project, configured end to end",
        [
          { domain: SITE, handlerPath: "/handler" },
          { domain: "https://app.example.com", handlerPath: "/handler" },
        ],
      ]);
      // The object read before keeps showing the project as it was.
      expect(project.config.domains).toEqual([]);
      expect((await changed.getProductionModeErrors()).map((p) => p.message)).toEqual([
        "Localhost is not allowed in production mode, turn off 'Allow localhost' in project settings",
        `Localhost domains are not allowed to be trusted in production mode: ${SITE}`,
      ]);
      expect(await project.getProductionModeErrors()).toEqual([
        {
          message: "Localhost is not allowed in production mode, turn off 'Allow localhost' in project settings",
          relativeFixUrl: `/projects/${DEMO_KEYS.projectId}/domains`,
        },
      ]);

      // The service takes production mode all the same (the check is the dashboard's), and back.
      await changed.update({ isProductionMode: true });
      expect((await admin.getProject()).isProductionMode).toBe(true);
      await changed.update({ isProductionMode: false, description: null, config: { domains: [] } });
      const restored = await admin.getProject();
      // The service stores a null description as an empty one.
      expect([restored.isProductionMode, restored.description, restored.config.domains]).toEqual([false, "", []]);
    });

    it("makes a key set, which apps then use; revoked, it opens nothing", async () => {
      const e = world();
      const admin = e.admin();
      const created = await admin.createInternalApiKey({
        description: "CI deploys",
        expiresAt: new Date(Date.now() + 30 * DAY),
        hasPublishableClientKey: true,
        hasSecretServerKey: true,
        hasSuperSecretAdminKey: false,
      });
      expect([typeof created.publishableClientKey, typeof created.secretServerKey, created.superSecretAdminKey, created.isValid()]).toEqual(
        ["string", "string", undefined, true],
      );
      const keys = { ...DEMO_KEYS, publishableClientKey: created.publishableClientKey!, secretServerKey: created.secretServerKey! };
      expect((await e.client({ keys }).getProject()).id).toBe(DEMO_KEYS.projectId);
      expect((await e.server({ keys }).listUsers({ query: "charles@example.com" })).map((u) => u.displayName)).toEqual(["Charles Babbage"]);

      const listed = (await admin.listInternalApiKeys()).find((k) => k.id === created.id)!;
      expect([listed.description, listed.publishableClientKey, listed.secretServerKey, listed.superSecretAdminKey]).toEqual([
        "CI deploys",
        { lastFour: created.publishableClientKey!.slice(-4) },
        { lastFour: created.secretServerKey!.slice(-4) },
        null,
      ]);
      // The seeded development keys are listed too.
      expect((await admin.listInternalApiKeys()).length).toBeGreaterThanOrEqual(2);
      await listed.revoke();
      const revoked = (await admin.listInternalApiKeys()).find((k) => k.id === created.id)!;
      expect([revoked.isValid(), revoked.whyInvalid(), revoked.manuallyRevokedAt]).toEqual([false, "manually-revoked", expect.any(Date)]);
      expect(await rejectionOf(e.client({ keys }).getProject())).toBeInstanceOf(KnownErrors.InvalidPublishableClientKey);
      expect(await rejectionOf(e.server({ keys }).listUsers())).toBeInstanceOf(KnownErrors.InvalidSecretServerKey);
    });
  });

  describe("e-mail", () => {
    it("customises the password-reset template on the project's own mail server, mails with it, and resets it", async () => {
      const e = world();
      const admin = e.admin();
      await (await admin.getProject()).update({ config: { emailConfig: { type: "standard", ...SMTP } } });
      try {
        if (e.serviceVersion === "2.8.86") {
          // 2.8.86 removed the block-based templates: reading or changing them is a ServiceVersionError that changes
          // nothing; resetting deletes the project's version of the TSX template the type's e-mails are sent with.
          expect(await rejectionOf(admin.listEmailTemplates())).toBeInstanceOf(ServiceVersionError);
          expect(await rejectionOf(admin.updateEmailTemplate("password_reset", { subject: "A new password" }))).toBeInstanceOf(
            ServiceVersionError,
          );
          await admin.resetEmailTemplate("password_reset");
          return;
        }
        const templates = await admin.listEmailTemplates();
        expect(templates.map((t) => [t.type, t.isDefault])).toEqual([
          ["email_verification", true],
          ["password_reset", true],
          ["magic_link", true],
          ["team_invitation", true],
        ]);
        await admin.updateEmailTemplate("password_reset", { subject: "A new password for {{ projectDisplayName }}" });
        expect((await admin.listEmailTemplates()).find((t) => t.type === "password_reset")).toMatchObject({
          subject: "A new password for {{ projectDisplayName }}",
          isDefault: false,
        });

        expect((await e.client().sendForgotPasswordEmail("charles@example.com")).status).toBe("ok");
        const mails = await e.mailbox("charles@example.com");
        expect(mails.at(-1)?.subject).toBe("A new password for Demo");
        expect(mails.at(-1)?.from).toContain("noreply@acme.example.com");

        await admin.resetEmailTemplate("password_reset");
        expect((await admin.listEmailTemplates()).find((t) => t.type === "password_reset")).toMatchObject({
          subject: "Reset your password at {{ projectDisplayName }}",
          isDefault: true,
        });
      } finally {
        await (await admin.getProject()).update({ config: { emailConfig: { type: "shared" } } });
      }
      expect((await admin.getProject()).config.emailConfig).toEqual({ type: "shared" });
    });

    it("sends a test e-mail through an SMTP configuration, reports one that fails, and lists what the version logs", async () => {
      const e = world();
      const admin = e.admin();
      // The test e-mail really goes to the server named: one on this machine.
      const smtp = await startSmtpServer({ user: SMTP.username, pass: SMTP.password });
      const sent = await admin
        .sendTestEmail({ recipientEmail: "ops@example.com", emailConfig: { ...SMTP, host: "127.0.0.1", port: smtp.port } })
        .finally(() => smtp.close());
      expect(sent).toEqual({ status: "ok", data: undefined });
      expect(smtp.received.map((m) => m.to)).toEqual([["<ops@example.com>"]]);
      expect(await e.mailbox("ops@example.com")).toEqual([]);
      const failed = await admin.sendTestEmail({
        recipientEmail: "ops@example.com",
        emailConfig: { ...SMTP, host: "smtp.nowhere.invalid" },
      });
      expect(failed).toEqual({
        status: "error",
        error: { errorMessage: "Failed to connect to the email host. Please make sure the email host configuration is correct." },
      });

      const all = await admin.listSentEmails();
      if (e.serviceVersion === "2.8.11") {
        // 2.8.11 logs test e-mails too, a failed one with its mailer's error object.
        const [newest, before] = all;
        expect([newest?.to, newest?.subject, newest?.error]).toEqual([
          ["ops@example.com"],
          "Test Email from Stack Auth",
          expect.objectContaining({ errorType: "HOST_NOT_FOUND" }),
        ]);
        expect([before?.to, before?.subject, before?.error]).toEqual([["ops@example.com"], "Test Email from Stack Auth", null]);
      } else {
        // 2.8.86 sends test e-mails outside its outbox, the log it answers.
        expect(all.filter((m) => m.subject === "Test Email from Stack Auth")).toEqual([]);
        expect(all.every((m) => m.error === null)).toBe(true);
      }
      // Every e-mail of the journey's flows is in the log (the verification of Ada's address among the first).
      expect(all.some((m) => m.to.includes(cast.adaEmail) && m.subject === "Verify your email at Demo")).toBe(true);
    });
  });

  describe("metrics, webhooks, permission definitions", () => {
    it("computes the metrics from the project's users, and hands out a fresh webhook portal token each time", async () => {
      const e = world();
      const admin = e.admin();
      const metrics = (await admin.getMetrics()) as {
        total_users: number;
        daily_users: unknown[];
        recently_registered: { id: string }[];
        login_methods: { method: string; count: number }[];
      };
      const users = await admin.listUsers();
      expect(metrics.total_users).toBe(users.length);
      expect(metrics.daily_users).toHaveLength(31);
      const newest = [...users].sort((a, b) => b.signedUpAt.getTime() - a.signedUpAt.getTime())[0]!;
      expect(metrics.recently_registered[0]?.id).toBe(newest.id);
      expect(metrics.login_methods.map((m) => m.method)).toEqual(expect.arrayContaining(["password"]));

      const first = await admin.getSvixToken();
      const second = await admin.getSvixToken();
      expect(first).toMatch(/^appsk_/);
      expect(second).not.toBe(first);
    });

    it("defines, renames, updates and deletes team and project permissions; members hold what the definitions say", async () => {
      const e = world();
      const admin = e.admin();
      expect((await admin.listTeamPermissionDefinitions()).map((p) => p.id)).toEqual(
        expect.arrayContaining(["team_admin", "team_member", "billing"]),
      );
      const deploy = await admin.createTeamPermissionDefinition({
        id: "deploy",
        description: "Deploys the site",
        containedPermissionIds: ["$read_members"],
      });
      expect(deploy).toEqual({ id: "deploy", description: "Deploys the site", containedPermissionIds: ["$read_members"] });
      expect(await rejectionOf(admin.createTeamPermissionDefinition({ id: "deploy" }))).toBeInstanceOf(
        KnownErrors.PermissionIdAlreadyExists,
      );

      const server = e.server();
      const team = await server.createTeam({ displayName: "Deployers" });
      const member = await server.createUser({
        primaryEmail: "deployer@example.com",
        password: "ships on fridays 1",
        primaryEmailAuthEnabled: true,
      });
      await team.addUser(member.id);
      await member.grantPermission(team, "deploy");
      const app = e.client();
      expect(
        (await app.signInWithCredential({ email: "deployer@example.com", password: "ships on fridays 1", noRedirect: true })).status,
      ).toBe("ok");
      const user = await app.getUser({ or: "throw" });
      expect(await user.hasPermission(team, "deploy")).toBe(true);

      await admin.updateTeamPermissionDefinition("deploy", { id: "release", description: "Releases the site" });
      expect((await admin.listTeamPermissionDefinitions()).find((p) => p.id === "release")).toEqual({
        id: "release",
        description: "Releases the site",
        containedPermissionIds: ["$read_members"],
      });
      expect(await user.hasPermission(team, "release")).toBe(true);
      await admin.deleteTeamPermissionDefinition("release");
      expect((await admin.listTeamPermissionDefinitions()).map((p) => p.id)).not.toContain("release");
      expect(await user.hasPermission(team, "release")).toBe(false);

      expect((await admin.listProjectPermissionDefinitions()).map((p) => p.id)).toContain("read_reports");
      await admin.createProjectPermissionDefinition({ id: "audit", description: "Reads the audit log" });
      await member.grantPermission("audit");
      expect(await user.hasPermission("audit")).toBe(true);
      await admin.updateProjectPermissionDefinition("audit", { description: "Reads and exports the audit log" });
      expect((await admin.listProjectPermissionDefinitions()).find((p) => p.id === "audit")?.description).toBe(
        "Reads and exports the audit log",
      );
      await admin.deleteProjectPermissionDefinition("audit");
      expect(await user.hasPermission("audit")).toBe(false);
      expect((await admin.listProjectPermissionDefinitions()).map((p) => p.id)).not.toContain("audit");
      await team.delete();
    });

    it("manages users and teams as the server does", async () => {
      const e = world();
      const admin = e.admin();
      expect(await admin.getServerUser()).toBeNull();
      const made = await admin.createUser({ primaryEmail: "made-by-admin@example.com", displayName: "Made by the admin" });
      expect((await admin.listUsers({ query: "made-by-admin" })).map((u) => u.id)).toEqual([made.id]);
      const team = await admin.createTeam({ displayName: "Admins' team", creatorUserId: made.id });
      expect((await admin.getTeam(team.id))?.displayName).toBe("Admins' team");
      expect((await admin.listTeams()).map((t) => t.id)).toContain(team.id);
      expect((await team.listUsers()).map((m) => m.id)).toEqual([made.id]);
      const key = await made.createApiKey({ description: "admin-made", expiresAt: null });
      expect((await admin.getUser({ apiKey: key.value }))?.id).toBe(made.id);
      await team.delete();
      await made.delete();
      expect(await admin.getUser(made.id)).toBeNull();
    });
  });

  describe("the dashboard: a user of the internal project who owns projects", () => {
    const email = "hedy@example.com";
    const internalAdmin = (e: E2E): StackAdminApp => e.admin({ keys: INTERNAL_KEYS });
    /** The signed-in user of an app of the internal project: the SDK hands out a CurrentInternalUser there. */
    const ownerOf = async (app: StackClientApp) => (await app.getUser({ or: "throw" })) as CurrentInternalUser;

    afterEach(() => {
      vi.unstubAllGlobals();
    });

    it("signs Hedy up on the internal project with GitHub, and runs every method of her CurrentInternalUser", async () => {
      const e = world();
      // The internal project, as its own admin sets it up: passkeys, GitHub, accounts users may delete, and (which
      // the service's seed leaves off) teams its users make themselves and user API keys.
      await (
        await internalAdmin(e).getProject()
      ).update({
        config: {
          passkeyEnabled: true,
          clientUserDeletionEnabled: true,
          oauthProviders: [GITHUB],
          clientTeamCreationEnabled: true,
          allowUserApiKeys: true,
        },
      });

      const page = new FakePage(`${HANDLER}/sign-in`);
      const dashboard = e.client({ keys: INTERNAL_KEYS, browser: page.browser });
      await oauthRoundTrip(e, page, () => dashboard.signInWithOAuth("github"), { email, name: "Hedy", accountId: "hedy-gh" });
      expect(await dashboard.callOAuthCallback()).toBe(true);
      const hedy = await ownerOf(dashboard);
      expect([hedy.primaryEmail, hedy.hasPassword, typeof hedy.createProject, typeof hedy.listOwnedProjects]).toEqual([
        email,
        false,
        "function",
        "function",
      ]);
      expect(await e.server().getUser(hedy.id)).toBeNull();
      const onAdmin = async () => (await internalAdmin(e).getUser(hedy.id))!;
      const account = await hedy.getConnectedAccount("github");
      expect((await account!.getAccessToken()).accessToken).toMatch(/^emulated_github_/);

      // Profile.
      await hedy.update({ displayName: "Hedy K." });
      await hedy.setDisplayName("Hedy Lamarr");
      await hedy.setClientMetadata({ dashboardTheme: "dark" });
      expect([(await onAdmin()).displayName, (await onAdmin()).clientMetadata]).toEqual(["Hedy Lamarr", { dashboardTheme: "dark" }]);

      // Passwords: set (she has none), then changed with the old one.
      await hedy.setPassword({ password: "frequency hopping 1942" });
      expect(await hedy.updatePassword({ oldPassword: "frequency hopping 1942", newPassword: "spread spectrum 1942" })).toBeUndefined();
      const laptop = e.client({ keys: INTERNAL_KEYS });
      expect((await laptop.signInWithCredential({ email, password: "spread spectrum 1942", noRedirect: true })).status).toBe("ok");

      // Sessions: the laptop's, revoked from here.
      const laptopSession = claimsOf((await laptop.getAuthJson()).accessToken).refresh_token_id!;
      expect((await hedy.getActiveSessions()).map((s) => s.id)).toContain(laptopSession);
      await hedy.revokeSession(laptopSession);
      expect((await hedy.getActiveSessions()).map((s) => s.id)).not.toContain(laptopSession);
      const json = await hedy.getAuthJson();
      expect(claimsOf(json.accessToken).sub).toBe(hedy.id);
      expect([await hedy.getAccessToken(), await hedy.getRefreshToken()]).toEqual([json.accessToken, json.refreshToken]);
      expect(JSON.parse((await hedy.getAuthHeaders())["x-stack-auth"])).toEqual(json);

      // E-mail: GitHub's address is verified already; a second one is added.
      expect(await hedy.sendVerificationEmail()).toBeInstanceOf(KnownErrors.EmailAlreadyVerified);
      await hedy.createContactChannel({ type: "email", value: "hedy@lab.example.com", usedForAuth: false });
      expect((await hedy.listContactChannels()).map((c) => c.value).sort()).toEqual(["hedy@example.com", "hedy@lab.example.com"]);
      // Team invitations sent to her: none (2.8.11 has no such list).
      const invitations = hedy.listTeamInvitations();
      if (e.serviceVersion === "2.8.11") expect(await rejectionOf(invitations)).toBeInstanceOf(ServiceVersionError);
      else expect(await invitations).toEqual([]);

      // A passkey for the dashboard.
      page.goTo(`${HANDLER}/account-settings`);
      const authenticator = useAuthenticator(SITE);
      expect(await hedy.registerPasskey()).toEqual({ status: "ok", data: undefined });
      expect(authenticator.credentialIds).toHaveLength(1);
      expect((await onAdmin()).passkeyAuthEnabled).toBe(true);

      // Teams and permissions.
      const team = await hedy.createTeam({ displayName: "Torpedo guidance" });
      expect((await hedy.listTeams()).map((t) => t.id)).toContain(team.id);
      expect((await hedy.getTeam(team.id))?.displayName).toBe("Torpedo guidance");
      await hedy.setSelectedTeam(team);
      expect((await dashboard.getUser({ or: "throw" })).selectedTeam?.id).toBe(team.id);
      await (await hedy.getTeamProfile(team)).update({ displayName: "Hedy (guidance)" });
      expect((await hedy.getTeamProfile(team)).displayName).toBe("Hedy (guidance)");
      expect((await hedy.listPermissions(team, { recursive: false })).map((p) => p.id)).toEqual(["team_admin"]);
      expect(await hedy.getPermission(team, "team_admin")).toEqual({ id: "team_admin" });
      // The internal project's team admins may update their team (2.8.86's no longer delete it).
      expect(await hedy.hasPermission(team, "$update_team")).toBe(true);
      expect(await hedy.listPermissions()).toEqual([]);

      // API keys.
      const key = await hedy.createApiKey({ description: "dashboard CLI", expiresAt: null });
      expect((await hedy.listApiKeys()).map((k) => k.id)).toEqual([key.id]);
      expect((await internalAdmin(e).getUser({ apiKey: key.value }))?.id).toBe(hedy.id);

      await hedy.leaveTeam(team);
      expect((await hedy.listTeams()).map((t) => t.id)).not.toContain(team.id);
    });

    it("Hedy creates projects, manages one through its admin app on her session, and deletes them", async () => {
      const e = world();
      const dashboard = e.client({ keys: INTERNAL_KEYS });
      expect((await dashboard.signInWithCredential({ email, password: "spread spectrum 1942", noRedirect: true })).status).toBe("ok");
      const hedy = await ownerOf(dashboard);
      expect(await hedy.listOwnedProjects()).toEqual([]);

      const radio = await hedy.createProject({
        displayName: "Radio",
        description: "Secret communications",
        config: { magicLinkEnabled: true },
      });
      expect([radio.displayName, radio.description, radio.config.magicLinkEnabled, radio.isProductionMode]).toEqual([
        "Radio",
        "Secret communications",
        true,
        false,
      ]);
      const scratch = await hedy.createProject({ displayName: "Scratch" });
      expect((await hedy.listOwnedProjects()).map((p) => p.displayName).sort()).toEqual(["Radio", "Scratch"]);

      // The project itself.
      expect((await radio.getProductionModeErrors()).map((p) => p.message)).toEqual([
        "Localhost is not allowed in production mode, turn off 'Allow localhost' in project settings",
      ]);
      await radio.update({
        displayName: "Radio Control",
        config: { allowLocalhost: false, domains: [{ domain: "https://radio.example.com", handlerPath: "/handler" }] },
      });
      const [listed] = (await hedy.listOwnedProjects()).filter((p) => p.id === radio.id);
      expect([listed?.displayName, listed?.config.allowLocalhost]).toEqual(["Radio Control", false]);
      expect(await listed!.getProductionModeErrors()).toEqual([]);

      // Its admin app acts on her session, with no key at all.
      const owned = listed!.app;
      const asAdmin = await owned.getProject();
      expect([asAdmin.id, asAdmin.displayName, asAdmin.userCount]).toEqual([
        radio.id,
        "Radio Control",
        e.serviceVersion === "2.8.11" ? 0 : undefined,
      ]);
      const listener = await owned.createUser({ primaryEmail: "listener@radio.example.com" });
      expect((await owned.listUsers()).map((u) => u.id)).toEqual([listener.id]);
      await owned.createProjectPermissionDefinition({ id: "broadcast" });
      expect((await owned.listProjectPermissionDefinitions()).map((p) => p.id)).toEqual(["broadcast"]);
      // The demo project knows nothing of it.
      expect((await e.admin().listProjectPermissionDefinitions()).map((p) => p.id)).not.toContain("broadcast");

      // Deleted: one as an owned project, one through its admin app's view.
      await scratch.delete();
      await asAdmin.delete();
      expect(await hedy.listOwnedProjects()).toEqual([]);
      // Apps of the deleted project: 2.8.86 says CURRENT_PROJECT_NOT_FOUND before the keys; 2.8.11 finds no such key.
      expect(await rejectionOf(e.client({ keys: { ...DEMO_KEYS, projectId: radio.id } }).getProject())).toBeInstanceOf(
        e.serviceVersion === "2.8.11" ? KnownErrors.InvalidPublishableClientKey : KnownErrors.CurrentProjectNotFound,
      );
    });

    it("Hedy signs out on one device, then deletes her account from another", async () => {
      const e = world();
      const phone = e.client({ keys: INTERNAL_KEYS });
      expect((await phone.signInWithCredential({ email, password: "spread spectrum 1942", noRedirect: true })).status).toBe("ok");
      const onPhone = await ownerOf(phone);
      e.takeNavigations();
      await onPhone.signOut();
      expect(e.takeNavigations()).toEqual([`${SITE}/`]);
      expect(await phone.getUser()).toBeNull();

      const desk = e.client({ keys: INTERNAL_KEYS });
      expect((await desk.signInWithCredential({ email, password: "spread spectrum 1942", noRedirect: true })).status).toBe("ok");
      const hedy = await ownerOf(desk);
      await hedy.delete();
      expect(await desk.getUser()).toBeNull();
      expect(await internalAdmin(e).getUser(hedy.id)).toBeNull();
    });
  });
}
