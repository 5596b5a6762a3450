// example.js is a small Bloom filter in JavaScript, served by protocol.js:
// the kit's example, which declares every view the kit has, so that check.js
// runs each of them. m bits in a Uint8Array (m up to 2^32), k probes
// (h1 + i*h2) mod m over the two 64-bit halves of HMAC-SHA-256 of the key,
// keyed by the seed. Its file: "BLjs", m (8 bytes), k (4), seed (8), all
// little-endian, then the bits, then the first 4 bytes of SHA-256 of all
// before them; load checks the length against m before it allocates, and
// the checksum before it answers. merge ORs the bits of a filter of the same m, k and seed; count
// is -(m/k) ln(1 - x/m) from the x bits set (Swamidass and Baldi, 2007),
// with the delta method's standard deviation.
import { createHash, createHmac } from "node:crypto";

import { serve } from "./protocol.js";

const HEADER = 24;
const sum = (data) => createHash("sha256").update(data).digest().subarray(0, 4);

class Filter {
  constructor(m, k, seed, bits) {
    this.m = m, this.k = k, this.seed = seed, this.bits = bits ?? new Uint8Array(Number((m + 7n) / 8n));
    this.key = Buffer.alloc(8);
    this.key.writeBigUInt64LE(seed);
  }
  positions(key) {
    const d = createHmac("sha256", this.key).update(key).digest();
    const h1 = d.readBigUInt64LE(0), h2 = d.readBigUInt64LE(8);
    return Array.from({ length: this.k }, (_, i) => Number((h1 + BigInt(i) * h2) % this.m));
  }
  add(key) { for (const j of this.positions(key)) this.bits[j >> 3] |= 1 << (j & 7); }
  has(key) { return this.positions(key).every((j) => this.bits[j >> 3] & (1 << (j & 7))); }
}

serve({
  hello: "js/example",
  about: "a JavaScript Bloom filter: HMAC-SHA-256 of the key keyed by the seed, double hashing mod m, m up to 2^32",
  can: ["seed", "positions"],
  rate: "standard",
  create(m, k, n, seed) {
    if (m < 1n || m > 2n ** 32n || k < 1) return { refused: `m = ${m}, k = ${k}: this filter takes m from 1 to 2^32 and k of at least 1` };
    return new Filter(m, k, seed);
  },
  add: (f, key) => f.add(key),
  test: (f, key) => f.has(key),
  positions: (f, key) => f.positions(key),
  size: (f) => f.m,
  save(f) {
    const head = Buffer.alloc(HEADER);
    head.write("BLjs"), head.writeBigUInt64LE(f.m, 4), head.writeUInt32LE(f.k, 12), head.writeBigUInt64LE(f.seed, 16);
    const body = Buffer.concat([head, f.bits]);
    return Buffer.concat([body, sum(body)]);
  },
  load(data) {
    if (data.length < HEADER || data.toString("latin1", 0, 4) !== "BLjs") return { refused: `not a file of this filter (${data.length} bytes)` };
    const m = data.readBigUInt64LE(4), k = data.readUInt32LE(12), seed = data.readBigUInt64LE(16);
    if (m < 1n || m > 2n ** 32n || k < 1) return { refused: `m = ${m}, k = ${k}: a file holds m from 1 to 2^32 and k of at least 1` };
    if (BigInt(data.length - HEADER - 4) !== (m + 7n) / 8n) return { refused: `${data.length} bytes, where m = ${m} needs ${(m + 7n) / 8n + BigInt(HEADER + 4)}` };
    if (!sum(data.subarray(0, -4)).equals(data.subarray(-4))) return { refused: "its checksum fails" };
    return new Filter(m, k, seed, new Uint8Array(data.subarray(HEADER, -4)));
  },
  merge(f, g) {
    if (f.m !== g.m || f.k !== g.k || f.seed !== g.seed) return { refused: "m, k and seed must agree" };
    f.bits.forEach((b, i) => (f.bits[i] = b | g.bits[i]));
  },
  count(f) {
    const m = Number(f.m), k = f.k;
    let x = 0;
    for (let b of f.bits) for (; b; b &= b - 1) x++;
    x = Math.min(x, m - 0.5); // every bit set: the count is past any figure; half a bit unset is its lower bound
    const ec = m / (m - x); // e^c, c = kn/m
    return [-(m / k) * Math.log1p(-x / m), (Math.sqrt(m) / k) * Math.sqrt(Math.max(ec - 1 - Math.log(ec), 0))];
  },
});
