// A Bloom filter of its own behind the audit's protocol, for the audit's
// tests: filter.py's modes, in JavaScript (see filter.py), with every
// 64-bit figure a BigInt: M and SEED come as decimal text and stay exact.
"use strict";
const crypto = require("node:crypto");
const readline = require("node:readline");

const MASK64 = (1n << 64n) - 1n;
const MODE = process.argv[2] || "good";

class Filter {
  constructor(m, k, seed) {
    if (MODE === "seed32-declared" && seed >= 1n << 32n) {
      process.stderr.write(`filter.js: seed ${seed} is past the 32 bits declared\n`);
      process.exit(3);
    }
    if (MODE === "seed32" || MODE === "seed32-declared") seed &= 0xffffffffn;
    if (MODE === "seed-low") seed &= 0xffffn;
    this.m = m;
    this.k = k;
    this.key = Buffer.alloc(8);
    this.key.writeBigUInt64LE(seed);
    this.set = new Set();
  }
  positions(key) {
    const d = crypto.createHmac("sha256", this.key).update(key).digest();
    const h1 = d.readBigUInt64LE(0);
    const h2 = d.readBigUInt64LE(8) | 1n;
    const out = [];
    for (let i = 0n; i < BigInt(this.k); i++) {
      if (MODE === "hash32") out.push(((h1 + i * h2) & 0xffffffffn) % this.m);
      else out.push((((h1 + i * h2) & MASK64) * this.m) >> 64n);
    }
    return out;
  }
  add(key) {
    for (const p of this.positions(key)) this.set.add(p);
  }
  test(key) {
    return this.positions(key).every((p) => this.set.has(p));
  }
}

const filters = new Map();
const out = [];
let pending = null; // the request whose key lines are still coming
const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
rl.on("line", (line) => {
  if (pending) {
    pending.keys.push(Buffer.from(line, "hex"));
    if (pending.keys.length === pending.count) answer(pending), (pending = null);
    return flush();
  }
  const [op, id, ...args] = line.split(" ");
  if (op === "bloomlab-audit") {
    const seed = MODE === "seed32-declared" || MODE === "seed-low" ? "can seed 32" : "can seed";
    out.push(`hello js/${MODE}`, `about filter.js in mode ${MODE}`, seed, "can positions", "ready");
  } else if (op === "new") {
    filters.set(id, new Filter(BigInt(args[0]), Number(args[1]), BigInt(args[3])));
    out.push("ok");
  } else if (op === "size") out.push(String(filters.get(id).m));
  else if (op === "free") filters.delete(id), out.push("ok");
  else if (op === "bye") process.exit(0);
  else if (Number(args[0]) === 0) answer({ op, id, keys: [] });
  else pending = { op, id, count: Number(args[0]), keys: [] };
  flush();
});
function answer({ op, id, keys }) {
  const f = filters.get(id);
  if (op === "add") keys.forEach((k) => f.add(k)), out.push("ok");
  else if (op === "test") out.push(keys.map((k) => (f.test(k) ? "1" : "0")).join(""));
  else for (const k of keys) out.push(f.positions(k).join(" "));
}
function flush() {
  if (out.length) process.stdout.write(out.join("\n") + "\n"), (out.length = 0);
}
