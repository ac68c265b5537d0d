/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Differential test of event filters: random filters over random records of
 * two formats must get the same verdict from uft's engine and from
 * libtraceevent's (tep_filter_match) on the format text uft prints, and
 * uft's specialised instructions the verdict of the predicates they were
 * lowered from, on whole and on cut records.
 *
 * UFT_FILTER_DIFF_SEED=N and UFT_FILTER_DIFF_CASES=N run other or longer
 * campaigns (default seed 1, 4000 filters, 8 records each).
 *
 * Where libtraceevent is not the kernel, the filter it is given is rewritten
 * to mean what the kernel's does, and the cases it cannot express are not
 * generated (docs/design/filters.md, "Differential test"):
 * - `~` is a glob in the kernel, `=~` a case-insensitive regex in
 *   libtraceevent: the glob becomes the anchored regex (`*` `.*`, `?` `.`,
 *   `[!x]` `[^x]`), a leading `!` in the pattern becomes `!~`; strings and
 *   patterns use lower-case letters only, so case does not matter.
 * - libtraceevent compares numbers as unsigned 64-bit values of the
 *   sign-extended field and takes no negative constant: a signed field's
 *   `<`, `<=`, `>`, `>=` become two unsigned tests around 2^63, a negative
 *   constant its 64-bit two's complement.
 * - `&` is an arithmetic operator there: `F & C` becomes `(F & C)` (non-zero is true),
 *   with C within the field's bits.
 * - `==` and `!=` on strings take literal strings (no metacharacters).
 * - Constants stay within the field's type (the kernel truncates, libtraceevent
 *   does not); __data_loc strings hold their NUL (libtraceevent reads past a
 *   string without one); COMM, CPUS{}, .function, pointers are not generated.
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <event-parse.h>

#include "engine/filter/filter.h"
#include "engine/filter/filter_run.h"
#include "engine/format/format.h"

/* libtraceevent's filter parser leaks a string per filter; not ours to fix,
 * so LeakSanitizer looks away while it runs. */
#include "lsan_pause.h"

#define MAXF 16
#define REC_MAX 256

struct fmt {
	const char *name;
	unsigned id;
	struct uft_field f[MAXF];
	uint32_t nr;
	uint32_t fixed; /* bytes before dynamic data */
};

#define NUM(t, n, o, s, sg)                                                                        \
	{                                                                                          \
		t, n, o, s, sg, UFT_FIELD_SCALAR, s                                                \
	}
static struct fmt fmts[] = {
    {"diffa",
     101,
     {NUM("s8", "a8", 8, 1, 1),
      NUM("u8", "b8", 9, 1, 0),
      NUM("short", "a16", 10, 2, 1),
      NUM("unsigned short", "b16", 12, 2, 0),
      NUM("int", "a32", 16, 4, 1),
      NUM("unsigned int", "b32", 20, 4, 0),
      NUM("s64", "a64", 24, 8, 1),
      NUM("u64", "b64", 32, 8, 0),
      {"char", "comm[8]", 40, 8, 1, UFT_FIELD_ARRAY, 1},
      {"__data_loc char[]", "name", 48, 4, 0, UFT_FIELD_DYN, 1}},
     10,
     52},
    {"diffb",
     102,
     {{"__data_loc char[]", "path", 8, 4, 0, UFT_FIELD_DYN, 1},
      NUM("int", "ret", 12, 4, 1),
      {"char", "tag[4]", 16, 4, 1, UFT_FIELD_ARRAY, 1},
      NUM("unsigned long", "addr", 24, 8, 0),
      NUM("short", "lvl", 32, 2, 1)},
     5,
     40},
};
#define NR_FMTS (sizeof(fmts) / sizeof(fmts[0]))

static uint64_t rng;

static uint64_t rnd(void)
{
	/* splitmix64 */
	uint64_t z = (rng += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static unsigned below(unsigned n)
{
	return (unsigned)(rnd() % n);
}

/* A random value of a field's type, as the loaded (sign-extended) value. */
static int64_t rand_num(unsigned size, bool sg)
{
	unsigned bits = size * 8;
	uint64_t mask = bits == 64 ? ~0ull : (1ull << bits) - 1;
	uint64_t v;
	switch (below(6)) {
	case 0:
		v = 0;
		break;
	case 1:
		v = mask; /* -1 when signed */
		break;
	case 2:
		v = sg ? mask >> 1 : mask; /* the maximum */
		break;
	case 3:
		v = sg ? (mask >> 1) + 1 : 1; /* the minimum (signed) */
		break;
	case 4:
		v = below(5);
		break;
	default:
		v = rnd();
		break;
	}
	v &= mask;
	if (sg && bits < 64 && (v >> (bits - 1)) & 1)
		v |= ~mask;
	return (int64_t)v;
}

static void rand_str(char *s, unsigned max)
{
	unsigned n = below(max + 1);
	for (unsigned i = 0; i < n; i++)
		s[i] = (char)('a' + below(3));
	s[n] = '\0';
}

struct rec {
	uint8_t b[REC_MAX];
	uint32_t len;
	uint32_t cpu;
};

static void put_num(uint8_t *p, unsigned size, int64_t v)
{
	memcpy(p, &v, size); /* little endian */
}

static void make_rec(const struct fmt *fm, struct rec *r)
{
	uint32_t dyn = fm->fixed;

	memset(r->b, 0, sizeof(r->b));
	put_num(r->b, 2, fm->id);
	r->b[2] = (uint8_t)below(16);
	r->b[3] = (uint8_t)below(3);
	put_num(r->b + 4, 4, rand_num(4, true));
	r->cpu = below(8);
	for (uint32_t i = 0; i < fm->nr; i++) {
		const struct uft_field *f = &fm->f[i];
		uint8_t *p = r->b + f->offset;
		if (f->kind == UFT_FIELD_SCALAR) {
			put_num(p, f->size, rand_num(f->size, f->is_signed));
		} else if (f->kind == UFT_FIELD_ARRAY) {
			char s[16];
			rand_str(s, f->size); /* size chars: no NUL left in the array */
			memcpy(p, s, strnlen(s, f->size));
			if (strlen(s) < f->size && below(2)) /* stray bytes after the NUL */
				p[f->size - 1] = 'c';
			if (strlen(s) + 1 >= f->size)
				p[f->size - 1] = strlen(s) >= f->size ? (uint8_t)s[f->size - 1] : 0;
		} else {
			char s[16];
			rand_str(s, 8);
			uint32_t n = (uint32_t)strlen(s) + 1;
			memcpy(r->b + dyn, s, n);
			uint32_t w = dyn | n << 16;
			memcpy(p, &w, 4);
			dyn += n;
		}
	}
	r->len = dyn;
}

/* Two texts of one filter: the kernel's (for uft) and libtraceevent's. */
struct out {
	char k[4096], t[8192];
	size_t nk, nt;
	bool full;
};

static void emit(struct out *o, const char *kt, const char *tt)
{
	size_t na = strlen(kt), nb = strlen(tt);
	if (o->nk + na + 1 >= sizeof(o->k) || o->nt + nb + 1 >= sizeof(o->t)) {
		o->full = true;
		return;
	}
	memcpy(o->k + o->nk, kt, na + 1);
	memcpy(o->t + o->nt, tt, nb + 1);
	o->nk += na;
	o->nt += nb;
}

/* The field name without its "[N]". */
static void base_name(const char *name, char *out, size_t n)
{
	snprintf(out, n, "%s", name);
	char *br = strchr(out, '[');
	if (br)
		*br = '\0';
}

static void str_pred(struct out *o, const char *name)
{
	unsigned op = below(3);
	if (op == 2) {
		/* The glob, written twice with different operands. */
		char glob[64] = "", re[160] = "^";
		size_t g = 0, r = 1;
		bool neg = below(4) == 0;
		unsigned parts = below(5);
		for (unsigned i = 0; i < parts; i++) {
			static const char *const gp[] = {"*", "?", "[ab]", "[!a]", "a", "b", "c"};
			static const char *const rp[] = {".*", ".", "[ab]", "[^a]", "a", "b", "c"};
			unsigned k = below(7);
			g += (size_t)snprintf(glob + g, sizeof(glob) - g, "%s", gp[k]);
			r += (size_t)snprintf(re + r, sizeof(re) - r, "%s", rp[k]);
		}
		snprintf(re + r, sizeof(re) - r, "$");
		char kt[256], tt[512];
		snprintf(kt, sizeof(kt), "%s ~ \"%s%s\"", name, neg ? "!" : "", glob);
		snprintf(tt, sizeof(tt), "%s %s \"%s\"", name, neg ? "!~" : "=~", re);
		emit(o, kt, tt);
		return;
	}
	char s[16], kt[128];
	rand_str(s, 6);
	snprintf(kt, sizeof(kt), "%s %s \"%s\"", name, op ? "!=" : "==", s);
	emit(o, kt, kt);
}

static const char *const ops[] = {"==", "!=", "<", "<=", ">", ">="};

static void num_pred(struct out *o, const char *name, unsigned size, bool sg)
{
	unsigned op = below(7);
	int64_t c = rand_num(size, sg);
	char kt[256], tt[512];

	if (op == 6) {
		uint64_t mask = size == 8 ? ~0ull : (1ull << (size * 8)) - 1;
		uint64_t m = (uint64_t)c & mask;
		/* A signed field takes a signed constant (the kernel's kstrtoll). */
		if (sg)
			snprintf(kt, sizeof(kt), "%s & %" PRId64, name, c);
		else
			snprintf(kt, sizeof(kt), "%s & %" PRIu64, name, m);
		snprintf(tt, sizeof(tt), "(%s & %" PRIu64 ")", name, m);
	} else if (!sg) {
		snprintf(kt, sizeof(kt), below(2) ? "%s %s %" PRIu64 : "%s %s 0x%" PRIx64, name,
			 ops[op], (uint64_t)c);
		snprintf(tt, sizeof(tt), "%s %s %" PRIu64, name, ops[op], (uint64_t)c);
	} else {
		uint64_t u = (uint64_t)c;
		const char *n = "9223372036854775808";
		snprintf(kt, sizeof(kt), "%s %s %" PRId64, name, ops[op], c);
		if (op < 2)
			snprintf(tt, sizeof(tt), "%s %s %" PRIu64, name, ops[op], u);
		else if (c >= 0 && op < 4)
			snprintf(tt, sizeof(tt), "(%s >= %s || %s %s %" PRIu64 ")", name, n, name,
				 ops[op], u);
		else if (c >= 0)
			snprintf(tt, sizeof(tt), "(%s < %s && %s %s %" PRIu64 ")", name, n, name,
				 ops[op], u);
		else if (op < 4)
			snprintf(tt, sizeof(tt), "(%s >= %s && %s %s %" PRIu64 ")", name, n, name,
				 ops[op], u);
		else
			snprintf(tt, sizeof(tt), "(%s < %s || %s %s %" PRIu64 ")", name, n, name,
				 ops[op], u);
	}
	emit(o, kt, tt);
}

static void pred(struct out *o, const struct fmt *fm)
{
	unsigned k = below(fm->nr + 4);
	if (k >= fm->nr) {
		static const struct {
			const char *name;
			unsigned size;
			bool sg;
		} common[] = {{"common_pid", 4, true},
			      {"common_flags", 1, false},
			      {"common_preempt_count", 1, false},
			      {"CPU", 1, false}};
		unsigned j = k - fm->nr;
		if (j == 3) {
			/* The CPU is an int in the kernel, unsigned here: small values only. */
			char kt[32];
			unsigned op =
			    below(6); /* one draw per statement: the same on every compiler */
			snprintf(kt, sizeof(kt), "CPU %s %u", ops[op], below(9));
			emit(o, kt, kt);
			return;
		}
		num_pred(o, common[j].name, common[j].size, common[j].sg);
		return;
	}
	const struct uft_field *f = &fm->f[k];
	char name[64];
	base_name(f->name, name, sizeof(name));
	if (f->kind == UFT_FIELD_SCALAR)
		num_pred(o, name, f->size, f->is_signed);
	else
		str_pred(o, name);
}

static void expr(struct out *o, const struct fmt *fm, unsigned depth)
{
	if (depth == 0 || below(3) == 0) {
		if (below(5) == 0) {
			emit(o, "!", "!");
			emit(o, "(", "(");
			pred(o, fm);
			emit(o, ")", ")");
		} else {
			pred(o, fm);
		}
		return;
	}
	bool neg = below(5) == 0;
	if (neg)
		emit(o, "!", "!");
	emit(o, "(", "(");
	expr(o, fm, depth - 1);
	const char *op = below(2) ? " && " : " || ";
	emit(o, op, op);
	expr(o, fm, depth - 1);
	emit(o, ")", ")");
}

static struct tep_handle *tep_for(void)
{
	struct tep_handle *tep = tep_alloc();
	tep_set_long_size(tep, 8);
	tep_set_file_bigendian(tep, TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, TEP_LITTLE_ENDIAN);
	for (size_t i = 0; i < NR_FMTS; i++) {
		struct fmt *fm = &fmts[i];
		struct uft_event ev = {.name = fm->name,
				       .system = "diff",
				       .fields = fm->f,
				       .nr_fields = fm->nr,
				       .fixed_size = fm->fixed,
				       .print_fmt = "\"x\""};
		char buf[4096];
		int n = uft_format_text(&ev, fm->id, buf, sizeof(buf));
		assert_true(n > 0 && (size_t)n < sizeof(buf));
		assert_int_equal(tep_parse_event(tep, buf, (unsigned long)n, "diff"), 0);
	}
	return tep;
}

static void test_diff(void **state)
{
	(void)state;
	const char *s = getenv("UFT_FILTER_DIFF_SEED");
	const char *c = getenv("UFT_FILTER_DIFF_CASES");
	uint64_t seed = s ? strtoull(s, NULL, 0) : 1;
	unsigned cases = c ? (unsigned)strtoul(c, NULL, 0) : 4000;
	struct tep_handle *tep = tep_for();
	unsigned checked = 0, matched = 0;

	rng = seed;
	for (unsigned n = 0; n < cases; n++) {
		const struct fmt *fm = &fmts[below(NR_FMTS)];
		struct out o = {.nk = 0};
		o.k[0] = o.t[0] = '\0';
		expr(&o, fm, 1 + below(4));
		if (o.full)
			continue;

		struct uft_filter *uf = NULL;
		struct uft_filter_error err;
		int rc = uft_filter_compile(o.k, fm->f, fm->nr, &uf, &err);
		if (rc)
			fail_msg("uft rejects '%s': %s at %d", o.k, uft_filter_strerror(err.code),
				 err.pos);
		struct tep_event_filter *tf = tep_filter_alloc(tep);
		char *spec;
		assert_true(asprintf(&spec, "%s:%s", fm->name, o.t) > 0);
		__lsan_disable();
		enum tep_errno te = tep_filter_add_filter_str(tf, spec);
		__lsan_enable();
		if (te) {
			char eb[256];
			tep_filter_strerror(tf, te, eb, sizeof(eb));
			fail_msg("libtraceevent rejects '%s': %s", spec, eb);
		}
		for (unsigned k = 0; k < 8; k++) {
			struct rec r;
			make_rec(fm, &r);
			struct tep_record tr = {.data = r.b, .size = (int)r.len, .cpu = (int)r.cpu};
			int want = tep_filter_match(tf, &tr);
			if (want != TEP_ERRNO__FILTER_MATCH && want != TEP_ERRNO__FILTER_MISS)
				fail_msg("libtraceevent error %d on '%s'", want, spec);
			bool got = uft_filter_match(uf, r.b, r.len, r.cpu, NULL);
			if (got != (want == TEP_ERRNO__FILTER_MATCH))
				fail_msg("seed %" PRIu64 " case %u: uft %d, libtraceevent %d\n"
					 "  kernel: %s\n  tep:    %s",
					 seed, n, got, want == TEP_ERRNO__FILTER_MATCH, o.k, o.t);
			/* The instructions against the predicates they were lowered
			 * from, on the whole record and on a cut one. */
			uint32_t cut = below(r.len + 1);
			if (got != uft_filter_match_checked(uf, r.b, r.len, r.cpu, NULL) ||
			    uft_filter_match(uf, r.b, cut, r.cpu, NULL) !=
				uft_filter_match_checked(uf, r.b, cut, r.cpu, NULL))
				fail_msg("seed %" PRIu64 " case %u: instructions and predicates "
					 "differ (length %u or %u): %s",
					 seed, n, r.len, cut, o.k);
			checked++;
			matched += got;
		}
		free(spec);
		tep_filter_free(tf);
		uft_filter_free(uf);
	}
	print_message("seed %" PRIu64 ": %u verdicts agree (%u matches)\n", seed, checked, matched);
	assert_true(matched > checked / 20 && matched < checked - checked / 20);
	tep_free(tep);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_diff),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
