// Projects through the SDK against the emulator: an internal-project user
// creates and lists owned projects and manages them with the owned project's
// admin app; the project's key sets are made, used and revoked; the admin view
// counts the users in the state.
import { describe, expect, it } from "vitest";
import { DEMO_KEYS, INTERNAL_KEYS } from "../../emulator/index.js";
import { isKnownError, StackAdminApp, StackClientApp, StackServerApp, type CurrentInternalUser } from "../../runtime/index.js";
import { demoApps, useEmulator } from "../helpers/emulator.js";

const emulator = useEmulator();

const HOUR = 3600_000;

function environment() {
  const e = emulator();
  return { fetch: e.fetch, now: () => e.control.now() };
}

function base(projectId: string) {
  return { projectId, baseUrl: emulator().apiOrigin, environment: environment(), browser: null, noAutomaticPrefetch: true } as const;
}

/** A signed-in user of the internal project (a dashboard user), as a client app of that project. */
async function owner(email: string) {
  const { control } = emulator();
  const record = await control.createUser({ projectId: INTERNAL_KEYS.projectId, email, password: "correct horse battery" });
  const app = new StackClientApp({
    ...base(INTERNAL_KEYS.projectId),
    publishableClientKey: INTERNAL_KEYS.publishableClientKey,
    tokenStore: await control.createSession(record.id),
  });
  // Users of the internal project are CurrentInternalUsers (they own projects).
  return { record, user: (await app.getUser({ or: "throw" })) as CurrentInternalUser };
}

describe("owned projects", () => {
  // The official SDK's apps pass `user._internalSession` as `projectOwnerSession` (its own tests/js do).
  it("an admin app on the owner's _internalSession administers an owned project, until that session ends", async () => {
    const { user } = await owner("admin@example.com");
    const project = await user.createProject({ displayName: "Gamma" });
    expect(Object.keys(user)).not.toContain("_internalSession");
    const admin = new StackAdminApp({ ...base(project.id), tokenStore: null, projectOwnerSession: user._internalSession });
    expect((await admin.getProject()).displayName).toBe("Gamma");
    await admin.createUser({ primaryEmail: "staff@example.com" });
    expect((await admin.listUsers()).map((u) => u.primaryEmail)).toEqual(["staff@example.com"]);
    await user.signOut();
    const ended = await admin.getProject().then(
      () => "answered",
      (error: unknown) => (error as Error).name,
    );
    expect(ended).toBe("SessionEndedError");
  });

  it("creates a project with the service's defaults and the given config, and lists it for its owner only", async () => {
    const { user } = await owner("founder@example.com");
    const project = await user.createProject({
      displayName: "Acme",
      description: "Acme's customer portal",
      config: { magicLinkEnabled: true, oauthProviders: [{ id: "github", type: "shared" }] },
    });
    expect(project).toMatchObject({ displayName: "Acme", description: "Acme's customer portal", isProductionMode: false });
    expect(project.config).toMatchObject({
      signUpEnabled: true,
      credentialEnabled: true,
      magicLinkEnabled: true,
      allowLocalhost: true,
      oauthProviders: [{ id: "github", type: "shared" }],
    });
    expect(
      emulator()
        .control.requests({ operationId: "createOwnedProject" })
        .map((r) => r.status),
    ).toEqual([400, 201]); // 2.8.86 requires an owner team: the SDK sends the body again with one

    emulator().control.advanceClock(1000);
    const second = await user.createProject({ displayName: "Beta" });
    expect((await user.listOwnedProjects()).map((p) => p.id)).toEqual([second.id, project.id]);

    const { user: stranger } = await owner("stranger@example.com");
    expect(await stranger.listOwnedProjects()).toEqual([]);
  });

  it("gives the owner an admin app that reads and updates the project and its users", async () => {
    const { user } = await owner("founder@example.com");
    const created = await user.createProject({ displayName: "Acme" });
    const app = created.app;

    await app.getProject().then((p) =>
      p.update({
        displayName: "Acme Inc.",
        config: { signUpEnabled: false, domains: [{ domain: "https://acme.example", handlerPath: "/handler" }] },
      }),
    );
    await emulator().control.createUser({ projectId: created.id, email: "customer@example.com" });
    await emulator().control.createUser({ projectId: created.id, email: "other@example.com" });

    const read = await app.getProject();
    expect(read).toMatchObject({ id: created.id, displayName: "Acme Inc." });
    expect((await app.listUsers()).map((u) => u.primaryEmail).sort()).toEqual(["customer@example.com", "other@example.com"]);
    expect(read.config.signUpEnabled).toBe(false);
    expect(read.config.credentialEnabled).toBe(true);
    expect(read.config.domains).toEqual([{ domain: "https://acme.example", handlerPath: "/handler" }]);
    const [listed] = await user.listOwnedProjects();
    expect(listed).toMatchObject({ displayName: "Acme Inc." });
  });

  it("takes any provider the service knows with shared keys, and refuses an unknown provider id with SCHEMA_ERROR", async () => {
    const { user } = await owner("founder@example.com");
    const created = await user.createProject({ displayName: "Acme" });
    const project = await created.app.getProject();
    // The service's shared keys cover four providers, but neither version checks that when the config is set.
    await project.update({ config: { oauthProviders: [{ id: "gitlab", type: "shared" }] } });
    expect((await created.app.getProject()).config.oauthProviders).toEqual([{ id: "gitlab", type: "shared" }]);

    const error = await project.update({ config: { oauthProviders: [{ id: "myspace", type: "shared" }] } }).catch((e: unknown) => e);
    expect(isKnownError(error, "SCHEMA_ERROR")).toBe(true);
    expect((error as { details?: unknown }).details).toEqual({
      message:
        "Request validation failed on PATCH /api/v1/internal/projects/current:\n" +
        "  - body.config.oauth_providers[0].id must be one of the following values: " +
        "google, github, microsoft, spotify, facebook, discord, gitlab, bitbucket, linkedin, apple, x, twitch",
    });
    expect((await created.app.getProject()).config.oauthProviders).toEqual([{ id: "gitlab", type: "shared" }]);
  });

  it("deletes a project with its users and keys; its keys stop working and its owner no longer lists it", async () => {
    const { user } = await owner("founder@example.com");
    const created = await user.createProject({ displayName: "Doomed" });
    const keys = await created.app.createInternalApiKey({
      description: "backend",
      expiresAt: new Date(emulator().control.now() + 24 * HOUR),
      hasPublishableClientKey: true,
      hasSecretServerKey: true,
      hasSuperSecretAdminKey: false,
    });
    await emulator().control.createUser({ projectId: created.id, email: "customer@example.com" });
    // A new app each time: an app keeps the project it read.
    const client = () =>
      new StackClientApp({ ...base(created.id), publishableClientKey: keys.publishableClientKey!, tokenStore: "memory" });
    expect((await client().getProject()).displayName).toBe("Doomed");

    await (await created.app.getProject()).delete();
    expect(await user.listOwnedProjects()).toEqual([]);
    const error = await client()
      .getProject()
      .catch((e: unknown) => e);
    // 2.8.86 (the default); 2.8.11 answers INVALID_PUBLISHABLE_CLIENT_KEY: service-versions.test.ts.
    expect(isKnownError(error, "CURRENT_PROJECT_NOT_FOUND")).toBe(true);
    expect(
      emulator()
        .control.exportState()
        .tables.users?.filter((u) => (u as { project_id: string }).project_id === created.id),
    ).toEqual([]);
  });

  it("is only for users of the internal project", async () => {
    const { control } = emulator();
    const record = await control.createUser({ projectId: DEMO_KEYS.projectId, email: "ada@example.com" });
    const tokens = await control.createSession(record.id);
    const app = new StackClientApp({
      ...base(DEMO_KEYS.projectId),
      publishableClientKey: DEMO_KEYS.publishableClientKey,
      tokenStore: tokens,
    });
    // The SDK gives other projects' users no project methods at all.
    expect("createProject" in (await app.getUser({ or: "throw" }))).toBe(false);

    // What the service answers the request the SDK refuses to send.
    const e = emulator();
    const response = await e.fetch(
      new Request(`${e.apiOrigin}/api/v1/internal/projects`, {
        headers: {
          "x-stack-project-id": DEMO_KEYS.projectId,
          "x-stack-access-type": "client",
          "x-stack-publishable-client-key": DEMO_KEYS.publishableClientKey,
          "x-stack-access-token": tokens.accessToken,
        },
      }),
    );
    expect([response.status, response.headers.get("x-stack-known-error")]).toEqual([401, "EXPECTED_INTERNAL_PROJECT"]);
  });
});

describe("project key sets", () => {
  it("lists the seeded keys by their last four characters", async () => {
    const [seeded] = await demoApps(emulator()).admin().listInternalApiKeys();
    expect(seeded).toMatchObject({
      publishableClientKey: { lastFour: DEMO_KEYS.publishableClientKey.slice(-4) },
      secretServerKey: { lastFour: DEMO_KEYS.secretServerKey.slice(-4) },
      superSecretAdminKey: { lastFour: DEMO_KEYS.superSecretAdminKey.slice(-4) },
      manuallyRevokedAt: null,
    });
    expect(seeded!.isValid()).toBe(true);
  });

  it("makes keys that authenticate at once, shows them in full only once, and revokes them for good", async () => {
    const admin = demoApps(emulator()).admin();
    const created = await admin.createInternalApiKey({
      description: "backend",
      expiresAt: new Date(emulator().control.now() + 24 * HOUR),
      hasPublishableClientKey: false,
      hasSecretServerKey: true,
      hasSuperSecretAdminKey: true,
    });
    expect(created.secretServerKey).toMatch(/^ssk_[0-9a-hjkmnp-tv-z]{45}$/);
    expect(created.superSecretAdminKey).toMatch(/^sak_[0-9a-hjkmnp-tv-z]{45}$/);
    expect(created.publishableClientKey).toBeUndefined();

    const listed = (await admin.listInternalApiKeys()).find((set) => set.id === created.id);
    expect(listed).toMatchObject({
      description: "backend",
      publishableClientKey: null,
      secretServerKey: { lastFour: created.secretServerKey!.slice(-4) },
    });

    const newAdmin = new StackAdminApp({
      ...base(DEMO_KEYS.projectId),
      tokenStore: null,
      secretServerKey: created.secretServerKey!,
      superSecretAdminKey: created.superSecretAdminKey!,
    });
    expect((await newAdmin.getProject()).id).toBe(DEMO_KEYS.projectId);
    expect((await newAdmin.listInternalApiKeys()).length).toBe(2);

    await listed!.revoke();
    const error = await newAdmin.getProject().catch((e: unknown) => e);
    expect(isKnownError(error, "INVALID_SUPER_SECRET_ADMIN_KEY")).toBe(true);
    const revoked = (await admin.listInternalApiKeys()).find((set) => set.id === created.id)!;
    expect(revoked.whyInvalid()).toBe("manually-revoked");
  });

  it("stops a key set from authenticating when it expires on the emulator's clock", async () => {
    // The demo project's admin app, on the emulator's clock (so that it sees the keys expire).
    const admin = new StackAdminApp({
      ...base(DEMO_KEYS.projectId),
      tokenStore: null,
      secretServerKey: DEMO_KEYS.secretServerKey,
      superSecretAdminKey: DEMO_KEYS.superSecretAdminKey,
    });
    const created = await admin.createInternalApiKey({
      description: "temporary",
      expiresAt: new Date(emulator().control.now() + HOUR),
      hasPublishableClientKey: false,
      hasSecretServerKey: true,
      hasSuperSecretAdminKey: false,
    });
    // A new app each time: an app keeps the project it read.
    const server = () => new StackServerApp({ ...base(DEMO_KEYS.projectId), tokenStore: null, secretServerKey: created.secretServerKey! });
    expect((await server().getProject()).id).toBe(DEMO_KEYS.projectId);

    emulator().control.advanceClock(2 * HOUR);
    const error = await server()
      .getProject()
      .catch((e: unknown) => e);
    expect(isKnownError(error, "INVALID_SECRET_SERVER_KEY")).toBe(true);
    const expired = (await admin.listInternalApiKeys()).find((set) => set.id === created.id)!;
    expect(expired.whyInvalid()).toBe("expired");
  });

  it("answers API_KEY_NOT_FOUND for another project's key set", async () => {
    const [internalSet] = await new StackAdminApp({
      ...base(INTERNAL_KEYS.projectId),
      tokenStore: null,
      secretServerKey: INTERNAL_KEYS.secretServerKey,
      superSecretAdminKey: INTERNAL_KEYS.superSecretAdminKey,
    }).listInternalApiKeys();
    const e = emulator();
    const response = await e.fetch(
      new Request(`${e.apiOrigin}/api/v1/internal/api-keys/${internalSet!.id}`, {
        headers: {
          "x-stack-project-id": DEMO_KEYS.projectId,
          "x-stack-access-type": "admin",
          "x-stack-super-secret-admin-key": DEMO_KEYS.superSecretAdminKey,
        },
      }),
    );
    expect([response.status, response.headers.get("x-stack-known-error")]).toEqual([404, "API_KEY_NOT_FOUND"]);
  });
});
