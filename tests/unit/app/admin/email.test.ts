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
import { KnownErrors } from "../../../../generated/known-errors.js";
import { ServiceVersionError } from "../../../../runtime/http/request-errors.js";
import { json, knownError, useFakeClock, type Handler } from "../../../helpers/fake-service.js";
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

// 2.8.86 (service-versions.md §3): /email-templates is gone, and its catch-all answers every
// method there with a plain-text 404, rewritten to 200 under x-stack-override-error-status.
const noSuchRoute = (path: string) =>
  new Response(
    `404 — this page does not exist in Stack Auth's API.\n\nPlease see the API documentation at https://docs.stack-auth.com, or visit the Stack Auth dashboard at https://app.stack-auth.com.\n\nURL: https://api.stack-auth.com${path}`,
    { status: 200, headers: { "content-type": "text/plain; charset=utf-8", "x-stack-actual-status": "404" } },
  );
/** A 2.8.86 service: the catch-all for /email-templates, and `internal` for /internal/email-templates. */
const v2_8_86 =
  (internal: Handler = () => json({})): Handler =>
  (r) =>
    r.path.startsWith("/api/v1/email-templates") ? noSuchRoute(r.path) : internal(r);

const TEMPLATE_IDS =
  "email_verification e7d009ce-8d47-4528-b245-5bf119f2ffa3, password_reset a70fb3a4-56c1-4e42-af25-49d25603abd0, magic_link 822687fe-8d0a-4467-a0d1-416b6e639478, team_invitation e84de395-2076-4831-9c19-8e9a96a868e4";

describe("e-mail templates on 2.8.86", () => {
  it("listEmailTemplates: one GET, then a ServiceVersionError naming 2.8.86 and /internal/email-templates", async () => {
    const { ctx, service } = adminContext(v2_8_86());
    const error = await rejectionOf(listEmailTemplates(ctx));
    expect(error).toBeInstanceOf(ServiceVersionError);
    expect(isStackError(error, "ServiceVersionError")).toBe(true);
    expect(error).toMatchObject({
      method: "StackAdminApp.listEmailTemplates",
      serviceVersion: "2.8.86",
      message:
        "StackAdminApp.listEmailTemplates cannot work with this Stack Auth service, which answers as 2.8.86 does: it has no /email-templates, whose block-based templates it replaced with TSX source, which has no subject or template document to read. Instead: " +
        'read them with admin.api.GET("/internal/email-templates"), which answers { templates: [{ id, display_name, tsx_source, theme_id }] }; ' +
        `each type of e-mail is sent with the template of a fixed id: ${TEMPLATE_IDS}`,
    });
    expect(sent(service)).toEqual([{ method: "GET", path: "/api/v1/email-templates", body: undefined }]);
  });

  it("updateEmailTemplate: the refused PATCH changes nothing, and the call rejects with a ServiceVersionError naming the type's template", async () => {
    const { ctx, service } = adminContext(v2_8_86());
    const error = await rejectionOf(updateEmailTemplate(ctx, "magic_link", { subject: "Sign in", content: DOC }));
    expect(error).toBeInstanceOf(ServiceVersionError);
    expect(error).toMatchObject({
      method: "StackAdminApp.updateEmailTemplate",
      serviceVersion: "2.8.86",
      replacement:
        'send the template\'s new TSX source with admin.api.PATCH("/internal/email-templates/{template_id}", { params: { path: { template_id: "822687fe-8d0a-4467-a0d1-416b6e639478" } }, body: { tsx_source } }), the template magic_link e-mails are sent with',
      message:
        "StackAdminApp.updateEmailTemplate cannot work with this Stack Auth service, which answers as 2.8.86 does: it has no /email-templates, whose block-based templates it replaced with TSX source, which a subject and a template document do not convert to, so nothing was changed. Instead: " +
        'send the template\'s new TSX source with admin.api.PATCH("/internal/email-templates/{template_id}", { params: { path: { template_id: "822687fe-8d0a-4467-a0d1-416b6e639478" } }, body: { tsx_source } }), the template magic_link e-mails are sent with',
    });
    expect(sent(service)).toEqual([
      { method: "PATCH", path: "/api/v1/email-templates/magic_link", body: { subject: "Sign in", content: DOC } },
    ]);
  });

  it("resetEmailTemplate: DELETE /internal/email-templates/{id} of the template each type's e-mails are sent with", async () => {
    const { ctx, service } = adminContext(v2_8_86());
    for (const type of ["email_verification", "password_reset", "magic_link", "team_invitation"] as const) {
      await resetEmailTemplate(ctx, type);
    }
    expect(sent(service).map((r) => `${r.method} ${r.path}`)).toEqual([
      "DELETE /api/v1/email-templates/email_verification",
      "DELETE /api/v1/internal/email-templates/e7d009ce-8d47-4528-b245-5bf119f2ffa3",
      "DELETE /api/v1/email-templates/password_reset",
      "DELETE /api/v1/internal/email-templates/a70fb3a4-56c1-4e42-af25-49d25603abd0",
      "DELETE /api/v1/email-templates/magic_link",
      "DELETE /api/v1/internal/email-templates/822687fe-8d0a-4467-a0d1-416b6e639478",
      "DELETE /api/v1/email-templates/team_invitation",
      "DELETE /api/v1/internal/email-templates/e84de395-2076-4831-9c19-8e9a96a868e4",
    ]);
  });

  it("resetEmailTemplate on the shared e-mail server: the service's REQUIRES_CUSTOM_EMAIL_SERVER, typed", async () => {
    const refused = () =>
      knownError(
        400,
        "REQUIRES_CUSTOM_EMAIL_SERVER",
        "This action requires a custom SMTP server. Please edit your email server configuration and try again.",
      );
    const { ctx } = adminContext(v2_8_86(refused));
    expect(await rejectionOf(resetEmailTemplate(ctx, "password_reset"))).toBeInstanceOf(KnownErrors.RequiresCustomEmailServer);
  });

  it("2.8.11's plain-text 404 of a template the project never changed is no removed route: thrown as it is, nothing more sent", async () => {
    const notFound = () =>
      new Response("Email template not found", { status: 200, headers: { "content-type": "text/plain", "x-stack-actual-status": "404" } });
    const { ctx, service } = adminContext(notFound);
    const error = await rejectionOf(resetEmailTemplate(ctx, "magic_link"));
    expect(isStackError(error, "HttpError")).toBe(true);
    expect(error).toMatchObject({ status: 404, body: "Email template not found" });
    expect(service.requests).toHaveLength(1);
  });
});

describe("listSentEmails on 2.8.86", () => {
  it("reads items without sender_config, a recipient written 'User ID: <uuid>', a string error and null", async () => {
    const { ctx } = adminContext(() =>
      json({
        items: [
          {
            id: "0d3c5e7a-9b1f-4d2e-8a6c-4f1b3d5e7a9c",
            subject: "Verify your email at Acme",
            sent_at_millis: 1763683200000,
            to: ["User ID: 3241a285-8329-4d69-8f3d-316e08cf140c"],
            error: null,
          },
          {
            id: "7a9c1e3b-5d7f-4b2a-9c4e-6f8a1b3d5e7f",
            subject: "",
            sent_at_millis: 1763683300000,
            to: ["bob@example.com"],
            error: "Send error: Connection refused",
          },
        ],
        is_paginated: false,
      }),
    );
    expect(await listSentEmails(ctx)).toEqual([
      {
        id: "0d3c5e7a-9b1f-4d2e-8a6c-4f1b3d5e7a9c",
        to: ["User ID: 3241a285-8329-4d69-8f3d-316e08cf140c"],
        subject: "Verify your email at Acme",
        recipient: "User ID: 3241a285-8329-4d69-8f3d-316e08cf140c",
        sentAt: new Date(1763683200000),
        error: null,
      },
      {
        id: "7a9c1e3b-5d7f-4b2a-9c4e-6f8a1b3d5e7f",
        to: ["bob@example.com"],
        subject: "",
        recipient: "bob@example.com",
        sentAt: new Date(1763683300000),
        error: "Send error: Connection refused",
      },
    ]);
  });
});
