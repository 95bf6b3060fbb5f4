// 2.8.11's first content of the default templates (content version 1), which it
// still mails to apps of `@stackframe/stack` 2.5.37 or older: those SDKs sign in
// by the magic link alone, so their magic-link e-mail carries no one-time code.
// Only the magic link differs from version 2 (mail-templates.ts DEFAULT_TEMPLATES);
// the subject is the same for both. The service's version 1
// (packages/stack-emails/src/templates/magic-link-old.tsx) is version 2's
// heading, greeting, divider and footer, the greeting asking for a click, and a
// button with the link where version 2 has the code and the link's sentence: the
// editor's button, as the other default templates have it.
import { DEFAULT_TEMPLATES, type TemplateType } from "./mail-templates.js";

interface Block {
  readonly type: string;
  readonly data: { readonly props: Readonly<Record<string, unknown>> } & Readonly<Record<string, unknown>>;
}
type Document = Readonly<Record<string, Block>>;

const [HEADING, GREETING, BUTTON, DIVIDER, FOOTER] = [
  "block_BjpQ7DGTtvaEuYRMd7VE7w",
  "block_xyg4GWmgGbJJEDRQc76bC",
  "block_76VptLCZ47t3EkAarUufEJ",
  "block_Gtk3kDYwsJqEmQf2XGWPRc",
  "block_LACDCzUS2bsvEbmnq1KHuW",
] as const;

/** `block` with `props` changed. */
const withProps = (block: Block, props: Readonly<Record<string, unknown>>): Block => ({
  ...block,
  data: { ...block.data, props: { ...block.data.props, ...props } },
});

const v2 = DEFAULT_TEMPLATES.magic_link.content as Document;
const button = (DEFAULT_TEMPLATES.email_verification.content as Document)[BUTTON]!;

const MAGIC_LINK_V1: Document = {
  root: { ...v2["root"]!, data: { ...v2["root"]!.data, childrenIds: [HEADING, GREETING, BUTTON, DIVIDER, FOOTER] } },
  [GREETING]: withProps(v2[GREETING]!, {
    text: "Hi{{#if userDisplayName}}, {{ userDisplayName }}{{/if}}! Please click on the following button to sign in.",
  }),
  [BUTTON]: withProps(button, { text: "Sign in", url: "{{ magicLink }}" }),
  [HEADING]: v2[HEADING]!,
  [DIVIDER]: v2[DIVIDER]!,
  [FOOTER]: v2[FOOTER]!,
};

/** The default content version 1 of the types where it differs from version 2. */
export const LEGACY_DEFAULT_CONTENT: { readonly [T in TemplateType]?: unknown } = { magic_link: MAGIC_LINK_V1 };
