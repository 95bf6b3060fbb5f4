// The signed-in user's sessions (SPEC §3 "Session", endpoints.md §A, wire contract §16).
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { KnownErrors } from "../../../../generated/known-errors.js";
import { isStackError } from "../../../../runtime/errors.js";
import { HttpError } from "../../../../runtime/http/request-errors.js";
import { userSessionMethods } from "../../../../runtime/app/objects/active-session.js";
import { testAppContext } from "../../../helpers/app-context.js";
import { json, knownError, useFakeClock, type Handler } from "../../../helpers/fake-service.js";
import { rejectionOf } from "../../../helpers/outcome.js";
import { doc } from "../../../fixtures/document.js";

const LIST = doc.components.examples.SessionList!.value as { items: Record<string, unknown>[] };
const [EXAMPLE] = LIST.items as [Record<string, unknown> & { id: string; last_used_at_end_user_ip_info: unknown }];

function setup(handler: Handler = () => json({ success: true })) {
  const t = testAppContext(handler);
  return { ...t, methods: userSessionMethods(t.ctx) };
}

beforeEach(() => useFakeClock());
afterEach(() => vi.useRealTimers());

describe("getActiveSessions", () => {
  it("is GET /auth/sessions?user_id=me, each session with the reference's field names and Dates", async () => {
    const { methods, service } = setup(() => json(LIST));
    const sessions = await methods.getActiveSessions();
    expect(service.requests.map((r) => [r.method, r.path])).toEqual([["GET", "/api/v1/auth/sessions?user_id=me"]]);
    expect(sessions).toEqual([
      {
        id: EXAMPLE.id,
        userId: "3241a285-8329-4d69-8f3d-316e08cf140c",
        createdAt: new Date(1763251200000),
        isImpersonation: false,
        lastUsedAt: new Date(1763683200000),
        isCurrentSession: true,
        geoInfo: EXAMPLE.last_used_at_end_user_ip_info,
      },
    ]);
    expect(sessions[0]!.createdAt).toBeInstanceOf(Date);
  });

  it("gives lastUsedAt and geoInfo undefined and isCurrentSession false when the service leaves them out", async () => {
    const bare = {
      id: "s-2",
      user_id: "u-1",
      created_at: 1763251200000,
      is_impersonation: true,
      last_used_at: null,
      last_used_at_end_user_ip_info: null,
    };
    const { methods } = setup(() => json({ items: [bare], is_paginated: false }));
    const sessions = await methods.getActiveSessions();
    expect(sessions).toEqual([
      {
        id: "s-2",
        userId: "u-1",
        createdAt: new Date(1763251200000),
        isImpersonation: true,
        lastUsedAt: undefined,
        isCurrentSession: false,
        geoInfo: undefined,
      },
    ]);
    // Members all the same, as on the reference's sessions (2.8.11's _clientSessionFromCrud).
    expect(Object.keys(sessions[0]!).sort()).toEqual([
      "createdAt",
      "geoInfo",
      "id",
      "isCurrentSession",
      "isImpersonation",
      "lastUsedAt",
      "userId",
    ]);
  });

  it("reports the service's HTTP 500 for a user without sessions as an HttpError", async () => {
    const { methods } = setup(() => new Response("Internal Server Error", { status: 500 }));
    const error = await rejectionOf(methods.getActiveSessions());
    expect(isStackError(error, "HttpError")).toBe(true);
    expect((error as HttpError).status).toBe(500);
  });
});

describe("revokeSession", () => {
  it("is DELETE /auth/sessions/{id}?user_id=me", async () => {
    const { methods, service } = setup();
    await methods.revokeSession("b1f4c0de-2a8e-4c61-9d3e-5f7a1b2c3d4e");
    expect(service.requests.map((r) => [r.method, r.path])).toEqual([
      ["DELETE", "/api/v1/auth/sessions/b1f4c0de-2a8e-4c61-9d3e-5f7a1b2c3d4e?user_id=me"],
    ]);
  });

  it("encodes the session id in the path", async () => {
    const { methods, service } = setup();
    await methods.revokeSession("../users/me");
    expect(service.requests[0]!.path).toBe("/api/v1/auth/sessions/..%2Fusers%2Fme?user_id=me");
  });

  it("throws CannotDeleteCurrentSession for the current session, which stays valid", async () => {
    const { methods, ctx, store } = setup(() => knownError(400, "CANNOT_DELETE_CURRENT_SESSION", "Cannot delete the current session."));
    const before = store!.get();
    const error = await rejectionOf(methods.revokeSession("current-id"));
    expect(error).toBeInstanceOf(KnownErrors.CannotDeleteCurrentSession);
    expect(ctx.sessions().current().isKnownInvalid).toBe(false);
    expect(store!.get()).toEqual(before);
    expect(await ctx.sessions().current().getTokens()).toEqual(before);
  });
});
