// The invitee's own team invitations, as the emulator plays each service
// version: 2.8.86 lists the pending invitations sent to a user's verified
// e-mails (`GET /team-invitations?user_id=`), accepts one by its id
// (`POST /team-invitations/{id}/accept?user_id=`) and names the team in every
// listing; 2.8.11 has none of it. Then the SDK's user.listTeamInvitations()
// and invitation.accept() on both versions, with the requests they send. Every
// exchange is checked against the document in the version's view.
import { describe, expect, it } from "vitest";
import { DEMO_KEYS } from "../../emulator/index.js";
import { ServiceVersionError, SessionEndedError, StackClientApp, StackServerApp } from "../../runtime/index.js";
import { checkedEmulatorPerTest, demoAppOptions, TEST_PASSWORD, type CheckedEmulator } from "../helpers/emulator.js";
import { rawCall as call } from "../helpers/raw-call.js";

const CALLBACK = "http://localhost:3000/handler/team-invitation";
const ALLOW_RESTRICTED = { "x-stack-allow-restricted-user": "true" };

const emulatorOf = checkedEmulatorPerTest();

/** A team "Acme" with an invitation to each of `emails`; the team's id and the invitation ids by address. */
async function teamInviting(emulator: CheckedEmulator, ...emails: string[]) {
  const team = await call(emulator, "POST", "/teams", { as: "server", body: { display_name: "Acme" } });
  expect(team.status).toBe(201);
  const ids: Record<string, string> = {};
  for (const email of emails) {
    const sent = await call(emulator, "POST", "/team-invitations/send-code", {
      as: "server",
      body: { email, team_id: team.body.id, callback_url: CALLBACK },
    });
    expect(sent.status).toBe(200);
    ids[email] = sent.body.id;
  }
  return { teamId: team.body.id as string, ids };
}

/** A user of the demo project with `email` as a verified primary e-mail (unless told), and a token of theirs. */
async function userWith(emulator: CheckedEmulator, email: string, o: { emailVerified?: boolean; restrictedByAdmin?: boolean } = {}) {
  const user = await emulator.control.createUser({ projectId: DEMO_KEYS.projectId, email, ...o });
  return { id: user.id, token: (await emulator.control.createSession(user.id)).accessToken };
}

const memberIds = async (emulator: CheckedEmulator, teamId: string) =>
  (await call(emulator, "GET", `/team-member-profiles?team_id=${teamId}`, { as: "server" })).body;

describe("2.8.86", () => {
  it("lists the pending invitations sent to the user's verified e-mails, naming the team; the team's listing names it too", async () => {
    const emulator = await emulatorOf("2.8.86");
    const { teamId, ids } = await teamInviting(emulator, "bob@example.com", "carol@example.com");
    const bob = await userWith(emulator, "bob@example.com");
    const mine = await call(emulator, "GET", "/team-invitations?user_id=me", { token: bob.token });
    expect(mine.status).toBe(200);
    expect(mine.body).toEqual({
      items: [
        {
          id: ids["bob@example.com"],
          team_id: teamId,
          team_display_name: "Acme",
          expires_at_millis: expect.any(Number),
          recipient_email: "bob@example.com",
        },
      ],
      is_paginated: false,
    });
    const byServer = await call(emulator, "GET", `/team-invitations?user_id=${bob.id}`, { as: "server" });
    expect(byServer.body).toEqual(mine.body);
    const team = await call(emulator, "GET", `/team-invitations?team_id=${teamId}`, { as: "server" });
    expect(team.body.items.map((i: { team_display_name: string }) => i.team_display_name)).toEqual(["Acme", "Acme"]);
  });

  it("leaves out invitations to unverified addresses and expired ones", async () => {
    const emulator = await emulatorOf("2.8.86");
    await teamInviting(emulator, "bob@example.com");
    const bob = await userWith(emulator, "bob@example.com", { emailVerified: false });
    expect((await call(emulator, "GET", "/team-invitations?user_id=me", { token: bob.token })).body.items).toEqual([]);
    await teamInviting(emulator, "dave@example.com");
    const dave = await userWith(emulator, "dave@example.com");
    expect((await call(emulator, "GET", "/team-invitations?user_id=me", { token: dave.token })).body.items).toHaveLength(1);
    // Invitations last seven days.
    emulator.control.advanceClock(7 * 24 * 60 * 60 * 1000 + 1);
    const listed = await call(emulator, "GET", `/team-invitations?user_id=${dave.id}`, { as: "server" });
    expect(listed.body).toEqual({ items: [], is_paginated: false });
  });

  it("takes exactly one of team_id and user_id, and a client only its own user", async () => {
    const emulator = await emulatorOf("2.8.86");
    const { teamId } = await teamInviting(emulator, "bob@example.com");
    const bob = await userWith(emulator, "bob@example.com");
    const carol = await userWith(emulator, "carol@example.com");
    const both = await call(emulator, "GET", `/team-invitations?team_id=${teamId}&user_id=me`, { token: bob.token });
    expect([both.status, both.headers.get("content-type"), both.body]).toEqual([
      400,
      expect.stringContaining("text/plain"),
      "Cannot specify both team_id and user_id",
    ]);
    const neither = await call(emulator, "GET", "/team-invitations", { as: "server" });
    expect([neither.status, neither.body]).toEqual([400, "Must specify either team_id or user_id"]);
    const other = await call(emulator, "GET", `/team-invitations?user_id=${bob.id}`, { token: carol.token });
    expect([other.status, other.body.code]).toEqual([400, "CANNOT_GET_OWN_USER_WITHOUT_USER"]);
    const nobody = await call(emulator, "GET", "/team-invitations?user_id=me", {});
    expect(nobody.body.code).toBe("CANNOT_GET_OWN_USER_WITHOUT_USER");
  });

  it("accepts an invitation by id: the user joins the team, and the invitation is used up", async () => {
    const emulator = await emulatorOf("2.8.86");
    const { teamId, ids } = await teamInviting(emulator, "bob@example.com");
    const bob = await userWith(emulator, "bob@example.com");
    const id = ids["bob@example.com"]!;
    const accepted = await call(emulator, "POST", `/team-invitations/${id}/accept?user_id=me`, { token: bob.token });
    expect([accepted.status, accepted.body]).toEqual([200, {}]);
    expect((await memberIds(emulator, teamId)).items.map((m: { user_id: string }) => m.user_id)).toEqual([bob.id]);
    expect((await call(emulator, "GET", "/team-invitations?user_id=me", { token: bob.token })).body.items).toEqual([]);
    expect((await call(emulator, "GET", `/team-invitations?team_id=${teamId}`, { as: "server" })).body.items).toEqual([]);
    const again = await call(emulator, "POST", `/team-invitations/${id}/accept?user_id=me`, { token: bob.token });
    expect([again.status, again.body.code]).toEqual([404, "VERIFICATION_CODE_NOT_FOUND"]);
  });

  it("refuses one sent to an address the user has not verified, a client's other user, and a restricted user", async () => {
    const emulator = await emulatorOf("2.8.86");
    const { teamId, ids } = await teamInviting(emulator, "bob@example.com");
    const id = ids["bob@example.com"]!;
    const bob = await userWith(emulator, "bob@example.com");
    const carol = await userWith(emulator, "carol@example.com");
    const notHers = await call(emulator, "POST", `/team-invitations/${id}/accept?user_id=me`, { token: carol.token });
    expect([notHers.status, notHers.body.code]).toEqual([404, "VERIFICATION_CODE_NOT_FOUND"]);
    const forBob = await call(emulator, "POST", `/team-invitations/${id}/accept?user_id=${bob.id}`, { token: carol.token });
    expect(forBob.body.code).toBe("CANNOT_GET_OWN_USER_WITHOUT_USER");
    const restricted = await userWith(emulator, "rita@example.com", { restrictedByAdmin: true });
    const { ids: ritas } = await teamInviting(emulator, "rita@example.com");
    const refused = await call(emulator, "POST", `/team-invitations/${ritas["rita@example.com"]}/accept?user_id=me`, {
      token: restricted.token,
      headers: ALLOW_RESTRICTED,
    });
    expect([refused.status, refused.body.code, refused.body.details]).toEqual([
      403,
      "TEAM_INVITATION_RESTRICTED_USER_NOT_ALLOWED",
      { restricted_reason: { type: "restricted_by_administrator" } },
    ]);
    expect((await memberIds(emulator, teamId)).items).toEqual([]);
  });

  it("lets a server accept for a user by id", async () => {
    const emulator = await emulatorOf("2.8.86");
    const { teamId, ids } = await teamInviting(emulator, "bob@example.com");
    const bob = await userWith(emulator, "bob@example.com");
    const accepted = await call(emulator, "POST", `/team-invitations/${ids["bob@example.com"]}/accept?user_id=${bob.id}`, { as: "server" });
    expect([accepted.status, accepted.body]).toEqual([200, {}]);
    expect((await memberIds(emulator, teamId)).items.map((m: { user_id: string }) => m.user_id)).toEqual([bob.id]);
  });
});

describe("2.8.11", () => {
  it("refuses user_id on the listing as an unknown property, after the missing team_id", async () => {
    const emulator = await emulatorOf("2.8.11");
    const bob = await userWith(emulator, "bob@example.com");
    const mine = await call(emulator, "GET", "/team-invitations?user_id=me", { token: bob.token });
    expect([mine.status, mine.body.code, mine.body.error]).toEqual([
      400,
      "SCHEMA_ERROR",
      "Request validation failed on GET /api/v1/team-invitations:\n  - query.team_id must be defined\n  - query contains unknown properties: user_id",
    ]);
    const { teamId } = await teamInviting(emulator, "bob@example.com");
    const both = await call(emulator, "GET", `/team-invitations?team_id=${teamId}&user_id=me`, { as: "server" });
    expect(both.body.error).toBe(
      "Request validation failed on GET /api/v1/team-invitations:\n  - query contains unknown properties: user_id",
    );
  });

  it("has no accept by id (the catch-all's plain-text 404), and its listing does not name the team", async () => {
    const emulator = await emulatorOf("2.8.11");
    const { teamId, ids } = await teamInviting(emulator, "bob@example.com");
    const bob = await userWith(emulator, "bob@example.com");
    const accept = await call(emulator, "POST", `/team-invitations/${ids["bob@example.com"]}/accept?user_id=me`, { token: bob.token });
    expect([accept.status, accept.headers.get("content-type")]).toEqual([404, expect.stringContaining("text/plain")]);
    expect(accept.body).toContain("does not exist");
    expect((await memberIds(emulator, teamId)).items).toEqual([]);
    const team = await call(emulator, "GET", `/team-invitations?team_id=${teamId}`, { as: "server" });
    expect(Object.keys(team.body.items[0]).sort()).toEqual(["expires_at_millis", "id", "recipient_email", "team_id"]);
  });
});

/** What the SDK sent: method, path with query, and whether it carried a user token or the secret server key. */
interface Sent {
  readonly line: string;
  readonly token: boolean;
  readonly secret: boolean;
}

/** Apps of the demo project whose requests are recorded in `sent`. */
function recordingApps(emulator: CheckedEmulator) {
  const sent: Sent[] = [];
  const options = demoAppOptions(emulator);
  const environment = {
    ...options.environment,
    fetch: (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init);
      const url = new URL(request.url);
      sent.push({
        line: `${request.method} ${url.pathname}${url.search}`,
        token: request.headers.has("x-stack-access-token"),
        secret: request.headers.has("x-stack-secret-server-key"),
      });
      return emulator.fetch(request);
    },
  };
  return {
    sent,
    client: () => new StackClientApp({ ...options, environment, tokenStore: "memory" }),
    server: () => new StackServerApp({ ...options, environment, tokenStore: null, secretServerKey: DEMO_KEYS.secretServerKey }),
  };
}

/** Bob, invited to "Acme" at his verified address, signed in on a client app with a password. */
async function invitedBob(emulator: CheckedEmulator) {
  const { teamId, ids } = await teamInviting(emulator, "bob@example.com");
  const record = await emulator.control.createUser({ projectId: DEMO_KEYS.projectId, email: "bob@example.com", password: TEST_PASSWORD });
  const apps = recordingApps(emulator);
  const app = apps.client();
  await app.signInWithCredential({ email: "bob@example.com", password: TEST_PASSWORD, noRedirect: true });
  const user = await app.getUser({ or: "throw" });
  apps.sent.length = 0;
  return { teamId, invitationId: ids["bob@example.com"]!, userId: record.id, app, user, apps };
}

const VERSION_MESSAGE =
  "cannot work with this Stack Auth service, which answers as 2.8.11 does: it has no list of the invitations a user received, nor accepting one by its id (both came with 2.8.86). Instead: accept an invitation with the code of its e-mailed link, app.acceptTeamInvitation(code) (app.getTeamInvitationDetails(code) names its team); a team's members with $read_members and $invite_members can list its pending invitations with team.listInvitations()";

describe("the SDK on 2.8.86", () => {
  it("lists the signed-in user's invitations and accepts one: the user is then in the team", async () => {
    const emulator = await emulatorOf("2.8.86");
    const { teamId, invitationId, user, apps } = await invitedBob(emulator);
    const invitations = await user.listTeamInvitations();
    expect(apps.sent).toEqual([{ line: "GET /api/v1/team-invitations?user_id=me", token: true, secret: false }]);
    expect(invitations).toEqual([
      {
        id: invitationId,
        teamId,
        teamDisplayName: "Acme",
        recipientEmail: "bob@example.com",
        expiresAt: expect.any(Date),
        accept: expect.any(Function),
      },
    ]);
    apps.sent.length = 0;
    await invitations[0]!.accept();
    expect(apps.sent).toEqual([{ line: `POST /api/v1/team-invitations/${invitationId}/accept?user_id=me`, token: true, secret: false }]);
    expect((await user.listTeams()).map((team) => [team.id, team.displayName])).toEqual([[teamId, "Acme"]]);
    expect(await user.listTeamInvitations()).toEqual([]);
    const again = await invitations[0]!.accept().catch((error: unknown) => error);
    expect(again).toMatchObject({ code: "VERIFICATION_CODE_NOT_FOUND" });
  });

  it("acts only for the session the invitations were read in", async () => {
    const emulator = await emulatorOf("2.8.86");
    const { app, user, apps } = await invitedBob(emulator);
    const [invitation] = await user.listTeamInvitations();
    await app.signOut();
    apps.sent.length = 0;
    const refused = await invitation!.accept().catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(SessionEndedError);
    expect(apps.sent).toEqual([]);
  });

  it("lists and accepts a server user's invitations by the user's id, with the server key", async () => {
    const emulator = await emulatorOf("2.8.86");
    const { teamId, invitationId, userId, apps } = await invitedBob(emulator);
    const user = await apps.server().getUser(userId);
    apps.sent.length = 0;
    const [invitation] = await user!.listTeamInvitations();
    expect(invitation).toMatchObject({ id: invitationId, teamId, teamDisplayName: "Acme", recipientEmail: "bob@example.com" });
    await invitation!.accept();
    expect(apps.sent).toEqual([
      { line: `GET /api/v1/team-invitations?user_id=${userId}`, token: false, secret: true },
      { line: `POST /api/v1/team-invitations/${invitationId}/accept?user_id=${userId}`, token: false, secret: true },
    ]);
    expect((await user!.listTeams()).map((team) => team.id)).toEqual([teamId]);
  });
});

describe("the SDK on 2.8.11", () => {
  it("rejects listTeamInvitations with a ServiceVersionError that says what to use instead", async () => {
    const emulator = await emulatorOf("2.8.11");
    const { userId, user, apps } = await invitedBob(emulator);
    const refused = await user.listTeamInvitations().catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ServiceVersionError);
    expect(refused).toMatchObject({ method: "user.listTeamInvitations", serviceVersion: "2.8.11" });
    expect((refused as Error).message).toBe(`user.listTeamInvitations ${VERSION_MESSAGE}`);
    expect(apps.sent).toEqual([{ line: "GET /api/v1/team-invitations?user_id=me", token: true, secret: false }]);
    const serverUser = await apps.server().getUser(userId);
    const serverRefused = await serverUser!.listTeamInvitations().catch((error: unknown) => error);
    expect(serverRefused).toBeInstanceOf(ServiceVersionError);
    expect((serverRefused as Error).message).toBe(`user.listTeamInvitations ${VERSION_MESSAGE}`);
  });
});
