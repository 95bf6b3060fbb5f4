// StackClientApp: the end-user half of the product with the reference SDK's
// public API. It wires the context (runtime client, URLs, navigation, browser)
// and delegates every feature to its flow or object module.
import type { Client } from "openapi-fetch";
import type { components, paths } from "../../generated/schema.js";
import { createStackClient, type StackClient, type StackClientOptions } from "../client.js";
import type { OwnerSession } from "../pipeline.js";
import type { Environment } from "../env.js";
import { StackConfigurationError, UserNotSignedInError } from "../errors.js";
import type { TokenStoreInit } from "../tokens/resolve.js";
import { VERSION } from "../version.js";
import { platformBrowser, type Browser } from "./browser.js";
import { callOf, checkAborted, untilAborted, type CallOptions } from "./call-options.js";
import type { ClientAppContext, RedirectMethod } from "./context.js";
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
import {
  createSessionContexts,
  sessionContextOf,
  signedInUserWire,
  type SessionContext,
  type SessionContexts,
} from "./session-contexts.js";
import { resolveHandlerUrls, type HandlerUrls } from "./urls.js";

/** `"anonymous-if-exists[deprecated]"` is the newer reference SDK's name of `"anonymous-if-exists"`. */
export type GetUserOr = "redirect" | "throw" | "return-null" | "anonymous" | "anonymous-if-exists" | "anonymous-if-exists[deprecated]";

export interface GetUserOptions {
  /** What to do when nobody is signed in. Default "return-null". Anonymous users count as nobody unless "anonymous" or "anonymous-if-exists". */
  readonly or?: GetUserOr;
  /**
   * The user's tokens for this call, in place of the app's store: a request of
   * your backend (its `x-stack-auth` header or cookies), `{ accessToken, refreshToken }`,
   * or any store. Calls with the same tokens share one session.
   */
  readonly tokenStore?: TokenStoreInit;
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
  /**
   * How long one attempt may wait for its answer, in ms (default 30000; 0: no
   * limit). A timed-out GET, PUT or DELETE is retried; a POST or PATCH fails at
   * once with a RequestTimeoutError.
   */
  readonly requestTimeoutMs?: number;
  /**
   * The longest `Retry-After` the app waits, in ms (default 2147483647). A 429
   * asking for longer fails at once with a RateLimitError carrying `retryAfterMs`.
   */
  readonly maxRetryAfterMs?: number;
  /** Called before each request attempt, for logs and traces; tokens and keys are redacted. */
  readonly onRequest?: StackClientOptions["onRequest"];
  /** Called before each retry, with its reason and delay; tokens and keys are redacted. */
  readonly onRetry?: StackClientOptions["onRetry"];
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
  /** The app's own session (its token store). */
  protected readonly ownSession: SessionContext;
  /** Sessions named per call (`getUser({ tokenStore })`), in a bounded cache. */
  protected readonly sessionContexts: SessionContexts;
  #project: Promise<Project> | null = null;

  constructor(options: StackClientAppOptions, settings: RuntimeClientSettings = {}) {
    const browser = options.browser === undefined ? platformBrowser() : options.browser;
    const baseUrl = pickBaseUrl(options.baseUrl, browser);
    const runtimeOptions: Omit<StackClientOptions, "tokenStore"> = {
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
        requestTimeoutMs: options.requestTimeoutMs,
        maxRetryAfterMs: options.maxRetryAfterMs,
        onRequest: options.onRequest,
        onRetry: options.onRetry,
      }),
    };
    this.runtime = createStackClient({ ...runtimeOptions, tokenStore: options.tokenStore });
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
    this.ownSession = sessionContextOf(this.ctx, runtime);
    // Per-call sessions share the app's environment: the same fetch, clock and keys.
    this.sessionContexts = createSessionContexts(this.ctx, { ...runtimeOptions, environment: runtime.env });
    if (!options.noAutomaticPrefetch && browser) this.getProject().catch(() => undefined);
  }

  // THE CURRENT USER

  getUser(options: GetUserOptions & CallOptions & { readonly or: "redirect" | "throw" | "anonymous" }): Promise<CurrentUser>;
  getUser(options?: GetUserOptions & CallOptions): Promise<CurrentUser | null>;
  async getUser(options: GetUserOptions & CallOptions = {}): Promise<CurrentUser | null> {
    // Nobody signed in is answered without a request; an aborted call still rejects.
    checkAborted(options);
    const session = this.sessionOf(options);
    const or = orOf(options);
    const call = callOf(options);
    const wire = await signedInUserWire(session, or, (answer) => answer as components["schemas"]["ClientUser"], call);
    if (wire !== null) return this.#userFrom(session, wire);
    return this.signedOutUser(or, call);
  }

  /** The session a getUser call reads: the one its `tokenStore` names, or the app's own. */
  protected sessionOf(options: { readonly tokenStore?: TokenStoreInit }): SessionContext {
    if (typeof options !== "object" || options === null) {
      throw new StackConfigurationError("getUser takes options: { or?, tokenStore? }.");
    }
    return options.tokenStore === undefined ? this.ownSession : this.sessionContexts.of(options.tokenStore);
  }

  /**
   * What getUser answers when nobody is signed in: `or: "throw"` throws; `or:
   * "redirect"` goes to sign-in and then, as in the reference SDK, resolves
   * null once the navigation is handed over (the page is leaving). Where
   * nothing can navigate (redirectMethod "none") that redirect is reported by
   * throwing instead of handing back null where a user was promised.
   */
  protected async signedOutUser(or: GetUserOr, call: CallOptions = {}): Promise<null> {
    if (or === "throw") throw new UserNotSignedInError("User is not signed in but getUser was called with { or: 'throw' }");
    if (or === "redirect") {
      if (this.ctx.redirectMethod === "none") {
        throw new UserNotSignedInError(
          "User is not signed in; getUser({ or: 'redirect' }) cannot go to the sign-in page because this app's redirectMethod is \"none\".",
        );
      }
      await this.redirectToSignIn({ replace: true, ...call });
    }
    return null;
  }

  /** Signs the current session out (anonymous ones too) and goes to after-sign-out, or to `redirectUrl`. */
  async signOut(options: { readonly redirectUrl?: string | URL } & CallOptions = {}): Promise<void> {
    await signOut(this.ctx, options, { redirectAfterSignOut: (call) => this.redirectToAfterSignOut(call) });
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
  async getAuthJson(options?: CallOptions): Promise<{ accessToken: string | null; refreshToken: string | null }> {
    checkAborted(options);
    // A refresh may be shared with other callers: an aborted call only stops waiting for it.
    const tokens = await untilAborted(this.ctx.sessions().current().getTokens(), options);
    return { accessToken: tokens?.accessToken ?? null, refreshToken: tokens?.refreshToken ?? null };
  }

  /** The `x-stack-auth` header a browser sends to the app's own backend. */
  async getAuthHeaders(options?: CallOptions): Promise<{ "x-stack-auth": string }> {
    return { "x-stack-auth": JSON.stringify(await this.getAuthJson(options)) };
  }

  // THE PROJECT

  /**
   * The client view of the project; fetched once, again after a failure. Every
   * caller shares that one read, so it is sent without any caller's signal: an
   * aborted call stops waiting, and the read goes on for the others.
   */
  async getProject(options?: CallOptions): Promise<Project> {
    checkAborted(options);
    this.#project ??= getProject(this.ctx).catch((error: unknown) => {
      this.#project = null;
      throw error;
    });
    return untilAborted(this.#project, options);
  }

  // SIGN-IN AND ACCOUNT FLOWS

  signInWithCredential(options: { readonly email: string; readonly password: string; readonly noRedirect?: boolean } & CallOptions) {
    return signInWithCredential(this.ctx, options, this.#afterAuth);
  }
  signUpWithCredential(
    options: {
      readonly email: string;
      readonly password: string;
      readonly noRedirect?: boolean;
      readonly verificationCallbackUrl?: string;
    } & CallOptions,
  ) {
    return signUpWithCredential(this.ctx, options, this.#afterAuth);
  }
  sendForgotPasswordEmail(email: string, options?: { readonly callbackUrl?: string } & CallOptions) {
    return sendForgotPasswordEmail(this.ctx, email, options);
  }
  verifyPasswordResetCode(code: string, options?: CallOptions) {
    return verifyPasswordResetCode(this.ctx, code, options);
  }
  resetPassword(options: { readonly code: string; readonly password: string } & CallOptions) {
    return resetPassword(this.ctx, options);
  }
  verifyEmail(code: string, options?: CallOptions) {
    return verifyEmail(this.ctx, code, options);
  }
  sendMagicLinkEmail(email: string, options?: { readonly callbackUrl?: string } & CallOptions) {
    return sendMagicLinkEmail(this.ctx, email, options);
  }
  signInWithMagicLink(code: string, options?: SignInOptions) {
    return signInWithMagicLink(this.ctx, code, options, this.#afterAuth);
  }
  signInWithMfa(totp: string, attemptCode: string, options?: SignInOptions) {
    return signInWithMfa(this.ctx, totp, attemptCode, options, this.#afterAuth);
  }
  signInWithPasskey(options?: CallOptions) {
    return signInWithPasskey(this.ctx, { redirectAfter: this.#afterOAuth, ...callOf(options) });
  }
  signInWithOAuth(provider: string, options?: { readonly returnTo?: string } & CallOptions) {
    return signInWithOAuth(this.ctx, provider, options);
  }
  callOAuthCallback(options?: CallOptions) {
    return callOAuthCallback(this.ctx, { redirectAfter: this.#afterOAuth, ...callOf(options) });
  }
  promptCliLogin(options: PromptCliLoginOptions) {
    return promptCliLogin(this.ctx, options);
  }
  /** The browser side of a command-line login: hands the signed-in user's session to the waiting tool. */
  completeCliLogin(loginCode: string, options?: CallOptions) {
    return completeCliLogin(this.ctx, loginCode, options);
  }
  verifyTeamInvitationCode(code: string, options?: CallOptions) {
    return verifyTeamInvitationCode(this.ctx, code, options);
  }
  acceptTeamInvitation(code: string, options?: CallOptions) {
    return acceptTeamInvitation(this.ctx, code, options);
  }
  getTeamInvitationDetails(code: string, options?: CallOptions) {
    return getTeamInvitationDetails(this.ctx, code, options);
  }

  // INTERNALS

  readonly #afterAuth: AfterAuthRedirects = {
    redirectAfter: (kind, call) =>
      kind === "sign-up"
        ? this.redirectToAfterSignUp({ replace: true, ...callOf(call) })
        : this.redirectToAfterSignIn({ replace: true, ...callOf(call) }),
  };

  readonly #afterOAuth: RedirectAfterSignIn = (target, call) =>
    "url" in target ? this.ctx.redirect(target.url, { replace: true, ...callOf(call) }) : this.#afterAuth.redirectAfter(target.kind, call);

  #userFrom(session: SessionContext, wire: components["schemas"]["ClientUser"]): CurrentUser {
    const ctx = session.ctx;
    return createCurrentUser(ctx, wire, {
      signOut: (options) => this.signOutOf(session, options),
      registerPasskey: (options) => registerPasskey(ctx, options ?? {}),
    });
  }

  /** Signs `session` out: the app's own as app.signOut does, a per-call session itself. */
  protected signOutOf(
    session: SessionContext,
    options: ({ readonly redirectUrl?: string | URL } & CallOptions) | undefined,
  ): Promise<void> {
    return session === this.ownSession
      ? this.signOut(options ?? {})
      : signOut(session.ctx, options ?? {}, { redirectAfterSignOut: (call) => this.redirectToAfterSignOut(call) });
  }
}

/** The `or` of getUser options, with the reference's other name of "anonymous-if-exists" read as it. */
export function orOf(options: { readonly or?: GetUserOr }): Exclude<GetUserOr, "anonymous-if-exists[deprecated]"> {
  return options.or === "anonymous-if-exists[deprecated]" ? "anonymous-if-exists" : (options.or ?? "return-null");
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
