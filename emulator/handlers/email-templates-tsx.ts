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
const TEMPLATES: Readonly<Record<TemplateType, { readonly id: string; readonly displayName: string }>> = {
  email_verification: { id: "e7d009ce-8d47-4528-b245-5bf119f2ffa3", displayName: "Email Verification" },
  password_reset: { id: "a70fb3a4-56c1-4e42-af25-49d25603abd0", displayName: "Password Reset" },
  magic_link: { id: "822687fe-8d0a-4467-a0d1-416b6e639478", displayName: "Magic Link/OTP" },
  team_invitation: { id: "e84de395-2076-4831-9c19-8e9a96a868e4", displayName: "Team Invitation" },
};

/**
 * The default templates' sources, as the service's defaults give them (packages/stack-shared/src/helpers/emails.ts
 * DEFAULT_EMAIL_TEMPLATES); they name no theme (`themeId` undefined), so a list leaves `theme_id` out.
 */
const DEFAULT_SOURCES: Readonly<Record<TemplateType, string>> = {
  email_verification:
    'import { type } from "arktype"\nimport { Button, Section, Hr, Text, Heading } from "@react-email/components";\nimport { Subject, NotificationCategory, Props } from "@stackframe/emails";\n\nexport const variablesSchema = type({\n  emailVerificationLink: "string"\n})\n\nexport function EmailTemplate({ user, project, variables }: Props<typeof variablesSchema.infer>) {\n  return (\n    <>\n      <Subject value={`Verify your email at ${project.displayName}`} />\n      <NotificationCategory value="Transactional" />\n      <div className="font-sans text-base font-normal tracking-[0.15008px] leading-[1.5] m-0 py-8 w-full min-h-full">\n        <Section>\n          <Heading as="h3" className="font-sans font-bold text-[20px] text-center py-4 px-6 m-0">\n            Verify your email at {project.displayName}\n          </Heading>\n          <p className="font-sans font-normal text-[14px] text-center pt-2 px-6 pb-4 m-0 opacity-80">\n            Hi{user.displayName ? (", " + user.displayName) : \'\'}! Please click on the following button to verify your email.\n          </p>\n          <div className="text-center py-3 px-6">\n            <Button\n              href={variables.emailVerificationLink}\n              className="text-black font-sans font-bold text-[14px] inline-block bg-[#f0f0f0] rounded-[4px] py-3 px-5 no-underline border-0"\n            >\n              Verify my email\n            </Button>\n          </div>\n          <div className="py-4 px-6">\n            <Hr className="opacity-20" />\n          </div>\n          <p className="font-sans font-normal text-[12px] text-center pt-1 px-6 pb-6 m-0 opacity-60">\n            If you were not expecting this email, you can safely ignore it. \n          </p>\n        </Section>\n      </div>\n    </>\n  )\n}\n\nEmailTemplate.PreviewVariables = {\n  emailVerificationLink: "#"\n} satisfies typeof variablesSchema.infer',
  password_reset:
    'import { type } from "arktype"\nimport { Button, Section, Hr, Text, Heading } from "@react-email/components"\nimport { Subject, NotificationCategory, Props} from "@stackframe/emails"\n\nexport const variablesSchema = type({\n  passwordResetLink: "string"\n})\n\nexport function EmailTemplate({ user, project, variables }: Props<typeof variablesSchema.infer>) {\n  return (\n    <>\n      <Subject value={"Reset your password at " + project.displayName} />\n      <NotificationCategory value="Transactional" />\n      <div className="font-sans text-base font-normal tracking-tight leading-relaxed py-8 w-full min-h-full">\n        <Section>\n          <Heading as="h3" className="font-sans font-bold text-[20px] text-center py-4 px-6 m-0">\n            Reset your password at {project.displayName}\n          </Heading>\n\n          <p className="text-sm font-sans font-normal text-center pt-2 pb-4 px-6 m-0 opacity-80">\n            Hi{user.displayName ? (", " + user.displayName) : ""}! Please click on the following button to start the password reset process.\n          </p>\n\n          <div className="text-center px-6 py-3">\n            <Button\n              href={variables.passwordResetLink}\n              className="text-black text-sm font-sans font-bold bg-[#f0f0f0] rounded-[4px] inline-block py-3 px-5 no-underline border-none"\n              target="_blank"\n            >\n              Reset my password\n            </Button>\n          </div>\n\n          <div className="px-6 py-4">\n            <Hr className="opacity-20" />\n          </div>\n\n          <p className="text-xs font-sans font-normal text-center pt-1 pb-6 px-6 m-0 opacity-60">\n            If you were not expecting this email, you can safely ignore it.\n          </p>\n        </Section>\n      </div>\n    </>\n  )\n}\n\nEmailTemplate.PreviewVariables = {\n   passwordResetLink: "#"\n} satisfies typeof variablesSchema.infer',
  magic_link:
    'import { type } from \'arktype\';\nimport { Section, Hr, Text, Heading } from \'@react-email/components\';\nimport { Subject, NotificationCategory, Props } from \'@stackframe/emails\';\n\nexport const variablesSchema = type({\n  magicLink: \'string\',\n  otp: \'string\',\n});\n\nexport function EmailTemplate({ user, project, variables }: Props<typeof variablesSchema.infer>) {\n  return (\n    <>\n      <Subject value={"Sign in to " + project.displayName + ": Your code is " + variables.otp} />\n      <NotificationCategory value="Transactional" />\n      <div className="font-sans text-base font-normal tracking-[0.15008px] leading-6 m-0 py-8 w-full min-h-full">\n        <Section className="mx-auto">\n          <Heading as="h3" className="font-sans font-bold text-xl text-center px-6 py-4 m-0">\n            Sign in to {project.displayName}\n          </Heading>\n          <p className="text-sm font-sans font-normal text-center px-6 py-4 m-0 opacity-80">\n            Hi{user.displayName ? ", " + user.displayName : ""}! This is your one-time-password for signing in:\n          </p>\n          <p className="text-2xl font-mono font-bold text-center px-6 py-4 m-0">\n            {variables.otp}\n          </p>\n          <p className="text-sm font-sans font-normal text-center px-6 py-4 m-0">\n            Or you can click on{\' \'}\n            <a\n              key={20}\n              href={variables.magicLink}\n              rel="noopener noreferrer"\n              className="text-blue-600 underline"\n            >\n              this link\n            </a>{\' \'}\n            to sign in\n          </p>\n          <Hr className="px-6 py-4 opacity-20" />\n          <p className="text-xs font-sans font-normal text-center px-6 pt-1 pb-6 m-0 opacity-60">\n            If you were not expecting this email, you can safely ignore it.\n          </p>\n        </Section>\n      </div>\n    </>\n  );\n}\n\nEmailTemplate.PreviewVariables = {\n  magicLink: "#",\n  otp: "3SLSWZ"\n} satisfies typeof variablesSchema.infer',
  team_invitation:
    'import { type } from "arktype";\nimport { Button, Section, Hr, Text, Heading } from "@react-email/components";\nimport { Subject, NotificationCategory, Props } from "@stackframe/emails";\n\n\nexport const variablesSchema = type({\n  teamDisplayName: "string",\n  teamInvitationLink: "string"\n});\n\nexport function EmailTemplate({ user, variables }: Props<typeof variablesSchema.infer>) {\n  return (\n    <>\n      <Subject value={"You have been invited to join " + variables.teamDisplayName} />\n      <NotificationCategory value="Transactional" />\n      <div className="font-sans text-base font-normal tracking-[0.15008px] leading-[1.5] m-0 py-8 w-full min-h-full">\n        <Section className="mx-auto max-w-lg">\n          <Heading as="h3" className="font-sans font-bold text-xl text-center px-6 pt-8 m-0">\n            You are invited to {variables.teamDisplayName}\n          </Heading>\n          <p className="text-sm font-sans font-normal text-center px-6 pt-2 pb-4 m-0 opacity-80">\n            Hi{user.displayName ? ", " + user.displayName : ""}! Please click the button below to join the team {variables.teamDisplayName}\n          </p>\n          <div className="text-center px-6 py-3">\n            <Button\n              href={variables.teamInvitationLink}\n              className="text-black text-sm font-sans font-bold bg-[#f0f0f0] rounded-md inline-block px-5 py-3 no-underline border-0"\n            >\n              Join team\n            </Button>\n          </div>\n          <div className="px-6 py-4">\n            <Hr className="opacity-20" />\n          </div>\n          <p className="text-xs font-sans font-normal text-center px-6 pb-6 pt-1 m-0 opacity-60">\n            If you were not expecting this email, you can safely ignore it.\n          </p>\n        </Section>\n      </div>\n    </>\n  );\n}\n\nEmailTemplate.PreviewVariables = {\n  teamDisplayName: "My Team",\n  teamInvitationLink: "#"\n} satisfies typeof variablesSchema.infer ',
};

const defaultSource = (type: TemplateType): string => DEFAULT_SOURCES[type];

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
