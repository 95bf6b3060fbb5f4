// The control routes the emulator's page is built on (`/emulator/v1/projects`, a project's users
// and teams a page at a time, one user as the server API shows them, an administrator's changes,
// "sign in as", sessions, one exchange of the request log with its secrets masked, the pending
// faults), on both service versions, every exchange checked against the control document; this
// file sees every answer those operations document.
import { afterEach, describe, expect, it } from "vitest";
import { DEMO_KEYS, INTERNAL_KEYS, SERVICE_VERSIONS, type ServiceVersion } from "../../emulator/index.js";
import { CONTROL_PREFIX } from "../../emulator/routes.js";
import { controlChecker, controlDocument, documentedAnswers, INSPECTION_OPERATIONS } from "../helpers/control-document.js";
import { useEmulator, type CheckedEmulator } from "../helpers/emulator.js";

const checker = controlChecker();
afterEach(() => {
  expect(checker.violations.splice(0)).toEqual([]);
});

type Answer = { status: number; body: any };

async function control(emulator: CheckedEmulator, method: string, route: string, body?: unknown): Promise<Answer> {
  const init = (): RequestInit => ({
    method,
    ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { "content-type": "application/json" } }),
  });
  const url = `${emulator.apiOrigin}${CONTROL_PREFIX}${route}`;
  const response = await emulator.fetch(new Request(url, init()));
  await checker.check(new Request(url, init()), response.clone());
  const text = await response.text();
  return { status: response.status, body: text === "" ? undefined : JSON.parse(text) };
}

/** A request to the service's API of the demo project, as a client (default) or server app. */
async function api(
  emulator: CheckedEmulator,
  method: string,
  path: string,
  o: { access?: "client" | "server"; body?: unknown; headers?: Record<string, string> } = {},
): Promise<Answer & { knownError: string | null }> {
  const access = o.access ?? "client";
  const response = await emulator.fetch(
    new Request(`${emulator.apiOrigin}/api/v1${path}`, {
      method,
      headers: {
        "x-stack-project-id": DEMO_KEYS.projectId,
        "x-stack-access-type": access,
        "x-stack-publishable-client-key": DEMO_KEYS.publishableClientKey,
        ...(access === "server" ? { "x-stack-secret-server-key": DEMO_KEYS.secretServerKey } : {}),
        ...(o.body === undefined ? {} : { "content-type": "application/json" }),
        ...o.headers,
      },
      ...(o.body === undefined ? {} : { body: JSON.stringify(o.body) }),
    }),
  );
  const text = await response.text();
  return {
    status: response.status,
    body: text === "" ? undefined : JSON.parse(text),
    knownError: response.headers.get("x-stack-known-error"),
  };
}

const newUser = async (emulator: CheckedEmulator, body: Record<string, unknown> = {}) =>
  (await control(emulator, "POST", "users", body)).body as { id: string };

describe.each(SERVICE_VERSIONS)("the page's control routes, service version %s", (serviceVersion: ServiceVersion) => {
  const emulator = useEmulator({ serviceVersion });

  it("GET /projects: the version played, each project with its keys", async () => {
    const { status, body } = await control(emulator(), "GET", "projects");
    expect(status).toBe(200);
    expect(body.serviceVersion).toBe(serviceVersion);
    expect(body.projects.map((project: { id: string }) => project.id)).toEqual([INTERNAL_KEYS.projectId, DEMO_KEYS.projectId]);
    expect(body.projects[1].keys).toEqual([
      {
        publishableClientKey: DEMO_KEYS.publishableClientKey,
        secretServerKey: DEMO_KEYS.secretServerKey,
        superSecretAdminKey: DEMO_KEYS.superSecretAdminKey,
      },
    ]);
  });

  it("GET /projects/{id}/users: newest first, a page at a time, searchable by name, e-mail and id", async () => {
    for (let i = 0; i < 7; i++) await newUser(emulator(), { email: `user${i}@example.com`, displayName: `User ${i}` });
    await newUser(emulator(), { projectId: INTERNAL_KEYS.projectId, email: "user9@example.com" });
    const first = await control(emulator(), "GET", `projects/${DEMO_KEYS.projectId}/users?limit=3`);
    expect(first.status).toBe(200);
    expect(first.body.items.map((user: { displayName: string }) => user.displayName)).toEqual(["User 6", "User 5", "User 4"]);
    expect([first.body.nextCursor, first.body.total]).toEqual(["3", 7]);
    const last = await control(emulator(), "GET", `projects/${DEMO_KEYS.projectId}/users?limit=3&cursor=6`);
    expect(last.body).toMatchObject({ nextCursor: null, total: 7 });
    expect(last.body.items).toHaveLength(1);
    expect(last.body.items[0]).toEqual({
      id: expect.any(String),
      displayName: "User 0",
      primaryEmail: "user0@example.com",
      primaryEmailVerified: true,
      isAnonymous: false,
      restrictedReason: null,
      signedUpAtMillis: expect.any(Number),
      teams: [],
    });
    const found = await control(emulator(), "GET", `projects/${DEMO_KEYS.projectId}/users?query=USER3@`);
    expect(found.body.items.map((user: { primaryEmail: string }) => user.primaryEmail)).toEqual(["user3@example.com"]);
    expect([found.body.total, found.body.nextCursor]).toEqual([null, null]);
    const byId = await control(emulator(), "GET", `projects/${DEMO_KEYS.projectId}/users?query=${last.body.items[0].id}`);
    expect(byId.body.items).toHaveLength(1);

    expect(await control(emulator(), "GET", `projects/${DEMO_KEYS.projectId}/users?limit=0`)).toEqual({
      status: 400,
      body: { error: '"limit" must be a whole number from 1 to 200' },
    });
    expect((await control(emulator(), "GET", `projects/${DEMO_KEYS.projectId}/users?cursor=x`)).body).toEqual({
      error: '"cursor" must be a nextCursor a page answered, not "x"',
    });
    expect((await control(emulator(), "GET", "projects/nope/users")).body).toEqual({ error: "No project nope in the emulator" });
  });

  it("GET /projects/{id}/users keeps to one page with 20,000 users", async () => {
    for (let i = 0; i < 20_000; i++) await emulator().control.createUser({ projectId: DEMO_KEYS.projectId, email: `u${i}@example.com` });
    const started = performance.now();
    const response = await emulator().fetch(
      new Request(`${emulator().apiOrigin}${CONTROL_PREFIX}projects/${DEMO_KEYS.projectId}/users?cursor=19990`),
    );
    const text = await response.text();
    const elapsed = performance.now() - started;
    const body = JSON.parse(text);
    expect(body.items.map((user: { primaryEmail: string }) => user.primaryEmail)).toEqual(
      Array.from({ length: 10 }, (_, i) => `u${9 - i}@example.com`),
    );
    expect([body.total, body.nextCursor]).toEqual([20_000, null]);
    expect(text.length).toBeLessThan(5_000);
    // Generous for a loaded machine: the page reads one project's index, not a sort or a copy of every record.
    expect(elapsed).toBeLessThan(1_000);
  }, 60_000);

  it("GET, PATCH and DELETE /users/{id}: the server API's view, an administrator's changes, a deletion", async () => {
    const { id } = await newUser(emulator(), { email: "ada@example.com", emailVerified: false, displayName: "Ada" });
    const viewed = await control(emulator(), "GET", `users/${id}`);
    expect(viewed.status).toBe(200);
    expect(viewed.body).toEqual((await api(emulator(), "GET", `/users/${id}`, { access: "server" })).body);

    const changed = await control(emulator(), "PATCH", `users/${id}`, {
      displayName: "Ada L.",
      clientMetadata: { theme: "dark" },
      clientReadOnlyMetadata: { plan: "pro" },
      serverMetadata: { note: 1 },
      primaryEmailVerified: true,
      restrictedByAdmin: true,
    });
    expect(changed.status).toBe(200);
    const server = (await api(emulator(), "GET", `/users/${id}`, { access: "server" })).body;
    expect(changed.body).toEqual(server);
    expect(server).toMatchObject({
      display_name: "Ada L.",
      client_metadata: { theme: "dark" },
      client_read_only_metadata: { plan: "pro" },
      server_metadata: { note: 1 },
      primary_email_verified: true,
    });
    if (serviceVersion === "2.8.86") {
      expect(server).toMatchObject({
        is_restricted: true,
        restricted_reason: { type: "restricted_by_administrator" },
        restricted_by_admin: true,
      });
    } else {
      // 2.8.11 has no restricted users: the flag is kept and changes nothing.
      expect(server).not.toHaveProperty("is_restricted");
    }
    const listed = await control(emulator(), "GET", `projects/${DEMO_KEYS.projectId}/users`);
    expect(listed.body.items[0].restrictedReason).toBe(serviceVersion === "2.8.86" ? "restricted_by_administrator" : null);
    expect((await control(emulator(), "PATCH", `users/${id}`, { displayName: null })).body.display_name).toBeNull();

    const anonymous = await newUser(emulator(), { isAnonymous: true });
    expect(await control(emulator(), "PATCH", `users/${anonymous.id}`, { primaryEmailVerified: true })).toEqual({
      status: 400,
      body: { error: `User ${anonymous.id} has no primary e-mail to verify` },
    });
    expect((await control(emulator(), "PATCH", `users/${id}`, { displayName: 5 })).body).toEqual({
      error: '"displayName" must be a string, or null for none',
    });
    expect((await control(emulator(), "PATCH", `users/${id}`, { restrictedByAdmin: "yes" })).status).toBe(400);

    expect(await control(emulator(), "DELETE", `users/${id}`)).toEqual({ status: 200, body: { ok: true } });
    expect((await api(emulator(), "GET", `/users/${id}`, { access: "server" })).knownError).toBe("USER_NOT_FOUND");
    expect(await control(emulator(), "GET", `users/${id}`)).toEqual({ status: 400, body: { error: `No user ${id} in the emulator` } });
    expect((await control(emulator(), "DELETE", `users/${id}`)).status).toBe(400);
  });

  it("POST /users/{id}/sign-in, GET /users/{id}/sessions, DELETE /sessions/{id}", async () => {
    const { id } = await newUser(emulator(), { email: "ada@example.com" });
    const signedIn = await control(emulator(), "POST", `users/${id}/sign-in`, {});
    expect(signedIn).toEqual({ status: 201, body: { accessToken: expect.any(String), refreshToken: expect.any(String), link: null } });
    const me = await api(emulator(), "GET", "/users/me", { headers: { "x-stack-access-token": signedIn.body.accessToken } });
    expect(me.body.id).toBe(id);

    const callbackUrl = "http://localhost:5173/handler/magic-link-callback?after=1";
    const withLink = await control(emulator(), "POST", `users/${id}/sign-in`, { callbackUrl });
    const link = new URL(withLink.body.link);
    expect(`${link.origin}${link.pathname}`).toBe("http://localhost:5173/handler/magic-link-callback");
    expect(link.searchParams.get("after")).toBe("1");
    const redeemed = await api(emulator(), "POST", "/auth/otp/sign-in", { body: { code: link.searchParams.get("code") } });
    expect([redeemed.status, redeemed.body.user_id, redeemed.body.is_new_user]).toEqual([200, id, false]);

    const sessions = await control(emulator(), "GET", `users/${id}/sessions`);
    expect(sessions.status).toBe(200);
    expect(sessions.body).toHaveLength(3);
    expect(sessions.body[0]).toEqual({
      id: expect.any(String),
      createdAtMillis: expect.any(Number),
      lastUsedAtMillis: expect.any(Number),
      expiresAtMillis: null,
      isImpersonation: false,
    });
    expect(await control(emulator(), "DELETE", `sessions/${sessions.body[0].id}`)).toEqual({ status: 200, body: { ok: true } });
    const refreshed = await api(emulator(), "POST", "/auth/sessions/current/refresh", {
      headers: { "x-stack-refresh-token": signedIn.body.refreshToken },
    });
    expect(refreshed.knownError).toBe("REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED");
    expect((await control(emulator(), "GET", `users/${id}/sessions`)).body).toHaveLength(2);
    expect((await control(emulator(), "DELETE", `sessions/${sessions.body[0].id}`)).body).toEqual({
      error: `No session ${sessions.body[0].id} in the emulator`,
    });

    const anonymous = await newUser(emulator(), { isAnonymous: true });
    expect((await control(emulator(), "POST", `users/${anonymous.id}/sign-in`, { callbackUrl })).body).toEqual({
      error: `User ${anonymous.id} signs in with no e-mail: a magic link cannot sign them in`,
    });
    expect((await control(emulator(), "POST", `users/${id}/sign-in`, { callbackUrl: "not a url" })).status).toBe(400);
    expect((await control(emulator(), "POST", "users/nobody/sign-in")).status).toBe(400);
    expect((await control(emulator(), "GET", "users/nobody/sessions")).status).toBe(400);
  });

  it("GET /projects/{id}/teams and GET /teams/{id}: members and the permissions each holds", async () => {
    const { id: userId } = await newUser(emulator(), { email: "ada@example.com", displayName: "Ada" });
    const created = await api(emulator(), "POST", "/teams", {
      access: "server",
      body: { display_name: "Design", creator_user_id: userId },
    });
    expect(created.status).toBe(201);
    const teams = await control(emulator(), "GET", `projects/${DEMO_KEYS.projectId}/teams?query=desi`);
    expect(teams).toEqual({
      status: 200,
      body: {
        items: [{ id: created.body.id, displayName: "Design", createdAtMillis: expect.any(Number), memberCount: 1 }],
        nextCursor: null,
        total: null,
      },
    });
    const team = await control(emulator(), "GET", `teams/${created.body.id}`);
    expect(team.status).toBe(200);
    expect(team.body.team).toEqual((await api(emulator(), "GET", `/teams/${created.body.id}`, { access: "server" })).body);
    expect(team.body.members).toEqual([
      { userId, displayName: "Ada", primaryEmail: "ada@example.com", permissions: expect.arrayContaining(["team_admin", "$update_team"]) },
    ]);
    const users = await control(emulator(), "GET", `projects/${DEMO_KEYS.projectId}/users`);
    expect(users.body.items[0].teams).toEqual([{ id: created.body.id, displayName: "Design" }]);
    expect((await control(emulator(), "GET", "teams/nope")).body).toEqual({ error: "No team nope in the emulator" });
    expect((await control(emulator(), "GET", "projects/nope/teams")).status).toBe(400);
  });
});

describe("the request log for the page", () => {
  const emulator = useEmulator();

  it("GET /requests?since= and GET /requests/{id}: each line's project, access type and duration, its bodies with secrets masked", async () => {
    await newUser(emulator(), { email: "ada@example.com", password: "correct-horse-battery" });
    const wrong = await api(emulator(), "POST", "/auth/password/sign-in", {
      body: { email: "ada@example.com", password: "wrong-password-1" },
    });
    expect(wrong.knownError).toBe("EMAIL_PASSWORD_MISMATCH");
    const [first] = (await control(emulator(), "GET", "requests")).body;
    await api(emulator(), "POST", "/auth/password/sign-in", { body: { email: "ada@example.com", password: "correct-horse-battery" } });
    const newer = await control(emulator(), "GET", `requests?since=${first.id}`);
    expect(newer.body).toEqual([
      {
        id: first.id + 1,
        at: expect.any(Number),
        method: "POST",
        path: "/auth/password/sign-in",
        operationId: "signInWithPassword",
        projectId: DEMO_KEYS.projectId,
        accessType: "client",
        status: 200,
        knownError: null,
        durationMs: expect.any(Number),
      },
    ]);
    expect((await control(emulator(), "GET", `requests?since=${first.id + 1}`)).body).toEqual([]);

    const exchange = await control(emulator(), "GET", `requests/${first.id + 1}`);
    expect(exchange.status).toBe(200);
    expect(JSON.parse(exchange.body.request.body)).toEqual({ email: "ada@example.com", password: "[redacted]" });
    expect(exchange.body.request.headers).toMatchObject({
      "x-stack-publishable-client-key": DEMO_KEYS.publishableClientKey,
      "content-type": "application/json",
    });
    expect(JSON.parse(exchange.body.response.body)).toEqual({
      access_token: "[redacted]",
      refresh_token: "[redacted]",
      user_id: expect.any(String),
    });
    const refused = await control(emulator(), "GET", `requests/${first.id}`);
    expect(JSON.parse(refused.body.response.body)).toMatchObject({ code: "EMAIL_PASSWORD_MISMATCH" });
    expect(JSON.parse(refused.body.request.body).password).toBe("[redacted]");

    const { id: userId } = (await control(emulator(), "GET", `projects/${DEMO_KEYS.projectId}/users`)).body.items[0];
    const { accessToken } = await emulator().control.createSession(userId);
    const server = await api(emulator(), "GET", "/users?limit=1", { access: "server", headers: { "x-stack-access-token": accessToken } });
    expect(server.status).toBe(200);
    const [serverLine] = (await control(emulator(), "GET", `requests?since=${first.id + 1}`)).body;
    expect(serverLine).toMatchObject({ accessType: "server", operationId: "listUsers" });
    const serverExchange = (await control(emulator(), "GET", `requests/${serverLine.id}`)).body;
    expect(serverExchange.request.headers).toMatchObject({
      "x-stack-secret-server-key": "[redacted]",
      "x-stack-access-token": "[redacted]",
    });

    expect(await control(emulator(), "GET", "requests/999999")).toEqual({
      status: 404,
      body: { error: "No exchange 999999 is kept in the request log (the latest 500 are)" },
    });
    expect((await control(emulator(), "GET", "requests/abc")).status).toBe(404);
    // Cleared, the log keeps no bodies either; its numbers go on.
    await control(emulator(), "DELETE", "requests");
    expect((await control(emulator(), "GET", `requests/${serverLine.id}`)).status).toBe(404);
    await api(emulator(), "GET", "/projects/current");
    expect((await control(emulator(), "GET", "requests")).body[0].id).toBe(serverLine.id + 1);
    expect((await control(emulator(), "GET", "requests?since=-1")).status).toBe(400);
  });

  it("GET /faults: the faults still pending, `always` for those without end", async () => {
    expect(await control(emulator(), "GET", "faults")).toEqual({ status: 200, body: [] });
    await control(emulator(), "POST", "faults", { operationId: "listTeams", fault: { kind: "drop" }, times: 2 });
    await control(emulator(), "POST", "faults", { operationId: "getCurrentUser", fault: { kind: "latency", ms: 5 }, times: "always" });
    expect((await control(emulator(), "GET", "faults")).body).toEqual([
      { operationId: "listTeams", fault: { kind: "drop" }, remaining: 2 },
      { operationId: "getCurrentUser", fault: { kind: "latency", ms: 5 }, remaining: "always" },
    ]);
    expect(emulator().control.faults()[1]?.remaining).toBe(Infinity);
  });
});

describe("the exchanges of this file", () => {
  it("gave every answer the page's operations document", () => {
    const answers = documentedAnswers(controlDocument).filter((answer) => INSPECTION_OPERATIONS.has(answer.split(" ")[0]!));
    expect(answers.filter((answer) => !checker.seen.has(answer))).toEqual([]);
    expect(answers.length).toBeGreaterThan(20);
  });
});
