// POST /internal/send-test-email tries the SMTP server it is given, as the
// service's route does (apps/backend/src/app/api/latest/internal/send-test-email/route.tsx,
// its mailer's error classification in apps/backend/src/lib/emails.tsx at 2.8.11 and
// emails-low-level.tsx at 2.8.86): only servers on this machine are tried.
import { afterEach, describe, expect, it } from "vitest";
import { closedPort, startSmtpServer, type SmtpServer } from "./smtp-server.js";
import { ownedProject, serviceOf, type Service } from "./harness.js";

const VERSIONS = ["2.8.11", "2.8.86"] as const;
const USER = "mailer";
const PASS = "s3cret-pass";

let server: SmtpServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

type Project = Awaited<ReturnType<typeof ownedProject>>;

async function sendTest(service: Service, config: { host: string; port: number; username?: string; password?: string }, project?: Project) {
  const { adminToken, projectId } = project ?? (await ownedProject(service));
  return service.call("POST", "/internal/send-test-email", {
    as: "admin",
    keys: { projectId },
    adminToken,
    body: {
      recipient_email: "to@example.com",
      email_config: {
        host: config.host,
        port: config.port,
        username: config.username ?? USER,
        password: config.password ?? PASS,
        sender_name: "Sender",
        sender_email: "sender@example.com",
      },
    },
  });
}

const UNKNOWN = "Unknown error while sending test email. Make sure the email server is running and accepting connections.";

describe.each(VERSIONS)("on %s", (version) => {
  it("delivers the test e-mail to an SMTP server on this machine and answers success", async () => {
    server = await startSmtpServer({ user: USER, pass: PASS });
    const answer = await sendTest(await serviceOf(version), { host: "127.0.0.1", port: server.port });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ success: true });
    expect(server.received).toHaveLength(1);
    expect(server.received[0]?.from).toBe("<sender@example.com>");
    expect(server.received[0]?.to).toEqual(["<to@example.com>"]);
    expect(server.received[0]?.data).toContain("Subject: Test Email from Stack Auth");
  });

  it("answers the unknown-error message when the connection is refused", async () => {
    const answer = await sendTest(await serviceOf(version), { host: "localhost", port: await closedPort() });
    expect(answer.body).toEqual({
      success: false,
      error_message: UNKNOWN,
    });
  });

  it("answers the authentication message when the server refuses the credentials", async () => {
    server = await startSmtpServer({ user: USER, pass: PASS });
    const answer = await sendTest(await serviceOf(version), { host: "127.0.0.1", port: server.port, password: "wrong" });
    expect(answer.body).toEqual({
      success: false,
      error_message: "Failed to authenticate with the email server. Please check your email credentials configuration.",
    });
  });

  it("answers a message the server refuses (EMESSAGE) in the version's words", async () => {
    server = await startSmtpServer({ user: USER, pass: PASS, refuseMessage: "550 5.7.1 Message refused" });
    const answer = await sendTest(await serviceOf(version), { host: "127.0.0.1", port: server.port });
    expect(answer.body).toEqual({
      success: false,
      // 2.8.86's route names the mailer's message; 2.8.11's calls it unknown.
      error_message: version === "2.8.86" ? "Email server rejected the email: Message failed: 550 5.7.1 Message refused" : UNKNOWN,
    });
  });

  it("answers the route's timeout message when the server never greets", async () => {
    server = await startSmtpServer({ user: USER, pass: PASS, silent: true });
    const answer = await sendTest(await serviceOf(version), { host: "127.0.0.1", port: server.port });
    expect(answer.body).toEqual({
      success: false,
      error_message: "Timed out while sending test email. Make sure the email server is running and accepting connections.",
    });
  }, 15_000);

  it("fails a host off this machine as an unresolvable host, without trying it", async () => {
    const answer = await sendTest(await serviceOf(version), { host: "smtp.example.org", port: 587 });
    expect(answer.body).toEqual({
      success: false,
      error_message: "Failed to connect to the email host. Please make sure the email host configuration is correct.",
    });
  });

  it("fails an address off this machine as a refused connection, without trying it", async () => {
    const answer = await sendTest(await serviceOf(version), { host: "192.0.2.1", port: 587 });
    expect(answer.body).toEqual({
      success: false,
      error_message: UNKNOWN,
    });
  });
});

describe("2.8.11's log of sent e-mails", () => {
  // Its mailer's result, as JSON keeps it: the Error's own fields (nodemailer 6.9.13's, no message or stack), the
  // service's classification, and its message.
  it("records a failed test e-mail's error as {rawError, errorType, canRetry, message}", async () => {
    const service = await serviceOf("2.8.11");
    const project = await ownedProject(service);
    server = await startSmtpServer({ user: USER, pass: PASS });
    await sendTest(service, { host: "127.0.0.1", port: server.port, password: "wrong" }, project);
    const port = await closedPort();
    await sendTest(service, { host: "127.0.0.1", port }, project);
    const log = await service.call("GET", "/internal/emails", {
      as: "admin",
      keys: { projectId: project.projectId },
      adminToken: project.adminToken,
    });
    expect(log.body.items.map((email: { error: unknown }) => email.error)).toEqual([
      {
        rawError: { errno: -111, code: "ESOCKET", syscall: "connect", address: "127.0.0.1", port, command: "CONN" },
        errorType: "UNKNOWN",
        canRetry: false,
        message: "An unknown error occurred while sending the email.",
      },
      {
        rawError: { code: "EAUTH", response: "535 5.7.8 Authentication credentials invalid", responseCode: 535, command: "AUTH PLAIN" },
        errorType: "AUTH_FAILED",
        canRetry: false,
        message: "Failed to authenticate with the email server. Please check your email credentials configuration.",
      },
    ]);
  });
});
