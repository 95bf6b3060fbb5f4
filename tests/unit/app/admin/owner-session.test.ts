// Admin calls made for a project owner (SPEC §6; wire contract §2, §4, §14): the owner's access token from the
// internal project instead of keys, refreshed and retried once when the service rejects it.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { KnownErrors } from "../../../../generated/known-errors.js";
import { getAdminProject } from "../../../../runtime/app/admin/project.js";
import { listOwnedProjects } from "../../../../runtime/app/admin/owned-projects.js";
import { signedInTokens, testAppContext } from "../../../helpers/app-context.js";
import { json, jwt, knownError, useFakeClock, type Handler } from "../../../helpers/fake-service.js";
import { rejectionOf } from "../../../helpers/outcome.js";
import { adminContext, fakeOwnerSession, PROJECT_ID, sent, stackHeadersOf } from "./admin-context.js";

const WIRE_PROJECT = {
  id: PROJECT_ID,
  display_name: "Acme",
  description: null,
  created_at_millis: 1763251200000,
  user_count: 42,
  is_production_mode: false,
  config: {
    allow_localhost: false,
    sign_up_enabled: true,
    credential_enabled: true,
    magic_link_enabled: true,
    passkey_enabled: false,
    client_team_creation_enabled: false,
    client_user_deletion_enabled: false,
    allow_user_api_keys: false,
    allow_team_api_keys: false,
    oauth_providers: [],
    enabled_oauth_providers: [],
    domains: [],
    email_config: { type: "shared" },
    create_team_on_sign_up: false,
    team_creator_default_permissions: [],
    team_member_default_permissions: [],
    user_default_permissions: [],
    oauth_account_merge_strategy: "link_method",
  },
};

const EXPIRED = () =>
  knownError(401, "ADMIN_ACCESS_TOKEN_EXPIRED", "Admin access token has expired. Please refresh it and try again.", {
    expired_at_millis: null,
  });

/** Answers `first` to the first request and the project to every later one. */
const firstThen = (first: () => Response): Handler => {
  let calls = 0;
  return () => (calls++ === 0 ? first() : json(WIRE_PROJECT));
};

beforeEach(() => useFakeClock());
afterEach(() => vi.useRealTimers());

describe("an admin app on a project owner's session", () => {
  it("sends x-stack-admin-access-token with access type admin and no key headers at all", async () => {
    const { owner, tokens } = fakeOwnerSession();
    const { ctx, service } = adminContext(() => json(WIRE_PROJECT), { owner });
    await getAdminProject(ctx);
    expect(stackHeadersOf(service.requests[0])).toEqual({
      "x-stack-project-id": PROJECT_ID,
      "x-stack-access-type": "admin",
      "x-stack-client-version": expect.stringMatching(/^js /),
      "x-stack-admin-access-token": tokens[0],
      "x-stack-override-error-status": "true",
    });
  });

  it("after ADMIN_ACCESS_TOKEN_EXPIRED marks the token expired once and retries once with the new token", async () => {
    const { owner, tokens, expired } = fakeOwnerSession();
    const { ctx, service } = adminContext(firstThen(EXPIRED), { owner });
    expect((await getAdminProject(ctx)).id).toBe(PROJECT_ID);
    expect(expired).toEqual([tokens[0]]);
    expect(service.requests.map((r) => r.headers["x-stack-admin-access-token"])).toEqual([tokens[0], tokens[1]]);
    expect(sent(service).map((r) => `${r.method} ${r.path}`)).toEqual([
      "GET /api/v1/internal/projects/current",
      "GET /api/v1/internal/projects/current",
    ]);
  });

  it("after API_KEY_NOT_FOUND does the same", async () => {
    const { owner, tokens, expired } = fakeOwnerSession();
    const notFound = () => knownError(404, "API_KEY_NOT_FOUND", "API key not found.");
    const { ctx, service } = adminContext(firstThen(notFound), { owner });
    await getAdminProject(ctx);
    expect(expired).toEqual([tokens[0]]);
    expect(service.requests).toHaveLength(2);
  });

  it("a second rejection after the retry is thrown, typed, without a third request", async () => {
    const { owner, expired } = fakeOwnerSession();
    const { ctx, service } = adminContext(EXPIRED, { owner });
    expect(await rejectionOf(getAdminProject(ctx))).toBeInstanceOf(KnownErrors.AdminAccessTokenExpired);
    expect(service.requests).toHaveLength(2);
    expect(expired).toHaveLength(1);
  });

  it("with a real internal-project session: one refresh at the token endpoint, one retry", async () => {
    const fresh = jwt({ sub: "owner-1", exp: Math.floor(Date.now() / 1000) + 3600 });
    const internal = testAppContext((r) => (r.path.endsWith("/auth/oauth/token") ? json({ access_token: fresh }) : json({})), {
      tokens: signedInTokens("rt-owner"),
    });
    const session = internal.ctx.sessions().current();
    const first = (await session.getTokens())!.accessToken;
    const { ctx, service } = adminContext(firstThen(EXPIRED), { owner: session });
    await getAdminProject(ctx);
    expect(internal.service.requests.map((r) => `${r.method} ${r.path}`)).toEqual(["POST /api/v1/auth/oauth/token"]);
    expect(service.requests.map((r) => r.headers["x-stack-admin-access-token"])).toEqual([first, fresh]);
  });

  it("manages a project listed by listOwnedProjects of the internal project's user", async () => {
    const listing = { items: [WIRE_PROJECT], is_paginated: false };
    const internal = testAppContext(() => json(listing));
    const internalCtx = { ...internal.ctx, projectId: "internal" };
    const [owned] = await listOwnedProjects(internalCtx);
    const ownerTokens = (await internalCtx.sessions().current().getTokens())!;

    const { ctx, service } = adminContext(() => json(WIRE_PROJECT), { owner: internalCtx.sessions().current(), projectId: owned!.id });
    const project = await getAdminProject(ctx);
    expect(project.displayName).toBe(owned!.displayName);
    expect(stackHeadersOf(service.requests[0])).toMatchObject({
      "x-stack-project-id": owned!.id,
      "x-stack-admin-access-token": ownerTokens.accessToken,
    });
    expect(service.requests[0]!.headers).not.toHaveProperty("x-stack-super-secret-admin-key");
  });
});
