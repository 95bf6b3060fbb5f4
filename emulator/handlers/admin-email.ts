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
//   send answers `{success: false, error_message}` when it fails. The emulator
//   has no SMTP: a host that cannot resolve (not a host name, or under the
//   reserved `.invalid`, `.test`, `.example`) fails as the service's DNS failure,
//   a port outside 0–65535 as its unknown error; anything else is delivered (captured).
import type { EmulatorContext, EmulatorRequest, Handlers } from "../engine/context.js";
import type { Answer } from "../engine/http.js";
import { textToHtml } from "../engine/mail.js";
import type { EmailRecord, EmailTemplateRecord, ProjectRecord } from "../engine/store.js";
import { list } from "../engine/views.js";
import { schemaError } from "./permissions.js";

export type TemplateType = EmailTemplateRecord["type"];
type Variables = Readonly<Record<string, string | null | undefined>>;

/** In the service's order. */
export const TEMPLATE_TYPES: readonly TemplateType[] = ["email_verification", "password_reset", "magic_link", "team_invitation"];

const padding = { top: 16, bottom: 16, right: 24, left: 24 };
const block = (type: string, props: Record<string, unknown>, style: Record<string, unknown> = {}) => ({
  type,
  data: { props, style: { backgroundColor: null, textAlign: "center", padding, ...style } },
});

/** A default template document: heading, greeting, a button with the link, and the service's footer. */
function defaultDocument(heading: string, text: string, button: string, link: string) {
  return {
    root: {
      type: "EmailLayout",
      data: {
        backdropColor: "#FFFFFF",
        canvasColor: "#FFFFFF",
        textColor: "#242424",
        fontFamily: "MODERN_SANS",
        childrenIds: ["block-heading", "block-text", "block-button", "block-divider", "block-footer"],
      },
    },
    "block-heading": block("Heading", { text: heading, level: "h3" }, { color: "#000000", fontWeight: "bold" }),
    "block-text": block(
      "Text",
      { text: `Hi{{#if userDisplayName}}, {{ userDisplayName }}{{/if}}! ${text}` },
      { color: "#474849", fontSize: 14 },
    ),
    "block-button": block("Button", { text: button, url: link, buttonBackgroundColor: "#000000", buttonTextColor: "#FFFFFF" }),
    "block-divider": block("Divider", { lineColor: "#EEEEEE", lineHeight: 1 }),
    "block-footer": block(
      "Text",
      { text: "If you were not expecting this email, you can safely ignore it." },
      { color: "#474849", fontSize: 12 },
    ),
  };
}

/** The service's default templates (subjects as its EMAIL_TEMPLATES_METADATA has them). */
export const DEFAULT_TEMPLATES: Readonly<Record<TemplateType, { readonly subject: string; readonly content: unknown }>> = {
  email_verification: {
    subject: "Verify your email at {{ projectDisplayName }}",
    content: defaultDocument(
      "Verify your email at {{ projectDisplayName }}",
      "Welcome to {{ projectDisplayName }}. Please verify your email address with the link below.",
      "Verify my email",
      "{{ emailVerificationLink }}",
    ),
  },
  password_reset: {
    subject: "Reset your password at {{ projectDisplayName }}",
    content: defaultDocument(
      "Reset your password at {{ projectDisplayName }}",
      "Someone asked to reset the password of your account at {{ projectDisplayName }}. Set a new one with the link below.",
      "Reset my password",
      "{{ passwordResetLink }}",
    ),
  },
  magic_link: {
    subject: "Sign in to {{ projectDisplayName }}: Your code is {{ otp }}",
    content: defaultDocument(
      "Sign in to {{ projectDisplayName }}",
      "Your one-time code is {{ otp }}. You can also sign in with the link below.",
      "Sign in",
      "{{ magicLink }}",
    ),
  },
  team_invitation: {
    subject: "You have been invited to join {{ teamDisplayName }}",
    content: defaultDocument(
      "You are invited to {{ teamDisplayName }}",
      "You have been invited to join the team {{ teamDisplayName }} at {{ projectDisplayName }}.",
      "Join the team",
      "{{ teamInvitationLink }}",
    ),
  },
};

// --- rendering -------------------------------------------------------------

/** Handlebars as far as the templates use it: `{{#if x}}…{{else}}…{{/if}}` and `{{ x }}` (a missing variable is empty). */
export function fill(template: string, variables: Variables): string {
  const value = (name: string) => variables[name] ?? "";
  return template
    .replace(/\{\{#if\s+(\w+)\s*\}\}([\s\S]*?)(?:\{\{else\}\}([\s\S]*?))?\{\{\/if\}\}/g, (_, name: string, then: string, otherwise = "") =>
      value(name) ? then : otherwise,
    )
    .replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => value(name));
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const MARKDOWN_LINK = /\[([^\]]*)\]\(([^)\s]*)\)/g;

/** The blocks of a document in reading order: the root's children, and the children of containers. */
function blocksOf(content: unknown): { type: string; props: Record<string, unknown> }[] {
  if (typeof content !== "object" || content === null) return [];
  const doc = content as Record<string, { type?: unknown; data?: { childrenIds?: unknown; props?: Record<string, unknown> } } | undefined>;
  const out: { type: string; props: Record<string, unknown> }[] = [];
  const visit = (ids: unknown, depth: number) => {
    if (!Array.isArray(ids) || depth > 10) return;
    for (const id of ids) {
      const b = typeof id === "string" ? doc[id] : undefined;
      if (!b || typeof b.type !== "string") continue;
      const props = b.data?.props ?? {};
      out.push({ type: b.type, props });
      visit(props["childrenIds"], depth + 1);
    }
  };
  visit(doc["root"]?.data?.childrenIds, 0);
  return out;
}

/** A template with its variables filled in: the subject, a plain-text body (links as `label: url`) and HTML. */
export function renderTemplate(subject: string, content: unknown, variables: Variables) {
  const text: string[] = [];
  const html: string[] = [];
  for (const { type, props } of blocksOf(content)) {
    const str = (key: string) => (typeof props[key] === "string" ? fill(props[key] as string, variables) : "");
    if (type === "Heading" || type === "Text") {
      const value = str("text");
      text.push(value.replace(MARKDOWN_LINK, (_, label: string, url: string) => `${label}: ${url}`));
      const tag = type === "Heading" ? "h3" : "p";
      html.push(
        `<${tag}>${escapeHtml(value).replace(MARKDOWN_LINK, (_, label: string, url: string) => `<a href="${url}">${label}</a>`)}</${tag}>`,
      );
    } else if (type === "Button") {
      text.push(`${str("text")}: ${str("url")}`);
      html.push(`<p><a href="${escapeHtml(str("url"))}">${escapeHtml(str("text"))}</a></p>`);
    } else if (type === "Divider") {
      html.push("<hr>");
    }
  }
  return {
    subject: fill(subject, variables),
    text: text.join("\n\n"),
    html: `<!doctype html><html><body style="font-family: sans-serif">${html.join("\n")}</body></html>`,
  };
}

// --- templates and sending ---------------------------------------------------

const templateKey = (projectId: string, type: TemplateType) => `${projectId}/${type}`;

/** The project's template of a type: its own, else the default. */
export function templateOf(ctx: EmulatorContext, projectId: string, type: TemplateType) {
  const own = ctx.store.tables.emailTemplates.get(templateKey(projectId, type));
  if (own) return { type, subject: own.subject, content: own.content, is_default: false };
  return { type, subject: DEFAULT_TEMPLATES[type].subject, content: structuredClone(DEFAULT_TEMPLATES[type].content), is_default: true };
}

/** The shared e-mail server of the emulator, as `/internal/emails` reports it. */
const SHARED_SERVER = { host: "smtp.stackkit.local", port: 587, username: "emulator", sender_email: "noreply@stackkit.local" };

/** The configuration a project's e-mail goes out with, without the password, as the sent-e-mail log shows it. */
export function senderConfigOf(project: ProjectRecord): Record<string, unknown> {
  const c = project.config.email_config;
  if (c.type !== "standard") return { type: "shared", ...SHARED_SERVER, sender_name: project.display_name };
  return { type: "standard", host: c.host, port: c.port, username: c.username, sender_name: c.sender_name, sender_email: c.sender_email };
}

/** Renders the project's template of `type` for `to` and mails it; `projectDisplayName` is filled in. */
export function sendTemplatedEmail(
  ctx: EmulatorContext,
  project: ProjectRecord,
  type: TemplateType,
  to: string,
  variables: Variables,
): EmailRecord {
  const template = templateOf(ctx, project.id, type);
  const rendered = renderTemplate(template.subject, template.content, { projectDisplayName: project.display_name, ...variables });
  const sent = ctx.mail.send({ projectId: project.id, to, subject: rendered.subject, text: rendered.text, html: rendered.html });
  const c = project.config.email_config;
  const record: EmailRecord = {
    ...sent,
    ...(c.type === "standard" && c.sender_email ? { from: `${c.sender_name ?? ""} <${c.sender_email}>` } : {}),
    sender_config: senderConfigOf(project),
  };
  ctx.store.put("emails", record);
  return record;
}

// --- the test e-mail -----------------------------------------------------------

/** yup's e-mail check, which the service's schema uses (a host without a dot passes). */
const EMAIL =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;
const HOST_LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/i;
/** Top-level names that never resolve (RFC 2606, RFC 6761). */
const UNRESOLVABLE_TLDS = ["invalid", "test", "example"];

function resolves(host: string): boolean {
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(host) || /^\[?[0-9a-f:]+\]?$/i.test(host)) return true;
  const labels = host.replace(/\.$/, "").split(".");
  if (host.length > 253 || !labels.every((label) => HOST_LABEL.test(label))) return false;
  return !UNRESOLVABLE_TLDS.includes((labels[labels.length - 1] ?? "").toLowerCase());
}

/** How 2.8.86's outbox states a failed send: its message, after what failed. */
function outboxError(error: EmailRecord["error"]): string | null {
  if (error === null || typeof error === "string") return error;
  return `Send error: ${String(error["message"])}`;
}

interface TestConfig {
  readonly host: string;
  readonly port: number;
  readonly username: string;
  readonly password: string;
  readonly sender_email: string;
  readonly sender_name: string;
}

/** The mailer's error for a configuration the emulator cannot "deliver" through (null: it can), and what the route answers. */
function deliveryFailure(c: TestConfig): { error: Record<string, unknown>; errorMessage: string } | null {
  if (!resolves(c.host)) {
    const message = "Failed to connect to the email host. Please make sure the email host configuration is correct.";
    return {
      error: {
        rawError: { errno: -3008, code: "EDNS", syscall: "getaddrinfo", hostname: c.host, command: "CONN" },
        errorType: "HOST_NOT_FOUND",
        canRetry: false,
        message,
      },
      errorMessage: message,
    };
  }
  if (c.port < 0 || c.port > 65535) {
    return {
      error: {
        rawError: { code: "ERR_SOCKET_BAD_PORT" },
        errorType: "UNKNOWN",
        canRetry: false,
        message: "An unknown error occurred while sending the email.",
      },
      errorMessage: "Unknown error while sending test email. Make sure the email server is running and accepting connections.",
    };
  }
  return null;
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

export const adminEmailHandlers: Handlers = {
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
    ctx.store.put("emailTemplates", record);
    return { body: templateOf(ctx, project.id, type) };
  },

  resetEmailTemplate: (request, ctx) => {
    const key = templateKey(request.project.id, typeParam(request));
    if (!ctx.store.tables.emailTemplates.has(key)) return statusText(404, "Email template not found");
    ctx.store.delete("emailTemplates", key);
    return { body: { success: true } };
  },

  sendTestEmail: (request, ctx) => {
    const { recipient_email: to, email_config: config } = request.body as { recipient_email: string; email_config: TestConfig };
    const problems = [
      ...(EMAIL.test(to) ? [] : ["body.recipient_email must be a valid email"]),
      ...(EMAIL.test(config.sender_email) ? [] : ["body.email_config.sender_email must be a valid email"]),
    ];
    if (problems.length > 0) throw schemaError(request, problems.join("\n  - "));
    const failure = deliveryFailure(config);
    const sent = ctx.mail.send({ projectId: request.project.id, to, subject: TEST_SUBJECT, text: TEST_TEXT, html: textToHtml(TEST_TEXT) });
    ctx.store.put("emails", {
      ...sent,
      from: `${config.sender_name} <${config.sender_email}>`,
      sender_config: {
        type: "standard",
        host: config.host,
        port: config.port,
        username: config.username,
        sender_name: config.sender_name,
        sender_email: config.sender_email,
      },
      error: failure?.error ?? null,
      test: true,
    });
    return { body: failure ? { success: false, error_message: failure.errorMessage } : { success: true } };
  },

  listSentEmails: ({ project }, ctx) => {
    const outbox = ctx.profile.sentEmailLog === "outbox";
    const sent = [...ctx.store.tables.emails.values()]
      .filter((email) => email.project_id === project.id && !(outbox && email.test))
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
          ...(outbox ? {} : { sender_config: email.sender_config ?? senderConfigOf(project) }),
          error: outbox ? outboxError(email.error) : email.error,
        })),
      ),
    };
  },
};
