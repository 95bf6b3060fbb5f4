// StackClientApp: the end-user half of the product with the reference SDK's
// public API. It wires the context (runtime client, URLs, navigation, browser)
// and delegates every feature to its flow or object module.
import type { Client } from "openapi-fetch";
import { isKnownError } from "../../generated/known-errors.js";
import type { components, paths } from "../../generated/schema.js";
import { createStackClient, type StackClient } from "../client.js";
import type { OwnerSession } from "../pipeline.js";
import type { Environment } from "../env.js";
import { StackAssertionError, StackConfigurationError, UserNotSignedInError } from "../errors.js";
import type { SessionManager } from "../session.js";
import type { TokenStoreInit } from "../tokens/resolve.js";
import { VERSION } from "../version.js";
import { platformBrowser, type Browser } from "./browser.js";
import type { ClientAppContext, RedirectMethod } from "./context.js";
import { createAnonymousSignUp } from "./flows/anonymous.js";
import { completeCliLogin, promptCliLogin, type PromptCliLoginOptions } from "./flows/cli.js";
import { sendMagicLinkEmail, signInWithMagicLink } from "./flows/magic-link.js";
import { signInWithMfa, type AfterAuthRedirects, type SignInOptions } from "./flows/mfa.js";
import { callOAuthCallback, signInWithOAuth, type RedirectAfterSignIn } from "./flows/oauth.js";
import { registerPasskey, signInWithPasskey } from "./flows/passkey.js";
import {
  resetPassword,
  sendForgotPasswordEmail,
  signInWithCredential,
  signUpWithCredential,
  verifyPasswordResetCode,
} from "./flows/password.js";
import { signOut } from "./flows/sign-out.js";
import { acceptTeamInvitation, getTeamInvitationDetails, verifyTeamInvitationCode } from "./flows/team-invitations.js";
import { verifyEmail } from "./flows/verification.js";
import { getProject, type Project } from "./objects/project.js";
import { createCurrentUser, type CurrentUser } from "./objects/user.js";
import { createNavigator, createRedirectMethods, trustedOriginsOf, type RedirectMethods } from "./redirect.js";
import { resolveHandlerUrls, type HandlerUrls } from "./urls.js";

export type GetUserOr = "redirect" | "throw" | "return-null" | "anonymous" | "anonymous-if-exists";

export interface GetUserOptions {
  /** What to do when nobody is signed in. Default "return-null". Anonymous users count as nobody unless "anonymous" or "anonymous-if-exists". */
  readonly or?: GetUserOr;
}

export interface StackClientAppOptions {
  readonly projectId: string;
  readonly publishableClientKey?: string;
  /** Where the user's tokens live: "cookie", "memory", a request object, { accessToken, refreshToken }, or null for no user. */
  readonly tokenStore: TokenStoreInit;
  /** The API's origin; default https://api.stack-auth.com. `{ browser, server }` picks by where the code runs. */
  readonly baseUrl?: string | { readonly browser: string; readonly server: string };
  readonly urls?: Partial<HandlerUrls>;
  /** "window" (default in a browser), "none", or `{ navigate(url) }` for a router. */
  readonly redirectMethod?: RedirectMethod;
  readonly extraRequestHeaders?: Readonly<Record<string, string>>;
  /** Extra provider scopes asked for at OAuth sign-in, per provider. */
  readonly oauthScopesOnSignIn?: Readonly<Partial<Record<string, readonly string[]>>>;
  /** Do not fetch the project when the app is constructed. */
  readonly noAutomaticPrefetch?: boolean;
  /** Replaces parts of the platform (fetch, clock, timers, randomness). */
  readonly environment?: Partial<Environment>;
  /** The browser to use; default the global window, null where there is none. */
  readonly browser?: Browser | null;
}

/** The settings a subclass (server or admin app) adds to the runtime client. */
export interface RuntimeClientSettings {
  readonly accessType?: "client" | "server" | "admin";
  readonly secretServerKey?: string;
  readonly superSecretAdminKey?: string;
  /** Admin apps acting for a project owner: the owner's session in the internal project, instead of keys. */
  readonly projectOwnerSession?: OwnerSession;
}

export interface StackClientApp extends RedirectMethods {}

export class StackClientApp {
  readonly projectId: string;
  readonly version = VERSION;
  readonly urls: HandlerUrls;
  /** Typed calls over every operation of the API, with this app's headers, tokens and retries. */
  readonly api: Client<paths>;
  protected readonly ctx: ClientAppContext;
  protected readonly runtime: StackClient;
  readonly #anonymousSignUp: () => Promise<void>;
  #project: Promise<Project> | null = null;

  constructor(options: StackClientAppOptions, settings: RuntimeClientSettings = {}) {
    const browser = options.browser === undefined ? platformBrowser() : options.browser;
    const baseUrl = pickBaseUrl(options.baseUrl, browser);
    this.runtime = createStackClient({
      projectId: options.projectId,
      accessType: settings.accessType ?? "client",
      ...defined({
        baseUrl,
        publishableClientKey: options.publishableClientKey,
        secretServerKey: settings.secretServerKey,
        superSecretAdminKey: settings.superSecretAdminKey,
        projectOwnerSession: settings.projectOwnerSession,
        extraRequestHeaders: options.extraRequestHeaders,
        environment: options.environment,
      }),
      tokenStore: options.tokenStore,
    });
    const runtime = this.runtime;
    this.projectId = options.projectId;
    this.urls = resolveHandlerUrls(options.urls);
    this.api = runtime.api;
    const redirectMethod = options.redirectMethod ?? (browser ? "window" : "none");
    const navigate = createNavigator({ redirectMethod, browser, env: runtime.env, trustedOrigins: trustedOriginsOf(this.urls) });
    this.ctx = {
      client: runtime,
      env: runtime.env,
      projectId: options.projectId,
      publishableClientKey: options.publishableClientKey,
      baseUrl: (baseUrl ?? "https://api.stack-auth.com").replace(/\/+$/, ""),
      urls: this.urls,
      redirectMethod,
      oauthScopesOnSignIn: Object.fromEntries(
        Object.entries(options.oauthScopesOnSignIn ?? {}).filter((e): e is [string, readonly string[]] => Array.isArray(e[1])),
      ),
      browser,
      sessions: () => runtime.requireSessions(),
      signIn: (tokens) => void runtime.requireSessions().signIn({ refreshToken: tokens.refresh_token, accessToken: tokens.access_token }),
      redirect: navigate,
      absoluteUrl: (pathOrUrl) => absoluteUrl(pathOrUrl, browser),
    };
    Object.assign(this, createRedirectMethods(this.ctx));
    this.#anonymousSignUp = createAnonymousSignUp(this.ctx);
    if (!options.noAutomaticPrefetch && browser) this.getProject().catch(() => undefined);
  }

  // THE CURRENT USER

  getUser(options: GetUserOptions & { readonly or: "redirect" | "throw" | "anonymous" }): Promise<CurrentUser>;
  getUser(options?: GetUserOptions): Promise<CurrentUser | null>;
  async getUser(options: GetUserOptions = {}): Promise<CurrentUser | null> {
    const or = options.or ?? "return-null";
    const sessions = this.ctx.sessions();
    const asked = sessions.current();
    let wire = await this.#fetchCurrentUser(sessions);
    const anonymousCounts = or === "anonymous" || or === "anonymous-if-exists";
    if (wire?.is_anonymous && !anonymousCounts) wire = null;
    if (wire === null && or === "anonymous") {
      // Another call may have signed up while this one waited; then use that user.
      if (sessions.current() === asked) await this.#anonymousSignUp();
      wire = await this.#fetchCurrentUser(sessions);
      if (wire === null) throw new StackAssertionError("The anonymous sign-up succeeded, but the service does not know its user.");
    }
    if (wire !== null) return this.#userFrom(wire);
    if (or === "throw") throw new UserNotSignedInError("User is not signed in but getUser was called with { or: 'throw' }");
    if (or === "redirect") {
      await this.redirectToSignIn({ replace: true });
      throw new UserNotSignedInError("User is not signed in; getUser({ or: 'redirect' }) sent the browser to the sign-in page.");
    }
    return null;
  }

  /** Signs the current session out (anonymous ones too) and goes to after-sign-out, or to `redirectUrl`. */
  async signOut(options: { readonly redirectUrl?: string | URL } = {}): Promise<void> {
    await signOut(this.ctx, options, { redirectAfterSignOut: () => this.redirectToAfterSignOut() });
  }

  /**
   * Calls `listener` when the signed-in session changes: a sign-in, a sign-out,
   * or either happening in another tab. Access-token refreshes of the same
   * session are not changes. Returns the function that stops listening.
   */
  onSessionChange(listener: () => void): () => void {
    const sessions = this.runtime.sessions;
    if (!sessions) return () => undefined;
    const identity = (t: { refreshToken: string | null; accessToken: string | null }) => t.refreshToken ?? `access:${t.accessToken ?? ""}`;
    let last = identity(sessions.store.get());
    return sessions.store.subscribe((tokens) => {
      // An access-only session changes identity with its token; a refresh-token session does not.
      const next = identity(tokens);
      if (next === last) return;
      last = next;
      listener();
    });
  }

  /** `{ accessToken, refreshToken }` of the current session, for the app's own backend. */
  async getAuthJson(): Promise<{ accessToken: string | null; refreshToken: string | null }> {
    const tokens = await this.ctx.sessions().current().getTokens();
    return { accessToken: tokens?.accessToken ?? null, refreshToken: tokens?.refreshToken ?? null };
  }

  /** The `x-stack-auth` header a browser sends to the app's own backend. */
  async getAuthHeaders(): Promise<{ "x-stack-auth": string }> {
    return { "x-stack-auth": JSON.stringify(await this.getAuthJson()) };
  }

  // THE PROJECT

  /** The client view of the project; fetched once, again after a failure. */
  getProject(): Promise<Project> {
    this.#project ??= getProject(this.ctx).catch((error: unknown) => {
      this.#project = null;
      throw error;
    });
    return this.#project;
  }

  // SIGN-IN AND ACCOUNT FLOWS

  signInWithCredential(options: { readonly email: string; readonly password: string; readonly noRedirect?: boolean }) {
    return signInWithCredential(this.ctx, options, this.#afterAuth);
  }
  signUpWithCredential(options: {
    readonly email: string;
    readonly password: string;
    readonly noRedirect?: boolean;
    readonly verificationCallbackUrl?: string;
  }) {
    return signUpWithCredential(this.ctx, options, this.#afterAuth);
  }
  sendForgotPasswordEmail(email: string, options?: { readonly callbackUrl?: string }) {
    return sendForgotPasswordEmail(this.ctx, email, options);
  }
  verifyPasswordResetCode(code: string) {
    return verifyPasswordResetCode(this.ctx, code);
  }
  resetPassword(options: { readonly code: string; readonly password: string }) {
    return resetPassword(this.ctx, options);
  }
  verifyEmail(code: string) {
    return verifyEmail(this.ctx, code);
  }
  sendMagicLinkEmail(email: string, options?: { readonly callbackUrl?: string }) {
    return sendMagicLinkEmail(this.ctx, email, options);
  }
  signInWithMagicLink(code: string, options?: SignInOptions) {
    return signInWithMagicLink(this.ctx, code, options, this.#afterAuth);
  }
  signInWithMfa(totp: string, attemptCode: string, options?: SignInOptions) {
    return signInWithMfa(this.ctx, totp, attemptCode, options, this.#afterAuth);
  }
  signInWithPasskey() {
    return signInWithPasskey(this.ctx, { redirectAfter: this.#afterOAuth });
  }
  signInWithOAuth(provider: string, options?: { readonly returnTo?: string }) {
    return signInWithOAuth(this.ctx, provider, options);
  }
  callOAuthCallback() {
    return callOAuthCallback(this.ctx, { redirectAfter: this.#afterOAuth });
  }
  promptCliLogin(options: PromptCliLoginOptions) {
    return promptCliLogin(this.ctx, options);
  }
  /** The browser side of a command-line login: hands the signed-in user's session to the waiting tool. */
  completeCliLogin(loginCode: string) {
    return completeCliLogin(this.ctx, loginCode);
  }
  verifyTeamInvitationCode(code: string) {
    return verifyTeamInvitationCode(this.ctx, code);
  }
  acceptTeamInvitation(code: string) {
    return acceptTeamInvitation(this.ctx, code);
  }
  getTeamInvitationDetails(code: string) {
    return getTeamInvitationDetails(this.ctx, code);
  }

  // INTERNALS

  readonly #afterAuth: AfterAuthRedirects = {
    redirectAfter: (kind) =>
      kind === "sign-up" ? this.redirectToAfterSignUp({ replace: true }) : this.redirectToAfterSignIn({ replace: true }),
  };

  readonly #afterOAuth: RedirectAfterSignIn = (target) =>
    "url" in target ? this.ctx.redirect(target.url, { replace: true }) : this.#afterAuth.redirectAfter(target.kind);

  async #fetchCurrentUser(sessions: SessionManager): Promise<components["schemas"]["ClientUser"] | null> {
    if (sessions.current().isKnownInvalid) return null;
    try {
      const { data } = await this.api.GET("/users/me");
      return (data as components["schemas"]["ClientUser"] | undefined) ?? null;
    } catch (error) {
      if (isKnownError(error, "CANNOT_GET_OWN_USER_WITHOUT_USER")) return null;
      throw error;
    }
  }

  #userFrom(wire: components["schemas"]["ClientUser"]): CurrentUser {
    return createCurrentUser(this.ctx, wire, {
      signOut: (options) => this.signOut(options ?? {}),
      registerPasskey: (options) => registerPasskey(this.ctx, options ?? {}),
    });
  }
}

function pickBaseUrl(option: StackClientAppOptions["baseUrl"], browser: Browser | null): string | undefined {
  if (option === undefined || typeof option === "string") return option;
  return browser ? option.browser : option.server;
}

function absoluteUrl(pathOrUrl: string, browser: Browser | null): string {
  if (URL.canParse(pathOrUrl)) return new URL(pathOrUrl).toString();
  if (/^[a-z][a-z0-9+.-]*:/i.test(pathOrUrl)) throw new StackConfigurationError(`"${pathOrUrl}" is not a valid URL.`);
  if (!browser) {
    throw new StackConfigurationError(
      `"${pathOrUrl}" is relative and there is no page to resolve it against here; pass an absolute URL (for example https://your-app.example.com${pathOrUrl}).`,
    );
  }
  return new URL(pathOrUrl, browser.location.href).toString();
}

/** The entries of `o` whose value is not undefined (for exactOptionalPropertyTypes). */
function defined<T extends Record<string, unknown>>(o: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as { [K in keyof T]?: Exclude<T[K], undefined> };
}
