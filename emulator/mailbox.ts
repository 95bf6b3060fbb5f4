// The captured e-mail, readable as local auth stacks read theirs: an
// Inbucket-compatible REST API (`/api/v1/mailbox/{name}`, Inbucket's v1 field
// names), and a plain mailbox page (`/mailbox`) with clickable links, for the
// demo. A mailbox is the local part of a recipient's address, lower-cased; a
// full address works too, as Inbucket accepts it.
import { mailboxOf } from "./engine/mail.js";
import type { EmailRecord, Store } from "./engine/store.js";

export const MAILBOX_API_PREFIX = "/api/v1/mailbox/";
export const MAILBOX_PAGE = "/mailbox";

/** Inbucket's `JSONMessageHeaderV1`. */
export interface InbucketMessageHeader {
  readonly mailbox: string;
  readonly id: string;
  readonly from: string;
  readonly to: readonly string[];
  readonly subject: string;
  /** ISO 8601. */
  readonly date: string;
  readonly "posix-millis": number;
  readonly size: number;
  readonly seen: boolean;
}

/** Inbucket's `JSONMessageV1`. */
export interface InbucketMessage extends InbucketMessageHeader {
  readonly header: Readonly<Record<string, readonly string[]>>;
  readonly body: { readonly text: string; readonly html: string };
  readonly attachments: readonly never[];
}

/** Messages read or marked seen, per emulator state (not exported with it). */
const seenByStore = new WeakMap<Store, Set<string>>();
function seenOf(store: Store): Set<string> {
  let seen = seenByStore.get(store);
  if (!seen) seenByStore.set(store, (seen = new Set()));
  return seen;
}

/**
 * The messages of a mailbox (every message with `name` empty), oldest first. A test e-mail went to the SMTP server
 * the admin named, not to the shared one this mailbox stands for, so it is not here.
 */
export function messagesOf(store: Store, name?: string): EmailRecord[] {
  return store
    .emails()
    .filter((email) => !email.test && (name === undefined || email.to.some((to) => mailboxOf(to) === name)))
    .sort((a, b) => a.sent_at_millis - b.sent_at_millis);
}

function boundaryOf(email: EmailRecord): string {
  return `stackkit-${email.id.replace(/[^A-Za-z0-9]/g, "")}`;
}

function headersOf(email: EmailRecord): Record<string, string[]> {
  return {
    "Content-Type": [`multipart/alternative; boundary="${boundaryOf(email)}"`],
    Date: [new Date(email.sent_at_millis).toUTCString()],
    // As the service writes it: the sender's name quoted.
    From: [email.from.replace(/^(.+?) <([^<>]*)>$/, '"$1" <$2>')],
    "Message-Id": [`<${email.id}@stackkit.local>`],
    "Mime-Version": ["1.0"],
    Subject: [email.subject],
    To: [...email.to],
  };
}

/** The message as raw MIME (what `/source` serves; its size is the message's size). */
export function sourceOf(email: EmailRecord): string {
  const boundary = boundaryOf(email);
  const head = Object.entries(headersOf(email))
    .map(([name, values]) => `${name}: ${values.join(", ")}`)
    .join("\r\n");
  const part = (type: string, content: string) =>
    `--${boundary}\r\nContent-Type: ${type}; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n${content}\r\n`;
  return `${head}\r\n\r\n${part("text/plain", email.text)}${part("text/html", email.html)}--${boundary}--\r\n`;
}

const encoder = new TextEncoder();

function headerOf(store: Store, name: string, email: EmailRecord): InbucketMessageHeader {
  return {
    mailbox: name,
    id: email.id,
    from: email.from,
    // Inbucket shows an address without a name in angle brackets.
    to: email.to.map((to) => `<${to}>`),
    subject: email.subject,
    date: new Date(email.sent_at_millis).toISOString(),
    "posix-millis": email.sent_at_millis,
    size: encoder.encode(sourceOf(email)).length,
    seen: seenOf(store).has(email.id),
  };
}

function messageOf(store: Store, name: string, email: EmailRecord): InbucketMessage {
  return { ...headerOf(store, name, email), header: headersOf(email), body: { text: email.text, html: email.html }, attachments: [] };
}

const API_HEADERS = { "cache-control": "no-store" } as const;
const json = (body: unknown, status = 200) => Response.json(body, { status, headers: API_HEADERS });
const notFound = () =>
  new Response("404 page not found\n", { status: 404, headers: { ...API_HEADERS, "content-type": "text/plain; charset=utf-8" } });

/** The message `id` of a mailbox; `latest` is its newest. */
function findMessage(store: Store, name: string, id: string): EmailRecord | undefined {
  const messages = messagesOf(store, name);
  return id === "latest" ? messages.at(-1) : messages.find((email) => email.id === id);
}

/** `/api/v1/mailbox/…` as Inbucket answers it; undefined for other paths. */
export async function mailboxApi(request: Request, url: URL, store: Store): Promise<Response | undefined> {
  if (!url.pathname.startsWith(MAILBOX_API_PREFIX)) return undefined;
  let parts: string[];
  try {
    parts = url.pathname.slice(MAILBOX_API_PREFIX.length).split("/").map(decodeURIComponent);
  } catch {
    return new Response("Bad mailbox path\n", { status: 400, headers: API_HEADERS });
  }
  const [rawName, id, extra, ...rest] = parts;
  if (!rawName || rest.length > 0) return notFound();
  const name = mailboxOf(rawName);
  const method = request.method;
  if (id === undefined) {
    if (method === "GET") return json(messagesOf(store, name).map((email) => headerOf(store, name, email)));
    if (method === "DELETE") {
      for (const email of messagesOf(store, name)) store.deleteEmail(email.id);
      return json("OK");
    }
    return new Response(null, { status: 405, headers: { ...API_HEADERS, allow: "GET, DELETE" } });
  }
  const email = findMessage(store, name, id);
  if (!email) return notFound();
  if (extra === "source" && method === "GET")
    return new Response(sourceOf(email), { headers: { ...API_HEADERS, "content-type": "text/plain; charset=utf-8" } });
  if (extra !== undefined) return notFound();
  if (method === "GET") return json(messageOf(store, name, email));
  if (method === "DELETE") {
    store.deleteEmail(email.id);
    return json("OK");
  }
  if (method === "PATCH") {
    const body = (await request.json().catch(() => null)) as { seen?: unknown } | null;
    if (typeof body?.seen !== "boolean")
      return new Response('Expected a JSON body { "seen": true }\n', { status: 400, headers: API_HEADERS });
    if (body.seen) seenOf(store).add(email.id);
    else seenOf(store).delete(email.id);
    return json("OK");
  }
  return new Response(null, { status: 405, headers: { ...API_HEADERS, allow: "GET, PATCH, DELETE" } });
}

// THE PAGE

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Escaped text with its http(s) links made clickable (opening in a new tab). */
export function linkify(text: string): string {
  return escapeHtml(text).replace(/https?:\/\/[^\s<]+/g, (match) => {
    const url = match.replace(/[.,;:!?)\]]+$/, "");
    return `<a href="${url}" target="_blank" rel="noopener noreferrer">${url}</a>${match.slice(url.length)}`;
  });
}

const STYLE = `
  body { font-family: system-ui, sans-serif; margin: 2rem auto; max-width: 52rem; padding: 0 1rem; color: #1d1d1f; }
  header { display: flex; justify-content: space-between; align-items: baseline; gap: 1rem; }
  article { border: 1px solid #d0d0d5; border-radius: 8px; padding: 1rem 1.25rem; margin: 1rem 0; }
  article.unseen { border-color: #4a6cf7; }
  h1 { font-size: 1.4rem; } h2 { font-size: 1.1rem; margin: 0 0 .4rem; }
  .meta { color: #5f5f66; font-size: .9rem; margin-bottom: .75rem; }
  pre { white-space: pre-wrap; word-break: break-word; font: inherit; margin: 0; }
  a { color: #2f55d4; }
`;

/**
 * The page's icon, an envelope drawn inline (a data: URL), so that the browser asks the emulator for no
 * /favicon.ico, which it does not serve.
 */
const MAILBOX_ICON =
  "data:image/svg+xml," +
  encodeURIComponent(
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect x="2" y="6" width="28" height="20" rx="3" fill="#2f55d4"/>' +
      '<path d="M4 9l12 9 12-9" fill="none" stroke="#fff" stroke-width="2.5" stroke-linejoin="round"/></svg>',
  );

function page(title: string, body: string, refresh: boolean): Response {
  const html =
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>` +
    `<link rel="icon" type="image/svg+xml" href="${MAILBOX_ICON}">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1">${refresh ? '<meta http-equiv="refresh" content="5">' : ""}` +
    `<style>${STYLE}</style></head><body>${body}</body></html>`;
  return new Response(html, { headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" } });
}

function card(store: Store, email: EmailRecord): string {
  const box = mailboxOf(email.to[0] ?? "");
  const seen = seenOf(store).has(email.id);
  const to = email.to
    .map((address) => `<a href="${MAILBOX_PAGE}/${encodeURIComponent(mailboxOf(address))}">${escapeHtml(address)}</a>`)
    .join(", ");
  return (
    `<article class="${seen ? "seen" : "unseen"}"><h2><a href="${MAILBOX_PAGE}/${encodeURIComponent(box)}/${encodeURIComponent(email.id)}">${escapeHtml(email.subject)}</a></h2>` +
    `<div class="meta">To ${to} · from ${escapeHtml(email.from)} · ${escapeHtml(new Date(email.sent_at_millis).toISOString())}</div>` +
    `<pre>${linkify(email.text)}</pre></article>`
  );
}

/** `/mailbox` (every message), `/mailbox/{name}` (one box), `/mailbox/{name}/{id}` (one message), newest first. */
export function mailboxPage(request: Request, url: URL, store: Store): Response | undefined {
  if (url.pathname !== MAILBOX_PAGE && !url.pathname.startsWith(`${MAILBOX_PAGE}/`)) return undefined;
  if (request.method !== "GET" && request.method !== "HEAD") return new Response(null, { status: 405, headers: { allow: "GET, HEAD" } });
  let parts: string[];
  try {
    parts = url.pathname.slice(MAILBOX_PAGE.length).split("/").filter(Boolean).map(decodeURIComponent);
  } catch {
    return new Response("Bad mailbox path\n", { status: 400 });
  }
  const [rawName, id] = parts;
  if (parts.length > 2) return new Response("Not found\n", { status: 404 });
  const name = rawName === undefined ? undefined : mailboxOf(rawName);
  if (name !== undefined && id !== undefined) {
    const email = findMessage(store, name, id);
    if (!email) return page("No such message", `<h1>No such message</h1><p><a href="${MAILBOX_PAGE}">All mail</a></p>`, false);
    seenOf(store).add(email.id);
    const raw = `${MAILBOX_API_PREFIX}${encodeURIComponent(name)}/${encodeURIComponent(email.id)}`;
    return page(
      email.subject,
      `<header><h1>${escapeHtml(email.subject)}</h1><nav><a href="${MAILBOX_PAGE}/${encodeURIComponent(name)}">${escapeHtml(name)}</a> · <a href="${MAILBOX_PAGE}">All mail</a></nav></header>` +
        card(store, email) +
        `<p class="meta">As JSON: <a href="${raw}">${raw}</a> · raw: <a href="${raw}/source">${raw}/source</a></p>`,
      false,
    );
  }
  const messages = messagesOf(store, name).reverse();
  const title = name === undefined ? "Mailbox: all mail" : `Mailbox: ${name}`;
  const nav = name === undefined ? "" : `<nav><a href="${MAILBOX_PAGE}">All mail</a></nav>`;
  const list =
    messages.length === 0 ? "<p>No e-mail yet. This page refreshes itself.</p>" : messages.map((email) => card(store, email)).join("");
  return page(
    title,
    `<header><h1>${escapeHtml(title)} (${messages.length})</h1>${nav}</header>` +
      `<p class="meta">Every e-mail the emulator would have sent, newest first. Inbucket-compatible API: <code>GET ${MAILBOX_API_PREFIX}{name}</code>.</p>${list}`,
    true,
  );
}
