import { describe, expect, it } from "vitest";
import { isStackQueryKey, stackQueryKey, stackQueryPrefix } from "../../react/index.js";

describe("stackQueryKey", () => {
  it("starts with the operationId, then the parameters", () => {
    expect(stackQueryKey("listTeams", { user_id: "me" })).toEqual(["stackkit", "listTeams", { user_id: "me" }]);
  });

  it("treats an undefined parameter as absent", () => {
    expect(stackQueryKey("listTeamPermissions", { team_id: undefined, user_id: "me" })).toEqual(
      stackQueryKey("listTeamPermissions", { user_id: "me" }),
    );
  });

  it("defaults to no parameters", () => {
    expect(stackQueryKey("getCurrentProject")).toEqual(["stackkit", "getCurrentProject", {}]);
  });
});

describe("stackQueryPrefix", () => {
  it("is the key's first two parts, what a mutation invalidates", () => {
    expect(stackQueryPrefix("listTeams")).toEqual(["stackkit", "listTeams"]);
    expect(stackQueryKey("listTeams", { user_id: "me" }).slice(0, 2)).toEqual(stackQueryPrefix("listTeams"));
  });
});

describe("isStackQueryKey", () => {
  it("tells stackkit keys from an app's own", () => {
    expect(isStackQueryKey(stackQueryKey("getCurrentProject"))).toBe(true);
    expect(isStackQueryKey(["todos", 1])).toBe(false);
  });
});
