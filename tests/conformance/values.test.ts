// Values as the service gives them (users/crud.tsx, the lists' orderBy, and
// internal/metrics/route.tsx at each version): metadata is null until set, an
// anonymous user's name is the version's, lists come in the service's order, and
// the metrics' recent users are the ones the version picks.
import { describe, expect, it } from "vitest";
import { INTERNAL_KEYS, serviceOf, SERVICE_VERSIONS, signUp } from "./harness.js";

const server = { as: "server" } as const;
const admin = { as: "admin" } as const;
const ids = (answer: { body: { items: { id: string }[] } }) => answer.body.items.map((item) => item.id);

describe.each(SERVICE_VERSIONS)("values on %s", (version) => {
  it("a new user's client, client read-only and server metadata are null until set", async () => {
    const service = await serviceOf(version);
    const user = await signUp(service, "ada@example.com");
    const me = await service.call("GET", "/users/me", { token: user.accessToken });
    expect([me.body.client_metadata, me.body.client_read_only_metadata]).toEqual([null, null]);
    const read = await service.call("GET", `/users/${user.userId}`, server);
    expect([read.body.client_metadata, read.body.client_read_only_metadata, read.body.server_metadata]).toEqual([null, null, null]);
    const set = await service.call("PATCH", `/users/${user.userId}`, { ...server, body: { server_metadata: { plan: "pro" } } });
    expect([set.body.server_metadata, set.body.client_metadata]).toEqual([{ plan: "pro" }, null]);
  });

  it("a user the server creates without metadata has null metadata", async () => {
    const service = await serviceOf(version);
    const created = await service.call("POST", "/users", { ...server, body: { primary_email: "grace@example.com" } });
    expect(created.status).toBe(201);
    expect([created.body.client_metadata, created.body.client_read_only_metadata, created.body.server_metadata]).toEqual([
      null,
      null,
      null,
    ]);
  });

  it("an anonymous user is created with the version's display name", async () => {
    const service = await serviceOf(version);
    // 2.8.11 allows anonymous sign-up on a fixed list of projects, the internal one among them.
    const answer = await service.call("POST", "/auth/anonymous/sign-up", { keys: INTERNAL_KEYS });
    expect(answer.status).toBe(200);
    const read = await service.call("GET", `/users/${answer.body.user_id}`, { as: "server", keys: INTERNAL_KEYS });
    expect([read.body.display_name, read.body.is_anonymous]).toEqual([version === "2.8.11" ? "Anonymous user" : null, true]);
  });

  it("lists users oldest sign-up first, and newest first with desc=true", async () => {
    const service = await serviceOf(version);
    const made: string[] = [];
    for (const name of ["ada", "grace", "hedy"]) {
      made.push((await signUp(service, `${name}@example.com`)).userId);
      service.emulator.control.advanceClock(1000);
    }
    expect(ids(await service.call("GET", "/users", server))).toEqual(made);
    expect(ids(await service.call("GET", "/users?desc=true", server))).toEqual([...made].reverse());
  });

  it("lists teams and a team's members in the order they were made", async () => {
    const service = await serviceOf(version);
    const ada = await signUp(service, "ada@example.com");
    const grace = await signUp(service, "grace@example.com");
    const teams: string[] = [];
    for (const name of ["Zeta", "Alpha"]) {
      const team = await service.call("POST", "/teams", { ...server, body: { display_name: name, creator_user_id: ada.userId } });
      teams.push(team.body.id);
      service.emulator.control.advanceClock(1000);
    }
    expect(ids(await service.call("GET", `/teams?user_id=${ada.userId}`, server))).toEqual(teams);
    await service.call("POST", `/team-memberships/${teams[0]}/${grace.userId}`, { ...server, body: {} });
    const members = await service.call("GET", `/team-member-profiles?team_id=${teams[0]}`, server);
    expect(members.body.items.map((m: { user_id: string }) => m.user_id)).toEqual([ada.userId, grace.userId]);
  });

  it("lists a user's sessions newest first", async () => {
    const service = await serviceOf(version);
    const first = await signUp(service, "ada@example.com");
    service.emulator.control.advanceClock(1000);
    const second = await service.call("POST", "/auth/password/sign-in", {
      body: { email: "ada@example.com", password: "correct horse battery staple" },
    });
    const sessions = await service.call("GET", `/auth/sessions?user_id=${first.userId}`, server);
    expect(sessions.body.items.map((s: { is_current_session: boolean }) => s.is_current_session)).toEqual([false, false]);
    expect(sessions.body.items).toHaveLength(2);
    const created = sessions.body.items.map((s: { created_at: number }) => s.created_at);
    expect(created[0]).toBeGreaterThan(created[1]);
    expect(second.status).toBe(200);
  });

  it("lists team permission definitions by id, with their contained ids sorted", async () => {
    const service = await serviceOf(version);
    const answer = await service.call("GET", "/team-permission-definitions", admin);
    const listed = answer.body.items.map((d: { id: string }) => d.id);
    expect(listed).toEqual([...listed].sort());
    for (const d of answer.body.items) expect(d.contained_permission_ids).toEqual([...d.contained_permission_ids].sort());
  });
});

describe("metrics' recent users", () => {
  it("2.8.11 reads recently active users from its event log: one made by the server without a session is not there", async () => {
    const service = await serviceOf("2.8.11");
    const ada = await signUp(service, "ada@example.com");
    service.emulator.control.advanceClock(1000);
    const grace = await service.call("POST", "/users", { ...server, body: { primary_email: "grace@example.com" } });
    const metrics = await service.call("GET", "/internal/metrics", admin);
    expect(metrics.body.recently_active.map((u: { id: string }) => u.id)).toEqual([ada.userId]);
    expect(metrics.body.recently_registered.map((u: { id: string }) => u.id)).toEqual([grace.body.id, ada.userId]);
  });

  it("2.8.86 lists up to a hundred recent sign-ups, and every user by last activity", async () => {
    const service = await serviceOf("2.8.86");
    const made: string[] = [];
    for (let i = 0; i < 7; i++) {
      made.push((await service.call("POST", "/users", { ...server, body: { primary_email: `u${i}@example.com` } })).body.id);
      service.emulator.control.advanceClock(1000);
    }
    const metrics = await service.call("GET", "/internal/metrics", admin);
    expect(metrics.body.recently_registered.map((u: { id: string }) => u.id)).toEqual([...made].reverse());
    expect(metrics.body.recently_active.map((u: { id: string }) => u.id)).toEqual([...made].reverse().slice(0, 5));
    expect(metrics.body.total_users).toBe(7);
  });
});
