// The SDK's options that the hosted service took in 2.8.102, on the emulator of each version it
// plays (neither has them): listUsers({ orderBy: "lastActiveAt" }), the paged, searched and
// sorted listTeams of the server app and of a server user, and createProject({
// isDevelopmentEnvironment }). Each service refusal becomes a ServiceVersionError after one
// request, and the plain forms still work; the admin project reads neither 2.8.102 field.
// Every exchange is checked against the document in the version's view.
import { describe, expect, it } from "vitest";
import { DEMO_KEYS, INTERNAL_KEYS, SERVICE_VERSIONS, type ServiceVersion } from "../../emulator/index.js";
import { ServiceVersionError, StackAdminApp, StackClientApp, StackServerApp, type CurrentInternalUser } from "../../runtime/index.js";
import { checkedEmulatorPerTest, demoAppOptions, type CheckedEmulator } from "../helpers/emulator.js";

const emulatorOf = checkedEmulatorPerTest();

/** The demo project's server and admin apps on `emulator`, and the request lines they sent under /api/v1. */
function appsOn(emulator: CheckedEmulator) {
  const sent: string[] = [];
  const fetch = (input: Request) => {
    const url = new URL(input.url);
    sent.push(`${input.method} ${url.pathname.replace(/^\/api\/v1/, "")}${url.search}`);
    return emulator.fetch(input);
  };
  const options = { ...demoAppOptions(emulator), environment: { fetch, now: () => emulator.control.now() }, tokenStore: null };
  const server = new StackServerApp({ ...options, secretServerKey: DEMO_KEYS.secretServerKey });
  const admin = new StackAdminApp({
    ...options,
    secretServerKey: DEMO_KEYS.secretServerKey,
    superSecretAdminKey: DEMO_KEYS.superSecretAdminKey,
  });
  return { server, admin, sent };
}

async function refusal(promise: Promise<unknown>): Promise<ServiceVersionError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ServiceVersionError);
  return error as ServiceVersionError;
}

const teamsRefused = (method: string, refused: string) =>
  `${method} cannot work with this Stack Auth service, which answers as 2.8.86 does: it lists every team at once, without pages, search or order, and refused ${refused} (these options came with 2.8.102). Instead: leave cursor, limit, query, orderBy and desc out: the call then answers every team (nextCursor null), to page, search and sort in the app`;

describe.each(SERVICE_VERSIONS)("on %s", (version: ServiceVersion) => {
  it("listUsers({ orderBy: 'lastActiveAt' }) rejects with a ServiceVersionError after one request; signedUpAt still lists", async () => {
    const emulator = await emulatorOf(version);
    await emulator.control.createUser({ projectId: DEMO_KEYS.projectId, email: "ada@example.com" });
    const { server, sent } = appsOn(emulator);
    const error = await refusal(server.listUsers({ orderBy: "lastActiveAt", desc: true }));
    expect(error).toMatchObject({ method: "StackServerApp.listUsers", serviceVersion: "2.8.86" });
    expect(error.message).toBe(
      'StackServerApp.listUsers cannot work with this Stack Auth service, which answers as 2.8.86 does: it orders users by when they signed up only, and refused order_by=last_active_at (orderBy: "lastActiveAt" came with 2.8.102). Instead: orderBy: "signedUpAt", or no orderBy; to find the users active last, read the pages and sort them by lastActiveAt',
    );
    expect(sent).toEqual(["GET /users?order_by=last_active_at&desc=true"]);
    const users = await server.listUsers({ orderBy: "signedUpAt", desc: true });
    expect(users.map((u) => u.primaryEmail)).toEqual(["ada@example.com"]);
  });

  it("listUsers({ orderBy: 'lastActiveAt', includeAnonymous: true }) is the same refusal, without a second request", async () => {
    const emulator = await emulatorOf(version);
    const { server, sent } = appsOn(emulator);
    const error = await refusal(server.listUsers({ orderBy: "lastActiveAt", includeAnonymous: true }));
    expect(error.method).toBe("StackServerApp.listUsers");
    expect(sent).toEqual(["GET /users?order_by=last_active_at&include_anonymous=true"]);
  });

  it("app.listTeams(options) rejects with a ServiceVersionError naming what was refused; listTeams() answers every team", async () => {
    const emulator = await emulatorOf(version);
    const { server, sent } = appsOn(emulator);
    const acme = await server.createTeam({ displayName: "Acme" });
    const beta = await server.createTeam({ displayName: "Beta" });
    sent.length = 0;
    const error = await refusal(server.listTeams({ limit: 1, orderBy: "createdAt", desc: true }));
    expect(error.message).toBe(teamsRefused("StackServerApp.listTeams", "limit, orderBy, desc"));
    expect(sent).toEqual(["GET /teams?limit=1&order_by=created_at&desc=true"]);
    const teams = await server.listTeams();
    expect(teams.map((t) => t.id)).toEqual([acme.id, beta.id]);
    expect(teams.nextCursor).toBeNull();
  });

  it("a server user's listTeams(options) rejects the same way, as user.listTeams; listTeams() and getTeam still work", async () => {
    const emulator = await emulatorOf(version);
    const { server } = appsOn(emulator);
    const ada = await server.createUser({ primaryEmail: "ada@example.com" });
    const team = await server.createTeam({ displayName: "Acme", creatorUserId: ada.id });
    const error = await refusal(ada.listTeams({ query: "acme" }));
    expect(error.message).toBe(teamsRefused("user.listTeams", "query"));
    const teams = await ada.listTeams();
    expect(teams.map((t) => t.displayName)).toEqual(["Acme"]);
    expect(teams.nextCursor).toBeNull();
    expect((await ada.getTeam(team.id))?.id).toBe(team.id);
  });

  it("the admin project reads isDevelopmentEnvironment undefined and onboardingState null", async () => {
    const emulator = await emulatorOf(version);
    const project = await appsOn(emulator).admin.getProject();
    expect(project.isDevelopmentEnvironment).toBeUndefined();
    expect(project.onboardingState).toBeNull();
  });

  it("createProject({ isDevelopmentEnvironment }) rejects with a ServiceVersionError and creates nothing; without it a project is made", async () => {
    const emulator = await emulatorOf(version);
    const record = await emulator.control.createUser({ projectId: INTERNAL_KEYS.projectId, email: "founder@example.com" });
    const app = new StackClientApp({
      ...demoAppOptions(emulator),
      projectId: INTERNAL_KEYS.projectId,
      publishableClientKey: INTERNAL_KEYS.publishableClientKey,
      tokenStore: await emulator.control.createSession(record.id),
    });
    const user = (await app.getUser({ or: "throw" })) as CurrentInternalUser;
    const error = await refusal(user.createProject({ displayName: "Acme", isDevelopmentEnvironment: true }));
    expect(error).toMatchObject({ method: "user.createProject", serviceVersion: "2.8.86" });
    expect(await user.listOwnedProjects()).toEqual([]);
    const project = await user.createProject({ displayName: "Acme" });
    expect(project.isDevelopmentEnvironment).toBeUndefined();
    expect((await user.listOwnedProjects()).map((p) => p.id)).toEqual([project.id]);
  });
});
