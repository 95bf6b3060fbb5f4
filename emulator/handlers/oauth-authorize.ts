// What 2.8.86 adds to the OAuth authorize call (`GET /auth/oauth/authorize/{provider}`):
// `after_callback_redirect_url` must be a URL the project trusts (or the mobile
// SDK's `stack-auth-mobile-oauth-url:` scheme), checked right after a link
// without `token`; and `stack_response_mode=json` answers 200 `{ location }`
// (the provider's URL) instead of the redirect, so that a client can look at it
// before navigating. 2.8.11 takes any string there and always redirects.
import { schemaError } from "../engine/errors.js";
import type { EmulatorContext, EmulatorRequest } from "../engine/context.js";
import type { Answer } from "../engine/http.js";
import type { ProjectRecord } from "../engine/store.js";
import { checkCallbackUrl } from "./common.js";

/** How the authorize call answers: the browser's redirect, or the provider's URL as JSON. */
export type ResponseMode = "redirect" | "json";

const RESPONSE_MODES: readonly ResponseMode[] = ["json", "redirect"];

/** The 2.8.86 query fields' own schema checks (SCHEMA_ERROR), and the response mode asked for (default redirect). */
export function responseModeOf(request: EmulatorRequest, ctx: EmulatorContext, q: Readonly<Record<string, string>>): ResponseMode {
  if (ctx.profile.oauthAuthorize === "lenient") return "redirect";
  const after = q["after_callback_redirect_url"];
  if (after !== undefined && !URL.canParse(after)) throw schemaError(request, "query.after_callback_redirect_url is not a valid URL");
  const mode = q["stack_response_mode"] ?? "redirect";
  if (!RESPONSE_MODES.includes(mode as ResponseMode))
    throw schemaError(request, `query.stack_response_mode must be one of the following values: ${RESPONSE_MODES.join(", ")}`);
  return mode as ResponseMode;
}

/** 2.8.86: REDIRECT_URL_NOT_WHITELISTED for an `after_callback_redirect_url` the project does not trust. */
export function checkAfterCallbackUrl(ctx: EmulatorContext, project: ProjectRecord, q: Readonly<Record<string, string>>): void {
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
