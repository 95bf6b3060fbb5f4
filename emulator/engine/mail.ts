// E-mail the service would send, captured instead: kept in the state (the
// `emails` table) and readable through an Inbucket-compatible API and the
// mailbox page. The mailbox of an address is its local part, as Inbucket names it.
import type { EmailRecord, Store } from "./store.js";
import { randomId } from "./tokens.js";

export interface OutgoingEmail {
  readonly projectId: string;
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  /** Defaults to the text with its links made clickable. */
  readonly html?: string;
}

export interface Mailer {
  send(email: OutgoingEmail): EmailRecord;
}

export const SENDER = "Stack Auth emulator <noreply@stackkit.local>";

export function createMailer(store: Store, now: () => number): Mailer {
  return {
    send(email) {
      const record: EmailRecord = {
        id: randomId(),
        project_id: email.projectId,
        to: [email.to],
        from: SENDER,
        subject: email.subject,
        text: email.text,
        html: email.html ?? textToHtml(email.text),
        sent_at_millis: now(),
        error: null,
      };
      store.put("emails", record);
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
