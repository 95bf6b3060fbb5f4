// E-mail the service would send, captured instead: kept in the state (the
// `emails` table) and readable through an Inbucket-compatible API and the
// mailbox page. The mailbox of an address is its local part, as Inbucket names it.
//
// The sender is the service's: on the shared e-mail server the project's display
// name at the shared sender address (the service reads its shared server from
// its environment, STACK_EMAIL_HOST and the like; the emulator takes it as an
// option, by default sending from noreply@example.com as the service's test
// setup does), on a project's own server its sender name and address.
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
  /** The shared e-mail server that projects without their own send through. */
  readonly sharedServer: SharedEmailServer;
}

/**
 * The service's shared e-mail server (its STACK_EMAIL_HOST, STACK_EMAIL_PORT, STACK_EMAIL_USERNAME and
 * STACK_EMAIL_SENDER), which 2.8.11's log of sent e-mails shows as their `sender_config`. The emulator sends nothing
 * through it; its address is the sender of the shared server's e-mails.
 */
export interface SharedEmailServer {
  readonly host: string;
  readonly port: number;
  readonly username: string;
  /** The address e-mails are sent from (the project's display name beside it). */
  readonly senderEmail: string;
}

/** The shared server unless told otherwise: the sender the service's test setup uses, at a host of the emulator's own. */
export const DEFAULT_SHARED_EMAIL_SERVER: SharedEmailServer = {
  host: "smtp.stackkit.local",
  port: 587,
  username: "emulator",
  senderEmail: "noreply@example.com",
};

/** `Name <address>`, as Inbucket shows a From header the service wrote as `"Name" <address>`; Stack Auth's own name for mail of no known project. */
export function senderOf(project: ProjectRecord | undefined, shared: SharedEmailServer = DEFAULT_SHARED_EMAIL_SERVER): string {
  if (!project) return `Stack Auth <${shared.senderEmail}>`;
  const c = project.config.email_config;
  if (c.type === "standard" && c.sender_email) return `${c.sender_name ?? ""} <${c.sender_email}>`;
  return `${project.display_name} <${shared.senderEmail}>`;
}

export function createMailer(store: Store, now: () => number, sharedServer: SharedEmailServer = DEFAULT_SHARED_EMAIL_SERVER): Mailer {
  return {
    sharedServer,
    send(email) {
      const record: EmailRecord = {
        id: randomId(),
        project_id: email.projectId,
        to: [email.to],
        from: email.from ?? senderOf(store.project(email.projectId), sharedServer),
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
