// StackClientApp: the end-user half of the product with the reference SDK's
// public API. It wires the context (runtime client, URLs, navigation, browser;
// client-app-options.ts makes them of the options) and delegates every feature
// to its flow or object module; getUser's reading of who is signed in is
// signed-in-user.ts. The user, its objects and the e-mail and password flows
// are here from the start; OAuth, passkeys, multi-factor sign-in, command-line
// login (flows/loaders.ts) and owned projects with their admin apps are heavy
// and rarely on the first screen, so each loads on its first call.
import type { Client } from "openapi-fetch";
import type { components, paths } from "../../generated/schema.js";
import type { StackClient } from "../http/client.js";
import { platformBrowser } from "../platform/browser.js";
import { callOf, checkAborted, untilAborted, type CallOptions } from "./call-options.js";
import { StackConfigurationError } from "../errors.js";
import { lazy } from "../platform/lazy.js";
import type { TokenPair } from "../sessions/tokens/store.js";
import type { TokenStoreInit } from "../sessions/tokens/resolve.js";
import { CLIENT_VERSION } from "../version.js";
import { runtimeSettingsOf, setInternals, type RuntimeClientSettings } from "./app-internals.js";
import type { BotChallengeOptions } from "./bot-challenge-options.js";
import { runtimeClientOf, surroundingsOf, type GetUserOptions, type GetUserOr, type StackClientAppOptions } from "./client-app-options.js";
import { createClientAppContext, type ClientAppContext } from "./context.js";
import type { PromptCliLoginOptions } from "./flows/cli.js";
import { loadCli, loadConvex, loadMfa, loadOAuth, loadPasskey } from "./flows/loaders.js";
import type { ConvexAuthArgs } from "./convex-context.js";
import type { RedirectAfterSignIn } from "./flows/oauth.js";
import type { AfterAuthRedirects, SignInOptions } from "./flows/sign-in.js";
import { sendMagicLinkEmail, signInWithMagicLink } from "./flows/magic-link.js";
import { resetPassword, sendForgotPasswordEmail, verifyPasswordResetCode } from "./flows/password-reset.js";
import { signInWithCredential } from "./flows/password.js";
import { signOut, type SignOutRedirects } from "./flows/sign-out.js";
import { signUpWithCredential, type SignUpWithCredentialOptions } from "./flows/sign-up.js";
import { acceptTeamInvitation, getTeamInvitationDetails, verifyTeamInvitationCode } from "./flows/team-invitations.js";
import { verifyEmail } from "./flows/verification.js";
import { partialUser, type GetPartialUserOptions, type TokenPartialUser } from "./partial-user.js";
import { getProject, type Project } from "./objects/project.js";
import { createCurrentUser, type CurrentUser, type CurrentUserExtras } from "./objects/user.js";
import { createRedirectMethods, type RedirectMethods } from "./redirect-methods.js";
import { createTokenStoreContexts, tokenStoreContextOf, type TokenStoreContext, type TokenStoreContexts } from "./token-store-contexts.js";
import { currentUserOf, signedOutUser } from "./signed-in-user.js";
import { resolveHandlerUrls, type HandlerUrls } from "./urls.js";

// The projects a user of the internal project owns, each with its admin app: the
// one way from here to the admin app, loaded when they are first listed or created.
const loadOwnedProjects = /* @__PURE__ */ lazy("owned projects", () => import("./admin/owned-projects.js"));

// The options, beside the class that takes them.
export type { GetUserOptions, GetUserOr, StackClientAppOptions } from "./client-app-options.js";

export interface StackClientApp extends RedirectMethods {}

/**
 * The app of code acting for one end user, in a browser or beside one: the sign-in and sign-up
 * flows (password, magic link, passkey, OAuth, multi-factor, command-line login), the signed-in
 * user ({@link StackClientApp.getUser}, a {@link CurrentUser}), the project's public
 * configuration, and the redirects to the app's pages. It keeps the API of the reference SDK's
 * `StackClientApp`.
 *
 * @example
 * ```ts
 * const app = new StackClientApp({ projectId, publishableClientKey, tokenStore: "cookie" });
 * const user = await app.getUser();
 * console.log(user ? `Signed in as ${user.primaryEmail}` : "Nobody is signed in");
 * ```
 */
export class StackClientApp {
  readonly projectId: string;
  /**
   * What the app sends as `x-stack-client-version`: `js stackkit@<version>`. The official SDK's
   * `version` is likewise its header's value (`js @stackframe/js@<version>`); the package's own
   * version alone is `VERSION`.
   */
  readonly version = CLIENT_VERSION;
  readonly urls: HandlerUrls;
  /** Typed calls over every operation of the API, with this app's headers, tokens and retries. */
  readonly api: Client<paths>;
  protected readonly ctx: ClientAppContext;
  protected readonly runtime: StackClient;
  /** The app's own session (its token store). */
  protected readonly ownSession: TokenStoreContext;
  /** Sessions named per call (`getUser({ tokenStore })`), in a bounded cache made with the first such call. */
  protected sessionContexts: TokenStoreContexts | null = null;
  /** The `tokenStore` the app was made with: a call naming the same store (`"memory"`, the cookies) reads the app's own session. */
  private readonly ownTokenStore: TokenStoreInit;
  private projectRead: Promise<Project> | null = null;

  constructor(options: StackClientAppOptions) {
    const settings = new.target[runtimeSettingsOf](options);
    const browser = options.browser === undefined ? platformBrowser() : options.browser;
    this.runtime = runtimeClientOf(options, settings, browser);
    this.projectId = options.projectId;
    this.urls = resolveHandlerUrls(options.urls);
    this.api = this.runtime.api;
    this.ctx = createClientAppContext(this.runtime, surroundingsOf(options, browser, this.runtime.env, this.urls));
    setInternals(this, { ctx: this.ctx, settings });
    Object.assign(this, createRedirectMethods(this.ctx));
    this.ownSession = tokenStoreContextOf(this.ctx);
    this.ownTokenStore = options.tokenStore;
    // Nothing is fetched here: the project is read when something asks for it (getProject, and
    // what reads it), as the official SDK does; a page load that never needs it pays no request.
  }

  /**
   * The runtime client's settings for this class: a client app's has no keys.
   * @internal
   */
  protected static [runtimeSettingsOf](_options: StackClientAppOptions): RuntimeClientSettings {
    return { accessType: "client" };
  }

  // THE CURRENT USER

  getUser(options: GetUserOptions & CallOptions & { readonly or: "redirect" | "throw" | "anonymous" }): Promise<CurrentUser>;
  getUser(options?: GetUserOptions & CallOptions): Promise<CurrentUser | null>;
  /**
   * The signed-in user of the app's session, or of `tokenStore` (`GET /users/me`). When nobody is
   * signed in, `or` decides: `"return-null"` (default) resolves null, `"redirect"` goes to the
   * sign-in page, `"throw"` throws a UserNotSignedInError, `"anonymous"` signs up an anonymous user.
   *
   * @example
   * ```ts
   * const user = await app.getUser({ or: "redirect" });
   * console.log(user.displayName, user.primaryEmail);
   * const maybeUser = await app.getUser();
   * if (maybeUser === null) console.log("Nobody is signed in");
   * ```
   */
  getUser(options: GetUserOptions & CallOptions = {}): Promise<CurrentUser | null> {
    return this.currentUser(
      options,
      (answer) => answer as components["schemas"]["ClientUser"],
      async (ctx, wire) => createCurrentUser(ctx, wire, this.userExtras(ctx)),
    );
  }

  /** The getUser of both apps, on the session `options` names (signed-in-user.ts, currentUserOf). */
  protected async currentUser<W extends { readonly is_anonymous: boolean; readonly is_restricted?: boolean }, U>(
    options: GetUserOptions & CallOptions,
    read: (answer: NonNullable<unknown>) => W,
    build: (ctx: ClientAppContext, wire: W) => U | Promise<U>,
  ): Promise<U | null> {
    // Nobody signed in is answered without a request; an aborted call still rejects.
    checkAborted(options);
    return currentUserOf(await this.sessionOf(options), options, read, build, (or, call) => this.signedOutUser(or, call));
  }

  /** The session a getUser call reads: the one its `tokenStore` names, or the app's own. */
  protected async sessionOf(options: { readonly tokenStore?: TokenStoreInit }): Promise<TokenStoreContext> {
    if (typeof options !== "object" || options === null) {
      throw new StackConfigurationError("getUser takes options: { or?, includeRestricted?, tokenStore? }.");
    }
    if (options.tokenStore === undefined) return this.ownSession;
    this.sessionContexts ??= createTokenStoreContexts(this.ctx, { init: this.ownTokenStore, context: this.ownSession });
    return this.sessionContexts.of(options.tokenStore);
  }

  /**
   * The signed-in user as the session's access token describes it (the newest official SDK's
   * `getPartialUser`), without a request: its id, name, e-mail and whether it is verified,
   * anonymous, restricted or needs a second factor. Null when nobody is signed in, when the
   * access token has expired (getUser refreshes it; this does not), and for an anonymous user
   * unless `or: "anonymous-if-exists"`. Tokens of 2.8.11 carry the id alone: the other fields
   * then read as null and false. In a Convex function, `{ from: "convex", ctx }` reads the same
   * fields from the identity Convex made of the caller's token (`ctx.auth.getUserIdentity()`),
   * an anonymous caller included, as in the official SDK.
   *
   * @example
   * ```ts
   * const partial = await app.getPartialUser({ from: "token" });
   * renderHeader(partial ? (partial.displayName ?? partial.primaryEmail ?? "Signed in") : "Sign in");
   * // In a Convex query: const caller = await app.getPartialUser({ from: "convex", ctx });
   * ```
   */
  async getPartialUser(options: GetPartialUserOptions & CallOptions): Promise<TokenPartialUser | null> {
    checkAborted(options);
    return partialUser(options, (o) => this.sessionOf(o));
  }

  /**
   * The token getter of a Convex client (`convex.setAuth(app.getConvexClientAuth())`): the access
   * token of the app's session, or of `tokenStore`, with at least 20 s left and issued at most 75 s
   * ago (refreshed first otherwise), as the official SDK hands Convex its tokens; with
   * `forceRefreshToken` (Convex refused the last one) a newly issued one. Null when nobody is
   * signed in, and when the session cannot get a new token.
   *
   * @example
   * ```ts
   * const convex = new ConvexReactClient(process.env.CONVEX_URL!);
   * convex.setAuth(app.getConvexClientAuth());
   * ```
   */
  getConvexClientAuth(options: { readonly tokenStore?: TokenStoreInit } = {}): (args: ConvexAuthArgs) => Promise<string | null> {
    return async (args) => (await loadConvex()).convexClientAuthToken(await this.sessionOf(options), args);
  }

  /**
   * The access token for a Convex HTTP client (`convex.setAuth(await app.getConvexHttpClientAuth({ tokenStore: request }))`),
   * as getConvexClientAuth's getter answers it, or `""` when nobody is signed in.
   *
   * @example
   * ```ts
   * const convex = new ConvexHttpClient(process.env.CONVEX_URL!);
   * convex.setAuth(await app.getConvexHttpClientAuth({ tokenStore: request }));
   * ```
   */
  async getConvexHttpClientAuth(options: { readonly tokenStore?: TokenStoreInit } & CallOptions = {}): Promise<string> {
    checkAborted(options);
    const session = await this.sessionOf(options);
    // A refresh may be shared with other callers: this one only stops waiting.
    return untilAborted(
      loadConvex().then((m) => m.convexHttpClientAuth(session)),
      options,
    );
  }

  /** What getUser answers when nobody is signed in, as `or` asks (signed-in-user.ts). */
  protected async signedOutUser(or: GetUserOr, call: CallOptions = {}): Promise<null> {
    return signedOutUser(this.ctx, or, call, this.redirectToSignIn);
  }

  /**
   * What a user does through the app, on the context bound to its session
   * (`ctx`): its sign-out, which ends that session only and then goes where
   * app.signOut goes, its passkey registration, and (used for users of the
   * internal project only) the projects it owns, each with an admin app on that session.
   */
  protected userExtras(ctx: ClientAppContext): CurrentUserExtras {
    return {
      signOut: (options) => signOut(ctx, options ?? {}, this.afterSignOut),
      registerPasskey: (options) => loadPasskey().then((m) => m.registerPasskey(ctx, options ?? {})),
      ownedProjects: {
        createProject: (newProject) => loadOwnedProjects().then((m) => m.createProject(ctx, newProject)),
        listOwnedProjects: (options) => loadOwnedProjects().then((m) => m.listOwnedProjects(ctx, options)),
      },
    };
  }

  /**
   * Signs the current session out (anonymous ones too) and goes to after-sign-out, or to `redirectUrl`.
   * The session ends on the service (`DELETE /auth/sessions/current`) and the token store is cleared.
   *
   * @example
   * ```ts
   * document.querySelector("#sign-out")?.addEventListener("click", async () => {
   *   await app.signOut({ redirectUrl: "/goodbye" });
   * });
   * ```
   */
  async signOut(options: { readonly redirectUrl?: string | URL } & CallOptions = {}): Promise<void> {
    await signOut(this.ctx, options, this.afterSignOut);
  }

  /**
   * Calls `listener` when the signed-in session changes: a sign-in, a sign-out,
   * or either happening in another tab. Access-token refreshes of the same
   * session are not changes. Returns the function that stops listening.
   *
   * @example
   * ```ts
   * const stopListening = app.onSessionChange(async () => {
   *   const user = await app.getUser();
   *   renderHeader(user);
   * });
   * // Later, when the header goes away:
   * stopListening();
   * ```
   */
  onSessionChange(listener: () => void): () => void {
    const sessions = this.runtime.sessions;
    if (!sessions) return () => undefined;
    const identity = (t: TokenPair) => t.refreshToken ?? `access:${t.accessToken ?? ""}`;
    let last = identity(sessions.store.get());
    return sessions.store.subscribe((tokens) => {
      // An access-only session changes identity with its token; a refresh-token session does not.
      const next = identity(tokens);
      if (next === last) return;
      last = next;
      listener();
    });
  }

  /**
   * `{ accessToken, refreshToken }` of the current session, for the app's own backend; the access
   * token is refreshed first when it is about to expire, and both are null when nobody is signed in.
   *
   * @example
   * ```ts
   * const { accessToken } = await app.getAuthJson();
   * if (accessToken !== null) {
   *   await fetch("https://api.example.com/me", { headers: { Authorization: `Bearer ${accessToken}` } });
   * }
   * ```
   */
  async getAuthJson(options?: CallOptions): Promise<TokenPair> {
    checkAborted(options);
    // A refresh may be shared with other callers: an aborted call only stops waiting for it.
    const tokens = await untilAborted(this.ctx.sessions().current().getTokens(), options);
    return { accessToken: tokens?.accessToken ?? null, refreshToken: tokens?.refreshToken ?? null };
  }

  /**
   * The `x-stack-auth` header a browser sends to the app's own backend: the session's tokens as
   * JSON (see getAuthJson). The backend reads the user with `getUser({ tokenStore: request })`.
   *
   * @example
   * ```ts
   * const response = await fetch("/api/todos", {
   *   headers: await app.getAuthHeaders(),
   * });
   * const todos = await response.json();
   * ```
   */
  async getAuthHeaders(options?: CallOptions): Promise<{ "x-stack-auth": string }> {
    return { "x-stack-auth": JSON.stringify(await this.getAuthJson(options)) };
  }

  /**
   * The access token of the signed-in user of the app's session, or of `tokenStore`: the user is
   * read as `getUser({ tokenStore })` reads it (`GET /users/me`), then its `getAccessToken()`,
   * refreshed first when less than 20 s are left. Null when getUser answers null: nobody signed
   * in, and also an anonymous or restricted user, whom getUser leaves out by default.
   *
   * @example
   * ```ts
   * const accessToken = await app.getAccessToken();
   * if (accessToken !== null) {
   *   await fetch("https://api.example.com/me", { headers: { Authorization: `Bearer ${accessToken}` } });
   * }
   * ```
   */
  async getAccessToken(options: { readonly tokenStore?: TokenStoreInit } & CallOptions = {}): Promise<string | null> {
    const user = await this.getUser(options);
    return user === null ? null : user.getAccessToken(options);
  }

  /**
   * The refresh token of the signed-in user of the app's session, or of `tokenStore`, read as
   * {@link StackClientApp.getAccessToken} reads the user; null when getUser answers null, and for a
   * session held by an access token alone.
   *
   * @example
   * ```ts
   * const refreshToken = await app.getRefreshToken();
   * if (refreshToken !== null) await saveForTheCommandLineTool(refreshToken);
   * ```
   */
  async getRefreshToken(options: { readonly tokenStore?: TokenStoreInit } & CallOptions = {}): Promise<string | null> {
    const user = await this.getUser(options);
    return user === null ? null : user.getRefreshToken(options);
  }

  // THE PROJECT

  /**
   * The client view of the project; fetched once, again after a failure. Every
   * caller shares that one read, so it is sent without any caller's signal: an
   * aborted call stops waiting, and the read goes on for the others. Sent as `GET /projects/current`.
   *
   * @example
   * ```ts
   * const project = await app.getProject();
   * console.log(project.displayName);
   * if (project.config.signUpEnabled) showSignUpLink();
   * ```
   */
  async getProject(options?: CallOptions): Promise<Project> {
    checkAborted(options);
    this.projectRead ??= getProject(this.ctx).catch((error: unknown) => {
      this.projectRead = null;
      throw error;
    });
    return untilAborted(this.projectRead, options);
  }

  // SIGN-IN AND ACCOUNT FLOWS

  /**
   * Signs in with e-mail and password (`POST /auth/password/sign-in`), stores the tokens and, unless
   * `noRedirect`, goes to the after-sign-in page. A wrong password (EmailPasswordMismatch) and a user
   * with TOTP (MultiFactorAuthenticationRequired, whose `details.attempt_code` goes to signInWithMfa)
   * come back as error Results.
   *
   * @example
   * ```ts
   * const result = await app.signInWithCredential({ email, password });
   * if (result.status === "error") {
   *   if (result.error instanceof KnownErrors.EmailPasswordMismatch) showWrongPassword();
   *   if (result.error instanceof KnownErrors.MultiFactorAuthenticationRequired) askForTotp(result.error.details!.attempt_code);
   * }
   * ```
   */
  signInWithCredential(options: { readonly email: string; readonly password: string; readonly noRedirect?: boolean } & CallOptions) {
    return signInWithCredential(this.ctx, options, this.afterAuth);
  }
  /**
   * Creates a user with e-mail and password and signs it in (`POST /auth/password/sign-up`); a signed-in
   * anonymous user is upgraded instead. Unless `noRedirect`, goes to the after-sign-up page. The
   * verification e-mail links to `verificationCallbackUrl` (default: the app's e-mail-verification
   * page, left out when the service does not trust its domain); `noVerificationCallback: true` sends
   * no URL and so no e-mail (2.8.11 services require one). A taken address (UserWithEmailAlreadyExists)
   * and a weak password (PasswordRequirementsNotMet) come back as error Results.
   *
   * The bot challenge (services since 2.8.86) is the call's `botChallengeToken` and `botChallengePhase`
   * (or `botChallengeUnavailable`), sent once as given, else the app's `botChallenge` provider's tokens.
   * A failed invisible challenge (BotChallengeRequired: nothing was done, ask again with a visible
   * challenge's token) and a failed visible one (BotChallengeFailed) come back as error Results; a 2.8.11
   * service refuses the challenge, and the call rejects with a ServiceVersionError.
   *
   * @example
   * ```ts
   * const result = await app.signUpWithCredential({ email, password, noRedirect: true });
   * if (result.status === "error") {
   *   showError(result.error.message);
   * }
   * ```
   */
  signUpWithCredential(options: SignUpWithCredentialOptions & { readonly noRedirect?: boolean } & CallOptions) {
    return signUpWithCredential(this.ctx, options, this.afterAuth);
  }
  /**
   * E-mails a password-reset link to `callbackUrl` (default: the app's password-reset page), with
   * `POST /auth/password/send-reset-code`. An unknown address is a UserNotFound error Result.
   *
   * @example
   * ```ts
   * const result = await app.sendForgotPasswordEmail(email);
   * if (result.status === "error") {
   *   console.warn("No account with that address:", result.error.message);
   * }
   * ```
   */
  sendForgotPasswordEmail(email: string, options?: { readonly callbackUrl?: string } & CallOptions) {
    return sendForgotPasswordEmail(this.ctx, email, options);
  }
  /**
   * Checks the code of a password-reset link without using it up (`POST /auth/password/reset/check-code`).
   * An unknown, expired or used code is a VerificationCodeError Result.
   *
   * @example
   * ```ts
   * const code = new URL(location.href).searchParams.get("code") ?? "";
   * const result = await app.verifyPasswordResetCode(code);
   * if (result.status === "error") showExpiredLinkMessage();
   * ```
   */
  verifyPasswordResetCode(code: string, options?: CallOptions) {
    return verifyPasswordResetCode(this.ctx, code, options);
  }
  /**
   * Sets a new password with the code of a password-reset link (`POST /auth/password/reset`); the code
   * works once. An unknown, expired or used code is a VerificationCodeError Result.
   *
   * @example
   * ```ts
   * const code = new URL(location.href).searchParams.get("code") ?? "";
   * const result = await app.resetPassword({ code, password: newPassword });
   * if (result.status === "error") showExpiredLinkMessage();
   * else await app.redirectToSignIn();
   * ```
   */
  resetPassword(options: { readonly code: string; readonly password: string } & CallOptions) {
    return resetPassword(this.ctx, options);
  }
  /**
   * Marks the e-mail address of a verification link verified (`POST /contact-channels/verify`); the
   * code works once. An unknown, expired or used code is a VerificationCodeError Result.
   *
   * @example
   * ```ts
   * const code = new URL(location.href).searchParams.get("code") ?? "";
   * const result = await app.verifyEmail(code);
   * console.log(result.status === "ok" ? "E-mail verified" : result.error.message);
   * ```
   */
  verifyEmail(code: string, options?: CallOptions) {
    return verifyEmail(this.ctx, code, options);
  }
  /**
   * E-mails a magic link to `callbackUrl` (default: the app's magic-link-callback page) and a one-time
   * code (`POST /auth/otp/send-sign-in-code`). The answer's `nonce`, appended to the code the user types,
   * makes the code signInWithMagicLink takes. A callback URL the project does not allow is a
   * RedirectUrlNotWhitelisted error Result. The bot challenge goes with it as with signUpWithCredential
   * (`botChallengeToken`, `botChallengePhase`, `botChallengeUnavailable`, or the app's `botChallenge`), its
   * refusals BotChallengeRequired and BotChallengeFailed as error Results.
   *
   * @example
   * ```ts
   * const result = await app.sendMagicLinkEmail(email);
   * if (result.status === "error") throw result.error;
   * const typed = await askForCode();
   * await app.signInWithMagicLink(typed + result.data.nonce);
   * ```
   */
  sendMagicLinkEmail(email: string, options?: { readonly callbackUrl?: string } & BotChallengeOptions & CallOptions) {
    return sendMagicLinkEmail(this.ctx, email, options);
  }
  /**
   * Signs in with the code of a magic link, or the typed one-time code followed by the nonce
   * (`POST /auth/otp/sign-in`); stores the tokens and, unless `noRedirect`, goes to after-sign-up for
   * a new user, else to after-sign-in. A bad code (VerificationCodeError) and a user with TOTP
   * (MultiFactorAuthenticationRequired) come back as error Results.
   *
   * @example
   * ```ts
   * const code = new URL(location.href).searchParams.get("code") ?? "";
   * const result = await app.signInWithMagicLink(code);
   * if (result.status === "error") showError(result.error.message);
   * ```
   */
  signInWithMagicLink(code: string, options?: SignInOptions) {
    return signInWithMagicLink(this.ctx, code, options, this.afterAuth);
  }
  /**
   * Finishes a sign-in that answered MultiFactorAuthenticationRequired (`POST /auth/mfa/sign-in`):
   * `totp` is the six digits of the user's authenticator app, `attemptCode` that error's
   * `details.attempt_code` (valid for 5 minutes). A wrong code is an InvalidTotpCode Result, a stale or
   * used attempt code a VerificationCodeError Result.
   *
   * @example
   * ```ts
   * const result = await app.signInWithMfa(totpFromTheUser, attemptCode);
   * if (result.status === "error" && result.error instanceof KnownErrors.InvalidTotpCode) {
   *   showError("That code is not right; try the next one.");
   * }
   * ```
   */
  signInWithMfa(totp: string, attemptCode: string, options?: SignInOptions) {
    return loadMfa().then((m) => m.signInWithMfa(this.ctx, totp, attemptCode, options, this.afterAuth));
  }
  /**
   * Signs in with a passkey of this site in the browser, stores the tokens and goes to after-sign-in.
   * A cancelled or failed ceremony (PasskeyWebAuthnError), a rejected credential
   * (PasskeyAuthenticationFailed) and a user with TOTP (MultiFactorAuthenticationRequired) come back as
   * error Results; network and other server errors are thrown.
   *
   * @example
   * ```ts
   * const result = await app.signInWithPasskey();
   * if (result.status === "error") {
   *   showError(result.error.message);
   * }
   * ```
   */
  signInWithPasskey(options?: CallOptions) {
    return loadPasskey().then((m) => m.signInWithPasskey(this.ctx, { ...this.afterOAuth, ...callOf(options) }));
  }
  /**
   * Signs in with an OAuth provider (`"google"`, `"github"`, …): the browser leaves for the provider
   * and comes back to the oauth-callback page, where callOAuthCallback finishes. `returnTo` is where to
   * land afterwards instead of after-sign-in / after-sign-up. Needs a browser.
   *
   * With a bot challenge (the call's `botChallengeToken` and `botChallengePhase`, or
   * `botChallengeUnavailable`, or the app's `botChallenge` provider; services since 2.8.86), the
   * authorize call is fetched first (`stack_response_mode=json`) and the browser leaves only once it
   * passed. As the reference SDK's signInWithOAuth, it returns nothing and throws its failures:
   * BotChallengeRequired (ask again with a visible challenge's token) and BotChallengeFailed, the
   * browser still on the page; a ServiceVersionError from a 2.8.11 service, which has no challenge.
   *
   * @example
   * ```ts
   * document.querySelector("#github")?.addEventListener("click", async () => {
   *   await app.signInWithOAuth("github", { returnTo: "/projects" });
   * });
   * ```
   */
  signInWithOAuth(provider: string, options?: { readonly returnTo?: string } & BotChallengeOptions & CallOptions) {
    return loadOAuth().then((m) => m.signInWithOAuth(this.ctx, provider, options));
  }
  /**
   * Completes an OAuth sign-in on the oauth-callback page (`POST /auth/oauth/token`): stores the tokens,
   * redirects and resolves true; resolves false when the page is not a callback of a flow this browser
   * started. A user with TOTP makes it throw MultiFactorAuthenticationRequired; other failures throw
   * their typed errors.
   *
   * @example
   * ```ts
   * // On the page at app.urls.oauthCallback:
   * const handled = await app.callOAuthCallback();
   * if (!handled) await app.redirectToHome();
   * ```
   */
  callOAuthCallback(options?: CallOptions) {
    return loadOAuth().then((m) => m.callOAuthCallback(this.ctx, { ...this.afterOAuth, ...callOf(options) }));
  }
  /**
   * Logs a command-line tool in through the user's browser (`POST /auth/cli`, then polls
   * `POST /auth/cli/poll`) and answers the refresh token of the session the browser handed over. An
   * attempt that expires, was used or fails on the service comes back as a CliLoginError Result.
   *
   * @example
   * ```ts
   * const result = await app.promptCliLogin({ appUrl: "https://app.example.com", promptLink: (url) => console.log(`Open ${url}`) });
   * if (result.status === "error") throw result.error;
   * await saveRefreshToken(result.data);
   * ```
   */
  promptCliLogin(options: PromptCliLoginOptions) {
    return loadCli().then((m) => m.promptCliLogin(this.ctx, options));
  }
  /**
   * The browser side of a command-line login, for the cli-auth-confirm page: hands the signed-in
   * user's session to the waiting tool (`POST /auth/cli/complete`). An unknown or unusable code is a
   * SchemaError Result; without a signed-in user it throws a StackConfigurationError.
   *
   * @example
   * ```ts
   * const loginCode = new URL(location.href).searchParams.get("login_code") ?? "";
   * const result = await app.completeCliLogin(loginCode);
   * showMessage(result.status === "ok" ? "You can close this tab." : "This login link is not valid.");
   * ```
   */
  completeCliLogin(loginCode: string, options?: CallOptions) {
    return loadCli().then((m) => m.completeCliLogin(this.ctx, loginCode, options));
  }
  /**
   * Checks a team invitation code without using it up (`POST /team-invitations/accept/check-code`).
   * An unknown, expired or used code is a VerificationCodeError Result.
   *
   * @example
   * ```ts
   * const code = new URL(location.href).searchParams.get("code") ?? "";
   * const result = await app.verifyTeamInvitationCode(code);
   * if (result.status === "error") showExpiredInvitationMessage();
   * ```
   */
  verifyTeamInvitationCode(code: string, options?: CallOptions) {
    return verifyTeamInvitationCode(this.ctx, code, options);
  }
  /**
   * Joins the signed-in user to the invitation's team (`POST /team-invitations/accept`); the code works
   * once. An unknown, expired or used code is a VerificationCodeError Result; an invitation sent to an
   * address the user has not verified, a TeamInvitationEmailMismatch Result (services since 2.8.102).
   *
   * @example
   * ```ts
   * const result = await app.acceptTeamInvitation(code);
   * if (result.status === "error") showError(result.error.message);
   * else await app.redirectToHome();
   * ```
   */
  acceptTeamInvitation(code: string, options?: CallOptions) {
    return acceptTeamInvitation(this.ctx, code, options);
  }
  /**
   * The name of the team an invitation code is for, without using the code up
   * (`POST /team-invitations/accept/details`). An unknown, expired or used code is a
   * VerificationCodeError Result.
   *
   * @example
   * ```ts
   * const details = await app.getTeamInvitationDetails(code);
   * if (details.status === "ok") {
   *   showMessage(`Join ${details.data.teamDisplayName}?`);
   * }
   * ```
   */
  getTeamInvitationDetails(code: string, options?: CallOptions) {
    return getTeamInvitationDetails(this.ctx, code, options);
  }

  // INTERNALS

  private readonly afterAuth: AfterAuthRedirects = {
    redirectAfter: (kind, call) =>
      kind === "sign-up"
        ? this.redirectToAfterSignUp({ replace: true, ...callOf(call) })
        : this.redirectToAfterSignIn({ replace: true, ...callOf(call) }),
  };

  private readonly afterOAuth: { readonly redirectAfter: RedirectAfterSignIn } = {
    redirectAfter: (target, call) =>
      "url" in target ? this.ctx.redirect(target.url, { replace: true, ...callOf(call) }) : this.afterAuth.redirectAfter(target.kind, call),
  };

  private readonly afterSignOut: SignOutRedirects = { redirectAfterSignOut: (call) => this.redirectToAfterSignOut(call) };
}
