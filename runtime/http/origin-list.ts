// The list of origins the service publishes at `GET /internal/backend-urls`
// (2.8.102 on), read once per app in the background (origins.ts asks), and how
// an origin is written as requests use it. What the list names is sent the
// app's keys and tokens, so it is taken only over https (http only from and to
// a loopback address) and, from the hosted service, only under its own domains;
// a list naming one origin the rule refuses is refused whole.
import { API_PREFIX } from "../constants.js";
import type { Environment } from "../platform/env.js";

const BACKEND_URLS_PATH = "/internal/backend-urls";
/** The hosted service's domains: its list may name hosts under these only. */
const HOSTED_DOMAINS = ["stack-auth.com", "hexclave.com"];

interface ListRule {
  /** The hosted service's list may name only its own domains, over https, without a port or a path. */
  readonly hosted: boolean;
  /** A base URL on a loopback address may list http origins on loopback addresses. */
  readonly loopback: boolean;
}

/**
 * The origins the service at `baseUrl` lists (`hosted`: the hosted service), or none: any
 * failure (no answer, not 2xx, not `{ urls: string[] }`, an origin the rule refuses) leaves
 * failover with the origins it had. Never rejects.
 */
export async function askForList(env: Environment, baseUrl: string, hosted: boolean): Promise<readonly string[]> {
  const base = parsed(baseUrl);
  const rule: ListRule = { hosted, loopback: base !== undefined && isLoopbackHost(base.hostname) };
  try {
    // No headers: neither keys nor tokens (nor a CORS preflight in a browser); redirects refused.
    const request = new Request(`${baseUrl}${API_PREFIX}${BACKEND_URLS_PATH}`, {
      method: "GET",
      cache: "no-store",
      credentials: "omit",
      redirect: "manual",
    });
    const response = await env.fetch(request);
    if (response.status < 200 || response.status > 299) {
      void response.body?.cancel().catch(() => {});
      return [];
    }
    const urls = (JSON.parse(await response.text()) as { urls?: unknown } | null)?.urls;
    if (!Array.isArray(urls)) return [];
    const accepted = urls.map((url) => (typeof url === "string" ? listedOrigin(url, rule) : undefined));
    return accepted.every((url) => url !== undefined) ? accepted : [];
  } catch {
    // Failover works on without the list; the service may be one that has no such route.
    return [];
  }
}

/** A listed origin as requests use it, or undefined when the rule refuses it. */
function listedOrigin(raw: string, rule: ListRule): string | undefined {
  const origin = plainOrigin(raw);
  const url = origin === undefined ? undefined : parsed(origin);
  if (origin === undefined || url === undefined) return undefined;
  if (url.protocol !== "https:" && !(rule.loopback && isLoopbackHost(url.hostname))) return undefined;
  if (rule.hosted && (url.protocol !== "https:" || url.port !== "" || url.pathname !== "/" || !isHostedHost(url.hostname))) {
    return undefined;
  }
  return origin;
}

function isHostedHost(host: string): boolean {
  return HOSTED_DOMAINS.some((domain) => host === domain || host.endsWith(`.${domain}`));
}

function isLoopbackHost(host: string): boolean {
  return host === "localhost" || host.endsWith(".localhost") || host === "[::1]" || /^127(?:\.\d{1,3}){3}$/.test(host);
}

/**
 * `raw` as requests use a base URL (lower-case scheme and host, no default port, no trailing
 * slash), or undefined unless it is an http(s) URL without credentials, query, fragment or `/api/v1`.
 */
export function plainOrigin(raw: string): string | undefined {
  const url = parsed(raw);
  if (!url || !/^https?:$/.test(url.protocol) || url.username !== "" || url.password !== "") return undefined;
  if (/[?#]/.test(raw)) return undefined;
  const origin = `${url.origin}${url.pathname}`.replace(/\/+$/, "");
  return origin.endsWith(API_PREFIX) ? undefined : origin;
}

/** `url` parsed, or undefined when it is not a URL. */
export function parsed(url: string): URL | undefined {
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}
