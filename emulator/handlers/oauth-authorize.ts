// The OAuth authorize call's own checks (`GET /auth/oauth/authorize/{provider}`), before the flow starts:
// - its query, as the service's schema checks it: every problem at once, in the schema's field order; URL fields
//   (`redirect_uri`, the error URLs, and 2.8.86's `after_callback_redirect_url`) are refused for a space and for
//   not being a URL, each its own problem;
// - the client: `client_id` is the project id, optionally `#<branch>` (an unknown project or branch is
//   INVALID_OAUTH_CLIENT_ID_OR_SECRET, naming the id as given), then `client_secret` must be a live publishable key
//   of that project (401 INVALID_PUBLISHABLE_CLIENT_KEY); on 2.8.86 the sentinel `__stack_public_client__` passes
//   where the project does not require the key (else PUBLISHABLE_CLIENT_KEY_REQUIRED_FOR_PROJECT);
// - what 2.8.86 adds: `after_callback_redirect_url` must be a URL the project trusts (or the mobile SDK's
//   `stack-auth-mobile-oauth-url:` scheme), checked right after a link without `token`; and
//   `stack_response_mode=json` answers 200 `{ location }` (the provider's URL) instead of the redirect, so that a
//   client can look at it before navigating. 2.8.11 takes any string there and always redirects.
import { DEFAULT_BRANCH_ID, PUBLIC_CLIENT_SENTINEL } from "../engine/auth.js";
import type { EmulatorContext, EmulatorRequest } from "../engine/context.js";
import { fail, schemaError } from "../engine/errors.js";
import type { Answer } from "../engine/http.js";
import type { ProjectRecord } from "../engine/store.js";
import { isPublishableKeyOf } from "./auth-shared.js";
import { checkCallbackUrl } from "./common.js";

/** How the authorize call answers: the browser's redirect, or the provider's URL as JSON. */
export type ResponseMode = "redirect" | "json";

const RESPONSE_MODES: readonly ResponseMode[] = ["json", "redirect"];

type Query = Readonly<Record<string, string>>;

/** The service's URL schema: no spaces, then a URL, each a problem of its own. */
function urlProblems(q: Query, name: string): string[] {
  const value = q[name];
  if (value === undefined) return [];
  return [
    ...(value.includes(" ") ? [`query.${name} contains spaces`] : []),
    ...(URL.canParse(value) ? [] : [`query.${name} is not a valid URL`]),
  ];
}

function oneOf(q: Query, name: string, values: readonly string[]): string[] {
  const value = q[name];
  return value === undefined || values.includes(value) ? [] : [`query.${name} must be one of the following values: ${values.join(", ")}`];
}

const defined = (q: Query, name: string) => (q[name] === undefined ? [`query.${name} must be defined`] : []);

/** The query as the service's schema takes it, or its SCHEMA_ERROR listing every problem in the schema's order. */
export function authorizeQuery(request: EmulatorRequest, ctx: EmulatorContext): Query {
  const q = Object.fromEntries(request.query);
  const checked = ctx.profile.oauthAuthorize === "checked";
  const problems = [
    ...oneOf(q, "type", ["authenticate", "link"]),
    ...urlProblems(q, "error_redirect_url"),
    ...urlProblems(q, "error_redirect_uri"),
    ...(checked ? [...urlProblems(q, "after_callback_redirect_url"), ...oneOf(q, "stack_response_mode", RESPONSE_MODES)] : []),
    ...defined(q, "client_id"),
    ...defined(q, "client_secret"),
    ...(q["redirect_uri"] === undefined ? defined(q, "redirect_uri") : urlProblems(q, "redirect_uri")),
    ...defined(q, "scope"),
    ...defined(q, "state"),
    ...(q["grant_type"] === undefined ? defined(q, "grant_type") : oneOf(q, "grant_type", ["authorization_code"])),
    ...(q["code_challenge"] === undefined ? defined(q, "code_challenge") : []),
    ...(q["code_challenge_method"] === undefined
      ? defined(q, "code_challenge_method")
      : oneOf(q, "code_challenge_method", ["S256", "plain"])),
    ...(q["response_type"] === undefined ? defined(q, "response_type") : oneOf(q, "response_type", ["code"])),
  ];
  if (problems.length > 0) throw schemaError(request, ...problems);
  return q;
}

/** The response mode asked for (2.8.86; default, and always on 2.8.11, the redirect). */
export function responseModeOf(ctx: EmulatorContext, q: Query): ResponseMode {
  if (ctx.profile.oauthAuthorize === "lenient") return "redirect";
  return (q["stack_response_mode"] as ResponseMode | undefined) ?? "redirect";
}

/** The project `client_id` names, once `client_secret` was found to be its publishable key (or may be left out). */
export function authorizeClient(ctx: EmulatorContext, q: Query): ProjectRecord {
  const clientId = q["client_id"] ?? "";
  const hash = clientId.indexOf("#");
  const projectId = hash === -1 ? clientId : clientId.slice(0, hash);
  const branchId = hash === -1 ? DEFAULT_BRANCH_ID : clientId.slice(hash + 1);
  // The emulator's projects have only their main branch.
  const project = branchId === DEFAULT_BRANCH_ID ? ctx.store.project(projectId) : undefined;
  if (!project) throw fail("INVALID_OAUTH_CLIENT_ID_OR_SECRET", { client_id: clientId });
  const secret = q["client_secret"] ?? "";
  if (ctx.profile.publishableClientKey === "per-project" && secret === PUBLIC_CLIENT_SENTINEL) {
    if (project.require_publishable_client_key !== false)
      throw fail("PUBLISHABLE_CLIENT_KEY_REQUIRED_FOR_PROJECT", { project_id: project.id });
  } else if (!isPublishableKeyOf(ctx, project.id, secret)) {
    throw fail("INVALID_PUBLISHABLE_CLIENT_KEY", { project_id: project.id });
  }
  return project;
}

/** 2.8.86: REDIRECT_URL_NOT_WHITELISTED for an `after_callback_redirect_url` the project does not trust. */
export function checkAfterCallbackUrl(ctx: EmulatorContext, project: ProjectRecord, q: Query): void {
  const after = q["after_callback_redirect_url"];
  if (ctx.profile.oauthAuthorize === "lenient" || !after) return;
  // The service's mobile SDK comes back through its own scheme, which no project lists as a domain.
  if (new URL(after).protocol === "stack-auth-mobile-oauth-url:") return;
  checkCallbackUrl(project, after);
}

/** The answer that sends the browser on to the provider's consent page. */
export function providerAnswer(mode: ResponseMode, location: string): Answer {
  return mode === "json" ? { body: { location } } : { redirect: location, status: 307 };
}
