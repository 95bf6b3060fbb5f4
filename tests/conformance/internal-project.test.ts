// The `internal` project as the service's seed script makes it with its
// development settings (apps/backend/prisma/seed.ts and apps/backend/.env.development
// at each version): the four shared OAuth providers, sign-up and one-time codes on,
// no user API keys; 2.8.86 also lets clients create teams, gives every new user a
// team, rewrites the two team permissions and makes an "Internal Team" the owner.
import { describe, expect, it } from "vitest";
import { DEFAULT_TEAM_PERMISSIONS, INTERNAL_KEYS, serviceOf, SERVICE_VERSIONS, signUp } from "./harness.js";

const internalAdmin = { as: "admin", keys: INTERNAL_KEYS } as const;

describe.each(SERVICE_VERSIONS)("the seeded internal project on %s", (version) => {
  it("answers its client configuration with the seeded providers and flags", async () => {
    const service = await serviceOf(version);
    const answer = await service.call("GET", "/projects/current", { keys: INTERNAL_KEYS });
    expect(answer.status).toBe(200);
    expect(answer.body.id).toBe("internal");
    expect(answer.body.display_name).toBe("Stack Dashboard");
    expect(answer.body.config).toMatchObject({
      allow_team_api_keys: false,
      allow_user_api_keys: false,
      client_team_creation_enabled: version === "2.8.86",
      client_user_deletion_enabled: false,
      credential_enabled: true,
      enabled_oauth_providers: [{ id: "github" }, { id: "google" }, { id: "microsoft" }, { id: "spotify" }],
      magic_link_enabled: true,
      passkey_enabled: false,
      sign_up_enabled: true,
    });
  });

  it("describes itself as the service's admin dashboard, with the shared providers in its admin view", async () => {
    const service = await serviceOf(version);
    const answer = await service.call("GET", "/internal/projects/current", internalAdmin);
    expect(answer.status).toBe(200);
    expect(answer.body.description).toBe("Stack's admin dashboard");
    expect(answer.body.config.oauth_providers.map((p: { id: string; type: string }) => [p.id, p.type])).toEqual([
      ["github", "shared"],
      ["google", "shared"],
      ["microsoft", "shared"],
      ["spotify", "shared"],
    ]);
    expect(answer.body.config.create_team_on_sign_up).toBe(version === "2.8.86");
  });

  it("has its team permission definitions as the version's seed leaves them", async () => {
    const service = await serviceOf(version);
    const answer = await service.call("GET", "/team-permission-definitions", internalAdmin);
    expect(answer.status).toBe(200);
    const own = answer.body.items.filter((d: { id: string }) => !d.id.startsWith("$"));
    expect(own).toEqual(
      version === "2.8.11"
        ? DEFAULT_TEAM_PERMISSIONS
        : [
            { id: "team_admin", description: "2", contained_permission_ids: ["$read_members", "$remove_members", "$update_team"] },
            { id: "team_member", description: "1", contained_permission_ids: ["$read_members"] },
          ],
    );
  });

  it("holds the development key set with the seed's id, description and expiry", async () => {
    const service = await serviceOf(version);
    const answer = await service.call("GET", "/internal/api-keys", internalAdmin);
    expect(answer.status).toBe(200);
    expect(answer.body.items.map((set: Record<string, unknown>) => [set["id"], set["description"], set["expires_at_millis"]])).toEqual([
      ["3142e763-b230-44b5-8636-aa62f7489c26", "Internal API key set", Date.UTC(2099, 11, 31, 23, 59, 59)],
    ]);
  });
});

describe("the seeded internal project on 2.8.86 only", () => {
  it("is owned by the seed's Internal Team, and gives a new dashboard user a team of their own", async () => {
    const service = await serviceOf("2.8.86");
    const teams = await service.call("GET", "/teams", internalAdmin);
    expect(teams.body.items.map((t: { id: string; display_name: string }) => [t.id, t.display_name])).toEqual([
      ["a23e1b7f-ab18-41fc-9ee6-7a9ca9fa543c", "Internal Team"],
    ]);
    const user = await signUp(service, "hedy@example.com", INTERNAL_KEYS);
    const own = await service.call("GET", "/teams?user_id=me", { keys: INTERNAL_KEYS, token: user.accessToken });
    expect(own.body.items.map((t: { display_name: string }) => t.display_name)).toEqual(["hedy@example.com's Team"]);
  });
});

describe("the seeded internal project on 2.8.11 only", () => {
  it("refuses a client's team creation and gives a new dashboard user no team", async () => {
    const service = await serviceOf("2.8.11");
    const user = await signUp(service, "hedy@example.com", INTERNAL_KEYS);
    const own = await service.call("GET", "/teams?user_id=me", { keys: INTERNAL_KEYS, token: user.accessToken });
    expect(own.body.items).toEqual([]);
    const created = await service.call("POST", "/teams", {
      keys: INTERNAL_KEYS,
      token: user.accessToken,
      body: { display_name: "Mine", creator_user_id: "me" },
    });
    expect([created.status, created.body]).toEqual([403, "Client team creation is disabled for this project"]);
  });
});
