// The emulator answers as either service version apps meet (issue 22 §2):
// 2.8.11, the spec's, and 2.8.86, the hosted service's and the default. One
// case per behaviour that differs, run in the version(s) it belongs to, every
// exchange checked against the document. Facts from the service's public
// source at both versions (tokens, the JWKS route, the request gate, anonymous
// sign-up).
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createLocalJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify } from "jose";
import { describe, expect, it } from "vitest";
import { createEmulator, DEFAULT_SERVICE_VERSION, DEMO_KEYS, INTERNAL_KEYS, type ServiceVersion } from "../../emulator/index.js";
import { startEmulator } from "../../testing/index.js";
import { checkedEmulatorPerTest, type CheckedEmulator } from "../helpers/emulator.js";
import { rawCall as call } from "../helpers/raw-call.js";
import { browseEmulator, formOf, PLAIN_VERIFIER, rawAuthorizeUrl } from "../helpers/provider-page.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const GLOBAL_ISSUER = "https://access-token.jwt-signature.stack-auth.com";
const ALLOW_ANONYMOUS = { "x-stack-allow-anonymous-user": "true" };

const emulatorOf = checkedEmulatorPerTest();

interface Keys {
  readonly projectId: string;
  readonly publishableClientKey: string;
}

async function signUpAnonymously(emulator: CheckedEmulator, keys: Keys = DEMO_KEYS) {
  const answer = await call(emulator, "POST", "/auth/anonymous/sign-up", { keys });
  expect(answer.status).toBe(200);
  return answer.body as { access_token: string; refresh_token: string; user_id: string };
}

/** An access token of a new user of the internal project (who may own projects). */
async function internalUserToken(emulator: CheckedEmulator): Promise<string> {
  const user = await emulator.control.createUser({ projectId: INTERNAL_KEYS.projectId, email: "founder@example.com" });
  return (await emulator.control.createSession(user.id)).accessToken;
}

/** Adds a contact channel with `value` for a new user of the demo project (client access, their token); the stored value. */
async function addChannel(emulator: CheckedEmulator, value: string): Promise<unknown> {
  const user = await emulator.control.createUser({ projectId: DEMO_KEYS.projectId, email: "owner@example.com" });
  const { accessToken } = await emulator.control.createSession(user.id);
  const created = await call(emulator, "POST", "/contact-channels", {
    token: accessToken,
    body: { user_id: "me", type: "email", value, used_for_auth: false },
  });
  expect(created.status).toBe(201);
  return created.body.value;
}

/** A normal and an anonymous user of the demo project, and the ids `GET /users?<query>` (server access) lists. */
async function listedUsers(emulator: CheckedEmulator, query: string) {
  const normal = await emulator.control.createUser({ projectId: DEMO_KEYS.projectId, email: "ada@example.com" });
  const anonymous = await emulator.control.createUser({ projectId: DEMO_KEYS.projectId, isAnonymous: true });
  const answer = await call(emulator, "GET", `/users${query}`, { as: "server" });
  return { normal: normal.id, anonymous: anonymous.id, status: answer.status, body: answer.body };
}

/** A normal and an anonymous user of the demo project, and what `GET /internal/metrics?<query>` counts of them. */
async function metricsOf(emulator: CheckedEmulator, query: string) {
  const normal = await emulator.control.createUser({ projectId: DEMO_KEYS.projectId, email: "ada@example.com" });
  const anonymous = await emulator.control.createUser({ projectId: DEMO_KEYS.projectId, isAnonymous: true });
  const answer = await call(emulator, "GET", `/internal/metrics${query}`, { as: "admin" });
  expect(answer.status).toBe(200);
  const registered = (answer.body.recently_registered as { id: string }[]).map((u) => u.id).sort();
  return { normal: normal.id, anonymous: anonymous.id, total: answer.body.total_users as number, registered };
}

/** The sent-e-mail log after a test e-mail: its newest entry (on 2.8.86 not the test e-mail, which it does not log). */
async function newestSentEmail(emulator: CheckedEmulator): Promise<Record<string, unknown>> {
  const sent = await call(emulator, "POST", "/internal/send-test-email", {
    as: "admin",
    body: {
      recipient_email: "ops@example.com",
      email_config: {
        host: "smtp.acme.example.com",
        port: 587,
        username: "mailer",
        password: "secret",
        sender_email: "noreply@acme.example.com",
        sender_name: "Acme",
      },
    },
  });
  expect(sent.status).toBe(200);
  return (await call(emulator, "GET", "/internal/emails", { as: "admin" })).body.items[0];
}

/**
 * A sign-in with GitHub (the emulator's provider page) as a raw client makes it, the authorize call carrying
 * `token`: the tokens the code is exchanged for.
 */
async function oauthSignIn(emulator: CheckedEmulator, token: string, identity: { email: string; name: string; accountId: string }) {
  const redirectUri = "http://localhost:3000/handler/oauth-callback";
  const verifier = PLAIN_VERIFIER;
  const authorize = rawAuthorizeUrl(emulator.apiOrigin, { redirect_uri: redirectUri, type: "authenticate", token });
  const browse = (url: string, init?: RequestInit) => browseEmulator(emulator, url, init);
  const consent = await browse(authorize.toString());
  const form = formOf(consent, { id: "oauth-identity-form" });
  form.fields.set("email", identity.email);
  form.fields.set("name", identity.name);
  form.fields.set("account_id", identity.accountId);
  const back = await browse(form.action, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: form.fields.toString(),
  });
  const code = back.landed?.searchParams.get("code");
  if (!code) throw new Error(`the flow did not come back with a code: ${back.text}`);
  const exchanged = await emulator.fetch(
    new Request(`${emulator.apiOrigin}/api/v1/auth/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "authorization_code",
        code,
        redirect_uri: redirectUri,
        code_verifier: verifier,
        client_id: DEMO_KEYS.projectId,
        client_secret: DEMO_KEYS.publishableClientKey,
      }).toString(),
    }),
  );
  expect(exchanged.status).toBe(200);
  return (await exchanged.json()) as { access_token: string };
}

async function jwks(emulator: CheckedEmulator, projectId: string, query = "") {
  const response = await emulator.fetch(new Request(`${emulator.apiOrigin}/api/v1/projects/${projectId}/.well-known/jwks.json${query}`));
  return { cacheControl: response.headers.get("cache-control"), body: (await response.json()) as { keys: { kid: string }[] } };
}

describe("choosing the version", () => {
  it("is 2.8.86 by default, in createEmulator and stackkit/testing", async () => {
    expect(DEFAULT_SERVICE_VERSION).toBe("2.8.86");
    expect((await createEmulator()).serviceVersion).toBe("2.8.86");
    const testing = await startEmulator({ serviceVersion: "2.8.11" });
    expect(testing.serviceVersion).toBe("2.8.11");
    await testing.close();
  });

  it("refuses an unknown version, naming the known ones", async () => {
    await expect(createEmulator({ serviceVersion: "2.9.0" as ServiceVersion })).rejects.toThrow(
      'Unknown service version "2.9.0": the emulator answers as 2.8.11 or 2.8.86.',
    );
  });

  it("is the bin's --service-version, which its --help explains and which refuses an unknown version", async () => {
    const run = async (...args: string[]) => {
      const child = spawn(process.execPath, [path.join(root, "scripts/emulator.mjs"), ...args], {
        cwd: root,
        stdio: ["ignore", "pipe", "pipe"],
      });
      let out = "";
      let err = "";
      child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
      child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
      const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
      return { code, out, err };
    };
    const help = await run("--help");
    expect(help.code).toBe(0);
    expect(help.out).toContain("--service-version <v>");
    expect(help.out).toContain("(default 2.8.86, what the hosted service runs");
    const wrong = await run("--service-version", "2.9.0");
    expect(wrong.code).toBe(2);
    expect(wrong.err).toContain('--service-version takes 2.8.11 or 2.8.86, not "2.9.0"');
  }, 60_000);
});

describe("both versions", () => {
  it.each(["2.8.11", "2.8.86"] as const)("%s answers a route it does not have with the catch-all's plain-text 404", async (version) => {
    const emulator = await emulatorOf(version);
    const answer = await call(emulator, "GET", "/no-such-route");
    expect([answer.status, answer.headers.get("content-type")]).toEqual([404, "text/plain; charset=utf-8"]);
    expect(answer.body).toContain("this page does not exist in Stack Auth's API");
    // The document has no such route, by design: the one violation this exchange makes.
    expect(emulator.violations.splice(0)).toEqual([
      "GET /api/v1/no-such-route 404: /request no operation of the document matches GET /no-such-route",
    ]);
  });

  it.each(["2.8.11", "2.8.86"] as const)(
    "%s answers 2.8.102's GET /internal/backend-urls, asked as the SDK asks it (no headers), as a route it does not have",
    async (version) => {
      const emulator = await emulatorOf(version);
      const answer = await emulator.fetch(new Request(`${emulator.apiOrigin}/api/v1/internal/backend-urls`));
      expect([answer.status, answer.headers.get("content-type"), answer.headers.has("x-stack-known-error")]).toEqual([
        404,
        "text/plain; charset=utf-8",
        false,
      ]);
      expect(await answer.text()).toBe(
        "404 — this page does not exist in Stack Auth's API.\n\nThe emulated service version has no such route.\n\n" +
          `URL: ${emulator.apiOrigin}/api/v1/internal/backend-urls\n`,
      );
      // The document has the route from 2.8.102 on: in this version's view its one answer is the catch-all's 404.
      expect(emulator.violations).toEqual([]);
    },
  );

  it.each(["2.8.11", "2.8.86"] as const)(
    "%s publishes keys as kty, alg, crv, x, y and kid, and signs with alg and kid",
    async (version) => {
      const emulator = await emulatorOf(version);
      const keys = (await jwks(emulator, DEMO_KEYS.projectId)).body.keys;
      for (const key of keys) expect(Object.keys(key).sort()).toEqual(["alg", "crv", "kid", "kty", "x", "y"]);
      const user = await emulator.control.createUser({ projectId: DEMO_KEYS.projectId, email: "ada@example.com" });
      const { accessToken } = await emulator.control.createSession(user.id);
      expect(decodeProtectedHeader(accessToken)).toEqual({ alg: "ES256", kid: keys[0]!.kid });
    },
  );

  it.each([
    ["2.8.11", (_user: string, _session: string) => ({})],
    ["2.8.86", (user: string, session: string) => ({ project_id: DEMO_KEYS.projectId, user_id: user, refresh_token_id: session })],
  ] as const)("%s says in ACCESS_TOKEN_EXPIRED when the token expired (2.8.86: and whose it was)", async (version, whose) => {
    const emulator = await emulatorOf(version);
    const user = await emulator.control.createUser({ projectId: DEMO_KEYS.projectId, email: "ada@example.com" });
    const { accessToken } = await emulator.control.createSession(user.id);
    const claims = decodeJwt(accessToken);
    emulator.control.advanceClock(11 * 60_000);
    const expired = await call(emulator, "GET", "/users/me", { token: accessToken });
    const session = String(claims["refresh_token_id"] ?? claims["refreshTokenId"]);
    expect([expired.status, expired.body.code, expired.body.details]).toEqual([
      401,
      "ACCESS_TOKEN_EXPIRED",
      { expired_at_millis: Number(claims.exp) * 1000, ...whose(user.id, session) },
    ]);
  });

  it.each(["2.8.11", "2.8.86"] as const)(
    "%s reads the user's access token before the project and its keys: an expired one is ACCESS_TOKEN_EXPIRED whatever the keys",
    async (version) => {
      const emulator = await emulatorOf(version);
      const user = await emulator.control.createUser({ projectId: DEMO_KEYS.projectId, email: "ada@example.com" });
      const { accessToken } = await emulator.control.createSession(user.id);
      emulator.control.advanceClock(11 * 60_000);
      const wrongKey = await call(emulator, "GET", "/users/me", {
        token: accessToken,
        keys: { ...DEMO_KEYS, publishableClientKey: "pck_wrong" },
      });
      expect([wrongKey.status, wrongKey.body.code]).toEqual([401, "ACCESS_TOKEN_EXPIRED"]);
      const otherProject = await call(emulator, "GET", "/users/me", {
        token: accessToken,
        keys: { ...DEMO_KEYS, projectId: "no-such-project" },
      });
      expect([otherProject.status, otherProject.body.code]).toEqual([401, "ACCESS_TOKEN_EXPIRED"]);
      // Without a token, the project and its keys answer as before.
      const noToken = await call(emulator, "GET", "/users/me", { keys: { ...DEMO_KEYS, publishableClientKey: "pck_wrong" } });
      expect(noToken.body.code).toBe("INVALID_PUBLISHABLE_CLIENT_KEY");
    },
  );

  it("2.8.86 refuses an anonymous user's token without the header before it looks at the keys", async () => {
    const emulator = await emulatorOf("2.8.86");
    const { access_token } = await signUpAnonymously(emulator);
    const answer = await call(emulator, "GET", "/users/me", {
      token: access_token,
      keys: { ...DEMO_KEYS, publishableClientKey: "pck_wrong" },
    });
    expect([answer.status, answer.body.code]).toEqual([401, "ANONYMOUS_AUTHENTICATION_NOT_ALLOWED"]);
  });

  it.each(["2.8.11", "2.8.86"] as const)(
    "%s reads x-stack-branch-id (default main) and refuses an unknown branch once the keys are good (400 BRANCH_DOES_NOT_EXIST)",
    async (version) => {
      const emulator = await emulatorOf(version);
      const main = await call(emulator, "GET", "/projects/current", { headers: { "x-stack-branch-id": "main" } });
      expect(main.status).toBe(200);
      const unknown = await call(emulator, "GET", "/projects/current", { headers: { "x-stack-branch-id": "staging" } });
      expect([unknown.status, unknown.body.code, unknown.body.details]).toEqual([400, "BRANCH_DOES_NOT_EXIST", { branch_id: "staging" }]);
      const badKey = await call(emulator, "GET", "/projects/current", {
        keys: { ...DEMO_KEYS, publishableClientKey: "pck_wrong" },
        headers: { "x-stack-branch-id": "staging" },
      });
      expect(badKey.body.code).toBe("INVALID_PUBLISHABLE_CLIENT_KEY");
    },
  );
});

describe("2.8.11", () => {
  it("signs access tokens with the one global issuer, aud the project id, camelCase claims, and publishes one key per project", async () => {
    const emulator = await emulatorOf("2.8.11");
    const user = await emulator.control.createUser({ projectId: DEMO_KEYS.projectId, email: "ada@example.com" });
    const { accessToken } = await emulator.control.createSession(user.id);
    const claims = decodeJwt(accessToken);
    expect(Object.keys(claims).sort()).toEqual(["aud", "branchId", "exp", "iat", "iss", "refreshTokenId", "role", "sub"]);
    expect(claims).toMatchObject({ iss: GLOBAL_ISSUER, aud: DEMO_KEYS.projectId, sub: user.id, branchId: "main", role: "authenticated" });
    const keys = await jwks(emulator, DEMO_KEYS.projectId, "?include_anonymous=true");
    expect(keys.body.keys).toHaveLength(1);
    expect(keys.cacheControl).not.toContain("public");
    await jwtVerify(accessToken, createLocalJWKSet(keys.body as never), {
      issuer: GLOBAL_ISSUER,
      audience: DEMO_KEYS.projectId,
      currentDate: new Date(emulator.control.now()),
    });
    // The token works for its project.
    expect((await call(emulator, "GET", "/users/me", { token: accessToken })).body.id).toBe(user.id);
  });

  it("allows anonymous sign-up only on its three fixed projects (internal among them): ANONYMOUS_ACCOUNTS_NOT_ENABLED elsewhere", async () => {
    const emulator = await emulatorOf("2.8.11");
    const refused = await call(emulator, "POST", "/auth/anonymous/sign-up");
    expect([refused.status, refused.body.code]).toEqual([400, "ANONYMOUS_ACCOUNTS_NOT_ENABLED"]);
    await signUpAnonymously(emulator, INTERNAL_KEYS);
  });

  it("names an anonymous user 'Anonymous user' and ignores the allow headers: their token works without them", async () => {
    const emulator = await emulatorOf("2.8.11");
    const anonymous = await signUpAnonymously(emulator, INTERNAL_KEYS);
    const me = await call(emulator, "GET", "/users/me", { keys: INTERNAL_KEYS, token: anonymous.access_token });
    expect([me.status, me.body.is_anonymous, me.body.display_name]).toEqual([200, true, "Anonymous user"]);
  });

  it("answers projects' user_count, and refuses owner_team_id on POST /internal/projects as an unknown property", async () => {
    const emulator = await emulatorOf("2.8.11");
    const token = await internalUserToken(emulator);
    const refused = await call(emulator, "POST", "/internal/projects", {
      keys: INTERNAL_KEYS,
      token,
      body: { display_name: "Acme", owner_team_id: "0b7c1b2e-4a4f-4c3e-9d47-2f1f3c5a6b7d" },
    });
    expect([refused.status, refused.body.code, refused.body.details.message]).toEqual([
      400,
      "SCHEMA_ERROR",
      "Request validation failed on POST /api/v1/internal/projects:\n  - body contains unknown properties: owner_team_id",
    ]);
    const created = await call(emulator, "POST", "/internal/projects", { keys: INTERNAL_KEYS, token, body: { display_name: "Acme" } });
    expect([created.status, created.body.user_count, "owner_team_id" in created.body]).toEqual([201, 0, false]);
  });

  it("has no /internal/email-templates: its catch-all answers a plain-text 404", async () => {
    const emulator = await emulatorOf("2.8.11");
    const answer = await call(emulator, "GET", "/internal/email-templates", { as: "admin" });
    expect([answer.status, answer.headers.get("content-type")]).toEqual([404, "text/plain; charset=utf-8"]);
    expect(answer.body).toContain("this page does not exist in Stack Auth's API");
    expect((await call(emulator, "GET", "/email-templates", { as: "admin" })).status).toBe(200);
  });

  it("signs up with an untrusted verification URL but sends no e-mail, and requires the URL", async () => {
    const emulator = await emulatorOf("2.8.11");
    const signedUp = await call(emulator, "POST", "/auth/password/sign-up", {
      body: { email: "ada@example.com", password: "a long password", verification_callback_url: "https://evil.example.com/verify" },
    });
    expect(signedUp.status).toBe(200);
    expect(emulator.control.emails({ to: "ada@example.com" })).toEqual([]);
    const without = await call(emulator, "POST", "/auth/password/sign-up", {
      body: { email: "grace@example.com", password: "a long password" },
    });
    expect([without.status, without.body.code]).toEqual([400, "SCHEMA_ERROR"]);
  });

  it("answers every error as 200 under x-stack-override-error-status, 5xx too", async () => {
    const emulator = await emulatorOf("2.8.11");
    emulator.control.injectFault("getCurrentProject", { kind: "status", status: 503 });
    const answer = await call(emulator, "GET", "/projects/current", { headers: { "x-stack-override-error-status": "true" } });
    expect([answer.status, answer.headers.get("x-stack-actual-status")]).toEqual([200, "503"]);
  });

  it("lists anonymous users among the others on GET /users, and refuses the query flags it does not know", async () => {
    const emulator = await emulatorOf("2.8.11");
    const all = await listedUsers(emulator, "");
    expect(all.body.items.map((u: { id: string }) => u.id).sort()).toEqual([all.normal, all.anonymous].sort());
    const flagged = await call(emulator, "GET", "/users?include_anonymous=true&only_anonymous=true", { as: "server" });
    expect([flagged.status, flagged.body.code, flagged.body.details.message]).toEqual([
      400,
      "SCHEMA_ERROR",
      "Request validation failed on GET /api/v1/users:\n  - query contains unknown properties: include_anonymous, only_anonymous",
    ]);
  });

  it("counts anonymous users in GET /internal/metrics, whatever the query says", async () => {
    const metrics = await metricsOf(await emulatorOf("2.8.11"), "?include_anonymous=false");
    expect([metrics.total, metrics.registered]).toEqual([2, [metrics.normal, metrics.anonymous].sort()]);
  });

  it("requires the publishable client key of every client request and answers an unknown project's keys 401 INVALID_PUBLISHABLE_CLIENT_KEY", async () => {
    const emulator = await emulatorOf("2.8.11");
    emulator.control.setPublishableClientKeyRequired(DEMO_KEYS.projectId, false);
    const keyless = await call(emulator, "GET", "/projects/current", { headers: { "x-stack-publishable-client-key": "" } });
    expect([keyless.status, keyless.body.code]).toEqual([401, "CLIENT_AUTHENTICATION_REQUIRED"]);
    const unknown = await call(emulator, "GET", "/projects/current", { keys: { ...DEMO_KEYS, projectId: "no-such-project" } });
    expect([unknown.status, unknown.body.code]).toEqual([401, "INVALID_PUBLISHABLE_CLIENT_KEY"]);
  });

  it("says which sender configuration each sent e-mail went out with", async () => {
    expect(await newestSentEmail(await emulatorOf("2.8.11"))).toMatchObject({
      sender_config: { type: "standard", host: "smtp.acme.example.com" },
    });
  });

  it("has no restricted users: an administrator's restriction changes neither the token nor what it may do", async () => {
    const emulator = await emulatorOf("2.8.11");
    const user = await emulator.control.createUser({ projectId: DEMO_KEYS.projectId, email: "grace@example.com", restrictedByAdmin: true });
    const { accessToken } = await emulator.control.createSession(user.id);
    expect(decodeJwt(accessToken)).toMatchObject({ iss: GLOBAL_ISSUER, aud: DEMO_KEYS.projectId });
    const me = await call(emulator, "GET", "/users/me", { token: accessToken });
    expect([me.status, "is_restricted" in me.body, "restricted_reason" in me.body]).toEqual([200, false, false]);
  });

  it("ignores a project's e-mail verification requirement: an unverified user is not restricted", async () => {
    const emulator = await emulatorOf("2.8.11");
    emulator.control.setEmailVerificationRequired(DEMO_KEYS.projectId, true);
    const user = await emulator.control.createUser({ projectId: DEMO_KEYS.projectId, email: "ada@example.com", emailVerified: false });
    const { accessToken } = await emulator.control.createSession(user.id);
    expect((await call(emulator, "GET", "/users/me", { token: accessToken })).status).toBe(200);
  });

  it("stores a contact channel's e-mail value as sent", async () => {
    expect(await addChannel(await emulatorOf("2.8.11"), " Ada@Example.COM ")).toBe(" Ada@Example.COM ");
  });

  it("makes a new user when an anonymous one signs up with a password (no upgrade)", async () => {
    const emulator = await emulatorOf("2.8.11");
    const anonymous = await signUpAnonymously(emulator, INTERNAL_KEYS);
    const signedUp = await call(emulator, "POST", "/auth/password/sign-up", {
      keys: INTERNAL_KEYS,
      token: anonymous.access_token,
      body: { email: "ada@example.com", password: "a long password", verification_callback_url: "http://localhost:3000/verify" },
    });
    expect(signedUp.status).toBe(200);
    expect(signedUp.body.user_id).not.toBe(anonymous.user_id);
    expect(emulator.engine.ctx.store.user(anonymous.user_id)?.is_anonymous).toBe(true);
  });
});

describe("2.8.86", () => {
  it("signs a normal user's access token with the project's issuer and snake_case claims about the user", async () => {
    const emulator = await emulatorOf("2.8.86");
    const user = await emulator.control.createUser({ projectId: DEMO_KEYS.projectId, email: "ada@example.com", displayName: "Ada" });
    const { accessToken } = await emulator.control.createSession(user.id);
    const claims = decodeJwt(accessToken);
    expect(Object.keys(claims).sort()).toEqual(
      [
        "aud",
        "branch_id",
        "email",
        "email_verified",
        "exp",
        "iat",
        "is_anonymous",
        "is_restricted",
        "iss",
        "name",
        "project_id",
        "refresh_token_id",
        "requires_totp_mfa",
        "restricted_reason",
        "role",
        "selected_team_id",
        "signed_up_at",
        "sub",
      ].sort(),
    );
    expect(claims).toMatchObject({
      iss: `${emulator.apiOrigin}/api/v1/projects/${DEMO_KEYS.projectId}`,
      aud: DEMO_KEYS.projectId,
      sub: user.id,
      project_id: DEMO_KEYS.projectId,
      branch_id: "main",
      name: "Ada",
      email: "ada@example.com",
      is_anonymous: false,
      is_restricted: false,
      restricted_reason: null,
      requires_totp_mfa: false,
      signed_up_at: Math.floor(user.signed_up_at_millis / 1000),
    });
  });

  it("signs an anonymous user's token with the anonymous issuer and audience <id>:anon, verifiable only with include_anonymous", async () => {
    const emulator = await emulatorOf("2.8.86");
    const anonymous = await signUpAnonymously(emulator);
    const claims = decodeJwt(anonymous.access_token);
    expect(claims).toMatchObject({
      iss: `${emulator.apiOrigin}/api/v1/projects-anonymous-users/${DEMO_KEYS.projectId}`,
      aud: `${DEMO_KEYS.projectId}:anon`,
      is_anonymous: true,
      is_restricted: true,
      restricted_reason: { type: "anonymous" },
    });
    const kid = decodeProtectedHeader(anonymous.access_token).kid;
    expect((await jwks(emulator, DEMO_KEYS.projectId)).body.keys.map((key) => key.kid)).not.toContain(kid);
    const all = await jwks(emulator, DEMO_KEYS.projectId, "?include_anonymous=true");
    await jwtVerify(anonymous.access_token, createLocalJWKSet(all.body as never), { currentDate: new Date(emulator.control.now()) });
  });

  it("publishes two keys per audience, the restricted and anonymous audiences' only when asked, cacheable for an hour", async () => {
    const emulator = await emulatorOf("2.8.86");
    const plain = await jwks(emulator, DEMO_KEYS.projectId);
    expect(plain.body.keys).toHaveLength(2);
    expect(plain.cacheControl).toBe("public, max-age=3600");
    expect((await jwks(emulator, DEMO_KEYS.projectId, "?include_restricted=true")).body.keys).toHaveLength(4);
    expect((await jwks(emulator, DEMO_KEYS.projectId, "?include_anonymous=true")).body.keys).toHaveLength(6);
  });

  it("refuses an anonymous user's token without x-stack-allow-anonymous-user: true (401 ANONYMOUS_AUTHENTICATION_NOT_ALLOWED)", async () => {
    const emulator = await emulatorOf("2.8.86");
    const anonymous = await signUpAnonymously(emulator);
    const refused = await call(emulator, "GET", "/users/me", { token: anonymous.access_token });
    expect([refused.status, refused.body.code]).toEqual([401, "ANONYMOUS_AUTHENTICATION_NOT_ALLOWED"]);
    // The restricted header does not let an anonymous user in.
    const restrictedOnly = await call(emulator, "GET", "/users/me", {
      token: anonymous.access_token,
      headers: { "x-stack-allow-restricted-user": "true" },
    });
    expect(restrictedOnly.body.code).toBe("ANONYMOUS_AUTHENTICATION_NOT_ALLOWED");
    const allowed = await call(emulator, "GET", "/users/me", { token: anonymous.access_token, headers: ALLOW_ANONYMOUS });
    expect([allowed.status, allowed.body.id]).toEqual([200, anonymous.user_id]);
  });

  it("requires owner_team_id on POST /internal/projects (a team the user is a member of) and answers it instead of user_count", async () => {
    const emulator = await emulatorOf("2.8.86");
    const token = await internalUserToken(emulator);
    const missing = await call(emulator, "POST", "/internal/projects", { keys: INTERNAL_KEYS, token, body: { display_name: "Acme" } });
    expect([missing.status, missing.body.details.message]).toEqual([
      400,
      "Request validation failed on POST /api/v1/internal/projects:\n  - body.owner_team_id must be defined",
    ]);
    const team = await call(emulator, "POST", "/teams", {
      keys: INTERNAL_KEYS,
      token,
      body: { display_name: "Acme owners", creator_user_id: "me" },
    });
    const other = "0b7c1b2e-4a4f-4c3e-9d47-2f1f3c5a6b7d";
    const notMine = await call(emulator, "POST", "/internal/projects", {
      keys: INTERNAL_KEYS,
      token,
      body: { display_name: "Acme", owner_team_id: other },
    });
    expect([notMine.status, notMine.body.code]).toEqual([404, "TEAM_MEMBERSHIP_NOT_FOUND"]);
    const created = await call(emulator, "POST", "/internal/projects", {
      keys: INTERNAL_KEYS,
      token,
      body: { display_name: "Acme", owner_team_id: team.body.id },
    });
    expect([created.status, created.body.owner_team_id, "user_count" in created.body]).toEqual([201, team.body.id, false]);
  });

  it("refuses sign-up with an untrusted verification URL (REDIRECT_URL_NOT_WHITELISTED), and takes none", async () => {
    const emulator = await emulatorOf("2.8.86");
    const refused = await call(emulator, "POST", "/auth/password/sign-up", {
      body: { email: "ada@example.com", password: "a long password", verification_callback_url: "https://evil.example.com/verify" },
    });
    expect([refused.status, refused.body.code]).toEqual([400, "REDIRECT_URL_NOT_WHITELISTED"]);
    expect(emulator.engine.ctx.store.authChannelByEmail(DEMO_KEYS.projectId, "ada@example.com")).toBeUndefined();
    const without = await call(emulator, "POST", "/auth/password/sign-up", {
      body: { email: "ada@example.com", password: "a long password" },
    });
    expect(without.status).toBe(200);
  });

  it("rewrites only 4xx under x-stack-override-error-status: a 5xx keeps its status", async () => {
    const emulator = await emulatorOf("2.8.86");
    emulator.control.injectFault("getCurrentProject", { kind: "status", status: 503 });
    const serverError = await call(emulator, "GET", "/projects/current", { headers: { "x-stack-override-error-status": "true" } });
    expect([serverError.status, serverError.headers.get("x-stack-actual-status")]).toEqual([503, null]);
    const clientError = await call(emulator, "GET", "/users/me", {
      token: "not-a-token",
      headers: { "x-stack-override-error-status": "true" },
    });
    expect([clientError.status, clientError.headers.get("x-stack-actual-status"), clientError.body.code]).toEqual([
      200,
      "401",
      "UNPARSABLE_ACCESS_TOKEN",
    ]);
  });

  it("upgrades an anonymous user in place when they sign in with a new OAuth account, the authorize call carrying their token", async () => {
    const emulator = await emulatorOf("2.8.86");
    const anonymous = await signUpAnonymously(emulator);
    const tokens = await oauthSignIn(emulator, anonymous.access_token, { email: "hedy@example.com", name: "Hedy", accountId: "hedy-gh" });
    const me = await call(emulator, "GET", "/users/me", { token: tokens.access_token });
    expect([me.status, me.body.id, me.body.is_anonymous, me.body.primary_email, me.body.display_name]).toEqual([
      200,
      anonymous.user_id,
      false,
      "hedy@example.com",
      "Hedy",
    ]);
    expect(me.body.oauth_providers.map((p: { id: string }) => p.id)).toEqual(["github"]);
  });

  it("lists only normal users on GET /users unless include_anonymous / only_anonymous say otherwise", async () => {
    const emulator = await emulatorOf("2.8.86");
    const listed = await listedUsers(emulator, "");
    const ids = async (query: string) =>
      ((await call(emulator, "GET", `/users${query}`, { as: "server" })).body.items as { id: string }[]).map((u) => u.id).sort();
    expect(listed.body.items.map((u: { id: string }) => u.id)).toEqual([listed.normal]);
    expect(await ids("?include_anonymous=true")).toEqual([listed.normal, listed.anonymous].sort());
    expect(await ids("?include_anonymous=true&only_anonymous=true")).toEqual([listed.anonymous]);
    expect(await ids("?include_restricted=true")).toEqual([listed.normal]);
    expect((await call(emulator, "GET", "/users?only_anonymous=true", { as: "server" })).status).toBe(400);
  });

  it("leaves anonymous users out of GET /internal/metrics unless include_anonymous=true", async () => {
    const emulator = await emulatorOf("2.8.86");
    const metrics = await metricsOf(emulator, "");
    expect([metrics.total, metrics.registered]).toEqual([1, [metrics.normal]]);
    const all = await call(emulator, "GET", "/internal/metrics?include_anonymous=true", { as: "admin" });
    expect([all.body.total_users, all.body.recently_registered.length]).toEqual([2, 2]);
  });

  it("serves a client without the publishable key where the project does not require it, else 401 PUBLISHABLE_CLIENT_KEY_REQUIRED_FOR_PROJECT", async () => {
    const emulator = await emulatorOf("2.8.86");
    const keyless = { headers: { "x-stack-publishable-client-key": "" } };
    const required = await call(emulator, "GET", "/projects/current", keyless);
    expect([required.status, required.body.code, required.body.details]).toEqual([
      401,
      "PUBLISHABLE_CLIENT_KEY_REQUIRED_FOR_PROJECT",
      { project_id: DEMO_KEYS.projectId },
    ]);
    emulator.control.setPublishableClientKeyRequired(DEMO_KEYS.projectId, false);
    expect((await call(emulator, "GET", "/projects/current", keyless)).status).toBe(200);
    const sentinel = { headers: { "x-stack-publishable-client-key": "__stack_public_client__" } };
    expect((await call(emulator, "GET", "/projects/current", sentinel)).status).toBe(200);
    const wrong = await call(emulator, "GET", "/projects/current", { keys: { ...DEMO_KEYS, publishableClientKey: "pck_wrong" } });
    expect(wrong.body.code).toBe("INVALID_PUBLISHABLE_CLIENT_KEY");
  });

  it("checks POST /auth/oauth/token's client first: the project's key requirement, then the secret", async () => {
    const emulator = await emulatorOf("2.8.86");
    const user = await emulator.control.createUser({ projectId: DEMO_KEYS.projectId, email: "ada@example.com" });
    const { refreshToken } = await emulator.control.createSession(user.id);
    const token = async (secret: string) => {
      const response = await emulator.fetch(
        new Request(`${emulator.apiOrigin}/api/v1/auth/oauth/token`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({
            grant_type: "refresh_token",
            refresh_token: refreshToken,
            client_id: DEMO_KEYS.projectId,
            client_secret: secret,
          }).toString(),
        }),
      );
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    const sentinel = "__stack_public_client__";
    expect(await token(sentinel)).toMatchObject({
      status: 401,
      body: { code: "PUBLISHABLE_CLIENT_KEY_REQUIRED_FOR_PROJECT", details: { project_id: DEMO_KEYS.projectId } },
    });
    expect((await token("pck_wrong")).body.code).toBe("INVALID_OAUTH_CLIENT_ID_OR_SECRET");
    emulator.control.setPublishableClientKeyRequired(DEMO_KEYS.projectId, false);
    expect((await token(sentinel)).status).toBe(200);
    expect((await token(DEMO_KEYS.publishableClientKey)).status).toBe(200);
  });

  it("answers an unknown project 400 CURRENT_PROJECT_NOT_FOUND", async () => {
    const emulator = await emulatorOf("2.8.86");
    const unknown = await call(emulator, "GET", "/projects/current", { keys: { ...DEMO_KEYS, projectId: "no-such-project" } });
    expect([unknown.status, unknown.body.code, unknown.body.details]).toEqual([
      400,
      "CURRENT_PROJECT_NOT_FOUND",
      { project_id: "no-such-project" },
    ]);
  });

  it("logs its own flows' e-mails without their sender configuration, and no test e-mail", async () => {
    const emulator = await emulatorOf("2.8.86");
    const signUp = await call(emulator, "POST", "/auth/password/sign-up", {
      body: {
        email: "ada@example.com",
        password: "correct horse battery",
        verification_callback_url: "http://localhost:3000/handler/email-verification",
      },
    });
    expect(signUp.status).toBe(200);
    // The test e-mails go out (the inbox has them) but not through the outbox, so the log does not show them.
    expect(await newestSentEmail(emulator)).toMatchObject({ to: ["ada@example.com"], error: null });
    const failed = await call(emulator, "POST", "/internal/send-test-email", {
      as: "admin",
      body: {
        recipient_email: "ops@example.com",
        email_config: {
          host: "smtp.nowhere.invalid",
          port: 587,
          username: "u",
          password: "p",
          sender_email: "a@b.example",
          sender_name: "A",
        },
      },
    });
    expect(failed.body).toMatchObject({ success: false });
    expect(emulator.control.emails({ to: "ops@example.com" })).toHaveLength(2);
    const log = (await call(emulator, "GET", "/internal/emails", { as: "admin" })).body.items;
    expect(log.map((email: Record<string, unknown>) => [email.to, "sender_config" in email, email.error])).toEqual([
      [["ada@example.com"], false, null],
    ]);
  });

  it("stores a contact channel's e-mail value trimmed and lower-cased", async () => {
    expect(await addChannel(await emulatorOf("2.8.86"), " Ada@Example.COM ")).toBe("ada@example.com");
  });

  it("has no /email-templates (removed): its catch-all answers a plain-text 404", async () => {
    const emulator = await emulatorOf("2.8.86");
    for (const [method, route] of [
      ["GET", "/email-templates"],
      ["DELETE", "/email-templates/password_reset"],
    ] as const) {
      const answer = await call(emulator, method, route, { as: "admin" });
      expect([answer.status, answer.headers.get("content-type")]).toEqual([404, "text/plain; charset=utf-8"]);
      expect(answer.body).toContain("this page does not exist in Stack Auth's API");
    }
  });

  it("lists the TSX e-mail templates at /internal/email-templates, changes and resets one on the project's own e-mail server only", async () => {
    const emulator = await emulatorOf("2.8.86");
    const RESET = "a70fb3a4-56c1-4e42-af25-49d25603abd0";
    const list = async () => (await call(emulator, "GET", "/internal/email-templates", { as: "admin" })).body.templates as any[];
    expect((await list()).map((t) => [t.id, t.display_name])).toEqual([
      ["e7d009ce-8d47-4528-b245-5bf119f2ffa3", "Email Verification"],
      [RESET, "Password Reset"],
      ["822687fe-8d0a-4467-a0d1-416b6e639478", "Magic Link/OTP"],
      ["e84de395-2076-4831-9c19-8e9a96a868e4", "Team Invitation"],
    ]);
    const source = `import { Subject, NotificationCategory } from "@stackframe/emails";\nexport function EmailTemplate() { return <><Subject value="New password" /><NotificationCategory value="Transactional" /></>; }\n`;
    const shared = await call(emulator, "PATCH", `/internal/email-templates/${RESET}`, { as: "admin", body: { tsx_source: source } });
    expect([shared.status, shared.body.code]).toEqual([400, "REQUIRES_CUSTOM_EMAIL_SERVER"]);
    const ownServer = {
      type: "standard",
      host: "smtp.acme.example.com",
      port: 587,
      username: "mailer",
      password: "secret",
      sender_email: "noreply@acme.example.com",
      sender_name: "Acme",
    };
    expect(
      (await call(emulator, "PATCH", "/internal/projects/current", { as: "admin", body: { config: { email_config: ownServer } } })).status,
    ).toBe(200);
    const unknown = await call(emulator, "PATCH", "/internal/email-templates/0b7c1b2e-4a4f-4c3e-9d47-2f1f3c5a6b7d", {
      as: "admin",
      body: { tsx_source: source },
    });
    expect(unknown.status).toBe(404);
    const saved = await call(emulator, "PATCH", `/internal/email-templates/${RESET}`, { as: "admin", body: { tsx_source: source } });
    expect([saved.status, typeof saved.body.rendered_html]).toEqual([200, "string"]);
    expect((await list()).find((t) => t.id === RESET).tsx_source).toBe(source);
    const deleted = await call(emulator, "DELETE", `/internal/email-templates/${RESET}`, { as: "admin" });
    expect([deleted.status, deleted.body]).toEqual([200, {}]);
    expect((await list()).find((t) => t.id === RESET).tsx_source).not.toBe(source);
  });

  it("refuses a restricted user's token without x-stack-allow-restricted-user or the anonymous header (403 RESTRICTED_USER_NOT_ALLOWED)", async () => {
    const emulator = await emulatorOf("2.8.86");
    const user = await emulator.control.createUser({ projectId: DEMO_KEYS.projectId, email: "grace@example.com", restrictedByAdmin: true });
    const { accessToken } = await emulator.control.createSession(user.id);
    expect(decodeJwt(accessToken)).toMatchObject({
      iss: `${emulator.apiOrigin}/api/v1/projects-restricted-users/${DEMO_KEYS.projectId}`,
      aud: `${DEMO_KEYS.projectId}:restricted`,
      is_anonymous: false,
      is_restricted: true,
      restricted_reason: { type: "restricted_by_administrator" },
    });
    const refused = await call(emulator, "GET", "/users/me", { token: accessToken });
    expect([refused.status, refused.body.code, refused.body.details]).toEqual([
      403,
      "RESTRICTED_USER_NOT_ALLOWED",
      { restricted_reason: { type: "restricted_by_administrator" } },
    ]);
    for (const header of ["x-stack-allow-restricted-user", "x-stack-allow-anonymous-user"]) {
      const allowed = await call(emulator, "GET", "/users/me", { token: accessToken, headers: { [header]: "true" } });
      expect([allowed.status, allowed.body.id]).toEqual([200, user.id]);
      expect(allowed.body).toMatchObject({
        is_restricted: true,
        restricted_reason: { type: "restricted_by_administrator" },
        restricted_by_admin: true,
        restricted_by_admin_reason: null,
      });
    }
    const onServer = await call(emulator, "GET", `/users/${user.id}`, { as: "server" });
    expect(onServer.body).toMatchObject({ is_restricted: true, restricted_by_admin: true, restricted_by_admin_private_details: null });
  });

  it("refuses a restricted user's acceptance of a team invitation (403 TEAM_INVITATION_RESTRICTED_USER_NOT_ALLOWED)", async () => {
    const emulator = await emulatorOf("2.8.86");
    const team = await call(emulator, "POST", "/teams", { as: "server", body: { display_name: "Analysts" } });
    const sent = await call(emulator, "POST", "/team-invitations/send-code", {
      as: "server",
      body: { team_id: team.body.id, email: "grace@example.com", callback_url: "http://localhost:3000/handler/team-invitation" },
    });
    expect(sent.status).toBe(200);
    const code = emulator.control.codes({ recipient: "grace@example.com", kind: "team_invitation" }).at(-1)!.code;
    const user = await emulator.control.createUser({ projectId: DEMO_KEYS.projectId, email: "grace@example.com", restrictedByAdmin: true });
    const { accessToken } = await emulator.control.createSession(user.id);
    const refused = await call(emulator, "POST", "/team-invitations/accept", {
      token: accessToken,
      headers: { "x-stack-allow-restricted-user": "true" },
      body: { code },
    });
    expect([refused.status, refused.body.code, refused.body.details]).toEqual([
      403,
      "TEAM_INVITATION_RESTRICTED_USER_NOT_ALLOWED",
      { restricted_reason: { type: "restricted_by_administrator" } },
    ]);
  });

  it("restricts users whose e-mail is unverified where the project requires verification (email_not_verified), until they verify it", async () => {
    const emulator = await emulatorOf("2.8.86");
    emulator.control.setEmailVerificationRequired(DEMO_KEYS.projectId, true);
    const signedUp = await call(emulator, "POST", "/auth/password/sign-up", {
      body: {
        email: "ada@example.com",
        password: "a long password",
        verification_callback_url: "http://localhost:3000/handler/email-verification",
      },
    });
    expect(decodeJwt(signedUp.body.access_token)).toMatchObject({
      aud: `${DEMO_KEYS.projectId}:restricted`,
      restricted_reason: { type: "email_not_verified" },
    });
    const refused = await call(emulator, "GET", "/users/me", { token: signedUp.body.access_token });
    expect([refused.status, refused.body.details]).toEqual([403, { restricted_reason: { type: "email_not_verified" } }]);
    // Left out of the user list unless asked for.
    const ids = async (query: string) =>
      ((await call(emulator, "GET", `/users${query}`, { as: "server" })).body.items as { id: string }[]).map((u) => u.id);
    expect(await ids("")).toEqual([]);
    expect(await ids("?include_restricted=true")).toEqual([signedUp.body.user_id]);

    const code = emulator.control.codes({ recipient: "ada@example.com", kind: "email_verification" }).at(-1)!.code;
    expect((await call(emulator, "POST", "/contact-channels/verify", { body: { code } })).status).toBe(200);
    const refreshed = await emulator.fetch(
      new Request(`${emulator.apiOrigin}/api/v1/auth/sessions/current/refresh`, {
        method: "POST",
        headers: {
          "x-stack-project-id": DEMO_KEYS.projectId,
          "x-stack-access-type": "client",
          "x-stack-publishable-client-key": DEMO_KEYS.publishableClientKey,
          "x-stack-refresh-token": signedUp.body.refresh_token,
        },
      }),
    );
    const { access_token } = (await refreshed.json()) as { access_token: string };
    expect(decodeJwt(access_token)).toMatchObject({ aud: DEMO_KEYS.projectId, is_restricted: false, restricted_reason: null });
    expect(await ids("")).toEqual([signedUp.body.user_id]);
  });

  it("allows anonymous sign-up on every project, the user without a display name", async () => {
    const emulator = await emulatorOf("2.8.86");
    const anonymous = await signUpAnonymously(emulator);
    const me = await call(emulator, "GET", "/users/me", { token: anonymous.access_token, headers: ALLOW_ANONYMOUS });
    expect([me.body.is_anonymous, me.body.display_name, me.body.is_restricted, me.body.restricted_reason]).toEqual([
      true,
      null,
      true,
      { type: "anonymous" },
    ]);
  });

  it("upgrades an anonymous user in place when they sign up with a password (same id)", async () => {
    const emulator = await emulatorOf("2.8.86");
    const anonymous = await signUpAnonymously(emulator);
    const signedUp = await call(emulator, "POST", "/auth/password/sign-up", {
      token: anonymous.access_token,
      headers: ALLOW_ANONYMOUS,
      body: { email: "ada@example.com", password: "a long password" },
    });
    expect([signedUp.status, signedUp.body.user_id]).toEqual([200, anonymous.user_id]);
    const me = await call(emulator, "GET", "/users/me", { token: signedUp.body.access_token });
    expect([me.status, me.body.id, me.body.is_anonymous, me.body.primary_email]).toEqual([
      200,
      anonymous.user_id,
      false,
      "ada@example.com",
    ]);
  });

  it("upgrades an anonymous user in place when they sign in with a new address's magic link", async () => {
    const emulator = await emulatorOf("2.8.86");
    const anonymous = await signUpAnonymously(emulator);
    const sent = await call(emulator, "POST", "/auth/otp/send-sign-in-code", {
      body: { email: "grace@example.com", callback_url: "http://localhost:3000/handler/magic-link-callback" },
    });
    expect(sent.status).toBe(200);
    const code = emulator.control.codes({ recipient: "grace@example.com", kind: "magic_link" }).at(-1)!.code;
    const signedIn = await call(emulator, "POST", "/auth/otp/sign-in", {
      token: anonymous.access_token,
      headers: ALLOW_ANONYMOUS,
      body: { code },
    });
    expect([signedIn.status, signedIn.body.user_id, signedIn.body.is_new_user]).toEqual([200, anonymous.user_id, true]);
    const user = emulator.engine.ctx.store.user(anonymous.user_id);
    expect(user?.is_anonymous).toBe(false);
  });
});
