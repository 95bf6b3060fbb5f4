// 2.8.86's e-mail templates (`/internal/email-templates[/{id}]`): TSX modules
// with uuid ids, which replaced 2.8.11's block-based `/email-templates/{type}`.
// The service sends each kind of e-mail with the template of a fixed id; a
// project on its own e-mail server may change that template's source (PATCH)
// or turn it back into the default (DELETE); on the shared server both are
// REQUIRES_CUSTOM_EMAIL_SERVER. The emulator keeps the source as given (it does
// not run TSX: a source must name its Subject and NotificationCategory, as the
// service's renderer requires, and renders as the source's text) and keeps
// mailing its own rendering of the type (admin-email.ts).
import type { EmulatorContext, Handlers } from "../engine/context.js";
import { fail, statusFailure } from "../engine/errors.js";
import type { EmailTemplateRecord, ProjectRecord } from "../engine/store.js";
import { TEMPLATE_TYPES, type TemplateType } from "./mail-templates.js";

/** The ids of the templates each kind of e-mail is sent with, and their names (the service's defaults). */
const TEMPLATES: Readonly<Record<TemplateType, { readonly id: string; readonly displayName: string; readonly link: string }>> = {
  email_verification: { id: "e7d009ce-8d47-4528-b245-5bf119f2ffa3", displayName: "Email Verification", link: "emailVerificationLink" },
  password_reset: { id: "a70fb3a4-56c1-4e42-af25-49d25603abd0", displayName: "Password Reset", link: "passwordResetLink" },
  magic_link: { id: "822687fe-8d0a-4467-a0d1-416b6e639478", displayName: "Magic Link/OTP", link: "magicLink" },
  team_invitation: { id: "e84de395-2076-4831-9c19-8e9a96a868e4", displayName: "Team Invitation", link: "teamInvitationLink" },
};

/** A default source: a TSX module of the shape the service's templates have (the emulator's own words). */
function defaultSource(type: TemplateType): string {
  const { displayName, link } = TEMPLATES[type];
  return [
    `import { Subject, NotificationCategory, Props } from "@stackframe/emails";`,
    ``,
    `export function EmailTemplate({ project, variables }: Props<{ ${link}: string }>) {`,
    `  return (`,
    `    <>`,
    `      <Subject value={"${displayName}: " + project.displayName} />`,
    `      <NotificationCategory value="Transactional" />`,
    `      <a href={variables.${link}}>${displayName}</a>`,
    `    </>`,
    `  );`,
    `}`,
    ``,
  ].join("\n");
}

const typeOfId = (id: string): TemplateType | undefined => TEMPLATE_TYPES.find((type) => TEMPLATES[type].id === id);
/** Where a project's own source is kept: beside its 2.8.11 templates, under keys of their own. */
const sourceKey = (projectId: string, type: TemplateType) => `${projectId}/tsx/${type}`;

function sourceOf(ctx: EmulatorContext, projectId: string, type: TemplateType): { tsx_source: string; theme_id?: unknown } {
  const own = ctx.store.emailTemplate(sourceKey(projectId, type))?.content as { tsx_source: string; theme_id?: unknown } | undefined;
  return own ?? { tsx_source: defaultSource(type) };
}

/** The template the path names, after the project's e-mail server allows changing it. */
function editable(project: ProjectRecord, templateId: string): TemplateType {
  if (project.config.email_config.type === "shared") throw fail("REQUIRES_CUSTOM_EMAIL_SERVER");
  const type = typeOfId(templateId);
  if (type === undefined) throw statusFailure(404, "No template found with given id");
  return type;
}

const escapeHtml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

export const tsxTemplateHandlers = {
  listInternalEmailTemplates: ({ project }, ctx) => ({
    body: {
      templates: TEMPLATE_TYPES.map((type) => ({
        id: TEMPLATES[type].id,
        display_name: TEMPLATES[type].displayName,
        ...sourceOf(ctx, project.id, type),
      })),
    },
  }),

  updateInternalEmailTemplate: (request, ctx) => {
    const { project } = request;
    const type = editable(project, request.params["template_id"] ?? "");
    const body = request.body as { tsx_source: string; theme_id?: unknown };
    if (!body.tsx_source.includes("Subject")) throw fail("EMAIL_RENDERING_ERROR", { error: "Subject is required" });
    if (!body.tsx_source.includes("NotificationCategory"))
      throw fail("EMAIL_RENDERING_ERROR", { error: "NotificationCategory is required" });
    const record: EmailTemplateRecord = {
      id: sourceKey(project.id, type),
      project_id: project.id,
      type,
      subject: "",
      content: { tsx_source: body.tsx_source, ...(body.theme_id === undefined ? {} : { theme_id: body.theme_id }) },
    };
    ctx.store.insert("emailTemplates", record);
    return { body: { rendered_html: `<html><body><pre>${escapeHtml(body.tsx_source)}</pre></body></html>` } };
  },

  deleteInternalEmailTemplate: (request, ctx) => {
    const type = editable(request.project, request.params["template_id"] ?? "");
    ctx.store.deleteEmailTemplate(sourceKey(request.project.id, type));
    return { body: {} };
  },
} satisfies Handlers;
