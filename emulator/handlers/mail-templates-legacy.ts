// 2.8.11's first content of the default templates (content version 1), which it
// still mails to apps of `@stackframe/stack` 2.5.37 or older: those SDKs sign in
// by the magic link alone, so their magic-link e-mail carries no one-time code.
// Only the magic link differs from version 2 (mail-templates.ts DEFAULT_TEMPLATES);
// the subject is the same for both. The document is the service's default
// (packages/stack-emails/src/templates/magic-link-old.tsx), key for key.
import type { TemplateType } from "./mail-templates.js";

const MAGIC_LINK_V1 = {
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
      props: { text: "Hi{{#if userDisplayName}}, {{ userDisplayName }}{{/if}}! Please click on the following button to sign in." },
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
        text: "Sign in",
        url: "{{ magicLink }}",
      },
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
};

/** The default content version 1 of the types where it differs from version 2. */
export const LEGACY_DEFAULT_CONTENT: { readonly [T in TemplateType]?: unknown } = { magic_link: MAGIC_LINK_V1 };
