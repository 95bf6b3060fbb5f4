// User and team API keys through the SDK against the emulator: the full key
// shown once, the list with last four characters, server-side checks, expiry on
// the emulator's clock, revocation, the project switches and team permissions.
import { describe, expect, it } from "vitest";
import { DEMO_KEYS } from "../../emulator/index.js";
import { HttpError, isKnownError, StackServerApp } from "../../runtime/index.js";
import { demoAppOptions, demoApps, signedInUser, useEmulator } from "../helpers/emulator.js";

const emulator = useEmulator();

const HOUR = 3600_000;
/** The service's key format: sk_ (pk_ if public), 45 random base32 chars, the key id, the type, a flag, the marker and a CRC-32. */
const KEY_FORMAT = (type: "user" | "team", prefix = "sk", flag = "1") =>
  new RegExp(`^${prefix}_[0-9a-hjkmnp-tv-z]{45}[0-9a-f]{32}${type}${flag}574ck4u7h[0-9a-f]{8}$`);

const common = () => demoAppOptions(emulator());

/** A user of the demo project, and a client app signed in as them. */
async function signedIn(email: string) {
  return signedInUser(emulator(), email);
}

function serverApp() {
  return new StackServerApp({ ...common(), tokenStore: null, secretServerKey: DEMO_KEYS.secretServerKey });
}

/** The known error (or status) the last answer of an operation carried. */
function lastAnswer(operationId: "checkUserApiKey" | "checkTeamApiKey" | "createUserApiKey" | "listTeamApiKeys" | "createTeamApiKey") {
  const log = emulator().control.requests({ operationId });
  const last = log[log.length - 1];
  return last === undefined ? undefined : { status: last.status, knownError: last.knownError };
}

async function rawCheck(type: "user" | "team", apiKey: string) {
  const e = emulator();
  const response = await e.fetch(
    new Request(`${e.apiOrigin}/api/v1/${type}-api-keys/check`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-stack-project-id": DEMO_KEYS.projectId,
        "x-stack-access-type": "server",
        "x-stack-secret-server-key": DEMO_KEYS.secretServerKey,
      },
      body: JSON.stringify({ api_key: apiKey }),
    }),
  );
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe("user API keys", () => {
  it("shows the full key once, then only its last four characters, and the server finds the user by it", async () => {
    const { user, record } = await signedIn("ada@example.com");
    const created = await user.createApiKey({ description: "CI deploys", expiresAt: new Date(emulator().control.now() + 24 * HOUR) });
    expect(created.value).toMatch(KEY_FORMAT("user"));
    expect(created.value).toContain(created.id.replace(/-/g, ""));
    expect(created).toMatchObject({ type: "user", userId: record.id, description: "CI deploys", manuallyRevokedAt: null });
    expect(created.isValid()).toBe(true);

    const listed = await user.listApiKeys();
    expect(listed.map((key) => [key.id, key.value])).toEqual([[created.id, { lastFour: created.value.slice(-4) }]]);

    const found = await serverApp().getUser({ apiKey: created.value });
    expect(found?.id).toBe(record.id);
    expect(await serverApp().getUser({ apiKey: `${created.value.slice(0, -1)}x` })).toBeNull();
    expect(lastAnswer("checkUserApiKey")).toEqual({ status: 404, knownError: "API_KEY_NOT_FOUND" });
  });

  it("lists newest first, keeps keys per user, and makes public keys with the pk_ prefix", async () => {
    const ada = await signedIn("ada@example.com");
    const bob = await signedIn("bob@example.com");
    const first = await ada.user.createApiKey({ description: "first", expiresAt: null });
    emulator().control.advanceClock(1000);
    const second = await ada.user.createApiKey({ description: "second", expiresAt: null, isPublic: true });
    expect(second.value).toMatch(KEY_FORMAT("user", "pk", "3"));
    // As on the reference's keys: no isPublic member, and expiresAt a member even when undefined.
    expect("isPublic" in second).toBe(false);
    expect(first.expiresAt).toBeUndefined();
    expect(Object.keys(first)).toContain("expiresAt");
    expect((await ada.user.listApiKeys()).map((key) => key.description)).toEqual(["second", "first"]);
    expect(await bob.user.listApiKeys()).toEqual([]);
  });

  it("expires a key on the emulator's clock", async () => {
    const { user } = await signedIn("ada@example.com");
    const key = await user.createApiKey({ description: "short-lived", expiresAt: new Date(emulator().control.now() + HOUR) });
    expect(await serverApp().getUser({ apiKey: key.value })).not.toBeNull();

    emulator().control.advanceClock(2 * HOUR);
    expect(await serverApp().getUser({ apiKey: key.value })).toBeNull();
    expect(lastAnswer("checkUserApiKey")).toEqual({ status: 401, knownError: "API_KEY_EXPIRED" });
    const check = await rawCheck("user", key.value);
    expect(check.body).toMatchObject({ code: "API_KEY_EXPIRED", error: "API key has expired." });
  });

  it("revokes a key for good: the service refuses it, and a second revocation keeps the first time", async () => {
    const { user } = await signedIn("ada@example.com");
    const key = await user.createApiKey({ description: "to revoke", expiresAt: null });
    const [listed] = await user.listApiKeys();
    await listed!.revoke();

    const [revoked] = await user.listApiKeys();
    expect(revoked!.manuallyRevokedAt).toBeInstanceOf(Date);
    expect(revoked!.isValid()).toBe(false);
    expect(revoked!.whyInvalid()).toBe("manually-revoked");
    expect(await serverApp().getUser({ apiKey: key.value })).toBeNull();
    expect(lastAnswer("checkUserApiKey")).toEqual({ status: 401, knownError: "API_KEY_REVOKED" });

    emulator().control.advanceClock(5000);
    await revoked!.update({ revoked: true, description: "renamed" });
    const [again] = await user.listApiKeys();
    expect(again!.manuallyRevokedAt?.getTime()).toBe(revoked!.manuallyRevokedAt?.getTime());
    expect(again!.description).toBe("renamed");
  });

  it("refuses user keys when the project does not allow them, with the service's plain 400", async () => {
    const { user } = await signedIn("ada@example.com");
    await demoApps(emulator())
      .admin()
      .getProject()
      .then((project) => project.update({ config: { allowUserApiKeys: false } }));
    const error = await user.createApiKey({ description: "nope", expiresAt: null }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).status).toBe(400);
    expect((error as HttpError).body).toBe("User API keys are not enabled for this project.");
    expect(lastAnswer("createUserApiKey")).toEqual({ status: 400, knownError: null });
  });

  it("answers the service's errors for requests the SDK does not make", async () => {
    const ada = await signedIn("ada@example.com");
    const bob = await signedIn("bob@example.com");
    const key = await ada.user.createApiKey({ description: "ada's", expiresAt: null });
    const e = emulator();
    const bobTokens = await e.control.createSession(bob.record.id);
    const asBob = (path: string) =>
      e.fetch(
        new Request(`${e.apiOrigin}/api/v1${path}`, {
          headers: {
            "x-stack-project-id": DEMO_KEYS.projectId,
            "x-stack-access-type": "client",
            "x-stack-publishable-client-key": DEMO_KEYS.publishableClientKey,
            "x-stack-access-token": bobTokens.accessToken,
          },
        }),
      );
    const others = await asBob(`/user-api-keys?user_id=${ada.record.id}`);
    expect([others.status, await others.text()]).toEqual([403, "Client can only manage their own api keys"]);
    const read = await asBob(`/user-api-keys/${key.id}?user_id=me`);
    expect(read.status).toBe(403);
    const missing = await asBob(`/user-api-keys/${crypto.randomUUID()}?user_id=me`);
    expect([missing.status, missing.headers.get("x-stack-known-error")]).toEqual([404, "API_KEY_NOT_FOUND"]);
  });
});

describe("team API keys", () => {
  async function teamWithAdmin() {
    const ada = await signedIn("ada@example.com");
    const team = await ada.user.createTeam({ displayName: "Platform" });
    return { ada, team };
  }

  it("lets a team admin create and list keys, and the server finds the team by one", async () => {
    const { team } = await teamWithAdmin();
    const created = await team.createApiKey({ description: "automation", expiresAt: null });
    expect(created.value).toMatch(KEY_FORMAT("team"));
    expect(created).toMatchObject({ type: "team", teamId: team.id });
    expect((await team.listApiKeys()).map((key) => [key.id, key.value])).toEqual([[created.id, { lastFour: created.value.slice(-4) }]]);

    const server = serverApp();
    expect((await server.getTeam({ apiKey: created.value }))?.id).toBe(team.id);
    // A team key is not a user key, and the other way round.
    expect(await server.getUser({ apiKey: created.value })).toBeNull();
    expect(lastAnswer("checkUserApiKey")).toEqual({ status: 400, knownError: "WRONG_API_KEY_TYPE" });
    const check = await rawCheck("user", created.value);
    expect(check.body).toMatchObject({ code: "WRONG_API_KEY_TYPE", details: { expected_type: "user", actual_type: "team" } });
  });

  it("hides a team's keys from a member without $manage_api_keys", async () => {
    const { team } = await teamWithAdmin();
    await team.createApiKey({ description: "automation", expiresAt: null });
    const bob = await signedIn("bob@example.com");
    const serverTeam = await serverApp().getTeam(team.id);
    await serverTeam!.addUser(bob.record.id);
    const bobsTeam = await bob.user.getTeam(team.id);
    expect(bobsTeam).not.toBeNull();
    const error = await bobsTeam!.listApiKeys().catch((e: unknown) => e);
    expect(isKnownError(error, "API_KEY_NOT_FOUND")).toBe(true);
    expect(lastAnswer("listTeamApiKeys")).toEqual({ status: 404, knownError: "API_KEY_NOT_FOUND" });
    expect(await serverTeam!.listApiKeys()).toHaveLength(1);
  });

  it("revokes and expires team keys, and refuses even checks when the project turns team keys off", async () => {
    const { team } = await teamWithAdmin();
    const revoked = await team.createApiKey({ description: "revoked", expiresAt: null });
    const expiring = await team.createApiKey({ description: "expiring", expiresAt: new Date(emulator().control.now() + HOUR) });
    await (await team.listApiKeys()).find((key) => key.id === revoked.id)!.revoke();
    expect(await serverApp().getTeam({ apiKey: revoked.value })).toBeNull();
    expect(lastAnswer("checkTeamApiKey")).toEqual({ status: 401, knownError: "API_KEY_REVOKED" });

    emulator().control.advanceClock(2 * HOUR);
    expect(await serverApp().getTeam({ apiKey: expiring.value })).toBeNull();
    expect(lastAnswer("checkTeamApiKey")).toEqual({ status: 401, knownError: "API_KEY_EXPIRED" });

    // With team keys off, even the check is refused: a plain 400, not a known error (so not a null key).
    await (await demoApps(emulator()).admin().getProject()).update({ config: { allowTeamApiKeys: false } });
    const error = await serverApp()
      .getTeam({ apiKey: expiring.value })
      .catch((e: unknown) => e);
    expect([(error as HttpError).status, (error as HttpError).body]).toEqual([400, "Team API keys are not enabled for this project."]);
    expect(lastAnswer("checkTeamApiKey")).toEqual({ status: 400, knownError: null });
  });
});
