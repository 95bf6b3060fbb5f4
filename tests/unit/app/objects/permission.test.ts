// The signed-in user's permissions (SPEC §6, §9: recursive by default; endpoints.md §A).
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { userPermissionMethods } from "../../../../runtime/app/objects/permission.js";
import { testAppContext } from "../../../helpers/app-context.js";
import { json, useFakeClock, type SentRequest } from "../../../helpers/fake-service.js";
import { doc } from "../../../fixtures/document.js";

const TEAM_ID = "9c2b7e4a-1f3d-4a6b-8e5c-2d7f9a1b3c5e";
const team = { id: TEAM_ID, displayName: "Acme Engineering" };

function setup() {
  const t = testAppContext((r: SentRequest) =>
    json(doc.components.examples[r.path.includes("/team-permissions") ? "TeamPermissionList" : "ProjectPermissionList"]!.value),
  );
  return { ...t, methods: userPermissionMethods(t.ctx) };
}
const paths = (s: { requests: SentRequest[] }) => s.requests.map((r) => `${r.method} ${r.path}`);

beforeEach(() => useFakeClock());
afterEach(() => vi.useRealTimers());

describe("listPermissions", () => {
  it("in a team is GET /team-permissions?team_id&user_id=me&recursive=true, each permission just its id", async () => {
    const { methods, service } = setup();
    expect(await methods.listPermissions(team)).toEqual([{ id: "$read_members" }, { id: "team_admin" }]);
    expect(paths(service)).toEqual([`GET /api/v1/team-permissions?team_id=${TEAM_ID}&user_id=me&recursive=true`]);
  });

  it("without a team is GET /project-permissions?user_id=me&recursive=true", async () => {
    const { methods, service } = setup();
    expect(await methods.listPermissions()).toEqual([{ id: "billing_admin" }]);
    expect(paths(service)).toEqual(["GET /api/v1/project-permissions?user_id=me&recursive=true"]);
  });

  it("sends recursive=false when asked, in a team and at project level", async () => {
    const { methods, service } = setup();
    await methods.listPermissions(team, { recursive: false });
    await methods.listPermissions({ recursive: false });
    expect(paths(service)).toEqual([
      `GET /api/v1/team-permissions?team_id=${TEAM_ID}&user_id=me&recursive=false`,
      "GET /api/v1/project-permissions?user_id=me&recursive=false",
    ]);
  });

  it("stays recursive with options that leave recursive out", async () => {
    const { methods, service } = setup();
    await methods.listPermissions(team, {});
    await methods.listPermissions({ recursive: true });
    expect(paths(service)).toEqual([
      `GET /api/v1/team-permissions?team_id=${TEAM_ID}&user_id=me&recursive=true`,
      "GET /api/v1/project-permissions?user_id=me&recursive=true",
    ]);
  });
});

describe("getPermission", () => {
  it("finds a team permission among the recursive list", async () => {
    const { methods, service } = setup();
    expect(await methods.getPermission(team, "team_admin")).toEqual({ id: "team_admin" });
    expect(paths(service)).toEqual([`GET /api/v1/team-permissions?team_id=${TEAM_ID}&user_id=me&recursive=true`]);
  });

  it("finds a project permission by id alone", async () => {
    const { methods, service } = setup();
    expect(await methods.getPermission("billing_admin")).toEqual({ id: "billing_admin" });
    expect(paths(service)).toEqual(["GET /api/v1/project-permissions?user_id=me&recursive=true"]);
  });

  it("is null for a permission the user does not hold", async () => {
    const { methods } = setup();
    expect(await methods.getPermission(team, "billing_admin")).toBeNull();
    expect(await methods.getPermission("team_admin")).toBeNull();
  });
});

describe("hasPermission", () => {
  it("is true for a held permission and false otherwise, in a team and at project level", async () => {
    const { methods } = setup();
    expect(await methods.hasPermission(team, "$read_members")).toBe(true);
    expect(await methods.hasPermission(team, "$delete_team")).toBe(false);
    expect(await methods.hasPermission("billing_admin")).toBe(true);
    expect(await methods.hasPermission("team_admin")).toBe(false);
  });
});
