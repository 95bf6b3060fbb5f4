// Passkey sign-in and registration (SPEC §4, §5; wire contract §9, §15).
import { WebAuthnError } from "@simplewebauthn/browser";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { KnownErrors } from "../../../../generated/known-errors.js";
import { registerPasskey, RP_ID_SENTINEL, signInWithPasskey, type WebAuthnCeremonies } from "../../../../runtime/app/flows/passkey.js";
import type { SignInRedirectTarget } from "../../../../runtime/app/flows/oauth.js";
import { isStackError } from "../../../../runtime/errors.js";
import { fakeBrowser, testAppContext, type TestAppOptions } from "../../../helpers/app-context.js";
import { json, knownError, useFakeClock, type Handler } from "../../../helpers/fake-service.js";
import { rejectionOf } from "../../../helpers/outcome.js";

/** An access token as the service issues them: a JWT (this one has no `exp`, so it never expires here). */
const AT_NEW = "eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ1c2VyLTEifQ.YXQtbmV3";

beforeEach(() => useFakeClock());
afterEach(() => vi.useRealTimers());

const USER_ID = Buffer.from("3241a285-8329-4d69-8f3d-316e08cf140c").toString("base64url");
const REGISTRATION_OPTIONS = {
  challenge: "Y2hhbGxlbmdl",
  rp: { name: "My App", id: RP_ID_SENTINEL },
  user: { id: USER_ID, name: "ada@example.com", displayName: "Ada" },
  pubKeyCredParams: [{ alg: -7, type: "public-key" }],
  timeout: 60000,
  authenticatorSelection: { residentKey: "required", userVerification: "preferred" },
};
const AUTHENTICATION_OPTIONS = {
  challenge: "Y2hhbGxlbmdl",
  rpId: RP_ID_SENTINEL,
  allowCredentials: [],
  userVerification: "preferred",
  timeout: 60000,
};
const CREDENTIAL = {
  id: "cred-1",
  rawId: "cred-1",
  type: "public-key",
  response: { clientDataJSON: "e30", attestationObject: "o2M" },
  clientExtensionResults: {},
};
const ASSERTION = {
  id: "cred-1",
  rawId: "cred-1",
  type: "public-key",
  response: { clientDataJSON: "e30", authenticatorData: "YQ", signature: "c2ln" },
  clientExtensionResults: {},
};

/** Ceremonies that record what they are given and answer (or fail) as told. */
function fakeWebAuthn(failure?: unknown) {
  const registrations: unknown[] = [];
  const authentications: unknown[] = [];
  const webauthn = {
    startRegistration: async (options: unknown) => {
      registrations.push(options);
      if (failure !== undefined) throw failure;
      return CREDENTIAL;
    },
    startAuthentication: async (options: unknown) => {
      authentications.push(options);
      if (failure !== undefined) throw failure;
      return ASSERTION;
    },
  } as unknown as WebAuthnCeremonies;
  return { webauthn, registrations, authentications };
}

const cancelled = () =>
  new WebAuthnError({
    message: "The operation either timed out or was not allowed.",
    code: "ERROR_PASSTHROUGH_SEE_CAUSE_PROPERTY",
    cause: Object.assign(new Error("The operation either timed out or was not allowed."), { name: "NotAllowedError" }),
  });

/** The service for both flows; `register` / `signIn` answer the final call. */
function passkeyService(answers: { register?: () => Response; signIn?: () => Response; options?: Record<string, unknown> } = {}): Handler {
  return (r) => {
    switch (r.path) {
      case "/api/v1/auth/passkey/initiate-passkey-registration":
        return json({ options_json: answers.options ?? REGISTRATION_OPTIONS, code: "reg-code" });
      case "/api/v1/auth/passkey/register":
        return answers.register?.() ?? json({ user_handle: "cred-1" });
      case "/api/v1/auth/passkey/initiate-passkey-authentication":
        return json({ options_json: answers.options ?? AUTHENTICATION_OPTIONS, code: "auth-code" });
      case "/api/v1/auth/passkey/sign-in":
        return answers.signIn?.() ?? json({ access_token: AT_NEW, refresh_token: "rt-new", user_id: "user-1", is_new_user: false });
      default:
        throw new Error(`unexpected ${r.path}`);
    }
  };
}

function setup(handler: Handler, href = "https://app.example.com/account", options: TestAppOptions = {}) {
  const fake = fakeBrowser(href);
  const app = testAppContext(handler, { browser: fake.browser, ...options });
  const targets: SignInRedirectTarget[] = [];
  const redirectAfter = async (target: SignInRedirectTarget) => void targets.push(target);
  return { ...fake, ...app, targets, redirectAfter };
}

const sent = (t: ReturnType<typeof setup>) =>
  t.service.requests.map((r) => [r.method, r.path, r.body === "" ? undefined : JSON.parse(r.body)]);

describe("signInWithPasskey", () => {
  it("initiates, runs the get ceremony with the page hostname as rpId, signs in, stores the tokens and redirects after sign-in", async () => {
    const t = setup(passkeyService(), "https://app.example.com/handler/sign-in", { tokens: { refreshToken: null, accessToken: null } });
    const f = fakeWebAuthn();
    const result = await signInWithPasskey(t.ctx, { redirectAfter: t.redirectAfter }, f.webauthn);
    expect(result).toEqual({ status: "ok", data: undefined });
    expect(sent(t)).toEqual([
      ["POST", "/api/v1/auth/passkey/initiate-passkey-authentication", {}],
      ["POST", "/api/v1/auth/passkey/sign-in", { authentication_response: ASSERTION, code: "auth-code" }],
    ]);
    expect(f.authentications).toEqual([{ optionsJSON: { ...AUTHENTICATION_OPTIONS, rpId: "app.example.com" } }]);
    expect(t.store!.get()).toEqual({ refreshToken: "rt-new", accessToken: AT_NEW });
    expect(t.targets).toEqual([{ kind: "sign-in" }]);
  });

  it("returns a PasskeyWebAuthnError result when the user cancels the ceremony, and sends nothing more", async () => {
    const t = setup(passkeyService());
    const result = await signInWithPasskey(t.ctx, { redirectAfter: t.redirectAfter }, fakeWebAuthn(cancelled()).webauthn);
    expect(result.status).toBe("error");
    const error = (result as { error: unknown }).error;
    expect(error).toBeInstanceOf(KnownErrors.PasskeyWebAuthnError);
    expect((error as InstanceType<typeof KnownErrors.PasskeyWebAuthnError>).details).toEqual({
      message: "The operation either timed out or was not allowed.",
      code: "NotAllowedError",
    });
    expect(t.service.requests.map((r) => r.path)).toEqual(["/api/v1/auth/passkey/initiate-passkey-authentication"]);
    expect(t.targets).toEqual([]);
  });

  it("returns PASSKEY_AUTHENTICATION_FAILED from the service as a result", async () => {
    const t = setup(passkeyService({ signIn: () => knownError(400, "PASSKEY_AUTHENTICATION_FAILED", "Passkey not found") }));
    const result = await signInWithPasskey(t.ctx, { redirectAfter: t.redirectAfter }, fakeWebAuthn().webauthn);
    expect(result.status).toBe("error");
    const error = (result as { error: Error }).error;
    expect(error).toBeInstanceOf(KnownErrors.PasskeyAuthenticationFailed);
    expect(error.message).toBe("Passkey not found");
    expect(t.targets).toEqual([]);
  });

  it("returns MULTI_FACTOR_AUTHENTICATION_REQUIRED as a result carrying the attempt code, with nothing stored", async () => {
    const t = setup(
      passkeyService({
        signIn: () =>
          knownError(400, "MULTI_FACTOR_AUTHENTICATION_REQUIRED", "Multi-factor authentication is required for this user.", {
            attempt_code: "att-1",
          }),
      }),
      undefined,
      { tokens: { refreshToken: null, accessToken: null } },
    );
    const result = await signInWithPasskey(t.ctx, { redirectAfter: t.redirectAfter }, fakeWebAuthn().webauthn);
    const error = (result as { error: unknown }).error;
    expect(error).toBeInstanceOf(KnownErrors.MultiFactorAuthenticationRequired);
    expect((error as InstanceType<typeof KnownErrors.MultiFactorAuthenticationRequired>).details).toEqual({ attempt_code: "att-1" });
    expect(t.store!.get()).toEqual({ refreshToken: null, accessToken: null });
  });

  it("throws a network error as a network error, not as an authentication failure", async () => {
    const t = setup((r) => {
      if (r.path.endsWith("/sign-in")) throw new TypeError("fetch failed");
      return passkeyService()(r);
    });
    const error = await rejectionOf(signInWithPasskey(t.ctx, { redirectAfter: t.redirectAfter }, fakeWebAuthn().webauthn));
    expect(isStackError(error, "NetworkError")).toBe(true);
  });

  it("throws a server error as the HTTP error it is", async () => {
    const t = setup((r) => (r.path.endsWith("/sign-in") ? new Response("boom", { status: 500 }) : passkeyService()(r)));
    const error = await rejectionOf(signInWithPasskey(t.ctx, { redirectAfter: t.redirectAfter }, fakeWebAuthn().webauthn));
    expect(isStackError(error, "HttpError")).toBe(true);
    expect((error as { status: number }).status).toBe(500);
  });

  it("throws an assertion error when the server's rpId is not the sentinel, before any ceremony", async () => {
    const t = setup(passkeyService({ options: { ...AUTHENTICATION_OPTIONS, rpId: "evil.com" } }));
    const f = fakeWebAuthn();
    const error = await rejectionOf(signInWithPasskey(t.ctx, { redirectAfter: t.redirectAfter }, f.webauthn));
    expect(isStackError(error, "StackAssertionError")).toBe(true);
    expect(f.authentications).toEqual([]);
  });

  it("refuses a page served from an IP address before sending anything", async () => {
    const t = setup(passkeyService(), "http://127.0.0.1:3000/");
    const error = await rejectionOf(signInWithPasskey(t.ctx, { redirectAfter: t.redirectAfter }, fakeWebAuthn().webauthn));
    expect(isStackError(error, "StackConfigurationError")).toBe(true);
    expect(t.service.requests).toEqual([]);
  });

  it("needs a browser", async () => {
    const { ctx } = testAppContext(passkeyService());
    const error = await rejectionOf(signInWithPasskey(ctx, { redirectAfter: async () => {} }, fakeWebAuthn().webauthn));
    expect(isStackError(error, "StackConfigurationError")).toBe(true);
  });
});

describe("registerPasskey", () => {
  it("initiates, runs the create ceremony with the page hostname as rp.id, and registers the credential", async () => {
    const t = setup(passkeyService());
    const f = fakeWebAuthn();
    expect(await registerPasskey(t.ctx, {}, f.webauthn)).toEqual({ status: "ok", data: undefined });
    expect(sent(t)).toEqual([
      ["POST", "/api/v1/auth/passkey/initiate-passkey-registration", {}],
      ["POST", "/api/v1/auth/passkey/register", { credential: CREDENTIAL, code: "reg-code" }],
    ]);
    expect(f.registrations).toEqual([{ optionsJSON: { ...REGISTRATION_OPTIONS, rp: { name: "My App", id: "app.example.com" } } }]);
    expect(t.service.requests[0]!.headers["x-stack-access-token"]).toBeDefined();
  });

  it("has the session's next use get a new access token once registered, as the official SDK does, and not after a refused credential", async () => {
    const refreshing = (answers: Parameters<typeof passkeyService>[0] = {}): Handler => {
      const passkeys = passkeyService(answers);
      return (r) => (r.path === "/api/v1/auth/oauth/token" ? json({ access_token: AT_NEW }) : passkeys(r));
    };
    const registered = setup(refreshing());
    expect((await registerPasskey(registered.ctx, {}, fakeWebAuthn().webauthn)).status).toBe("ok");
    expect((await registered.ctx.sessions().current().getTokens())?.accessToken).toBe(AT_NEW);
    expect(registered.service.requests.map((r) => r.path).at(-1)).toBe("/api/v1/auth/oauth/token");

    const refused = setup(refreshing({ register: () => knownError(400, "PASSKEY_REGISTRATION_FAILED", "Failed to verify registration") }));
    const before = refused.store!.get().accessToken;
    expect((await registerPasskey(refused.ctx, {}, fakeWebAuthn().webauthn)).status).toBe("error");
    expect((await refused.ctx.sessions().current().getTokens())?.accessToken).toBe(before);
    expect(refused.service.requests.map((r) => r.path)).not.toContain("/api/v1/auth/oauth/token");
  });

  it("honours the hostname option", async () => {
    const t = setup(passkeyService(), "https://app.example.com/account");
    const f = fakeWebAuthn();
    await registerPasskey(t.ctx, { hostname: "example.com" }, f.webauthn);
    expect((f.registrations[0] as { optionsJSON: { rp: { id: string } } }).optionsJSON.rp.id).toBe("example.com");
  });

  it.each([
    ["localhost", "http://localhost:3000/"],
    ["example.com", "https://example.com/"],
    ["sub.example.com", "https://sub.example.com/"],
    ["example.com", "https://sub.example.com/"],
    ["Example.COM", "https://example.com/"],
    ["xn--bcher-kva.example", "https://xn--bcher-kva.example/"],
  ])("accepts the hostname %s on %s", async (hostname, page) => {
    const t = setup(passkeyService(), page);
    const f = fakeWebAuthn();
    expect((await registerPasskey(t.ctx, { hostname }, f.webauthn)).status).toBe("ok");
    expect((f.registrations[0] as { optionsJSON: { rp: { id: string } } }).optionsJSON.rp.id).toBe(hostname.toLowerCase());
  });

  it.each([
    ["127.0.0.1", "http://127.0.0.1/"],
    ["[::1]", "http://[::1]/"],
    ["::1", "http://[::1]/"],
    ["0x7f.1", "https://app.example.com/"],
    ["com", "https://app.example.com/"],
    ["uk", "https://app.example.co.uk/"],
    ["co.uk", "https://app.example.co.uk/"],
    ["evil.com", "https://app.example.com/"],
    ["other.example.com", "https://app.example.com/"],
    ["ample.com", "https://app.example.com/"],
    ["app.example.com:3000", "https://app.example.com/"],
    ["https://app.example.com", "https://app.example.com/"],
    ["app.example.com.", "https://app.example.com/"],
    ["app.example.com/path", "https://app.example.com/"],
    ["-app.example.com", "https://app.example.com/"],
    ["app_1.example.com", "https://app.example.com/"],
    ["a..example.com", "https://app.example.com/"],
    [`${"a".repeat(64)}.example.com`, "https://app.example.com/"],
    [`${"a.".repeat(126)}example.com`, "https://app.example.com/"],
    ["", "https://app.example.com/"],
    [" app.example.com", "https://app.example.com/"],
    [undefined as unknown as string, "http://127.0.0.1/"],
  ])("rejects the hostname %j on %s before sending anything", async (hostname, page) => {
    const t = setup(passkeyService(), page);
    const f = fakeWebAuthn();
    const error = await rejectionOf(registerPasskey(t.ctx, { hostname }, f.webauthn));
    expect(isStackError(error, "StackConfigurationError")).toBe(true);
    expect((error as Error).message).toMatch(/cannot be a passkey hostname/);
    expect(t.service.requests).toEqual([]);
    expect(f.registrations).toEqual([]);
  });

  it.each([
    ["1 byte", Buffer.alloc(1, 7).toString("base64url")],
    ["64 bytes", Buffer.alloc(64, 7).toString("base64url")],
  ])("accepts a user id of %s", async (_, id) => {
    const t = setup(passkeyService({ options: { ...REGISTRATION_OPTIONS, user: { ...REGISTRATION_OPTIONS.user, id } } }));
    expect((await registerPasskey(t.ctx, {}, fakeWebAuthn().webauthn)).status).toBe("ok");
  });

  it.each([
    ["0 bytes", ""],
    ["65 bytes", Buffer.alloc(65, 7).toString("base64url")],
    ["a value that is not base64url", "not base64!"],
    ["no value", undefined],
  ])("throws an assertion error for a user id of %s, before any ceremony", async (_, id) => {
    const t = setup(passkeyService({ options: { ...REGISTRATION_OPTIONS, user: { ...REGISTRATION_OPTIONS.user, id } } }));
    const f = fakeWebAuthn();
    const error = await rejectionOf(registerPasskey(t.ctx, {}, f.webauthn));
    expect(isStackError(error, "StackAssertionError")).toBe(true);
    expect(f.registrations).toEqual([]);
  });

  it("throws an assertion error when the server's rp.id is not the sentinel", async () => {
    const t = setup(passkeyService({ options: { ...REGISTRATION_OPTIONS, rp: { name: "My App", id: "app.example.com" } } }));
    const f = fakeWebAuthn();
    const error = await rejectionOf(registerPasskey(t.ctx, {}, f.webauthn));
    expect(isStackError(error, "StackAssertionError")).toBe(true);
    expect((error as Error).message).toMatch(/Expected returned RP ID from server to equal sentinel, but found app.example.com/);
    expect(f.registrations).toEqual([]);
  });

  it("returns a PasskeyWebAuthnError result when the ceremony fails, and does not register", async () => {
    const t = setup(passkeyService());
    const result = await registerPasskey(t.ctx, {}, fakeWebAuthn(cancelled()).webauthn);
    const error = (result as { error: unknown }).error;
    expect(error).toBeInstanceOf(KnownErrors.PasskeyWebAuthnError);
    expect((error as { details: unknown }).details).toEqual({
      message: "The operation either timed out or was not allowed.",
      code: "NotAllowedError",
    });
    expect(t.service.requests.map((r) => r.path)).toEqual(["/api/v1/auth/passkey/initiate-passkey-registration"]);
  });

  it("returns a PasskeyWebAuthnError result for a browser without WebAuthn", async () => {
    const t = setup(passkeyService());
    const result = await registerPasskey(t.ctx, {}, fakeWebAuthn(new Error("WebAuthn is not supported in this browser")).webauthn);
    expect((result as { error: { details: unknown } }).error.details).toEqual({
      message: "WebAuthn is not supported in this browser",
      code: "Error",
    });
  });

  it("returns PASSKEY_REGISTRATION_FAILED from the service as a result", async () => {
    const t = setup(passkeyService({ register: () => knownError(400, "PASSKEY_REGISTRATION_FAILED", "Failed to verify registration") }));
    const result = await registerPasskey(t.ctx, {}, fakeWebAuthn().webauthn);
    const error = (result as { error: Error }).error;
    expect(error).toBeInstanceOf(KnownErrors.PasskeyRegistrationFailed);
    expect(error.message).toBe("Failed to verify registration");
  });

  it("throws a network error during registration as a network error", async () => {
    const t = setup((r) => {
      if (r.path.endsWith("/register")) throw new TypeError("fetch failed");
      return passkeyService()(r);
    });
    const error = await rejectionOf(registerPasskey(t.ctx, {}, fakeWebAuthn().webauthn));
    expect(isStackError(error, "NetworkError")).toBe(true);
  });

  it("needs a browser", async () => {
    const { ctx } = testAppContext(passkeyService());
    const error = await rejectionOf(registerPasskey(ctx, { hostname: "example.com" }, fakeWebAuthn().webauthn));
    expect(isStackError(error, "StackConfigurationError")).toBe(true);
  });
});
