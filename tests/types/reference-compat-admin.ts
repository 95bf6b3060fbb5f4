// Type test, checked by `make typecheck` (tsc): admin code written for the
// reference SDK's API (@stackframe/js v2.8.11) compiles against stackkit with
// only its import changed. Nothing here runs; it only has to type-check.
import {
  KnownErrors,
  StackAdminApp,
  StackServerApp,
  type AdminEmailConfig,
  type AdminProject,
  type AdminProjectUpdateOptions,
  type AdminSentEmail,
  type EmailConfig,
  type InternalApiKey,
  type InternalApiKeyFirstView,
  type Session,
} from "../../runtime/index.js"; // in an app: from "stackkit"

export async function adminWrittenForTheReferenceSdk(recipientEmail: string): Promise<void> {
  const app = new StackAdminApp({
    projectId: "6f4a3c2e-0b1d-4e5f-9a8b-7c6d5e4f3a2b",
    publishableClientKey: "pck_…",
    secretServerKey: "ssk_…",
    superSecretAdminKey: "sak_…",
    tokenStore: null,
  });
  const asServer: StackServerApp = app;
  console.info((await asServer.listUsers()).length);

  // The project and its configuration.
  const project: AdminProject = await app.getProject();
  const createdAt: Date = project.createdAt;
  const description: string | null = project.description;
  console.info(project.id, project.displayName, description, createdAt.toISOString(), project.userCount, project.isProductionMode);
  const c = project.config;
  const flags: boolean[] = [
    c.signUpEnabled,
    c.credentialEnabled,
    c.magicLinkEnabled,
    c.passkeyEnabled,
    c.clientTeamCreationEnabled,
    c.clientUserDeletionEnabled,
    c.allowLocalhost,
    c.createTeamOnSignUp,
    c.allowUserApiKeys,
    c.allowTeamApiKeys,
  ];
  const strategy: "link_method" | "raise_error" | "allow_duplicates" = c.oauthAccountMergeStrategy;
  console.info(
    flags,
    strategy,
    c.teamCreatorDefaultPermissions.map((p) => p.id),
    c.teamMemberDefaultPermissions,
    c.userDefaultPermissions,
  );
  for (const domain of c.domains) console.info(domain.domain, domain.handlerPath);
  const defaults: { id: string }[] = c.teamCreatorDefaultPermissions;
  const domains: { domain: string; handlerPath: string }[] = c.domains;
  console.info(defaults, domains);
  for (const provider of c.oauthProviders) {
    if (provider.type === "standard")
      console.info(provider.id, provider.clientId, provider.clientSecret, provider.facebookConfigId, provider.microsoftTenantId);
  }
  const email: AdminEmailConfig | undefined = c.emailConfig;
  if (email?.type === "standard") console.info(email.host, email.port, email.username, email.password, email.senderName, email.senderEmail);

  const update: AdminProjectUpdateOptions = {
    displayName: "Acme",
    description: "Customer portal",
    isProductionMode: true,
    config: {
      signUpEnabled: false,
      allowLocalhost: false,
      domains: [{ domain: "https://app.example.com", handlerPath: "/handler" }],
      oauthProviders: [
        { id: "github", type: "shared" },
        { id: "google", type: "standard", clientId: "id", clientSecret: "secret" },
      ],
      emailConfig: {
        type: "standard",
        host: "smtp.example.com",
        port: 587,
        username: "u",
        password: "p",
        senderName: "Acme",
        senderEmail: "a@example.com",
      },
      teamCreatorDefaultPermissions: [{ id: "team_admin" }],
      teamMemberDefaultPermissions: [{ id: "team_member" }],
      oauthAccountMergeStrategy: "link_method",
    },
  };
  await project.update(update);
  for (const error of await project.getProductionModeErrors()) console.info(error.message, error.relativeFixUrl);

  // Project keys.
  const created: InternalApiKeyFirstView = await app.createInternalApiKey({
    description: "Backend",
    expiresAt: new Date("2030-01-01"),
    hasPublishableClientKey: true,
    hasSecretServerKey: true,
    hasSuperSecretAdminKey: false,
  });
  const fullKey: string | undefined = created.secretServerKey;
  const keys: InternalApiKey[] = await app.listInternalApiKeys();
  for (const key of keys) {
    const lastFour: string | undefined = key.secretServerKey?.lastFour;
    const why: "expired" | "manually-revoked" | null = key.whyInvalid();
    const revokedAt: Date | null = key.manuallyRevokedAt;
    if (key.isValid()) await key.revoke();
    console.info(fullKey, lastFour, why, revokedAt, key.expiresAt.getTime());
  }

  // E-mail.
  const templates = await app.listEmailTemplates();
  console.info(templates.map((t) => [t.type, t.subject, t.isDefault, t.content]));
  await app.updateEmailTemplate("email_verification", { subject: "Verify", content: { type: "doc", content: [] } });
  await app.resetEmailTemplate("password_reset");
  const emailConfig: EmailConfig = {
    host: "smtp.example.com",
    port: 587,
    username: "u",
    password: "p",
    senderEmail: "a@example.com",
    senderName: "Acme",
  };
  const test = await app.sendTestEmail({ recipientEmail, emailConfig });
  if (test.status === "error") console.info(test.error.errorMessage);
  const sentEmails: AdminSentEmail[] = await app.listSentEmails();
  const recipients: string[][] = sentEmails.map((e) => e.to);
  console.info(sentEmails.map((e) => [e.id, recipients.length, e.subject, e.sentAt.toISOString(), e.error]));

  // Permission definitions.
  try {
    const permission = await app.createTeamPermissionDefinition({
      id: "team_admin",
      description: "Admins",
      containedPermissionIds: ["$read_members"],
    });
    console.info(permission.id);
  } catch (error) {
    if (!(error instanceof KnownErrors.PermissionIdAlreadyExists)) throw error;
  }
  await app.updateTeamPermissionDefinition("team_admin", { description: "Team admins" });
  const definitions = await app.listTeamPermissionDefinitions();
  const contained: string[][] = definitions.map((d) => d.containedPermissionIds);
  console.info(
    definitions.map((d) => [d.id, d.description]),
    contained,
  );
  await app.deleteTeamPermissionDefinition("team_admin");
  await app.createProjectPermissionDefinition({ id: "beta", containedPermissionIds: [] });
  await app.updateProjectPermissionDefinition("beta", { id: "beta_tester" });
  console.info((await app.listProjectPermissionDefinitions()).length);
  await app.deleteProjectPermissionDefinition("beta_tester");

  await project.delete();
}

/** A project owner's admin app, as the dashboard builds one per owned project. */
export async function ownerAdminApp(ownerSession: Session, projectId: string): Promise<string> {
  const app = new StackAdminApp({ projectId, tokenStore: null, projectOwnerSession: ownerSession, noAutomaticPrefetch: true });
  const token: string = await app.getSvixToken();
  const metrics = await app.getMetrics();
  console.info(metrics["total_users"]);
  return token;
}
