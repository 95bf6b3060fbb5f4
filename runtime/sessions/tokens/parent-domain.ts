// Cross-subdomain sessions, as the official browser SDK keeps them (2.8.49 on):
// when the project trusts a parent domain P of the page's host together with
// every subdomain of it (`P` and `**.P` among its trusted domains), the refresh
// token goes to a cookie set on P, `stack-refresh-<projectId>--custom-<base32 of P>`,
// which the pages of every subdomain read; otherwise it stays on the host.

/**
 * The trusted parent domain of `hostname`: the shortest suffix of it (two labels at least) that
 * `trustedDomains` (the project's `config.domains[].domain`, URLs or host patterns) lists both as
 * itself and as `**.` itself; null when there is none. The host itself counts, as in the official SDK.
 *
 * @example
 * ```ts
 * trustedParentDomain("app.example.com", ["https://example.com", "https://**.example.com"]); // "example.com"
 * trustedParentDomain("app.example.com", ["https://example.com", "https://*.example.com"]); // null: `*` is one level only
 * ```
 */
export function trustedParentDomain(hostname: string, trustedDomains: readonly unknown[]): string | null {
  const hosts = new Set(trustedDomains.map(hostPatternOf));
  const labels = hostname.toLowerCase().split(".");
  for (let i = labels.length - 2; i >= 0; i--) {
    const parent = labels.slice(i).join(".");
    if (hosts.has(parent) && hosts.has(`**.${parent}`)) return parent;
  }
  return null;
}

/** The host pattern of a trusted domain, lower-cased, without scheme, port or path: `https://**.Example.com:443/x` is `**.example.com`. */
function hostPatternOf(domain: unknown): string | null {
  if (typeof domain !== "string") return null;
  const trimmed = domain.trim();
  if (!trimmed.includes("*") && URL.canParse(trimmed)) return new URL(trimmed).hostname.toLowerCase() || null;
  const host = /^(?:[a-z][a-z\d+.-]*:\/\/)?([^/?#]*)/i.exec(trimmed)?.[1]?.replace(/:\d*$/, "");
  return host ? host.toLowerCase() : null;
}
