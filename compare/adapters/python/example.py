"""example.py is a small Bloom filter in pure Python, served to the audit by
bloomlab_protocol: the adapter an outside engineer writes is the part below
the filter, a call to serve.

The filter: m bits in a bytearray, k probes by enhanced double hashing
(Dillinger and Manolios, "Bloom Filters in Probabilistic Verification",
FMCAD 2004, section 5.2): x = h1 mod m and y = h2 mod m; probe 0 is x,
probe i is probe i-1 plus y, after which y grows by i, all mod m, so that
y = 0 does not put every probe on one bit. h1 and h2 are the two 64-bit halves of BLAKE2b-128 of the key,
keyed by the 64-bit seed (RFC 7693): another seed, another filter.

Python's ints are exact, so the probes are right for any m; only the bits
are bounded: MAX_M bits (512 MiB) is the most this filter builds, and a
larger m is refused with the reason, without allocating anything.
"""

import hashlib
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bloomlab_protocol import Refused, serve  # noqa: E402

MAX_M = 1 << 32  # bits in one bytearray, 512 MiB
MAX_K = 1024  # probes a key: a positions line stays short (the audit's most is 64)


class Filter:
    def __init__(self, m, k, seed):
        self.m, self.k = m, k
        self.bits = bytearray((m + 7) >> 3)
        self.hasher = hashlib.blake2b(digest_size=16, key=seed.to_bytes(8, "little"))

    def probes(self, key):
        """Yields the key's k positions in probe order."""
        h = self.hasher.copy()
        h.update(key)
        d = int.from_bytes(h.digest(), "little")
        m = self.m
        x, y = (d & 0xFFFFFFFFFFFFFFFF) % m, (d >> 64) % m
        for i in range(1, self.k + 1):
            yield x
            x = (x + y) % m
            y = (y + i) % m

    def add(self, key):
        bits = self.bits
        for j in self.probes(key):
            bits[j >> 3] |= 1 << (j & 7)

    def test(self, key):
        bits = self.bits
        for j in self.probes(key):
            if not bits[j >> 3] & (1 << (j & 7)):
                return False
        return True


def create(m, k, n, seed):
    if m < 1 or k < 1:
        raise Refused("m = %d, k = %d: this filter needs at least one bit and one probe" % (m, k))
    if m > MAX_M:
        raise Refused("m = %d: this filter keeps its bits in one bytearray, at most 2^32 bits (512 MiB)" % m)
    if k > MAX_K:
        raise Refused("k = %d: this filter takes at most %d probes a key" % (k, MAX_K))
    return Filter(m, k, seed)


if __name__ == "__main__":
    serve(
        name="python/example",
        about="a pure-Python Bloom filter: BLAKE2b-128 of the key keyed by the seed, enhanced double hashing mod m, m up to 2^32",
        seed=True,
        create=create,
        add=Filter.add,
        test=Filter.test,
        positions=lambda f, key: list(f.probes(key)),
        size=lambda f: f.m,
    )
