/*
 * bloomlab_protocol.h serves the bloomlab audit's program protocol, version 1
 * (audit/program/PROTOCOL.md), so that an adapter in C is its filter's
 * callbacks and one call. C99 and libc (POSIX getline), nothing else:
 *
 *   #define BLOOMLAB_PROTOCOL_IMPLEMENTATION   in one file, before the include
 *   #include "bloomlab_protocol.h"             first: it asks for POSIX 2008
 *
 *   static const struct bloomlab_adapter adapter = {
 *       .name = "myfilter", .seed_bits = 64,
 *       .create = my_create, .add = my_add, .test = my_test, .destroy = my_destroy,
 *   };
 *   int main(void) { return bloomlab_serve(&adapter); }
 *
 * What the struct sets is what the handshake declares: seed_bits 64 is
 * "can seed", 1 to 63 "can seed BITS" (the audit then sends SEED < 2^BITS),
 * 0 no seed; remove is "can remove"; positions and size together are "can
 * positions"; rate is "standard" (NULL says so too), "blocked 512" or
 * "ask" with rate_of; save and load together are "can save", merge "can
 * merge", count "can count".
 *
 * create gets M, K, N and SEED as parsed, exactly (M reaches 2^63 + 1, SEED
 * 2^64 - 1); it returns the filter, or NULL with *reason set to a sentence
 * (static, or alive until the next call) to answer "refused REASON". A key
 * is its bytes and length, valid for the call only; the empty key has
 * length 0 and a non-NULL pointer. positions reports each position with
 * bloomlab_put, in probe order. destroy gets every filter the kit frees,
 * at free, at bye and at the end of the input.
 *
 * save writes the filter's file, in its own format, with bloomlab_write
 * (any number of calls; at most 16 MiB in all, BLOOMLAB_MAX_FILE). load
 * reads such a file, data and len, valid for the call: it returns a new
 * filter, or NULL with *reason set to refuse the file. merge takes other's
 * keys into filter: 0, or non-zero with *reason set to refuse (another m, k
 * or seed). count returns the keys the filter estimates it holds, and sets
 * *sd, which comes as -1, where the library states a standard deviation.
 *
 * Lines are read with getline, so a key may be any length; an answer is
 * written and flushed once a request. What has no answer in the protocol
 * (an unknown request, a number that is not decimal or past 2^64 - 1, a key
 * that is not hex, a request on a filter never built) writes one line on
 * stderr, frees every filter and returns 1; bye and the end of the input
 * outside a request return 0.
 */
#ifndef BLOOMLAB_PROTOCOL_H
#define BLOOMLAB_PROTOCOL_H

#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L /* getline */
#endif

#include <stddef.h>
#include <stdint.h>

/* bloomlab_positions is where positions reports a key's positions, and
 * bloomlab_file where save writes a file. */
struct bloomlab_positions;
struct bloomlab_file;

enum { BLOOMLAB_MAX_FILE = 16 << 20 }; /* bytes of a saved filter (PROTOCOL.md) */

struct bloomlab_adapter {
	const char *name;  /* hello NAME: one word */
	const char *about; /* one line on what the program is, or NULL */
	int seed_bits;     /* 0, or 1 to 64: the seed bits create takes */
	const char *rate;  /* NULL or "standard", "blocked 512", "ask" */

	void *(*create)(uint64_t m, uint64_t k, uint64_t n, uint64_t seed, const char **reason);
	void (*add)(void *filter, const unsigned char *key, size_t len);
	int (*test)(void *filter, const unsigned char *key, size_t len); /* non-zero: may be a member */
	void (*destroy)(void *filter);

	/* Optional: NULL is not declared. */
	int (*remove)(void *filter, const unsigned char *key, size_t len); /* non-zero: removed */
	void (*positions)(void *filter, const unsigned char *key, size_t len, struct bloomlab_positions *out);
	uint64_t (*size)(void *filter);
	double (*rate_of)(uint64_t m, uint64_t k, uint64_t n);
	void (*save)(void *filter, struct bloomlab_file *out);
	void *(*load)(const unsigned char *data, size_t len, const char **reason);
	int (*merge)(void *filter, void *other, const char **reason); /* non-zero: refused */
	double (*count)(void *filter, double *sd);
};

/* bloomlab_serve serves the protocol on stdin and stdout until bye or the
 * end of the input (0), or a request with no answer (1, said on stderr). */
int bloomlab_serve(const struct bloomlab_adapter *adapter);

/* bloomlab_put reports the next of a key's positions, from positions. */
void bloomlab_put(struct bloomlab_positions *out, uint64_t position);

/* bloomlab_write writes the next len bytes of a file, from save. */
void bloomlab_write(struct bloomlab_file *out, const void *bytes, size_t len);

#ifdef BLOOMLAB_PROTOCOL_IMPLEMENTATION

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { BLOOMLAB_MAX_KEYS = 4096 }; /* keys in one request (PROTOCOL.md) */

struct bloomlab_positions {
	int count; /* positions put for the key so far */
};

struct bloomlab_file {
	size_t len; /* bytes written so far */
};

struct bloomlab_filter {
	char *id; /* as the audit named it */
	void *filter;
};

/* The state of the one loop a process runs. */
static struct {
	const struct bloomlab_adapter *a;
	char *line; /* getline's buffer: the line being served */
	size_t cap;
	size_t len;
	char request[128]; /* the request being served, clipped, for errors */
	struct bloomlab_filter *filters;
	size_t nfilters, capfilters;
	signed char hex[256];
} bloomlab_;

void bloomlab_put(struct bloomlab_positions *out, uint64_t position)
{
	printf(out->count++ ? " %" PRIu64 : "%" PRIu64, position);
}

void bloomlab_write(struct bloomlab_file *out, const void *bytes, size_t len)
{
	const unsigned char *b = bytes;
	for (size_t i = 0; i < len && out->len + i < BLOOMLAB_MAX_FILE; i++)
		printf("%02x", b[i]);
	out->len += len;
}

/* bloomlab_fail_ says why there is no answer, on stderr. */
static int bloomlab_fail_(const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "%s: ", bloomlab_.a->name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, ", serving \"%s\"\n", bloomlab_.request);
	return -1;
}

/* bloomlab_read_ reads a line without its \n and one \r before it, NUL
 * ended, into bloomlab_.line: 1, or 0 at the end of the input. */
static int bloomlab_read_(void)
{
	ssize_t n = getline(&bloomlab_.line, &bloomlab_.cap, stdin);
	if (n < 0)
		return 0;
	if (n > 0 && bloomlab_.line[n - 1] == '\n')
		n--;
	if (n > 0 && bloomlab_.line[n - 1] == '\r')
		n--;
	bloomlab_.line[n] = '\0';
	bloomlab_.len = (size_t)n;
	return 1;
}

/* bloomlab_u64_ parses a field of decimal digits only (strtoull would take
 * spaces and a sign) that fits in 64 bits. */
static int bloomlab_u64_(const char *s, uint64_t *v)
{
	if (*s == '\0' || strspn(s, "0123456789") != strlen(s))
		return bloomlab_fail_("\"%s\" is not a decimal number", s);
	errno = 0;
	unsigned long long u = strtoull(s, NULL, 10);
#if ULLONG_MAX > UINT64_MAX
	if (u > UINT64_MAX)
		errno = ERANGE;
#endif
	if (errno == ERANGE)
		return bloomlab_fail_("%s is past 2^64 - 1", s);
	*v = (uint64_t)u;
	return 0;
}

/* bloomlab_key_ reads the next key line and decodes it in place: the key
 * is the first *len bytes of the line. */
static int bloomlab_key_(const unsigned char **key, size_t *len)
{
	if (!bloomlab_read_())
		return bloomlab_fail_("the input ended inside a request");
	unsigned char *s = (unsigned char *)bloomlab_.line;
	if (bloomlab_.len % 2)
		return bloomlab_fail_("a key line of odd length %zu", bloomlab_.len);
	for (size_t i = 0; i < bloomlab_.len / 2; i++) {
		int hi = bloomlab_.hex[s[2 * i]], lo = bloomlab_.hex[s[2 * i + 1]];
		if (hi < 0 || lo < 0)
			return bloomlab_fail_("a key line that is not hex, \"%.40s\"", bloomlab_.line);
		s[i] = (unsigned char)(hi << 4 | lo); /* i <= 2i: read before written */
	}
	*key = s;
	*len = bloomlab_.len / 2;
	return 0;
}

static struct bloomlab_filter *bloomlab_find_(const char *id)
{
	for (size_t i = 0; i < bloomlab_.nfilters; i++)
		if (strcmp(bloomlab_.filters[i].id, id) == 0)
			return &bloomlab_.filters[i];
	return NULL;
}

static void bloomlab_drop_(struct bloomlab_filter *f)
{
	bloomlab_.a->destroy(f->filter);
	free(f->id);
	*f = bloomlab_.filters[--bloomlab_.nfilters];
}

static int bloomlab_named_(const char *id, void *filter, const char *reason);

/* bloomlab_new_ answers new ID M K N SEED. */
static int bloomlab_new_(char **f)
{
	uint64_t m, k, n, seed;
	if (bloomlab_u64_(f[2], &m) || bloomlab_u64_(f[3], &k) || bloomlab_u64_(f[4], &n) ||
	    bloomlab_u64_(f[5], &seed))
		return -1;
	int bits = bloomlab_.a->seed_bits;
	if (bits > 0 && bits < 64 && seed >> bits)
		return bloomlab_fail_("seed %" PRIu64 " is not below 2^%d", seed, bits);
	if (bloomlab_find_(f[1]))
		return bloomlab_fail_("filter %s exists already", f[1]);
	const char *reason = NULL;
	void *filter = bloomlab_.a->create(m, k, n, seed, &reason); /* before reason is read */
	return bloomlab_named_(f[1], filter, reason);
}

/* bloomlab_refused_ answers refused REASON, the reason on one line. */
static int bloomlab_refused_(const char *reason)
{
	if (!reason || !reason[strspn(reason, " \t\r\n")])
		reason = "no reason given";
	fputs("refused", stdout);
	for (const char *r = reason; *r;) { /* one line: each run of white space one space */
		size_t space = strspn(r, " \t\r\n"), word = strcspn(r + space, " \t\r\n");
		if (word)
			printf(" %.*s", (int)word, r + space);
		r += space + word;
	}
	putchar('\n');
	return 0;
}

/* bloomlab_named_ answers a request that names a new filter (new, load):
 * ok and the filter kept as id, or refused REASON. */
static int bloomlab_named_(const char *id, void *filter, const char *reason)
{
	if (!filter)
		return bloomlab_refused_(reason);
	if (bloomlab_.nfilters == bloomlab_.capfilters) {
		size_t cap = bloomlab_.capfilters ? 2 * bloomlab_.capfilters : 8;
		struct bloomlab_filter *p = realloc(bloomlab_.filters, cap * sizeof *p);
		if (!p) {
			bloomlab_.a->destroy(filter);
			return bloomlab_fail_("out of memory for %zu filters", cap);
		}
		bloomlab_.filters = p;
		bloomlab_.capfilters = cap;
	}
	char *copy = malloc(strlen(id) + 1);
	if (!copy) {
		bloomlab_.a->destroy(filter);
		return bloomlab_fail_("out of memory");
	}
	strcpy(copy, id);
	bloomlab_.filters[bloomlab_.nfilters].id = copy;
	bloomlab_.filters[bloomlab_.nfilters].filter = filter;
	bloomlab_.nfilters++;
	puts("ok");
	return 0;
}

/* bloomlab_load_ answers load ID BYTES and the file's line. */
static int bloomlab_load_(char **f)
{
	uint64_t size;
	if (bloomlab_u64_(f[2], &size))
		return -1;
	if (size > BLOOMLAB_MAX_FILE)
		return bloomlab_fail_("a file of %" PRIu64 " bytes, past %d", size, BLOOMLAB_MAX_FILE);
	if (bloomlab_find_(f[1]))
		return bloomlab_fail_("filter %s exists already", f[1]);
	char *id = malloc(strlen(f[1]) + 1); /* f[1] lives in the line the file's replaces */
	if (!id)
		return bloomlab_fail_("out of memory");
	strcpy(id, f[1]);
	const unsigned char *data = NULL;
	size_t len = 0;
	int rc = bloomlab_key_(&data, &len);
	if (rc == 0 && len != size)
		rc = bloomlab_fail_("a file line of %zu bytes, not %" PRIu64, len, size);
	if (rc == 0) {
		const char *reason = NULL;
		void *filter = bloomlab_.a->load(data, len, &reason); /* before reason is read */
		rc = bloomlab_named_(id, filter, reason);
	}
	free(id);
	return rc;
}

/* bloomlab_number_ writes x, the shortest of 15 to 17 digits that reads back. */
static void bloomlab_number_(double x)
{
	char text[32];
	for (int digits = 15; digits <= 17; digits++) {
		snprintf(text, sizeof text, "%.*g", digits, x);
		if (strtod(text, NULL) == x)
			break;
	}
	fputs(text, stdout);
}

/* bloomlab_system_ answers save, merge and count ID. */
static int bloomlab_system_(const char *op, char **f)
{
	const struct bloomlab_adapter *a = bloomlab_.a;
	struct bloomlab_filter *flt = bloomlab_find_(f[1]);
	if (!flt)
		return bloomlab_fail_("no filter %s", f[1]);
	if (!strcmp(op, "save")) {
		struct bloomlab_file out = {0};
		a->save(flt->filter, &out);
		if (out.len > BLOOMLAB_MAX_FILE)
			return bloomlab_fail_("save wrote %zu bytes, past the protocol's %d", out.len, BLOOMLAB_MAX_FILE);
		putchar('\n');
		return 0;
	}
	if (!strcmp(op, "merge")) {
		struct bloomlab_filter *other = bloomlab_find_(f[2]);
		if (!other)
			return bloomlab_fail_("no filter %s", f[2]);
		const char *reason = NULL;
		if (a->merge(flt->filter, other->filter, &reason))
			return bloomlab_refused_(reason);
		puts("ok");
		return 0;
	}
	double sd = -1, n = a->count(flt->filter, &sd);
	if (!(n >= 0) || isinf(n) || isnan(sd) || isinf(sd))
		return bloomlab_fail_("count is %g, sd %g: want finite numbers from 0 up", n, sd);
	bloomlab_number_(n + 0.0); /* -0 is 0 */
	if (sd >= 0) {
		putchar(' ');
		bloomlab_number_(sd + 0.0);
	}
	putchar('\n');
	return 0;
}

/* bloomlab_keyed_ answers add, test, remove and positions ID COUNT. */
static int bloomlab_keyed_(const char *op, char **f)
{
	const struct bloomlab_adapter *a = bloomlab_.a;
	struct bloomlab_filter *flt = bloomlab_find_(f[1]);
	uint64_t count;
	if (!flt)
		return bloomlab_fail_("no filter %s", f[1]);
	if (bloomlab_u64_(f[2], &count))
		return -1;
	if (count > BLOOMLAB_MAX_KEYS)
		return bloomlab_fail_("more than %d keys", BLOOMLAB_MAX_KEYS);
	static char answer[BLOOMLAB_MAX_KEYS + 1];
	for (uint64_t i = 0; i < count; i++) {
		const unsigned char *key = NULL;
		size_t len = 0;
		if (bloomlab_key_(&key, &len))
			return -1;
		if (op[0] == 'a')
			a->add(flt->filter, key, len);
		else if (op[0] == 't')
			answer[i] = a->test(flt->filter, key, len) ? '1' : '0';
		else if (op[0] == 'r')
			answer[i] = a->remove(flt->filter, key, len) ? '1' : '0';
		else {
			struct bloomlab_positions out = {0};
			a->positions(flt->filter, key, len, &out);
			putchar('\n');
		}
	}
	answer[count] = '\0';
	if (op[0] == 'a')
		puts("ok");
	else if (op[0] != 'p')
		puts(answer);
	return 0;
}

/* bloomlab_request_ answers one request: 0, 1 after bye, -1 for none. */
static int bloomlab_request_(void)
{
	static const struct {
		const char *op;
		int fields;
		const char *usage;
	} usage[] = {
		{"new", 6, "new ID M K N SEED"}, {"add", 3, "add ID COUNT"},
		{"test", 3, "test ID COUNT"},    {"remove", 3, "remove ID COUNT"},
		{"positions", 3, "positions ID COUNT"}, {"size", 2, "size ID"},
		{"rate", 4, "rate M K N"},       {"free", 2, "free ID"},
		{"save", 2, "save ID"},          {"load", 3, "load ID BYTES"},
		{"merge", 3, "merge ID OTHER"},  {"count", 2, "count ID"},
		{"bye", 1, "bye"},
	};
	const struct bloomlab_adapter *a = bloomlab_.a;
	char *f[7];
	int nf = 0;
	for (char *p = bloomlab_.line; nf < 7;) {
		f[nf++] = p;
		if (!(p = strchr(p, ' ')))
			break;
		*p++ = '\0';
	}
	size_t u = 0, nu = sizeof usage / sizeof usage[0];
	while (u < nu && strcmp(f[0], usage[u].op) != 0)
		u++;
	if (u == nu)
		return bloomlab_fail_("unknown request");
	if (nf != usage[u].fields)
		return bloomlab_fail_("want %s", usage[u].usage);
	const char *op = usage[u].op;
	int ask = a->rate && strcmp(a->rate, "ask") == 0;
	if ((!strcmp(op, "remove") && !a->remove) || (!strcmp(op, "positions") && !a->positions) ||
	    (!strcmp(op, "size") && !a->size) || (!strcmp(op, "rate") && !ask) ||
	    (!strcmp(op, "save") && !a->save) || (!strcmp(op, "load") && !a->load) ||
	    (!strcmp(op, "merge") && !a->merge) || (!strcmp(op, "count") && !a->count))
		return bloomlab_fail_("%s is not declared", op);

	if (!strcmp(op, "new"))
		return bloomlab_new_(f);
	if (!strcmp(op, "size")) {
		struct bloomlab_filter *flt = bloomlab_find_(f[1]);
		if (!flt)
			return bloomlab_fail_("no filter %s", f[1]);
		printf("%" PRIu64 "\n", a->size(flt->filter));
		return 0;
	}
	if (!strcmp(op, "rate")) {
		uint64_t m, k, n;
		if (bloomlab_u64_(f[1], &m) || bloomlab_u64_(f[2], &k) || bloomlab_u64_(f[3], &n))
			return -1;
		bloomlab_number_(a->rate_of(m, k, n));
		putchar('\n');
		return 0;
	}
	if (!strcmp(op, "load"))
		return bloomlab_load_(f);
	if (!strcmp(op, "save") || !strcmp(op, "merge") || !strcmp(op, "count"))
		return bloomlab_system_(op, f);
	if (!strcmp(op, "free")) { /* any ID: the audit may free one it named and was refused */
		struct bloomlab_filter *flt = bloomlab_find_(f[1]);
		if (flt)
			bloomlab_drop_(flt);
		puts("ok");
		return 0;
	}
	if (!strcmp(op, "bye"))
		return 1;
	return bloomlab_keyed_(op, f);
}

/* bloomlab_handshake_ answers bloomlab-audit 1 with the declarations. */
static int bloomlab_handshake_(void)
{
	const struct bloomlab_adapter *a = bloomlab_.a;
	if (!bloomlab_read_() || strcmp(bloomlab_.line, "bloomlab-audit 1") != 0)
		return bloomlab_fail_("want bloomlab-audit 1 first, this adapter speaks version 1 only");
	printf("hello %s\n", a->name);
	if (a->about)
		printf("about %s\n", a->about);
	if (a->seed_bits == 64)
		puts("can seed");
	else if (a->seed_bits > 0)
		printf("can seed %d\n", a->seed_bits);
	if (a->remove)
		puts("can remove");
	if (a->positions)
		puts("can positions");
	if (a->save)
		puts("can save");
	if (a->merge)
		puts("can merge");
	if (a->count)
		puts("can count");
	printf("rate %s\nready\n", a->rate ? a->rate : "standard");
	return 0;
}

/* bloomlab_check_ says what is wrong with the adapter's own struct. */
static const char *bloomlab_check_(const struct bloomlab_adapter *a)
{
	if (!a->name || !*a->name || strpbrk(a->name, " \t\r\n"))
		return "name must be one word";
	if (a->about && strpbrk(a->about, "\r\n"))
		return "about must be one line";
	if (!a->create || !a->add || !a->test || !a->destroy)
		return "create, add, test and destroy are required";
	if (a->seed_bits < 0 || a->seed_bits > 64)
		return "seed_bits must be from 0 to 64";
	if (!a->positions != !a->size)
		return "positions and size come together";
	if (!a->save != !a->load)
		return "save and load come together";
	int ask = a->rate && strcmp(a->rate, "ask") == 0;
	if (a->rate && !ask && strcmp(a->rate, "standard") != 0 && strcmp(a->rate, "blocked 512") != 0)
		return "rate must be NULL, \"standard\", \"blocked 512\" or \"ask\"";
	if (ask != !!a->rate_of)
		return "rate_of comes with rate \"ask\", and only then";
	return NULL;
}

int bloomlab_serve(const struct bloomlab_adapter *adapter)
{
	const char *wrong = bloomlab_check_(adapter);
	if (wrong) {
		fprintf(stderr, "bloomlab_protocol.h: %s\n", wrong);
		return 1;
	}
	bloomlab_.a = adapter;
	memset(bloomlab_.hex, -1, sizeof bloomlab_.hex);
	for (int i = 0; i < 10; i++)
		bloomlab_.hex['0' + i] = (signed char)i;
	for (int i = 0; i < 6; i++)
		bloomlab_.hex['a' + i] = bloomlab_.hex['A' + i] = (signed char)(10 + i);

	int rc = bloomlab_handshake_();
	while (rc == 0 && fflush(stdout) == 0 && bloomlab_read_()) {
		snprintf(bloomlab_.request, sizeof bloomlab_.request, "%s", bloomlab_.line);
		rc = bloomlab_request_();
	}
	if (rc == 0 && ferror(stdout))
		rc = bloomlab_fail_("writing standard output failed");
	while (bloomlab_.nfilters > 0)
		bloomlab_drop_(&bloomlab_.filters[bloomlab_.nfilters - 1]);
	free(bloomlab_.filters);
	free(bloomlab_.line);
	fflush(stdout);
	return rc < 0;
}

#endif /* BLOOMLAB_PROTOCOL_IMPLEMENTATION */
#endif /* BLOOMLAB_PROTOCOL_H */
