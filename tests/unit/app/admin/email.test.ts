// E-mail templates, test e-mails and the sent-e-mail log (SPEC §3, §7 Admin; endpoints.md §D).
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { isStackError } from "../../../../runtime/errors.js";
import {
  listEmailTemplates,
  listSentEmails,
  resetEmailTemplate,
  sendTestEmail,
  updateEmailTemplate,
} from "../../../../runtime/app/admin/email.js";
import { json, useFakeClock } from "../../../helpers/fake-service.js";
import { rejectionOf } from "../../../helpers/outcome.js";
import { adminContext, KEYS, sent } from "./admin-context.js";

const DOC = { type: "doc", content: [{ type: "paragraph", content: [{ type: "text", text: "Click the link." }] }] };
const SMTP = {
  host: "smtp.example.com",
  port: 587,
  username: "mailer",
  password: "pw",
  senderEmail: "noreply@example.com",
  senderName: "Acme",
};

beforeEach(() => useFakeClock());
afterEach(() => vi.useRealTimers());

describe("listEmailTemplates", () => {
  it("is GET /email-templates, mapped to { type, subject, content, isDefault }", async () => {
    const { ctx, service } = adminContext(() =>
      json({ items: [{ type: "email_verification", subject: "Verify your e-mail", content: DOC, is_default: true }], is_paginated: false }),
    );
    expect(await listEmailTemplates(ctx)).toEqual([
      { type: "email_verification", subject: "Verify your e-mail", content: DOC, isDefault: true },
    ]);
    expect(sent(service)).toEqual([{ method: "GET", path: "/api/v1/email-templates", body: undefined }]);
    expect(service.requests[0]!.headers["x-stack-access-type"]).toBe("admin");
  });
});

describe("updateEmailTemplate", () => {
  it("is PATCH /email-templates/{type} {subject, content}", async () => {
    const { ctx, service } = adminContext(() => json({ type: "magic_link", subject: "Sign in", content: DOC, is_default: false }));
    await updateEmailTemplate(ctx, "magic_link", { subject: "Sign in", content: DOC });
    expect(sent(service)).toEqual([
      { method: "PATCH", path: "/api/v1/email-templates/magic_link", body: { subject: "Sign in", content: DOC } },
    ]);
  });

  it("sends only the fields given", async () => {
    const { ctx, service } = adminContext(() => json({ type: "password_reset", subject: "Reset", content: DOC, is_default: false }));
    await updateEmailTemplate(ctx, "password_reset", { subject: "Reset" });
    expect(sent(service)[0]!.body).toEqual({ subject: "Reset" });
  });
});

describe("resetEmailTemplate", () => {
  it("is DELETE /email-templates/{type}", async () => {
    const { ctx, service } = adminContext(() => json({ success: true }));
    await resetEmailTemplate(ctx, "team_invitation");
    expect(sent(service)).toEqual([{ method: "DELETE", path: "/api/v1/email-templates/team_invitation", body: undefined }]);
  });
});

describe("sendTestEmail", () => {
  it("is POST /internal/send-test-email {recipient_email, email_config} in snake_case; success is ok(undefined)", async () => {
    const { ctx, service } = adminContext(() => json({ success: true }));
    expect(await sendTestEmail(ctx, { recipientEmail: "ada@example.com", emailConfig: SMTP })).toEqual({ status: "ok", data: undefined });
    expect(sent(service)).toEqual([
      {
        method: "POST",
        path: "/api/v1/internal/send-test-email",
        body: {
          recipient_email: "ada@example.com",
          email_config: {
            host: "smtp.example.com",
            port: 587,
            username: "mailer",
            password: "pw",
            sender_email: "noreply@example.com",
            sender_name: "Acme",
          },
        },
      },
    ]);
    expect(service.requests[0]!.headers["x-stack-super-secret-admin-key"]).toBe(KEYS.superSecretAdminKey);
  });

  it("a failed delivery is an error Result carrying the server's error_message", async () => {
    const { ctx } = adminContext(() => json({ success: false, error_message: "Connection refused by smtp.example.com:587" }));
    expect(await sendTestEmail(ctx, { recipientEmail: "ada@example.com", emailConfig: SMTP })).toEqual({
      status: "error",
      error: { errorMessage: "Connection refused by smtp.example.com:587" },
    });
  });

  it("a failed delivery without error_message is 'Email test error not specified'", async () => {
    const { ctx } = adminContext(() => json({ success: false }));
    expect(await sendTestEmail(ctx, { recipientEmail: "ada@example.com", emailConfig: SMTP })).toEqual({
      status: "error",
      error: { errorMessage: "Email test error not specified" },
    });
  });

  it("without an emailConfig is a configuration error and sends nothing", async () => {
    const { ctx, service } = adminContext(() => json({ success: true }));
    const options = { recipientEmail: "ada@example.com" } as Parameters<typeof sendTestEmail>[1];
    expect(isStackError(await rejectionOf(sendTestEmail(ctx, options)), "StackConfigurationError")).toBe(true);
    expect(service.requests).toEqual([]);
  });
});

describe("listSentEmails", () => {
  it("is GET /internal/emails, mapped to { id, to, subject, sentAt: Date, error }", async () => {
    const { ctx, service } = adminContext(() =>
      json({
        items: [
          { id: "e-1", subject: "Verify", sent_at_millis: 1763683200000, to: ["ada@example.com"], sender_config: {}, error: null },
          {
            id: "e-2",
            subject: "Reset",
            sent_at_millis: 1763683300000,
            to: ["bob@example.com"],
            sender_config: null,
            error: { message: "bounced" },
          },
        ],
        is_paginated: false,
      }),
    );
    const emails = await listSentEmails(ctx);
    expect(emails).toEqual([
      { id: "e-1", to: ["ada@example.com"], subject: "Verify", recipient: "ada@example.com", sentAt: new Date(1763683200000), error: null },
      {
        id: "e-2",
        to: ["bob@example.com"],
        subject: "Reset",
        recipient: "bob@example.com",
        sentAt: new Date(1763683300000),
        error: { message: "bounced" },
      },
    ]);
    expect(emails[0]!.sentAt).toBeInstanceOf(Date);
    expect(sent(service)).toEqual([{ method: "GET", path: "/api/v1/internal/emails", body: undefined }]);
  });
});
