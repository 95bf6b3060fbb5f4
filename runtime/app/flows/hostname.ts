// Which hostname may become a passkey's relying-party id (wire contract §9, §15;
// SPEC §5). The service sends a placeholder and the client fills in its own
// host; a wrong value would scope credentials to a host the app does not own
// (or orphan existing ones), so it is checked before anything is sent.
import { StackConfigurationError } from "../../errors.js";

const MAX_NAME = 253;
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
/** WHATWG URL parsing treats a host whose last label is a number (decimal or 0x-hex) as IPv4. */
const NUMERIC_LABEL = /^(?:0x[0-9a-f]*|[0-9]+)$/;

/**
 * Second-level labels that registries under two-letter country codes commonly
 * reserve (co.uk, com.au, ac.jp …). Without the Public Suffix List this
 * catches the usual cases of widening to a public suffix; the browser rejects
 * the rest (a SecurityError from the ceremony).
 */
const COMMON_SECOND_LEVEL = new Set(["ac", "co", "com", "edu", "go", "gob", "gov", "mil", "ne", "net", "or", "org"]);

function reject(hostname: string, why: string): never {
  throw new StackConfigurationError(`"${hostname}" cannot be a passkey hostname: ${why}`);
}

function looksLikePublicSuffix(labels: readonly string[]): boolean {
  return labels.length === 2 && COMMON_SECOND_LEVEL.has(labels[0]!) && /^[a-z]{2}$/.test(labels[1]!);
}

/** Throws unless `hostname` is `localhost` or a syntactically valid domain name that is no IP address. */
function assertDomainName(hostname: string): string[] {
  if (hostname === "") reject(hostname, "it is empty.");
  if (hostname.includes(":") || hostname.includes("[")) {
    reject(hostname, "give a bare domain name, without a scheme, port or brackets (IP addresses are not allowed).");
  }
  if (hostname.endsWith(".")) reject(hostname, "remove the trailing dot.");
  if (hostname.length > MAX_NAME) reject(hostname, `a domain name has at most ${MAX_NAME} characters.`);
  const labels = hostname.split(".");
  if (labels.some((label) => !LABEL.test(label))) {
    reject(hostname, "each part between dots must be 1-63 letters, digits or hyphens, not starting or ending with a hyphen.");
  }
  if (NUMERIC_LABEL.test(labels[labels.length - 1]!)) reject(hostname, "IP addresses are not allowed; use a domain name or localhost.");
  if (labels.length === 1 && hostname !== "localhost") {
    reject(hostname, "a single-label name is not a domain the app can own; use the full domain name (or localhost).");
  }
  return labels;
}

/**
 * The relying-party id to use: `candidate` lower-cased, after checking that it
 * is `localhost` or a valid domain (never an IP address, a port, a scheme or a
 * trailing dot), and that it is the page's own hostname or a registrable parent
 * of it (app.example.com may use example.com, never com, co.uk or another site).
 * Throws a StackConfigurationError that says what is wrong.
 */
export function passkeyRpId(candidate: unknown, pageHostname: string): string {
  if (typeof candidate !== "string") reject(String(candidate), "a hostname must be a string.");
  const hostname = candidate.toLowerCase();
  const labels = assertDomainName(hostname);
  const page = pageHostname.toLowerCase();
  if (hostname === page) return hostname;
  if (!page.endsWith(`.${hostname}`)) {
    reject(hostname, `it is neither this page's hostname (${pageHostname}) nor a parent domain of it.`);
  }
  if (looksLikePublicSuffix(labels)) {
    reject(hostname, "it is a public suffix shared by unrelated sites; use your own domain.");
  }
  return hostname;
}
