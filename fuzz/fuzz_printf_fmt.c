/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Fuzzes printf-style event layouts with the input as the format string.
 * Accepted formats must give a consistent layout, records that stay inside
 * their bounds, a format text libtraceevent accepts, and (for plain ASCII
 * formats) a body libtraceevent prints exactly as snprintf prints the same
 * stored values. Refused formats must say why. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "engine/format/format.h"
#include "engine/format/printf_event.h"

#include "fuzz_check.h"

static const char *const strings[] = {"", "abc", "hello world", NULL, "x%d\\n"};

static uint64_t next_rand(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* Growable output for the expected text. */
struct out {
	char *p;
	size_t len, cap;
};

static void out_add(struct out *o, const char *s, size_t n)
{
	if (o->len + n + 1 > o->cap) {
		o->cap = (o->len + n + 1) * 2;
		o->p = realloc(o->p, o->cap);
		CHECK(o->p);
	}
	memcpy(o->p + o->len, s, n);
	o->len += n;
	o->p[o->len] = '\0';
}

static bool plain_ascii(const char *s)
{
	for (; *s; s++)
		if ((*s < 0x20 || *s > 0x7e) && *s != '\n' && *s != '\t' && *s != '\r')
			return false;
	return true;
}

/* What printf prints for the values stored in rec, one conversion at a time. */
static void expected_text(const char *fmt, const struct uft_printf_layout *l, const uint8_t *rec,
			  struct out *o)
{
	uint32_t arg = 0;

	for (const char *p = fmt; *p;) {
		if (*p != '%') {
			out_add(o, p++, 1);
			continue;
		}
		if (p[1] == '%') {
			out_add(o, "%", 1);
			p += 2;
			continue;
		}
		size_t n = strcspn(p + 1, "diuxXocsp") + 2;
		char spec[40], buf[4200];
		CHECK(n < sizeof(spec) && arg < l->nr_args);
		memcpy(spec, p, n);
		spec[n] = '\0';
		char conv = spec[n - 1];
		bool ll = strstr(spec, "ll") != NULL;
		bool lng = !ll && strpbrk(spec, "lzjt") != NULL;
		const uint8_t *f = rec + l->offsets[arg];
		int len;

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
		if (conv == 's') {
			uint32_t loc;
			memcpy(&loc, f, 4);
			len = snprintf(buf, sizeof(buf), spec, (const char *)rec + (loc & 0xffff));
		} else if (conv == 'c') {
			len = snprintf(buf, sizeof(buf), spec, f[0]);
		} else if (conv == 'p' || ll || lng) {
			uint64_t v;
			memcpy(&v, f, 8);
			if (conv == 'p')
				len = snprintf(buf, sizeof(buf), spec, (void *)(uintptr_t)v);
			else if (ll)
				len = snprintf(buf, sizeof(buf), spec, (long long)v);
			else
				len = snprintf(buf, sizeof(buf), spec, (long)v);
		} else {
			int32_t v;
			memcpy(&v, f, 4);
			len = snprintf(buf, sizeof(buf), spec, v);
		}
#pragma GCC diagnostic pop
		CHECK(len >= 0 && (size_t)len < sizeof(buf));
		out_add(o, buf, (size_t)len);
		p += n;
		arg++;
	}
	CHECK(arg == l->nr_args);
}

static void check_with_libtraceevent(const char *fmt, const struct uft_printf_layout *l,
				     const uint8_t *rec, uint32_t size)
{
	struct uft_event ev = {
	    .system = "fuzz",
	    .name = "f",
	    .fields = l->fields,
	    .nr_fields = l->nr_args,
	    .fixed_size = l->fixed_size,
	    .print_fmt = l->print_fmt,
	};
	int n = uft_format_text(&ev, 300, NULL, 0);
	CHECK(n > 0);
	char *text = malloc((size_t)n + 1);
	CHECK(text && uft_format_text(&ev, 300, text, (size_t)n + 1) == n);

	struct tep_handle *tep = tep_alloc();
	tep_set_long_size(tep, 8);
	tep_set_file_bigendian(tep, TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, TEP_LITTLE_ENDIAN);
	if (tep_parse_event(tep, text, (unsigned long)n, "fuzz") != 0) {
		fprintf(stderr, "libtraceevent rejects:\n%s", text);
		abort();
	}

	struct tep_record r = {.data = (void *)rec, .size = (int)size};
	struct trace_seq s;
	trace_seq_init(&s);
	tep_print_event(tep, &s, &r, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&s);
	if (plain_ascii(fmt)) {
		struct out want = {0};
		out_add(&want, "", 0);
		expected_text(fmt, l, rec, &want);
		if (strcmp(want.p, s.buffer) != 0) {
			fprintf(stderr, "format  [%s]\nprint fmt %s\nprintf  [%s]\ntep     [%s]\n",
				fmt, l->print_fmt, want.p, s.buffer);
			abort();
		}
		free(want.p);
	}
	trace_seq_destroy(&s);
	tep_free(tep);
	free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t rec[UFT_PRINTF_MAX_RECORD];
	struct uft_printf_layout l;
	char err[256];
	char *fmt = malloc(size + 1);

	tep_set_loglevel(TEP_LOG_NONE);
	CHECK(fmt);
	memcpy(fmt, data, size);
	fmt[size] = '\0';

	if (uft_printf_layout_parse(fmt, &l, err, sizeof(err)) != 0) {
		CHECK(err[0] && !l.fields && !l.print_fmt);
		free(fmt);
		return 0;
	}
	CHECK(l.print_fmt && l.fixed_size >= 8 && l.fixed_size <= UFT_PRINTF_MAX_RECORD);
	for (uint32_t i = 0; i < l.nr_args; i++) {
		CHECK(l.offsets[i] >= 8 && l.offsets[i] + l.fields[i].size <= l.fixed_size);
		CHECK(l.fields[i].offset == l.offsets[i]);
		CHECK(i == 0 || l.offsets[i] >= l.offsets[i - 1] + l.fields[i - 1].size);
	}

	uint64_t seed = 0x9e3779b97f4a7c15ull ^ size;
	for (size_t i = 0; i < size; i++)
		seed = (seed ^ data[i]) * 0x100000001b3ull;
	seed |= 1;
	uint64_t *args = calloc(l.nr_args + 1, sizeof(*args));
	CHECK(args);
	for (uint32_t i = 0; i < l.nr_args; i++) {
		uint64_t v = next_rand(&seed);
		if (l.kinds[i] == UFT_PARG_STR)
			args[i] =
			    (uint64_t)(uintptr_t)strings[v % (sizeof(strings) / sizeof(*strings))];
		else if (l.kinds[i] == UFT_PARG_CHAR)
			args[i] = 0x20 + v % 0x5f; /* printable: %c of NUL prints nothing */
		else
			args[i] = v >> (v & 63);
	}

	uint32_t want = uft_printf_record_size(&l, args);
	memset(rec, 0, 8);
	uint16_t type = 300;
	memcpy(rec, &type, 2);
	uint32_t got = uft_printf_record_fill(&l, args, rec, sizeof(rec));
	CHECK(want == got && got >= l.fixed_size && got <= UFT_PRINTF_MAX_RECORD);
	for (uint32_t i = 0; i < l.nr_args; i++) {
		if (l.kinds[i] != UFT_PARG_STR)
			continue;
		uint32_t loc;
		memcpy(&loc, rec + l.offsets[i], 4);
		uint32_t off = loc & 0xffff, len = loc >> 16;
		CHECK(len >= 1 && off >= l.fixed_size && off + len <= got);
		CHECK(rec[off + len - 1] == '\0' && strlen((char *)rec + off) == len - 1);
	}
	check_with_libtraceevent(fmt, &l, rec, got);

	free(args);
	uft_printf_layout_free(&l);
	free(fmt);
	return 0;
}
