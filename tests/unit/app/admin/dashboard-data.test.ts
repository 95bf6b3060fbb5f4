// The Svix portal token and the usage metrics, as plain calls (endpoints.md §D).
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ResponseFormatError } from "../../../../runtime/http/request-errors.js";
import { getMetrics, getSvixToken } from "../../../../runtime/app/admin/dashboard-data.js";
import { documentedAnswer } from "../../../helpers/documented-answers.js";
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

  it("an answer without a token is a ResponseFormatError naming the missing field", async () => {
    const { ctx } = adminContext(() => json({}));
    const error = await rejectionOf(getSvixToken(ctx));
    expect(error).toBeInstanceOf(ResponseFormatError);
    expect(error).toMatchObject({
      operationId: "createSvixToken",
      status: 200,
      path: "$.token",
      message: "createSvixToken: the service answered HTTP 200 with a body the API does not allow: $.token is missing",
    });
  });
});

describe("getMetrics", () => {
  it("is GET /internal/metrics, answering the metrics as sent", async () => {
    const metrics = {
      ...(documentedAnswer("getMetrics").body as object),
      total_users: 42,
      daily_users: [{ date: "2026-11-20", activity: 3 }],
      users_by_country: { CH: 5 },
    };
    const { ctx, service } = adminContext(() => json(metrics));
    expect(await getMetrics(ctx)).toEqual(metrics);
    expect(sent(service)).toEqual([{ method: "GET", path: "/api/v1/internal/metrics", body: undefined }]);
  });

  it("an answer that is not an object is a ResponseFormatError at the body itself", async () => {
    const { ctx } = adminContext(() => json([1, 2]));
    const error = await rejectionOf(getMetrics(ctx));
    expect(error).toBeInstanceOf(ResponseFormatError);
    expect(error).toMatchObject({
      operationId: "getMetrics",
      status: 200,
      path: "$",
      message: "getMetrics: the service answered HTTP 200 with a body the API does not allow: $ should be an object, not an array",
    });
  });
});
