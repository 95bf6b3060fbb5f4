// Team and project permission definitions (SPEC §3; endpoints.md §D: /{team|project}-permission-definitions).
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { KnownErrors } from "../../../../generated/known-errors.js";
import { isStackError } from "../../../../runtime/errors.js";
import { permissionDefinitions } from "../../../../runtime/app/admin/permission-definitions.js";
import { json, knownError, useFakeClock } from "../../../helpers/fake-service.js";
import { rejectionOf } from "../../../helpers/outcome.js";
import { adminContext, KEYS, sent } from "./admin-context.js";

const WIRE = { id: "team_admin", description: "Manage the team", contained_permission_ids: ["$read_members"] };
const MAPPED = { id: "team_admin", description: "Manage the team", containedPermissionIds: ["$read_members"] };

beforeEach(() => useFakeClock());
afterEach(() => vi.useRealTimers());

describe.each(["team", "project"] as const)("%s permission definitions", (scope) => {
  const base = `/api/v1/${scope}-permission-definitions`;

  it(`list is GET /${scope}-permission-definitions, mapped to { id, description, containedPermissionIds }`, async () => {
    const { ctx, service } = adminContext(() =>
      json({ items: [WIRE, { id: "plain", contained_permission_ids: [] }], is_paginated: false }),
    );
    expect(await permissionDefinitions(ctx, scope).list()).toEqual([MAPPED, { id: "plain", containedPermissionIds: [] }]);
    expect(sent(service)).toEqual([{ method: "GET", path: base, body: undefined }]);
    expect(service.requests[0]!.headers["x-stack-super-secret-admin-key"]).toBe(KEYS.superSecretAdminKey);
  });

  it(`create is POST /${scope}-permission-definitions {id, description, contained_permission_ids}`, async () => {
    const { ctx, service } = adminContext(() => json(WIRE, { status: 201 }));
    const created = await permissionDefinitions(ctx, scope).create({
      id: "team_admin",
      description: "Manage the team",
      containedPermissionIds: ["$read_members"],
    });
    expect(created).toEqual(MAPPED);
    expect(sent(service)).toEqual([
      {
        method: "POST",
        path: base,
        body: { id: "team_admin", description: "Manage the team", contained_permission_ids: ["$read_members"] },
      },
    ]);
  });

  it("create sends only the id when nothing else is given", async () => {
    const { ctx, service } = adminContext(() => json({ id: "viewer", contained_permission_ids: [] }, { status: 201 }));
    await permissionDefinitions(ctx, scope).create({ id: "viewer" });
    expect(sent(service)[0]!.body).toEqual({ id: "viewer" });
  });

  it("create of an id that exists throws KnownErrors.PermissionIdAlreadyExists", async () => {
    const { ctx } = adminContext(() =>
      knownError(400, "PERMISSION_ID_ALREADY_EXISTS", 'Permission with ID "team_admin" already exists. Choose a different ID.', {
        permission_id: "team_admin",
      }),
    );
    const error = await rejectionOf(permissionDefinitions(ctx, scope).create({ id: "team_admin" }));
    expect(error).toBeInstanceOf(KnownErrors.PermissionIdAlreadyExists);
  });

  it(`update is PATCH /${scope}-permission-definitions/{id} with the fields given, the id encoded`, async () => {
    const { ctx, service } = adminContext(() => json(WIRE));
    await permissionDefinitions(ctx, scope).update("team admin", { id: "team_owner", containedPermissionIds: [] });
    await permissionDefinitions(ctx, scope).update("team_owner", { description: "Owns the team" });
    expect(sent(service)).toEqual([
      { method: "PATCH", path: `${base}/team%20admin`, body: { id: "team_owner", contained_permission_ids: [] } },
      { method: "PATCH", path: `${base}/team_owner`, body: { description: "Owns the team" } },
    ]);
  });

  it(`delete is DELETE /${scope}-permission-definitions/{id}`, async () => {
    const { ctx, service } = adminContext(() => json({ success: true }));
    await permissionDefinitions(ctx, scope).delete("team_admin");
    expect(sent(service)).toEqual([{ method: "DELETE", path: `${base}/team_admin`, body: undefined }]);
  });

  it("an empty permission id is a configuration error and sends nothing", async () => {
    const { ctx, service } = adminContext(() => json({ success: true }));
    expect(isStackError(await rejectionOf(permissionDefinitions(ctx, scope).delete("")), "StackConfigurationError")).toBe(true);
    expect(service.requests).toEqual([]);
  });
});
