// The OAuth authorize call's own checks, before any flow starts
// (apps/backend/src/app/api/latest/auth/oauth/authorize/[provider_id]/route.tsx at both revisions; the query's
// URL fields are packages/stack-shared/src/schema-fields.ts urlSchema; the client id is read by
// apps/backend/src/oauth/index.tsx getProjectBranchFromClientId; the key check is
// apps/backend/src/lib/internal-api-keys.tsx). The client id names a project and, after `#`, a branch; an unknown
// one is INVALID_OAUTH_CLIENT_ID_OR_SECRET naming it as given; then the client secret must be a live publishable
// key of that project (401 INVALID_PUBLISHABLE_CLIENT_KEY), 2.8.86 also taking its sentinel where the project does
// not require keys. The demo project's GitHub uses shared keys.
import { describe, expect, it } from "vitest";
import { DEMO_KEYS } from "../../emulator/index.js";
import { rawAuthorizeUrl } from "../helpers/provider-page.js";
import { SERVICE_VERSIONS, serviceOf, signUp, type Service } from "./harness.js";

const SENTINEL = "__stack_public_client__";

async function authorize(service: Service, extra: Record<string, string>) {
  const response = await service.emulator.fetch(new Request(rawAuthorizeUrl(service.emulator.apiOrigin, extra), { redirect: "manual" }));
  const text = await response.text();
  return {
    status: response.status,
    body: text === "" ? undefined : (JSON.parse(text) as { code?: string; details?: unknown; error?: string }),
  };
}

describe.each(SERVICE_VERSIONS)("on %s", (version) => {
  it("answers an unknown client id, or a branch the project does not have, INVALID_OAUTH_CLIENT_ID_OR_SECRET naming it as given", async () => {
    const service = await serviceOf(version);
    for (const clientId of ["no-such-project", `${DEMO_KEYS.projectId}#does-not-exist`]) {
      const answer = await authorize(service, { client_id: clientId, client_secret: "some-invalid-client-secret" });
      expect([answer.status, answer.body?.code, answer.body?.details]).toEqual([
        400,
        "INVALID_OAUTH_CLIENT_ID_OR_SECRET",
        { client_id: clientId },
      ]);
    }
    expect((await authorize(service, { client_id: `${DEMO_KEYS.projectId}#main` })).status).toBe(307);
  });

  it("answers a wrong client secret of a known client 401 INVALID_PUBLISHABLE_CLIENT_KEY", async () => {
    const service = await serviceOf(version);
    const answer = await authorize(service, { client_secret: "some-invalid-client-secret" });
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual({
      code: "INVALID_PUBLISHABLE_CLIENT_KEY",
      details: { project_id: DEMO_KEYS.projectId },
      error: `The publishable key is not valid for the project "${DEMO_KEYS.projectId}". Does the project and/or the key exist?`,
    });
  });

  it("lists every problem of the query in the schema's order, a URL with a space twice", async () => {
    const service = await serviceOf(version);
    const answer = await authorize(service, { redirect_uri: "this is an invalid URL string", error_redirect_uri: "nope" });
    expect(answer.status).toBe(400);
    expect(answer.body?.error).toBe(
      [
        "Request validation failed on GET /api/v1/auth/oauth/authorize/github:",
        "  - query.error_redirect_uri is not a valid URL",
        "  - query.redirect_uri contains spaces",
        "  - query.redirect_uri is not a valid URL",
      ].join("\n"),
    );
  });
});

describe("the publishable key's sentinel", () => {
  it("is refused on 2.8.86 where the project requires the key, and passes where it does not", async () => {
    const service = await serviceOf("2.8.86");
    const refused = await authorize(service, { client_secret: SENTINEL });
    expect([refused.status, refused.body?.code]).toEqual([401, "PUBLISHABLE_CLIENT_KEY_REQUIRED_FOR_PROJECT"]);
    service.emulator.control.setPublishableClientKeyRequired(DEMO_KEYS.projectId, false);
    expect((await authorize(service, { client_secret: SENTINEL })).status).toBe(307);
  });

  it("is a wrong key like any other on 2.8.11", async () => {
    const service = await serviceOf("2.8.11");
    const answer = await authorize(service, { client_secret: SENTINEL });
    expect([answer.status, answer.body?.code]).toEqual([401, "INVALID_PUBLISHABLE_CLIENT_KEY"]);
  });
});

describe("extra scopes with shared keys", () => {
  it("are refused on 2.8.86 on a sign-in too, before any token is read", async () => {
    const service = await serviceOf("2.8.86");
    const answer = await authorize(service, { provider_scope: "repo", token: "not-a-token" });
    expect([answer.status, answer.body?.code]).toEqual([400, "OAUTH_EXTRA_SCOPE_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS"]);
  });

  it("are asked of the provider on a 2.8.11 sign-in (only a link refuses them)", async () => {
    const service = await serviceOf("2.8.11");
    expect((await authorize(service, { provider_scope: "repo" })).status).toBe(307);
  });
});

describe("a token on a sign-in", () => {
  it("is read on 2.8.86: an expired one is ACCESS_TOKEN_EXPIRED, a forged one UNPARSABLE_ACCESS_TOKEN", async () => {
    const service = await serviceOf("2.8.86", { accessTokenLifetimeMs: 60_000 });
    const user = await signUp(service, "ada@example.com");
    const [header, payload] = user.accessToken.split(".");
    const forged = await authorize(service, { token: `${header}.${payload}.AAAA` });
    expect([forged.status, forged.body?.code]).toEqual([401, "UNPARSABLE_ACCESS_TOKEN"]);
    service.emulator.control.advanceClock(61_000);
    const expired = await authorize(service, { token: user.accessToken });
    expect([expired.status, expired.body?.code]).toEqual([401, "ACCESS_TOKEN_EXPIRED"]);
  });

  it("is not read on 2.8.11, which reads it on a link only", async () => {
    const service = await serviceOf("2.8.11");
    expect((await authorize(service, { token: "not-a-token" })).status).toBe(307);
  });
});

describe("a link without a token", () => {
  const linkless = async (version: (typeof SERVICE_VERSIONS)[number]) => {
    const service = await serviceOf(version);
    const response = await service.emulator.fetch(
      new Request(rawAuthorizeUrl(service.emulator.apiOrigin, { type: "link" }), { redirect: "manual" }),
    );
    return [response.status, response.headers.get("x-stack-known-error"), await response.text()];
  };

  it("is 2.8.86's plain-text 400, which asks for the token", async () => {
    expect(await linkless("2.8.86")).toEqual([400, null, "?token= query parameter is required for link type"]);
  });

  it("is UNPARSABLE_ACCESS_TOKEN on 2.8.11, which decodes the schema's default token, the empty string", async () => {
    expect(await linkless("2.8.11")).toEqual([
      401,
      "UNPARSABLE_ACCESS_TOKEN",
      JSON.stringify({ code: "UNPARSABLE_ACCESS_TOKEN", error: "Access token is not parsable." }),
    ]);
  });
});
