// OAuth, the service's side (wire contract §5, §6): the authorize navigation,
// which records the flow and sends the browser to the emulator's fake provider
// (emulator/oauth-provider.ts); the callback the provider returns to, which
// signs the provider account in, up, or links it, and sends the browser back to
// the app's redirect_uri with an authorization code, which the token endpoint
// exchanges (oauth-token.ts); and connected accounts' provider tokens.
// As the service: a flow lives 10 minutes (OUTER_OAUTH_TIMEOUT after that), an
// authorization code 5 minutes and once. The authorize call takes any
// redirect_uri that is a URL; the callback checks it (REDIRECT_URL_NOT_WHITELISTED)
// before it resolves the account. The callback's known errors go, with a 307, to
// the URL the profile's `oauthCallbackErrors` picks (the flow's error URL is
// `error_redirect_uri`, else the deprecated `error_redirect_url`), or are answered
// as they are when there is none.
import { assessBotChallenge, type BotChallengeAssessment } from "../engine/bot-challenge.js";
import type { EmulatorContext, EmulatorRequest, Handlers } from "../engine/context.js";
import { EmulatorError, fail, statusFailure, StatusFailure } from "../engine/errors.js";
import { errorResponse, statusResponse, toResponse } from "../engine/http.js";
import { requestCountryCode } from "../engine/sign-up-country.js";
import type { OAuthCodeRecord, ProjectRecord, Store, UserRecord } from "../engine/store.js";
import { randomId, randomString, verifyIssuedAccessToken } from "../engine/tokens.js";
import { checkCallbackUrl } from "./common.js";
import { authorizeClient, authorizeQuery, checkAfterCallbackUrl, providerAnswer, responseModeOf } from "./oauth-authorize.js";
import { linkAccount, signInOrUp, type Identity } from "./oauth-accounts.js";

const MINUTE = 60 * 1000;
/** The service's window for a whole flow, from the authorize call to the callback. */
export const FLOW_LIFETIME_MS = 10 * MINUTE;
/** The OAuth library's default lifetime of an authorization code (300 s). */
export const AUTHORIZATION_CODE_LIFETIME_MS = 5 * MINUTE;
/** How long the fake provider's own code lives (GitHub's: 10 minutes). */
export const PROVIDER_GRANT_LIFETIME_MS = 10 * MINUTE;

/** The fake provider lives beside the API, outside /api/v1: its pages and the service's callback. */
export const OAUTH_PROVIDER_PREFIX = "/emulator/oauth/";
export const providerPagePath = (provider: string) => `${OAUTH_PROVIDER_PREFIX}${encodeURIComponent(provider)}/authorize`;
export const callbackPath = (provider: string) => `${OAUTH_PROVIDER_PREFIX}${encodeURIComponent(provider)}/callback`;

/** The scopes the service asks each provider for on every flow (`provider_scope` adds to them). */
const BASE_SCOPES: Readonly<Record<string, string>> = {
  github: "user:email",
  google: "openid email profile",
  microsoft: "User.Read openid email profile",
  facebook: "public_profile email",
  spotify: "user-read-email user-read-private",
  discord: "identify email",
  gitlab: "read_user",
  bitbucket: "account email",
  linkedin: "openid profile email",
  apple: "name email",
  x: "users.read offline.access tweet.read",
  twitch: "user:read:email",
};

/** Scopes of a space- (or comma-) separated list, each once. */
export function scopesOf(text: string | null | undefined): string[] {
  return [...new Set((text ?? "").split(/[\s,]+/).filter(Boolean))];
}

export const providerScopes = (provider: string, extra: string | null) => scopesOf(`${BASE_SCOPES[provider] ?? ""} ${extra ?? ""}`);

/**
 * The callback and the provider pages are no API operations, so the engine
 * hands them no context: they use the one of the engine whose store holds the
 * flow (registered when it started the flow), as mailbox.ts keeps its state per store.
 */
const contexts = new WeakMap<Store, EmulatorContext>();
export const contextOf = (store: Store): EmulatorContext | undefined => contexts.get(store);

/** What the authorize call recorded for the callback. */
interface Flow {
  readonly provider: string;
  readonly redirect_uri: string;
  readonly state: string;
  readonly code_challenge: string;
  readonly code_challenge_method: string;
  readonly type: "authenticate" | "link";
  readonly user_id: string | null;
  readonly provider_scope: string | null;
  readonly error_redirect_url: string | null;
  readonly after_callback_redirect_url: string | null;
  /** The bot challenge of the authorize call (2.8.86), which a sign-up at the callback must have passed. */
  readonly bot_challenge?: BotChallengeAssessment;
}

/** What an authorization code stands for, until the token endpoint spends it (oauth-token.ts). */
export interface CodeData {
  readonly user_id: string;
  readonly is_new_user: boolean;
  readonly redirect_uri: string;
  readonly code_challenge: string;
  readonly code_challenge_method: string;
  readonly after_callback_redirect_url: string | null;
}

/** The provider's configuration, when the project has it enabled. */
function providerOf(project: ProjectRecord, provider: string) {
  const config = project.config.oauth_providers.find((p) => p.id === provider);
  return config && project.config.enabled_oauth_providers.some((p) => p.id === provider) ? config : undefined;
}

function isTrusted(project: ProjectRecord, url: string): boolean {
  try {
    checkCallbackUrl(project, url);
    return true;
  } catch {
    return false;
  }
}

export function putOAuthCode(
  ctx: EmulatorContext,
  o: { kind: OAuthCodeRecord["kind"]; id: string; projectId: string; lifetimeMs: number; data: object },
): void {
  const now = ctx.now();
  const record: OAuthCodeRecord = {
    id: o.id,
    kind: o.kind,
    project_id: o.projectId,
    created_at_millis: now,
    expires_at_millis: now + o.lifetimeMs,
    used_at_millis: null,
    data: { ...o.data },
  };
  ctx.store.insert("oauthCodes", record);
}

/** Drops what expired a day ago, so that a long-running emulator does not keep every flow. */
function prune(ctx: EmulatorContext): void {
  const horizon = ctx.now() - 24 * 60 * MINUTE;
  ctx.store.deleteOAuthCodesWhere((record) => record.expires_at_millis < horizon);
}

/** The user a link flow's `token` stands for. */
async function linkingUser(ctx: EmulatorContext, project: ProjectRecord, token: string): Promise<string> {
  try {
    return (await verifyIssuedAccessToken(ctx, token, project.id, ctx.now())).sub;
  } catch (error) {
    if (error instanceof EmulatorError && error.code === "INVALID_PROJECT_FOR_ACCESS_TOKEN")
      throw statusFailure(403, "The access token is not valid for this project");
    throw error;
  }
}

async function startOAuthAuthorization(request: EmulatorRequest, ctx: EmulatorContext) {
  contexts.set(ctx.store, ctx);
  const q = authorizeQuery(request, ctx);
  const mode = responseModeOf(ctx, q);
  const provider = request.params["provider"] ?? "";
  const project = authorizeClient(ctx, q);
  const config = providerOf(project, provider);
  if (!config) throw fail("OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED");
  // Not checked here on either version: the callback does (checkRedirectUri).
  const redirectUri = (q["redirect_uri"] ?? "").split("#")[0] ?? "";
  const scopes = scopesOf(q["scope"]);
  const invalid = scopes.length === 0 ? "<empty string>" : scopes.find((scope) => scope !== "legacy");
  if (invalid !== undefined) throw fail("INVALID_SCOPE", undefined, `The scope "${invalid}" is not a valid OAuth scope for Stack.`);
  const type = q["type"] === "link" ? "link" : "authenticate";
  const providerScope = q["provider_scope"] ?? null;
  if (type === "link" && !q["token"]) {
    // 2.8.86 asks for the token in words of its own; 2.8.11 decodes the schema's default, "", which is no JWT.
    if (ctx.profile.oauthAuthorize === "checked") throw statusFailure(400, "?token= query parameter is required for link type");
    throw fail("UNPARSABLE_ACCESS_TOKEN");
  }
  checkAfterCallbackUrl(ctx, project, q);
  const botChallenge = ctx.profile.botChallenge ? assessBotChallenge(request, q, "oauth_authenticate") : undefined;
  // Shared keys take no extra scopes: 2.8.86 refuses them on every flow before it reads the token, 2.8.11 on a link only, after.
  const extraScopeRefused = Boolean(providerScope) && config.type === "shared";
  if (extraScopeRefused && ctx.profile.oauthAuthorize === "checked") throw fail("OAUTH_EXTRA_SCOPE_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS");
  let userId: string | null = null;
  if (type === "link" && q["token"]) {
    userId = await linkingUser(ctx, project, q["token"]);
    if (extraScopeRefused) throw fail("OAUTH_EXTRA_SCOPE_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS");
  } else if (q["token"] && ctx.profile.upgradesAnonymousUsers) {
    // 2.8.86 reads a token on a sign-in too (an expired or foreign one fails as on a link); an anonymous user's makes
    // a new account that user (its upgrade).
    const user = ctx.store.user(await linkingUser(ctx, project, q["token"]));
    userId = user?.is_anonymous ? user.id : null;
  }
  prune(ctx);
  const innerState = randomString(32);
  const flow: Flow = {
    provider,
    redirect_uri: redirectUri,
    state: q["state"] ?? "",
    code_challenge: q["code_challenge"] ?? "",
    code_challenge_method: q["code_challenge_method"] ?? "S256",
    type,
    user_id: userId,
    provider_scope: providerScope,
    // `error_redirect_uri` wins over the deprecated `error_redirect_url` unless empty.
    error_redirect_url: q["error_redirect_uri"] || q["error_redirect_url"] || null,
    after_callback_redirect_url: q["after_callback_redirect_url"] ?? null,
    ...(botChallenge === undefined ? {} : { bot_challenge: botChallenge }),
  };
  putOAuthCode(ctx, { kind: "flow", id: innerState, projectId: project.id, lifetimeMs: FLOW_LIFETIME_MS, data: flow });
  // To the provider's consent page, as the service redirects to GitHub's or Google's.
  const location = new URL(providerPagePath(provider), ctx.apiOrigin);
  location.searchParams.set("client_id", config.client_id ?? `stack-shared-${provider}`);
  location.searchParams.set("redirect_uri", new URL(callbackPath(provider), ctx.apiOrigin).toString());
  location.searchParams.set("response_type", "code");
  location.searchParams.set("scope", providerScopes(provider, providerScope).join(" "));
  location.searchParams.set("state", innerState);
  return providerAnswer(mode, location.toString());
}

// THE CALLBACK

/**
 * GET <callback>?code&state (or ?error&state): the service's callback. Answers
 * a redirect to the app's redirect_uri with `code` and `state`, or the flow's
 * known error (redirected as errorTarget says, else answered as it is).
 */
export async function oauthCallback(url: URL, headers: Headers, store: Store, provider: string): Promise<Response> {
  const requestId = randomId();
  const ctx = contexts.get(store);
  const record = ctx && store.oauthCode(url.searchParams.get("state") ?? "");
  if (!ctx || !record || record.kind !== "flow")
    return statusResponse(400, "Invalid OAuth cookie. Please try signing in again.", requestId, false);
  if (record.used_at_millis !== null) {
    return statusResponse(
      400,
      "Inner OAuth cookie not found. This is likely because you refreshed the page during the OAuth sign in process. Please try signing in again",
      requestId,
      false,
    );
  }
  store.markOAuthCodeUsed(record.id, ctx.now());
  const flow = record.data as unknown as Flow;
  const project = store.project(record.project_id);
  if (!project) return statusResponse(500, "Tenancy in outerInfo not found; has it been deleted?", requestId, false);
  try {
    const code = await completeFlow(ctx, project, record, provider, url.searchParams, headers);
    const target = new URL(flow.redirect_uri);
    target.searchParams.set("code", code);
    target.searchParams.set("state", flow.state);
    return toResponse({ redirect: target.toString(), status: 307 }, requestId);
  } catch (error) {
    if (error instanceof StatusFailure) return statusResponse(error.status, error.text, requestId, false);
    if (!(error instanceof EmulatorError)) throw error;
    const to = errorTarget(ctx, project, flow);
    if (to === null) return errorResponse(error, requestId, false);
    const target = new URL(to);
    if (ctx.profile.oauthCallbackErrors === "redirect-uri-first") {
      target.searchParams.set("error", "server_error");
      target.searchParams.set("error_description", error.message);
    }
    target.searchParams.set("errorCode", error.code);
    target.searchParams.set("message", error.message);
    target.searchParams.set("details", JSON.stringify(error.details ?? {}));
    return toResponse({ redirect: target.toString(), status: 307 }, requestId);
  }
}

/** 2.8.86 also takes the mobile SDK's own scheme wherever it checks a redirect URL (the service's isAcceptedNativeAppUrl). */
function isAllowedRedirect(ctx: EmulatorContext, project: ProjectRecord, url: string): boolean {
  if (
    ctx.profile.oauthCallbackErrors === "redirect-uri-first" &&
    URL.canParse(url) &&
    new URL(url).protocol === "stack-auth-mobile-oauth-url:"
  )
    return true;
  return isTrusted(project, url);
}

/**
 * Where the callback sends a known error: 2.8.11 to the flow's error URL; 2.8.86 to its redirect_uri first, else to
 * its error URL; null (the error is answered as it is) when none of them is allowed.
 */
function errorTarget(ctx: EmulatorContext, project: ProjectRecord, flow: Flow): string | null {
  const candidates =
    ctx.profile.oauthCallbackErrors === "redirect-uri-first" ? [flow.redirect_uri, flow.error_redirect_url] : [flow.error_redirect_url];
  return candidates.find((url): url is string => url !== null && isAllowedRedirect(ctx, project, url)) ?? null;
}

/** The callback's work: checks the flow and the provider's grant, resolves the user, and issues the authorization code. */
async function completeFlow(
  ctx: EmulatorContext,
  project: ProjectRecord,
  record: OAuthCodeRecord,
  provider: string,
  query: URLSearchParams,
  headers: Headers,
): Promise<string> {
  const flow = record.data as unknown as Flow;
  if (record.expires_at_millis <= ctx.now()) throw fail("OUTER_OAUTH_TIMEOUT");
  if (!providerOf(project, provider)) throw fail("OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED");
  const error = query.get("error");
  if (error === "access_denied") throw fail("OAUTH_PROVIDER_ACCESS_DENIED");
  if (error !== null) throw statusFailure(500, `Inner OAuth callback failed due to error: ${error}`);
  const grant = ctx.store.oauthCode(query.get("code") ?? "");
  const identity = grant?.data as unknown as Identity | undefined;
  if (
    !grant ||
    !identity ||
    grant.kind !== "provider_grant" ||
    grant.expires_at_millis <= ctx.now() ||
    identity.provider !== provider ||
    identity.state !== record.id
  ) {
    throw fail("INVALID_AUTHORIZATION_CODE");
  }
  ctx.store.deleteOAuthCode(grant.id);
  // The OAuth library's client check, before the account is resolved (nothing is created for a refused redirect_uri).
  if (!isAllowedRedirect(ctx, project, flow.redirect_uri)) throw fail("REDIRECT_URL_NOT_WHITELISTED");
  const scopes = providerScopes(provider, flow.provider_scope);
  const { user, isNewUser } =
    flow.type === "link"
      ? linkAccount(ctx, project, flow.user_id, identity, scopes)
      : await signInOrUp(ctx, project, identity, scopes, {
          anonymousId: flow.user_id,
          botChallenge: flow.bot_challenge ?? null,
          requestCountry: ctx.profile.signUpRisk ? requestCountryCode(ctx.profile, headers) : null,
        });
  const code = randomHex(40);
  const data: CodeData = {
    user_id: user.id,
    is_new_user: isNewUser,
    redirect_uri: flow.redirect_uri,
    code_challenge: flow.code_challenge,
    code_challenge_method: flow.code_challenge_method,
    after_callback_redirect_url: flow.after_callback_redirect_url,
  };
  putOAuthCode(ctx, { kind: "authorization_code", id: code, projectId: project.id, lifetimeMs: AUTHORIZATION_CODE_LIFETIME_MS, data });
  return code;
}

function randomHex(length: number): string {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(Math.ceil(length / 2)));
  return [...bytes]
    .map((b) => b.toString(16).padStart(2, "0"))
    .join("")
    .slice(0, length);
}

// CONNECTED ACCOUNTS

export const oauthHandlers = {
  startOAuthAuthorization,

  createConnectedAccountAccessToken(request, ctx) {
    const { project } = request;
    const param = request.params["user_id"] ?? "";
    if (param === "me" && !request.user) throw fail("CANNOT_GET_OWN_USER_WITHOUT_USER");
    const userId = param === "me" ? (request.user as UserRecord).id : param;
    if (request.accessType === "client" && request.user?.id !== userId)
      throw statusFailure(403, "Client can only access its own connected accounts");
    const provider = request.params["provider_id"] ?? "";
    const config = providerOf(project, provider);
    if (!config) throw fail("OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED");
    if (config.type === "shared") throw fail("OAUTH_ACCESS_TOKEN_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS");
    const user = ctx.store.user(userId);
    if (!user || user.project_id !== project.id) throw fail("USER_NOT_FOUND");
    const accounts = user.oauth_providers.filter((p) => p.id === provider);
    if (accounts.length === 0) throw fail("OAUTH_CONNECTION_NOT_CONNECTED_TO_USER");
    const wanted = scopesOf((request.body as { scope?: string } | undefined)?.scope);
    // Accounts set by server code have no provider tokens, so no scope at all.
    if (!accounts.some((account) => account.scopes !== undefined && wanted.every((scope) => account.scopes?.includes(scope)))) {
      throw fail("OAUTH_CONNECTION_DOES_NOT_HAVE_REQUIRED_SCOPE");
    }
    return { status: 201, body: { access_token: `emulated_${provider}_${randomString(40)}` } };
  },
} satisfies Handlers;
