// bloomfilter.js is the npm package bloomfilter 1.1.0 (Jason Davies) as an
// audit target: BloomFilter(m, k) rounds m up to whole 32-bit buckets and
// sets k positions by enhanced double hashing over the two halves of a
// 64-bit FNV-1a of the key. It hashes a string's UTF-16 code units and
// turns anything else into a string with v + "", which decodes a Buffer as
// UTF-8: every invalid byte becomes U+FFFD, so keys 0xfe and 0xff collide.
// The target hands it the key as a latin1 string, one char per byte, which
// is injective and makes its hash FNV-1a over the key's bytes. It has no
// seed. Its theory is the standard formula at the m it really builds.
import { BloomFilter } from "bloomfilter";

import { serve } from "./protocol.js";

// standard is (1 - (1 - 1/m)^(kn))^k, without the rounding of 1 - 1/m.
const standard = (m, k, n) => (-Math.expm1(k * n * Math.log1p(-1 / m))) ** k;

serve({
  hello: "bloomfilter",
  about: "npm bloomfilter 1.1.0 (Jason Davies): m rounded up to 32 bits, k positions by enhanced double hashing over FNV-1a 64, no seed",
  can: ["positions"],
  rate: "ask",
  // The library refuses m beyond 2^32 and k below 1 with its own RangeError.
  create: (m, k) => new BloomFilter(Number(m), k),
  add: (f, key) => f.add(key.toString("latin1")),
  test: (f, key) => f.test(key.toString("latin1")),
  positions: (f, key) => f.locations(key.toString("latin1")),
  size: (f) => f.m,
  rateOf: (m, k, n) => standard(Math.ceil(m / 32) * 32, k, n),
});
