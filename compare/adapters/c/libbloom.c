/*
 * libbloom.c: the bloomlab audit's program protocol (audit/program/PROTOCOL.md,
 * version 1) over Debian's libbloom 1.6 (package libbloom-dev 1.6-6).
 *
 *   gcc -O2 -Wall -Wextra -o libbloom-adapter libbloom.c -lbloom
 *   bloomlab audit --exec -- ./libbloom-adapter
 *   ./libbloom-adapter --plan M K N     prints the mapping of one shape and exits
 *
 * What libbloom 1.6 does (bloom.c and murmur2/MurmurHash2.c at tag v1.6 of
 * github.com/jvirkki/libbloom; the installed libbloom.so.1.6 disassembles to
 * the same bloom_init, and its bit positions match the formula below):
 *
 *   bloom_init(b, int entries, double error) fails (returns 1) when
 *   entries < 1000 or error == 0, then computes, in doubles and ints:
 *       bpe    = -(log(error) / 0.480453013918201)          ln(2)^2
 *       bits   = (int)((double)entries * bpe)
 *       bytes  = bits / 8, plus 1 if bits % 8
 *       hashes = (int)ceil(0.693147180559945 * bpe)          ln(2)
 *   and callocs bytes. bloom_add and bloom_check (len is an int) probe
 *       a = murmurhash2(key, len, 0x9747b28c),  b = murmurhash2(key, len, a)
 *       x_i = (a + i*b) % bits    for i = 0 .. hashes-1, in unsigned 32-bit
 *   arithmetic, so a + i*b wraps mod 2^32 before the % bits. A check stops at
 *   the first clear bit. A key of length 0 is hashed like any other (the
 *   seed alone goes through murmur's final mix). Nothing after bloom_init
 *   reads entries or error: they only size the filter.
 *
 * The mapping: exact m and k, or a refusal. A shape asks for M bits and K
 * hashes for N keys. libbloom takes two numbers, entries and error, and
 * bits and hashes depend on both, so for most shapes some (entries, error)
 * makes libbloom build exactly M bits and K hashes; the filter under audit
 * then is the shape asked, and the standard theory is the right one:
 * "rate standard". For entries the adapter takes N when N reaches the shape
 * (N >= 1000 and ln 2 * M / K <= N < ln 2 * (M + 1) / (K - 1), so that
 * K = ceil(ln 2 * M / N) is libbloom's own choice), otherwise the entries
 * nearest N that do, or else the middle of K's range, entries =
 * M ln 2 / (K - 1/2). For the error it bisects over the doubles of (0, 1),
 * asking bloom_init itself for bits and hashes at each of some 63 trials
 * (each a calloc and a free: 10 ms in all at 10^7 bits): the library's own
 * arithmetic decides, nothing of it is copied here (nor is libm needed),
 * and `new` checks again that the filter it keeps has bits == M and
 * hashes == K. The typical shape 100000 7 10000 becomes
 * bloom_init(10000, 0.0081921558641261192).
 * (Building with entries = N and the error that brings M/N bits a key was
 * the other choice: it gets k = ceil(ln 2 * M / N), not K, and would need a
 * theory of its own; this way the audit tests libbloom at the audit's shape.)
 * Shapes libbloom cannot build exactly are refused with the reason:
 *   - M > 2^31 - 1: bits is an int (and a larger entries * bpe would be
 *     converted out of range, undefined behaviour; x86 gives INT_MIN);
 *   - K above what entries >= 1000 allows: hashes = ceil(ln 2 * bits /
 *     entries) <= ceil(ln 2 * (M + 1) / 1000), so M must be at least about
 *     1442.7 (K - 1): below 1442 bits only k = 1, and k = 7 from 8656 bits;
 *   - K above 1075: error = 2^-k near the least double, 4.9e-324 (error 0 is
 *     refused by libbloom);
 *   - M < 1 or K < 1.
 *
 * Not declared: `can seed`, since libbloom has no seed (its murmur seed is
 * the constant 0x9747b28c) and SEED is read and ignored; `can positions`
 * and `size`, since the positions would need libbloom's murmurhash2 and
 * index arithmetic copied here, free to drift from the library's; `can
 * remove`. `rate`, asked only under `rate ask`, is not answered either.
 *
 * Never called, because they would break the protocol: bloom_check or
 * bloom_add on a filter bloom_init did not make ready (libbloom then
 * printf()s to standard output), bloom_print (standard output too). Also
 * avoided: bloom_init(1000, error in about (0.99952, 1)) returns 0 with
 * bits == 0 and hashes == 1, and its first bloom_add divides by zero
 * (SIGFPE); error == 1 gives bits == hashes == 0, a filter that holds every
 * key. The adapter only builds filters with bits == M >= 1.
 *
 * Input is read with read(2) in 64 KiB blocks into one line buffer, which
 * grows as lines need up to a bound, and a key is decoded in place there.
 * PROTOCOL.md names no longest key; the audit's longest today is 1 MiB and
 * a byte (hashing/whole-key/lengths), and the bound here is keys of 16 MiB,
 * lines of 32 MiB of hex. A longer line, a key that is not hex, a count
 * above 4096, a request on an unknown ID, or any other request writes a
 * message on standard error and exits with status 1.
 */

#define _POSIX_C_SOURCE 200809L

#include <bloom.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum {
	MAX_KEYS = 4096,                 /* keys in one request */
	MAX_KEY_BYTES = 16 << 20,        /* 16 MiB a key */
	MAX_LINE = 2 * MAX_KEY_BYTES + 1 /* its hex, and a \r */
};

static const double LN2 = 0.693147180559945; /* libbloom's constant */

static void die(const char *fmt, ...)
{
	va_list ap;
	fputs("libbloom-adapter: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

/* ---- lines ---- */

static char *line;
static size_t line_cap;

/* grow_line doubles line's buffer, up to a longest line and its NUL. */
static void grow_line(void)
{
	size_t cap = line_cap ? 2 * line_cap : 256;
	if (cap > MAX_LINE + 1)
		cap = MAX_LINE + 1;
	char *p = realloc(line, cap);
	if (!p)
		die("out of memory for a line of %zu bytes", cap);
	line = p;
	line_cap = cap;
}

/* Standard input, read with read(2) into a buffer of our own: fread would
 * wait to fill its buffer while the audit waits for an answer, and getc
 * goes a byte at a time. */
static char input[1 << 16];
static size_t input_at, input_end;

/* refill reads what standard input has, at least a byte; 0 at its end. */
static int refill(void)
{
	for (;;) {
		ssize_t got = read(STDIN_FILENO, input, sizeof input);
		if (got > 0) {
			input_at = 0;
			input_end = (size_t)got;
			return 1;
		}
		if (got == 0)
			return 0;
		if (errno != EINTR)
			die("reading standard input: %s", strerror(errno));
	}
}

/* read_line reads one line into line, without its \n and one \r before it,
 * and returns its length, or -1 at the end of input. */
static long read_line(void)
{
	size_t len = 0;
	for (;;) {
		if (input_at == input_end && !refill()) {
			if (len == 0)
				return -1;
			break; /* a last line without its \n */
		}
		char *from = input + input_at;
		size_t avail = input_end - input_at;
		char *nl = memchr(from, '\n', avail);
		size_t take = nl ? (size_t)(nl - from) : avail;
		if (len + take > MAX_LINE)
			die("a line longer than %d bytes", MAX_LINE);
		while (len + take + 1 > line_cap)
			grow_line();
		memcpy(line + len, from, take);
		len += take;
		input_at += take + (nl != NULL);
		if (nl)
			break;
	}
	if (len > 0 && line[len - 1] == '\r')
		len--;
	line[len] = '\0';
	return (long)len;
}

/* answer writes one answer line and flushes it: the audit waits for it. */
static void answer(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	if (fflush(stdout) != 0)
		die("writing standard output failed");
}

/* parse_u64 reads a decimal number, digits only, that fits in 64 bits. */
static int parse_u64(const char *s, uint64_t *out)
{
	uint64_t v = 0;
	if (*s == '\0')
		return 0;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return 0;
		unsigned d = (unsigned)(*s - '0');
		if (v > (UINT64_MAX - d) / 10)
			return 0;
		v = v * 10 + d;
	}
	*out = v;
	return 1;
}

/* ---- filters by ID ---- */

struct filter {
	uint64_t id;
	struct bloom bloom;
};

static struct filter *filters;
static size_t nfilters, cap_filters;

static struct filter *find(uint64_t id)
{
	for (size_t i = 0; i < nfilters; i++)
		if (filters[i].id == id)
			return &filters[i];
	return NULL;
}

static void keep(uint64_t id, const struct bloom *b)
{
	if (nfilters == cap_filters) {
		size_t cap = cap_filters ? 2 * cap_filters : 8;
		struct filter *p = realloc(filters, cap * sizeof *p);
		if (!p)
			die("out of memory for %zu filters", cap);
		filters = p;
		cap_filters = cap;
	}
	filters[nfilters].id = id;
	filters[nfilters].bloom = *b;
	nfilters++;
}

static void drop(struct filter *f)
{
	bloom_free(&f->bloom);
	*f = filters[--nfilters];
}

/* ---- the mapping of a shape onto bloom_init ---- */

/* trial asks bloom_init what it builds for (entries, error). It returns 0
 * when bloom_init fails, which for error in (0, 1) is entries * bpe
 * beyond an int or no memory: too many bits either way. */
static int trial(int entries, double error, int *bits, int *hashes)
{
	struct bloom b;
	if (bloom_init(&b, entries, error) != 0)
		return 0;
	*bits = b.bits;
	*hashes = b.hashes;
	bloom_free(&b);
	return 1;
}

static double from_pattern(uint64_t u)
{
	double d;
	memcpy(&d, &u, sizeof d);
	return d;
}

/* order compares what bloom_init builds at error to (m, k): > 0 when it
 * builds more (the error is too small), < 0 when less. bits and hashes
 * both fall as the error grows, so the pair falls in this order. */
static int order(int entries, double error, uint64_t m, uint64_t k)
{
	int bits, hashes;
	if (!trial(entries, error, &bits, &hashes))
		return 1;
	if ((uint64_t)bits != m)
		return (uint64_t)bits > m ? 1 : -1;
	if ((uint64_t)hashes != k)
		return (uint64_t)hashes > k ? 1 : -1;
	return 0;
}

/* least_error returns the least error in (0, 1] at which bloom_init(entries,
 * error) builds at most m bits and k hashes (in order's order), by bisection
 * over the bit patterns of the positive doubles, which sort as the doubles
 * do: some 62 trials. */
static double least_error(int entries, uint64_t m, uint64_t k)
{
	uint64_t lo = 1;                            /* 4.9e-324, the least double */
	uint64_t hi = UINT64_C(0x3ff0000000000000); /* 1.0 */
	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;
		if (order(entries, from_pattern(mid), m, k) <= 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return from_pattern(lo);
}

/* error_for returns an error at which bloom_init(entries, error) builds
 * exactly m bits and k hashes, or 0 when there is none. */
static double error_for(int entries, uint64_t m, uint64_t k)
{
	double error = least_error(entries, m, k);
	return error < 1 && order(entries, error, m, k) == 0 ? error : 0;
}

static uint64_t clamp(uint64_t v, uint64_t lo, uint64_t hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

/* plan finds entries and error for which libbloom builds exactly m bits
 * and k hashes. It returns NULL, or the reason it cannot. */
static const char *plan(uint64_t m, uint64_t k, uint64_t n, int *entries, double *error)
{
	static char reason[400];
	if (m < 1 || k < 1)
		return "libbloom needs at least one bit and one hash";
	if (m > INT_MAX) {
		snprintf(reason, sizeof reason,
		         "libbloom 1.6 keeps the bit count in an int: m = %llu is above %d",
		         (unsigned long long)m, INT_MAX);
		return reason;
	}
	int most_bits, most_hashes; /* at the least error, 4.9e-324 */
	if (!trial(1000, from_pattern(1), &most_bits, &most_hashes))
		return "bloom_init(1000, 4.9e-324) failed";
	if (k > (uint64_t)most_hashes) {
		snprintf(reason, sizeof reason,
		         "libbloom takes k = ceil(ln(2) * -ln(error) / ln(2)^2), at most %d with "
		         "the least double error, 4.9e-324",
		         most_hashes);
		return reason;
	}

	/* The entries where k hashes can have m bits, from hashes =
	 * ceil(ln 2 * bits / entries): ln 2 * m / k <= entries <
	 * ln 2 * (m + 1) / (k - 1). N if it is in there, else the nearest;
	 * then the middle of k's range. bloom_init decides. */
	double lo_e = (double)m * LN2 / (double)k;
	uint64_t elo = (uint64_t)lo_e;
	if ((double)elo < lo_e)
		elo++;
	elo = clamp(elo, 1000, INT_MAX);
	uint64_t ehi = k == 1 ? INT_MAX
	                      : clamp((uint64_t)((double)(m + 1) * LN2 / (double)(k - 1)), 0, INT_MAX);
	uint64_t mid = clamp((uint64_t)((double)m * LN2 / ((double)k - 0.5) + 0.5), 1000, INT_MAX);
	uint64_t tries[2] = {clamp(n, elo, ehi >= elo ? ehi : elo), mid};
	for (int i = 0; i < 2; i++) {
		double e = error_for((int)tries[i], m, k);
		if (e > 0) {
			*entries = (int)tries[i];
			*error = e;
			return NULL;
		}
	}

	/* The most hashes m bits can have: at the fewest entries, 1000, and
	 * the least error that still builds only m bits. */
	int bits, hashes;
	double e = least_error(1000, m, UINT64_MAX);
	if (e < 1 && trial(1000, e, &bits, &hashes) && (uint64_t)bits == m)
		snprintf(reason, sizeof reason,
		         "libbloom cannot build m = %llu bits with k = %llu hashes: it takes entries >= 1000 "
		         "and k = ceil(ln 2 * bits / entries), at most k = %d for %llu bits",
		         (unsigned long long)m, (unsigned long long)k, hashes, (unsigned long long)m);
	else
		snprintf(reason, sizeof reason,
		         "no entries and error make libbloom build exactly m = %llu bits with k = %llu hashes",
		         (unsigned long long)m, (unsigned long long)k);
	return reason;
}

/* ---- requests ---- */

static signed char hexval[256];

/* read_key reads the next key line and decodes it in place: the key is
 * the first bytes of line, and read_key returns their number. */
static int read_key(const char *request)
{
	long len = read_line();
	if (len < 0)
		die("the input ended in the keys of \"%s\"", request);
	if (len % 2)
		die("a key line of odd length %ld in \"%s\"", len, request);
	unsigned char *s = (unsigned char *)line;
	for (long i = 0; i < len / 2; i++) {
		int hi = hexval[s[2 * i]], lo = hexval[s[2 * i + 1]];
		if (hi < 0 || lo < 0)
			die("a key line that is not hex in \"%s\"", request);
		s[i] = (unsigned char)(hi << 4 | lo); /* i <= 2i: read before written */
	}
	return (int)(len / 2);
}

static void handshake(void)
{
	if (read_line() < 0)
		die("no handshake");
	if (strcmp(line, "bloomlab-audit 1") != 0)
		die("unknown handshake \"%.80s\" (this adapter speaks \"bloomlab-audit 1\")", line);
	printf("hello libbloom\n"
	       "about libbloom %s (Debian libbloom-dev), murmurhash2 double hashing (a + i*b) mod 2^32 mod m, "
	       "m and k exact through bloom_init(entries, error)\n"
	       "rate standard\n",
	       bloom_version());
	answer("ready");
}

static void new_filter(char **f, const char *request)
{
	uint64_t id, m, k, n, seed;
	if (!parse_u64(f[1], &id) || !parse_u64(f[2], &m) || !parse_u64(f[3], &k) ||
	    !parse_u64(f[4], &n) || !parse_u64(f[5], &seed))
		die("a number that is not decimal in \"%s\"", request);
	(void)seed; /* libbloom has no seed, and "can seed" is not declared */
	if (find(id))
		die("filter %llu exists already: \"%s\"", (unsigned long long)id, request);

	int entries;
	double error;
	const char *why = plan(m, k, n, &entries, &error);
	if (why) {
		answer("refused %s", why);
		return;
	}
	struct bloom b;
	if (bloom_init(&b, entries, error) != 0) {
		answer("refused bloom_init(%d, %.17g) failed (out of memory?)", entries, error);
		return;
	}
	if ((uint64_t)b.bits != m || (uint64_t)b.hashes != k) {
		answer("refused bloom_init(%d, %.17g) built %d bits and %d hashes", entries, error,
		       b.bits, b.hashes);
		bloom_free(&b);
		return;
	}
	keep(id, &b);
	answer("ok");
}

static void keyed(char **f, const char *request, int testing)
{
	uint64_t id, count;
	if (!parse_u64(f[1], &id) || !parse_u64(f[2], &count))
		die("a number that is not decimal in \"%s\"", request);
	if (count > MAX_KEYS)
		die("%llu keys in one request, above %d: \"%s\"", (unsigned long long)count, MAX_KEYS,
		    request);
	struct filter *flt = find(id);
	if (!flt)
		die("no filter %llu: \"%s\"", (unsigned long long)id, request);

	static char bits[MAX_KEYS + 1];
	for (uint64_t i = 0; i < count; i++) {
		int len = read_key(request);
		if (testing)
			bits[i] = bloom_check(&flt->bloom, line, len) == 1 ? '1' : '0';
		else
			bloom_add(&flt->bloom, line, len);
	}
	bits[count] = '\0';
	answer("%s", testing ? bits : "ok");
}

static void free_all(void)
{
	while (nfilters > 0)
		drop(&filters[nfilters - 1]);
}

static void serve(void)
{
	handshake();
	for (;;) {
		if (read_line() < 0)
			break; /* the audit closed the pipe: as good as bye */
		char request[96];
		snprintf(request, sizeof request, "%s", line);

		char *f[7];
		int nf = 0;
		for (char *p = line; nf < 7;) {
			f[nf++] = p;
			p = strchr(p, ' ');
			if (!p)
				break;
			*p++ = '\0';
		}
		if (nf == 6 && strcmp(f[0], "new") == 0)
			new_filter(f, request);
		else if (nf == 3 && strcmp(f[0], "add") == 0)
			keyed(f, request, 0);
		else if (nf == 3 && strcmp(f[0], "test") == 0)
			keyed(f, request, 1);
		else if (nf == 2 && strcmp(f[0], "free") == 0) {
			uint64_t id;
			struct filter *flt;
			if (!parse_u64(f[1], &id) || !(flt = find(id)))
				die("no filter to free: \"%s\"", request);
			drop(flt);
			answer("ok");
		} else if (nf == 1 && strcmp(f[0], "bye") == 0)
			break;
		else
			die("unknown request \"%s\"", request);
	}
	free_all();
}

int main(int argc, char **argv)
{
	if (argc == 5 && strcmp(argv[1], "--plan") == 0) {
		uint64_t m, k, n;
		int entries, bits, hashes;
		double error;
		if (!parse_u64(argv[2], &m) || !parse_u64(argv[3], &k) || !parse_u64(argv[4], &n))
			die("usage: libbloom-adapter [--plan M K N]");
		const char *why = plan(m, k, n, &entries, &error);
		if (why)
			printf("refused %s\n", why);
		else if (trial(entries, error, &bits, &hashes))
			printf("bloom_init(%d, %.17g): bits %d hashes %d\n", entries, error, bits, hashes);
		return 0;
	}
	if (argc != 1)
		die("usage: libbloom-adapter [--plan M K N]");

	memset(hexval, -1, sizeof hexval);
	for (int i = 0; i < 10; i++)
		hexval['0' + i] = (signed char)i;
	for (int i = 0; i < 6; i++)
		hexval['a' + i] = hexval['A' + i] = (signed char)(10 + i);

	serve();
	free(filters);
	free(line);
	return 0;
}
