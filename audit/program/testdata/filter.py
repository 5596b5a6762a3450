#!/usr/bin/env python3
"""A Bloom filter of its own behind the audit's protocol, for the audit's
tests: correct in mode "good", and in the other modes broken as real code
breaks.

  good             64-bit double hashing from HMAC-SHA256 keyed by the seed
  hash32           keeps g = h1 + i*h2 in 32 bits and reduces it mod m: in
                   range, but past m = 2^32 every position is in the first 2^32
  seed32           declares a seed and keys by its low 32 bits only
  seed32-declared  declares "can seed 32" and keys by those 32 bits; a seed
                   at or past 2^32 is a protocol error it exits on
  seed-low         declares "can seed 32" and keys by 16 bits only

Positions live in a set, so a filter of any m costs only its keys.
"""
import hashlib
import hmac
import sys

MASK64 = (1 << 64) - 1
MODE = sys.argv[1] if len(sys.argv) > 1 else "good"


class Filter:
    def __init__(self, m, k, seed):
        if MODE == "seed32-declared" and seed >= 1 << 32:
            sys.exit("filter.py: seed %d is past the 32 bits declared" % seed)
        if MODE in ("seed32", "seed32-declared"):
            seed &= 0xFFFFFFFF
        elif MODE == "seed-low":
            seed &= 0xFFFF
        self.m, self.k, self.key = m, k, seed.to_bytes(8, "little")
        self.set = set()

    def positions(self, key):
        d = hmac.new(self.key, key, hashlib.sha256).digest()
        h1 = int.from_bytes(d[:8], "little")
        h2 = int.from_bytes(d[8:16], "little") | 1
        if MODE == "hash32":
            return [((h1 + i * h2) & 0xFFFFFFFF) % self.m for i in range(self.k)]
        return [(((h1 + i * h2) & MASK64) * self.m) >> 64 for i in range(self.k)]

    def add(self, key):
        self.set.update(self.positions(key))

    def test(self, key):
        return all(p in self.set for p in self.positions(key))


def main():
    out = sys.stdout
    filters = {}
    lines = iter(sys.stdin.buffer.readline, b"")
    for raw in lines:
        word = raw.decode().split()
        if not word:
            return
        op = word[0]
        if op == "bloomlab-audit":
            seed = "can seed 32" if MODE in ("seed32-declared", "seed-low") else "can seed"
            out.write("hello py/%s\nabout filter.py in mode %s\n%s\ncan positions\nready\n" % (MODE, MODE, seed))
        elif op == "new":
            fid, m, k, _n, seed = word[1], int(word[2]), int(word[3]), int(word[4]), int(word[5])
            filters[fid] = Filter(m, k, seed)
            out.write("ok\n")
        elif op in ("add", "test", "positions"):
            f, keys = filters[word[1]], [bytes.fromhex(next(lines).decode().strip()) for _ in range(int(word[2]))]
            if op == "add":
                for key in keys:
                    f.add(key)
                out.write("ok\n")
            elif op == "test":
                out.write("".join("1" if f.test(key) else "0" for key in keys) + "\n")
            else:
                out.write("".join(" ".join(map(str, f.positions(key))) + "\n" for key in keys))
        elif op == "size":
            out.write("%d\n" % filters[word[1]].m)
        elif op == "free":
            filters.pop(word[1], None)
            out.write("ok\n")
        elif op == "bye":
            return
        out.flush()


if __name__ == "__main__":
    main()
