// Sign-up rules as 2.8.86 applies them (apps/backend/src/lib/sign-up-rules.ts and
// lib/users.tsx of the service): on password sign-up, a new user's magic link and
// OAuth account, and an anonymous user's upgrade, never on anonymous sign-up;
// priority highest first, then id; `reject` is 403 SIGN_UP_REJECTED with nothing
// made, `restrict` makes the user restricted by an administrator. 2.8.11 has no
// such rules. Also what a project made by POST /internal/projects requires of
// client requests on 2.8.86. Every exchange is checked against the document.
import { describe, expect, it } from "vitest";
import { DEMO_KEYS, INTERNAL_KEYS, type ServiceVersion, type SignUpRulesConfig } from "../../emulator/index.js";
import { evaluateSignUpRules } from "../../emulator/engine/sign-up-rules.js";
import { checkedEmulatorPerTest, type CheckedEmulator } from "../helpers/emulator.js";
import { rawCall as call } from "../helpers/raw-call.js";
import { browseEmulator, formOf, rawAuthorizeUrl } from "../helpers/provider-page.js";

const APP = "http://localhost:3000";
const PASSWORD = "correct horse battery";
const REJECTED = {
  code: "SIGN_UP_REJECTED",
  details: { message: "Your sign up was rejected by an administrator's sign-up rule." },
  error: "Your sign up was rejected by an administrator's sign-up rule.",
};

const checked = checkedEmulatorPerTest();

async function emulatorOf(serviceVersion: ServiceVersion, rules?: SignUpRulesConfig): Promise<CheckedEmulator> {
  const emulator = await checked(serviceVersion);
  if (rules) emulator.control.setSignUpRules(DEMO_KEYS.projectId, rules);
  return emulator;
}

const users = (emulator: CheckedEmulator) => emulator.engine.ctx.store.users();

/** An anonymous user's token, with the header that lets it through on 2.8.86. */
const asAnonymous = (token?: string) => (token ? { token, headers: { "x-stack-allow-anonymous-user": "true" } } : {});

const signUp = (emulator: CheckedEmulator, email: string, token?: string) =>
  call(emulator, "POST", "/auth/password/sign-up", { body: { email, password: PASSWORD }, ...asAnonymous(token) });

/** Sends a magic link to `email` and redeems its code (carrying `token`, if any). */
async function magicLink(emulator: CheckedEmulator, email: string, token?: string) {
  const sent = await call(emulator, "POST", "/auth/otp/send-sign-in-code", {
    body: { email, callback_url: `${APP}/handler/magic-link-callback` },
  });
  expect(sent.status).toBe(200);
  const code = emulator.control.codes({ recipient: email, kind: "magic_link" }).at(-1)!.code;
  const signIn = () => call(emulator, "POST", "/auth/otp/sign-in", { body: { code }, ...asAnonymous(token) });
  return { answer: await signIn(), again: signIn };
}

/** A restricted user's own view (the header lets a restricted user's token through) and the server's. */
async function viewsOf(emulator: CheckedEmulator, tokens: { access_token: string; user_id: string }) {
  const me = await call(emulator, "GET", "/users/me", {
    token: tokens.access_token,
    headers: { "x-stack-allow-restricted-user": "true" },
  });
  const server = await call(emulator, "GET", `/users/${tokens.user_id}`, { as: "server" });
  return { me: me.body, server: server.body };
}

/** A GitHub sign-in through the emulator's provider page, as a browser makes it: where the browser lands on the app. */
async function githubSignIn(emulator: CheckedEmulator, identity: { email: string; accountId: string }, token?: string) {
  const authorize = rawAuthorizeUrl(emulator.apiOrigin, {
    redirect_uri: `${APP}/handler/oauth-callback`,
    type: "authenticate",
    error_redirect_url: `${APP}/handler/error`,
    ...(token ? { token } : {}),
  });
  const browse = (url: string, init?: RequestInit) => browseEmulator(emulator, url, init);
  const form = formOf(await browse(authorize.toString()), { id: "oauth-identity-form" });
  form.fields.set("email", identity.email);
  form.fields.set("name", "Grace");
  form.fields.set("account_id", identity.accountId);
  const back = await browse(form.action, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: form.fields.toString(),
  });
  return back.landed!;
}

const rule = (action: "allow" | "reject" | "restrict" | "log", condition: object, extra: object = {}) => ({
  enabled: true,
  condition,
  action: { type: action },
  ...extra,
});

describe("the order of sign-up rules (as the service evaluates them)", () => {
  const password = { email: "ada@example.com", authMethod: "password", oauthProvider: null } as const;

  it("goes by priority, highest first, then by id; the first allow or reject decides", () => {
    const rules = { b: rule("reject", {}), a: rule("allow", {}), low: rule("reject", {}, { priority: 0 }) };
    expect(evaluateSignUpRules({ rules }, password)).toEqual({ allowed: true, restrictedBy: null });
    expect(evaluateSignUpRules({ rules: { ...rules, z: rule("reject", {}, { priority: 5 }) } }, password)).toEqual({
      allowed: false,
      restrictedBy: null,
    });
  });

  it("skips disabled rules, goes on after restrict (the first one counts) and log, and falls back to the default action", () => {
    const rules = {
      off: { ...rule("allow", {}), enabled: false },
      r2: rule("restrict", { authMethods: ["password"] }),
      r1: rule("restrict", { emailDomains: ["EXAMPLE.com"] }),
      seen: rule("log", {}),
    };
    expect(evaluateSignUpRules({ rules, defaultAction: "reject" }, password)).toEqual({ allowed: false, restrictedBy: "r1" });
    expect(evaluateSignUpRules({ rules }, { ...password, email: " Ada@Other.org " })).toEqual({ allowed: true, restrictedBy: "r2" });
    expect(evaluateSignUpRules(undefined, password)).toEqual({ allowed: true, restrictedBy: null });
  });

  it("matches every field given: e-mails and domains lower-cased, the auth method, the OAuth provider", () => {
    const condition = { emails: ["Grace@Example.com"], authMethods: ["oauth"], oauthProviders: ["github"] };
    const config = { rules: { only: rule("reject", condition) } };
    const oauth = { email: "grace@example.com", authMethod: "oauth", oauthProvider: "github" } as const;
    expect(evaluateSignUpRules(config, oauth).allowed).toBe(false);
    expect(evaluateSignUpRules(config, { ...oauth, oauthProvider: "google" }).allowed).toBe(true);
    expect(evaluateSignUpRules(config, { ...oauth, email: null }).allowed).toBe(true);
    expect(evaluateSignUpRules({ rules: { d: rule("reject", { emailDomains: [""] }) } }, { ...oauth, email: null }).allowed).toBe(true);
  });
});

describe("sign-up rules on 2.8.86", () => {
  it("rejects a password sign-up with 403 SIGN_UP_REJECTED and makes no user", async () => {
    const emulator = await emulatorOf("2.8.86", { rules: { "no-gmail": rule("reject", { emailDomains: ["gmail.com"] }) } });
    const refused = await signUp(emulator, "ada@gmail.com");
    expect([refused.status, refused.headers.get("x-stack-known-error"), refused.body]).toEqual([403, "SIGN_UP_REJECTED", REJECTED]);
    expect(users(emulator)).toEqual([]);
    expect((await signUp(emulator, "ada@example.com")).status).toBe(200);
  });

  it("decides before the e-mail is checked: a rejected address another user has is SIGN_UP_REJECTED", async () => {
    const emulator = await emulatorOf("2.8.86");
    await emulator.control.createUser({ projectId: DEMO_KEYS.projectId, email: "ada@example.com" });
    emulator.control.setSignUpRules(DEMO_KEYS.projectId, { rules: {}, defaultAction: "reject" });
    expect((await signUp(emulator, "ada@example.com")).body.code).toBe("SIGN_UP_REJECTED");
  });

  it("restricts a user a restrict rule matched: restricted_by_administrator, the rule in the private details", async () => {
    const emulator = await emulatorOf("2.8.86", {
      rules: { review: rule("restrict", { authMethods: ["password"] }, { displayName: "Review new sign-ups" }) },
    });
    const tokens = (await signUp(emulator, "ada@example.com")).body;
    const { me, server } = await viewsOf(emulator, tokens);
    expect([me.is_restricted, me.restricted_reason, me.restricted_by_admin]).toEqual([true, { type: "restricted_by_administrator" }, true]);
    expect(server.restricted_by_admin_private_details).toBe("Restricted by sign-up rule: review (Review new sign-ups)");
    const gated = await call(emulator, "GET", "/users/me", { token: tokens.access_token });
    expect([gated.status, gated.body.code, gated.body.details]).toEqual([
      403,
      "RESTRICTED_USER_NOT_ALLOWED",
      { restricted_reason: { type: "restricted_by_administrator" } },
    ]);
  });

  it("lets only what an allow rule matches through when the default action is reject", async () => {
    const emulator = await emulatorOf("2.8.86", {
      rules: { staff: rule("allow", { emailDomains: ["acme.example"] }) },
      defaultAction: "reject",
    });
    expect((await signUp(emulator, "ada@acme.example")).status).toBe(200);
    expect((await signUp(emulator, "eve@elsewhere.example")).body).toEqual(REJECTED);
  });

  it("judges a new user's magic link (otp), spending the code; a user who exists signs in whatever the rules say", async () => {
    const emulator = await emulatorOf("2.8.86");
    await emulator.control.createUser({ projectId: DEMO_KEYS.projectId, email: "known@example.com" });
    emulator.control.setSignUpRules(DEMO_KEYS.projectId, { rules: { "no-otp": rule("reject", { authMethods: ["otp"] }) } });
    const fresh = await magicLink(emulator, "new@example.com");
    expect([fresh.answer.status, fresh.answer.body]).toEqual([403, REJECTED]);
    expect((await fresh.again()).body.code).toBe("VERIFICATION_CODE_ALREADY_USED");
    expect(users(emulator)).toHaveLength(1);
    const known = await magicLink(emulator, "known@example.com");
    expect([known.answer.status, known.answer.body.is_new_user]).toEqual([200, false]);
  });

  it("judges a new OAuth account by its provider: a rejection goes back to the app's callback page as 2.8.86 sends errors, a restriction marks the user", async () => {
    const emulator = await emulatorOf("2.8.86", {
      rules: {
        "no-github": rule("reject", { oauthProviders: ["github"], emailDomains: ["spam.example"] }),
        "review-oauth": rule("restrict", { authMethods: ["oauth"] }),
      },
    });
    const refused = await githubSignIn(emulator, { email: "bot@spam.example", accountId: "bot-gh" });
    expect(refused.origin + refused.pathname).toBe(`${APP}/handler/oauth-callback`);
    expect(Object.fromEntries(refused.searchParams)).toEqual({
      error: "server_error",
      error_description: REJECTED.error,
      errorCode: "SIGN_UP_REJECTED",
      message: REJECTED.error,
      details: JSON.stringify(REJECTED.details),
    });
    expect(users(emulator)).toEqual([]);
    const admitted = await githubSignIn(emulator, { email: "grace@example.com", accountId: "grace-gh" });
    expect(admitted.pathname).toBe("/handler/oauth-callback");
    expect(users(emulator).map((u) => [u.restricted_by_admin, u.restricted_by_admin_private_details])).toEqual([
      [true, "Restricted by sign-up rule: review-oauth"],
    ]);
  });

  it("leaves anonymous sign-up alone, and judges the anonymous user's upgrade: a rejected one stays anonymous", async () => {
    const emulator = await emulatorOf("2.8.86", {
      rules: { r: rule("restrict", { emails: ["ada@example.com"] }) },
      defaultAction: "reject",
    });
    const anonymous = await call(emulator, "POST", "/auth/anonymous/sign-up");
    expect(anonymous.status).toBe(200);
    const token = anonymous.body.access_token as string;
    const refused = await signUp(emulator, "eve@example.com", token);
    expect([refused.status, refused.body]).toEqual([403, REJECTED]);
    expect(users(emulator).map((u) => u.is_anonymous)).toEqual([true]);
    const viaLink = await magicLink(emulator, "eve@example.com", token);
    expect(viaLink.answer.body).toEqual(REJECTED);
    emulator.control.setSignUpRules(DEMO_KEYS.projectId, { rules: { r: rule("restrict", { emails: ["ada@example.com"] }) } });
    const upgraded = await signUp(emulator, "ada@example.com", token);
    expect([upgraded.status, upgraded.body.user_id]).toEqual([200, anonymous.body.user_id]);
    const { me } = await viewsOf(emulator, upgraded.body);
    expect([me.is_anonymous, me.restricted_reason]).toEqual([false, { type: "restricted_by_administrator" }]);
  });

  it("judges an anonymous user's OAuth upgrade: a rejected one stays anonymous, without the account", async () => {
    const emulator = await emulatorOf("2.8.86", { rules: { gh: rule("reject", { oauthProviders: ["github"] }) } });
    const anonymous = await call(emulator, "POST", "/auth/anonymous/sign-up");
    const landed = await githubSignIn(emulator, { email: "hedy@example.com", accountId: "hedy-gh" }, anonymous.body.access_token);
    expect(landed.searchParams.get("errorCode")).toBe("SIGN_UP_REJECTED");
    expect(users(emulator).map((u) => [u.id, u.is_anonymous, u.oauth_providers])).toEqual([[anonymous.body.user_id, true, []]]);
  });
});

describe("sign-up rules on 2.8.11", () => {
  it("has none: what the control API sets is ignored on every sign-up path", async () => {
    const emulator = await emulatorOf("2.8.11", { rules: { all: rule("reject", {}) }, defaultAction: "reject" });
    const signedUp = await call(emulator, "POST", "/auth/password/sign-up", {
      body: { email: "ada@example.com", password: PASSWORD, verification_callback_url: `${APP}/handler/email-verification` },
    });
    expect(signedUp.status).toBe(200);
    expect((await magicLink(emulator, "grace@example.com")).answer.status).toBe(200);
    const landed = await githubSignIn(emulator, { email: "hedy@example.com", accountId: "hedy-gh" });
    expect(landed.pathname).toBe("/handler/oauth-callback");
    expect(users(emulator).map((u) => u.restricted_by_admin ?? false)).toEqual([false, false, false]);
  });
});

describe("a project made by POST /internal/projects", () => {
  async function newProject(serviceVersion: ServiceVersion) {
    const emulator = await emulatorOf(serviceVersion);
    const founder = await emulator.control.createUser({ projectId: INTERNAL_KEYS.projectId, email: "founder@example.com" });
    const { accessToken } = await emulator.control.createSession(founder.id);
    // 2.8.86 wants a team of the founder's to own the project; 2.8.11 makes one itself (and its internal project
    // does not let clients create teams).
    const team =
      serviceVersion === "2.8.86"
        ? await call(emulator, "POST", "/teams", {
            keys: INTERNAL_KEYS,
            token: accessToken,
            body: { display_name: "Founders", creator_user_id: "me" },
          })
        : undefined;
    const body = { display_name: "Acme", ...(team ? { owner_team_id: team.body.id } : {}) };
    const created = await call(emulator, "POST", "/internal/projects", { keys: INTERNAL_KEYS, token: accessToken, body });
    expect(created.status).toBe(201);
    return { emulator, projectId: created.body.id as string };
  }

  it("on 2.8.86 serves client requests without a publishable client key (the config's default); the demo project requires it", async () => {
    const { emulator, projectId } = await newProject("2.8.86");
    const keyless = await call(emulator, "POST", "/auth/password/sign-up", {
      keys: { projectId },
      body: { email: "ada@example.com", password: PASSWORD },
    });
    expect(keyless.status).toBe(200);
    const demo = await call(emulator, "POST", "/auth/password/sign-up", {
      keys: { projectId: DEMO_KEYS.projectId },
      body: { email: "ada@example.com", password: PASSWORD },
    });
    expect([demo.status, demo.body.code]).toEqual([401, "PUBLISHABLE_CLIENT_KEY_REQUIRED_FOR_PROJECT"]);
  });

  it("on 2.8.11 still needs the key (every project does)", async () => {
    const { emulator, projectId } = await newProject("2.8.11");
    const keyless = await call(emulator, "GET", "/users/me", { keys: { projectId } });
    expect([keyless.status, keyless.body.code]).toEqual([401, "CLIENT_AUTHENTICATION_REQUIRED"]);
  });
});
