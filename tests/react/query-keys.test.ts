import { describe, expect, it } from "vitest";
import { stackQueryKey } from "../../react/index.js";

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
