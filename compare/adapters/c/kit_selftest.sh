#!/usr/bin/env bash
# kit_selftest.sh: builds example.c and a toy adapter on bloomlab_protocol.h
# into a temporary directory, warning-free as C99 -pedantic, checks the
# example's SipHash-2-4-128 against the reference vectors, then drives both
# through the same scripted sessions as the Python kit (../python/selftest.py),
# under valgrind when it is installed.
#
#   compare/adapters/c/kit_selftest.sh        needs gcc and python3 (valgrind optional)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0

fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }
pass() { echo "ok:   $*"; }

# build NAME SOURCE: warning-free as documented, and as strict C99.
build() {
	if gcc -std=c99 -pedantic -O2 -Wall -Wextra -I"$here" -o "$tmp/$1" "$2" -lm 2>"$tmp/$1.warnings" &&
		[ ! -s "$tmp/$1.warnings" ]; then
		pass "$1 builds as C99 -pedantic without warnings"
	else
		fail "$1 build:"; cat "$tmp/$1.warnings" >&2
	fi
}

build example "$here/example.c"

# The toy: the kit's every declaration, the twin of selftest.py's toy().
cat >"$tmp/toy.c" <<'EOF'
#define BLOOMLAB_PROTOCOL_IMPLEMENTATION
#include "bloomlab_protocol.h"

#include <stdio.h>
#include <stdlib.h>

struct toy { uint64_t m, seed; unsigned char set[257]; };

static size_t slot(const unsigned char *key, size_t len) { return len ? key[0] : 256; }

static void *create(uint64_t m, uint64_t k, uint64_t n, uint64_t seed, const char **reason)
{
	(void)n;
	if (m == 13) { *reason = "thirteen\nis   unlucky"; return NULL; }
	if (k == 0) { *reason = ""; return NULL; }
	struct toy *t = calloc(1, sizeof *t);
	if (t) t->m = m, t->seed = seed;
	return t;
}
static void add(void *t, const unsigned char *key, size_t len) { ((struct toy *)t)->set[slot(key, len)] = 1; }
static int test(void *t, const unsigned char *key, size_t len) { return ((struct toy *)t)->set[slot(key, len)]; }
static int removed(void *p, const unsigned char *key, size_t len)
{
	struct toy *t = p;
	int had = t->set[slot(key, len)];
	t->set[slot(key, len)] = 0;
	return had;
}
static void positions(void *t, const unsigned char *key, size_t len, struct bloomlab_positions *out)
{
	bloomlab_put(out, slot(key, len));
	bloomlab_put(out, ((struct toy *)t)->seed);
}
static uint64_t size(void *t) { return ((struct toy *)t)->m; }
static double rate_of(uint64_t m, uint64_t k, uint64_t n) { (void)m, (void)k, (void)n; return 0.1; }
/* The file: m in 8 bytes, little-endian, then a bit a slot in 33 bytes. */
static void save(void *p, struct bloomlab_file *out)
{
	struct toy *t = p;
	unsigned char file[41] = {0};
	for (int i = 0; i < 8; i++) file[i] = (unsigned char)(t->m >> 8 * i);
	for (int s = 0; s < 257; s++) file[8 + s / 8] |= (unsigned char)(t->set[s] << s % 8);
	bloomlab_write(out, file, 8), bloomlab_write(out, file + 8, 33); /* in two writes, as a library might */
}
static void *load(const unsigned char *data, size_t len, const char **reason)
{
	static char why[64];
	struct toy *t = len == 41 ? calloc(1, sizeof *t) : NULL;
	if (!t) { snprintf(why, sizeof why, "a toy file is 41 bytes, not %zu", len), *reason = why; return NULL; }
	for (int i = 7; i >= 0; i--) t->m = t->m << 8 | data[i];
	for (int s = 0; s < 257; s++) t->set[s] = data[8 + s / 8] >> s % 8 & 1;
	return t;
}
static int merge(void *p, void *q, const char **reason)
{
	static char why[64];
	struct toy *t = p, *u = q;
	if (t->m != u->m) {
		snprintf(why, sizeof why, "m differs: %llu and %llu", (unsigned long long)t->m, (unsigned long long)u->m);
		*reason = why;
		return 1;
	}
	for (int s = 0; s < 257; s++) t->set[s] |= u->set[s];
	return 0;
}
static double count(void *p, double *sd)
{
	struct toy *t = p;
	int n = 0;
	(void)sd; /* the toy states no deviation */
	for (int s = 0; s < 257; s++) n += t->set[s];
	return n;
}

static const struct bloomlab_adapter toy = {
	.name = "kit/toy", .about = "the kits' scripted test", .seed_bits = 20, .rate = "ask",
	.create = create, .add = add, .test = test, .destroy = free,
	.remove = removed, .positions = positions, .size = size, .rate_of = rate_of,
	.save = save, .load = load, .merge = merge, .count = count,
};

int main(void) { return bloomlab_serve(&toy); }
EOF
build toy "$tmp/toy.c"

# SipHash-2-4-128 of the reference key 00..0f over the messages 00..(i-1):
# the reference vectors (audit/sipvectors.go holds all 64).
cat >"$tmp/vectors.c" <<EOF
#define main example_main
#include "$here/example.c"
#undef main
int main(void)
{
	static const uint64_t want[][3] = {
		{0, 0xe6a825ba047f81a3, 0x930255c71472f66d}, {1, 0x44af996bd8c187da, 0x45fc229b11597634},
		{7, 0x53c1dbd8beebf1a1, 0x3982f01fa64ab8c0}, {8, 0x61f55862baa9623b, 0xb49714f364e2830f},
		{15, 0x11a8b03399e99354, 0xd9c3cf970fec087e}, {63, 0x4a83502f77d15051, 0x7cbd3f979a063e50},
	};
	unsigned char in[64];
	int bad = 0;
	for (int i = 0; i < 64; i++)
		in[i] = (unsigned char)i;
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		uint64_t h[2];
		sip128(0x0706050403020100, 0x0f0e0d0c0b0a0908, in, (size_t)want[i][0], h);
		if (h[0] != want[i][1] || h[1] != want[i][2])
			bad++, printf("length %d: %016llx %016llx\n", (int)want[i][0], (unsigned long long)h[0], (unsigned long long)h[1]);
	}
	return bad;
}
EOF
if gcc -O2 -o "$tmp/vectors" "$tmp/vectors.c" -lm && "$tmp/vectors" >"$tmp/vectors.out"; then
	pass "example's SipHash-2-4-128 matches the reference vectors"
else
	fail "SipHash vectors:"; cat "$tmp/vectors.out" >&2
fi

run=""
if command -v valgrind >/dev/null; then
	run="valgrind -q --error-exitcode=9 --leak-check=full --errors-for-leak-kinds=all"
	echo "sessions under valgrind: an invalid access or a leak exits 9"
else
	echo "skip: valgrind is not installed, sessions run bare"
fi
if python3 -B "$here/../python/selftest.py" --example "$run $tmp/example" --toy "$run $tmp/toy"; then
	pass "the sessions of selftest.py"
else
	fail "the sessions of selftest.py"
fi

if [ $fails -gt 0 ]; then echo "kit_selftest: $fails failed" >&2; exit 1; fi
echo "kit_selftest: all passed"
