// The emulator's page (emulator/ui/, built into index.html, app.js and app.css) at /emulator/ui/:
// for this machine only, as the control API it runs on (routes.ts applies the same rules), and
// served with a Content-Security-Policy that lets it load and call nothing but its own origin.
// The files come from whoever serves the emulator (the HTTP server reads them from the package,
// emulator/page-files.ts); without them the page answers that it is not built.

export const PAGE_PREFIX = "/emulator/ui/";

/** The page's built files, by name (`index.html`, `app.js`, `app.css`); undefined for one that is not there. */
export interface PageFiles {
  read(name: string): Uint8Array | undefined;
}

/** Only the page's own origin, for its script, its stylesheet and its requests; no inline script, no frame, no form elsewhere. */
export const PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const TYPES: Readonly<Record<string, string>> = {
  "index.html": "text/html; charset=utf-8",
  "app.js": "text/javascript; charset=utf-8",
  "app.css": "text/css; charset=utf-8",
};

const HEADERS = {
  "content-security-policy": PAGE_CSP,
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "cross-origin-opener-policy": "same-origin",
  "cross-origin-resource-policy": "same-origin",
  "cache-control": "no-store",
} as const;

export function isPagePath(pathname: string): boolean {
  return pathname === PAGE_PREFIX.slice(0, -1) || pathname.startsWith(PAGE_PREFIX);
}

/** `/emulator/ui/` and its files; the request already passed the local-only checks. */
export function pageAnswer(request: Request, url: URL, files: PageFiles | undefined): Response {
  if (request.method !== "GET" && request.method !== "HEAD")
    return new Response(null, { status: 405, headers: { ...HEADERS, allow: "GET, HEAD" } });
  if (url.pathname === PAGE_PREFIX.slice(0, -1)) return new Response(null, { status: 308, headers: { ...HEADERS, location: PAGE_PREFIX } });
  const rest = url.pathname.slice(PAGE_PREFIX.length);
  const name = rest === "" ? "index.html" : rest;
  const type = Object.hasOwn(TYPES, name) ? TYPES[name] : undefined;
  if (type === undefined) return text(404, `No such file of the emulator's page: ${url.pathname}\n`);
  const bytes = files?.read(name);
  if (bytes === undefined) {
    return text(
      404,
      "The emulator's page is not built here: the package ships it (dist/emulator-ui/), and from the repository's sources " +
        "`make emulator` and `make demo` build it (scripts/lib/emulator-page.mjs).\n",
    );
  }
  return new Response(request.method === "HEAD" ? null : (bytes as Uint8Array<ArrayBuffer>), {
    headers: { ...HEADERS, "content-type": type, "content-length": String(bytes.length) },
  });
}

function text(status: number, body: string): Response {
  return new Response(body, { status, headers: { ...HEADERS, "content-type": "text/plain; charset=utf-8" } });
}

/** Where `/mailbox` (every message), `/mailbox/{name}` and `/mailbox/{name}/{id}` lead when the page is there: its e-mails, of that box. */
export function mailboxOnPage(url: URL, mailboxPage: string): string {
  const [name] = url.pathname.slice(mailboxPage.length).split("/").filter(Boolean);
  return `${PAGE_PREFIX}#/emails${name === undefined ? "" : `?to=${encodeURIComponent(safeDecode(name))}`}`;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
