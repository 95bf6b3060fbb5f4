// The project's e-mail: its templates (SPEC §3 "Email template"), a test send
// through an SMTP configuration, and the log of sent e-mails.
import type { components } from "../../../generated/schema.js";
import { StackAssertionError, StackConfigurationError, signalOf, type CallOptions } from "../../core.js";
import type { ClientAppContext } from "../context.js";
import { Result } from "../result.js";
import { answered } from "../wire.js";

/** The kind of e-mail a template is for: `"email_verification"`, `"password_reset"`, `"magic_link"` or `"team_invitation"`. */
export type EmailTemplateType = components["schemas"]["EmailTemplateType"];

/** One of the project's e-mail templates (`adminApp.listEmailTemplates()`). */
export interface AdminEmailTemplate {
  readonly type: EmailTemplateType;
  readonly subject: string;
  /** The template as a JSON document. */
  readonly content: unknown;
  /** True while the project uses the service's default for this type. */
  readonly isDefault: boolean;
}

/**
 * The fields of an e-mail template to change, for `StackAdminApp.updateEmailTemplate`;
 * a field left out keeps its value.
 *
 * @example
 * ```ts
 * await admin.updateEmailTemplate("magic_link", {
 *   subject: "Your Acme sign-in link",
 *   content: { type: "doc", content: [{ type: "paragraph", content: [{ type: "text", text: "Click to sign in." }] }] },
 * });
 * ```
 */
export interface AdminEmailTemplateUpdateOptions {
  /** The subject line of the e-mails of this type; unchanged when left out. */
  readonly subject?: string;
  /** The template as a JSON document, in the format of `AdminEmailTemplate.content`; unchanged when left out. */
  readonly content?: unknown;
}

/** An SMTP server to send through. */
export interface EmailConfig {
  readonly host: string;
  readonly port: number;
  readonly username: string;
  readonly password: string;
  readonly senderEmail: string;
  readonly senderName: string;
}

/** An e-mail the project sent, from its log (`adminApp.listSentEmails()`). */
export interface AdminSentEmail {
  readonly id: string;
  readonly to: string[];
  readonly subject: string;
  /** The first address of `to`, or "" when there is none (the reference's member for display). */
  readonly recipient: string;
  readonly sentAt: Date;
  /** Why sending failed; null when it did not. */
  readonly error: unknown;
}

/** What a test send reports when the service does not say why it failed. */
export const EMAIL_TEST_ERROR_NOT_SPECIFIED = "Email test error not specified";

/** `GET /email-templates`: one template per type, the default where the project has none of its own. */
export async function listEmailTemplates(ctx: ClientAppContext, options?: CallOptions): Promise<AdminEmailTemplate[]> {
  const { data } = await ctx.client.send("GET /email-templates", signalOf(options));
  const items = answered(data, "GET /email-templates").items;
  if (!Array.isArray(items)) throw new StackAssertionError("GET /email-templates answered without an items list");
  return items.map((t) => Object.freeze({ type: t.type, subject: t.subject, content: t.content, isDefault: t.is_default }));
}

/** `PATCH /email-templates/{type}` with the fields given. */
export async function updateEmailTemplate(
  ctx: ClientAppContext,
  type: EmailTemplateType,
  options: AdminEmailTemplateUpdateOptions & CallOptions,
): Promise<void> {
  if (typeof options !== "object" || options === null) {
    throw new StackConfigurationError("updateEmailTemplate needs the fields to change: { subject?, content? }.");
  }
  const body = {
    ...(options.subject === undefined ? {} : { subject: options.subject }),
    ...(options.content === undefined ? {} : { content: options.content }),
  };
  await ctx.client.send("PATCH /email-templates/{type}", { params: { path: { type } }, body, ...signalOf(options) });
}

/** `DELETE /email-templates/{type}`: back to the default template. */
export async function resetEmailTemplate(ctx: ClientAppContext, type: EmailTemplateType, options?: CallOptions): Promise<void> {
  await ctx.client.send("DELETE /email-templates/{type}", { params: { path: { type } }, ...signalOf(options) });
}

/**
 * `POST /internal/send-test-email`. The call succeeds whether or not the mail
 * went out; a failed delivery is an error Result carrying the server's reason.
 */
export async function sendTestEmail(
  ctx: ClientAppContext,
  options: { readonly recipientEmail: string; readonly emailConfig: EmailConfig } & CallOptions,
): Promise<Result<undefined, { readonly errorMessage: string }>> {
  const config = options?.emailConfig;
  if (typeof config !== "object" || config === null) {
    throw new StackConfigurationError(
      "sendTestEmail needs { recipientEmail, emailConfig: { host, port, username, password, senderEmail, senderName } }.",
    );
  }
  const { data } = await ctx.client.send("POST /internal/send-test-email", {
    body: {
      recipient_email: options.recipientEmail,
      email_config: {
        host: config.host,
        port: config.port,
        username: config.username,
        password: config.password,
        sender_email: config.senderEmail,
        sender_name: config.senderName,
      },
    },
    ...signalOf(options),
  });
  const answer = answered(data, "POST /internal/send-test-email");
  if (answer.success === true) return Result.ok(undefined);
  // An empty reason says no more than a missing one.
  const reason = typeof answer.error_message === "string" && answer.error_message.trim() !== "" ? answer.error_message : null;
  return Result.error({ errorMessage: reason ?? EMAIL_TEST_ERROR_NOT_SPECIFIED });
}

/** `GET /internal/emails`: the e-mails the project sent. */
export async function listSentEmails(ctx: ClientAppContext, options?: CallOptions): Promise<AdminSentEmail[]> {
  const { data } = await ctx.client.send("GET /internal/emails", signalOf(options));
  const items = answered(data, "GET /internal/emails").items;
  if (!Array.isArray(items)) throw new StackAssertionError("GET /internal/emails answered without an items list");
  return items.map((e) => {
    if (typeof e.sent_at_millis !== "number" || !Number.isFinite(e.sent_at_millis)) {
      throw new StackAssertionError(
        `GET /internal/emails answered e-mail ${String(e.id)} whose sent_at_millis is not a time in milliseconds`,
      );
    }
    const to = Array.isArray(e.to) ? [...e.to] : [];
    return Object.freeze({
      id: e.id,
      to,
      subject: e.subject,
      recipient: to[0] ?? "",
      sentAt: new Date(e.sent_at_millis),
      error: e.error ?? null,
    });
  });
}
