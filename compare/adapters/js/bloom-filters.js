// bloom-filters.js is the npm package bloom-filters 3.0.4 as an audit target:
// its BloomFilter(size, nbHashes), m bits and k positions per key by enhanced
// double hashing, (h1 + i*h2 + (i^3 - i)/6) % m, over two XXH64 hashes of
// the key (xxhashjs) of which the library keeps the low 32 bits. It takes
// Buffers and hashes their bytes (strings it would hash as UTF-8), so keys go
// in as the Buffers they are. Its seed is a number of which xxhashjs keeps
// the low 32 bits (cuint's UINT64.fromNumber), so the target declares a
// 32-bit seed (can seed 32): the audit sends seeds below 2^32 and holds the
// library to all 32 bits, and a seed past 2^53, rounded as a number, never
// reaches it. Past m = 2^32 it still
// builds the filter, but its 32-bit hashes crowd the array's start (probe i
// stays below (i + 1) * 2^32).
//
// It saves a filter as JSON (saveAsJSON: m, k, the seed and the bits in
// base64), which the target sends as its UTF-8 bytes, and reads one back
// with BloomFilter.fromJSON: "can save". It has no union of BloomFilters and
// no estimate of their keys (its length is the bits set), so it declares
// neither merge nor count.
import pkg from "bloom-filters";

import { serve } from "./protocol.js";

const { BloomFilter } = pkg;

serve({
  hello: "bloom-filters",
  about: "npm bloom-filters 3.0.4 BloomFilter: m bits, k positions by enhanced double hashing over 32 bits of XXH64, seed mod 2^32",
  can: ["seed 32", "positions"],
  rate: "standard",
  create(m, k, n, seed) {
    if (m > 2n ** 35n) return { refused: `m = ${m}: bloom-filters keeps its bits in one Uint8Array, at most 2^32 bytes` };
    const f = new BloomFilter(Number(m), k); // throws for k < 1, which refuses the shape
    f.seed = Number(BigInt.asUintN(32, seed));
    return f;
  },
  add: (f, key) => f.add(key),
  test: (f, key) => f.has(key),
  // The indexes add and has compute, by the library's own call.
  positions: (f, key) => f._hashing.getIndexes(key, f.size, f._nbHashes, f.seed),
  size: (f) => f.size,
  save: (f) => Buffer.from(JSON.stringify(f.saveAsJSON())),
  // A file that is not JSON, or lacks a field, throws: refused with its message.
  load: (data) => BloomFilter.fromJSON(JSON.parse(data.toString("utf8"))),
});
