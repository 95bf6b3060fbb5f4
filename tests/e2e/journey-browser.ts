// The journey's browser-bound flows, run in Node over HTTP on each kind of app
// (client, server and admin: each offers them): TOTP as a second factor, with
// codes computed at the emulator's clock; passkeys registered on the account
// page and used to sign in, through the SDK's own WebAuthn code with a
// software authenticator behind `navigator.credentials`; OAuth sign-up and
// sign-in through the emulator's provider page, followed and posted as a
// browser would, and the callback on the app's page; linking an account with
// more scopes and reading its provider token from every kind of user object;
// command-line login, polled by a tool while a signed-in browser completes it.
import { afterEach, describe, expect, it, vi } from "vitest";
import { KnownErrors } from "../../runtime/index.js";
import { currentTotp, FakePage, oauthRoundTrip, totpAt, useAuthenticator } from "./browser.js";
import { HANDLER, SITE, type AppKind, type E2E } from "./harness.js";

const KINDS: readonly AppKind[] = ["client", "server", "admin"];
const PASSWORD = "a password of the browser flows";
/** The TOTP secret the users below turn on (20 bytes, as authenticator apps make them). */
const SECRET = Uint8Array.from({ length: 20 }, (_, i) => 0xa0 + i);

/** GitHub with the project's own OAuth app (connected accounts hand out its tokens), Google with the shared keys. */
export const GITHUB = { id: "github", type: "standard", clientId: "gh-client-id", clientSecret: "gh-client-secret" } as const;

/** The attempt code of a MultiFactorAuthenticationRequired error. */
function attemptCodeOf(error: unknown): string {
  expect(error).toBeInstanceOf(KnownErrors.MultiFactorAuthenticationRequired);
  const code = (error as { details?: { attempt_code?: unknown } }).details?.attempt_code;
  expect(code).toEqual(expect.any(String));
  return code as string;
}

interface Logged {
  readonly status: number;
}

export function browserJourney(world: () => E2E): void {
  /** A user with a password, made by the server, signed in on an app of `kind`. */
  async function signedIn(kind: AppKind, email: string, page?: FakePage) {
    const e = world();
    const made = await e
      .server()
      .createUser({ primaryEmail: email, password: PASSWORD, primaryEmailAuthEnabled: true, primaryEmailVerified: true });
    const app = e.app(kind, page ? { browser: page.browser } : {});
    expect((await app.signInWithCredential({ email, password: PASSWORD, noRedirect: true })).status).toBe("ok");
    return { app, id: made.id };
  }

  describe("TOTP as a second factor", () => {
    it.each(KINDS)(
      "on the %s app: a user turns TOTP on; a password sign-in then asks for the code of the emulator's clock",
      async (kind) => {
        const e = world();
        const email = `totp-${kind}@example.com`;
        const { app, id } = await signedIn(kind, email);
        await (await app.getUser({ or: "throw" })).update({ totpMultiFactorSecret: SECRET });
        expect((await app.getUser({ or: "throw" })).isMultiFactorRequired).toBe(true);
        expect((await e.server().getUser(id))?.isMultiFactorRequired).toBe(true);
        await app.signOut();

        const attempt = await app.signInWithCredential({ email, password: PASSWORD, noRedirect: true });
        const attemptCode = attemptCodeOf(attempt.status === "error" ? attempt.error : undefined);
        expect(await app.getUser()).toBeNull();
        // A code of another step is refused, and the attempt stays open.
        const now = await e.now();
        const wrong = [totpAt(SECRET, now + 120_000), totpAt(SECRET, now - 120_000)].find((c) => c !== totpAt(SECRET, now))!;
        const refused = await app.signInWithMfa(wrong, attemptCode, { noRedirect: true });
        expect(refused.status === "error" && refused.error).toBeInstanceOf(KnownErrors.InvalidTotpCode);
        expect(await app.getUser()).toBeNull();

        e.takeNavigations();
        expect(await app.signInWithMfa(await currentTotp(e, SECRET), attemptCode)).toEqual({ status: "ok", data: undefined });
        expect(e.takeNavigations()).toEqual([`${SITE}/`]);
        expect((await app.getUser({ or: "throw" })).id).toBe(id);
        // The attempt code is spent.
        const again = await e.app(kind).signInWithMfa(await currentTotp(e, SECRET), attemptCode, { noRedirect: true });
        expect(again.status === "error" && again.error).toBeInstanceOf(KnownErrors.VerificationCodeAlreadyUsed);
      },
    );
  });

  describe("passkeys", () => {
    afterEach(() => {
      vi.unstubAllGlobals();
    });

    it.each(KINDS)("on the %s app: a user registers a passkey on the account page, signs out, and signs in with it", async (kind) => {
      const e = world();
      const authenticator = useAuthenticator(SITE);
      const { app, id } = await signedIn(kind, `passkey-${kind}@example.com`, new FakePage(`${HANDLER}/account-settings`));
      const user = await app.getUser({ or: "throw" });
      expect(user.passkeyAuthEnabled).toBe(false);
      expect(await user.registerPasskey()).toEqual({ status: "ok", data: undefined });
      const [credentialId] = authenticator.credentialIds;
      expect((await app.getUser({ or: "throw" })).passkeyAuthEnabled).toBe(true);
      expect((await e.server().getUser(id))?.passkeyAuthEnabled).toBe(true);
      await app.signOut();
      expect(await app.getUser()).toBeNull();

      const page = new FakePage(`${HANDLER}/sign-in`);
      const signIn = e.app(kind, { browser: page.browser });
      e.takeNavigations();
      expect(await signIn.signInWithPasskey()).toEqual({ status: "ok", data: undefined });
      expect(e.takeNavigations()).toEqual([`${SITE}/`]);
      expect((await signIn.getUser({ or: "throw" })).id).toBe(id);
      expect(authenticator.counterOf(credentialId!)).toBe(1);

      // Another authenticator, without the credential: the ceremony fails, as a result.
      useAuthenticator(SITE);
      const none = await e.app(kind, { browser: page.browser }).signInWithPasskey();
      expect(none.status === "error" && none.error).toBeInstanceOf(KnownErrors.PasskeyWebAuthnError);
    });

    it("asks a TOTP user for the second factor after the passkey", async () => {
      const e = world();
      useAuthenticator(SITE);
      const { app, id } = await signedIn("client", "passkey-totp@example.com", new FakePage(`${HANDLER}/account-settings`));
      const user = await app.getUser({ or: "throw" });
      expect((await user.registerPasskey()).status).toBe("ok");
      await user.update({ totpMultiFactorSecret: SECRET });
      await app.signOut();

      const signIn = e.client({ browser: new FakePage(`${HANDLER}/sign-in`).browser });
      const result = await signIn.signInWithPasskey();
      const attemptCode = attemptCodeOf(result.status === "error" ? result.error : undefined);
      expect(await signIn.signInWithMfa(await currentTotp(e, SECRET), attemptCode, { noRedirect: true })).toEqual({
        status: "ok",
        data: undefined,
      });
      expect((await signIn.getUser({ or: "throw" })).id).toBe(id);
    });
  });

  describe("OAuth through the emulator's provider page", () => {
    it("the admin gives the project its own GitHub app; clients see the providers", async () => {
      const e = world();
      const project = await e.admin().getProject();
      await project.update({ config: { oauthProviders: [GITHUB, { id: "google", type: "shared" }] } });
      expect((await e.admin().getProject()).config.oauthProviders).toEqual([GITHUB, { id: "google", type: "shared" }]);
      expect((await e.client().getProject()).config.oauthProviders).toEqual([{ id: "github" }, { id: "google" }]);
    });

    it.each(KINDS)(
      "on the %s app: a new user signs up with GitHub, lands on after-sign-up, and reads the provider's token",
      async (kind) => {
        const e = world();
        const email = `octo-${kind}@example.com`;
        const page = new FakePage(`${HANDLER}/sign-in`);
        const app = e.app(kind, { browser: page.browser });
        const { consent, back } = await oauthRoundTrip(e, page, () => app.signInWithOAuth("github"), {
          email,
          name: `Octo ${kind}`,
          accountId: `gh-${kind}`,
        });
        expect(consent.text).toContain('data-testid="oauth-continue"');
        expect(back.landed && back.landed.origin + back.landed.pathname).toBe(`${HANDLER}/oauth-callback`);
        expect(page.oauthCookies()).toHaveLength(1);

        e.takeNavigations();
        expect(await app.callOAuthCallback()).toBe(true);
        expect(e.takeNavigations()).toEqual([`${SITE}/`]);
        // The verifier cookie is gone, and the address bar has no code or state.
        expect(page.oauthCookies()).toEqual([]);
        expect(page.href).toBe(`${HANDLER}/oauth-callback`);
        // Nothing left to take: a second call finds no flow of this page.
        expect(await app.callOAuthCallback()).toBe(false);

        const user = await app.getUser({ or: "throw" });
        expect([user.primaryEmail, user.primaryEmailVerified, user.displayName, user.hasPassword]).toEqual([
          email,
          true,
          `Octo ${kind}`,
          false,
        ]);
        expect(user.oauthProviders).toEqual([{ id: "github", accountId: `gh-${kind}`, email }]);
        const account = await user.getConnectedAccount("github");
        expect(account?.id).toBe("github");
        const first = await account!.getAccessToken();
        expect(first.accessToken).toMatch(/^emulated_github_/);
        // The second asks the service again.
        expect((await account!.getAccessToken()).accessToken).toMatch(/^emulated_github_/);
        // Google is on the shared keys: no token to hand out.
        expect(await user.getConnectedAccount("google", { or: "throw" }).catch((error: unknown) => error)).toBeInstanceOf(
          KnownErrors.OAuthAccessTokenNotAvailableWithSharedOAuthKeys,
        );

        // The same GitHub account again: the same user, sent where returnTo said.
        const next = new FakePage(`${HANDLER}/sign-in`);
        const again = e.app(kind, { browser: next.browser });
        await oauthRoundTrip(e, next, () => again.signInWithOAuth("github", { returnTo: `${SITE}/dashboard?tab=keys` }), {
          email,
          accountId: `gh-${kind}`,
        });
        expect(await again.callOAuthCallback()).toBe(true);
        expect(e.takeNavigations()).toEqual([`${SITE}/dashboard?tab=keys`]);
        expect((await again.getUser({ or: "throw" })).id).toBe(user.id);
      },
    );

    it("a password user links GitHub with an extra scope from the settings page; every kind of user object reads the token", async () => {
      const e = world();
      const settings = new FakePage(`${SITE}/settings`);
      const { app, id } = await signedIn("client", "linker@example.com", settings);
      const user = await app.getUser({ or: "throw" });
      expect(await user.getConnectedAccount("github")).toBeNull();
      const { consent, back } = await oauthRoundTrip(
        e,
        settings,
        () => user.getConnectedAccount("github", { or: "redirect", scopes: ["repo"] }),
        {
          email: "linker@users.github.example",
          accountId: "4711",
        },
      );
      expect(consent.text).toContain("repo");
      expect(back.landed?.pathname).toBe("/handler/oauth-callback");
      e.takeNavigations();
      expect(await app.callOAuthCallback()).toBe(true);
      // Back where the link started.
      expect(e.takeNavigations()).toEqual([`${SITE}/settings`]);
      const linked = await app.getUser({ or: "throw" });
      expect([linked.id, linked.oauthProviders]).toEqual([id, [{ id: "github", accountId: "4711", email: "linker@users.github.example" }]]);
      expect((await (await linked.getConnectedAccount("github", { scopes: ["repo"] }))!.getAccessToken()).accessToken).toMatch(
        /^emulated_github_/,
      );
      expect(await linked.getConnectedAccount("github", { scopes: ["admin:org"] })).toBeNull();
      expect(
        await linked.getConnectedAccount("github", { scopes: ["admin:org"], or: "throw" }).catch((error: unknown) => error),
      ).toBeInstanceOf(KnownErrors.OAuthConnectionDoesNotHaveRequiredScope);

      // The server reads the same connection: by id, as a team member, and as the request's own user.
      const server = e.server();
      const byId = await (await server.getUser(id))!.getConnectedAccount("github", { scopes: ["repo"] });
      expect((await byId!.getAccessToken()).accessToken).toMatch(/^emulated_github_/);
      const team = await server.createTeam({ displayName: "Linkers" });
      await team.addUser(id);
      const member = (await team.listUsers()).find((m) => m.id === id)!;
      expect(await (await member.getConnectedAccount("github"))!.getAccessToken()).toEqual({
        accessToken: expect.stringMatching(/^emulated_github_/),
      });
      const backend = e.server({ tokenStore: null });
      const request = new Request(`${SITE}/api/repos`, { headers: await app.getAuthHeaders() });
      const me = await backend.getUser({ tokenStore: request, or: "throw" });
      expect((await (await me.getConnectedAccount("github"))!.getAccessToken()).accessToken).toMatch(/^emulated_github_/);
      await team.delete();
    });
  });

  describe("command-line login", () => {
    it.each(KINDS)("a tool built on the %s app polls while the user's signed-in browser completes the login", async (kind) => {
      const e = world();
      const { app: browser, id } = await signedIn(kind, `cli-${kind}@example.com`);
      const tool = e.app(kind);
      await e.control("DELETE", "requests");
      let link = "";
      const waiting = tool.promptCliLogin({ appUrl: SITE, waitTimeMillis: 5, promptLink: (url) => void (link = url) });
      await vi.waitFor(
        async () => expect((await e.control<Logged[]>("GET", "requests?operation_id=pollCliLogin")).length).toBeGreaterThan(0),
        { timeout: 5_000 },
      );
      const confirm = new URL(link);
      expect(confirm.origin + confirm.pathname).toBe(`${HANDLER}/cli-auth-confirm`);
      expect(await browser.completeCliLogin(confirm.searchParams.get("login_code")!)).toEqual({ status: "ok", data: undefined });

      const result = await waiting;
      expect(result).toEqual({ status: "ok", data: (await browser.getAuthJson()).refreshToken });
      const statuses = (await e.control<Logged[]>("GET", "requests?operation_id=pollCliLogin")).map((r) => r.status);
      expect(statuses.at(-1)).toBe(201);
      expect(statuses.slice(0, -1).every((s) => s === 200)).toBe(true);
      // The tool signs in with the refresh token it received.
      const signedInTool = e.client({ tokenStore: { accessToken: null, refreshToken: result.status === "ok" ? result.data : null } });
      expect((await signedInTool.getUser({ or: "throw" })).id).toBe(id);
    });

    it("ends with CliAuthExpiredError once the attempt's life has passed on the emulator's clock", async () => {
      const e = world();
      await e.control("DELETE", "requests");
      const waiting = e.client().promptCliLogin({ appUrl: SITE, expiresInMillis: 60_000, waitTimeMillis: 5 });
      await vi.waitFor(
        async () => expect((await e.control<Logged[]>("GET", "requests?operation_id=pollCliLogin")).length).toBeGreaterThan(0),
        { timeout: 5_000 },
      );
      await e.advanceClock(61_000);
      const result = await waiting;
      expect(result.status === "error" && result.error).toBeInstanceOf(KnownErrors.CliAuthExpiredError);
    });
  });
}
