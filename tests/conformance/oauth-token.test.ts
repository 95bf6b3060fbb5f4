// The OAuth token endpoint as the service answers it through its OAuth library
// (apps/backend/src/app/api/latest/auth/oauth/token/route.tsx and apps/backend/src/oauth/model.tsx at both
// revisions; @node-oauth/oauth2-server 5.1.0, the version both lock). The route's schema knows only grant_type;
// the library refuses a grant's missing or unprintable parameter with its own JSON, which the route answers as
// it is; its bearer answer says the library's default hour in expires_in. A code is spent before its
// redirect_uri is compared. 2.8.86's model always sets after_callback_redirect_url, null on a refresh.
import { describe, expect, it } from "vitest";
import { DEMO_KEYS } from "../../emulator/index.js";
import { formOf, PLAIN_VERIFIER, rawAuthorizeUrl } from "../helpers/provider-page.js";
import { APP_URL, SERVICE_VERSIONS, serviceOf, signUp, type Service } from "./harness.js";

const CLIENT = { client_id: DEMO_KEYS.projectId, client_secret: DEMO_KEYS.publishableClientKey };
const CALLBACK = `${APP_URL}/handler/oauth-callback`;

const token = (service: Service, body: Record<string, unknown>) =>
  service.call("POST", "/auth/oauth/token", { body: { ...CLIENT, ...body } });

/** An authorization code of a GitHub sign-in through the emulator's provider page (plain PKCE). */
async function authorizationCode(service: Service): Promise<string> {
  const fetch = (url: string, init: RequestInit = {}) => service.emulator.fetch(new Request(url, { redirect: "manual", ...init }));
  const started = await fetch(rawAuthorizeUrl(service.emulator.apiOrigin, { redirect_uri: CALLBACK }).toString());
  const pageUrl = started.headers.get("location")!;
  const form = formOf({ url: pageUrl, text: await (await fetch(pageUrl)).text() }, { id: "oauth-identity-form" });
  form.fields.set("email", "octo@example.com");
  const consent = await fetch(form.action, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: form.fields.toString(),
  });
  const back = await fetch(consent.headers.get("location")!);
  return new URL(back.headers.get("location")!).searchParams.get("code")!;
}

const invalidRequest = (description: string) => ({ error: "invalid_request", error_description: description });

describe.each(SERVICE_VERSIONS)("on %s", (version) => {
  it("answers a grant's missing or unprintable parameter with the OAuth library's own invalid_request, no known error", async () => {
    const service = await serviceOf(version);
    const cases: [Record<string, unknown>, string][] = [
      [{ grant_type: "refresh_token" }, "Missing parameter: `refresh_token`"],
      [{ grant_type: "refresh_token", refresh_token: "tök" }, "Invalid parameter: `refresh_token`"],
      [{ grant_type: "authorization_code", redirect_uri: CALLBACK, code_verifier: PLAIN_VERIFIER }, "Missing parameter: `code`"],
    ];
    for (const [body, description] of cases) {
      const answer = await token(service, body);
      expect([answer.status, answer.body, answer.headers.get("x-stack-known-error")]).toEqual([400, invalidRequest(description), null]);
    }
  });

  it("refuses an unknown grant_type as its schema words it", async () => {
    const service = await serviceOf(version);
    const answer = await token(service, { grant_type: "password" });
    expect(answer.body.error).toBe(
      "Request validation failed on POST /api/v1/auth/oauth/token:\n  - body.grant_type must be one of the following values: authorization_code, refresh_token",
    );
  });

  it("answers a refresh with the library's bearer fields, its hour in expires_in, and the version's extra attributes", async () => {
    const service = await serviceOf(version);
    const user = await signUp(service, "ada@example.com");
    const answer = await token(service, { grant_type: "refresh_token", refresh_token: user.refreshToken });
    expect(answer.status).toBe(200);
    const { access_token, ...rest } = answer.body as Record<string, unknown>;
    expect(access_token).toMatch(/^ey/);
    expect(rest).toEqual({
      token_type: "Bearer",
      expires_in: 3599,
      scope: "legacy",
      ...(version === "2.8.86" ? { afterCallbackRedirectUrl: null, after_callback_redirect_url: null } : {}),
    });
  });

  it("spends a code exchanged with another redirect_uri, answering the version's refusal", async () => {
    const service = await serviceOf(version);
    const code = await authorizationCode(service);
    const exchange = (redirectUri: string) =>
      token(service, { grant_type: "authorization_code", code, code_verifier: PLAIN_VERIFIER, redirect_uri: redirectUri });
    const wrong = await exchange(`${APP_URL}/elsewhere`);
    expect(wrong.status).toBe(400);
    if (version === "2.8.11") expect(wrong.body.code).toBe("REDIRECT_URL_NOT_WHITELISTED");
    else expect(wrong.body).toBe("Invalid redirect URI. Your redirect URI must be the same as the one used to get the authorization code.");
    expect((await exchange(CALLBACK)).body.code).toBe("INVALID_AUTHORIZATION_CODE");
  });

  it("takes a PKCE code exchange without client_secret where the version's key check lets it through", async () => {
    const service = await serviceOf(version);
    const code = await authorizationCode(service);
    const answer = await service.call("POST", "/auth/oauth/token", {
      body: {
        client_id: DEMO_KEYS.projectId,
        grant_type: "authorization_code",
        code,
        code_verifier: PLAIN_VERIFIER,
        redirect_uri: CALLBACK,
      },
    });
    // 2.8.86 checks the key first: the demo project requires it.
    if (version === "2.8.11") expect(answer.status).toBe(200);
    else expect([answer.status, answer.body.code]).toEqual([401, "PUBLISHABLE_CLIENT_KEY_REQUIRED_FOR_PROJECT"]);
  });

  it("answers a code with the bearer fields, the refresh token and the flow's attributes, old names beside new", async () => {
    const service = await serviceOf(version);
    const code = await authorizationCode(service);
    const answer = await token(service, { grant_type: "authorization_code", code, code_verifier: PLAIN_VERIFIER, redirect_uri: CALLBACK });
    expect(answer.status).toBe(200);
    expect(Object.keys(answer.body as object)).toEqual([
      "access_token",
      "token_type",
      "expires_in",
      "refresh_token",
      "scope",
      "newUser",
      "is_new_user",
      "afterCallbackRedirectUrl",
      "after_callback_redirect_url",
    ]);
    expect(answer.body).toMatchObject({ expires_in: 3599, newUser: true, is_new_user: true, after_callback_redirect_url: null });
  });
});

// apps/backend/src/app/api/latest/connected-accounts/[user_id]/[provider_id]/access-token/crud.tsx at both revisions:
// a provider of shared keys hands out no access token (2.8.86 unless its deployment opts in, which the hosted
// service does not), after the provider is found and before the user's accounts are read.
describe.each(SERVICE_VERSIONS)("connected accounts on %s", (version) => {
  it("hand out no access token of a provider with shared keys (OAUTH_ACCESS_TOKEN_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS)", async () => {
    const service = await serviceOf(version);
    const code = await authorizationCode(service);
    const signedIn = await token(service, {
      grant_type: "authorization_code",
      code,
      code_verifier: PLAIN_VERIFIER,
      redirect_uri: CALLBACK,
    });
    const answer = await service.call("POST", "/connected-accounts/me/github/access-token", {
      token: signedIn.body.access_token,
      body: { scope: "" },
    });
    expect([answer.status, answer.body.code]).toEqual([400, "OAUTH_ACCESS_TOKEN_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS"]);
  });
});
