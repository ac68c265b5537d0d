/* SPDX-License-Identifier: GPL-2.0-or-later */
/* trace.dat parser for versions 6 and 7 (docs/design/recording.md). The input is
 * untrusted: every read goes through the bounds-checked cursor below, and no
 * allocation is sized by a length field before that many bytes are known to
 * be present, so memory use stays proportional to the input. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tracedat/compress.h"
#include "tracedat/tracedat.h"
#include "tracedat/time_options.h"

#define MAX_NAME 4096 /* system, instance, clock and compression names */

struct cur {
	const uint8_t *base;
	size_t len;
	size_t pos;
	bool be;
	bool failed;
	char *err;
	size_t errlen;
	struct tracedat *td;
	int comp; /* enum td_comp of the file */
};

static uint64_t inflate_limit = TRACEDAT_INFLATE_LIMIT;

void tracedat_set_inflate_limit(uint64_t bytes)
{
	inflate_limit = bytes;
}

__attribute__((format(printf, 2, 3))) static bool fail(struct cur *c, const char *fmt, ...)
{
	if (!c->failed && c->err && c->errlen) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(c->err, c->errlen, fmt, ap);
		va_end(ap);
	}
	c->failed = true;
	return false;
}

static bool need(struct cur *c, uint64_t n, const char *what)
{
	if (c->failed)
		return false;
	if (n > c->len - c->pos)
		return fail(c, "truncated file: %s needs %llu bytes at offset %zu, %zu left", what,
			    (unsigned long long)n, c->pos, c->len - c->pos);
	return true;
}

static uint64_t get_num(struct cur *c, unsigned n)
{
	uint64_t v = 0;
	const uint8_t *p = c->base + c->pos;
	for (unsigned i = 0; i < n; i++)
		v |= (uint64_t)p[c->be ? n - 1 - i : i] << (8 * i);
	c->pos += n;
	return v;
}

static bool rd16(struct cur *c, uint16_t *v, const char *what)
{
	if (!need(c, 2, what))
		return false;
	*v = (uint16_t)get_num(c, 2);
	return true;
}

static bool rd32(struct cur *c, uint32_t *v, const char *what)
{
	if (!need(c, 4, what))
		return false;
	*v = (uint32_t)get_num(c, 4);
	return true;
}

static bool rd64(struct cur *c, uint64_t *v, const char *what)
{
	if (!need(c, 8, what))
		return false;
	*v = get_num(c, 8);
	return true;
}

static bool seek_to(struct cur *c, uint64_t off, const char *what)
{
	if (c->failed)
		return false;
	if (off > c->len)
		return fail(c, "%s at offset %llu is beyond the end of the file (%zu bytes)", what,
			    (unsigned long long)off, c->len);
	c->pos = (size_t)off;
	return true;
}

/* Copies `len` bytes as a NUL-terminated string. */
static char *rd_text(struct cur *c, uint64_t len, const char *what)
{
	if (!need(c, len, what))
		return NULL;
	char *s = malloc((size_t)len + 1);
	if (!s) {
		fail(c, "out of memory reading %s", what);
		return NULL;
	}
	memcpy(s, c->base + c->pos, (size_t)len);
	s[len] = 0;
	c->pos += (size_t)len;
	return s;
}

/* A NUL-terminated string of at most MAX_NAME bytes. */
static char *rd_str0(struct cur *c, const char *what)
{
	if (c->failed)
		return NULL;
	size_t left = c->len - c->pos, lim = left < MAX_NAME ? left : MAX_NAME;
	const uint8_t *p = c->base + c->pos;
	const uint8_t *nul = memchr(p, 0, lim);
	if (!nul) {
		fail(c, "%s at offset %zu is not NUL terminated", what, c->pos);
		return NULL;
	}
	char *s = rd_text(c, (size_t)(nul - p), what);
	if (s)
		c->pos++;
	return s;
}

static bool expect(struct cur *c, const char *tag, size_t n, const char *what)
{
	if (!need(c, n, what))
		return false;
	if (memcmp(c->base + c->pos, tag, n) != 0)
		return fail(c, "expected \"%s\" at offset %zu", what, c->pos);
	c->pos += n;
	return true;
}

/* Room for element `n` of `arr` (doubling at powers of two); NULL with `arr`
 * untouched on failure. Element counts are bounded by the input because every
 * element consumes input bytes. */
static void *grow_raw(struct cur *c, void *arr, size_t n, size_t elem)
{
	if (n & (n - 1))
		return arr;
	void *p = realloc(arr, (n ? n * 2 : 1) * elem);
	if (!p)
		fail(c, "out of memory");
	return p;
}

/* Appends a zeroed element to `arr` (counted by `nr`); its address or NULL. */
#define PUSH(c, arr, nr)                                                                           \
	({                                                                                         \
		typeof(arr) a_ = grow_raw(c, arr, nr, sizeof(*(arr)));                             \
		if (a_) {                                                                          \
			(arr) = a_;                                                                \
			memset(&a_[nr], 0, sizeof(*a_));                                           \
			a_ = &a_[(nr)++];                                                          \
		}                                                                                  \
		a_;                                                                                \
	})

/* A sub-cursor failed and already wrote the message: propagate. */
static bool sub_failed(struct cur *c, const struct cur *sub)
{
	if (!sub->failed)
		return fail(c, "malformed trace.dat");
	c->failed = true;
	return false;
}

static bool rd_format(struct cur *c, struct tracedat *td, const char *system, bool ftrace)
{
	uint64_t size;
	if (!rd64(c, &size, "event format size"))
		return false;
	char *text = rd_text(c, size, "event format");
	if (!text)
		return false;
	struct tracedat_format *f =
	    ftrace ? PUSH(c, td->ftrace, td->nr_ftrace) : PUSH(c, td->events, td->nr_events);
	if (!f) {
		free(text);
		return false;
	}
	f->system = system;
	f->text = text;
	f->len = (size_t)size;
	return true;
}

static bool parse_header_files(struct cur *c, struct tracedat *td)
{
	uint64_t size;
	if (!expect(c, "header_page", 12, "header_page") || !rd64(c, &size, "header_page size"))
		return false;
	free(td->header_page);
	if (!(td->header_page = rd_text(c, size, "header_page")))
		return false;
	td->header_page_len = (size_t)size;
	if (!expect(c, "header_event", 13, "header_event") || !rd64(c, &size, "header_event size"))
		return false;
	free(td->header_event);
	if (!(td->header_event = rd_text(c, size, "header_event")))
		return false;
	td->header_event_len = (size_t)size;
	return true;
}

static bool parse_ftrace_formats(struct cur *c, struct tracedat *td)
{
	uint32_t n;
	if (!rd32(c, &n, "ftrace format count"))
		return false;
	for (uint32_t i = 0; i < n; i++)
		if (!rd_format(c, td, "ftrace", true))
			return false;
	return true;
}

static bool parse_event_formats(struct cur *c, struct tracedat *td)
{
	uint32_t nsys;
	if (!rd32(c, &nsys, "event system count"))
		return false;
	for (uint32_t i = 0; i < nsys; i++) {
		uint32_t n;
		char *sys = rd_str0(c, "event system name");
		if (!sys)
			return false;
		/* One copy per system, shared by its events: a long name repeated
		 * for many tiny formats must not multiply memory use. */
		char **slot = PUSH(c, td->sys_names, td->nr_sys_names);
		if (!slot) {
			free(sys);
			return false;
		}
		*slot = sys;
		bool ok = rd32(c, &n, "event count");
		for (uint32_t j = 0; ok && j < n; j++)
			ok = rd_format(c, td, sys, false);
		if (!ok)
			return false;
	}
	return true;
}

static bool parse_text32(struct cur *c, char **text, size_t *len, const char *what)
{
	uint32_t size;
	if (!rd32(c, &size, what))
		return false;
	free(*text);
	*text = rd_text(c, size, what);
	*len = size;
	return *text != NULL;
}

static bool parse_cmdlines(struct cur *c, struct tracedat *td)
{
	uint64_t size;
	if (!rd64(c, &size, "cmdlines size"))
		return false;
	free(td->cmdlines);
	td->cmdlines = rd_text(c, size, "cmdlines");
	td->cmdlines_len = (size_t)size;
	return td->cmdlines != NULL;
}

/* Takes the "[name]" out of a trace_clock text. */
static void set_clock_from_list(char *clock, const char *s, size_t len)
{
	const char *open = memchr(s, '[', len);
	if (!open)
		return;
	size_t rest = len - (size_t)(open + 1 - s);
	const char *close = memchr(open + 1, ']', rest);
	if (!close)
		return;
	size_t n = (size_t)(close - open - 1);
	if (n == 0 || n >= sizeof(((struct tracedat *)0)->clock))
		return;
	memcpy(clock, open + 1, n);
	clock[n] = 0;
}

static bool add_option(struct cur *c, struct tracedat *td, uint16_t id, uint32_t size)
{
	struct tracedat_option *o = PUSH(c, td->options, td->nr_options);
	if (!o)
		return false;
	o->id = id;
	o->size = size;
	o->data = (uint8_t *)rd_text(c, size, "option data");
	if (!o->data) {
		td->nr_options--;
		return false;
	}
	return true;
}

static bool add_instance(struct cur *c, struct tracedat *td, const char *name, uint64_t off)
{
	char *n = strdup(name);
	struct tracedat_instance *in = n ? PUSH(c, td->instances, td->nr_instances) : NULL;
	if (!in) {
		free(n);
		return fail(c, "out of memory");
	}
	in->name = n;
	in->offset = off;
	return true;
}

static bool check_cpu_data(struct cur *c, const struct tracedat_cpu *cd)
{
	if (cd->offset > c->len || cd->size > c->len - cd->offset)
		return fail(c,
			    "CPU %d data (offset %llu, %llu bytes) is beyond the end of the file "
			    "(%zu bytes)",
			    cd->cpu, (unsigned long long)cd->offset, (unsigned long long)cd->size,
			    c->len);
	return true;
}

/* ---- version 6 ---- */

static bool parse_v6_options(struct cur *c, struct tracedat *td)
{
	for (;;) {
		uint16_t id;
		uint32_t size;
		if (!rd16(c, &id, "option id"))
			return false;
		if (id == TRACEDAT_OPT_DONE)
			return true;
		if (!rd32(c, &size, "option size"))
			return false;
		size_t start = c->pos;
		if (!add_option(c, td, id, size))
			return false;
		struct cur o = *c; /* the option's own bytes */
		o.pos = start;
		o.len = start + size;
		if (id == TRACEDAT_OPT_BUFFER) {
			uint64_t off;
			char *name = NULL;
			bool ok = rd64(&o, &off, "BUFFER option offset") &&
				  (name = rd_str0(&o, "BUFFER option name")) &&
				  add_instance(c, td, name, off);
			free(name);
			if (!ok)
				return sub_failed(c, &o);
		} else if (id == TRACEDAT_OPT_CPUCOUNT && size >= 4) {
			uint32_t n;
			rd32(&o, &n, "CPUCOUNT");
			td->nr_cpus = n > INT_MAX ? INT_MAX : (int)n;
		} else if (id == TRACEDAT_OPT_TRACECLOCK && !td->clock[0]) {
			set_clock_from_list(td->clock, (const char *)c->base + start, size);
		}
	}
}

/* A CPU table and its clock block, of the top instance or another one. */
static bool parse_v6_flyrecord(struct cur *c, struct tracedat *td, uint32_t cpus,
			       struct tracedat_cpu **cpu_data, size_t *nr_cpu_data, char *clock)
{
	if (!need(c, (uint64_t)cpus * 16, "CPU table"))
		return false;
	*cpu_data = calloc(cpus ? cpus : 1, sizeof(**cpu_data));
	if (!*cpu_data)
		return fail(c, "out of memory");
	*nr_cpu_data = cpus;
	for (uint32_t i = 0; i < cpus; i++) {
		struct tracedat_cpu *cd = &(*cpu_data)[i];
		cd->cpu = (int)i;
		rd64(c, &cd->offset, "CPU offset"); /* the whole table was checked above */
		rd64(c, &cd->size, "CPU size");
		if (!check_cpu_data(c, cd))
			return false;
		cd->data = c->base + cd->offset;
	}
	/* The "[clock]" block exists only when a TRACECLOCK option announced it. */
	if (tracedat_find_option(td, TRACEDAT_OPT_TRACECLOCK)) {
		uint64_t len;
		if (!rd64(c, &len, "trace clock size") || !need(c, len, "trace clock"))
			return false;
		/* The block wins over the option, which some writers leave empty. */
		char from_option[sizeof(td->clock)];
		memcpy(from_option, td->clock, sizeof(from_option));
		clock[0] = 0;
		set_clock_from_list(clock, (const char *)c->base + c->pos, (size_t)len);
		if (!clock[0])
			memcpy(clock, from_option, sizeof(from_option));
		c->pos += (size_t)len;
	}
	return true;
}

/* Each BUFFER option's own "flyrecord" table, later in the file. */
static bool parse_v6_instances(struct cur *c, struct tracedat *td, uint32_t cpus)
{
	for (size_t i = 0; i < td->nr_instances; i++) {
		struct tracedat_instance *in = &td->instances[i];
		memcpy(in->clock, td->clock, sizeof(in->clock));
		if (!seek_to(c, in->offset, "instance") ||
		    !expect(c, "flyrecord", 10, "instance flyrecord") ||
		    !parse_v6_flyrecord(c, td, cpus, &in->cpus, &in->nr_cpu_data, in->clock))
			return false;
	}
	return true;
}

static bool parse_v6(struct cur *c, struct tracedat *td)
{
	uint32_t cpus;
	if (!parse_header_files(c, td) || !parse_ftrace_formats(c, td) ||
	    !parse_event_formats(c, td) ||
	    !parse_text32(c, &td->kallsyms, &td->kallsyms_len, "kallsyms") ||
	    !parse_text32(c, &td->printk, &td->printk_len, "printk formats") ||
	    !parse_cmdlines(c, td))
		return false;
	td->v6_cpu_count_at = c->pos;
	if (!rd32(c, &cpus, "CPU count"))
		return false;
	if (cpus > INT_MAX)
		return fail(c, "bad CPU count %u", cpus);
	td->nr_cpus = (int)cpus;
	for (;;) {
		if (!need(c, 10, "options/flyrecord/latency tag"))
			return false;
		const char *tag = (const char *)c->base + c->pos;
		td->v6_data_at = c->pos;
		c->pos += 10;
		if (memcmp(tag, "options  ", 10) == 0) {
			if (!parse_v6_options(c, td))
				return false;
		} else if (memcmp(tag, "flyrecord", 10) == 0) {
			return parse_v6_flyrecord(c, td, cpus, &td->cpus, &td->nr_cpu_data,
						  td->clock) &&
			       parse_v6_instances(c, td, cpus);
		} else if (memcmp(tag, "latency  ", 10) == 0) {
			td->latency = true;
			td->latency_text = (const char *)c->base + c->pos;
			td->latency_len = c->len - c->pos;
			return true;
		} else {
			return fail(c,
				    "unknown section tag at offset %zu (expected options, "
				    "flyrecord or latency)",
				    c->pos - 10);
		}
	}
}

/* ---- version 7 ---- */

struct section {
	uint16_t id, flags;
	uint64_t size;
	size_t body; /* offset of the body */
};

/* Keeps a decompressed copy until tracedat_free(). */
static bool own(struct cur *c, uint8_t *p)
{
	uint8_t **slot = PUSH(c, c->td->owned, c->td->nr_owned);
	if (!slot) {
		free(p);
		return false;
	}
	*slot = p;
	return true;
}

/* Decompresses `csize` bytes at the cursor that claim `usize` bytes, within
 * what the whole file may expand to. */
static uint8_t *inflate_at(struct cur *c, uint32_t csize, uint32_t usize, const char *what)
{
	size_t at = c->pos;
	if (!need(c, csize, what))
		return NULL;
	if (usize > inflate_limit - c->td->inflated) {
		fail(c,
		     "%s at offset %zu claims %u bytes uncompressed, more than the %llu bytes a "
		     "file may expand to",
		     what, at, usize, (unsigned long long)inflate_limit);
		return NULL;
	}
	uint8_t *out;
	char why[128];
	if (td_decompress(c->comp, c->base + c->pos, csize, usize, &out, why, sizeof(why)) != 0) {
		fail(c, "%s at offset %zu: %s decompression failed: %s", what, at,
		     td_comp_name(c->comp), why);
		return NULL;
	}
	c->td->inflated += usize;
	c->pos += csize;
	return out;
}

/* A section's header at `off`; `body` becomes a cursor over its body, which
 * for a compressed section is a decompressed copy in *heap (else NULL). */
static bool open_section(struct cur *c, uint64_t off, uint16_t want, struct section *s,
			 struct cur *body, uint8_t **heap)
{
	uint32_t str_id;
	*heap = NULL;
	if (!seek_to(c, off, "section") || !rd16(c, &s->id, "section id") ||
	    !rd16(c, &s->flags, "section flags") || !rd32(c, &str_id, "section string") ||
	    !rd64(c, &s->size, "section size"))
		return false;
	if (s->id != want)
		return fail(c, "section at offset %llu has id %u, expected %u",
			    (unsigned long long)off, s->id, want);
	if (!need(c, s->size, "section body"))
		return false;
	s->body = c->pos;
	*body = *c;
	body->len = s->body + (size_t)s->size;
	if (!(s->flags & 1))
		return true;
	if (c->comp == TD_COMP_NONE)
		return fail(c, "section at offset %llu is compressed in an uncompressed file",
			    (unsigned long long)off);
	uint32_t csize, usize;
	if (!rd32(body, &csize, "compressed section size") ||
	    !rd32(body, &usize, "section size uncompressed") ||
	    !(*heap = inflate_at(body, csize, usize, "compressed section"))) {
		c->failed = true;
		return false;
	}
	body->base = *heap;
	body->pos = 0;
	body->len = usize;
	return true;
}

static bool parse_meta_section(struct cur *c, struct tracedat *td, uint16_t id, uint64_t off)
{
	struct section s;
	struct cur b;
	uint8_t *heap;
	if (!open_section(c, off, id, &s, &b, &heap))
		return false;
	bool ok;
	switch (id) {
	case TRACEDAT_OPT_HEADER_INFO:
		ok = parse_header_files(&b, td);
		break;
	case TRACEDAT_OPT_FTRACE_EVENTS:
		ok = parse_ftrace_formats(&b, td);
		break;
	case TRACEDAT_OPT_EVENT_FORMATS:
		ok = parse_event_formats(&b, td);
		break;
	case TRACEDAT_OPT_KALLSYMS:
		ok = parse_text32(&b, &td->kallsyms, &td->kallsyms_len, "kallsyms");
		break;
	case TRACEDAT_OPT_PRINTK:
		ok = parse_text32(&b, &td->printk, &td->printk_len, "printk formats");
		break;
	default:
		ok = parse_cmdlines(&b, td);
		break;
	}
	free(heap);
	c->failed = b.failed;
	return ok;
}

/* A compressed CPU's data: u32 chunk count, then per chunk u32 compressed
 * size, u32 uncompressed size and the bytes; decompressed into one copy.
 * trace-cmd's recorded size leaves out the 4-byte count. */
static bool inflate_cpu(struct cur *c, struct tracedat_cpu *cd)
{
	struct cur d = *c;
	d.pos = (size_t)cd->offset;
	d.len = (size_t)(cd->offset + cd->size);
	d.len = c->len - d.len >= 4 ? d.len + 4 : c->len;
	uint32_t chunks;
	uint8_t *all = NULL;
	size_t len = 0, cap = 0;
	bool ok = rd32(&d, &chunks, "CPU data chunk count");
	for (uint32_t i = 0; ok && i < chunks; i++) {
		uint32_t csize, usize;
		uint8_t *part = NULL;
		ok = rd32(&d, &csize, "CPU data chunk size") &&
		     rd32(&d, &usize, "CPU data chunk size uncompressed") &&
		     (part = inflate_at(&d, csize, usize, "CPU data chunk"));
		if (ok && usize > cap - len) { /* doubling: many small chunks stay linear */
			size_t want = len + usize > cap * 2 ? len + usize : cap * 2;
			uint8_t *m = realloc(all, want);
			if (m) {
				all = m;
				cap = want;
			} else {
				ok = fail(&d, "out of memory");
			}
		}
		if (ok && usize) {
			memcpy(all + len, part, usize);
			len += usize;
		}
		free(part);
	}
	if (!ok) {
		free(all);
		c->failed = true;
		return false;
	}
	if (all && !own(c, all))
		return false;
	cd->data = all;
	cd->size = len;
	return true;
}

/* A BUFFER option: the top instance's pages (the first such option wins) or
 * another instance's. */
static bool parse_v7_buffer(struct cur *c, struct cur *o, struct tracedat *td)
{
	uint64_t off;
	uint32_t page_size, n;
	char *name = NULL, *clock = NULL;
	bool ok = rd64(o, &off, "BUFFER offset") && (name = rd_str0(o, "BUFFER name")) &&
		  (clock = rd_str0(o, "BUFFER clock")) && rd32(o, &page_size, "BUFFER page size") &&
		  rd32(o, &n, "BUFFER CPU count") &&
		  need(o, (uint64_t)n * 20, "BUFFER CPU entries");
	struct tracedat_cpu **cpus = NULL;
	size_t *nr = NULL;
	char *clk = NULL;
	if (ok && name[0]) {
		ok = add_instance(c, td, name, off);
		if (ok) {
			struct tracedat_instance *in = &td->instances[td->nr_instances - 1];
			cpus = &in->cpus, nr = &in->nr_cpu_data, clk = in->clock;
		}
	} else if (ok && !td->cpus) {
		cpus = &td->cpus, nr = &td->nr_cpu_data, clk = td->clock;
	}
	if (ok && cpus) {
		if (clock[0] && strlen(clock) < sizeof(td->clock))
			strcpy(clk, clock);
		*cpus = calloc(n ? n : 1, sizeof(**cpus));
		if (!*cpus)
			ok = fail(o, "out of memory");
		for (uint32_t i = 0; ok && i < n; i++) {
			struct tracedat_cpu *cd = &(*cpus)[i];
			uint32_t cpu;
			rd32(o, &cpu, "BUFFER CPU id");
			rd64(o, &cd->offset, "BUFFER CPU offset");
			rd64(o, &cd->size, "BUFFER CPU size");
			cd->cpu = cpu > INT_MAX ? INT_MAX : (int)cpu;
			*nr = i + 1;
			ok = check_cpu_data(c, cd);
			if (ok && c->comp != TD_COMP_NONE && cd->size)
				ok = inflate_cpu(c, cd);
			else if (ok)
				cd->data = c->base + cd->offset;
		}
	}
	free(name);
	free(clock);
	if (o->failed)
		c->failed = true;
	return ok;
}

static bool parse_v7_buffer_text(struct cur *c, struct cur *o, struct tracedat *td)
{
	uint64_t off;
	char *name = NULL;
	bool ok = rd64(o, &off, "BUFFER_TEXT offset") && (name = rd_str0(o, "BUFFER_TEXT name"));
	if (ok && name[0]) {
		ok = add_instance(c, td, name, off);
		if (ok)
			td->instances[td->nr_instances - 1].latency = true;
	} else if (ok) {
		struct section s;
		struct cur b;
		uint8_t *heap;
		ok = open_section(c, off, TRACEDAT_OPT_BUFFER_TEXT, &s, &b, &heap);
		if (ok && heap)
			ok = own(c, heap);
		if (ok) {
			td->latency = true;
			td->latency_text = (const char *)b.base + b.pos;
			td->latency_len = b.len - b.pos;
		}
	}
	free(name);
	if (o->failed)
		c->failed = true;
	return ok;
}

static bool parse_v7_options(struct cur *c, struct tracedat *td, uint64_t off, uint64_t *next,
			     unsigned *seen_meta)
{
	struct section s;
	struct cur b;
	uint8_t *heap;
	if (!open_section(c, off, TRACEDAT_OPT_DONE, &s, &b, &heap))
		return false;
	/* Options sections never overlap; requiring that keeps the chain acyclic
	 * and the total work linear in the input. */
	uint64_t end = s.body + s.size;
	*next = 0;
	bool ok = true;
	for (;;) {
		uint16_t id;
		uint32_t size;
		if (b.pos == b.len)
			break; /* no DONE: last section */
		if (!rd16(&b, &id, "option id") || !rd32(&b, &size, "option size") ||
		    !need(&b, size, "option data")) {
			ok = false;
			break;
		}
		struct cur o = b;
		o.len = b.pos + size;
		if (id == TRACEDAT_OPT_DONE) {
			if (size >= 8)
				rd64(&o, next, "next options offset");
			if (*next && *next < end)
				ok = fail(
				    c, "options section at offset %llu overlaps the previous one",
				    (unsigned long long)*next);
			break;
		}
		if (!add_option(&b, td, id, size)) {
			ok = false;
			break;
		}
		if (id >= TRACEDAT_OPT_HEADER_INFO && id <= TRACEDAT_OPT_CMDLINES) {
			uint64_t soff;
			/* Parse each metadata section once, however often it is referenced. */
			if (size >= 8 && !(*seen_meta & (1u << id))) {
				*seen_meta |= 1u << id;
				rd64(&o, &soff, "section offset");
				ok = parse_meta_section(c, td, id, soff);
			}
		} else if (id == TRACEDAT_OPT_BUFFER) {
			ok = parse_v7_buffer(c, &o, td);
		} else if (id == TRACEDAT_OPT_BUFFER_TEXT) {
			ok = parse_v7_buffer_text(c, &o, td);
		} else if (id == TRACEDAT_OPT_CPUCOUNT && size >= 4) {
			uint32_t n;
			rd32(&o, &n, "CPUCOUNT");
			td->nr_cpus = n > INT_MAX ? INT_MAX : (int)n;
		} else if (id == TRACEDAT_OPT_TRACECLOCK && !td->clock[0]) {
			set_clock_from_list(td->clock, (const char *)o.base + o.pos, size);
		}
		if (!ok)
			break;
	}
	free(heap);
	if (ok)
		return true;
	if (!c->failed)
		sub_failed(c, &b);
	c->failed = true;
	return false;
}

static bool parse_v7(struct cur *c, struct tracedat *td)
{
	char *comp = rd_str0(c, "compression name");
	char *comp_ver = comp ? rd_str0(c, "compression version") : NULL;
	if (c->failed) {
		free(comp);
		return false;
	}
	c->comp = td_comp_by_name(comp);
	if (c->comp < 0) {
		fail(c, "unsupported compression \"%.32s\" (zstd and zlib are)", comp);
	} else if (c->comp != TD_COMP_NONE) {
		snprintf(td->compression, sizeof(td->compression), "%s", comp);
		snprintf(td->compression_version, sizeof(td->compression_version), "%s", comp_ver);
	}
	free(comp);
	free(comp_ver);
	if (c->failed)
		return false;

	uint64_t off, next;
	unsigned seen_meta = 0;
	if (!rd64(c, &off, "first options offset"))
		return false;
	while (off) {
		if (!parse_v7_options(c, td, off, &next, &seen_meta))
			return false;
		off = next;
	}
	if (!td->header_page)
		return fail(c, "no header info section");
	if (!td->nr_cpus) {
		for (size_t i = 0; i < td->nr_cpu_data; i++)
			if (td->cpus[i].cpu >= td->nr_cpus && td->cpus[i].cpu < INT_MAX)
				td->nr_cpus = td->cpus[i].cpu + 1;
	}
	return true;
}

/* ---- entry points ---- */

static bool parse_file_header(struct cur *c, struct tracedat *td)
{
	static const uint8_t magic[] = {0x17, 0x08, 0x44};
	if (c->len < 10)
		return fail(c, "not a trace.dat file (too short)");
	if (memcmp(c->base, magic, 3) != 0 || memcmp(c->base + 3, "tracing", 7) != 0)
		return fail(c, "not a trace.dat file (bad magic)");
	c->pos = 10;
	char *ver = rd_str0(c, "version");
	if (!ver)
		return false;
	char *end;
	long v = strtol(ver, &end, 10);
	bool ok = ver[0] && !*end;
	free(ver);
	if (!ok || (v != 6 && v != 7))
		return fail(c, "unsupported trace.dat version (only 6 and 7 are)");
	td->version = (int)v;
	uint32_t page_size;
	if (!need(c, 2, "endianness and long size"))
		return false;
	uint8_t endian = c->base[c->pos], lsize = c->base[c->pos + 1];
	c->pos += 2;
	if (endian > 1)
		return fail(c, "bad endianness byte %u", endian);
	if (lsize != 4 && lsize != 8)
		return fail(c, "bad long size %u", lsize);
	c->be = endian == 1;
	td->big_endian = c->be;
	td->long_size = lsize;
	if (!rd32(c, &page_size, "page size"))
		return false;
	if (page_size < 32 || page_size > (1u << 28))
		return fail(c, "bad page size %u", page_size);
	td->page_size = page_size;
	return true;
}

struct tracedat *tracedat_parse(const void *buf, size_t len, char *err, size_t errlen)
{
	struct cur c = {.base = buf, .len = buf ? len : 0, .err = err, .errlen = errlen};
	if (err && errlen)
		err[0] = 0;
	struct tracedat *td = calloc(1, sizeof(*td));
	if (!td) {
		fail(&c, "out of memory");
		return NULL;
	}
	c.td = td;
	bool ok =
	    parse_file_header(&c, td) && (td->version == 6 ? parse_v6(&c, td) : parse_v7(&c, td));
	if (ok && tracedat_apply_time_options(td) != 0)
		ok = fail(&c, "out of memory");
	if (!ok) {
		if (err && errlen && !err[0])
			snprintf(err, errlen, "malformed trace.dat");
		tracedat_free(td);
		return NULL;
	}
	return td;
}

struct tracedat *tracedat_open(const char *path, char *err, size_t errlen)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	struct stat st;
	const char *why = NULL;
	if (fstat(fd, &st) != 0)
		why = strerror(errno);
	else if (!S_ISREG(st.st_mode))
		why = "not a regular file";
	else if (st.st_size == 0)
		why = "empty file";
	if (why) {
		snprintf(err, errlen, "%s: %s", path, why);
		close(fd);
		return NULL;
	}
	void *map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED) {
		snprintf(err, errlen, "%s: mmap: %s", path, strerror(errno));
		return NULL;
	}
	char msg[256];
	struct tracedat *td = tracedat_parse(map, (size_t)st.st_size, msg, sizeof(msg));
	if (!td) {
		snprintf(err, errlen, "%s: %s", path, msg);
		munmap(map, (size_t)st.st_size);
		return NULL;
	}
	td->map = map;
	td->map_len = (size_t)st.st_size;
	return td;
}

void tracedat_free(struct tracedat *td)
{
	if (!td)
		return;
	free(td->header_page);
	free(td->header_event);
	for (size_t i = 0; i < td->nr_ftrace; i++)
		free(td->ftrace[i].text);
	free(td->ftrace);
	for (size_t i = 0; i < td->nr_events; i++)
		free(td->events[i].text);
	free(td->events);
	for (size_t i = 0; i < td->nr_sys_names; i++)
		free(td->sys_names[i]);
	free(td->sys_names);
	free(td->kallsyms);
	free(td->printk);
	free(td->cmdlines);
	free(td->cpus);
	for (size_t i = 0; i < td->nr_options; i++)
		free(td->options[i].data);
	free(td->options);
	for (size_t i = 0; i < td->nr_instances; i++) {
		free(td->instances[i].name);
		free(td->instances[i].cpus);
	}
	free(td->instances);
	for (size_t i = 0; i < td->nr_owned; i++)
		free(td->owned[i]);
	free(td->owned);
	if (td->map)
		munmap(td->map, td->map_len);
	free(td);
}

const struct tracedat_option *tracedat_find_option(const struct tracedat *td, uint16_t id)
{
	for (size_t i = 0; i < td->nr_options; i++)
		if (td->options[i].id == id)
			return &td->options[i];
	return NULL;
}
