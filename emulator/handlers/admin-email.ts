// The project's e-mail, for admins: its templates (`/email-templates`), a test
// send through an SMTP configuration (`/internal/send-test-email`) and the log
// of what it sent (`/internal/emails`); and the rendering of a template, which
// the e-mails with a code go through (common.ts mailCode). As the service
// (v2.8.11) does it:
// - a type the project has not customised is the default, `is_default: true`;
//   defaults are documents of the service's e-mail editor (an `EmailLayout`
//   root whose `childrenIds` name the blocks) with its default subjects and
//   Handlebars variables (`{{ projectDisplayName }}`, `{{ emailVerificationLink }}`…);
// - updating needs the project's own e-mail server (400 "Cannot update email
//   templates in shared email config. …"), a content whose every value is an
//   editor block (400 "Invalid email template content"), and keeps the current
//   subject or content for a field left out (or empty); resetting a template the
//   project has not customised is 404 "Email template not found";
// - 2.8.11 logs every send, a failed one with the mailer's error object; 2.8.86
//   logs only its own flows' e-mails, a failure as a string; a test
//   send answers `{success: false, error_message}` when it fails. The test
//   e-mail really goes to the SMTP server named when it is on this machine
//   (engine/smtp.ts); any other host fails as the service fails to reach it.
import { schemaError } from "../engine/errors.js";
import type { EmulatorContext, EmulatorRequest, Handlers } from "../engine/context.js";
import type { Answer } from "../engine/http.js";
import { renderLayout, textToHtml, type SharedEmailServer } from "../engine/mail.js";
import { sendThroughSmtp, type SmtpConfig } from "../engine/smtp.js";
import type { EmailRecord, EmailTemplateRecord, ProjectRecord } from "../engine/store.js";
import { list } from "../engine/views.js";
import { blocksOfDocument, DEFAULT_TEMPLATES, fill, TEMPLATE_TYPES, tsxDefaultEmail, type TemplateType } from "./mail-templates.js";
import { LEGACY_DEFAULT_CONTENT } from "./mail-templates-legacy.js";

export { DEFAULT_TEMPLATES, TEMPLATE_TYPES, type TemplateType };
type Variables = Readonly<Record<string, string | null | undefined>>;

/**
 * A template with its variables filled in: the subject, and the text and HTML its blocks lay out as (links bare
 * after their label: 2.8.11's renderer, @react-email/render 0.0.12, turns html-to-text's link brackets off).
 */
export function renderTemplate(subject: string, content: unknown, variables: Variables) {
  return { subject: fill(subject, variables), ...renderLayout(blocksOfDocument(content, variables)) };
}

// --- templates and sending ---------------------------------------------------

const templateKey = (projectId: string, type: TemplateType) => `${projectId}/${type}`;

/**
 * The project's template of a type: its own, else the default, of content version 2 unless `contentVersion` asks for
 * the first (mail-templates-legacy.ts; a project's own template is the same for both).
 */
export function templateOf(ctx: EmulatorContext, projectId: string, type: TemplateType, contentVersion: 1 | 2 = 2) {
  const own = ctx.store.emailTemplate(templateKey(projectId, type));
  if (own) return { type, subject: own.subject, content: own.content, is_default: false };
  const content = (contentVersion === 1 ? LEGACY_DEFAULT_CONTENT[type] : undefined) ?? DEFAULT_TEMPLATES[type].content;
  return { type, subject: DEFAULT_TEMPLATES[type].subject, content: structuredClone(content), is_default: true };
}

/** The configuration a project's e-mail goes out with, without the password, as the sent-e-mail log shows it. */
export function senderConfigOf(shared: SharedEmailServer, project: ProjectRecord): Record<string, unknown> {
  const c = project.config.email_config;
  if (c.type !== "standard") {
    const { host, port, username, senderEmail } = shared;
    return { type: "shared", host, port, username, sender_name: project.display_name, sender_email: senderEmail };
  }
  return { type: "standard", host: c.host, port: c.port, username: c.username, sender_name: c.sender_name, sender_email: c.sender_email };
}

/**
 * Renders the e-mail of `type` for `to` and mails it from the project's sender; `projectDisplayName` is filled in.
 * 2.8.11 renders the project's block-document template (its own or the default of `contentVersion`); 2.8.86 its
 * default TSX template.
 */
export function sendTemplatedEmail(
  ctx: EmulatorContext,
  project: ProjectRecord,
  type: TemplateType,
  to: string,
  variables: Variables,
  contentVersion: 1 | 2 = 2,
): EmailRecord {
  const filled = { projectDisplayName: project.display_name, ...variables };
  let rendered: { subject: string; text: string; html: string };
  if (ctx.profile.mailTemplates === "tsx-defaults") {
    const email = tsxDefaultEmail(type, filled);
    rendered = { subject: email.subject, ...renderLayout(email.blocks) };
  } else {
    const template = templateOf(ctx, project.id, type, contentVersion);
    rendered = renderTemplate(template.subject, template.content, filled);
  }
  const sent = ctx.mail.send({ projectId: project.id, to, subject: rendered.subject, text: rendered.text, html: rendered.html });
  const record: EmailRecord = { ...sent, sender_config: senderConfigOf(ctx.mail.sharedServer, project) };
  ctx.store.insert("emails", record);
  return record;
}

// --- the test e-mail -----------------------------------------------------------

/** yup's e-mail check, which the service's schema uses (a host without a dot passes). */
export const EMAIL =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;

/** How 2.8.86's outbox states a failed send: its message, after what failed. */
function outboxError(error: EmailRecord["error"]): string | null {
  if (error === null || typeof error === "string") return error;
  return `Send error: ${String(error["message"])}`;
}

const TEST_SUBJECT = "Test Email from Stack Auth";
const TEST_TEXT =
  "This is a test email from Stack Auth. If you successfully received this email, your email server configuration is working correctly.";

// --- handlers -------------------------------------------------------------------

function typeParam(request: EmulatorRequest): TemplateType {
  const type = request.params["type"] as TemplateType;
  if (!TEMPLATE_TYPES.includes(type))
    throw schemaError(request, `params.type must be one of the following values: ${TEMPLATE_TYPES.join(", ")}`);
  return type;
}

const BLOCK_TYPES = [
  "Avatar",
  "Button",
  "ColumnsContainer",
  "Container",
  "Divider",
  "EmailLayout",
  "Heading",
  "Html",
  "Image",
  "Spacer",
  "Text",
];

/** The service's check: every value of the document is an editor block. */
function isTemplateDocument(content: unknown): boolean {
  if (typeof content === "string") return false;
  if (typeof content !== "object" || content === null) return true;
  return Object.values(content).every((b: unknown) => {
    const candidate = b as { type?: unknown; data?: unknown } | null;
    return (
      typeof candidate === "object" &&
      candidate !== null &&
      BLOCK_TYPES.includes(candidate.type as string) &&
      typeof candidate.data === "object" &&
      candidate.data !== null
    );
  });
}

const statusText = (status: number, text: string): Answer => ({ status, text });

export const adminEmailHandlers = {
  listEmailTemplates: ({ project }, ctx) => ({ body: list(TEMPLATE_TYPES.map((type) => templateOf(ctx, project.id, type))) }),

  updateEmailTemplate: (request, ctx) => {
    const type = typeParam(request);
    const { project } = request;
    if (project.config.email_config.type === "shared") {
      return statusText(
        400,
        "Cannot update email templates in shared email config. Set up a custom email config to update email templates.",
      );
    }
    const body = (request.body ?? {}) as { subject?: string; content?: unknown };
    if (body.content && !isTemplateDocument(body.content)) return statusText(400, "Invalid email template content");
    const current = templateOf(ctx, project.id, type);
    const record: EmailTemplateRecord = {
      id: templateKey(project.id, type),
      project_id: project.id,
      type,
      subject: body.subject || current.subject,
      content: body.content || current.content,
    };
    ctx.store.insert("emailTemplates", record);
    return { body: templateOf(ctx, project.id, type) };
  },

  resetEmailTemplate: (request, ctx) => {
    const key = templateKey(request.project.id, typeParam(request));
    if (ctx.store.emailTemplate(key) === undefined) return statusText(404, "Email template not found");
    ctx.store.deleteEmailTemplate(key);
    return { body: { success: true } };
  },

  sendTestEmail: async (request, ctx) => {
    const { recipient_email: to, email_config: config } = request.body as { recipient_email: string; email_config: SmtpConfig };
    const problems = [
      ...(EMAIL.test(to) ? [] : ["body.recipient_email must be a valid email"]),
      ...(EMAIL.test(config.sender_email) ? [] : ["body.email_config.sender_email must be a valid email"]),
    ];
    if (problems.length > 0) throw schemaError(request, ...problems);
    const outcome = await sendThroughSmtp(config, { to, subject: TEST_SUBJECT, text: TEST_TEXT }, ctx.profile.testEmailNamesRejection);
    // Logged (2.8.11 lists it; 2.8.86 does not), but not in the mailbox: it went to the server named, not the shared one.
    const sent = ctx.mail.send({
      projectId: request.project.id,
      to,
      subject: TEST_SUBJECT,
      text: TEST_TEXT,
      html: textToHtml(TEST_TEXT),
      from: `${config.sender_name} <${config.sender_email}>`,
    });
    ctx.store.insert("emails", {
      ...sent,
      sender_config: {
        type: "standard",
        host: config.host,
        port: config.port,
        username: config.username,
        sender_name: config.sender_name,
        sender_email: config.sender_email,
      },
      error: outcome.error === null ? null : { ...outcome.error },
      test: true,
    });
    return { body: outcome.error === null ? { success: true } : { success: false, error_message: outcome.errorMessage } };
  },

  listSentEmails: ({ project }, ctx) => {
    const outbox = ctx.profile.sentEmailLog === "outbox";
    const sent = ctx.store
      .emailsOf(project.id)
      .filter((email) => !(outbox && email.test))
      .reverse()
      .sort((a, b) => b.sent_at_millis - a.sent_at_millis)
      .slice(0, 100);
    return {
      body: list(
        sent.map((email) => ({
          id: email.id,
          subject: email.subject,
          sent_at_millis: email.sent_at_millis,
          to: [...email.to],
          ...(outbox ? {} : { sender_config: email.sender_config ?? senderConfigOf(ctx.mail.sharedServer, project) }),
          error: outbox ? outboxError(email.error) : email.error,
        })),
      ),
    };
  },
} satisfies Handlers;
