// Users as each version makes, shows and refuses them (users/crud.tsx, lib/users.tsx, lib/end-users.tsx, the
// sign-up and magic-link routes, known-errors.tsx at each version): the sign-up's country and risk scores of
// 2.8.86's server views, the answer of POST /users, the address a taken e-mail is named by, server code's
// passwords and primary e-mails, and the service's own words for a few refusals.
import { describe, expect, it } from "vitest";
import { APP_URL, DEMO_KEYS, INTERNAL_KEYS, PASSWORD, serviceOf, SERVICE_VERSIONS, signUp, type Service } from "./harness.js";

const server = { as: "server" } as const;
const admin = { as: "admin" } as const;

/** What the service's e2e helpers send to look like a browser in Toronto. */
const FROM_CANADA = {
  "user-agent": "Mozilla/5.0",
  "x-forwarded-for": "127.0.0.70",
  "x-vercel-ip-country": "CA",
  "cf-ipcountry": "CA",
} as const;

const passwordSignUp = (service: Service, email: string, headers: Record<string, string> = {}) =>
  service.call("POST", "/auth/password/sign-up", {
    headers,
    body: { email, password: PASSWORD, verification_callback_url: `${APP_URL}/handler/email-verification` },
  });

const countryOf = async (service: Service, userId: string) => (await service.call("GET", `/users/${userId}`, server)).body.country_code;

describe("the sign-up's country and risk on 2.8.86", () => {
  it("server views carry country_code (null for a user server code makes) and zero risk scores; client views neither", async () => {
    const service = await serviceOf("2.8.86");
    const created = await service.call("POST", "/users", { ...server, body: { primary_email: "ada@example.com" } });
    expect([created.body.country_code, created.body.risk_scores]).toEqual([null, { sign_up: { bot: 0, free_trial_abuse: 0 } }]);
    const user = await signUp(service, "grace@example.com");
    const me = await service.call("GET", "/users/me", { token: user.accessToken });
    expect(["country_code" in me.body, "risk_scores" in me.body]).toEqual([false, false]);
  });

  it("a password sign-up records the country a browser's request names (x-vercel-ip-country, else cf-ipcountry)", async () => {
    const service = await serviceOf("2.8.86");
    const vercel = await passwordSignUp(service, "a@example.com", FROM_CANADA);
    expect(await countryOf(service, vercel.body.user_id)).toBe("CA");
    const { "x-vercel-ip-country": _vercel, ...cloudflareOnly } = FROM_CANADA;
    const cloudflare = await passwordSignUp(service, "b@example.com", { ...cloudflareOnly, "cf-ipcountry": " de " });
    expect(await countryOf(service, cloudflare.body.user_id)).toBe("DE");
    // An empty header is taken as given (it is no country), not passed over.
    const empty = await passwordSignUp(service, "c@example.com", { ...FROM_CANADA, "x-vercel-ip-country": "" });
    expect(await countryOf(service, empty.body.user_id)).toBeNull();
  });

  it("records none without a browser's user agent, without a valid IP address, or for a code that is no country", async () => {
    const service = await serviceOf("2.8.86");
    const cases: Record<string, string>[] = [
      { ...FROM_CANADA, "user-agent": "node" },
      { ...FROM_CANADA, "x-forwarded-for": "not-an-ip" },
      { ...FROM_CANADA, "x-vercel-ip-country": "CAN" },
    ];
    for (const [i, headers] of cases.entries()) {
      const answer = await passwordSignUp(service, `u${i}@example.com`, headers);
      expect(await countryOf(service, answer.body.user_id)).toBeNull();
    }
  });

  it("an @example.com address tagged with a country wins over the request's (the service's development environment)", async () => {
    const service = await serviceOf("2.8.86");
    const tagged = await passwordSignUp(service, "ada+fr@example.com", FROM_CANADA);
    expect(await countryOf(service, tagged.body.user_id)).toBe("FR");
    const elsewhere = await passwordSignUp(service, "ada+fr@example.org", FROM_CANADA);
    expect(await countryOf(service, elsewhere.body.user_id)).toBe("CA");
  });

  it("server code sets country_code (trimmed, upper-cased; null clears it) and risk_scores on POST /users and PATCH /users/{id}", async () => {
    const service = await serviceOf("2.8.86");
    const created = await service.call("POST", "/users", {
      ...server,
      body: { primary_email: "imported@example.com", country_code: " us ", risk_scores: { sign_up: { bot: 61, free_trial_abuse: 27 } } },
    });
    expect([created.status, created.body.country_code, created.body.risk_scores]).toEqual([
      201,
      "US",
      { sign_up: { bot: 61, free_trial_abuse: 27 } },
    ]);
    const id = created.body.id as string;
    const scored = await service.call("PATCH", `/users/${id}`, {
      ...server,
      body: { risk_scores: { sign_up: { bot: 5, free_trial_abuse: 0 } } },
    });
    expect([scored.body.country_code, scored.body.risk_scores]).toEqual(["US", { sign_up: { bot: 5, free_trial_abuse: 0 } }]);
    const cleared = await service.call("PATCH", `/users/${id}`, { ...server, body: { country_code: null } });
    expect([cleared.body.country_code, cleared.body.risk_scores]).toEqual([null, { sign_up: { bot: 5, free_trial_abuse: 0 } }]);
  });

  it("refuses a country_code of other than two letters, and a score above 100, with SCHEMA_ERROR; a client cannot set either", async () => {
    const service = await serviceOf("2.8.86");
    const usa = await service.call("POST", "/users", { ...server, body: { country_code: "usa" } });
    const message = "Request validation failed on POST /api/v1/users:\n  - body.country_code must be a 2-letter country code";
    expect([usa.status, usa.body]).toEqual([400, { code: "SCHEMA_ERROR", details: { message }, error: message }]);
    const high = await service.call("POST", "/users", { ...server, body: { risk_scores: { sign_up: { bot: 101, free_trial_abuse: 0 } } } });
    expect([high.status, high.body.code]).toEqual([400, "SCHEMA_ERROR"]);
    const user = await signUp(service, "grace@example.com");
    const own = await service.call("PATCH", "/users/me", { token: user.accessToken, body: { country_code: "US" } });
    expect([own.status, own.body.code]).toEqual([400, "SCHEMA_ERROR"]);
  });

  it("a magic-link sign-up records the country of the request that asked for the e-mail, not of the one that redeems it", async () => {
    const service = await serviceOf("2.8.86");
    await service.call("POST", "/auth/otp/send-sign-in-code", {
      headers: FROM_CANADA,
      body: { email: "grace@example.com", callback_url: `${APP_URL}/handler/magic-link-callback` },
    });
    const [issued] = service.emulator.control.codes({ recipient: "grace@example.com", kind: "magic_link" });
    const signedIn = await service.call("POST", "/auth/otp/sign-in", {
      headers: { ...FROM_CANADA, "x-vercel-ip-country": "US" },
      body: { code: issued!.code },
    });
    expect(await countryOf(service, signedIn.body.user_id)).toBe("CA");
  });
});

describe("the sign-up's country and risk on 2.8.11", () => {
  it("do not exist: server code's country_code and risk_scores are unknown properties of the body", async () => {
    const service = await serviceOf("2.8.11");
    const created = await service.call("POST", "/users", { ...server, body: { country_code: "US" } });
    const message = "Request validation failed on POST /api/v1/users:\n  - body contains unknown properties: country_code";
    expect([created.status, created.body]).toEqual([400, { code: "SCHEMA_ERROR", details: { message }, error: message }]);
    const user = await service.call("POST", "/users", { ...server, body: {} });
    const updated = await service.call("PATCH", `/users/${user.body.id}`, {
      ...server,
      body: { risk_scores: { sign_up: { bot: 1, free_trial_abuse: 1 } } },
    });
    expect([updated.status, updated.body.code]).toEqual([400, "SCHEMA_ERROR"]);
  });
});

describe.each(SERVICE_VERSIONS)("users on %s", (version) => {
  it("POST /users answers the user as made, before its personal team: none selected; reading it shows the team", async () => {
    const service = await serviceOf(version);
    // The internal project gives every new user a team of their own on both versions' seeds.
    await service.call("PATCH", "/internal/projects/current", { ...admin, body: { config: { create_team_on_sign_up: true } } });
    const created = await service.call("POST", "/users", { ...server, body: { display_name: "Ada" } });
    expect([created.status, created.body.selected_team_id, created.body.selected_team]).toEqual([201, null, null]);
    const read = await service.call("GET", `/users/${created.body.id}`, server);
    expect(read.body.selected_team?.display_name).toBe("Ada's Team");
  });

  it("USER_EMAIL_ALREADY_EXISTS names the address as stored (2.8.86: lower-cased) and on 2.8.86 says verifying would not help", async () => {
    const service = await serviceOf(version);
    await signUp(service, "ada@example.com");
    // 2.8.86 stores the address lower-cased, and so finds it however it is typed.
    const again = await passwordSignUp(service, version === "2.8.11" ? "ada@example.com" : "ADA@example.com");
    const email = "ada@example.com";
    expect([again.status, again.body]).toEqual([
      409,
      {
        code: "USER_EMAIL_ALREADY_EXISTS",
        details: version === "2.8.11" ? { email } : { email, would_work_if_email_was_verified: false },
        error: `A user with email "${email}" already exists.`,
      },
    ]);
  });

  it("a magic link to a user's unverified address is USER_EMAIL_ALREADY_EXISTS; 2.8.86 says verifying it would let the link in", async () => {
    const service = await serviceOf(version);
    await signUp(service, "ada@example.com");
    const sent = await service.call("POST", "/auth/otp/send-sign-in-code", {
      body: { email: "ada@example.com", callback_url: `${APP_URL}/handler/magic-link-callback` },
    });
    expect(sent.status).toBe(409);
    expect(sent.body).toEqual(
      version === "2.8.11"
        ? {
            code: "USER_EMAIL_ALREADY_EXISTS",
            details: { email: "ada@example.com" },
            error: 'A user with email "ada@example.com" already exists.',
          }
        : {
            code: "USER_EMAIL_ALREADY_EXISTS",
            details: { email: "ada@example.com", would_work_if_email_was_verified: true },
            error:
              'A user with email "ada@example.com" already exists but the email is not verified. Please login to your existing account with the method you used to sign up, and then verify your email to sign in with this login method.',
          },
    );
  });

  it("the magic-link e-mail of a project without magic links is a plain 403 in the version's words", async () => {
    const service = await serviceOf(version);
    await service.call("PATCH", "/internal/projects/current", { ...admin, body: { config: { magic_link_enabled: false } } });
    const sent = await service.call("POST", "/auth/otp/send-sign-in-code", {
      body: { email: "ada@example.com", callback_url: `${APP_URL}/handler/magic-link-callback` },
    });
    expect([sent.status, sent.body]).toEqual([
      403,
      version === "2.8.11" ? "Magic link is not enabled for this project" : "OTP sign-in is not enabled for this project",
    ]);
  });

  it("server code sets any password up to 70 characters: a sign-up's rules do not hold it", async () => {
    const service = await serviceOf(version);
    const created = await service.call("POST", "/users", {
      ...server,
      body: { primary_email: "ada@example.com", primary_email_auth_enabled: true, password: "testing" },
    });
    expect([created.status, created.body.has_password]).toEqual([201, true]);
    const signedIn = await service.call("POST", "/auth/password/sign-in", { body: { email: "ada@example.com", password: "testing" } });
    expect(signedIn.status).toBe(200);
    const long = await service.call("PATCH", `/users/${created.body.id}`, { ...server, body: { password: "x".repeat(71) } });
    expect([long.status, long.body.code, long.body.error]).toEqual([
      400,
      "SCHEMA_ERROR",
      `Request validation failed on PATCH /api/v1/users/${created.body.id}:\n  - body.password must be at most 70 characters`,
    ]);
  });

  it("a new primary e-mail: 2.8.11 changes the primary channel in place, 2.8.86 keeps the old address as another channel", async () => {
    const service = await serviceOf(version);
    const ada = await signUp(service, "ada@example.com");
    await service.call("PATCH", `/users/${ada.userId}`, { ...server, body: { primary_email_verified: true } });
    const changed = await service.call("PATCH", `/users/${ada.userId}`, { ...server, body: { primary_email: "ada@new.example" } });
    expect([changed.body.primary_email, changed.body.primary_email_verified]).toEqual(["ada@new.example", version === "2.8.11"]);
    const channels = await service.call("GET", `/contact-channels?user_id=${ada.userId}`, server);
    const listed = channels.body.items.map((c: { value: string; is_primary: boolean }) => [c.value, c.is_primary]);
    expect(listed).toEqual(
      version === "2.8.11"
        ? [["ada@new.example", true]]
        : [
            ["ada@example.com", false],
            ["ada@new.example", true],
          ],
    );
  });

  it("GET /user-api-keys without user_id is SCHEMA_ERROR in the service's own sentence", async () => {
    const service = await serviceOf(version);
    await service.call("PATCH", "/internal/projects/current", { ...admin, body: { config: { allow_user_api_keys: true } } });
    const answer = await service.call("GET", "/user-api-keys", server);
    const sentence = "user_id is required for user API keys";
    expect([answer.status, answer.body]).toEqual([400, { code: "SCHEMA_ERROR", details: { message: sentence }, error: sentence }]);
  });

  it("the project's OAuth providers and default permissions are answered sorted by id, whatever order they were set in", async () => {
    const service = await serviceOf(version);
    const updated = await service.call("PATCH", "/internal/projects/current", {
      ...admin,
      body: {
        config: {
          oauth_providers: [
            { id: "spotify", type: "shared" },
            { id: "google", type: "shared" },
          ],
          team_creator_default_permissions: [{ id: "team_member" }, { id: "team_admin" }],
        },
      },
    });
    const { config } = updated.body;
    expect(config.oauth_providers.map((p: { id: string }) => p.id)).toEqual(["google", "spotify"]);
    expect(config.enabled_oauth_providers.map((p: { id: string }) => p.id)).toEqual(["google", "spotify"]);
    expect(config.team_creator_default_permissions).toEqual([{ id: "team_admin" }, { id: "team_member" }]);
  });

  it("the projects a user owns: USER_AUTHENTICATION_REQUIRED without a user comes before EXPECTED_INTERNAL_PROJECT", async () => {
    const service = await serviceOf(version);
    const anonymous = await service.call("GET", "/internal/projects", { keys: DEMO_KEYS });
    expect([anonymous.status, anonymous.body.code]).toEqual([401, "USER_AUTHENTICATION_REQUIRED"]);
    const ada = await signUp(service, "ada@example.com");
    const elsewhere = await service.call("GET", "/internal/projects", { keys: DEMO_KEYS, token: ada.accessToken });
    expect([elsewhere.status, elsewhere.body.code]).toEqual([401, "EXPECTED_INTERNAL_PROJECT"]);
    const owner = await signUp(service, "owner@example.com", INTERNAL_KEYS);
    expect((await service.call("GET", "/internal/projects", { keys: INTERNAL_KEYS, token: owner.accessToken })).status).toBe(200);
  });
});
