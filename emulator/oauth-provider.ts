// The emulator's fake OAuth provider, served beside the API (emulator/routes.ts):
// the consent page the authorize call sends the browser to, with a button per
// identity already seen on this provider ("Continue as …"), a form to type one
// (e-mail, name, account id) and a Deny button. Plain HTML forms, no scripts
// and no external assets, so a browser test can click through it. Continue
// returns to the service's callback with a code of the provider, Deny with
// `error=access_denied`, as real providers do; the callback itself is the
// service's (emulator/handlers/oauth.ts).
import type { Store } from "./engine/store.js";
import { randomString } from "./engine/tokens.js";
import {
  callbackPath,
  contextOf,
  oauthCallback,
  OAUTH_PROVIDER_PREFIX,
  PROVIDER_GRANT_LIFETIME_MS,
  providerPagePath,
  putOAuthCode,
} from "./handlers/oauth.js";
import type { Identity } from "./handlers/oauth-accounts.js";

export { OAUTH_PROVIDER_PREFIX };

const NAMES: Readonly<Record<string, string>> = {
  github: "GitHub",
  google: "Google",
  microsoft: "Microsoft",
  facebook: "Facebook",
  spotify: "Spotify",
  discord: "Discord",
  gitlab: "GitLab",
  bitbucket: "Bitbucket",
  linkedin: "LinkedIn",
  apple: "Apple",
  x: "X",
};
const nameOf = (provider: string) => NAMES[provider] ?? provider.charAt(0).toUpperCase() + provider.slice(1);

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const STYLE = `
  body { font-family: system-ui, sans-serif; margin: 3rem auto; max-width: 28rem; padding: 0 1rem; color: #1d1d1f; }
  h1 { font-size: 1.3rem; } .meta { color: #5f5f66; font-size: .9rem; }
  form { margin: .75rem 0; } fieldset { border: 1px solid #d0d0d5; border-radius: 8px; padding: 1rem; }
  label { display: block; margin: .5rem 0; } input[type=text], input[type=email] { width: 100%; box-sizing: border-box; padding: .4rem; }
  button { padding: .5rem 1rem; border-radius: 6px; border: 1px solid #4a6cf7; background: #4a6cf7; color: white; cursor: pointer; width: 100%; }
  button.deny { background: white; color: #b3261e; border-color: #b3261e; } .known button { background: white; color: #2f55d4; text-align: left; }
  .error { color: #b3261e; }
`;

function html(title: string, body: string, status = 200): Response {
  const page =
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>` +
    `<meta name="viewport" content="width=device-width, initial-scale=1"><style>${STYLE}</style></head><body>${body}</body></html>`;
  return new Response(page, { status, headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" } });
}

const hidden = (fields: Readonly<Record<string, string>>) =>
  Object.entries(fields)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join("");

/** Identities this provider has seen: accounts linked to users (any project), then ones typed here before; each once. */
function knownIdentities(store: Store, provider: string): { account_id: string; email: string | null; name: string | null }[] {
  const seen = new Map<string, { account_id: string; email: string | null; name: string | null }>();
  for (const user of store.users()) {
    for (const account of user.oauth_providers) {
      if (account.id === provider && !seen.has(account.account_id))
        seen.set(account.account_id, { account_id: account.account_id, email: account.email ?? null, name: user.display_name });
    }
  }
  for (const record of store.oauthCodes()) {
    const identity = record.data as unknown as Identity;
    if (record.kind === "provider_grant" && identity.provider === provider && !seen.has(identity.account_id))
      seen.set(identity.account_id, identity);
  }
  return [...seen.values()];
}

/** GET: the consent page for the authorize request in the query. */
function consentPage(store: Store, provider: string, query: URLSearchParams, problem?: string): Response {
  const state = query.get("state") ?? "";
  const redirectUri = query.get("redirect_uri") ?? "";
  const scope = query.get("scope") ?? "";
  const flow = store.oauthCode(state);
  const app = flow?.kind === "flow" ? store.project(flow.project_id)?.display_name : undefined;
  const action = escapeHtml(providerPagePath(provider));
  const carried = { state, redirect_uri: redirectUri, scope };
  const known = knownIdentities(store, provider)
    .map((identity, i) => {
      const label =
        identity.name && identity.email ? `${identity.name} (${identity.email})` : (identity.email ?? identity.name ?? identity.account_id);
      return (
        `<form class="known" method="post" action="${action}" data-testid="oauth-known-identity" data-account-id="${escapeHtml(identity.account_id)}">` +
        hidden({
          ...carried,
          action: "continue",
          account_id: identity.account_id,
          email: identity.email ?? "",
          name: identity.name ?? "",
          email_verified: "true",
        }) +
        `<button type="submit" id="oauth-continue-as-${i}" data-testid="oauth-continue-as">Continue as ${escapeHtml(label)}</button></form>`
      );
    })
    .join("");
  const title = `Sign in with ${nameOf(provider)}`;
  return html(
    title,
    `<h1>${escapeHtml(title)}</h1>` +
      `<p class="meta">${app ? `<strong>${escapeHtml(app)}</strong> asks` : "An app asks"} for your ${escapeHtml(nameOf(provider))} account` +
      `${scope ? ` (scopes: <code data-testid="oauth-scopes">${escapeHtml(scope)}</code>)` : ""}. This provider is emulated: no real account is used.</p>` +
      (problem ? `<p class="error" data-testid="oauth-error">${escapeHtml(problem)}</p>` : "") +
      known +
      `<form id="oauth-identity-form" data-testid="oauth-identity-form" method="post" action="${action}"><fieldset>` +
      hidden({ ...carried, action: "continue" }) +
      `<label>E-mail <input type="email" id="oauth-email" data-testid="oauth-email" name="email" autocomplete="off"></label>` +
      `<label>Name <input type="text" id="oauth-name" data-testid="oauth-name" name="name" autocomplete="off"></label>` +
      `<label>Account id (default: the e-mail) <input type="text" id="oauth-account-id" data-testid="oauth-account-id" name="account_id" autocomplete="off"></label>` +
      `<label><input type="checkbox" id="oauth-email-verified" data-testid="oauth-email-verified" name="email_verified" value="true" checked> The provider has verified this e-mail</label>` +
      `<button type="submit" id="oauth-continue" data-testid="oauth-continue">Continue</button></fieldset></form>` +
      `<form id="oauth-deny-form" method="post" action="${action}">${hidden({ ...carried, action: "deny" })}` +
      `<button type="submit" class="deny" id="oauth-deny" data-testid="oauth-deny">Deny</button></form>`,
    problem ? 400 : 200,
  );
}

/** A 303 to the service's callback with `params`, the way a provider answers a consent form. */
function backTo(redirectUri: URL, params: Readonly<Record<string, string>>): Response {
  const target = new URL(redirectUri);
  for (const [name, value] of Object.entries(params)) target.searchParams.set(name, value);
  return new Response(null, { status: 303, headers: { location: target.toString(), "cache-control": "no-store" } });
}

/** POST: the consent form. Only the service's callback on this emulator is a registered redirect_uri. */
async function decide(request: Request, url: URL, store: Store, provider: string): Promise<Response> {
  const form = new URLSearchParams(await request.text());
  const field = (name: string) => (form.get(name) ?? "").trim();
  const ctx = contextOf(store);
  const redirectUri = URL.canParse(field("redirect_uri")) ? new URL(field("redirect_uri")) : null;
  const origins = [url.origin, ctx ? new URL(ctx.apiOrigin).origin : url.origin];
  if (!ctx || !redirectUri || redirectUri.pathname !== callbackPath(provider) || !origins.includes(redirectUri.origin)) {
    return html(
      "Bad request",
      `<h1>Bad request</h1><p class="error">This sign-in request is unknown here (redirect_uri is not registered with ${escapeHtml(nameOf(provider))}). Start again from the app.</p>`,
      400,
    );
  }
  const state = field("state");
  if (field("action") === "deny")
    return backTo(redirectUri, { error: "access_denied", error_description: "The user denied the request.", state });
  if (field("action") !== "continue") return consentPage(store, provider, form, "Choose an account, or deny.");
  const email = field("email") || null;
  if (email !== null && !/^[^\s@]+@[^\s@]+$/.test(email)) return consentPage(store, provider, form, `"${email}" is not an e-mail address.`);
  const accountId = field("account_id") || email;
  if (accountId === null) return consentPage(store, provider, form, "Type an e-mail or an account id.");
  const identity: Identity = {
    provider,
    state,
    account_id: accountId,
    email,
    name: field("name") || null,
    email_verified: email !== null && field("email_verified") === "true",
  };
  const code = randomString(40);
  const flow = store.oauthCode(state);
  putOAuthCode(ctx, {
    kind: "provider_grant",
    id: code,
    projectId: flow?.project_id ?? "",
    lifetimeMs: PROVIDER_GRANT_LIFETIME_MS,
    data: identity,
  });
  return backTo(redirectUri, { code, state });
}

/** `/emulator/oauth/{provider}/authorize` (GET the page, POST its forms) and `/emulator/oauth/{provider}/callback`; undefined for other paths. */
export async function oauthProviderRoutes(request: Request, url: URL, store: Store): Promise<Response | undefined> {
  if (!url.pathname.startsWith(OAUTH_PROVIDER_PREFIX)) return undefined;
  const [rawProvider, step, ...rest] = url.pathname.slice(OAUTH_PROVIDER_PREFIX.length).split("/");
  let provider: string;
  try {
    provider = decodeURIComponent(rawProvider ?? "");
  } catch {
    return undefined;
  }
  if (provider === "" || rest.length > 0) return undefined;
  const method = request.method === "HEAD" ? "GET" : request.method;
  if (step === "callback" && method === "GET") return oauthCallback(url, request.headers, store, provider);
  if (step === "authorize" && method === "GET") return consentPage(store, provider, url.searchParams);
  if (step === "authorize" && method === "POST") return decide(request, url, store, provider);
  if (step === "callback" || step === "authorize")
    return new Response(null, { status: 405, headers: { allow: step === "callback" ? "GET" : "GET, POST" } });
  return undefined;
}
