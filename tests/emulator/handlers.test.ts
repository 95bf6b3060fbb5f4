// Routing comes from the operation table, so every operation of the document
// must have a handler: one added to the document without a handler fails here
// instead of answering 501. The browser-bound flows (passkeys, OAuth, TOTP
// sign-in, CLI login) and the remaining admin operations are emulated by the
// next stage; they are listed by name so that the list can only shrink. An
// operation only a later version of the service has (LATER_OPERATIONS) is one
// no emulated version serves: it has no handler.
import { describe, expect, it } from "vitest";
import { operations, type OperationId } from "../../generated/operations.js";
import { LATER_OPERATIONS } from "../../emulator/engine/profile.js";
import { areas, handlers } from "../../emulator/handlers/index.js";

// None left: every operation has a handler.
const NEXT_STAGE: readonly OperationId[] = [];

describe("the emulator's handlers", () => {
  const all = Object.keys(operations) as OperationId[];

  it("cover every operation of the document but those of the next stage and of later versions", () => {
    expect(all.filter((id) => !handlers[id] && !NEXT_STAGE.includes(id) && !LATER_OPERATIONS.includes(id))).toEqual([]);
  });

  it("serve none of the operations only a later version has (2.8.102's GET /internal/backend-urls)", () => {
    expect(LATER_OPERATIONS).toEqual(["getBackendUrls"]);
    expect(LATER_OPERATIONS.filter((id) => handlers[id])).toEqual([]);
  });

  it("are only for operations of the document", () => {
    expect(Object.keys(handlers).filter((id) => !all.includes(id as OperationId))).toEqual([]);
  });

  it("come from areas that handle no operation twice (a merge would keep only the later handler)", () => {
    const seen = new Map<string, string>();
    const twice: string[] = [];
    for (const [area, map] of Object.entries(areas)) {
      for (const id of Object.keys(map)) {
        if (seen.has(id)) twice.push(`${id} (${seen.get(id)} and ${area})`);
        seen.set(id, area);
      }
    }
    expect(twice).toEqual([]);
    expect(Object.keys(handlers)).toHaveLength(seen.size);
  });

  it("list no operation as next-stage that has a handler already", () => {
    expect(NEXT_STAGE.filter((id) => handlers[id])).toEqual([]);
  });
});
