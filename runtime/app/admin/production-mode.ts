// What stands between a project and production mode (SPEC §5): every trusted
// domain must be a real, public HTTPS origin, and localhost must not be
// allowed. The messages and the error shape are the reference SDK's.
import type { AdminDomainConfig } from "./project-config.js";

/** A reason the project cannot go to production mode yet (`project.getProductionModeErrors()` of an AdminProject). */
export interface ProductionModeError {
  /** What is wrong, naming the domain when a domain is the problem. */
  readonly message: string;
  /** The dashboard page where it is fixed, relative to the dashboard's origin. */
  readonly relativeFixUrl: `/${string}`;
}

/** The parts of a project the rules look at. */
export interface ProductionModeInput {
  readonly id: string;
  readonly config: {
    readonly allowLocalhost: boolean;
    readonly domains: readonly Pick<AdminDomainConfig, "domain">[];
  };
}

/** One error per problem: localhost allowed, then for each domain the first rule it breaks. */
export function getProductionModeErrors(project: ProductionModeInput): ProductionModeError[] {
  const errors: ProductionModeError[] = [];
  const relativeFixUrl = `/projects/${encodeURIComponent(project.id)}/domains` as const;
  const add = (message: string) => errors.push({ message, relativeFixUrl });

  if (project.config.allowLocalhost) {
    add("Localhost is not allowed in production mode, turn off 'Allow localhost' in project settings");
  }
  for (const { domain } of project.config.domains) {
    const url = typeof domain === "string" && URL.canParse(domain) ? new URL(domain) : null;
    if (url === null) add(`Trusted domain is not a valid URL: ${String(domain)}`);
    else if (isLocalhost(url.hostname)) add(`Localhost domains are not allowed to be trusted in production mode: ${domain}`);
    else if (isIpAddress(url.hostname)) add(`Direct IPs are not valid for trusted domains in production mode: ${domain}`);
    else if (url.protocol !== "https:") add(`Trusted domains should be HTTPS: ${domain}`);
  }
  return errors;
}

/** `localhost`, its subdomains, and the loopback addresses (IPv4 127.0.0.0/8 and IPv6 ::1). */
function isLocalhost(hostname: string): boolean {
  return hostname === "localhost" || hostname.endsWith(".localhost") || /^127\.\d+\.\d+\.\d+$/.test(hostname) || hostname === "[::1]";
}

/** The URL parser normalises every IPv4 spelling to dotted decimal and keeps IPv6 in brackets. */
function isIpAddress(hostname: string): boolean {
  return /^\d+(\.\d+)*$/.test(hostname) || hostname.startsWith("[");
}
