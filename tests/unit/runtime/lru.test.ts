// The bounded caches (wire contract §14): least recently used first out, whether
// the entry used is the newest (which moves nothing) or an older one.
import { describe, expect, it } from "vitest";
import { LruMap } from "../../../runtime/platform/lru.js";
import { isStackError } from "../../../runtime/errors.js";

/** The keys left after filling `lru` past its limit with fresh keys: what was evicted shows as missing. */
function survivors(lru: LruMap<string, number>, keys: readonly string[]): string[] {
  return keys.filter((key) => lru.get(key) !== undefined);
}

describe("an LRU map", () => {
  it("answers what was set, and undefined for what was not", () => {
    const lru = new LruMap<string, number>(2);
    lru.set("a", 1);
    expect(lru.get("a")).toBe(1);
    expect(lru.get("b")).toBeUndefined();
    expect(lru.size).toBe(1);
  });

  it("keeps a stored undefined apart from a missing key", () => {
    const lru = new LruMap<string, number | undefined>(2);
    lru.set("a", undefined);
    lru.set("b", 2);
    expect(lru.get("a")).toBeUndefined();
    lru.set("c", 3); // "a" was used after "b": "b" goes
    expect(lru.size).toBe(2);
    expect(lru.get("b")).toBeUndefined();
  });

  it("evicts the least recently used entry when full", () => {
    const lru = new LruMap<string, number>(3);
    lru.set("a", 1).set("b", 2).set("c", 3);
    lru.get("a");
    lru.set("d", 4);
    expect(survivors(lru, ["a", "b", "c", "d"])).toEqual(["a", "c", "d"]);
  });

  it("moves nothing when the newest entry is used again, and still evicts in order", () => {
    const lru = new LruMap<string, number>(3);
    lru.set("a", 1).set("b", 2).set("c", 3);
    for (let i = 0; i < 3; i++) expect(lru.get("c")).toBe(3);
    lru.set("d", 4);
    expect(survivors(lru, ["b", "c", "d"])).toEqual(["b", "c", "d"]);
    expect(lru.get("a")).toBeUndefined();
  });

  it("counts a newer use of an older entry after the newest was used", () => {
    const lru = new LruMap<string, number>(2);
    lru.set("a", 1).set("b", 2);
    lru.get("b");
    lru.get("a");
    lru.set("c", 3);
    expect(lru.get("b")).toBeUndefined();
    expect(lru.get("a")).toBe(1);
  });

  it("orders a use of the entry that was newest before another was used", () => {
    const lru = new LruMap<string, number>(2);
    lru.set("a", 1).set("b", 2);
    lru.get("a");
    lru.get("b");
    lru.set("c", 3);
    expect(lru.get("a")).toBeUndefined();
    expect(lru.get("b")).toBe(2);
  });

  it("forgets a deleted newest entry, and the next newest is ordered as it should be", () => {
    const lru = new LruMap<string, number>(2);
    lru.set("a", 1).set("b", 2);
    expect(lru.delete("b")).toBe(true);
    expect(lru.get("b")).toBeUndefined();
    lru.set("b", 20);
    lru.get("a");
    lru.set("c", 3);
    expect(lru.get("b")).toBeUndefined();
    expect([lru.get("a"), lru.get("c")]).toEqual([1, 3]);
  });

  it("replaces the value of a key set again, which becomes the newest", () => {
    const lru = new LruMap<string, number>(2);
    lru.set("a", 1).set("b", 2).set("a", 10);
    lru.set("c", 3);
    expect(lru.get("a")).toBe(10);
    expect(lru.get("b")).toBeUndefined();
  });

  it("needs a positive whole limit", () => {
    for (const limit of [0, -1, 1.5, Number.NaN]) {
      let error: unknown;
      try {
        new LruMap(limit);
      } catch (caught) {
        error = caught;
      }
      expect(isStackError(error, "StackConfigurationError")).toBe(true);
    }
  });
});
