// The signed-in user (SPEC §3 "User", §4, §5; endpoints.md §A; wire contract §8).
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { KnownErrors } from "../../../../generated/known-errors.js";
import type { components } from "../../../../generated/schema.js";
import { isStackError } from "../../../../runtime/errors.js";
import { Result } from "../../../../runtime/app/result.js";
import { listOwnedProjects } from "../../../../runtime/app/admin/owned-projects.js";
import type { CallOptions } from "../../../../runtime/app/call-options.js";
import type { CurrentInternalUser } from "../../../../runtime/app/internal-user.js";
import { createCurrentUser, type CurrentUserExtras } from "../../../../runtime/app/objects/user.js";
import { NO_TOKENS, type TokenPair } from "../../../../runtime/sessions/tokens/store.js";
import { testAppContext } from "../../../helpers/app-context.js";
import { answerAsDocumented } from "../../../helpers/documented-answers.js";
import { json, jwt, knownError, useFakeClock, type Handler, type SentRequest } from "../../../helpers/fake-service.js";
import { rejectionOf } from "../../../helpers/outcome.js";
import { doc } from "../../../fixtures/document.js";

type WireUser = components["schemas"]["ClientUser"];
const EXAMPLE = doc.components.examples.ClientUser!.value as WireUser;
const inSeconds = (s: number) => Math.floor(Date.now() / 1000) + s;

function extrasForTest(): CurrentUserExtras & { signOut: ReturnType<typeof vi.fn>; registerPasskey: ReturnType<typeof vi.fn> } {
  return {
    signOut: vi.fn(async () => {}),
    registerPasskey: vi.fn(async () => Result.ok(undefined)),
    ownedProjects: {
      createProject: async () => expect.unreachable("no project is created here"),
      listOwnedProjects: async () => expect.unreachable("no owned project is listed here"),
    },
  };
}

function setup(options: { handler?: Handler; wire?: Partial<WireUser>; tokens?: TokenPair; projectId?: string } = {}) {
  const t = testAppContext(options.handler ?? answerAsDocumented, options.tokens ? { tokens: options.tokens } : {});
  const ctx = options.projectId ? { ...t.ctx, projectId: options.projectId } : t.ctx;
  const extras = extrasForTest();
  const user = createCurrentUser(ctx, { ...EXAMPLE, ...options.wire }, extras);
  return { ...t, ctx, extras, user };
}
const sent = (s: { requests: SentRequest[] }) =>
  s.requests.map((r) => ({ method: r.method, path: r.path, body: r.body === "" ? undefined : JSON.parse(r.body) }));

beforeEach(() => useFakeClock());
afterEach(() => vi.useRealTimers());

describe("the fields", () => {
  it("map every field of the wire ClientUser to the reference's names and types", () => {
    const { user } = setup();
    expect({ ...user }).toMatchObject({
      id: "3241a285-8329-4d69-8f3d-316e08cf140c",
      displayName: "Ada Lovelace",
      primaryEmail: "ada@example.com",
      primaryEmailVerified: true,
      profileImageUrl: null,
      signedUpAt: new Date(1763251200000),
      clientMetadata: {},
      clientReadOnlyMetadata: {},
      hasPassword: true,
      emailAuthEnabled: true,
      otpAuthEnabled: false,
      oauthProviders: [],
      passkeyAuthEnabled: false,
      isMultiFactorRequired: false,
      isAnonymous: false,
    });
    expect(user.signedUpAt).toBeInstanceOf(Date);
  });

  it("take emailAuthEnabled from auth_with_email and isMultiFactorRequired from requires_totp_mfa", () => {
    const { user } = setup({
      wire: { auth_with_email: false, requires_totp_mfa: true, otp_auth_enabled: true, passkey_auth_enabled: true, is_anonymous: true },
    });
    expect(user).toMatchObject({
      emailAuthEnabled: false,
      isMultiFactorRequired: true,
      otpAuthEnabled: true,
      passkeyAuthEnabled: true,
      isAnonymous: true,
    });
  });

  it("give oauthProviders as { id, accountId, email }, email only when the service has one", () => {
    const { user } = setup({
      wire: {
        oauth_providers: [
          { id: "github", account_id: "583231", email: "ada@github.example" },
          { id: "google", account_id: "1049", email: null },
        ],
      },
    });
    expect(user.oauthProviders).toEqual([
      { id: "github", accountId: "583231", email: "ada@github.example" },
      { id: "google", accountId: "1049" },
    ]);
  });

  it("give selectedTeam as a Team object, or null without one", () => {
    expect(setup().user.selectedTeam).toMatchObject({
      id: "9c2b7e4a-1f3d-4a6b-8e5c-2d7f9a1b3c5e",
      displayName: "Acme Engineering",
      profileImageUrl: null,
      clientMetadata: {},
      clientReadOnlyMetadata: {},
    });
    expect(setup({ wire: { selected_team: null, selected_team_id: null } }).user.selectedTeam).toBeNull();
  });

  it("are a frozen snapshot", () => {
    expect(Object.isFrozen(setup().user)).toBe(true);
  });
});

describe("update", () => {
  it("is PATCH /users/me with every option snake_case, the TOTP secret as base64", async () => {
    const { user, service } = setup();
    await user.update({
      displayName: "Ada King",
      profileImageUrl: "https://img.example/ada.png",
      clientMetadata: { theme: "dark" },
      selectedTeamId: "9c2b7e4a-1f3d-4a6b-8e5c-2d7f9a1b3c5e",
      totpMultiFactorSecret: new Uint8Array([1, 2, 3, 250, 251]),
      otpAuthEnabled: true,
      passkeyAuthEnabled: false,
    });
    expect(sent(service)).toEqual([
      {
        method: "PATCH",
        path: "/api/v1/users/me",
        body: {
          display_name: "Ada King",
          profile_image_url: "https://img.example/ada.png",
          client_metadata: { theme: "dark" },
          selected_team_id: "9c2b7e4a-1f3d-4a6b-8e5c-2d7f9a1b3c5e",
          totp_secret_base64: "AQID+vs=",
          otp_auth_enabled: true,
          passkey_auth_enabled: false,
        },
      },
    ]);
  });

  it("sends only the options given; a null TOTP secret turns TOTP off", async () => {
    const { user, service } = setup();
    await user.update({ totpMultiFactorSecret: null, profileImageUrl: null });
    expect(sent(service)[0]!.body).toEqual({ totp_secret_base64: null, profile_image_url: null });
  });

  it("refuses a non-object, or a TOTP secret that is not bytes, without a request", async () => {
    const { user, service } = setup();
    expect(isStackError(await rejectionOf(user.update(undefined as never)), "StackConfigurationError")).toBe(true);
    expect(isStackError(await rejectionOf(user.update({ totpMultiFactorSecret: "JBSWY3DP" as never })), "StackConfigurationError")).toBe(
      true,
    );
    expect(service.requests).toEqual([]);
  });
});

describe("setDisplayName, setClientMetadata, setSelectedTeam", () => {
  it("are PATCH /users/me of one field each, each but the first after the access token's refresh the one before asked for", async () => {
    const { user, service } = setup();
    await user.setDisplayName("Ada");
    await user.setClientMetadata({ onboarded: true });
    await user.setSelectedTeam(user.selectedTeam);
    await user.setSelectedTeam("0f0e0d0c-0000-4000-8000-000000000002");
    await user.setSelectedTeam(null);
    // Each update marks the access token expired (its claims may have changed: token-claims.test.ts).
    const refresh = "/api/v1/auth/oauth/token";
    expect(service.requests.map((r) => r.path)).toEqual(["/api/v1/users/me", ...[1, 2, 3, 4].flatMap(() => [refresh, "/api/v1/users/me"])]);
    const patches = { requests: service.requests.filter((r) => r.path !== refresh) };
    expect(sent(patches).map((r) => [r.method, r.path, r.body])).toEqual([
      ["PATCH", "/api/v1/users/me", { display_name: "Ada" }],
      ["PATCH", "/api/v1/users/me", { client_metadata: { onboarded: true } }],
      ["PATCH", "/api/v1/users/me", { selected_team_id: "9c2b7e4a-1f3d-4a6b-8e5c-2d7f9a1b3c5e" }],
      ["PATCH", "/api/v1/users/me", { selected_team_id: "0f0e0d0c-0000-4000-8000-000000000002" }],
      ["PATCH", "/api/v1/users/me", { selected_team_id: null }],
    ]);
  });

  it("setSelectedTeam refuses an object without an id instead of clearing the selection", async () => {
    const { user, service } = setup();
    expect(isStackError(await rejectionOf(user.setSelectedTeam({} as never)), "StackConfigurationError")).toBe(true);
    expect(service.requests).toEqual([]);
  });
});

describe("delete", () => {
  it("is DELETE /users/me, then the session is invalid and the store cleared", async () => {
    const { user, service, ctx, store } = setup();
    const session = ctx.sessions().current();
    await user.delete();
    expect(sent(service)).toEqual([{ method: "DELETE", path: "/api/v1/users/me", body: undefined }]);
    expect(session.isKnownInvalid).toBe(true);
    expect(store!.get()).toEqual(NO_TOKENS);
    expect(await user.currentSession.getTokens()).toEqual({ accessToken: null, refreshToken: null });
  });

  it("keeps the session when the service refuses", async () => {
    const { user, ctx, store } = setup({ handler: () => knownError(401, "USER_AUTHENTICATION_REQUIRED", "User authentication required.") });
    const before = store!.get();
    expect(await rejectionOf(user.delete())).toBeInstanceOf(KnownErrors.UserAuthenticationRequired);
    expect(ctx.sessions().current().isKnownInvalid).toBe(false);
    expect(store!.get()).toEqual(before);
  });
});

describe("sendVerificationEmail", () => {
  it("is POST /contact-channels/send-verification-code with the primary e-mail and the absolute email-verification URL", async () => {
    const { user, service } = setup();
    expect(await user.sendVerificationEmail()).toBeUndefined();
    expect(sent(service)).toEqual([
      {
        method: "POST",
        path: "/api/v1/contact-channels/send-verification-code",
        body: { email: "ada@example.com", callback_url: "https://app.example.com/handler/email-verification" },
      },
    ]);
  });

  it("sends the callbackUrl given", async () => {
    const { user, service } = setup();
    await user.sendVerificationEmail({ callbackUrl: "https://app.example.com/verify-email" });
    expect(sent(service)[0]!.body).toEqual({ email: "ada@example.com", callback_url: "https://app.example.com/verify-email" });
  });

  it("returns EmailAlreadyVerified (not thrown), as the reference SDK does", async () => {
    const { user } = setup({ handler: () => knownError(409, "EMAIL_ALREADY_VERIFIED", "The e-mail is already verified.") });
    expect(await user.sendVerificationEmail()).toBeInstanceOf(KnownErrors.EmailAlreadyVerified);
  });

  it("resolves undefined once the e-mail is sent", async () => {
    const { user } = setup();
    expect(await user.sendVerificationEmail()).toBeUndefined();
  });

  it("without a primary e-mail is a configuration error and sends nothing", async () => {
    const { user, service } = setup({ wire: { primary_email: null, primary_email_verified: false } });
    const error = await rejectionOf(user.sendVerificationEmail());
    expect(isStackError(error, "StackConfigurationError")).toBe(true);
    expect((error as Error).message).toContain("primary e-mail");
    expect(service.requests).toEqual([]);
  });
});

describe("updatePassword and setPassword", () => {
  it("updatePassword is POST /auth/password/update {old_password, new_password}, resolving undefined", async () => {
    const { user, service } = setup();
    expect(await user.updatePassword({ oldPassword: "old-secret", newPassword: "new-secret" })).toBeUndefined();
    expect(sent(service)).toEqual([
      { method: "POST", path: "/api/v1/auth/password/update", body: { old_password: "old-secret", new_password: "new-secret" } },
    ]);
  });

  it("updatePassword returns PasswordConfirmationMismatch (not thrown), as the reference SDK does", async () => {
    const { user } = setup({ handler: () => knownError(400, "PASSWORD_CONFIRMATION_MISMATCH", "Passwords do not match.") });
    const error = await user.updatePassword({ oldPassword: "wrong", newPassword: "new-secret" });
    expect(error).toBeInstanceOf(KnownErrors.PasswordConfirmationMismatch);
    expect(error?.errorCode).toBe("PASSWORD_CONFIRMATION_MISMATCH");
  });

  it("setPassword is POST /auth/password/set {password}", async () => {
    const { user, service } = setup({ wire: { has_password: false } });
    expect(await user.setPassword({ password: "first-secret" })).toBeUndefined();
    expect(sent(service)).toEqual([{ method: "POST", path: "/api/v1/auth/password/set", body: { password: "first-secret" } }]);
  });
});

describe("tokens for the app's own backend", () => {
  it("getAuthJson and currentSession.getTokens give the session's tokens", async () => {
    const { user, store } = setup();
    const { accessToken, refreshToken } = store!.get();
    expect(await user.getAuthJson()).toEqual({ accessToken, refreshToken });
    expect(await user.currentSession.getTokens()).toEqual({ accessToken, refreshToken });
  });

  it("getAuthHeaders gives x-stack-auth as the JSON of { accessToken, refreshToken }", async () => {
    const { user, store, service } = setup();
    const { accessToken, refreshToken } = store!.get();
    expect(await user.getAuthHeaders()).toEqual({ "x-stack-auth": JSON.stringify({ accessToken, refreshToken }) });
    expect(service.requests).toEqual([]);
  });

  it("refreshes an access token with less than 20 s of life first", async () => {
    const fresh = jwt({ exp: inSeconds(600) });
    const { user, service } = setup({
      tokens: { refreshToken: "rt-user", accessToken: jwt({ exp: inSeconds(19) }) },
      handler: (r) => (r.path === "/api/v1/auth/oauth/token" ? json({ access_token: fresh }) : json({ success: true })),
    });
    expect(await user.getAuthJson()).toEqual({ accessToken: fresh, refreshToken: "rt-user" });
    expect(service.requests.map((r) => r.path)).toEqual(["/api/v1/auth/oauth/token"]);
  });

  it("getAccessToken and getRefreshToken give one token each, without a request while the access token lives", async () => {
    const { user, store, service } = setup();
    const { accessToken, refreshToken } = store!.get();
    expect(await user.getAccessToken()).toBe(accessToken);
    expect(await user.getRefreshToken()).toBe(refreshToken);
    expect(service.requests).toEqual([]);
  });

  it("getAccessToken refreshes an access token with less than 20 s of life first", async () => {
    const fresh = jwt({ exp: inSeconds(600) });
    const { user, service } = setup({
      tokens: { refreshToken: "rt-user", accessToken: jwt({ exp: inSeconds(19) }) },
      handler: (r) => (r.path === "/api/v1/auth/oauth/token" ? json({ access_token: fresh }) : json({ success: true })),
    });
    expect(await user.getAccessToken()).toBe(fresh);
    expect(await user.getRefreshToken()).toBe("rt-user");
    expect(service.requests.map((r) => r.path)).toEqual(["/api/v1/auth/oauth/token"]);
  });

  it("getRefreshToken is null for a session held by an access token alone", async () => {
    const accessToken = jwt({ exp: inSeconds(600) });
    const { user } = setup({ tokens: { refreshToken: null, accessToken } });
    expect(await user.getAccessToken()).toBe(accessToken);
    expect(await user.getRefreshToken()).toBeNull();
  });
});

describe("signOut and registerPasskey", () => {
  it("are the app's flows, given their options", async () => {
    const { user, extras } = setup();
    await user.signOut({ redirectUrl: "/bye" });
    expect(await user.registerPasskey({ hostname: "example.com" })).toEqual({ status: "ok", data: undefined });
    expect(extras.signOut).toHaveBeenCalledWith({ redirectUrl: "/bye" });
    expect(extras.registerPasskey).toHaveBeenCalledWith({ hostname: "example.com" });
  });
});

describe("the composed methods", () => {
  const empty: Handler = () => json({ items: [], is_paginated: false });

  it("include the team, API-key, contact-channel, session, permission and connected-account methods", async () => {
    const { user, service } = setup({ handler: empty });
    await user.listTeams();
    await user.listApiKeys();
    await user.listContactChannels();
    await user.getActiveSessions();
    await user.listPermissions();
    expect(service.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      "GET /api/v1/teams?user_id=me",
      "GET /api/v1/user-api-keys?user_id=me",
      "GET /api/v1/contact-channels?user_id=me",
      "GET /api/v1/auth/sessions?user_id=me",
      "GET /api/v1/project-permissions?user_id=me&recursive=true",
    ]);
    expect(user.getConnectedAccount).toEqual(expect.any(Function));
  });

  it("include createProject and listOwnedProjects for users of the internal project only", async () => {
    const { ctx: appCtx, service } = testAppContext(empty);
    const ctx = { ...appCtx, projectId: "internal" };
    // As the app hands them: the owned-project feature on the user's context.
    const ownedProjects = { createProject: vi.fn(), listOwnedProjects: (o?: CallOptions) => listOwnedProjects(ctx, o) };
    const user = createCurrentUser(ctx, EXAMPLE, { ...extrasForTest(), ownedProjects });
    expect(await (user as CurrentInternalUser).listOwnedProjects()).toEqual([]);
    expect(service.requests.map((r) => r.path)).toEqual(["/api/v1/internal/projects"]);
    const other = setup().user as Partial<CurrentInternalUser>;
    expect(other.listOwnedProjects).toBeUndefined();
    expect(other.createProject).toBeUndefined();
  });
});
