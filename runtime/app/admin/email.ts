// The project's e-mail: its templates (SPEC §3 "Email template"), a test send
// through an SMTP configuration, and the log of sent e-mails.
//
// Templates across versions (service-versions.md §3): 2.8.11 keeps one block-based template
// per type at /email-templates/{type}. 2.8.86 removed that route (its catch-all answers a
// plain-text 404) for /internal/email-templates/{id}, TSX modules with uuid ids; it sends
// each type of e-mail with the template of a fixed id (EMAIL_TEMPLATE_IDS below), which a
// project on its own e-mail server may change and which DELETE turns back into the service's
// default. So each method asks the 2.8.11 route first; the catch-all's answer, which changes
// nothing, shows a 2.8.86 service. Only the reset carries over there: a subject and a template
// document neither read from nor convert to TSX source.
import type { components } from "../../../generated/schema.js";
import { signalOf, type CallOptions } from "../call-options.js";
import { StackAssertionError, StackConfigurationError, isStackError } from "../../errors.js";
import { ServiceVersionError, type HttpError } from "../../http/request-errors.js";
import type { ClientAppContext } from "../context.js";
import { Result } from "../result.js";
import { answered, itemsOf } from "../wire.js";

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
  /**
   * Its recipients as the service writes them: addresses, or on 2.8.86 `"User ID: <uuid>"` for an
   * e-mail to a user's primary address, which the service looks up when it sends.
   */
  readonly to: string[];
  /** The subject; on 2.8.86 "" while the e-mail is not rendered yet. */
  readonly subject: string;
  /** The first entry of `to`, or "" when there is none (the reference's member for display). */
  readonly recipient: string;
  /** When it was sent; on 2.8.86, when it was queued while it is not sent yet. */
  readonly sentAt: Date;
  /**
   * Why sending failed; null when it did not. 2.8.11 records it as JSON; 2.8.86 as a sentence
   * (`"Render error: …"`, `"Send error: …"`).
   */
  readonly error: unknown;
}

/** What a test send reports when the service does not say why it failed. */
export const EMAIL_TEST_ERROR_NOT_SPECIFIED = "Email test error not specified";

/**
 * The template each type of e-mail is sent with on 2.8.86 (`/internal/email-templates/{id}`):
 * the service's default templates, at the same ids in every project. 2.8.86 has one more,
 * `sign_in_invitation` (066dd73c-36da-4fd0-b6d6-ebf87683f8bc), which 2.8.11 has no type for.
 */
const EMAIL_TEMPLATE_IDS: Readonly<Record<EmailTemplateType, string>> = {
  email_verification: "e7d009ce-8d47-4528-b245-5bf119f2ffa3",
  password_reset: "a70fb3a4-56c1-4e42-af25-49d25603abd0",
  magic_link: "822687fe-8d0a-4467-a0d1-416b6e639478",
  team_invitation: "e84de395-2076-4831-9c19-8e9a96a868e4",
};

/** The body with which the service's catch-all answers a route it does not have (both versions). */
const NO_SUCH_ROUTE = "this page does not exist in Stack Auth's API";

/** Whether `error` is the service's answer for a route it does not have: how 2.8.86 answers /email-templates. */
function isNoSuchRoute(error: unknown): boolean {
  if (!isStackError(error, "HttpError")) return false;
  const { status, body } = error as HttpError;
  return status === 404 && typeof body === "string" && body.includes(NO_SUCH_ROUTE);
}

/** The 2.8.86 template of `type`; undefined for what is no type (the call's type is not checked before it is sent). */
function templateIdOf(type: unknown): string | undefined {
  return typeof type === "string" && Object.prototype.hasOwnProperty.call(EMAIL_TEMPLATE_IDS, type)
    ? EMAIL_TEMPLATE_IDS[type as EmailTemplateType]
    : undefined;
}

/** `email_verification e7d0…, password_reset a70f…, …`, for a message. */
const templateIdList = () =>
  Object.entries(EMAIL_TEMPLATE_IDS)
    .map(([type, id]) => `${type} ${id}`)
    .join(", ");

const WHY_REMOVED = "it has no /email-templates, whose block-based templates it replaced with TSX source";

/** The 2.8.11 call `send`, or the ServiceVersionError of `method` when the service answers as 2.8.86 does. */
async function unlessRemoved<T>(send: () => Promise<T>, method: string, why: string, replacement: string): Promise<T> {
  try {
    return await send();
  } catch (error) {
    if (isNoSuchRoute(error)) throw new ServiceVersionError(method, "2.8.86", why, replacement);
    throw error;
  }
}

/**
 * `GET /email-templates`: one template per type, the default where the project has none of its own.
 * 2.8.86 has no such templates to read: ServiceVersionError.
 */
export async function listEmailTemplates(ctx: ClientAppContext, options?: CallOptions): Promise<AdminEmailTemplate[]> {
  const { data } = await unlessRemoved(
    () => ctx.client.send("GET /email-templates", signalOf(options)),
    "StackAdminApp.listEmailTemplates",
    `${WHY_REMOVED}, which has no subject or template document to read`,
    `read them with admin.api.GET("/internal/email-templates"), which answers { templates: [{ id, display_name, tsx_source, theme_id }] }; each type of e-mail is sent with the template of a fixed id: ${templateIdList()}`,
  );
  const items = itemsOf(data, "GET /email-templates");
  return items.map((t) => Object.freeze({ type: t.type, subject: t.subject, content: t.content, isDefault: t.is_default }));
}

/**
 * `PATCH /email-templates/{type}` with the fields given. 2.8.86 takes TSX source, which a
 * subject and a template document do not convert to: ServiceVersionError, and nothing changes.
 */
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
  await unlessRemoved(
    () => ctx.client.send("PATCH /email-templates/{type}", { params: { path: { type } }, body, ...signalOf(options) }),
    "StackAdminApp.updateEmailTemplate",
    `${WHY_REMOVED}, which a subject and a template document do not convert to, so nothing was changed`,
    `send the template's new TSX source with admin.api.PATCH("/internal/email-templates/{template_id}", { params: { path: { template_id: "${templateIdOf(type) ?? "<id>"}" } }, body: { tsx_source } }), the template ${String(type)} e-mails are sent with`,
  );
}

/**
 * `DELETE /email-templates/{type}`: back to the default template. On 2.8.86, which answers that
 * route as one it does not have, `DELETE /internal/email-templates/{id}` of the template the
 * type's e-mails are sent with, which turns it back into the service's default (refused with
 * REQUIRES_CUSTOM_EMAIL_SERVER on the shared e-mail server, which always sends the defaults).
 */
export async function resetEmailTemplate(ctx: ClientAppContext, type: EmailTemplateType, options?: CallOptions): Promise<void> {
  try {
    await ctx.client.send("DELETE /email-templates/{type}", { params: { path: { type } }, ...signalOf(options) });
  } catch (error) {
    const templateId = isNoSuchRoute(error) ? templateIdOf(type) : undefined;
    if (templateId === undefined) throw error;
    await ctx.client.send("DELETE /internal/email-templates/{template_id}", {
      params: { path: { template_id: templateId } },
      ...signalOf(options),
    });
  }
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
  const items = itemsOf(data, "GET /internal/emails");
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
