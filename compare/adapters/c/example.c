/*
 * example.c: a small Bloom filter in C, served to the audit by
 * bloomlab_protocol.h; the adapter an outside engineer writes is the struct
 * at the end and main.
 *
 *   gcc -O2 -Wall -Wextra -o example example.c
 *   bloomlab audit --exec -- ./example
 *
 * The filter: m bits, k probes by enhanced double hashing (Dillinger and
 * Manolios, "Bloom Filters in Probabilistic Verification", FMCAD 2004,
 * section 5.2): x = h1 mod m and y = h2 mod m; probe 0 is x, probe i is
 * probe i-1 plus y, after which y grows by i, all mod m, so that y = 0 does
 * not put every probe on one bit. h1 and h2 are the halves of SipHash-2-4's
 * 128-bit output (Aumasson and Bernstein, 2012) under the key (seed,
 * seed ^ 0x6a09e667f3bcc909): another seed, another filter.
 *
 * The sums mod m never overflow (add_mod), so the probes are right for any
 * m up to 2^64 - 1; only the bits are bounded: MAX_M bits (512 MiB) is the
 * most this filter builds, and a larger m is refused, allocating nothing.
 *
 * Its file: the magic "BLc1", m (8 bytes), k (4) and the seed (8), all
 * little-endian, the bits, and a CRC-32 of everything before it (4). load
 * checks the header and the length against m before it allocates, and the
 * checksum and the bits past m before it answers. merge ORs the bits of a
 * filter of the same m, k and seed; count is the estimate from the set bits
 * (Swamidass and Baldi, 2007), n = -(m/k) ln(1 - x/m), with the delta
 * method's standard deviation, (sqrt(m)/k) sqrt(e^c - 1 - c), e^c = m/(m - x).
 * It uses libm: gcc ... example.c -lm.
 */
#define BLOOMLAB_PROTOCOL_IMPLEMENTATION
#include "bloomlab_protocol.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_M (UINT64_C(1) << 32) /* bits in one allocation, 512 MiB */
#define MAX_K 1024                /* probes a key: a positions line stays short */
#define HEADER 24                 /* magic, m, k, seed */

struct filter {
	uint64_t m, k, k0, k1;
	unsigned char *bits;
};

/* made is a filter of m bits, k probes and seed, its bits zero, or NULL. */
static struct filter *made(uint64_t m, uint64_t k, uint64_t seed)
{
	struct filter *f = malloc(sizeof *f);
	if (!f || !(f->bits = calloc((size_t)((m + 7) / 8), 1))) {
		free(f);
		return NULL;
	}
	f->m = m, f->k = k;
	f->k0 = seed, f->k1 = seed ^ UINT64_C(0x6a09e667f3bcc909);
	return f;
}

static uint64_t rotl(uint64_t x, int b) { return x << b | x >> (64 - b); }

/* sip_rounds runs n SipRounds on the state v. */
static void sip_rounds(uint64_t v[4], int n)
{
	while (n-- > 0) {
		v[0] += v[1], v[1] = rotl(v[1], 13), v[1] ^= v[0], v[0] = rotl(v[0], 32);
		v[2] += v[3], v[3] = rotl(v[3], 16), v[3] ^= v[2];
		v[0] += v[3], v[3] = rotl(v[3], 21), v[3] ^= v[0];
		v[2] += v[1], v[1] = rotl(v[1], 17), v[1] ^= v[2], v[2] = rotl(v[2], 32);
	}
}

/* sip128 is SipHash-2-4 with its 128-bit output, as the reference's
 * siphash() with outlen 16: h[0] the low half, h[1] the high. */
static void sip128(uint64_t k0, uint64_t k1, const unsigned char *in, size_t len, uint64_t h[2])
{
	uint64_t v[4] = {k0 ^ UINT64_C(0x736f6d6570736575), k1 ^ UINT64_C(0x646f72616e646f83),
	                 k0 ^ UINT64_C(0x6c7967656e657261), k1 ^ UINT64_C(0x7465646279746573)};
	size_t end = len - len % 8;
	for (size_t i = 0; i <= end; i += 8) { /* the last word: the tail and the length */
		uint64_t w = i == end ? (uint64_t)len << 56 : 0;
		for (size_t j = 0; j < 8 && i + j < len; j++)
			w |= (uint64_t)in[i + j] << (8 * j);
		v[3] ^= w, sip_rounds(v, 2), v[0] ^= w;
	}
	v[2] ^= 0xee, sip_rounds(v, 4);
	h[0] = v[0] ^ v[1] ^ v[2] ^ v[3];
	v[1] ^= 0xdd, sip_rounds(v, 4);
	h[1] = v[0] ^ v[1] ^ v[2] ^ v[3];
}

/* add_mod is (a + b) mod m for a, b < m, without overflow. */
static uint64_t add_mod(uint64_t a, uint64_t b, uint64_t m)
{
	return a >= m - b ? a - (m - b) : a + b;
}

/* probes calls visit with each of the key's k positions, in probe order,
 * until visit returns 0; it returns 0 then, else 1. */
static int probes(const struct filter *f, const unsigned char *key, size_t len,
                  int (*visit)(const struct filter *, uint64_t, void *), void *arg)
{
	uint64_t h[2];
	sip128(f->k0, f->k1, key, len, h);
	uint64_t x = h[0] % f->m, y = h[1] % f->m;
	for (uint64_t i = 1; i <= f->k; i++) {
		if (!visit(f, x, arg))
			return 0;
		x = add_mod(x, y, f->m);
		y = add_mod(y, i % f->m, f->m);
	}
	return 1;
}

static int set_bit(const struct filter *f, uint64_t j, void *arg)
{
	(void)arg;
	f->bits[j >> 3] |= (unsigned char)(1u << (j & 7));
	return 1;
}

static int has_bit(const struct filter *f, uint64_t j, void *arg)
{
	(void)arg;
	return f->bits[j >> 3] >> (j & 7) & 1;
}

static int put(const struct filter *f, uint64_t j, void *out)
{
	(void)f;
	bloomlab_put(out, j);
	return 1;
}

static void *create(uint64_t m, uint64_t k, uint64_t n, uint64_t seed, const char **reason)
{
	(void)n;
	if (m < 1 || k < 1) {
		*reason = "this filter needs at least one bit and one probe";
		return NULL;
	}
	if (m > MAX_M) {
		*reason = "this filter keeps its bits in one allocation, at most 2^32 bits (512 MiB)";
		return NULL;
	}
	if (k > MAX_K) {
		*reason = "this filter takes at most 1024 probes a key";
		return NULL;
	}
	struct filter *f = made(m, k, seed);
	if (!f)
		*reason = "out of memory";
	return f;
}

static void add(void *f, const unsigned char *key, size_t len) { probes(f, key, len, set_bit, NULL); }
static int test(void *f, const unsigned char *key, size_t len) { return probes(f, key, len, has_bit, NULL); }
static uint64_t size(void *f) { return ((struct filter *)f)->m; }

static void positions(void *f, const unsigned char *key, size_t len, struct bloomlab_positions *out)
{
	probes(f, key, len, put, out);
}

static void destroy(void *p)
{
	struct filter *f = p;
	free(f->bits);
	free(f);
}

/* crc32 continues crc, the CRC-32 of the bytes before p (0 for none), over
 * len more bytes: zlib's and PNG's CRC (reflected 0xedb88320), bit by bit. */
static uint32_t crc32(uint32_t crc, const unsigned char *p, size_t len)
{
	uint32_t c = ~crc;
	while (len--)
		for (int i = 0, b = *p++; i < 8; i++, b >>= 1)
			c = c >> 1 ^ (0xedb88320 & -((c ^ (uint32_t)b) & 1));
	return ~c;
}

static void put_le(unsigned char *p, uint64_t v, int bytes)
{
	for (int i = 0; i < bytes; i++)
		p[i] = (unsigned char)(v >> 8 * i);
}

static uint64_t get_le(const unsigned char *p, int bytes)
{
	uint64_t v = 0;
	for (int i = bytes - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static void save(void *p, struct bloomlab_file *out)
{
	struct filter *f = p;
	size_t n = (size_t)((f->m + 7) / 8);
	unsigned char head[HEADER], sum[4];
	memcpy(head, "BLc1", 4), put_le(head + 4, f->m, 8), put_le(head + 12, f->k, 4), put_le(head + 16, f->k0, 8);
	put_le(sum, crc32(crc32(0, head, HEADER), f->bits, n), 4);
	bloomlab_write(out, head, HEADER), bloomlab_write(out, f->bits, n), bloomlab_write(out, sum, 4);
}

static void *load(const unsigned char *data, size_t len, const char **reason)
{
	static char why[160];
	*reason = why;
	if (len < HEADER + 4 || memcmp(data, "BLc1", 4) != 0)
		return snprintf(why, sizeof why, "not a file of this filter (%zu bytes)", len), NULL;
	uint64_t m = get_le(data + 4, 8), k = get_le(data + 12, 4), n = (m + 7) / 8;
	if (m < 1 || m > 8 * (uint64_t)BLOOMLAB_MAX_FILE || k < 1 || k > MAX_K)
		return snprintf(why, sizeof why, "m = %llu, k = %llu: a file holds m from 1 to 2^27, k from 1 to %d",
		                (unsigned long long)m, (unsigned long long)k, MAX_K), NULL;
	if (len - HEADER - 4 != n)
		return snprintf(why, sizeof why, "%zu bytes, where m = %llu needs %llu", len, (unsigned long long)m,
		                (unsigned long long)(n + HEADER + 4)), NULL;
	if (crc32(0, data, len - 4) != get_le(data + len - 4, 4))
		return snprintf(why, sizeof why, "its checksum fails"), NULL;
	if (m % 8 && data[HEADER + n - 1] >> m % 8)
		return snprintf(why, sizeof why, "bits set past m = %llu", (unsigned long long)m), NULL;
	struct filter *f = made(m, k, get_le(data + 16, 8));
	if (!f)
		return snprintf(why, sizeof why, "out of memory"), NULL;
	memcpy(f->bits, data + HEADER, (size_t)n);
	return f;
}

static int merge(void *p, void *q, const char **reason)
{
	struct filter *f = p, *g = q;
	if (f->m != g->m || f->k != g->k || f->k0 != g->k0) {
		*reason = "m, k and seed must agree";
		return 1;
	}
	for (size_t i = 0; i < (size_t)((f->m + 7) / 8); i++)
		f->bits[i] |= g->bits[i];
	return 0;
}

static double count(void *p, double *sd)
{
	struct filter *f = p;
	double x = 0, m = (double)f->m, k = (double)f->k;
	for (size_t i = 0; i < (size_t)((f->m + 7) / 8); i++)
		for (unsigned b = f->bits[i]; b; b &= b - 1)
			x++;
	if (x >= m) /* every bit set: the count is past any figure; half a bit unset is its lower bound */
		x = m - 0.5;
	double ec = m / (m - x); /* e^c, c = kn/m */
	*sd = sqrt(m) / k * sqrt(fmax(ec - 1 - log(ec), 0));
	return -(m / k) * log1p(-x / m);
}

static const struct bloomlab_adapter adapter = {
	.name = "c/example",
	.about = "a C Bloom filter: SipHash-2-4-128 of the key keyed by the seed, enhanced double hashing mod m, m up to 2^32",
	.seed_bits = 64,
	.create = create,
	.add = add,
	.test = test,
	.destroy = destroy,
	.positions = positions,
	.size = size,
	.save = save,
	.load = load,
	.merge = merge,
	.count = count,
};

int main(void)
{
	return bloomlab_serve(&adapter);
}
