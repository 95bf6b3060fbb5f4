// The Svix portal token and the usage metrics, as plain calls (endpoints.md §D).
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { isStackError } from "../../../../runtime/errors.js";
import { getMetrics, getSvixToken } from "../../../../runtime/app/admin/dashboard-data.js";
import { json, useFakeClock } from "../../../helpers/fake-service.js";
import { rejectionOf } from "../../../helpers/outcome.js";
import { adminContext, sent } from "./admin-context.js";

beforeEach(() => useFakeClock());
afterEach(() => vi.useRealTimers());

describe("getSvixToken", () => {
  it("is POST /webhooks/svix-token {}, answering the token", async () => {
    const { ctx, service } = adminContext(() => json({ token: "svix-portal-token" }));
    expect(await getSvixToken(ctx)).toBe("svix-portal-token");
    expect(sent(service)).toEqual([{ method: "POST", path: "/api/v1/webhooks/svix-token", body: {} }]);
    expect(service.requests[0]!.headers["x-stack-access-type"]).toBe("admin");
  });

  it("an answer without a token is an assertion error", async () => {
    const { ctx } = adminContext(() => json({}));
    expect(isStackError(await rejectionOf(getSvixToken(ctx)), "StackAssertionError")).toBe(true);
  });
});

describe("getMetrics", () => {
  it("is GET /internal/metrics, answering the metrics as sent", async () => {
    const metrics = { total_users: 42, daily_users: [{ date: "2026-11-20", activity: 3 }], users_by_country: { CH: 5 } };
    const { ctx, service } = adminContext(() => json(metrics));
    expect(await getMetrics(ctx)).toEqual(metrics);
    expect(sent(service)).toEqual([{ method: "GET", path: "/api/v1/internal/metrics", body: undefined }]);
  });

  it("an answer that is not an object is an assertion error", async () => {
    const { ctx } = adminContext(() => json([1, 2]));
    expect(isStackError(await rejectionOf(getMetrics(ctx)), "StackAssertionError")).toBe(true);
  });
});
