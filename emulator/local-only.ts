// The emulator's own routes (the control API under /emulator/v1, the mailbox API under /api/v1/mailbox and the
// mailbox page) hand out every code and magic link and can reset the state, so they answer the developer's machine
// only. A web page the developer has open can send requests to 127.0.0.1 too: such a request carries its page's
// `Origin`, and one through a DNS-rebound name carries that name in `Host`. So these routes answer only a request
// whose `Host` is a loopback name or address (or the host the emulator was told it is at), and whose `Origin`, when
// it has one, is the emulator's own or one the user listed; only those origins get a CORS grant. The service's API
// under /api/v1 is not touched: it answers browsers from any origin, as the service does.

/** Who may use the emulator's own routes besides the loopback names and the emulator's own origin. */
export interface LocalOnlyPolicy {
  /** Host names the emulator is reached at besides loopback ones (where it listens, its `apiOrigin`'s). */
  readonly hosts: readonly string[];
  /** Origins whose pages may call those routes and read their answers (the `allowedOrigins` option). */
  readonly origins: readonly string[];
}

/** Whether `hostname` names this machine: `localhost` (and its subdomains), 127.0.0.0/8 or `::1`. */
export function isLoopbackHostname(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/^\[(.*)\]$/, "$1");
  return name === "localhost" || name.endsWith(".localhost") || name === "::1" || /^127(\.\d{1,3}){3}$/.test(name);
}

/** The host name of a `Host` header value (`name:port`, `[v6]:port`). */
function hostnameOf(host: string): string {
  try {
    return new URL(`http://${host}`).hostname;
  } catch {
    return "";
  }
}

const ALLOWED_HEADERS = "content-type";

/** Why a request is refused, as a 403 without any CORS grant; undefined when it may go on. */
export function localOnlyRefusal(request: Request, url: URL, policy: LocalOnlyPolicy): Response | undefined {
  const host = request.headers.get("host") ?? url.host;
  const hostname = hostnameOf(host);
  if (!isLoopbackHostname(hostname) && !policy.hosts.some((allowed) => allowed.toLowerCase() === hostname)) {
    return refused(`The emulator's own routes answer only this machine: ${JSON.stringify(host)} is not a loopback host.`);
  }
  const origin = request.headers.get("origin");
  if (origin !== null && !isTrustedOrigin(origin, host, policy)) {
    return refused(
      `The emulator's own routes answer pages of its own origin only, and of those listed in allowedOrigins (--allow-origin): not ${origin}.`,
    );
  }
  return undefined;
}

/** The emulator's own origin (the one the request came to), or one the user listed. */
function isTrustedOrigin(origin: string, host: string, policy: LocalOnlyPolicy): boolean {
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    return false;
  }
  if (parsed.host === host.toLowerCase()) return true;
  return policy.origins.some((allowed) => allowed === parsed.origin);
}

/** A preflight of the emulator's own routes: 204, with a grant only for a trusted origin (the refusal came before). */
export function localPreflight(request: Request): Response {
  const origin = request.headers.get("origin");
  const headers = new Headers({ vary: "Origin" });
  if (origin !== null) {
    headers.set("access-control-allow-origin", origin);
    headers.set("access-control-allow-methods", "GET, POST, PUT, PATCH, DELETE");
    headers.set("access-control-allow-headers", request.headers.get("access-control-request-headers") ?? ALLOWED_HEADERS);
  }
  return new Response(null, { status: 204, headers });
}

/** `response` with the CORS grant of the request's (already checked) origin, and no other. */
export function withLocalCors(request: Request, response: Response): Response {
  const origin = request.headers.get("origin");
  const headers = new Headers(response.headers);
  for (const name of [...headers.keys()]) if (name.startsWith("access-control-")) headers.delete(name);
  headers.append("vary", "Origin");
  if (origin !== null) headers.set("access-control-allow-origin", origin);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

function refused(message: string): Response {
  return Response.json({ error: message }, { status: 403, headers: { "cache-control": "no-store", vary: "Origin" } });
}
