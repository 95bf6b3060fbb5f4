// A project's configuration as the admin routes show and take it: the service's
// projects CRUD schemas (packages/stack-shared/src/interface/crud/projects.ts,
// schema-fields.ts) and its legacy-config translation (apps/backend/src/lib/config.tsx
// renderedOrganizationConfigToProjectCrud, lib/projects.tsx) at each version, and
// 2.8.86's update route (internal/projects/current/crud.tsx), with its own tests
// (apps/e2e/tests/backend/endpoints/api/v1/projects.test.ts, internal/projects.test.ts).
import { describe, expect, it } from "vitest";
import { INTERNAL_KEYS } from "../../emulator/index.js";
import { SERVICE_VERSIONS, serviceOf, signUp, type Service } from "./harness.js";

const PATH = "/internal/projects/current";
const schemaError = (problems: readonly string[]) => {
  const message = `Request validation failed on PATCH /api/v1${PATH}:\n${problems.map((p) => `  - ${p}`).join("\n")}`;
  return { code: "SCHEMA_ERROR", details: { message }, error: message };
};
const update = (service: Service, body: unknown) => service.call("PATCH", PATH, { as: "admin", body });

const STANDARD_EMAIL = {
  type: "standard",
  host: "smtp.example.com",
  port: 587,
  username: "mailer",
  password: "secret",
  sender_name: "Acme",
  sender_email: "noreply@acme.example",
};
// Each version's allProviders (packages/stack-shared/src/utils/oauth.tsx), in its order.
const PROVIDERS = {
  "2.8.11": ["google", "github", "microsoft", "spotify", "facebook", "discord", "gitlab", "bitbucket", "linkedin", "apple", "x"],
  "2.8.86": ["google", "github", "microsoft", "spotify", "facebook", "discord", "gitlab", "bitbucket", "linkedin", "apple", "x", "twitch"],
} as const;
const LIGHT_THEME = "1df07ae6-abf3-4a40-83a5-a1a2cbe336ac";
const DARK_THEME = "a0172b5d-cff0-463b-83bb-85124697373a";
const STORED_LOGO =
  /^http:\/\/localhost:8102\/emulator\/storage\/project-logos\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.png$/;
const PNG = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAAD0lEQVR4AQEEAPv/ALHBwQRaAjRgT7lCAAAAAElFTkSuQmCC";

describe.each(SERVICE_VERSIONS)("a project's configuration on %s", (version) => {
  it("lists OAuth providers sorted by id, a provider given twice once (the last), and enables each", async () => {
    const service = await serviceOf(version);
    const answer = await update(service, {
      config: {
        oauth_providers: [
          { id: "spotify", type: "shared" },
          { id: "google", type: "shared" },
          { id: "spotify", type: "standard", client_id: "id", client_secret: "secret" },
        ],
      },
    });
    expect(answer.status).toBe(200);
    const ids = answer.body.config.oauth_providers.map((p: { id: string; type: string }) => `${p.id}:${p.type}`);
    expect(ids).toEqual(["google:shared", "spotify:standard"]);
    expect(answer.body.config.enabled_oauth_providers).toEqual([{ id: "google" }, { id: "spotify" }]);
  });

  it("lists the default permissions sorted by id, one per id", async () => {
    const service = await serviceOf(version);
    const answer = await update(service, {
      config: { team_creator_default_permissions: [{ id: "team_member" }, { id: "team_admin" }, { id: "team_member" }] },
    });
    expect(answer.body.config.team_creator_default_permissions).toEqual([{ id: "team_admin" }, { id: "team_member" }]);
  });

  it("wants a standard e-mail server's every field, none of its texts empty: SCHEMA_ERROR", async () => {
    const service = await serviceOf(version);
    const empty = await update(service, { config: { email_config: { ...STANDARD_EMAIL, host: "" } } });
    expect([empty.status, empty.body]).toEqual([400, schemaError(["body.config.email_config.host must not be empty"])]);
    const bare = await update(service, { config: { email_config: { type: "standard" } } });
    expect(bare.body).toEqual(
      schemaError(
        ["host", "port", "username", "password", "sender_name", "sender_email"].map((f) => `body.config.email_config.${f} must be defined`),
      ),
    );
    const accepted = await update(service, { config: { email_config: STANDARD_EMAIL } });
    expect([accepted.status, accepted.body.config.email_config]).toEqual([200, STANDARD_EMAIL]);
  });

  it("knows no other field of the e-mail server: contains unknown properties", async () => {
    const service = await serviceOf(version);
    const answer = await update(service, { config: { email_config: { type: "shared", client_id: "client_id" } } });
    expect([answer.status, answer.body]).toEqual([400, schemaError(["body.config.email_config contains unknown properties: client_id"])]);
  });

  it("wants a standard OAuth provider's client id and secret, neither empty, and no other field: SCHEMA_ERROR", async () => {
    const service = await serviceOf(version);
    const answer = await update(service, {
      config: { oauth_providers: [{ id: "google", type: "standard", client_id: "client_id", client_secret: "" }] },
    });
    expect([answer.status, answer.body]).toEqual([400, schemaError(["body.config.oauth_providers[0].client_secret must not be empty"])]);
    const older = await update(service, { config: { oauth_providers: [{ id: "google", type: "shared", enabled: true }] } });
    expect(older.body).toEqual(schemaError(["body.config.oauth_providers[0] contains unknown properties: enabled"]));
    // Yup runs a provider's field tests last field first, and its sort by field name leaves them so ("id" is in
    // every path under oauth_providers).
    const missing = await update(service, { config: { oauth_providers: [{ id: "github", type: "standard" }] } });
    expect(missing.body).toEqual(
      schemaError([
        "body.config.oauth_providers[0].client_secret must be defined",
        "body.config.oauth_providers[0].client_id must be defined",
      ]),
    );
  });

  it("takes any provider it knows with shared keys; an unknown provider id is SCHEMA_ERROR, after the provider's other problems", async () => {
    const service = await serviceOf(version);
    const providers = PROVIDERS[version].join(", ");
    const shared = await update(service, { config: { oauth_providers: [{ id: "discord", type: "shared" }] } });
    expect([shared.status, shared.body.config.oauth_providers]).toEqual([
      200,
      [{ ...(version === "2.8.86" && { provider_config_id: "discord" }), id: "discord", type: "shared" }],
    ]);
    const unknown = await update(service, {
      config: {
        oauth_providers: [
          { id: "github", type: "shared" },
          { id: "myspace", type: "standard" },
        ],
      },
    });
    expect([unknown.status, unknown.body]).toEqual([
      400,
      schemaError([
        "body.config.oauth_providers[1].client_secret must be defined",
        "body.config.oauth_providers[1].client_id must be defined",
        `body.config.oauth_providers[1].id must be one of the following values: ${providers}`,
      ]),
    ]);
    expect((await service.call("GET", PATH, { as: "admin" })).body.config.oauth_providers.map((p: { id: string }) => p.id)).toEqual([
      "discord",
    ]);
  });
});

describe("Twitch sign-in", () => {
  it("is 2.8.86's: 2.8.11's schema does not know the provider", async () => {
    const older = await update(await serviceOf("2.8.11"), { config: { oauth_providers: [{ id: "twitch", type: "shared" }] } });
    expect(older.body).toEqual(
      schemaError([`body.config.oauth_providers[0].id must be one of the following values: ${PROVIDERS["2.8.11"].join(", ")}`]),
    );
    const newer = await update(await serviceOf("2.8.86"), { config: { oauth_providers: [{ id: "twitch", type: "shared" }] } });
    expect([newer.status, newer.body.config.enabled_oauth_providers]).toEqual([200, [{ id: "twitch" }]]);
  });
});

describe("2.8.86's additions to a project", () => {
  it("shows the e-mail theme, each provider's config id, the logos and the onboarding stage", async () => {
    const service = await serviceOf("2.8.86");
    const answer = await update(service, { config: { oauth_providers: [{ id: "google", type: "shared" }] } });
    expect(answer.body).toMatchObject({
      logo_url: null,
      logo_full_url: null,
      logo_dark_mode_url: null,
      logo_full_dark_mode_url: null,
      onboarding_status: "completed",
      config: { email_theme: LIGHT_THEME, oauth_providers: [{ provider_config_id: "google", id: "google", type: "shared" }] },
    });
  });

  it("takes one of the project's e-mail themes; another is a plain-text 400 'Invalid email theme'", async () => {
    const service = await serviceOf("2.8.86");
    const refused = await update(service, { config: { email_theme: "some-invalid-theme" } });
    expect([refused.status, refused.headers.get("x-stack-known-error"), refused.body]).toEqual([400, null, "Invalid email theme"]);
    expect((await update(service, { config: { email_theme: DARK_THEME } })).body.config.email_theme).toBe(DARK_THEME);
    expect((await service.call("GET", PATH, { as: "admin" })).body.config.email_theme).toBe(DARK_THEME);
  });

  it("takes logos as http(s) URLs or base64 images and null to remove one; another URL is a plain-text 400", async () => {
    const service = await serviceOf("2.8.86");
    const set = await update(service, { logo_url: PNG, logo_full_url: "https://acme.example/logo.svg", onboarding_status: "welcome" });
    expect(set.body).toMatchObject({ logo_full_url: "https://acme.example/logo.svg", onboarding_status: "welcome" });
    // The service uploads a base64 logo (s3.tsx uploadAndGetUrl, folder project-logos) and keeps the file's URL.
    expect(set.body.logo_url).toMatch(STORED_LOGO);
    const file = await service.emulator.fetch(new Request(set.body.logo_url));
    expect([file.status, file.headers.get("content-type"), Buffer.from(await file.arrayBuffer()).toString("base64")]).toEqual([
      200,
      "image/png",
      PNG.slice("data:image/png;base64,".length),
    ]);
    expect((await service.call("GET", PATH, { as: "admin" })).body.logo_url).toBe(set.body.logo_url);
    const dark = await update(service, { logo_full_dark_mode_url: PNG });
    expect([dark.body.logo_full_dark_mode_url, dark.body.logo_url]).toEqual([expect.stringMatching(STORED_LOGO), set.body.logo_url]);
    expect(dark.body.logo_full_dark_mode_url).not.toBe(set.body.logo_url);
    const removed = await update(service, { logo_full_url: null });
    expect(removed.body.logo_full_url).toBeNull();
    const refused = await update(service, { logo_dark_mode_url: "ftp://acme.example/logo.png" });
    expect([refused.status, refused.body]).toEqual([400, "Invalid profile image URL"]);
    const notUrl = await update(service, { logo_url: "not a url" });
    expect(notUrl.body).toEqual(schemaError(["body.logo_url contains spaces", "body.logo_url is not a valid URL"]));
  });

  it("stores a base64 logo of a new project too, and answers its URL", async () => {
    const service = await serviceOf("2.8.86");
    const owner = await signUp(service, "owner@example.com", INTERNAL_KEYS);
    const asOwner = { keys: INTERNAL_KEYS, token: owner.accessToken };
    const team = await service.call("POST", "/teams", { ...asOwner, body: { display_name: "Owners", creator_user_id: "me" } });
    const created = await service.call("POST", "/internal/projects", {
      ...asOwner,
      body: { display_name: "Acme", owner_team_id: team.body.id, logo_url: PNG, logo_dark_mode_url: "https://acme.example/dark.png" },
    });
    expect([created.status, created.body.logo_dark_mode_url]).toEqual([201, "https://acme.example/dark.png"]);
    expect(created.body.logo_url).toMatch(STORED_LOGO);
    expect((await service.emulator.fetch(new Request(created.body.logo_url))).status).toBe(200);
  });

  it("takes the e-mail-verification requirement in the config: unverified users are then restricted", async () => {
    const service = await serviceOf("2.8.86");
    expect((await update(service, { config: { require_email_verification: true } })).status).toBe(200);
    const user = await service.call("POST", "/users", { as: "server", body: { primary_email: "new@example.com" } });
    expect(user.body).toMatchObject({ is_restricted: true, restricted_reason: { type: "email_not_verified" } });
  });
});

describe("2.8.11's project", () => {
  it("knows none of 2.8.86's fields: unknown properties of the body and its config", async () => {
    const service = await serviceOf("2.8.11");
    const logo = await update(service, { logo_url: "https://acme.example/logo.png", onboarding_status: "completed" });
    expect(logo.body).toEqual(schemaError(["body contains unknown properties: logo_url, onboarding_status"]));
    const theme = await update(service, { config: { email_theme: LIGHT_THEME } });
    expect(theme.body).toEqual(schemaError(["body.config contains unknown properties: email_theme"]));
    const read = await service.call("GET", PATH, { as: "admin" });
    expect(read.body).not.toHaveProperty("onboarding_status");
    expect(read.body.config).not.toHaveProperty("email_theme");
  });
});
