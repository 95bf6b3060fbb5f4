// Project key sets (SPEC §3 "Internal (project) API key", §4 validity; endpoints.md §D /internal/api-keys).
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { isStackError } from "../../../../runtime/errors.js";
import { apiKeyFromWire } from "../../../../runtime/app/objects/api-key.js";
import { createInternalApiKey, listInternalApiKeys, type InternalApiKeyBase } from "../../../../runtime/app/admin/internal-api-keys.js";
import { json, useFakeClock } from "../../../helpers/fake-service.js";
import { rejectionOf } from "../../../helpers/outcome.js";
import { adminContext, KEYS, sent } from "./admin-context.js";

const NOW = Date.UTC(2026, 10, 21, 12, 0, 0);
const KEY_ID = "c4e8a2f6-9b1d-4a3e-8c7f-5e2b9d1a6f3c";
const FUTURE = 4102444800000;

const listed = (fields: Record<string, unknown> = {}) => ({
  id: KEY_ID,
  description: "Production backend",
  expires_at_millis: FUTURE,
  created_at_millis: 1763251200000,
  publishable_client_key: { last_four: "a1b2" },
  secret_server_key: { last_four: "c3d4" },
  ...fields,
});

/** The key set as listed, with only the validity-relevant fields changed. */
async function keyWith(fields: Record<string, unknown>): Promise<InternalApiKeyBase> {
  const { ctx } = adminContext(() => json({ items: [listed(fields)] }));
  return (await listInternalApiKeys(ctx))[0]!;
}

beforeEach(() => useFakeClock(NOW));
afterEach(() => vi.useRealTimers());

describe("createInternalApiKey", () => {
  it("is POST /internal/api-keys in snake_case, answering the first view with the full keys", async () => {
    const { ctx, service } = adminContext(() =>
      json({
        id: KEY_ID,
        description: "Production backend",
        expires_at_millis: FUTURE,
        created_at_millis: 1763251200000,
        publishable_client_key: "pck_full_key_a1b2",
        secret_server_key: "ssk_full_key_c3d4",
      }),
    );
    const key = await createInternalApiKey(ctx, {
      description: "Production backend",
      expiresAt: new Date(FUTURE),
      hasPublishableClientKey: true,
      hasSecretServerKey: true,
      hasSuperSecretAdminKey: false,
    });
    expect(sent(service)).toEqual([
      {
        method: "POST",
        path: "/api/v1/internal/api-keys",
        body: {
          description: "Production backend",
          expires_at_millis: FUTURE,
          has_publishable_client_key: true,
          has_secret_server_key: true,
          has_super_secret_admin_key: false,
        },
      },
    ]);
    expect(service.requests[0]!.headers["x-stack-super-secret-admin-key"]).toBe(KEYS.superSecretAdminKey);
    expect({ ...key, isValid: undefined, whyInvalid: undefined, revoke: undefined }).toEqual({
      id: KEY_ID,
      description: "Production backend",
      expiresAt: new Date(FUTURE),
      manuallyRevokedAt: null,
      createdAt: new Date(1763251200000),
      publishableClientKey: "pck_full_key_a1b2",
      secretServerKey: "ssk_full_key_c3d4",
      isValid: undefined,
      whyInvalid: undefined,
      revoke: undefined,
    });
    // A key the set lacks is a member all the same, undefined, as on the reference's first view.
    expect(Object.keys(key).sort()).toEqual([
      "createdAt",
      "description",
      "expiresAt",
      "id",
      "isValid",
      "manuallyRevokedAt",
      "publishableClientKey",
      "revoke",
      "secretServerKey",
      "superSecretAdminKey",
      "whyInvalid",
    ]);
    expect(key.superSecretAdminKey).toBeUndefined();
  });

  it("without a valid expiresAt is a configuration error and sends nothing", async () => {
    const { ctx, service } = adminContext(() => json({}));
    const options = {
      description: "x",
      expiresAt: new Date(Number.NaN),
      hasPublishableClientKey: true,
      hasSecretServerKey: false,
      hasSuperSecretAdminKey: false,
    };
    expect(isStackError(await rejectionOf(createInternalApiKey(ctx, options)), "StackConfigurationError")).toBe(true);
    expect(service.requests).toEqual([]);
  });
});

describe("listInternalApiKeys", () => {
  it("is GET /internal/api-keys, each key as its last four characters, null for a key the set lacks", async () => {
    const { ctx, service } = adminContext(() => json({ items: [listed()], is_paginated: false }));
    const [key] = await listInternalApiKeys(ctx);
    expect(sent(service)).toEqual([{ method: "GET", path: "/api/v1/internal/api-keys", body: undefined }]);
    expect({ ...key, isValid: undefined, whyInvalid: undefined, revoke: undefined }).toEqual({
      id: KEY_ID,
      description: "Production backend",
      expiresAt: new Date(FUTURE),
      manuallyRevokedAt: null,
      createdAt: new Date(1763251200000),
      publishableClientKey: { lastFour: "a1b2" },
      secretServerKey: { lastFour: "c3d4" },
      superSecretAdminKey: null,
      isValid: undefined,
      whyInvalid: undefined,
      revoke: undefined,
    });
  });
});

describe("InternalApiKey.revoke", () => {
  it("is PATCH /internal/api-keys/{id} {revoked: true}", async () => {
    const { ctx, service } = adminContext((r) =>
      r.method === "PATCH" ? json(listed({ manually_revoked_at_millis: NOW })) : json({ items: [listed()] }),
    );
    const [key] = await listInternalApiKeys(ctx);
    await key!.revoke();
    expect(sent(service)[1]).toEqual({ method: "PATCH", path: `/api/v1/internal/api-keys/${KEY_ID}`, body: { revoked: true } });
  });
});

describe("InternalApiKey validity (SPEC §4: expiry first, then revocation)", () => {
  it("an unexpired, unrevoked key set is valid", async () => {
    const key = await keyWith({});
    expect([key.isValid(), key.whyInvalid()]).toEqual([true, null]);
  });

  it("a revoked key set is 'manually-revoked', with manuallyRevokedAt as a Date", async () => {
    const key = await keyWith({ manually_revoked_at_millis: NOW - 1000 });
    expect([key.isValid(), key.whyInvalid()]).toEqual([false, "manually-revoked"]);
    expect(key.manuallyRevokedAt).toEqual(new Date(NOW - 1000));
  });

  it("an expired key set is 'expired'", async () => {
    const key = await keyWith({ expires_at_millis: NOW - 1 });
    expect([key.isValid(), key.whyInvalid()]).toEqual([false, "expired"]);
  });

  it("a key set both expired and revoked is 'expired'", async () => {
    const key = await keyWith({ expires_at_millis: NOW - 1, manually_revoked_at_millis: NOW - 1000 });
    expect(key.whyInvalid()).toBe("expired");
  });

  it("becomes 'expired' as the clock passes expiresAt", async () => {
    const key = await keyWith({ expires_at_millis: NOW + 5000 });
    expect(key.whyInvalid()).toBe(null);
    vi.setSystemTime(NOW + 5001);
    expect(key.whyInvalid()).toBe("expired");
  });

  it("the opposite order of a user key, which reports revocation first", async () => {
    const { ctx } = adminContext(() => json({}));
    const userKey = apiKeyFromWire(ctx, {
      id: "k",
      type: "user",
      user_id: "u",
      description: "d",
      is_public: false,
      expires_at_millis: NOW - 1,
      manually_revoked_at_millis: NOW - 1000,
      created_at_millis: NOW - 10_000,
      value: { last_four: "abcd" },
    });
    const internalKey = await keyWith({ expires_at_millis: NOW - 1, manually_revoked_at_millis: NOW - 1000 });
    expect([userKey.whyInvalid(), internalKey.whyInvalid()]).toEqual(["manually-revoked", "expired"]);
  });
});
