// E-mail the service would send, captured instead: kept in the state (the
// `emails` table) and readable through an Inbucket-compatible API and the
// mailbox page. The mailbox of an address is its local part, as Inbucket names it.
//
// The sender is the service's: on the shared e-mail server the project's display
// name at the shared sender address (the service's test setup sends from
// noreply@example.com), on a project's own server its sender name and address.
// Texts are laid out as the service's HTML-to-text conversion writes its
// templates: headings in upper case, blocks apart by an empty line, lines wrapped
// at 80 columns, a rule of 80 dashes, a link bare after its label (both versions'
// renderer turns html-to-text's link brackets off).
import type { EmailRecord, ProjectRecord, Store } from "./store.js";
import { randomId } from "./tokens.js";

export interface OutgoingEmail {
  readonly projectId: string;
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  /** Defaults to the text with its links made clickable. */
  readonly html?: string;
  /** Defaults to the project's sender ({@link senderOf}). */
  readonly from?: string;
}

export interface Mailer {
  send(email: OutgoingEmail): EmailRecord;
}

/** The shared e-mail server's sender address, as the service's own test setup configures it. */
export const SHARED_SENDER_EMAIL = "noreply@example.com";
/** The sender of mail that belongs to no known project. */
export const SENDER = `Stack Auth <${SHARED_SENDER_EMAIL}>`;

/** `Name <address>`, as Inbucket shows a From header the service wrote as `"Name" <address>`. */
export function senderOf(project: ProjectRecord | undefined): string {
  if (!project) return SENDER;
  const c = project.config.email_config;
  if (c.type === "standard" && c.sender_email) return `${c.sender_name ?? ""} <${c.sender_email}>`;
  return `${project.display_name} <${SHARED_SENDER_EMAIL}>`;
}

export function createMailer(store: Store, now: () => number): Mailer {
  return {
    send(email) {
      const record: EmailRecord = {
        id: randomId(),
        project_id: email.projectId,
        to: [email.to],
        from: email.from ?? senderOf(store.project(email.projectId)),
        subject: email.subject,
        text: email.text,
        html: email.html ?? textToHtml(email.text),
        sent_at_millis: now(),
        error: null,
      };
      store.insert("emails", record);
      return record;
    },
  };
}

/** The Inbucket mailbox name of an address: its local part, lower-cased. */
export function mailboxOf(address: string): string {
  return (address.split("@")[0] ?? address).toLowerCase();
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function textToHtml(text: string): string {
  const body = escapeHtml(text)
    .replace(/https?:\/\/[^\s<]+/g, (url) => `<a href="${url}">${url}</a>`)
    .replace(/\n/g, "<br>\n");
  return `<!doctype html><html><body style="font-family: sans-serif">${body}</body></html>`;
}

// --- the templates' layout ----------------------------------------------------

/** A piece of a paragraph: text, a link with its label, or bold text. */
export type Inline = string | { readonly link: string; readonly label: string } | { readonly bold: string };

/** The blocks the service's default templates are made of. */
export type Block =
  | { readonly kind: "heading"; readonly text: string }
  | { readonly kind: "paragraph"; readonly parts: readonly Inline[] }
  | { readonly kind: "button"; readonly label: string; readonly url: string }
  | { readonly kind: "divider" };

const WRAP_COLUMNS = 80;

/** Words wrapped greedily at 80 columns; a word longer than a line keeps a line of its own. */
function wrap(words: readonly string[]): string {
  const lines: string[] = [];
  let line = "";
  for (const word of words) {
    if (line === "") line = word;
    else if (line.length + 1 + word.length <= WRAP_COLUMNS) line += ` ${word}`;
    else {
      lines.push(line);
      line = word;
    }
  }
  if (line !== "") lines.push(line);
  return lines.join("\n");
}

const wordsOf = (text: string) => text.split(/\s+/).filter((word) => word !== "");

/** A paragraph's words: a link after its label, and text that touches a link (a full stop) stays on its word. */
function paragraphWords(parts: readonly Inline[]): string[] {
  const flat = parts.map((part) => (typeof part === "string" ? part : "bold" in part ? part.bold : `${part.label} ${part.link}`));
  return wordsOf(flat.join(""));
}

/** The plain text and HTML of a layout. */
export function renderLayout(blocks: readonly Block[]): { text: string; html: string } {
  const text: string[] = [];
  const html: string[] = [];
  for (const block of blocks) {
    if (block.kind === "heading") {
      text.push(wrap(wordsOf(block.text.toUpperCase())));
      html.push(`<h3 style="margin:0;padding:16px 24px;text-align:center">${escapeHtml(block.text.trim())}</h3>`);
    } else if (block.kind === "paragraph") {
      const words = paragraphWords(block.parts);
      if (words.length === 0) continue;
      text.push(wrap(words));
      const inner = block.parts
        .map((part) =>
          typeof part === "string"
            ? escapeHtml(part)
            : "bold" in part
              ? `<strong>${escapeHtml(part.bold)}</strong>`
              : `<a href="${escapeHtml(part.link)}" target="_blank" rel="noopener noreferrer">${escapeHtml(part.label)}</a>`,
        )
        .join("");
      html.push(`<p style="padding:8px 24px;text-align:center">${inner.trim()}</p>`);
    } else if (block.kind === "button") {
      text.push(wrap([...wordsOf(block.label), block.url]));
      html.push(
        `<div style="padding:12px 24px;text-align:center"><a href="${escapeHtml(block.url)}" target="_blank" ` +
          `style="background-color:#f0f0f0;color:#000000;font-weight:bold;padding:12px 20px;border-radius:4px;text-decoration:none;display:inline-block">` +
          `${escapeHtml(block.label)}</a></div>`,
      );
    } else {
      text.push("-".repeat(WRAP_COLUMNS));
      html.push(`<div style="padding:16px 24px"><hr style="border:none;border-top:1px solid #eeeeee"></div>`);
    }
  }
  return {
    text: text.join("\n\n"),
    html: `<!DOCTYPE html><html><head></head><body style="font-family:'Helvetica Neue',Arial,sans-serif">${html.join("")}</body></html>`,
  };
}
