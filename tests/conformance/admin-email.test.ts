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

async function sendTest(service: Service, config: { host: string; port: number; username?: string; password?: string }) {
  const { adminToken, projectId } = await ownedProject(service);
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
      error_message: "Unknown error while sending test email. Make sure the email server is running and accepting connections.",
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
      error_message: "Unknown error while sending test email. Make sure the email server is running and accepting connections.",
    });
  });
});
