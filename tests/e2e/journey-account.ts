// The journey, first part: sign-up, the verification e-mail read from the
// mailbox, sign-in on a second device, the failures a user meets on the way
// (wrong password, an e-mail already taken, sign-up turned off), a forgotten
// password, a magic-link sign-up, then the profile, metadata and contact
// channels. Each outcome is read back through another app or the server app.
import { describe, expect, it } from "vitest";
import { DEMO_KEYS } from "../../emulator/index.js";
import { KnownErrors, UserNotSignedInError } from "../../runtime/index.js";
import { claimsOf, HANDLER, rejectionOf, SITE, type Cast, type E2E } from "./harness.js";

const VERIFY = /^Verify your email/;
const VERIFY_PAGE = `${HANDLER}/email-verification`;

export function accountJourney(world: () => E2E, cast: Cast): void {
  describe("sign-up, the verification e-mail and sign-in", () => {
    it("signs Ada up: a real user, signed in at once and sent to the after-sign-up page", async () => {
      const e = world();
      const ada = (cast.ada = e.client());
      expect(await ada.getUser()).toBeNull();
      expect(await rejectionOf(ada.getUser({ or: "throw" }))).toBeInstanceOf(UserNotSignedInError);
      expect(await ada.getUser({ or: "redirect" })).toBeNull();
      expect(e.takeNavigations()).toEqual([`${HANDLER}/sign-in`]);
      const project = await ada.getProject();
      expect([project.id, project.displayName, project.config.signUpEnabled, project.config.credentialEnabled]).toEqual([
        DEMO_KEYS.projectId,
        "Demo",
        true,
        true,
      ]);

      const result = await ada.signUpWithCredential({ email: cast.adaEmail, password: cast.adaPassword });
      expect(result.status).toBe("ok");
      expect(e.takeNavigations()).toEqual([`${SITE}/`]);
      const user = await ada.getUser({ or: "throw" });
      expect([user.primaryEmail, user.primaryEmailVerified, user.hasPassword, user.emailAuthEnabled, user.isAnonymous]).toEqual([
        cast.adaEmail,
        false,
        true,
        true,
        false,
      ]);
      cast.adaId = user.id;
      // The access token describes her too, read without a request.
      const partial = await ada.getPartialUser({ from: "token" });
      expect([partial?.id, partial?.isAnonymous, partial?.isMultiFactorRequired]).toEqual([user.id, false, false]);
      // The server reads the same user.
      const onServer = await e.server().getUser(user.id);
      expect([onServer?.primaryEmail, onServer?.primaryEmailVerified]).toEqual([cast.adaEmail, false]);
    });

    it("verifies her e-mail with the code of the link found in her mailbox", async () => {
      const e = world();
      const inbox = await e.mailbox(cast.adaEmail);
      // Inbucket shows an address without a name in angle brackets.
      expect(inbox.map((m) => [m.subject, m.to])).toEqual([["Verify your email at Demo", [`<${cast.adaEmail}>`]]]);
      const message = await e.message(cast.adaEmail, inbox[0]!.id);
      expect(message.body.html).toContain(`${VERIFY_PAGE}?code=`);
      const code = await e.codeFromMail(cast.adaEmail, VERIFY, VERIFY_PAGE);

      expect((await cast.ada.verifyEmail(code)).status).toBe("ok");
      const again = await cast.ada.verifyEmail(code);
      expect(again.status === "error" && again.error).toBeInstanceOf(KnownErrors.VerificationCodeAlreadyUsed);
      const user = await cast.ada.getUser({ or: "throw" });
      expect(user.primaryEmailVerified).toBe(true);
      expect((await e.server().getUser(cast.adaId))?.primaryEmailVerified).toBe(true);
      // Nothing left to verify: answered, not thrown, and nothing mailed.
      expect(await user.sendVerificationEmail()).toBeInstanceOf(KnownErrors.EmailAlreadyVerified);
      expect(await e.mailbox(cast.adaEmail)).toHaveLength(1);
    });

    it("refuses a wrong password and an e-mail already taken, then signs Ada in on her laptop", async () => {
      const e = world();
      const laptop = (cast.adaLaptop = e.client());
      const wrong = await laptop.signInWithCredential({ email: cast.adaEmail, password: "not her password" });
      expect(wrong.status === "error" && wrong.error).toBeInstanceOf(KnownErrors.EmailPasswordMismatch);
      const taken = await laptop.signUpWithCredential({ email: cast.adaEmail, password: "another password 123" });
      expect(taken.status === "error" && taken.error).toBeInstanceOf(KnownErrors.UserWithEmailAlreadyExists);
      expect(await laptop.getUser()).toBeNull();
      expect(e.takeNavigations()).toEqual([]);
      expect((await e.server().listUsers()).filter((u) => u.primaryEmail === cast.adaEmail)).toHaveLength(1);

      expect((await laptop.signInWithCredential({ email: cast.adaEmail, password: cast.adaPassword })).status).toBe("ok");
      expect(e.takeNavigations()).toEqual([`${SITE}/`]);
      expect((await laptop.getUser({ or: "throw" })).id).toBe(cast.adaId);
    });

    it("resets a forgotten password with the mailed link; the link works once", async () => {
      const e = world();
      const app = e.client();
      expect((await app.sendForgotPasswordEmail("nobody@example.com")).status).toBe("ok");
      expect(await e.mailbox("nobody@example.com")).toEqual([]);
      expect((await app.sendForgotPasswordEmail(cast.adaEmail)).status).toBe("ok");
      const code = await e.codeFromMail(cast.adaEmail, /^Reset your password/, `${HANDLER}/password-reset`);
      expect((await app.verifyPasswordResetCode(code)).status).toBe("ok");
      const fresh = "a brand new password 42";
      expect((await app.resetPassword({ code, password: fresh })).status).toBe("ok");
      const reused = await app.resetPassword({ code, password: "yet another one 43" });
      expect(reused.status === "error" && reused.error).toBeInstanceOf(KnownErrors.VerificationCodeError);

      const old = await e.client().signInWithCredential({ email: cast.adaEmail, password: cast.adaPassword, noRedirect: true });
      expect(old.status === "error" && old.error).toBeInstanceOf(KnownErrors.EmailPasswordMismatch);
      cast.adaPassword = fresh;
      expect((await app.signInWithCredential({ email: cast.adaEmail, password: fresh, noRedirect: true })).status).toBe("ok");
      expect((await app.getUser({ or: "throw" })).id).toBe(cast.adaId);
    });

    it("signs Mary up with a magic link; without a password, she then sets one", async () => {
      const e = world();
      const mary = (cast.mary = e.client());
      const sent = await mary.sendMagicLinkEmail(cast.maryEmail);
      expect(sent.status === "ok" && sent.data.nonce.length).toBeGreaterThan(0);
      const code = await e.codeFromMail(cast.maryEmail, /^Sign in to Demo/, `${HANDLER}/magic-link-callback`);
      expect((await mary.signInWithMagicLink(code)).status).toBe("ok");
      expect(e.takeNavigations()).toEqual([`${SITE}/`]);
      const user = await mary.getUser({ or: "throw" });
      cast.maryId = user.id;
      expect([user.primaryEmail, user.primaryEmailVerified, user.hasPassword, user.otpAuthEnabled]).toEqual([
        cast.maryEmail,
        true,
        false,
        true,
      ]);

      expect(await user.setPassword({ password: "the connexion of the sciences" })).toBeUndefined();
      expect((await mary.getUser({ or: "throw" })).hasPassword).toBe(true);
      const withPassword = e.client();
      expect(
        (await withPassword.signInWithCredential({ email: cast.maryEmail, password: "the connexion of the sciences", noRedirect: true }))
          .status,
      ).toBe("ok");
      expect((await withPassword.getUser())?.id).toBe(cast.maryId);
    });

    it("an anonymous visitor who signs up keeps their user: same id, same data, no longer anonymous", async () => {
      const e = world();
      const app = e.client();
      if (e.serviceVersion === "2.8.11") {
        // 2.8.11 signs up anonymous users only on three fixed projects (internal among them), never this one.
        await expect(app.getUser({ or: "anonymous" })).rejects.toMatchObject({ code: "ANONYMOUS_ACCOUNTS_NOT_ENABLED" });
        return;
      }
      const visitor = await app.getUser({ or: "anonymous" });
      expect(visitor.isAnonymous).toBe(true);
      await visitor.setClientMetadata({ cart: ["difference engine"] });
      expect(await app.getUser()).toBeNull();
      expect((await app.getUser({ or: "anonymous-if-exists" }))?.id).toBe(visitor.id);

      expect(
        (await app.signUpWithCredential({ email: "visitor@example.com", password: "no longer anonymous", noRedirect: true })).status,
      ).toBe("ok");
      const user = await app.getUser({ or: "throw" });
      expect([user.id, user.isAnonymous, user.primaryEmail, user.clientMetadata]).toEqual([
        visitor.id,
        false,
        "visitor@example.com",
        { cart: ["difference engine"] },
      ]);
      expect((await e.server().getUser(visitor.id))?.isAnonymous).toBe(false);
    });

    it("refuses sign-up while the project's admin has turned it off, and accepts it again once on", async () => {
      const e = world();
      const admin = e.admin();
      await (await admin.getProject()).update({ config: { signUpEnabled: false } });
      try {
        expect((await admin.getProject()).config.signUpEnabled).toBe(false);
        const app = e.client();
        expect((await app.getProject()).config.signUpEnabled).toBe(false);
        expect(await rejectionOf(app.signUpWithCredential({ email: "closed@example.com", password: "door is shut 1234" }))).toBeInstanceOf(
          KnownErrors.SignUpNotEnabled,
        );
        expect(await rejectionOf(app.sendMagicLinkEmail("closed@example.com"))).toBeInstanceOf(KnownErrors.SignUpNotEnabled);
        expect(await app.getUser()).toBeNull();
        // Existing users still sign in; the server still creates users.
        expect((await app.signInWithCredential({ email: cast.adaEmail, password: cast.adaPassword, noRedirect: true })).status).toBe("ok");
        const made = await e.server().createUser({ primaryEmail: "made-by-server@example.com" });
        expect((await e.server().getUser(made.id))?.primaryEmail).toBe("made-by-server@example.com");
      } finally {
        await (await admin.getProject()).update({ config: { signUpEnabled: true } });
      }
      expect(
        (await e.client().signUpWithCredential({ email: "open@example.com", password: "door is open 1234", noRedirect: true })).status,
      ).toBe("ok");
      expect((await e.server().listUsers({ query: "open@example.com" })).map((u) => u.primaryEmail)).toEqual(["open@example.com"]);
    });
  });

  describe("profile and metadata", () => {
    it("changes her name and client metadata; her laptop and the server read the change", async () => {
      const e = world();
      const user = await cast.ada.getUser({ or: "throw" });
      // A client uploads its picture as a data URL, as the service requires.
      const picture =
        "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
      await user.update({ displayName: "Ada Lovelace", profileImageUrl: picture, clientMetadata: { theme: "dark" } });
      const onLaptop = await cast.adaLaptop.getUser({ or: "throw" });
      // 2.8.86 stores the picture and answers where it is kept; 2.8.11 keeps the data URL.
      const stored =
        e.serviceVersion === "2.8.11" ? picture : expect.stringMatching(/\/emulator\/storage\/user-profile-images\/[0-9a-f-]+\.png$/);
      expect([onLaptop.displayName, onLaptop.profileImageUrl, onLaptop.clientMetadata]).toEqual([
        "Ada Lovelace",
        stored,
        { theme: "dark" },
      ]);
      await user.setDisplayName("Augusta Ada King");
      await user.setClientMetadata({ theme: "light", language: "en" });
      const onServer = (await e.server().getUser(cast.adaId))!;
      expect([onServer.displayName, onServer.clientMetadata]).toEqual(["Augusta Ada King", { theme: "light", language: "en" }]);
    });

    it("shows her the read-only metadata the server set, and never the server's own", async () => {
      const e = world();
      const onServer = (await e.server().getUser(cast.adaId))!;
      await onServer.setClientReadOnlyMetadata({ plan: "pro" });
      await onServer.setServerMetadata({ stripeCustomer: "cus_123" });
      const user = await cast.ada.getUser({ or: "throw" });
      expect(user.clientReadOnlyMetadata).toEqual({ plan: "pro" });
      expect("serverMetadata" in user).toBe(false);
      const { data } = await cast.ada.api.GET("/users/me");
      expect(JSON.stringify(data)).not.toContain("cus_123");
      expect((await e.server().getUser(cast.adaId))?.serverMetadata).toEqual({ stripeCustomer: "cus_123" });
    });

    it("hands her session's tokens to the app's own backend, which reads the same user from them", async () => {
      const e = world();
      const user = await cast.ada.getUser({ or: "throw" });
      const json = await cast.ada.getAuthJson();
      expect(claimsOf(json.accessToken).sub).toBe(cast.adaId);
      expect(typeof json.refreshToken).toBe("string");
      expect(await user.getAuthJson()).toEqual(json);
      expect(await user.currentSession.getTokens()).toEqual(json);
      const tokens = [json.accessToken, json.refreshToken];
      expect([await cast.ada.getAccessToken(), await cast.ada.getRefreshToken()]).toEqual(tokens);
      expect([await user.getAccessToken(), await user.getRefreshToken()]).toEqual(tokens);
      const headers = await cast.ada.getAuthHeaders();
      expect(JSON.parse(headers["x-stack-auth"])).toEqual(json);
      expect(await user.getAuthHeaders()).toEqual(headers);

      // The backend: a server app with no store of its own, reading the user off the incoming request.
      const backend = e.server({ tokenStore: null });
      const request = new Request(`${SITE}/api/profile`, { headers });
      const me = await backend.getUser({ tokenStore: request, or: "throw" });
      expect([await backend.getAccessToken({ tokenStore: request }), await backend.getRefreshToken({ tokenStore: request })]).toEqual(
        tokens,
      );
      const admin = e.admin();
      expect([await admin.getAccessToken({ tokenStore: request }), await admin.getRefreshToken({ tokenStore: request })]).toEqual(tokens);
      // A Convex HTTP client gets the same access token, from each app.
      expect(await cast.ada.getConvexHttpClientAuth()).toBe(json.accessToken);
      expect(await backend.getConvexHttpClientAuth({ tokenStore: request })).toBe(json.accessToken);
      expect(await admin.getConvexHttpClientAuth({ tokenStore: request })).toBe(json.accessToken);
      expect([me.id, me.displayName, me.serverMetadata]).toEqual([cast.adaId, "Augusta Ada King", { stripeCustomer: "cus_123" }]);
    });
  });

  describe("contact channels", () => {
    const work = "lovelace@work.example.com";

    it("adds a work address, verifies it from the mailbox, and signs in with it once it is used for auth", async () => {
      const e = world();
      const user = await cast.ada.getUser({ or: "throw" });
      const before = await user.listContactChannels();
      expect(before.map((c) => [c.value, c.isPrimary, c.isVerified, c.usedForAuth])).toEqual([[cast.adaEmail, true, true, true]]);

      const channel = await user.createContactChannel({ type: "email", value: work, usedForAuth: false });
      expect([channel.value, channel.isPrimary, channel.isVerified, channel.usedForAuth]).toEqual([work, false, false, false]);
      await channel.sendVerificationEmail();
      const code = await e.codeFromMail(work, VERIFY, VERIFY_PAGE);
      expect((await cast.adaLaptop.verifyEmail(code)).status).toBe("ok");
      const verified = (await user.listContactChannels()).find((c) => c.id === channel.id);
      expect(verified?.isVerified).toBe(true);

      const refused = await e.client().signInWithCredential({ email: work, password: cast.adaPassword, noRedirect: true });
      expect(refused.status === "error" && refused.error).toBeInstanceOf(KnownErrors.EmailPasswordMismatch);
      await channel.update({ usedForAuth: true });
      const viaWork = e.client();
      expect((await viaWork.signInWithCredential({ email: work, password: cast.adaPassword, noRedirect: true })).status).toBe("ok");
      expect((await viaWork.getUser())?.id).toBe(cast.adaId);
    });

    it("changes the address and removes it; the server sees what she did", async () => {
      const e = world();
      const user = await cast.ada.getUser({ or: "throw" });
      const channel = (await user.listContactChannels()).find((c) => c.value === work)!;
      await channel.update({ value: "lovelace@lab.example.com", usedForAuth: false });
      const onServer = (await e.server().getUser(cast.adaId))!;
      const changed = (await onServer.listContactChannels()).find((c) => c.id === channel.id);
      // A new address is not verified yet.
      expect([changed?.value, changed?.usedForAuth, changed?.isVerified]).toEqual(["lovelace@lab.example.com", false, false]);
      await channel.delete();
      expect((await onServer.listContactChannels()).map((c) => c.value)).toEqual([cast.adaEmail]);
    });

    it("will not let Mary sign in with an address that already signs Ada in", async () => {
      const mary = await cast.mary.getUser({ or: "throw" });
      const refused = await rejectionOf(mary.createContactChannel({ type: "email", value: cast.adaEmail, usedForAuth: true }));
      expect(refused).toBeInstanceOf(KnownErrors.ContactChannelAlreadyUsedForAuthBySomeoneElse);
      expect((await mary.listContactChannels()).map((c) => c.value)).toEqual([cast.maryEmail]);
    });
  });
}
