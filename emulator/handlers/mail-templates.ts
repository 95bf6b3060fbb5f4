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

/**
 * 2.8.11's default templates, as its template metadata gives them (packages/stack-emails/src/utils.tsx
 * EMAIL_TEMPLATES_METADATA, content version 2): the default subject, and the document of the service's editor, as
 * packages/stack-emails/src/templates/*.tsx has it, key for key (magic_link's document keeps the two blocks its root
 * does not name).
 */
export const DEFAULT_TEMPLATES: Readonly<Record<TemplateType, { readonly subject: string; readonly content: unknown }>> = {
  email_verification: {
    subject: "Verify your email at {{ projectDisplayName }}",
    content: {
      root: {
        type: "EmailLayout",
        data: {
          backdropColor: "#ffffff",
          canvasColor: "#FFFFFF",
          textColor: "#242424",
          fontFamily: null,
          childrenIds: [
            "block_BjpQ7DGTtvaEuYRMd7VE7w",
            "block_xyg4GWmgGbJJEDRQc76bC",
            "block_76VptLCZ47t3EkAarUufEJ",
            "block_Gtk3kDYwsJqEmQf2XGWPRc",
            "block_LACDCzUS2bsvEbmnq1KHuW",
          ],
        },
      },
      block_xyg4GWmgGbJJEDRQc76bC: {
        type: "Text",
        data: {
          style: {
            color: "#474849",
            backgroundColor: null,
            fontSize: 14,
            fontFamily: null,
            fontWeight: "normal",
            textAlign: "center",
            padding: { top: 8, bottom: 16, right: 24, left: 24 },
          },
          props: {
            text: "Hi{{#if userDisplayName}}, {{ userDisplayName }}{{/if}}! Please click on the following button to verify your email.\n",
          },
        },
      },
      block_76VptLCZ47t3EkAarUufEJ: {
        type: "Button",
        data: {
          style: {
            backgroundColor: null,
            fontSize: 14,
            fontFamily: null,
            fontWeight: "bold",
            textAlign: "center",
            padding: { top: 12, bottom: 12, right: 24, left: 24 },
          },
          props: {
            buttonBackgroundColor: "#f0f0f0",
            buttonStyle: "rounded",
            buttonTextColor: "#000000",
            fullWidth: false,
            size: "medium",
            text: "Verify my email",
            url: "{{ emailVerificationLink }}",
          },
        },
      },
      block_BjpQ7DGTtvaEuYRMd7VE7w: {
        type: "Heading",
        data: {
          props: { text: "Verify your email at {{ projectDisplayName }}", level: "h3" },
          style: {
            color: "#000000",
            backgroundColor: null,
            fontFamily: null,
            fontWeight: "bold",
            textAlign: "center",
            padding: { top: 16, bottom: 16, right: 24, left: 24 },
          },
        },
      },
      block_Gtk3kDYwsJqEmQf2XGWPRc: {
        data: {
          props: { lineColor: "#EEEEEE", lineHeight: 1 },
          style: { padding: { top: 16, left: 24, right: 24, bottom: 16 }, backgroundColor: null },
        },
        type: "Divider",
      },
      block_LACDCzUS2bsvEbmnq1KHuW: {
        type: "Text",
        data: {
          style: {
            color: "#474849",
            backgroundColor: null,
            fontSize: 12,
            fontFamily: null,
            fontWeight: "normal",
            textAlign: "center",
            padding: { top: 4, bottom: 24, right: 24, left: 24 },
          },
          props: { text: "If you were not expecting this email, you can safely ignore it." },
        },
      },
    },
  },
  password_reset: {
    subject: "Reset your password at {{ projectDisplayName }}",
    content: {
      root: {
        type: "EmailLayout",
        data: {
          backdropColor: "#FFFFFF",
          canvasColor: "#FFFFFF",
          textColor: "#242424",
          fontFamily: "MODERN_SANS",
          childrenIds: [
            "block_BjpQ7DGTtvaEuYRMd7VE7w",
            "block_xyg4GWmgGbJJEDRQc76bC",
            "block_76VptLCZ47t3EkAarUufEJ",
            "block_Gtk3kDYwsJqEmQf2XGWPRc",
            "block_LACDCzUS2bsvEbmnq1KHuW",
          ],
        },
      },
      block_xyg4GWmgGbJJEDRQc76bC: {
        type: "Text",
        data: {
          style: {
            color: "#474849",
            backgroundColor: null,
            fontSize: 14,
            fontFamily: null,
            fontWeight: "normal",
            textAlign: "center",
            padding: { top: 8, bottom: 16, right: 24, left: 24 },
          },
          props: {
            text: "Hi{{#if userDisplayName}}, {{ userDisplayName }}{{/if}}! Please click on the following button to start the password reset process.",
          },
        },
      },
      block_76VptLCZ47t3EkAarUufEJ: {
        type: "Button",
        data: {
          style: {
            backgroundColor: null,
            fontSize: 14,
            fontFamily: null,
            fontWeight: "bold",
            textAlign: "center",
            padding: { top: 12, bottom: 12, right: 24, left: 24 },
          },
          props: {
            buttonBackgroundColor: "#f0f0f0",
            buttonStyle: "rounded",
            buttonTextColor: "#000000",
            fullWidth: false,
            size: "medium",
            text: "Reset my password",
            url: "{{ passwordResetLink }}",
          },
        },
      },
      block_BjpQ7DGTtvaEuYRMd7VE7w: {
        type: "Heading",
        data: {
          props: { text: "Reset your password at {{ projectDisplayName }}", level: "h3" },
          style: {
            color: "#000000",
            backgroundColor: null,
            fontFamily: null,
            fontWeight: "bold",
            textAlign: "center",
            padding: { top: 16, bottom: 16, right: 24, left: 24 },
          },
        },
      },
      block_Gtk3kDYwsJqEmQf2XGWPRc: {
        data: {
          props: { lineColor: "#EEEEEE", lineHeight: 1 },
          style: { padding: { top: 16, left: 24, right: 24, bottom: 16 }, backgroundColor: null },
        },
        type: "Divider",
      },
      block_LACDCzUS2bsvEbmnq1KHuW: {
        type: "Text",
        data: {
          style: {
            color: "#474849",
            backgroundColor: null,
            fontSize: 12,
            fontFamily: null,
            fontWeight: "normal",
            textAlign: "center",
            padding: { top: 4, bottom: 24, right: 24, left: 24 },
          },
          props: { text: "If you were not expecting this email, you can safely ignore it." },
        },
      },
    },
  },
  magic_link: {
    subject: "Sign in to {{ projectDisplayName }}: Your code is {{ otp }}",
    content: {
      root: {
        type: "EmailLayout",
        data: {
          backdropColor: "#FFFFFF",
          canvasColor: "#FFFFFF",
          textColor: "#242424",
          fontFamily: "MODERN_SANS",
          childrenIds: [
            "block_BjpQ7DGTtvaEuYRMd7VE7w",
            "block_xyg4GWmgGbJJEDRQc76bC",
            "block-1727062582681",
            "block-1727062622114",
            "block_Gtk3kDYwsJqEmQf2XGWPRc",
            "block_LACDCzUS2bsvEbmnq1KHuW",
          ],
        },
      },
      block_xyg4GWmgGbJJEDRQc76bC: {
        type: "Text",
        data: {
          style: {
            color: "#474849",
            backgroundColor: null,
            fontSize: 14,
            fontFamily: null,
            fontWeight: "normal",
            textAlign: "center",
            padding: { top: 8, bottom: 16, right: 24, left: 24 },
          },
          props: { text: "Hi{{#if userDisplayName}}, {{ userDisplayName }}{{/if}}! This is your one-time-password for signing in: " },
        },
      },
      block_BjpQ7DGTtvaEuYRMd7VE7w: {
        type: "Heading",
        data: {
          props: { text: "Sign in to {{ projectDisplayName }}", level: "h3" },
          style: {
            color: "#000000",
            backgroundColor: null,
            fontFamily: null,
            fontWeight: "bold",
            textAlign: "center",
            padding: { top: 16, bottom: 16, right: 24, left: 24 },
          },
        },
      },
      block_Gtk3kDYwsJqEmQf2XGWPRc: {
        data: {
          props: { lineColor: "#EEEEEE", lineHeight: 1 },
          style: { padding: { top: 16, left: 24, right: 24, bottom: 16 }, backgroundColor: null },
        },
        type: "Divider",
      },
      block_LACDCzUS2bsvEbmnq1KHuW: {
        type: "Text",
        data: {
          style: {
            color: "#474849",
            backgroundColor: null,
            fontSize: 12,
            fontFamily: null,
            fontWeight: "normal",
            textAlign: "center",
            padding: { top: 4, bottom: 24, right: 24, left: 24 },
          },
          props: { text: "If you were not expecting this email, you can safely ignore it." },
        },
      },
      "block-1727053976677": {
        type: "Text",
        data: {
          style: {
            color: "#000000",
            fontSize: 36,
            fontFamily: "MONOSPACE",
            fontWeight: "bold",
            textAlign: "center",
            padding: { top: 16, bottom: 16, right: 24, left: 24 },
          },
          props: { text: "{{ otp }}" },
        },
      },
      "block-1727054013149": {
        type: "Text",
        data: {
          style: {
            color: "#000000",
            fontSize: 14,
            fontWeight: "normal",
            textAlign: "center",
            padding: { top: 16, bottom: 16, right: 24, left: 24 },
          },
          props: { text: "Or you can click on [this link]({{ magicLink }}) to login" },
        },
      },
      "block-1727062582681": {
        type: "Text",
        data: {
          style: {
            color: "#000000",
            fontSize: 35,
            fontFamily: "MONOSPACE",
            fontWeight: "bold",
            textAlign: "center",
            padding: { top: 16, bottom: 16, right: 24, left: 24 },
          },
          props: { text: "{{ otp }}" },
        },
      },
      "block-1727062622114": {
        type: "Text",
        data: {
          style: {
            color: "#000000",
            fontSize: 14,
            fontWeight: "normal",
            textAlign: "center",
            padding: { top: 16, bottom: 16, right: 24, left: 24 },
          },
          props: { text: "Or you can click on [this link]({{ magicLink }}) to sign in" },
        },
      },
    },
  },
  team_invitation: {
    subject: "You have been invited to join {{ teamDisplayName }}",
    content: {
      root: {
        type: "EmailLayout",
        data: {
          backdropColor: "#FFFFFF",
          canvasColor: "#FFFFFF",
          textColor: "#242424",
          fontFamily: "MODERN_SANS",
          childrenIds: [
            "block_BjpQ7DGTtvaEuYRMd7VE7w",
            "block_xyg4GWmgGbJJEDRQc76bC",
            "block_76VptLCZ47t3EkAarUufEJ",
            "block_Gtk3kDYwsJqEmQf2XGWPRc",
            "block_LACDCzUS2bsvEbmnq1KHuW",
          ],
        },
      },
      block_xyg4GWmgGbJJEDRQc76bC: {
        type: "Text",
        data: {
          style: {
            color: "#474849",
            backgroundColor: null,
            fontSize: 14,
            fontFamily: null,
            fontWeight: "normal",
            textAlign: "center",
            padding: { top: 8, bottom: 16, right: 24, left: 24 },
          },
          props: {
            text: "Hi{{#if userDisplayName}}, {{ userDisplayName }}{{/if}}! Please click on the following button to join the team {{ teamDisplayName }}\n",
          },
        },
      },
      block_76VptLCZ47t3EkAarUufEJ: {
        type: "Button",
        data: {
          style: {
            backgroundColor: null,
            fontSize: 14,
            fontFamily: null,
            fontWeight: "bold",
            textAlign: "center",
            padding: { top: 12, bottom: 12, right: 24, left: 24 },
          },
          props: {
            buttonBackgroundColor: "#f0f0f0",
            buttonStyle: "rounded",
            buttonTextColor: "#000000",
            fullWidth: false,
            size: "medium",
            text: "Join team",
            url: "{{ teamInvitationLink }}",
          },
        },
      },
      block_BjpQ7DGTtvaEuYRMd7VE7w: {
        type: "Heading",
        data: {
          props: { text: "You are invited to {{ teamDisplayName }}", level: "h3" },
          style: {
            color: "#000000",
            backgroundColor: null,
            fontFamily: null,
            fontWeight: "bold",
            textAlign: "center",
            padding: { top: 32, bottom: 0, right: 24, left: 24 },
          },
        },
      },
      block_Gtk3kDYwsJqEmQf2XGWPRc: {
        data: {
          props: { lineColor: "#EEEEEE", lineHeight: 1 },
          style: { padding: { top: 16, left: 24, right: 24, bottom: 16 }, backgroundColor: null },
        },
        type: "Divider",
      },
      block_LACDCzUS2bsvEbmnq1KHuW: {
        type: "Text",
        data: {
          style: {
            color: "#474849",
            backgroundColor: null,
            fontSize: 12,
            fontFamily: null,
            fontWeight: "normal",
            textAlign: "center",
            padding: { top: 4, bottom: 24, right: 24, left: 24 },
          },
          props: { text: "If you were not expecting this email, you can safely ignore it." },
        },
      },
    },
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
