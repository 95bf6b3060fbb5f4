// @ts-check
// What each byte of a file costs in its deflate stream (the body of a .gz), read
// from the stream itself: a literal costs the bits of its code; the bytes a match
// copies share the bits of its length and distance codes and their extra bits.
// `make size` (scripts/lib/size-breakdown.mjs) sums these per module, so that a
// module's share of a gzip file is what the compressor spent on it there, shared
// strings and all, rather than a guess from compressing it alone. The decoder
// follows RFC 1951 (zlib's puff.c is the model); it checks that what it decodes is
// the file, so a wrong reading cannot go unnoticed.

const LENGTH_BASE = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258];
const LENGTH_EXTRA = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0];
const DISTANCE_BASE = [
  1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385,
  24577,
];
const DISTANCE_EXTRA = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13];
/** The order in which a dynamic block lists its code-length code's lengths. */
const CODE_LENGTH_ORDER = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15];
const MAX_BITS = 15;

/**
 * A canonical Huffman code from its code lengths: how many codes of each length, and
 * the symbols in code order.
 * @typedef {{ count: number[], symbol: number[] }} Huffman
 * @param {number[]} lengths
 * @returns {Huffman}
 */
function huffman(lengths) {
  const count = new Array(MAX_BITS + 1).fill(0);
  for (const length of lengths) count[length]++;
  // Where each length's symbols start: after all shorter codes.
  const offset = [0, 0];
  for (let length = 1; length < MAX_BITS; length++) offset[length + 1] = (offset[length] ?? 0) + count[length];
  /** @type {number[]} */
  const symbol = [];
  lengths.forEach((length, s) => {
    if (length === 0) return;
    const at = offset[length] ?? 0;
    symbol[at] = s;
    offset[length] = at + 1;
  });
  return { count, symbol };
}

const FIXED = {
  literal: huffman([...Array(144).fill(8), ...Array(112).fill(9), ...Array(24).fill(7), ...Array(8).fill(8)]),
  distance: huffman(Array(30).fill(5)),
};

/**
 * The bits each byte of `expected` costs in `stream`, its raw deflate stream (what
 * `deflateRawSync` makes; a .gz file without its 10-byte header and 8-byte trailer).
 * Block headers, code tables and end-of-block codes are no byte's: the costs sum to
 * fewer bits than the stream holds, and a caller that wants the whole file's size
 * apportioned scales them.
 * @param {Uint8Array} stream
 * @param {Uint8Array} expected the bytes the stream decodes to
 * @returns {Float64Array}
 */
export function deflateCosts(stream, expected) {
  const costs = new Float64Array(expected.length);
  const out = new Uint8Array(expected.length);
  let position = 0; // in bits
  let written = 0;
  const bits = (/** @type {number} */ n) => {
    let value = 0;
    for (let i = 0; i < n; i++, position++) {
      if (position >= stream.length * 8) throw new Error("deflate stream: ends early");
      value |= (((stream[position >> 3] ?? 0) >> (position & 7)) & 1) << i;
    }
    return value;
  };
  const decode = (/** @type {Huffman} */ h) => {
    let code = 0;
    let first = 0;
    let index = 0;
    for (let length = 1; length <= MAX_BITS; length++) {
      code |= bits(1);
      const count = h.count[length] ?? 0;
      if (code - count < first) return /** @type {number} */ (h.symbol[index + (code - first)]);
      index += count;
      first = (first + count) << 1;
      code <<= 1;
    }
    throw new Error("deflate stream: no such code");
  };
  const put = (/** @type {number} */ byte, /** @type {number} */ cost) => {
    if (written >= out.length) throw new Error("deflate stream: longer than the file");
    out[written] = byte;
    costs[written++] = cost;
  };

  for (let last = 0; !last;) {
    last = bits(1);
    const type = bits(2);
    if (type === 0) {
      position = (position + 7) & ~7;
      const length = bits(16);
      bits(16);
      for (let i = 0; i < length; i++) put(bits(8), 8);
      continue;
    }
    if (type === 3) throw new Error("deflate stream: reserved block type");
    const { literal, distance } = type === 1 ? FIXED : dynamicCodes(bits, decode);
    for (;;) {
      const start = position;
      const symbol = decode(literal);
      if (symbol === 256) break;
      if (symbol < 256) {
        put(symbol, position - start);
        continue;
      }
      const l = symbol - 257;
      const length = (LENGTH_BASE[l] ?? NaN) + bits(LENGTH_EXTRA[l] ?? 0);
      const d = decode(distance);
      const back = (DISTANCE_BASE[d] ?? NaN) + bits(DISTANCE_EXTRA[d] ?? 0);
      if (!(back <= written)) throw new Error("deflate stream: a distance reaches before the start");
      const cost = (position - start) / length;
      for (let i = 0; i < length; i++) put(/** @type {number} */ (out[written - back]), cost);
    }
  }
  if (written !== expected.length || !out.every((byte, i) => byte === expected[i])) {
    throw new Error("deflate stream: does not decode to the file");
  }
  return costs;
}

/**
 * A dynamic block's literal/length and distance codes, read from its header.
 * @param {(n: number) => number} bits
 * @param {(h: Huffman) => number} decode
 */
function dynamicCodes(bits, decode) {
  const literals = bits(5) + 257;
  const distances = bits(5) + 1;
  const codeLengthCount = bits(4) + 4;
  const codeLengths = new Array(19).fill(0);
  for (let i = 0; i < codeLengthCount; i++) codeLengths[/** @type {number} */ (CODE_LENGTH_ORDER[i])] = bits(3);
  const lengthCode = huffman(codeLengths);
  /** @type {number[]} */
  const lengths = [];
  while (lengths.length < literals + distances) {
    const symbol = decode(lengthCode);
    if (symbol < 16) lengths.push(symbol);
    else if (symbol === 16) {
      if (lengths.length === 0) throw new Error("deflate stream: a repeat with nothing before it");
      lengths.push(...Array(3 + bits(2)).fill(lengths.at(-1)));
    } else lengths.push(...Array(symbol === 17 ? 3 + bits(3) : 11 + bits(7)).fill(0));
  }
  return { literal: huffman(lengths.slice(0, literals)), distance: huffman(lengths.slice(literals, literals + distances)) };
}
