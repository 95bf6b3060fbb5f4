// The journey's sessions: the list of Ada's devices, the current session that
// cannot be revoked that way, a revoked device signed out once its access
// token expires (the emulator's clock moved through its control API) while her
// own expired token is refreshed, a password change ending the other sessions;
// and, last of all, signing out and deleting an account.
import { describe, expect, it } from "vitest";
import { KnownErrors } from "../../runtime/index.js";
import { claimsOf, HANDLER, rejectionOf, SITE, type Cast, type E2E } from "./harness.js";

interface Logged {
  readonly operationId: string | null;
  readonly status: number;
  readonly knownError: string | null;
}

/** Past the 10-minute life of an access token. */
const ELEVEN_MINUTES = 11 * 60 * 1000;

export function sessionJourney(world: () => E2E, cast: Cast): void {
  const ada = () => cast.ada.getUser({ or: "throw" });

  describe("sessions and revocation", () => {
    it("lists Ada's sessions, marks the current one, and will not revoke it that way", async () => {
      const user = await ada();
      const sessions = await user.getActiveSessions();
      expect(sessions.length).toBeGreaterThanOrEqual(2);
      expect(sessions.every((s) => s.userId === cast.adaId && !s.isImpersonation)).toBe(true);
      const current = sessions.filter((s) => s.isCurrentSession);
      expect(current).toHaveLength(1);
      expect(claimsOf((await cast.ada.getAuthJson()).accessToken).refresh_token_id).toBe(current[0]!.id);

      expect(await rejectionOf(user.revokeSession(current[0]!.id))).toBeInstanceOf(KnownErrors.CannotDeleteCurrentSession);
      expect((await cast.ada.getUser())?.id).toBe(cast.adaId);
    });

    it("revokes the laptop's session: when the clock passes its token's expiry the laptop is signed out, and Ada's own token is refreshed", async () => {
      const e = world();
      const laptopSession = (await (await cast.adaLaptop.getUser({ or: "throw" })).getActiveSessions()).find((s) => s.isCurrentSession)!;
      const user = await ada();
      await user.revokeSession(laptopSession.id);
      expect((await user.getActiveSessions()).map((s) => s.id)).not.toContain(laptopSession.id);

      const before = await cast.ada.getAuthJson();
      // A magic link lives 10 minutes: one sent now is used too late below.
      expect((await e.client().sendMagicLinkEmail(cast.adaEmail)).status).toBe("ok");
      const lateCode = await e.codeFromMail(cast.adaEmail, /^Sign in to Demo/, `${HANDLER}/magic-link-callback`);
      await e.control("DELETE", "requests");
      await e.advanceClock(ELEVEN_MINUTES);
      // Ada's app still holds a token it thinks is fresh: the service refuses it, the app refreshes once and goes on.
      expect((await cast.ada.getUser())?.id).toBe(cast.adaId);
      const after = await cast.ada.getAuthJson();
      expect(after.refreshToken).toBe(before.refreshToken);
      expect(after.accessToken).not.toBe(before.accessToken);
      const log = (await e.control<Logged[]>("GET", "requests")).map((r) => [r.operationId, r.status, r.knownError]);
      expect(log).toEqual([
        ["getCurrentUser", 401, "ACCESS_TOKEN_EXPIRED"],
        ["exchangeOAuthToken", 200, null],
        ["getCurrentUser", 200, null],
      ]);

      // The laptop's refresh token was revoked: it cannot refresh, and is signed out.
      expect(await cast.adaLaptop.getUser()).toBeNull();
      expect(await cast.adaLaptop.getAuthJson()).toEqual({ accessToken: null, refreshToken: null });
      expect((await e.control<Logged[]>("GET", "requests?operation_id=exchangeOAuthToken")).map((r) => r.knownError)).toEqual([
        null,
        "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED",
      ]);

      const late = await e.client().signInWithMagicLink(lateCode, { noRedirect: true });
      expect(late.status === "error" && late.error).toBeInstanceOf(KnownErrors.VerificationCodeExpired);
    });

    it("a password change keeps this session and ends every other one", async () => {
      const e = world();
      const phone = e.client();
      expect((await phone.signInWithCredential({ email: cast.adaEmail, password: cast.adaPassword, noRedirect: true })).status).toBe("ok");
      const user = await ada();
      expect((await user.getActiveSessions()).length).toBeGreaterThanOrEqual(2);

      const fresh = "thirty-one flowers of algebra";
      expect(await user.updatePassword({ oldPassword: "not the old one", newPassword: fresh })).toBeInstanceOf(
        KnownErrors.PasswordConfirmationMismatch,
      );
      expect(await user.updatePassword({ oldPassword: cast.adaPassword, newPassword: fresh })).toBeUndefined();
      const left = await user.getActiveSessions();
      expect(left.map((s) => s.isCurrentSession)).toEqual([true]);
      const old = await e.client().signInWithCredential({ email: cast.adaEmail, password: cast.adaPassword, noRedirect: true });
      expect(old.status === "error" && old.error).toBeInstanceOf(KnownErrors.EmailPasswordMismatch);
      cast.adaPassword = fresh;
      expect((await e.client().signInWithCredential({ email: cast.adaEmail, password: fresh, noRedirect: true })).status).toBe("ok");
    });
  });
}

export function signOutJourney(world: () => E2E, cast: Cast): void {
  describe("sign-out", () => {
    it("Ada signs out: her session ends on the service, her tokens are gone, and the app goes to the after-sign-out page", async () => {
      const e = world();
      const before = await cast.ada.getAuthJson();
      const sessionId = claimsOf(before.accessToken).refresh_token_id;
      e.takeNavigations();
      let changes = 0;
      const stop = cast.ada.onSessionChange(() => changes++);
      await cast.ada.signOut();
      stop();
      expect(changes).toBe(1);
      expect(e.takeNavigations()).toEqual([`${SITE}/`]);
      expect(await cast.ada.getUser()).toBeNull();
      expect(await cast.ada.getAuthJson()).toEqual({ accessToken: null, refreshToken: null });
      const onServer = (await e.server().getUser(cast.adaId))!;
      expect((await onServer.getActiveSessions()).map((s) => s.id)).not.toContain(sessionId);
      // The old refresh token opens nothing any more.
      expect(await e.client({ tokenStore: { accessToken: null, refreshToken: before.refreshToken! } }).getUser()).toBeNull();
    });

    it("Grace signs out from her user object", async () => {
      const user = await cast.grace.getUser({ or: "throw" });
      await user.signOut({ redirectUrl: `${SITE}/goodbye` });
      expect(world().takeNavigations()).toEqual([`${SITE}/goodbye`]);
      expect(await cast.grace.getUser()).toBeNull();
    });

    it("Mary deletes her account: she is signed out and the server no longer finds her", async () => {
      const e = world();
      const user = await cast.mary.getUser({ or: "throw" });
      await user.delete();
      expect(await cast.mary.getUser()).toBeNull();
      expect(await e.server().getUser(cast.maryId)).toBeNull();
      const gone = await e
        .client()
        .signInWithCredential({ email: cast.maryEmail, password: "the connexion of the sciences", noRedirect: true });
      expect(gone.status === "error" && gone.error).toBeInstanceOf(KnownErrors.EmailPasswordMismatch);
    });
  });
}
