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

Its file: the magic b"BLpy", m (8 bytes), k (4) and the seed (8), all
little-endian, the bits, and a CRC-32 of everything before it (4). load
checks the header and the length against m before it allocates, and the
checksum before it answers. merge ORs the bits of a filter of the same m,
k and seed; count is the estimate from the set bits (Swamidass and Baldi,
2007), n = -(m/k) ln(1 - x/m), with the delta method's standard deviation.
"""

import hashlib
import math
import os
import struct
import sys
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bloomlab_protocol import Refused, serve  # noqa: E402

MAX_M = 1 << 32  # bits in one bytearray, 512 MiB
MAX_K = 1024  # probes a key: a positions line stays short (the audit's most is 64)
MAGIC = b"BLpy"
HEADER = struct.Struct("<4sQIQ")  # magic, m, k, seed
MAX_FILE_M = 1 << 27  # bits a file may hold: 16 MiB, the protocol's bound on a file


class Filter:
    def __init__(self, m, k, seed, bits=None):
        self.m, self.k, self.seed = m, k, seed
        self.bits = bytearray((m + 7) >> 3) if bits is None else bits
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


    def save(self):
        data = HEADER.pack(MAGIC, self.m, self.k, self.seed) + self.bits
        return data + struct.pack("<I", zlib.crc32(data))

    def merge(self, other):
        if (self.m, self.k, self.seed) != (other.m, other.k, other.seed):
            raise Refused("m, k and seed must agree: m = %d and %d, k = %d and %d, seed %d and %d"
                          % (self.m, other.m, self.k, other.k, self.seed, other.seed))
        both = int.from_bytes(self.bits, "little") | int.from_bytes(other.bits, "little")
        self.bits = bytearray(both.to_bytes(len(self.bits), "little"))

    def count(self):
        m, k = self.m, self.k
        x = bin(int.from_bytes(self.bits, "little")).count("1")
        if x >= m:  # every bit set: the count is past any figure; half a bit unset is its lower bound
            x = m - 0.5
        ec = m / (m - x)  # e^c, c = kn/m
        return -(m / k) * math.log1p(-x / m), math.sqrt(m) / k * math.sqrt(max(ec - 1 - math.log(ec), 0))


def load(data):
    if len(data) < HEADER.size + 4 or data[:4] != MAGIC:
        raise Refused("not a file of this filter: %d bytes, starting %r" % (len(data), data[:4]))
    _, m, k, seed = HEADER.unpack_from(data)
    if not 1 <= m <= MAX_FILE_M or not 1 <= k <= MAX_K:
        raise Refused("m = %d, k = %d: a file holds m from 1 to 2^27 and k from 1 to %d" % (m, k, MAX_K))
    if len(data) != HEADER.size + (m + 7) // 8 + 4:
        raise Refused("%d bytes, where m = %d needs %d" % (len(data), m, HEADER.size + (m + 7) // 8 + 4))
    if zlib.crc32(data[:-4]) != struct.unpack("<I", data[-4:])[0]:
        raise Refused("its checksum fails")
    bits = bytearray(data[HEADER.size:-4])
    if m % 8 and bits[-1] >> (m % 8):
        raise Refused("bits set past m = %d" % m)
    return Filter(m, k, seed, bits)


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
        save=Filter.save,
        load=load,
        merge=Filter.merge,
        count=Filter.count,
    )
