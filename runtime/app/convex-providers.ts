// The other half of the Convex integration: what a Convex deployment's
// `convex/auth.config.ts` lists so that Convex accepts this project's access
// tokens (the official SDK's `getConvexProvidersConfig`, from
// `@stackframe/js/convex-auth.config`). A pure function of the project: no app,
// no request.
import { API_PREFIX, DEFAULT_BASE_URL } from "../constants.js";
import { StackConfigurationError } from "../errors.js";

/** One identity provider of a Convex auth config: tokens signed with ES256 by the keys at `jwks`, whose `iss` is `issuer`. */
export interface ConvexProviderConfig {
  readonly type: "customJwt";
  readonly issuer: URL;
  readonly jwks: URL;
  readonly algorithm: "ES256";
}

/**
 * The providers of a Convex auth config that accept the access tokens of `projectId`, as the
 * official SDK lists them: its users' tokens (issuer `<baseUrl>/api/v1/projects/<projectId>`) and
 * its anonymous users' (issuer `…/projects-anonymous-users/<projectId>`, whose keys are published
 * with `?include_anonymous=true`). Restricted users' tokens are not accepted, as there. `baseUrl`
 * defaults to `https://api.stack-auth.com`; a path in it is replaced, as a URL's origin would be.
 *
 * @example
 * ```ts
 * // convex/auth.config.ts
 * import { getConvexProvidersConfig } from "stackkit";
 * export default { providers: getConvexProvidersConfig({ projectId: process.env.STACK_PROJECT_ID! }) };
 * ```
 */
export function getConvexProvidersConfig(options: { readonly baseUrl?: string; readonly projectId: string }): ConvexProviderConfig[] {
  const projectId = (options as { projectId?: unknown } | null | undefined)?.projectId;
  if (typeof projectId !== "string" || projectId === "") {
    throw new StackConfigurationError("getConvexProvidersConfig needs { projectId }: the id of your project on the Stack Auth dashboard.");
  }
  const baseUrl = options.baseUrl || DEFAULT_BASE_URL;
  const id = encodeURIComponent(projectId);
  const url = (path: string) => new URL(`${API_PREFIX}${path}`, baseUrl);
  return [
    { type: "customJwt", issuer: url(`/projects/${id}`), jwks: url(`/projects/${id}/.well-known/jwks.json`), algorithm: "ES256" },
    {
      type: "customJwt",
      issuer: url(`/projects-anonymous-users/${id}`),
      jwks: url(`/projects/${id}/.well-known/jwks.json?include_anonymous=true`),
      algorithm: "ES256",
    },
  ];
}
