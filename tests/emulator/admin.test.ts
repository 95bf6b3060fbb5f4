// The admin operations of the dashboard through StackAdminApp against the
// emulator: e-mail templates (and the e-mails rendered from them), test e-mails
// and the sent-e-mail log, metrics computed from the state on the emulator's
// clock, the webhook portal token, and project update and deletion.
import { describe, expect, it } from "vitest";
import { DEMO_KEYS } from "../../emulator/index.js";
import { HttpError, isKnownError, StackClientApp } from "../../runtime/index.js";
import { checkedEmulator, demoApps, useEmulator } from "../helpers/emulator.js";
import { startSmtpServer } from "../conformance/smtp-server.js";

// 2.8.11: the block-based e-mail templates (/email-templates) are its own; 2.8.86's TSX templates are tested in
// service-versions.test.ts.
const emulator = useEmulator({ serviceVersion: "2.8.11" });

const DAY = 24 * 3600_000;
const APP = "http://localhost:3000";
const SMTP = {
  host: "smtp.acme.example.com",
  port: 587,
  username: "mailer",
  password: "secret",
  senderEmail: "noreply@acme.example.com",
  senderName: "Acme",
};

const admin = () => demoApps(emulator()).admin();
const base = () => ({
  projectId: DEMO_KEYS.projectId,
  publishableClientKey: DEMO_KEYS.publishableClientKey,
  baseUrl: emulator().apiOrigin,
  environment: { fetch: emulator().fetch, now: () => emulator().control.now() },
  browser: null,
  noAutomaticPrefetch: true,
});

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error("expected the call to fail");
    },
    (error: unknown) => error,
  );
}

/** The project's own e-mail server, which customised templates need. */
const useOwnEmailServer = async () => (await admin().getProject()).update({ config: { emailConfig: { type: "standard", ...SMTP } } });

/** A client app of a user made directly, signed in. */
async function signedIn(email: string, displayName: string | null = null) {
  const { control } = emulator();
  const record = await control.createUser({ projectId: DEMO_KEYS.projectId, email, password: "correct horse battery", displayName });
  const app = new StackClientApp({ ...base(), tokenStore: await control.createSession(record.id) });
  return { record, app };
}

describe("e-mail templates", () => {
  it("lists the service's default template of each type", async () => {
    const templates = await admin().listEmailTemplates();
    expect(templates.map((t) => [t.type, t.subject, t.isDefault])).toEqual([
      ["email_verification", "Verify your email at {{ projectDisplayName }}", true],
      ["password_reset", "Reset your password at {{ projectDisplayName }}", true],
      ["magic_link", "Sign in to {{ projectDisplayName }}: Your code is {{ otp }}", true],
      ["team_invitation", "You have been invited to join {{ teamDisplayName }}", true],
    ]);
    expect(templates[0]?.content).toMatchObject({ root: { type: "EmailLayout" } });
  });

  it("refuses to customise a template while the project uses the shared e-mail server", async () => {
    const error = await rejection(admin().updateEmailTemplate("email_verification", { subject: "Hello" }));
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ status: 400, body: expect.stringMatching(/^Cannot update email templates in shared email config/) });
  });

  it("customises a template, mails with it, and resets it to the default", async () => {
    await useOwnEmailServer();
    const app = admin();
    const content = {
      root: { type: "EmailLayout", data: { childrenIds: ["greeting", "go"] } },
      greeting: {
        type: "Text",
        data: { props: { text: "Welcome{{#if userDisplayName}}, {{ userDisplayName }}{{/if}}, to {{ projectDisplayName }}!" }, style: {} },
      },
      go: { type: "Text", data: { props: { text: "Confirm [here]({{ emailVerificationLink }})." }, style: {} } },
    };
    await app.updateEmailTemplate("email_verification", { subject: "Confirm your e-mail for {{ projectDisplayName }}", content });
    // A field left out keeps its value.
    await app.updateEmailTemplate("email_verification", { content });
    const [verification, reset] = await app.listEmailTemplates();
    expect(verification).toEqual({
      type: "email_verification",
      subject: "Confirm your e-mail for {{ projectDisplayName }}",
      content,
      isDefault: false,
    });
    expect(reset?.isDefault).toBe(true);

    const client = demoApps(emulator()).client();
    await client.signUpWithCredential({
      email: "ada@example.com",
      password: "correct horse battery",
      verificationCallbackUrl: `${APP}/handler/email-verification`,
    });
    const [mail] = emulator().control.emails({ to: "ada@example.com" });
    expect(mail?.subject).toBe("Confirm your e-mail for Demo");
    expect(mail?.from).toBe("Acme <noreply@acme.example.com>");
    expect(mail?.text).toMatch(
      /^Welcome, to Demo!\n\nConfirm here\nhttp:\/\/localhost:3000\/handler\/email-verification\?code=[a-z0-9]{45}\.$/,
    );
    expect(mail?.html).toContain('<a href="http://localhost:3000/handler/email-verification?code=');

    await app.resetEmailTemplate("email_verification");
    expect((await app.listEmailTemplates())[0]).toMatchObject({
      subject: "Verify your email at {{ projectDisplayName }}",
      isDefault: true,
    });
    const again = await rejection(app.resetEmailTemplate("email_verification"));
    expect(again).toMatchObject({ status: 404, body: "Email template not found" });
  });

  it("refuses content that is not a template document", async () => {
    await useOwnEmailServer();
    const error = await rejection(admin().updateEmailTemplate("magic_link", { content: { root: { type: "Marquee", data: {} } } }));
    expect(error).toMatchObject({ status: 400, body: "Invalid email template content" });
    expect((await admin().listEmailTemplates())[2]?.isDefault).toBe(true);
  });
});

describe("test e-mails and the sent-e-mail log", () => {
  it("sends a test e-mail through a working configuration, and captures it", async () => {
    const server = await startSmtpServer({ user: SMTP.username, pass: SMTP.password });
    const result = await admin()
      .sendTestEmail({ recipientEmail: "ops@example.com", emailConfig: { ...SMTP, host: "127.0.0.1", port: server.port } })
      .finally(() => server.close());
    expect(result).toEqual({ status: "ok", data: undefined });
    expect(server.received).toHaveLength(1);
    const [mail] = emulator().control.emails({ to: "ops@example.com" });
    expect(mail).toMatchObject({ subject: "Test Email from Stack Auth", from: "Acme <noreply@acme.example.com>" });

    const [listed] = await admin().listSentEmails();
    expect(listed).toMatchObject({ id: mail?.id, to: ["ops@example.com"], subject: "Test Email from Stack Auth", error: null });
  });

  it("reports a host that does not resolve as the service does, and logs the failure", async () => {
    const result = await admin().sendTestEmail({
      recipientEmail: "ops@example.com",
      emailConfig: { ...SMTP, host: "smtp.nowhere.invalid" },
    });
    expect(result).toEqual({
      status: "error",
      error: { errorMessage: "Failed to connect to the email host. Please make sure the email host configuration is correct." },
    });
    const [listed] = await admin().listSentEmails();
    expect(listed?.error).toMatchObject({
      errorType: "HOST_NOT_FOUND",
      canRetry: false,
      rawError: { code: "EDNS", hostname: "smtp.nowhere.invalid" },
    });

    const badPort = await admin().sendTestEmail({ recipientEmail: "ops@example.com", emailConfig: { ...SMTP, port: 70000 } });
    expect(badPort.status === "error" && badPort.error.errorMessage).toMatch(/^Unknown error while sending test email/);
  });

  it("refuses a recipient that is not an e-mail address with SCHEMA_ERROR", async () => {
    const error = await rejection(admin().sendTestEmail({ recipientEmail: "not an address", emailConfig: SMTP }));
    expect(isKnownError(error, "SCHEMA_ERROR")).toBe(true);
    expect(emulator().control.emails()).toEqual([]);
  });

  it("lists the e-mails of sign-ups and team invitations, newest first, with the configuration they went out with", async () => {
    const client = demoApps(emulator()).client();
    await client.signUpWithCredential({
      email: "ada@example.com",
      password: "correct horse battery",
      verificationCallbackUrl: `${APP}/handler/email-verification`,
    });
    emulator().control.advanceClock(1000);
    const { app } = await signedIn("grace@example.com", "Grace");
    const team = await (await app.getUser({ or: "throw" })).createTeam({ displayName: "Compilers" });
    await team.inviteUser({ email: "bob@example.com", callbackUrl: `${APP}/handler/team-invitation` });

    const sent = await admin().listSentEmails();
    expect(sent.map((e) => [e.to, e.subject, e.error])).toEqual([
      [["bob@example.com"], "You have been invited to join Compilers", null],
      [["ada@example.com"], "Verify your email at Demo", null],
    ]);
    expect(sent[0]!.sentAt.getTime()).toBeGreaterThan(sent[1]!.sentAt.getTime());
    const wire = emulator().control.requests({ operationId: "listSentEmails" });
    expect(wire.map((r) => r.status)).toEqual([200]);
    const invitation = emulator().control.emails({ to: "bob@example.com" })[0];
    expect(invitation?.text).toContain("Please click on the following button to join the team Compilers");
    expect(invitation?.sender_config).toMatchObject({ type: "shared", sender_name: "Demo" });
  });

  it("shows the shared e-mail server the emulator was given (the service's STACK_EMAIL_* settings), and sends from its address", async () => {
    const own = await checkedEmulator({
      serviceVersion: "2.8.11",
      sharedEmailServer: { host: "127.0.0.1", port: 2500, username: "inbucket", senderEmail: "noreply@example.org" },
    });
    await demoApps(own)
      .client()
      .signUpWithCredential({
        email: "ada@example.com",
        password: "correct horse battery",
        verificationCallbackUrl: `${APP}/handler/email-verification`,
      });
    const [sent] = await demoApps(own).admin().listSentEmails();
    const wire = (await own
      .fetch(
        new Request(`${own.apiOrigin}/api/v1/internal/emails`, {
          headers: {
            "x-stack-project-id": DEMO_KEYS.projectId,
            "x-stack-access-type": "admin",
            "x-stack-super-secret-admin-key": DEMO_KEYS.superSecretAdminKey,
          },
        }),
      )
      .then((r) => r.json())) as { items: { sender_config: unknown }[] };
    expect(sent?.subject).toBe("Verify your email at Demo");
    expect(wire.items[0]?.sender_config).toEqual({
      type: "shared",
      host: "127.0.0.1",
      port: 2500,
      username: "inbucket",
      sender_name: "Demo",
      sender_email: "noreply@example.org",
    });
    expect(own.control.emails()[0]?.from).toBe("Demo <noreply@example.org>");
    expect(own.violations).toEqual([]);
  });
});

describe("metrics", () => {
  it("counts the users, their sign-ups and activity (the access tokens issued) per day over 30 days, and their login methods", async () => {
    const { control } = emulator();
    const ada = await control.createUser({ projectId: DEMO_KEYS.projectId, email: "ada@example.com", password: "pw-123456789" });
    await control.createSession(ada.id);
    control.advanceClock(2 * DAY);
    const bob = await control.createUser({ projectId: DEMO_KEYS.projectId, email: "bob@example.com" });
    control.advanceClock(1000);
    const carol = await control.createUser({ projectId: DEMO_KEYS.projectId, email: "carol@example.com", password: "pw-123456789" });
    // Whether anonymous users count differs per service version: service-versions.test.ts.
    control.advanceClock(1000);
    // Ada comes back today.
    const adaApp = new StackClientApp({ ...base(), tokenStore: await control.createSession(ada.id) });
    await adaApp.getUser({ or: "throw" });

    const metrics = (await admin().getMetrics()) as Record<string, any>;
    const today = new Date(control.now()).toISOString().slice(0, 10);
    const twoDaysAgo = new Date(control.now() - 2 * DAY).toISOString().slice(0, 10);
    expect(metrics.total_users).toBe(3);
    expect(metrics.daily_users).toHaveLength(31);
    expect(metrics.daily_users[30]).toEqual({ date: today, activity: 2 });
    expect(metrics.daily_users[28]).toEqual({ date: twoDaysAgo, activity: 1 });
    expect(metrics.daily_users.reduce((sum: number, p: { activity: number }) => sum + p.activity, 0)).toBe(3);
    // Bob and Carol were never issued a token: they were not active.
    expect(metrics.daily_active_users[30]).toEqual({ date: today, activity: 1 });
    expect(metrics.daily_active_users[28]).toEqual({ date: twoDaysAgo, activity: 1 });
    expect(metrics.users_by_country).toEqual({});
    expect(metrics.recently_registered.map((u: { id: string }) => u.id)).toEqual([carol.id, bob.id, ada.id]);
    expect(metrics.recently_active[0]).toMatchObject({ id: ada.id, primary_email: "ada@example.com" });
    expect(metrics.login_methods).toEqual([{ method: "password", count: 2 }]);
  });

  it("shows an empty project as zeros", async () => {
    const metrics = (await admin().getMetrics()) as Record<string, any>;
    expect(metrics).toMatchObject({
      total_users: 0,
      users_by_country: {},
      recently_registered: [],
      recently_active: [],
      login_methods: [],
    });
    expect(metrics.daily_active_users.every((p: { activity: number }) => p.activity === 0)).toBe(true);
  });
});

describe("webhooks and the project", () => {
  it("hands out a fresh webhook portal token each time", async () => {
    const first = await admin().getSvixToken();
    const second = await admin().getSvixToken();
    expect(first).toMatch(/^appsk_[a-z0-9]{32}$/);
    expect(second).not.toBe(first);
    expect(
      emulator()
        .control.requests({ operationId: "createSvixToken" })
        .map((r) => r.status),
    ).toEqual([201, 201]);
  });

  it("accepts production mode with a configuration the client-side check objects to, as the service does", async () => {
    const project = await admin().getProject();
    await project.update({
      isProductionMode: true,
      config: { allowLocalhost: true, domains: [{ domain: "http://127.0.0.1:3000", handlerPath: "/handler" }] },
    });
    const updated = await admin().getProject();
    expect(updated.isProductionMode).toBe(true);
    expect((await updated.getProductionModeErrors()).map((e) => e.message)).toEqual([
      "Localhost is not allowed in production mode, turn off 'Allow localhost' in project settings",
      "Localhost domains are not allowed to be trusted in production mode: http://127.0.0.1:3000",
    ]);
  });

  it("deletes the project with its templates and e-mails", async () => {
    await useOwnEmailServer();
    await admin().updateEmailTemplate("password_reset", { subject: "Reset" });
    await admin().sendTestEmail({ recipientEmail: "ops@example.com", emailConfig: SMTP });
    const { store } = emulator().engine.ctx;
    expect(store.sizes().emailTemplates).toBe(1);

    await (await admin().getProject()).delete();
    expect(store.project(DEMO_KEYS.projectId)).toBeUndefined();
    expect([store.sizes().emailTemplates, store.sizes().emails]).toEqual([0, 0]);
    // 2.8.11 says a project is gone only once its keys are good, and its keys went with it.
    expect(isKnownError(await rejection(demoApps(emulator()).client().getProject()), "INVALID_PUBLISHABLE_CLIENT_KEY")).toBe(true);
  });
});
