// The OAuth callback's errors, as each version sends them
// (apps/backend/src/app/api/latest/auth/oauth/authorize/[provider_id]/route.tsx and
// callback/[provider_id]/route.tsx at both revisions, apps/backend/src/oauth/model.tsx).
// Neither version checks redirect_uri at the authorize call; the OAuth library checks
// it at the callback (model.validateRedirectUri), before the account is resolved, as
// REDIRECT_URL_NOT_WHITELISTED. The flow's error URL is `error_redirect_uri`, else the
// deprecated `error_redirect_url`. A known error of the callback is a 307: on 2.8.11 to
// the error URL when it is trusted, with errorCode, message and details; on 2.8.86 to
// the redirect_uri when it is trusted, else the error URL, adding error=server_error
// and error_description. When neither may be used, the error is answered as it is.
import { describe, expect, it } from "vitest";
import { APP_URL, serviceOf, SERVICE_VERSIONS, signUp, type Service, type ServiceVersion } from "./harness.js";
import { DEMO_KEYS } from "../../emulator/index.js";
import { formOf, rawAuthorizeUrl } from "../helpers/provider-page.js";

const CALLBACK = `${APP_URL}/handler/oauth-callback`;
const ERROR_PAGE = `${APP_URL}/handler/error`;
const UNTRUSTED = "https://evil.example.net/handler/oauth-callback";
const DENIED = "The OAuth provider denied access to the user.";
const NOT_WHITELISTED =
  "Redirect URL not whitelisted. Did you forget to add this domain to the trusted domains list on the Stack Auth dashboard?";

/** GitHub with the project's own keys; the rest of the config as given. */
async function configured(version: ServiceVersion, config: Record<string, unknown> = {}): Promise<Service> {
  const service = await serviceOf(version);
  const oauth_providers = [{ id: "github", type: "standard", client_id: "gh-client", client_secret: "gh-secret" }];
  const patched = await service.call("PATCH", "/internal/projects/current", {
    as: "admin",
    body: { config: { oauth_providers, ...config } },
  });
  expect(patched.status, JSON.stringify(patched.body)).toBe(200);
  return service;
}

/** The authorize call with the demo project's keys, `redirect_uri` as given, and `extra` query fields. */
async function authorize(service: Service, redirectUri: string, extra: Record<string, string> = {}) {
  const url = rawAuthorizeUrl(service.emulator.apiOrigin, { redirect_uri: redirectUri, state: "outer-state", ...extra });
  return service.emulator.fetch(new Request(url, { redirect: "manual" }));
}

/** Authorize, the provider's page, `choice` on it, and the service's callback: its status, Location and body. */
async function roundTrip(service: Service, redirectUri: string, extra: Record<string, string>, choice: "deny" | { email: string }) {
  const started = await authorize(service, redirectUri, extra);
  expect(started.status, await started.clone().text()).toBe(307);
  const pageUrl = started.headers.get("location")!;
  const page = { url: pageUrl, text: await (await service.emulator.fetch(new Request(pageUrl))).text() };
  const form = formOf(page, { id: choice === "deny" ? "oauth-deny-form" : "oauth-identity-form" });
  if (choice !== "deny") form.fields.set("email", choice.email);
  const consent = await service.emulator.fetch(
    new Request(form.action, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: form.fields.toString(),
      redirect: "manual",
    }),
  );
  expect(consent.status).toBe(303);
  const callback = await service.emulator.fetch(new Request(consent.headers.get("location")!, { redirect: "manual" }));
  const text = await callback.text();
  const location = callback.headers.get("location");
  return {
    status: callback.status,
    knownError: callback.headers.get("x-stack-known-error"),
    code: text === "" ? undefined : (JSON.parse(text) as { code?: string }).code,
    target: location === null ? null : new URL(location).origin + new URL(location).pathname,
    query: location === null ? null : [...new URL(location).searchParams],
  };
}

const errorQuery = (version: ServiceVersion, code: string, message: string, details = "{}") =>
  version === "2.8.11"
    ? [
        ["errorCode", code],
        ["message", message],
        ["details", details],
      ]
    : [
        ["error", "server_error"],
        ["error_description", message],
        ["errorCode", code],
        ["message", message],
        ["details", details],
      ];

describe.each(SERVICE_VERSIONS)("the OAuth callback's errors on %s", (version) => {
  it("the authorize call takes a redirect_uri off the trusted domains (the callback checks it)", async () => {
    const service = await configured(version);
    const started = await authorize(service, UNTRUSTED);
    expect([started.status, new URL(started.headers.get("location")!).pathname]).toEqual([307, "/emulator/oauth/github/authorize"]);
  });

  it("the callback refuses that redirect_uri as REDIRECT_URL_NOT_WHITELISTED, answered as it is without an error URL, and makes no account", async () => {
    const service = await configured(version);
    const answer = await roundTrip(service, UNTRUSTED, {}, { email: "eve@example.com" });
    expect(answer).toMatchObject({
      status: 400,
      knownError: "REDIRECT_URL_NOT_WHITELISTED",
      code: "REDIRECT_URL_NOT_WHITELISTED",
      target: null,
    });
    const users = await service.call("GET", "/users", { as: "server", keys: DEMO_KEYS });
    expect(users.body.items.map((u: { primary_email: string | null }) => u.primary_email)).not.toContain("eve@example.com");
  });

  it("sends REDIRECT_URL_NOT_WHITELISTED to a trusted error_redirect_url with a 307", async () => {
    const service = await configured(version);
    const answer = await roundTrip(service, UNTRUSTED, { error_redirect_url: ERROR_PAGE }, { email: "eve@example.com" });
    expect([answer.status, answer.target, answer.query]).toEqual([
      307,
      ERROR_PAGE,
      errorQuery(version, "REDIRECT_URL_NOT_WHITELISTED", NOT_WHITELISTED),
    ]);
  });

  it(
    version === "2.8.11"
      ? "sends a denial to the trusted error_redirect_url, not to the trusted redirect_uri"
      : "sends a denial to the trusted redirect_uri before the trusted error_redirect_url",
    async () => {
      const service = await configured(version);
      const answer = await roundTrip(service, CALLBACK, { error_redirect_url: ERROR_PAGE }, "deny");
      expect([answer.status, answer.target, answer.query]).toEqual([
        307,
        version === "2.8.11" ? ERROR_PAGE : CALLBACK,
        errorQuery(version, "OAUTH_PROVIDER_ACCESS_DENIED", DENIED),
      ]);
    },
  );

  it(
    version === "2.8.11"
      ? "answers a denial as it is (400) without an error URL, whatever the redirect_uri"
      : "sends a denial to the trusted redirect_uri without an error URL",
    async () => {
      const service = await configured(version);
      const answer = await roundTrip(service, CALLBACK, {}, "deny");
      if (version === "2.8.11") {
        expect(answer).toMatchObject({ status: 400, knownError: "OAUTH_PROVIDER_ACCESS_DENIED", target: null });
      } else {
        expect([answer.status, answer.target, answer.query]).toEqual([
          307,
          CALLBACK,
          errorQuery(version, "OAUTH_PROVIDER_ACCESS_DENIED", DENIED),
        ]);
      }
    },
  );

  it("answers a denial as it is when neither the redirect_uri nor the error URL is trusted", async () => {
    const service = await configured(version);
    const answer = await roundTrip(service, UNTRUSTED, { error_redirect_url: "https://evil.example.net/handler/error" }, "deny");
    expect(answer).toMatchObject({ status: 400, knownError: "OAUTH_PROVIDER_ACCESS_DENIED", target: null });
  });

  it("takes error_redirect_uri as the error URL, before error_redirect_url", async () => {
    const service = await configured(version);
    const answer = await roundTrip(
      service,
      UNTRUSTED,
      { error_redirect_uri: `${APP_URL}/handler/error-uri`, error_redirect_url: ERROR_PAGE },
      "deny",
    );
    // The document the emulator is checked against lists the deprecated name only.
    service.expectViolations(/query\/error_redirect_uri .* not documented/);
    expect([answer.status, answer.target, answer.query]).toEqual([
      307,
      `${APP_URL}/handler/error-uri`,
      errorQuery(version, "OAUTH_PROVIDER_ACCESS_DENIED", DENIED),
    ]);
  });

  it("refuses an error_redirect_uri that is no URL (SCHEMA_ERROR)", async () => {
    const service = await configured(version);
    const answer = await authorize(service, CALLBACK, { error_redirect_uri: "/handler/error" });
    const body = (await answer.json()) as { code: string; error: string };
    expect([answer.status, body.code, body.error]).toEqual([
      400,
      "SCHEMA_ERROR",
      "Request validation failed on GET /api/v1/auth/oauth/authorize/github:\n  - query.error_redirect_uri is not a valid URL",
    ]);
  });

  it("sends an account error with its details (raise_error: CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE)", async () => {
    const service = await configured(version, { oauth_account_merge_strategy: "raise_error" });
    await signUp(service, "ada@example.com");
    const answer = await roundTrip(service, CALLBACK, { error_redirect_url: ERROR_PAGE }, { email: "ada@example.com" });
    expect([answer.status, answer.target, answer.query]).toEqual([
      307,
      version === "2.8.11" ? ERROR_PAGE : CALLBACK,
      // 2.8.86 words it anew and says whether verifying the address would have let the account link (not here).
      version === "2.8.11"
        ? errorQuery(
            version,
            "CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE",
            "The email (ada@example.com) is already used for authentication by another account.",
            JSON.stringify({ type: "email", contact_channel_value: "ada@example.com" }),
          )
        : errorQuery(
            version,
            "CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE",
            'This email "(ada@example.com)" is already used for authentication by another account.',
            JSON.stringify({ type: "email", contact_channel_value: "ada@example.com", would_work_if_email_was_verified: false }),
          ),
    ]);
  });
});
