// What a verifier is set up with: its options checked, and the issuers and the
// key-set URL of each kind of user (normal, restricted, anonymous) as each
// service version makes them. Checked as the verifier is made, before the
// verification itself (verification.ts) loads.
import { API_PREFIX, DEFAULT_BASE_URL } from "../../constants.js";
import { platformEnvironment, type Fetch } from "../../platform/env.js";
import { StackConfigurationError } from "../../errors.js";
import type { AudienceKind } from "./claims.js";

/**
 * What {@link createAccessTokenVerifier} and {@link verifyAccessToken} take: the
 * project, where its keys are published, how long they are cached, and whether
 * tokens of anonymous and restricted users are accepted (by default they are not).
 *
 * @example
 * ```ts
 * const verifier = createAccessTokenVerifier({
 *   projectId: process.env.STACK_PROJECT_ID!,
 *   baseUrl: "https://auth.example.com",
 *   cacheMaxAgeMs: 5 * 60_000,
 *   clockToleranceSec: 10,
 * });
 * ```
 */
export interface AccessTokenVerifierOptions {
  /** The project whose access tokens are accepted. */
  readonly projectId: string;
  /** The API's base URL, as the apps take it; default `https://api.stack-auth.com`. */
  readonly baseUrl?: string;
  /**
   * The `iss` the service sets in its users' tokens; default
   * `<baseUrl>/api/v1/projects/<projectId>`, and for the hosted service the same
   * under its other name (`https://api.stack-auth.com` and `https://api.hexclave.com`,
   * likewise their `api.dev.` and `api.staging.` hosts), which issues tokens under
   * whichever name a request came through. Given issuers are taken as they are. Set it when the API is reached through a
   * URL that is not the service's own (a proxy). Tokens of 2.8.11's form, whose `iss`
   * is `https://access-token.jwt-signature.stack-auth.com` for every project, are
   * accepted as well (their `aud` must be the project). The issuers of restricted and
   * anonymous users' tokens (`…/api/v1/projects-restricted-users/<projectId>`,
   * `…/api/v1/projects-anonymous-users/<projectId>`) are made from the same base URL,
   * or from each `issuer` that ends in `/api/v1/projects/<projectId>`.
   */
  readonly issuer?: string | readonly string[];
  /**
   * Accept tokens of anonymous users (audience `<projectId>:anon`, or an `is_anonymous`
   * claim), and with them those of restricted users; their keys are fetched with
   * `?include_anonymous=true`. Default false: such a token is refused ("audience").
   * A call's own `allowAnonymous` takes precedence.
   */
  readonly allowAnonymous?: boolean;
  /**
   * Accept tokens of restricted users (audience `<projectId>:restricted`, or an
   * `is_restricted` claim: an e-mail the project requires verified is not, or an
   * administrator restricted the user); their keys are fetched with
   * `?include_restricted=true`. Default false: such a token is refused ("audience").
   * A call's own `allowRestricted` takes precedence.
   */
  readonly allowRestricted?: boolean;
  /** Sends the key-set request; default the platform's fetch. */
  readonly fetch?: Fetch;
  /** Milliseconds since the epoch: judges `exp` and ages the cached keys. Default `Date.now`. */
  readonly now?: () => number;
  /** How long fetched keys are used before they are fetched again; default 10 minutes. */
  readonly cacheMaxAgeMs?: number;
  /** A token with an unknown `kid` refetches the keys at most once per this long; default 30 s. */
  readonly cooldownMs?: number;
  /** Longest wait for the key set's answer; default 5 s. */
  readonly timeoutMs?: number;
  /** Clock skew allowed between the service and this machine for `exp` and `nbf`, in seconds; default 5. */
  readonly clockToleranceSec?: number;
}

const DEFAULTS = { cacheMaxAgeMs: 600_000, cooldownMs: 30_000, timeoutMs: 5_000, clockToleranceSec: 5 } as const;
/** The `iss` of every project's access tokens up to May 2025 (2.8.11 included); their `aud` is the project. */
const GLOBAL_ISSUER = "https://access-token.jwt-signature.stack-auth.com";
/**
 * The hosted service answers under two names (Stack Auth's and Hexclave's, per
 * environment) and sets `iss` from the host a request came through, so a
 * project's tokens carry either name whichever one the app calls (stack-shared
 * 2.8.109's cloud-hosts pairs). A self-hosted service has one name: no sibling.
 */
const CLOUD_API_HOST_PAIRS: readonly (readonly [string, string])[] = [
  ["api.stack-auth.com", "api.hexclave.com"],
  ["api.dev.stack-auth.com", "api.dev.hexclave.com"],
  ["api.staging.stack-auth.com", "api.staging.hexclave.com"],
];
/** The path under the API of each kind of user's issuer (followed by `/<projectId>`), and the suffix of its audience. */
export const KINDS: Readonly<
  Record<AudienceKind, { readonly issuerPath: string; readonly audienceSuffix: string; readonly query: string }>
> = {
  normal: { issuerPath: "/projects", audienceSuffix: "", query: "" },
  restricted: { issuerPath: "/projects-restricted-users", audienceSuffix: ":restricted", query: "?include_restricted=true" },
  anonymous: { issuerPath: "/projects-anonymous-users", audienceSuffix: ":anon", query: "?include_anonymous=true" },
};

/** A verifier's options, checked, with the issuers and key-set URLs of each kind of user. */
export interface Settings {
  readonly projectId: string;
  /** The issuers accepted with each kind's audience. */
  readonly issuers: Readonly<Record<AudienceKind, readonly string[]>>;
  /** Where each kind's keys are published (the normal users' set, or it with the restricted or anonymous ones). */
  readonly jwksUrls: Readonly<Record<AudienceKind, string>>;
  readonly accepts: Accepts;
  readonly fetch: Fetch;
  readonly now: () => number;
  readonly cacheMaxAgeMs: number;
  readonly cooldownMs: number;
  readonly timeoutMs: number;
  readonly clockToleranceSec: number;
}

/** Which kinds of user's tokens a verification accepts. */
export interface Accepts {
  readonly anonymous: boolean;
  readonly restricted: boolean;
}

/** The settings of a verifier made with `o`; throws a StackConfigurationError for options that cannot work. */
export function settingsOf(o: AccessTokenVerifierOptions): Settings {
  const where = "createAccessTokenVerifier / verifyAccessToken";
  if (typeof o !== "object" || o === null || typeof o.projectId !== "string" || o.projectId === "") {
    throw new StackConfigurationError(`${where} needs the project's id: { projectId: "…" }.`);
  }
  const baseUrl = (o.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, "");
  if (!isHttpUrl(baseUrl)) {
    throw new StackConfigurationError(`${where}: baseUrl must be an http(s) URL, got ${JSON.stringify(o.baseUrl)}.`);
  }
  const given: readonly unknown[] | undefined = o.issuer === undefined ? undefined : typeof o.issuer === "string" ? [o.issuer] : o.issuer;
  if (
    given !== undefined &&
    (!Array.isArray(given) || given.length === 0 || given.some((issuer) => typeof issuer !== "string" || issuer === ""))
  ) {
    throw new StackConfigurationError(`${where}: issuer must be a non-empty string or a list of them.`);
  }
  const accepts = (name: "allowAnonymous" | "allowRestricted"): boolean => {
    const value = o[name] ?? false;
    if (typeof value !== "boolean") {
      throw new StackConfigurationError(`${where}: ${name} must be true or false, got ${JSON.stringify(value)}.`);
    }
    return value;
  };
  const anonymous = accepts("allowAnonymous");
  const number = (name: keyof typeof DEFAULTS, least: number): number => {
    const value = o[name] ?? DEFAULTS[name];
    if (typeof value !== "number" || !Number.isFinite(value) || value < least) {
      throw new StackConfigurationError(`${where}: ${name} must be a finite number of at least ${least}, got ${String(value)}.`);
    }
    return value;
  };
  const jwks = `${baseUrl}${API_PREFIX}/projects/${encodeURIComponent(o.projectId)}/.well-known/jwks.json`;
  return {
    projectId: o.projectId,
    issuers: issuersOf(o.projectId, baseUrl, given as readonly string[] | undefined),
    jwksUrls: { normal: jwks, restricted: jwks + KINDS.restricted.query, anonymous: jwks + KINDS.anonymous.query },
    accepts: { anonymous, restricted: anonymous || accepts("allowRestricted") },
    fetch: o.fetch ?? platformEnvironment.fetch,
    now: o.now ?? platformEnvironment.now,
    cacheMaxAgeMs: number("cacheMaxAgeMs", 0),
    cooldownMs: number("cooldownMs", 0),
    timeoutMs: number("timeoutMs", 1),
    clockToleranceSec: number("clockToleranceSec", 0),
  };
}

/**
 * The issuers accepted with each kind's audience. The service makes them from its
 * API's URL: `<api>/api/v1/projects/<id>` and its `-restricted-users` and
 * `-anonymous-users` siblings, under the hosted service's other name too;
 * 2.8.11's global issuer goes with the project's
 * own audience only (its `aud` is all that ties it to a project).
 */
function issuersOf(projectId: string, baseUrl: string, given: readonly string[] | undefined): Record<AudienceKind, readonly string[]> {
  const normalPath = `${API_PREFIX}${KINDS.normal.issuerPath}/${projectId}`;
  const bases =
    given === undefined
      ? [baseUrl, ...cloudSiblingsOf(baseUrl)]
      : given.filter((issuer) => issuer.endsWith(normalPath)).map((issuer) => issuer.slice(0, -normalPath.length));
  const issuersFor = (kind: AudienceKind) => bases.map((base) => `${base}${API_PREFIX}${KINDS[kind].issuerPath}/${projectId}`);
  return {
    normal: [...new Set([...(given ?? issuersFor("normal")), GLOBAL_ISSUER])],
    restricted: issuersFor("restricted"),
    anonymous: issuersFor("anonymous"),
  };
}

/**
 * The other name of the hosted service whose API `baseUrl` is (its origin, as
 * the service writes it into `iss`), or none for any other host.
 */
function cloudSiblingsOf(baseUrl: string): string[] {
  const host = new URL(baseUrl).hostname.toLowerCase();
  const pair = CLOUD_API_HOST_PAIRS.find((hosts) => hosts.includes(host));
  return pair === undefined ? [] : pair.filter((other) => other !== host).map((other) => `https://${other}`);
}

function isHttpUrl(url: string): boolean {
  try {
    return /^https?:$/.test(new URL(url).protocol);
  } catch {
    return false;
  }
}
