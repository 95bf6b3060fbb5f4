// Reading a `Cookie` header (or `document.cookie`) and writing one cookie, for
// the runtime's own cookies only: the token cookies of wire contract §7 and the
// PKCE verifier. The `cookie` package did this before; these few lines keep its
// output and its reading of what browsers send, without its 2.5 KB of option
// checks in every app's first load (the runtime's names, values and attributes
// are its own and need none).

/** The cookie attributes the runtime sets, written in this order (the `cookie` package's). */
export interface SerializeOptions {
  readonly maxAge?: number;
  readonly domain?: string;
  readonly path?: string;
  readonly expires?: Date;
  readonly httpOnly?: boolean;
  readonly secure?: boolean;
  readonly sameSite?: "lax" | "strict" | "none";
}

/**
 * The cookies of a `Cookie` header or of `document.cookie`, by name: the first
 * of a repeated name wins, names and values are trimmed, and a value is
 * percent-decoded when it can be (as the `cookie` package and js-cookie read it).
 */
export function parseCookie(header: string): Record<string, string | undefined> {
  const jar: Record<string, string | undefined> = Object.create(null);
  for (const pair of header.split(";")) {
    const at = pair.indexOf("=");
    const name = pair.slice(0, at).trim();
    if (at < 0 || jar[name] !== undefined) continue;
    let value = pair.slice(at + 1).trim();
    try {
      value = decodeURIComponent(value);
    } catch {
      // Not percent-encoding after all: kept as it came.
    }
    jar[name] = value;
  }
  return jar;
}

/** One cookie as a `Set-Cookie` value or `document.cookie` assignment; the value is percent-encoded. */
export function serializeCookie(name: string, value: string, options: SerializeOptions = {}): string {
  const { maxAge, domain, path, expires, sameSite } = options;
  return (
    `${name}=${encodeURIComponent(value)}` +
    (maxAge === undefined ? "" : `; Max-Age=${maxAge}`) +
    (domain ? `; Domain=${domain}` : "") +
    (path ? `; Path=${path}` : "") +
    (expires ? `; Expires=${expires.toUTCString()}` : "") +
    (options.httpOnly ? "; HttpOnly" : "") +
    (options.secure ? "; Secure" : "") +
    (sameSite ? `; SameSite=${sameSite[0]!.toUpperCase()}${sameSite.slice(1)}` : "")
  );
}
