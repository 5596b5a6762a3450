// signed-index.js is a Bloom filter written here the way it gets written in
// practice, with a mistake from practice left in: MurmurHash3 computed in
// JavaScript's signed 32-bit arithmetic returns an int32, not the uint32 of
// C, and the probe index (h1 + i*h2) % m keeps its sign. About half of the
// indices are negative; a typed array ignores a write there and reads
// undefined, so a key with any negative probe is lost, and the filter
// reports fewer false positives than theory besides.
import { serve } from "./protocol.js";

const rotl = (x, r) => (x << r) | (x >>> (32 - r));
const scramble = (k) => Math.imul(rotl(Math.imul(k, 0xcc9e2d51), 15), 0x1b873593);

// murmur3 is MurmurHash3_x86_32 of key under seed, as in the reference C.
function murmur3(key, seed) {
  const n = key.length;
  const tail = n & ~3;
  let h = seed;
  for (let i = 0; i < tail; i += 4) {
    h ^= scramble(key[i] | (key[i + 1] << 8) | (key[i + 2] << 16) | (key[i + 3] << 24));
    h = (Math.imul(rotl(h, 13), 5) + 0xe6546b64) | 0;
  }
  let k = 0;
  switch (n & 3) {
    case 3: k ^= key[tail + 2] << 16; // falls through
    case 2: k ^= key[tail + 1] << 8; // falls through
    case 1: h ^= scramble(k ^ key[tail]);
  }
  h ^= n;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return h ^ (h >>> 16); // the 32-bit hash
}

class SignedIndexFilter {
  constructor(m, k, seed) {
    this.m = m;
    this.k = k;
    this.bits = new Uint8Array(Math.ceil(m / 8));
    // h1 and h2 come from two seeds, the 64-bit seed's halves, so both move with it.
    this.seed1 = Number(BigInt.asUintN(32, seed));
    this.seed2 = Number(seed >> 32n) ^ 0x9747b28c;
  }

  // index is probe i of a key: double hashing, (h1 + i*h2) mod m, in [0, m).
  // Math.imul and | 0 wrap like uint32 arithmetic in C, so no precision is lost.
  index(h1, h2, i) {
    return ((h1 + Math.imul(i, h2)) | 0) % this.m;
  }

  add(key) {
    const h1 = murmur3(key, this.seed1);
    const h2 = murmur3(key, this.seed2);
    for (let i = 0; i < this.k; i++) {
      const j = this.index(h1, h2, i);
      this.bits[j >> 3] |= 1 << (j & 7);
    }
  }

  test(key) {
    const h1 = murmur3(key, this.seed1);
    const h2 = murmur3(key, this.seed2);
    for (let i = 0; i < this.k; i++) {
      const j = this.index(h1, h2, i);
      if (!(this.bits[j >> 3] & (1 << (j & 7)))) return false;
    }
    return true;
  }
}

serve({
  hello: "js/signed-index",
  about: "a JavaScript Bloom filter with MurmurHash3 in signed 32-bit arithmetic: (h1 + i*h2) % m goes negative",
  can: ["seed"],
  rate: "standard",
  create(m, k, n, seed) {
    if (m < 1n || m > 2n ** 32n) return { refused: `m = ${m}: this filter takes m from 1 to 2^32, its indices are 32-bit` };
    if (k < 1) return { refused: `k = ${k}: this filter takes k of at least 1` };
    return new SignedIndexFilter(Number(m), k, seed);
  },
  add: (f, key) => f.add(key),
  test: (f, key) => f.test(key),
});
