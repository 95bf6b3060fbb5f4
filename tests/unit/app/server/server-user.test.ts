// ServerUser (SPEC §3 "User"; endpoints.md §C): the fields, the server-side
// profile changes, and the user's teams. Every call is a server request about
// the user's id.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { isStackError } from "../../../../runtime/errors.js";
import { json, knownError, useFakeClock } from "../../../helpers/fake-service.js";
import { rejectionOf } from "../../../helpers/outcome.js";
import { expectServerRequests, OTHER_ID, sent, TEAM, TEAM_ID, USER, USER_ID, withServerUser } from "./setup.js";

const CHANNEL = {
  id: "5a8e2c1f-7b3d-4e9a-a6c2-8f1d3b5e7a9c",
  user_id: USER_ID,
  value: "ada@example.com",
  type: "email",
  used_for_auth: true,
  is_verified: false,
  is_primary: true,
};

beforeEach(() => useFakeClock());
afterEach(() => vi.useRealTimers());

describe("the fields", () => {
  it("map every CurrentUser field, lastActiveAt and serverMetadata", async () => {
    const { user } = await withServerUser({}, { server_metadata: { stripeId: "cus_1" }, client_read_only_metadata: { plan: "pro" } });
    expect({ ...user }).toMatchObject({
      id: USER_ID,
      displayName: "Ada Lovelace",
      primaryEmail: "ada@example.com",
      primaryEmailVerified: true,
      profileImageUrl: null,
      signedUpAt: new Date(USER.signed_up_at_millis),
      clientMetadata: {},
      clientReadOnlyMetadata: { plan: "pro" },
      hasPassword: true,
      emailAuthEnabled: true,
      otpAuthEnabled: false,
      oauthProviders: [],
      passkeyAuthEnabled: false,
      isMultiFactorRequired: false,
      isAnonymous: false,
      lastActiveAt: new Date(USER.last_active_at_millis),
      serverMetadata: { stripeId: "cus_1" },
    });
    expect(user.lastActiveAt).toBeInstanceOf(Date);
  });

  it("map the server-only fields 2.8.86 added: the administrator's restriction, the country and the risk scores", async () => {
    const { user } = await withServerUser(
      {},
      {
        restricted_by_admin: true,
        restricted_by_admin_reason: "Paused",
        restricted_by_admin_private_details: "rule: disposable e-mail",
        country_code: "GB",
        risk_scores: { sign_up: { bot: 12, free_trial_abuse: 85 } },
      },
    );
    expect({
      restrictedByAdmin: user.restrictedByAdmin,
      restrictedByAdminReason: user.restrictedByAdminReason,
      restrictedByAdminPrivateDetails: user.restrictedByAdminPrivateDetails,
      countryCode: user.countryCode,
      riskScores: user.riskScores,
    }).toEqual({
      restrictedByAdmin: true,
      restrictedByAdminReason: "Paused",
      restrictedByAdminPrivateDetails: "rule: disposable e-mail",
      countryCode: "GB",
      riskScores: { signUp: { bot: 12, freeTrialAbuse: 85 } },
    });
  });

  it("read a 2.8.11 user, which has none of them, as unrestricted, without a country, scored 0", async () => {
    const { user } = await withServerUser(
      {},
      {
        restricted_by_admin: undefined,
        restricted_by_admin_reason: undefined,
        restricted_by_admin_private_details: undefined,
        country_code: undefined,
        risk_scores: undefined,
      },
    );
    expect([user.restrictedByAdmin, user.restrictedByAdminReason, user.restrictedByAdminPrivateDetails, user.countryCode]).toEqual([
      false,
      null,
      null,
      null,
    ]);
    expect(user.riskScores).toEqual({ signUp: { bot: 0, freeTrialAbuse: 0 } });
  });

  it("give selectedTeam as a ServerTeam, or null without one", async () => {
    const { user } = await withServerUser();
    expect(user.selectedTeam).toMatchObject({
      id: TEAM_ID,
      displayName: "Acme Engineering",
      createdAt: new Date(TEAM.created_at_millis),
      serverMetadata: {},
    });
    const none = await withServerUser({}, { selected_team: null, selected_team_id: null });
    expect(none.user.selectedTeam).toBeNull();
  });

  it("are frozen", async () => {
    const { user } = await withServerUser();
    expect(Object.isFrozen(user)).toBe(true);
  });
});

describe("changing the user", () => {
  it("update sends every server-updatable field to PATCH /users/{id} in snake_case", async () => {
    const { user, service } = await withServerUser();
    await user.update({
      displayName: "Ada",
      profileImageUrl: "https://img.example.com/ada.png",
      clientMetadata: { a: 1 },
      clientReadOnlyMetadata: { b: 2 },
      serverMetadata: { c: 3 },
      selectedTeamId: TEAM_ID,
      totpMultiFactorSecret: new Uint8Array([1, 2, 3]),
      otpAuthEnabled: true,
      passkeyAuthEnabled: false,
      primaryEmail: "ada@lovelace.example",
      primaryEmailVerified: true,
      primaryEmailAuthEnabled: true,
      password: "new password",
      passwordHash: "$2a$10$abc",
      isAnonymous: false,
    });
    expect(sent(service)).toEqual([
      {
        method: "PATCH",
        path: `/users/${USER_ID}`,
        body: {
          display_name: "Ada",
          profile_image_url: "https://img.example.com/ada.png",
          client_metadata: { a: 1 },
          client_read_only_metadata: { b: 2 },
          server_metadata: { c: 3 },
          selected_team_id: TEAM_ID,
          totp_secret_base64: "AQID",
          otp_auth_enabled: true,
          passkey_auth_enabled: false,
          primary_email: "ada@lovelace.example",
          primary_email_verified: true,
          primary_email_auth_enabled: true,
          password: "new password",
          password_hash: "$2a$10$abc",
          is_anonymous: false,
        },
      },
    ]);
    expectServerRequests(service);
  });

  it("update sends the sign-up's country and risk scores (services since 2.8.86) as country_code and risk_scores", async () => {
    const { user, service } = await withServerUser();
    await user.update({ countryCode: "US", riskScores: { signUp: { bot: 61, freeTrialAbuse: 27 } } });
    await user.update({ countryCode: null });
    expect(sent(service).map((r) => r.body)).toEqual([
      { country_code: "US", risk_scores: { sign_up: { bot: 61, free_trial_abuse: 27 } } },
      { country_code: null },
    ]);
  });

  it("refuses risk scores not shaped { signUp: { bot, freeTrialAbuse } }, before sending", async () => {
    const { user, service } = await withServerUser();
    const error = await rejectionOf(user.update({ riskScores: { bot: 1, freeTrialAbuse: 2 } as never }));
    expect(isStackError(error, "StackConfigurationError")).toBe(true);
    expect((error as Error).message).toBe(
      "user.update: riskScores must be { signUp: { bot, freeTrialAbuse } }, each a number from 0 to 100.",
    );
    expect(service.requests).toHaveLength(0);
  });

  it("update sends only the fields given, nulls included", async () => {
    const { user, service } = await withServerUser();
    await user.update({ displayName: null, totpMultiFactorSecret: null });
    expect(sent(service)[0]!.body).toEqual({ display_name: null, totp_secret_base64: null });
  });

  it("the set* shorthands send one field each", async () => {
    const { user, service } = await withServerUser();
    await user.setDisplayName("Ada L.");
    await user.setClientMetadata({ theme: "dark" });
    await user.setClientReadOnlyMetadata({ plan: "pro" });
    await user.setServerMetadata({ stripeId: "cus_1" });
    await user.setSelectedTeam({ id: TEAM_ID });
    await user.setSelectedTeam(null);
    expect(sent(service).map((r) => r.body)).toEqual([
      { display_name: "Ada L." },
      { client_metadata: { theme: "dark" } },
      { client_read_only_metadata: { plan: "pro" } },
      { server_metadata: { stripeId: "cus_1" } },
      { selected_team_id: TEAM_ID },
      { selected_team_id: null },
    ]);
    expect(new Set(sent(service).map((r) => `${r.method} ${r.path}`))).toEqual(new Set([`PATCH /users/${USER_ID}`]));
  });

  it("setPrimaryEmail sends the e-mail, and the verified flag when given", async () => {
    const { user, service } = await withServerUser();
    await user.setPrimaryEmail("ada@lovelace.example", { verified: true });
    await user.setPrimaryEmail(null);
    expect(sent(service).map((r) => r.body)).toEqual([
      { primary_email: "ada@lovelace.example", primary_email_verified: true },
      { primary_email: null },
    ]);
  });

  it("delete sends DELETE /users/{id} with an empty body", async () => {
    const { user, service } = await withServerUser();
    await user.delete();
    expect(sent(service)).toEqual([{ method: "DELETE", path: `/users/${USER_ID}`, body: {} }]);
    expectServerRequests(service);
  });

  it("setPassword sends the password and returns PASSWORD_TOO_SHORT (not thrown), as the reference SDK does", async () => {
    const ok = await withServerUser();
    expect(await ok.user.setPassword({ password: "long enough" })).toBeUndefined();
    expect(sent(ok.service)).toEqual([{ method: "PATCH", path: `/users/${USER_ID}`, body: { password: "long enough" } }]);
    const short = await withServerUser({
      [`PATCH /users/${USER_ID}`]: () =>
        knownError(400, "PASSWORD_TOO_SHORT", "Password too short. Minimum length is 8.", { min_length: 8 }),
    });
    expect(await short.user.setPassword({ password: "x" })).toMatchObject({ code: "PASSWORD_TOO_SHORT", errorCode: "PASSWORD_TOO_SHORT" });
  });

  it("updatePassword needs the user's session and says so, without a request", async () => {
    const { user, service } = await withServerUser();
    const error = await rejectionOf(user.updatePassword({ oldPassword: "a", newPassword: "b" }));
    expect(isStackError(error, "StackConfigurationError")).toBe(true);
    expect(String(error)).toMatch(/getUser\(\)/);
    expect(service.requests).toHaveLength(0);
  });

  it("sendVerificationEmail sends the code through the primary e-mail's contact channel", async () => {
    const { user, service } = await withServerUser({ [`GET /contact-channels?user_id=${USER_ID}`]: () => json({ items: [CHANNEL] }) });
    expect(await user.sendVerificationEmail()).toBeUndefined();
    expect(sent(service)).toEqual([
      { method: "GET", path: `/contact-channels?user_id=${USER_ID}` },
      {
        method: "POST",
        path: `/contact-channels/${USER_ID}/${CHANNEL.id}/send-verification-code`,
        body: { callback_url: "https://app.example.com/handler/email-verification" },
      },
    ]);
    expectServerRequests(service);
  });

  it("sendVerificationEmail returns EMAIL_ALREADY_VERIFIED (not thrown), as the reference SDK does", async () => {
    const { user } = await withServerUser({
      [`GET /contact-channels?user_id=${USER_ID}`]: () => json({ items: [CHANNEL] }),
      [`POST /contact-channels/${USER_ID}/${CHANNEL.id}/send-verification-code`]: () =>
        knownError(409, "EMAIL_ALREADY_VERIFIED", "Already verified."),
    });
    expect(await user.sendVerificationEmail()).toMatchObject({ code: "EMAIL_ALREADY_VERIFIED", statusCode: 409 });
  });

  it("sendVerificationEmail without a primary e-mail is a configuration error", async () => {
    const { user } = await withServerUser({ [`GET /contact-channels?user_id=${USER_ID}`]: () => json({ items: [] }) });
    expect(isStackError(await rejectionOf(user.sendVerificationEmail()), "StackConfigurationError")).toBe(true);
  });

  it("refuses an update without options, a bad TOTP secret and a bad selected team, before sending", async () => {
    const { user, service } = await withServerUser();
    for (const call of [
      () => user.update(undefined as never),
      () => user.update({ totpMultiFactorSecret: "secret" as never }),
      () => user.setSelectedTeam(42 as never),
    ]) {
      expect(isStackError(await rejectionOf(call()), "StackConfigurationError")).toBe(true);
    }
    expect(service.requests).toHaveLength(0);
  });
});

describe("the user's teams", () => {
  const teams = () => json({ items: [TEAM] });

  it("listTeams sends GET /teams?user_id={id} and returns ServerTeams", async () => {
    const { user, service } = await withServerUser({ [`GET /teams?user_id=${USER_ID}`]: teams });
    const list = await user.listTeams();
    expect(sent(service)).toEqual([{ method: "GET", path: `/teams?user_id=${USER_ID}` }]);
    expectServerRequests(service);
    expect(list.map((t) => [t.id, t.createdAt])).toEqual([[TEAM_ID, new Date(TEAM.created_at_millis)]]);
  });

  it("getTeam finds a team among the user's own, else null", async () => {
    const { user } = await withServerUser({ [`GET /teams?user_id=${USER_ID}`]: teams });
    expect((await user.getTeam(TEAM_ID))?.id).toBe(TEAM_ID);
    expect(await user.getTeam(OTHER_ID)).toBeNull();
  });

  it("createTeam creates the team with the user as creator, then selects it", async () => {
    const { user, service } = await withServerUser({ "POST /teams": () => json(TEAM, { status: 201 }) });
    const team = await user.createTeam({ displayName: "Acme Engineering" });
    expect(sent(service)).toEqual([
      { method: "POST", path: "/teams", body: { display_name: "Acme Engineering", creator_user_id: USER_ID } },
      { method: "PATCH", path: `/users/${USER_ID}`, body: { selected_team_id: TEAM_ID } },
    ]);
    expectServerRequests(service);
    expect(team.id).toBe(TEAM_ID);
  });

  it("leaveTeam is a server request: DELETE /team-memberships/{team}/{user} with the secret key", async () => {
    const { user, service } = await withServerUser();
    await user.leaveTeam({ id: TEAM_ID });
    expect(sent(service)).toEqual([{ method: "DELETE", path: `/team-memberships/${TEAM_ID}/${USER_ID}`, body: {} }]);
    expectServerRequests(service);
  });

  it("leaveTeam refuses something without a team id, before sending", async () => {
    const { user, service } = await withServerUser();
    expect(isStackError(await rejectionOf(user.leaveTeam({ id: ".." })), "StackConfigurationError")).toBe(true);
    expect(isStackError(await rejectionOf(user.leaveTeam(null as never)), "StackConfigurationError")).toBe(true);
    expect(service.requests).toHaveLength(0);
  });

  it("getTeamProfile reads /team-member-profiles/{team}/{user} and updates it", async () => {
    const profile = { team_id: TEAM_ID, user_id: USER_ID, display_name: "Ada", profile_image_url: null, user: USER };
    const { user, service } = await withServerUser({ [`GET /team-member-profiles/${TEAM_ID}/${USER_ID}`]: () => json(profile) });
    const teamProfile = await user.getTeamProfile({ id: TEAM_ID });
    expect(teamProfile).toMatchObject({ displayName: "Ada", profileImageUrl: null });
    await teamProfile.update({ displayName: "Countess" });
    expect(sent(service)).toEqual([
      { method: "GET", path: `/team-member-profiles/${TEAM_ID}/${USER_ID}` },
      { method: "PATCH", path: `/team-member-profiles/${TEAM_ID}/${USER_ID}`, body: { display_name: "Countess" } },
    ]);
    expectServerRequests(service);
  });
});
