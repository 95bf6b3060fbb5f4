// `make size`'s accounting (scripts/lib/size-breakdown.mjs, scripts/lib/deflate-costs.mjs):
// which source each byte of a bundle comes from, by a hand-made source map; what each
// byte costs in its gzip stream; and tables whose rows sum to the file's sizes.
import { deflateRawSync, gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { deflateCosts } from "../../scripts/lib/deflate-costs.mjs";
import { UNMAPPED, apportion, ownerOf, sourceOfEachByte, tabulate, weighFile } from "../../scripts/lib/size-breakdown.mjs";

const bytes = (text: string) => new TextEncoder().encode(text);
const sum = (values: Iterable<number>) => [...values].reduce((a, b) => a + b, 0);

/** Text no compressor shortens much: a fixed pseudo-random run of letters. */
function noise(length: number, seed = 7): string {
  let state = seed;
  return Array.from({ length }, () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return String.fromCharCode(97 + (Math.floor(state / 65536) % 26));
  }).join("");
}

describe("sourceOfEachByte", () => {
  // Line 0: a.ts from column 0, b.ts from column 3, no source from column 5.
  // Line 1: a.ts from column 1. Fields are VLQ: A 0, C +1, D -1, E +2, G +3.
  const map = { sources: ["a.ts", "b.ts"], mappings: "AAAA,GCAA,E;CDCA" };

  it("gives each byte the source of the mapping before it, and -1 before the first or after one without a source", () => {
    expect([...sourceOfEachByte("abc;def\nxy", map)]).toEqual([0, 0, 0, 1, 1, -1, -1, -1, -1, 0]);
    expect([...sourceOfEachByte("xabc", { sources: ["a.ts"], mappings: "CAAA" })]).toEqual([-1, 0, 0, 0]);
  });

  it("carries a mapping over a line end, as a template literal's text goes on", () => {
    // Line 0: a.ts from column 0; line 1: b.ts from column 1.
    expect([...sourceOfEachByte("ab\ncd", { sources: ["a.ts", "b.ts"], mappings: "AAAA;CCAA" })]).toEqual([0, 0, 0, 0, 1]);
  });

  it("counts columns in UTF-16 units and gives every UTF-8 byte of a character its source", () => {
    expect([...sourceOfEachByte("aé😀b", { sources: ["a.ts", "b.ts"], mappings: "AAAA,CCAA,GDAA" })]).toEqual([0, 1, 1, 1, 1, 1, 1, 0]);
  });
});

describe("deflateCosts", () => {
  it("decodes a gzip -9 stream and charges a repeated half far less than its first occurrence", () => {
    const text = bytes(noise(4000).repeat(2));
    const stream = deflateRawSync(text, { level: 9 });
    const costs = deflateCosts(stream, text);
    const first = sum(costs.subarray(0, 4000));
    const second = sum(costs.subarray(4000));
    expect(first + second).toBeLessThanOrEqual(stream.length * 8);
    expect(first).toBeGreaterThan(4000 * 4);
    expect(second).toBeLessThan(first / 50);
  });

  it("charges eight bits a byte in a stored block", () => {
    const text = bytes("stored as it is");
    expect([...deflateCosts(deflateRawSync(text, { level: 0 }), text)]).toEqual(Array(text.length).fill(8));
  });

  it("throws when the stream is not the file's", () => {
    const stream = deflateRawSync(bytes("one text"), { level: 9 });
    expect(() => deflateCosts(stream, bytes("another"))).toThrow(new Error("deflate stream: longer than the file"));
    expect(() => deflateCosts(stream, bytes("one test"))).toThrow(new Error("deflate stream: does not decode to the file"));
  });
});

describe("weighFile", () => {
  it("shares the file's bytes and its whole gzip size out among its sources", () => {
    const text = `${noise(3000, 1)}\n${noise(1000, 2)}`;
    const contents = bytes(text);
    // a.ts for line 0, b.ts for line 1 from column 0 (C: +1 source, C: +1 line).
    const { gzip, weights } = weighFile(contents, { sources: ["a.ts", "b.ts"], mappings: "AAAA;ACCA" });
    expect(gzip).toBe(gzipSync(contents, { level: 9 }).length);
    expect(weights.get("a.ts")?.bytes).toBe(3001);
    expect(weights.get("b.ts")?.bytes).toBe(1000);
    expect(sum([...weights.values()].map((w) => w.gzip))).toBeCloseTo(gzip, 6);
    expect(weights.get("a.ts")!.gzip / weights.get("b.ts")!.gzip).toBeCloseTo(3, 0);
  });

  it("puts the chunk's closing export clause down to esbuild, not to the module before it", () => {
    const { weights } = weighFile(bytes("var a=1;export{a as b};\n"), { sources: ["a.ts"], mappings: "AAAA" });
    expect([...weights].map(([source, w]) => [source, w.bytes])).toEqual([
      ["a.ts", 8],
      [UNMAPPED, 16],
    ]);
  });

  it("puts a file without a source map down to esbuild", () => {
    const { gzip, weights } = weighFile(bytes("var a=1;"), undefined);
    expect([...weights.keys()]).toEqual([UNMAPPED]);
    expect(weights.get(UNMAPPED)?.bytes).toBe(8);
    expect(weights.get(UNMAPPED)?.gzip).toBeCloseTo(gzip, 6);
  });
});

describe("ownerOf", () => {
  it("names stackkit's modules by their path, dependencies by package, and the app by its file", () => {
    expect(ownerOf("../node_modules/stackkit/runtime/errors.ts")).toEqual({
      kind: "module",
      name: "runtime/errors.ts",
      file: "runtime/errors.ts",
    });
    expect(ownerOf("../../work/node_modules/jose/dist/webapi/util/decode_jwt.js")).toEqual({
      kind: "dependency",
      name: "jose",
      file: "dist/webapi/util/decode_jwt.js",
    });
    expect(ownerOf("../node_modules/@simplewebauthn/browser/esm/index.js")).toEqual({
      kind: "dependency",
      name: "@simplewebauthn/browser",
      file: "esm/index.js",
    });
    expect(ownerOf("../app.js")).toEqual({ kind: "app", name: "app.js", file: "../app.js" });
    expect(ownerOf(UNMAPPED).kind).toBe("esbuild");
  });
});

describe("apportion and tabulate", () => {
  it("rounds to whole numbers that sum to the rounded total, each within one of its value", () => {
    expect(apportion([1.4, 1.4, 1.2])).toEqual([2, 1, 1]);
    expect(apportion([0.5, 0.5], 2)).toEqual([1, 1]);
  });

  it("makes one row per module and per dependency, heaviest first within each kind, summing to the total", () => {
    const {
      rows,
      bytes: total,
      gzip,
    } = tabulate(
      new Map([
        ["../node_modules/stackkit/runtime/a.ts", { bytes: 100, gzip: 30.2 }],
        ["../node_modules/stackkit/generated/b.ts", { bytes: 300, gzip: 60.7 }],
        ["../node_modules/cookie/dist/index.js", { bytes: 50, gzip: 20.4 }],
        ["../node_modules/cookie/dist/util.js", { bytes: 10, gzip: 5.2 }],
        [UNMAPPED, { bytes: 5, gzip: 4.2 }],
      ]),
    );
    expect(rows.map((r) => [r.kind, r.name, r.bytes, r.gzip])).toEqual([
      ["module", "generated/b.ts", 300, 61],
      ["module", "runtime/a.ts", 100, 30],
      ["dependency", "cookie", 60, 26],
      ["esbuild", UNMAPPED, 5, 4],
    ]);
    expect(rows[2]?.files).toEqual([
      { name: "dist/index.js", bytes: 50, gzip: 21 },
      { name: "dist/util.js", bytes: 10, gzip: 5 },
    ]);
    expect([total, gzip]).toEqual([465, 121]);
  });
});
