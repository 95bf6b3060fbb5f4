// The OAuth token endpoint (`POST /auth/oauth/token`), as the service answers it through its OAuth library
// (@node-oauth/oauth2-server 5.1.0 at both versions, allowing extended token attributes):
// - the service's schema knows only `grant_type` (the engine checks no more of the body); 2.8.86 first checks the
//   client's publishable key itself (PUBLISHABLE_CLIENT_KEY_REQUIRED_FOR_PROJECT, INVALID_OAUTH_CLIENT_ID_OR_SECRET);
// - the library then wants `client_id` and `client_secret` (the secret may be left out of a PKCE code exchange),
//   each printable ASCII, of a project whose publishable key the secret is: else INVALID_OAUTH_CLIENT_ID_OR_SECRET;
// - a grant's missing or unprintable parameter (`refresh_token`, `code`) and a `redirect_uri` that is no URI are the
//   library's own 400 JSON, `{ error: "invalid_request", error_description }`, which the service passes on as is;
//   an unknown, expired or foreign code or refresh token is INVALID_AUTHORIZATION_CODE or
//   REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED;
// - a code is spent before its `redirect_uri` is compared (a mismatch spends it) and before the user's second
//   factor is asked for;
// - the answer carries the library's bearer fields: `token_type`, `expires_in` (its default hour, whatever the
//   access token's own lifetime) and `scope`, then the service's extra attributes.
import { DEFAULT_BRANCH_ID, PUBLIC_CLIENT_SENTINEL } from "../engine/auth.js";
import type { EmulatorContext, EmulatorRequest, Handlers } from "../engine/context.js";
import { fail, statusFailure } from "../engine/errors.js";
import type { Answer } from "../engine/http.js";
import type { ProjectRecord } from "../engine/store.js";
import { isLive, isPublishableKeyOf, mfaRequired, requiresMfa } from "./auth-shared.js";
import type { CodeData } from "./oauth.js";

/**
 * `expires_in` of every token answer: the library's default lifetime (an hour) counted from before it saved the
 * tokens, floored when it answers, so a second short of it (the service's own access tokens live 10 minutes).
 */
const EXPIRES_IN_S = 60 * 60 - 1;

type Body = Readonly<Record<string, unknown>>;

/** A body field as the library reads it: absent, null and empty are all missing (""). */
function field(body: Body, name: string): string {
  const value = body[name];
  return value === undefined || value === null ? "" : String(value);
}

/** The library's test of client ids, secrets, codes and refresh tokens: visible ASCII and spaces, at least one. */
const printable = (value: string) => /^[\u0020-\u007E]+$/.test(value);

/** The library's own refusal of a request, which the service answers as it is. */
const invalidRequest = (description: string): Answer => ({
  status: 400,
  body: { error: "invalid_request", error_description: description },
});

/** The project of `client_id`, `<project id>[#<branch>]` (the emulator's projects have only their main branch). */
function projectOfClientId(ctx: EmulatorContext, clientId: string): ProjectRecord | undefined {
  const hash = clientId.indexOf("#");
  const branchId = hash === -1 ? DEFAULT_BRANCH_ID : clientId.slice(hash + 1);
  return branchId === DEFAULT_BRANCH_ID ? ctx.store.project(hash === -1 ? clientId : clientId.slice(0, hash)) : undefined;
}

const requiresKey = (project: ProjectRecord) => project.require_publishable_client_key !== false;

/** 2.8.86's own check of the client, before the library's: a key the project requires, and a live one. */
function checkPublishableKey(ctx: EmulatorContext, clientId: string, secret: string): void {
  const project = clientId === "" ? undefined : projectOfClientId(ctx, clientId);
  if (!project) return;
  if (secret === "" || secret === PUBLIC_CLIENT_SENTINEL) {
    if (requiresKey(project)) throw fail("PUBLISHABLE_CLIENT_KEY_REQUIRED_FOR_PROJECT", { project_id: project.id });
  } else if (!isPublishableKeyOf(ctx, project.id, secret)) {
    throw fail("INVALID_OAUTH_CLIENT_ID_OR_SECRET", { client_id: null });
  }
}

/** The library's client: its credentials, their form, and the project whose key the secret is (an Answer: its refusal). */
function oauthClient(ctx: EmulatorContext, body: Body): ProjectRecord | Answer {
  const clientId = field(body, "client_id");
  const secret = field(body, "client_secret");
  const pkce = field(body, "grant_type") === "authorization_code" && field(body, "code_verifier") !== "";
  // The service raises it without naming the client: `client_id` is null.
  const invalidClient = fail("INVALID_OAUTH_CLIENT_ID_OR_SECRET", { client_id: null });
  if (clientId === "" || (secret === "" && !pkce)) throw invalidClient;
  if (!printable(clientId)) return invalidRequest("Invalid parameter: `client_id`");
  if (secret !== "" && !printable(secret)) return invalidRequest("Invalid parameter: `client_secret`");
  const project = projectOfClientId(ctx, clientId);
  if (!project) throw invalidClient;
  // 2.8.86 takes its sentinel for a project that does not require the key (one that does was refused above).
  const sentinelPasses = ctx.profile.publishableClientKey === "per-project" && secret === PUBLIC_CLIENT_SENTINEL && !requiresKey(project);
  if (secret !== "" && !sentinelPasses && !isPublishableKeyOf(ctx, project.id, secret)) throw invalidClient;
  return project;
}

/** The library's bearer fields of a token answer. */
const bearer = (accessToken: string) => ({ access_token: accessToken, token_type: "Bearer", expires_in: EXPIRES_IN_S });

async function refreshGrant(ctx: EmulatorContext, project: ProjectRecord, body: Body): Promise<Answer> {
  const refreshToken = field(body, "refresh_token");
  if (refreshToken === "") return invalidRequest("Missing parameter: `refresh_token`");
  if (!printable(refreshToken)) return invalidRequest("Invalid parameter: `refresh_token`");
  const session = ctx.store.sessionByRefreshToken(refreshToken);
  if (!isLive(ctx, session, project.id)) throw fail("REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED");
  ctx.store.updateSession(session.id, { last_used_at_millis: ctx.now() });
  // The refresh token is not rotated; 2.8.86's extra attributes say the flow had no after-callback URL.
  return {
    body: {
      ...bearer(await ctx.accessTokenFor(session)),
      scope: "legacy",
      ...(ctx.profile.refreshGrantAfterCallbackUrl ? { afterCallbackRedirectUrl: null, after_callback_redirect_url: null } : {}),
    },
  };
}

async function verifierMatches(data: CodeData, verifier: string): Promise<boolean> {
  if (data.code_challenge_method === "plain") return verifier === data.code_challenge;
  const digest = new Uint8Array(await globalThis.crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier)));
  let binary = "";
  for (const byte of digest) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "") === data.code_challenge;
}

/**
 * grant_type=authorization_code: the code must be live and this project's and the verifier must match its
 * challenge (else INVALID_AUTHORIZATION_CODE, the code kept); then the code is spent, and redirect_uri must be a URI
 * and the authorized one; a TOTP user gets MULTI_FACTOR_AUTHENTICATION_REQUIRED.
 */
async function authorizationCodeGrant(request: EmulatorRequest, ctx: EmulatorContext, project: ProjectRecord, body: Body) {
  const code = field(body, "code");
  if (code === "") return invalidRequest("Missing parameter: `code`");
  if (!printable(code)) return invalidRequest("Invalid parameter: `code`");
  const record = ctx.store.oauthCode(code);
  const data = record?.data as unknown as CodeData | undefined;
  const user = data && ctx.store.user(data.user_id);
  const live =
    record !== undefined &&
    record.kind === "authorization_code" &&
    record.project_id === project.id &&
    record.expires_at_millis > ctx.now();
  if (!live || !data || !user || user.project_id !== project.id) throw fail("INVALID_AUTHORIZATION_CODE");
  const verifier = field(body, "code_verifier");
  if (verifier === "" || !(await verifierMatches(data, verifier))) throw fail("INVALID_AUTHORIZATION_CODE");
  ctx.store.deleteOAuthCode(record.id);
  const redirectUri = field(body, "redirect_uri") || (request.query.get("redirect_uri") ?? "");
  if (!/^[a-zA-Z][a-zA-Z0-9+.-]+:/.test(redirectUri)) return invalidRequest("Invalid request: `redirect_uri` is not a valid URI");
  if (redirectUri !== data.redirect_uri) {
    if (ctx.profile.authorizationCodeRedirectMismatch === "not-whitelisted") throw fail("REDIRECT_URL_NOT_WHITELISTED");
    throw statusFailure(400, "Invalid redirect URI. Your redirect URI must be the same as the one used to get the authorization code.");
  }
  if (requiresMfa(user)) throw mfaRequired(ctx, project, user, false);
  const signedIn = await ctx.signIn(user);
  const after = data.after_callback_redirect_url;
  // The service's extra attributes, the old camelCase names beside the new ones.
  return {
    body: {
      ...bearer(signedIn.access_token),
      refresh_token: signedIn.refresh_token,
      scope: "legacy",
      newUser: data.is_new_user,
      is_new_user: data.is_new_user,
      afterCallbackRedirectUrl: after,
      after_callback_redirect_url: after,
    },
  };
}

export const oauthTokenHandlers = {
  async exchangeOAuthToken(request, ctx) {
    const body = (request.body ?? {}) as Body;
    if (ctx.profile.publishableClientKey === "per-project") {
      checkPublishableKey(ctx, field(body, "client_id"), field(body, "client_secret"));
    }
    const client = oauthClient(ctx, body);
    if (!("id" in client)) return client;
    return field(body, "grant_type") === "authorization_code"
      ? authorizationCodeGrant(request, ctx, client, body)
      : refreshGrant(ctx, client, body);
  },
} satisfies Handlers;
