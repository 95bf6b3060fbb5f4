// @ts-check
// `make size`'s accounting: which module or dependency each byte of a bundled file
// comes from, and what it weighs minified and gzip'd, so that the rows of its table
// sum to the file's sizes.
// - Minified bytes: each byte of the bundle goes to the source its source map names
//   for it (esbuild composes the maps that dist/*.js.map ship with, so the names are
//   stackkit's own sources, runtime/… and generated/…, and the files of dependencies).
//   A mapping runs to the next one, across line ends (a template literal's lines are
//   its); bytes before the first mapping (esbuild's helpers, the imports of other
//   chunks) and a chunk's closing `export{…}` are esbuild's.
// - Gzip: each byte's cost in the file's own gzip -9 stream (scripts/lib/deflate-costs.mjs:
//   the bits of a literal, a match's bits shared by the bytes it copies), scaled so that
//   the file's bytes share its whole .gz (header, code tables and trailer included).
//   A module thus pays for what the compressor spent on it where it is, in the order
//   the bundle has it: text it repeats from an earlier module costs it a back-reference.

import { gzipSync } from "node:zlib";
import { deflateCosts } from "./deflate-costs.mjs";

/**
 * @typedef {{ sources: string[], mappings: string }} SourceMap
 * @typedef {{ bytes: number, gzip: number }} Weight
 */

/** What a byte no mapping covers is put down to. */
export const UNMAPPED = "(esbuild: helpers, imports and exports between chunks)";

/**
 * The `export{…};` esbuild closes an ESM chunk with: its source map gives it no segment
 * of its own, so it would otherwise go to the module whose code ends before it.
 */
const EXPORT_CLAUSE = /export\{[^{}]*\};?\n?$/;

const BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/** @param {string} segment @returns {number[]} */
function vlq(segment) {
  /** @type {number[]} */
  const fields = [];
  let value = 0;
  let shift = 0;
  for (const char of segment) {
    const digit = BASE64.indexOf(char);
    if (digit < 0) throw new Error(`source map: "${char}" in a mapping`);
    value += (digit & 31) * 2 ** shift;
    if (digit & 32) shift += 5;
    else {
      fields.push(value % 2 ? -Math.floor(value / 2) : value / 2);
      value = shift = 0;
    }
  }
  return fields;
}

/**
 * A source map's mappings, line by line: each segment's generated column (UTF-16
 * units) and the index of its source in `sources`, or -1 for a segment without one.
 * @param {string} mappings
 * @returns {[column: number, source: number][][]}
 */
export function decodeMappings(mappings) {
  let source = 0;
  return mappings.split(";").map((line) => {
    let column = 0;
    /** @type {[number, number][]} */
    const segments = [];
    for (const segment of line.split(",")) {
      if (segment === "") continue;
      const fields = vlq(segment);
      column += fields[0] ?? 0;
      if (fields.length >= 4) source += fields[1] ?? 0;
      segments.push([column, fields.length >= 4 ? source : -1]);
    }
    return segments.sort((a, b) => a[0] - b[0]);
  });
}

/**
 * The source of each UTF-8 byte of `text` (an index into the map's `sources`, or -1):
 * a mapping runs to the next one, across line ends (where the text of a template
 * literal goes on), or to a segment without a source.
 * @param {string} text
 * @param {SourceMap} map
 * @returns {Int32Array}
 */
export function sourceOfEachByte(text, map) {
  const lines = decodeMappings(map.mappings);
  const owners = new Int32Array(Buffer.byteLength(text));
  let at = 0;
  let line = 0;
  let column = 0;
  let next = 0;
  let current = -1;
  for (let i = 0; i < text.length; i++) {
    const segments = lines[line] ?? [];
    for (let s = segments[next]; s && s[0] <= column; s = segments[++next]) current = s[1];
    const unit = text.charCodeAt(i);
    // UTF-8 bytes per UTF-16 unit: a surrogate pair's four bytes go two to each half.
    const width = unit < 0x80 ? 1 : unit < 0x800 || (unit >= 0xd800 && unit <= 0xdfff) ? 2 : 3;
    owners.fill(current, at, at + width);
    at += width;
    if (unit === 10) {
      line++;
      column = next = 0;
    } else column++;
  }
  return owners;
}

/**
 * The weight of each source in one bundled file: its minified bytes and its share of
 * the file's gzip -9 size, by the map's source names (`UNMAPPED` for bytes without
 * one). The bytes sum to the file's length and the shares to its gzip size.
 * @param {Uint8Array} contents
 * @param {SourceMap | undefined} map
 * @returns {{ gzip: number, weights: Map<string, Weight> }}
 */
export function weighFile(contents, map) {
  const gz = gzipSync(contents, { level: 9 });
  // Node's gzip header is 10 bytes (no name, comment or extra field: flags 0); the trailer 8.
  if (gz[3] !== 0) throw new Error("gzip: a header with optional fields");
  const gzip = gz.length;
  const costs = deflateCosts(gz.subarray(10, gz.length - 8), contents);
  const spent = costs.reduce((sum, cost) => sum + cost, 0);
  const text = new TextDecoder().decode(contents);
  const owners = map ? sourceOfEachByte(text, map) : new Int32Array(contents.length).fill(-1);
  const clause = EXPORT_CLAUSE.exec(text);
  if (clause) owners.fill(-1, Buffer.byteLength(text.slice(0, clause.index)));
  /** @type {Map<string, Weight>} */
  const weights = new Map();
  owners.forEach((owner, i) => {
    const name = owner >= 0 ? (map?.sources[owner] ?? UNMAPPED) : UNMAPPED;
    const weight = weights.get(name) ?? { bytes: 0, gzip: 0 };
    weight.bytes += 1;
    weight.gzip += spent > 0 ? ((costs[i] ?? 0) * gzip) / spent : gzip / contents.length;
    weights.set(name, weight);
  });
  return { gzip, weights };
}

/**
 * Who a source of a bundle belongs to, from its path (relative to the bundle): a file
 * under node_modules/stackkit/ is one of stackkit's modules (`runtime/errors.ts`);
 * under another node_modules/<package>/, that dependency's; else the app's.
 * @param {string} source
 * @returns {{ kind: "module" | "dependency" | "app" | "esbuild", name: string, file: string }}
 */
export function ownerOf(source) {
  if (source === UNMAPPED) return { kind: "esbuild", name: UNMAPPED, file: source };
  const at = source.lastIndexOf("node_modules/");
  if (at < 0) return { kind: "app", name: source.replace(/^(\.\.\/)+/, ""), file: source };
  const [scope = "", name = "", ...rest] = source.slice(at + "node_modules/".length).split("/");
  const [pkg, file] = scope.startsWith("@") ? [`${scope}/${name}`, rest.join("/")] : [scope, [name, ...rest].join("/")];
  return pkg === "stackkit" ? { kind: "module", name: file, file } : { kind: "dependency", name: pkg, file };
}

/**
 * Whole numbers for `values` that sum to `total` (by default their sum, rounded), each
 * within one of its value (largest remainders), so that a table's rounded rows add up
 * to its total.
 * @param {number[]} values
 * @param {number} [total] within one of the values' sum
 * @returns {number[]}
 */
export function apportion(values, total = Math.round(values.reduce((sum, v) => sum + v, 0))) {
  const whole = values.map(Math.floor);
  let left = total - whole.reduce((sum, v) => sum + v, 0);
  const byRemainder = values.map((v, i) => ({ remainder: v - Math.floor(v), i })).sort((a, b) => b.remainder - a.remainder);
  for (const { i } of byRemainder) {
    if (left <= 0) break;
    whole[i] = (whole[i] ?? 0) + 1;
    left--;
  }
  return whole;
}

/**
 * @typedef {{ name: string, bytes: number, gzip: number }} Line
 * @typedef {Line & { kind: "module" | "dependency" | "app" | "esbuild", files: Line[] }} Row
 */

const KIND_ORDER = ["module", "dependency", "app", "esbuild"];

/**
 * A table's rows from the weights of sources (one file's, or several files' added
 * up): one per stackkit module, per dependency (with its files), for the app and for
 * esbuild's bytes, heaviest first within each kind, in whole bytes; the rows' gzip
 * shares sum to the weights' total rounded, and each dependency's files to its row.
 * @param {Map<string, Weight>} weights
 * @returns {{ rows: Row[], bytes: number, gzip: number }}
 */
export function tabulate(weights) {
  /** @type {Map<string, { kind: Row["kind"], name: string, weight: Weight, files: Map<string, Weight> }>} */
  const groups = new Map();
  for (const [source, weight] of weights) {
    const { kind, name, file } = ownerOf(source);
    const group = groups.get(`${kind}:${name}`) ?? { kind, name, weight: { bytes: 0, gzip: 0 }, files: new Map() };
    group.weight.bytes += weight.bytes;
    group.weight.gzip += weight.gzip;
    const fileWeight = group.files.get(file) ?? { bytes: 0, gzip: 0 };
    fileWeight.bytes += weight.bytes;
    fileWeight.gzip += weight.gzip;
    group.files.set(file, fileWeight);
    groups.set(`${kind}:${name}`, group);
  }
  const list = [...groups.values()];
  const gzips = apportion(list.map((g) => g.weight.gzip));
  /** @type {(a: Line & { kind?: string }, b: Line & { kind?: string }) => number} */
  const heaviest = (a, b) =>
    KIND_ORDER.indexOf(a.kind ?? "") - KIND_ORDER.indexOf(b.kind ?? "") || b.gzip - a.gzip || a.name.localeCompare(b.name);
  const rows = list
    .map((group, i) => {
      const gzip = gzips[i] ?? 0;
      const files = [...group.files];
      const fileGzips = apportion(
        files.map(([, w]) => w.gzip),
        gzip,
      );
      return {
        kind: group.kind,
        name: group.name,
        bytes: group.weight.bytes,
        gzip,
        files: files.map(([name, w], f) => ({ name, bytes: w.bytes, gzip: fileGzips[f] ?? 0 })).sort(heaviest),
      };
    })
    .sort(heaviest);
  return { rows, bytes: rows.reduce((sum, r) => sum + r.bytes, 0), gzip: rows.reduce((sum, r) => sum + r.gzip, 0) };
}
