// The operation table the runtime reads: one row per operation of the document,
// with the facts the wire contract attaches to each.
import { describe, expect, it } from "vitest";
import { operationKnownErrors, operations, type OperationInfo } from "../../generated/operations.js";
import { operations as documentOperations } from "../fixtures/document.js";

const rows = Object.entries(operations) as [string, OperationInfo][];

describe("generated/operations.ts", () => {
  it("has a row for every operation of the document, with its method and path", () => {
    expect(rows.map(([id, row]) => `${row.method} ${row.path} ${id}`).sort()).toEqual(
      documentOperations.map((o) => `${o.method.toUpperCase()} ${o.path} ${o.op.operationId}`).sort(),
    );
  });

  it("marks GET, PUT, DELETE, OPTIONS, HEAD and TRACE idempotent, and POST and PATCH not", () => {
    for (const [, row] of rows) expect(row.idempotent).toBe(!["POST", "PATCH"].includes(row.method));
  });

  it("gives the refresh token header to updatePassword and refreshCurrentSession only", () => {
    expect(rows.filter(([, row]) => row.refreshTokenHeader).map(([id]) => id).sort()).toEqual(["refreshCurrentSession", "updatePassword"]);
  });

  it("sends no x-stack-* headers to the token endpoint, which takes a form body", () => {
    expect(operations.exchangeOAuthToken).toMatchObject({ method: "POST", path: "/auth/oauth/token", stackHeaders: false, requestBody: "form" });
  });

  it("marks the authorize call as a navigation", () => {
    expect(operations.startOAuthAuthorization).toMatchObject({ method: "GET", navigation: true, stackHeaders: false });
  });

  it("knows which calls need the user, may take one, or are made without one", () => {
    expect(operations.getCurrentUser.userTokens).toBe("required");
    expect(operations.signUpWithPassword.userTokens).toBe("optional");
    expect(operations.signInWithPassword.userTokens).toBe("none");
    expect(operations.listUsers.userTokens).toBe("none");
  });

  it("knows the access types of client, server and admin calls", () => {
    expect(operations.getCurrentProject.accessTypes).toEqual(["client", "server", "admin"]);
    expect(operations.createUser.accessTypes).toEqual(["server", "admin"]);
    expect(operations.getAdminProject.accessTypes).toEqual(["admin"]);
    expect(operations.startOAuthAuthorization.accessTypes).toEqual(["client"]);
    // The service gives the owned-project routes one schema for every access type.
    expect(operations.listOwnedProjects.accessTypes).toEqual(["client", "server", "admin"]);
  });

  it("lists each operation's known errors, the shared ones included", () => {
    expect(operationKnownErrors.signInWithPassword).toEqual(
      expect.arrayContaining(["EMAIL_PASSWORD_MISMATCH", "MULTI_FACTOR_AUTHENTICATION_REQUIRED", "SCHEMA_ERROR", "INVALID_PUBLISHABLE_CLIENT_KEY"]),
    );
    expect(operationKnownErrors.getCurrentUser).toEqual(expect.arrayContaining(["ACCESS_TOKEN_EXPIRED", "CANNOT_GET_OWN_USER_WITHOUT_USER"]));
    // The service reads an access token sent with the x-stack headers on every route, one that signs in too; a
    // navigation without those headers answers none of its errors.
    expect(operationKnownErrors.signInWithPassword).toContain("ACCESS_TOKEN_EXPIRED");
    expect(operationKnownErrors.getProjectJwks).not.toContain("ACCESS_TOKEN_EXPIRED");
    expect(Object.keys(operationKnownErrors).sort()).toEqual(rows.map(([id]) => id).sort());
  });
});

describe("operationRoutes", () => {
  it("agrees with the full table on every operation", async () => {
    const { operationRoutes, ROUTE_DEFAULTS, ROUTE_JSON_RESPONSE, ROUTE_REFRESH_TOKEN_HEADER, ROUTE_STACK_HEADERS, ROUTE_TEXT_RESPONSE } =
      await import("../../generated/operations.js");
    const listed = operationRoutes.flatMap(([path, ...ops]) => ops.map(([method, id, flags = ROUTE_DEFAULTS]) => ({ path, method, id, flags })));
    expect(listed.map(({ id }) => id)).toEqual(rows.map(([id]) => id));
    expect(new Set(operationRoutes.map(([path]) => path)).size).toBe(operationRoutes.length);
    for (const { path, method, id, flags } of listed) {
      const row = operations[id];
      expect([method, path]).toEqual([row.method, row.path]);
      expect((flags & ROUTE_STACK_HEADERS) !== 0).toBe(row.stackHeaders);
      expect((flags & ROUTE_REFRESH_TOKEN_HEADER) !== 0).toBe(row.refreshTokenHeader);
      expect(flags & ROUTE_JSON_RESPONSE ? "json" : flags & ROUTE_TEXT_RESPONSE ? "text" : "none").toBe(row.responseBody);
    }
  });

  it("leaves out only the flags that are the general rules", async () => {
    const { operationRoutes, ROUTE_DEFAULTS } = await import("../../generated/operations.js");
    for (const [, ...ops] of operationRoutes) for (const [, , flags] of ops) expect(flags).not.toBe(ROUTE_DEFAULTS);
  });
});
