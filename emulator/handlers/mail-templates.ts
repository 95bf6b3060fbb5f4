// The service's default e-mail templates, as data: 2.8.11's block documents (the
// e-mail editor's format, Handlebars variables) and what 2.8.86's default TSX
// templates render. Both are laid out by the mail engine (engine/mail.ts), which
// writes the text as the service's HTML-to-text conversion does; the wording is
// the service's default content.
import type { Block, Inline } from "../engine/mail.js";
import type { EmailTemplateRecord } from "../engine/store.js";

export type TemplateType = EmailTemplateRecord["type"];
export type Variables = Readonly<Record<string, string | null | undefined>>;

/** In the service's order. */
export const TEMPLATE_TYPES: readonly TemplateType[] = ["email_verification", "password_reset", "magic_link", "team_invitation"];

// --- 2.8.11: block documents -----------------------------------------------------

const pad = (top: number, bottom: number) => ({ top, bottom, right: 24, left: 24 });
type Spec = readonly [type: "Heading" | "Text" | "Button" | "Divider", value?: string, url?: string];

/** A document of the service's editor: an `EmailLayout` root whose children are the blocks, with the defaults' styles. */
function documentOf(id: string, specs: readonly Spec[]) {
  const doc: Record<string, unknown> = {};
  const ids = specs.map((_, i) => `block-${id}-${i}`);
  doc["root"] = {
    type: "EmailLayout",
    data: { backdropColor: "#FFFFFF", canvasColor: "#FFFFFF", textColor: "#242424", fontFamily: "MODERN_SANS", childrenIds: ids },
  };
  specs.forEach(([type, value, url], i) => {
    const props =
      type === "Heading"
        ? { text: value, level: "h3" }
        : type === "Button"
          ? {
              text: value,
              url,
              buttonBackgroundColor: "#f0f0f0",
              buttonTextColor: "#000000",
              buttonStyle: "rounded",
              size: "medium",
              fullWidth: false,
            }
          : type === "Divider"
            ? { lineColor: "#EEEEEE", lineHeight: 1 }
            : { text: value };
    const last = i === specs.length - 1;
    const padding =
      type === "Heading"
        ? pad(16, 16)
        : type === "Button"
          ? pad(12, 12)
          : type === "Divider"
            ? pad(16, 16)
            : last
              ? pad(4, 24)
              : pad(8, 16);
    doc[ids[i]!] = { type, data: { props, style: { backgroundColor: null, textAlign: "center", padding } } };
  });
  return doc;
}

const HI = "Hi{{#if userDisplayName}}, {{ userDisplayName }}{{/if}}!";
const FOOTER: Spec = ["Text", "If you were not expecting this email, you can safely ignore it."];

/** 2.8.11's default templates: subjects as its template metadata has them, documents with its default wording. */
export const DEFAULT_TEMPLATES: Readonly<Record<TemplateType, { readonly subject: string; readonly content: unknown }>> = {
  email_verification: {
    subject: "Verify your email at {{ projectDisplayName }}",
    content: documentOf("verification", [
      ["Heading", "Verify your email at {{ projectDisplayName }}"],
      ["Text", `${HI} Please click on the following button to verify your email.\n`],
      ["Button", "Verify my email", "{{ emailVerificationLink }}"],
      ["Divider"],
      FOOTER,
    ]),
  },
  password_reset: {
    subject: "Reset your password at {{ projectDisplayName }}",
    content: documentOf("reset", [
      ["Heading", "Reset your password at {{ projectDisplayName }}"],
      ["Text", `${HI} Please click on the following button to start the password reset process.`],
      ["Button", "Reset my password", "{{ passwordResetLink }}"],
      ["Divider"],
      FOOTER,
    ]),
  },
  magic_link: {
    subject: "Sign in to {{ projectDisplayName }}: Your code is {{ otp }}",
    content: documentOf("magic-link", [
      ["Heading", "Sign in to {{ projectDisplayName }}"],
      ["Text", `${HI} This is your one-time-password for signing in: `],
      ["Text", "{{ otp }}"],
      ["Text", "Or you can click on [this link]({{ magicLink }}) to sign in"],
      ["Divider"],
      FOOTER,
    ]),
  },
  team_invitation: {
    subject: "You have been invited to join {{ teamDisplayName }}",
    content: documentOf("team-invitation", [
      ["Heading", "You are invited to {{ teamDisplayName }}"],
      ["Text", `${HI} Please click on the following button to join the team {{ teamDisplayName }}\n`],
      ["Button", "Join team", "{{ teamInvitationLink }}"],
      ["Divider"],
      FOOTER,
    ]),
  },
};

/** Handlebars as far as the templates use it: `{{#if x}}…{{else}}…{{/if}}` and `{{ x }}` (a missing variable is empty). */
export function fill(template: string, variables: Variables): string {
  const value = (name: string) => variables[name] ?? "";
  return template
    .replace(/\{\{#if\s+(\w+)\s*\}\}([\s\S]*?)(?:\{\{else\}\}([\s\S]*?))?\{\{\/if\}\}/g, (_, name: string, then: string, otherwise = "") =>
      value(name) ? then : otherwise,
    )
    .replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => value(name));
}

/** A Text block's markdown as the editor reads it: `[label](url)` links and `**bold**`. */
function inlinesOf(text: string): Inline[] {
  const parts: Inline[] = [];
  let last = 0;
  for (const match of text.matchAll(/\[(.*?)\]\((.*?)\)|\*\*(.*?)\*\*/g)) {
    if (match.index > last) parts.push(text.slice(last, match.index));
    if (match[1] && match[2]) parts.push({ label: match[1], link: match[2] });
    else if (match[3]) parts.push({ bold: match[3] });
    last = match.index + match[0].length;
  }
  if (last < text.length) parts.push(text.slice(last));
  return parts;
}

/** The blocks of a document in reading order (containers' children too), its variables filled in. */
export function blocksOfDocument(content: unknown, variables: Variables): Block[] {
  if (typeof content !== "object" || content === null) return [];
  type Raw = { type?: unknown; data?: { childrenIds?: unknown; props?: Record<string, unknown> } } | undefined;
  const doc = content as Record<string, Raw>;
  const out: Block[] = [];
  const visit = (ids: unknown, depth: number) => {
    if (!Array.isArray(ids) || depth > 10) return;
    for (const id of ids) {
      const b = typeof id === "string" ? doc[id] : undefined;
      if (!b || typeof b.type !== "string") continue;
      const props = b.data?.props ?? {};
      const str = (key: string) => (typeof props[key] === "string" ? fill(props[key] as string, variables) : "");
      if (b.type === "Heading") out.push({ kind: "heading", text: str("text") });
      else if (b.type === "Text") out.push({ kind: "paragraph", parts: inlinesOf(str("text")) });
      else if (b.type === "Button") out.push({ kind: "button", label: str("text"), url: str("url") });
      else if (b.type === "Divider") out.push({ kind: "divider" });
      visit(props["childrenIds"], depth + 1);
    }
  };
  visit(doc["root"]?.data?.childrenIds, 0);
  return out;
}

// --- 2.8.86: the default TSX templates, rendered -----------------------------------

const hi = (v: Variables) => `Hi${v["userDisplayName"] ? `, ${v["userDisplayName"]}` : ""}!`;
const footer: Block = { kind: "paragraph", parts: ["If you were not expecting this email, you can safely ignore it."] };

/** What 2.8.86's default template of `type` renders with these variables: its subject and blocks. */
export function tsxDefaultEmail(type: TemplateType, v: Variables): { subject: string; blocks: Block[] } {
  const project = v["projectDisplayName"] ?? "";
  const team = v["teamDisplayName"] ?? "";
  const para = (...parts: Inline[]): Block => ({ kind: "paragraph", parts });
  switch (type) {
    case "email_verification":
      return {
        subject: `Verify your email at ${project}`,
        blocks: [
          { kind: "heading", text: `Verify your email at ${project}` },
          para(`${hi(v)} Please click on the following button to verify your email.`),
          { kind: "button", label: "Verify my email", url: v["emailVerificationLink"] ?? "" },
          { kind: "divider" },
          footer,
        ],
      };
    case "password_reset":
      return {
        subject: `Reset your password at ${project}`,
        blocks: [
          { kind: "heading", text: `Reset your password at ${project}` },
          para(`${hi(v)} Please click on the following button to start the password reset process.`),
          { kind: "button", label: "Reset my password", url: v["passwordResetLink"] ?? "" },
          { kind: "divider" },
          footer,
        ],
      };
    case "magic_link":
      return {
        subject: `Sign in to ${project}: Your code is ${v["otp"] ?? ""}`,
        blocks: [
          { kind: "heading", text: `Sign in to ${project}` },
          para(`${hi(v)} This is your one-time-password for signing in:`),
          para(v["otp"] ?? ""),
          para("Or you can click on ", { label: "this link", link: v["magicLink"] ?? "" }, " to sign in"),
          { kind: "divider" },
          footer,
        ],
      };
    case "team_invitation":
      return {
        subject: `You have been invited to join ${team}`,
        blocks: [
          { kind: "heading", text: `You are invited to ${team}` },
          para(`${hi(v)} Please click the button below to join the team ${team}`),
          { kind: "button", label: "Join team", url: v["teamInvitationLink"] ?? "" },
          { kind: "divider" },
          footer,
        ],
      };
  }
}
