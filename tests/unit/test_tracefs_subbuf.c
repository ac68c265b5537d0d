/* SPDX-License-Identifier: GPL-2.0-or-later */
/* buffer_subbuf_size_kb, at the top and in instances: its text, rounding
 * and errors, that a new size empties the buffer, that a trace_marker write
 * larger than 4 KiB is recorded whole in a buffer of bigger sub-buffers
 * (trace and trace_pipe_raw), that trace_pipe_raw hands out pages of the
 * buffer's size (in pieces to smaller reads), that events/header_page says
 * the size, and that events filling many big pages all arrive. */
#define _GNU_SOURCE
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#define UFT_CREATE_EVENTS
#include "tfs_ev_events.h"

#include "runtime/tracefs/tracefs.h"
#include "wire/page.h"
#include "wire/shm_layout.h"
#include "tfs_cmocka.h"

/* A marker text of `len` bytes: a different letter every 64 bytes, so a
 * record cut or joined shows. */
static char *marker_text(size_t len)
{
	char *s = malloc(len + 1);
	assert_non_null(s);
	for (size_t i = 0; i < len; i++)
		s[i] = (char)('a' + (i / 64) % 26);
	s[len] = 0;
	return s;
}

/* One write of `len` bytes to `path`; returns what the write returned. */
static ssize_t write_once(const char *path, const char *buf, size_t len)
{
	struct uft_tfs_handle *h;
	assert_int_equal(uft_tracefs_open(path, UFT_TFS_WRITE, &h), 0);
	ssize_t n = uft_tracefs_write(h, buf, len, 0);
	uft_tracefs_release(h);
	return n;
}

static void test_file_values(void **state)
{
	(void)state;
	mkinst("sb");
	check("buffer_subbuf_size_kb", "4\n");
	check(p("sb", "buffer_subbuf_size_kb"), "4\n");
	/* Rounded up to a power of two number of 4 KiB pages. */
	static const struct {
		const char *in, *out;
	} round[] = {{"8", "8\n"},     {"5", "8\n"},   {"1", "4\n"},
		     {"12", "16\n"},   {"64", "64\n"}, {"65", "128\n"},
		     {"512", "512\n"}, {"3", "4\n"},   {"16\n", "16\n"}};
	for (size_t i = 0; i < sizeof(round) / sizeof(round[0]); i++) {
		assert_int_equal(echo(p("sb", "buffer_subbuf_size_kb"), W, round[i].in), 0);
		check(p("sb", "buffer_subbuf_size_kb"), round[i].out);
	}
	/* Refused, and nothing changes: 0, past 128 pages, not a number. */
	static const char *bad[] = {"0", "513", "1024", "abc", "-4", "4k", ""};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(echo(p("sb", "buffer_subbuf_size_kb"), W, bad[i]), -EINVAL);
		check(p("sb", "buffer_subbuf_size_kb"), "16\n");
	}
	/* Each buffer has its own. */
	check("buffer_subbuf_size_kb", "4\n");
	assert_int_equal(echo("buffer_subbuf_size_kb", W, "8"), 0);
	check("buffer_subbuf_size_kb", "8\n");
	check(p("sb", "buffer_subbuf_size_kb"), "16\n");
	/* buffer_size_kb keeps its memory size whatever the pages. */
	char *top_size = rd("buffer_size_kb");
	check(p("sb", "buffer_size_kb"), top_size);
	free(top_size);
	rminst("sb");
	/* A new instance starts at one page. */
	mkinst("sb");
	check(p("sb", "buffer_subbuf_size_kb"), "4\n");
	rminst("sb");
	assert_int_equal(echo("buffer_subbuf_size_kb", W, "4"), 0);
}

/* A new size empties the buffer; writing the size it has changes nothing. */
static void test_resize_resets(void **state)
{
	(void)state;
	mkinst("rs");
	assert_int_equal(echo(p("rs", "trace_marker"), W, "kept"), 0);
	assert_int_equal(echo(p("rs", "buffer_subbuf_size_kb"), W, "4"), 0);
	char *t = rd(p("rs", "trace"));
	assert_int_equal(tfs_count(t, "tracing_mark_write: kept\n"), 1);
	free(t);
	assert_int_equal(echo(p("rs", "buffer_subbuf_size_kb"), W, "8"), 0);
	t = rd(p("rs", "trace"));
	assert_int_equal(tfs_count(t, "tracing_mark_write"), 0);
	free(t);
	/* Tracing goes on in the new pages. */
	check(p("rs", "tracing_on"), "1\n");
	assert_int_equal(echo(p("rs", "trace_marker"), W, "after"), 0);
	t = rd(p("rs", "trace"));
	assert_int_equal(tfs_count(t, "tracing_mark_write: after\n"), 1);
	free(t);
	rminst("rs");
}

/* The page header text follows the buffer's sub-buffer. */
static void test_header_page(void **state)
{
	(void)state;
	mkinst("hp");
	char *t = rd(p("hp", "events/header_page"));
	assert_non_null(strstr(t, "field: char data;\toffset:16;\tsize:4080;"));
	free(t);
	assert_int_equal(echo(p("hp", "buffer_subbuf_size_kb"), W, "32"), 0);
	t = rd(p("hp", "events/header_page"));
	assert_non_null(strstr(t, "field: char data;\toffset:16;\tsize:32752;"));
	free(t);
	rminst("hp");
}

/* The kernel's limit for a marker in 4 KiB pages cuts a 10000 byte write;
 * with 16 KiB pages it is one record, shown whole. */
static void test_big_marker(void **state)
{
	(void)state;
	const size_t len = 10000;
	char *text = marker_text(len);
	mkinst("bm");
	ssize_t n = write_once(p("bm", "trace_marker"), text, len);
	assert_true(n > 0 && n < 4096);
	assert_int_equal(echo(p("bm", "buffer_subbuf_size_kb"), W, "16"), 0);
	assert_int_equal(write_once(p("bm", "trace_marker"), text, len), (ssize_t)len);
	char *t = rd(p("bm", "trace"));
	char *want = malloc(len + 32);
	snprintf(want, len + 32, "tracing_mark_write: %s\n", text);
	assert_int_equal(tfs_count(t, want), 1);
	free(t);
	/* Up to about the sub-buffer: a write of 16 KiB keeps nearly all. */
	char *most = marker_text(16384);
	n = write_once(p("bm", "trace_marker"), most, 16384);
	assert_true(n > 16384 - 100 && n < 16384);
	free(most);
	/* trace_marker_raw takes as much. */
	char *raw = calloc(1, 12000);
	assert_int_equal(write_once(p("bm", "trace_marker_raw"), raw, 12000), 12000);
	free(raw);
	free(want);
	free(text);
	rminst("bm");
}

/* As the kernel's selftest (ringbuffer_subbuf_size.tc): a marker of a
 * page's data size does not fit one record; echo writes the rest after
 * the short write, and the records' texts put together give it back. */
static void test_marker_split_per_size(void **state)
{
	(void)state;
	mkinst("ms");
	static const char *sizes[] = {"4", "8", "16", "32"};
	for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		assert_int_equal(echo(p("ms", "buffer_subbuf_size_kb"), W, sizes[k]), 0);
		size_t data = strtoul(sizes[k], NULL, 10) * 1024 - 16;
		char *t = rd(p("ms", "events/header_page"));
		char want_hp[64];
		snprintf(want_hp, sizeof(want_hp), "offset:16;\tsize:%zu;", data);
		assert_non_null(strstr(t, want_hp));
		free(t);
		char *text = malloc(data + 2);
		memset(text, 'X', data);
		text[data] = '\n';
		text[data + 1] = 0;
		struct uft_tfs_handle *h;
		assert_int_equal(uft_tracefs_open(p("ms", "trace_marker"), UFT_TFS_WRITE, &h), 0);
		size_t done = 0;
		int writes = 0;
		while (done < data + 1) {
			ssize_t n = uft_tracefs_write(h, text + done, data + 1 - done, 0);
			assert_true(n > 0);
			done += (size_t)n;
			writes++;
		}
		uft_tracefs_release(h);
		assert_int_equal(writes, 2);
		/* The records' texts, in order, without their newlines. */
		t = rd(p("ms", "trace"));
		size_t got = 0;
		for (char *l = strstr(t, "tracing_mark_write: "); l;
		     l = strstr(l, "tracing_mark_write: ")) {
			l += strlen("tracing_mark_write: ");
			size_t n = strcspn(l, "\n");
			for (size_t i = 0; i < n; i++)
				assert_int_equal(l[i], 'X');
			got += n;
			l += n;
		}
		assert_int_equal(got, data);
		free(t);
		free(text);
	}
	rminst("ms");
}

/* Reads every page of an instance's trace_pipe_raw with reads of `chunk`
 * bytes, checking each page is `size` bytes; returns the print records'
 * total text length and counts them in *nr. */
static size_t raw_prints(const char *inst, uint32_t size, size_t chunk, int *nr)
{
	size_t text = 0;
	*nr = 0;
	uint8_t *page = malloc(size);
	assert_non_null(page);
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	for (long cpu = 0; cpu < ncpu; cpu++) {
		char path[96];
		snprintf(path, sizeof(path), "instances/%s/per_cpu/cpu%ld/trace_pipe_raw", inst,
			 cpu);
		struct uft_tfs_handle *h;
		assert_int_equal(uft_tracefs_open(path, UFT_TFS_READ | UFT_TFS_NONBLOCK, &h), 0);
		for (;;) {
			size_t got = 0;
			while (got < size) {
				size_t want = size - got < chunk ? size - got : chunk;
				ssize_t n = uft_tracefs_read(h, (char *)page + got, want, 0);
				if (n == -EAGAIN && !got)
					break;
				assert_int_equal(n, (ssize_t)want);
				got += (size_t)n;
			}
			if (!got)
				break;
			struct uft_page_iter it;
			struct uft_page_rec rec;
			uft_page_iter_init(&it, page, size);
			while (uft_page_iter_next(&it, &rec) > 0) {
				uint16_t type;
				memcpy(&type, rec.data, 2);
				if (type != UFT_ID_PRINT)
					continue;
				(*nr)++;
				text += strnlen((const char *)rec.data + 16, rec.len - 16);
			}
			assert_false(it.corrupt);
		}
		uft_tracefs_release(h);
	}
	free(page);
	return text;
}

static void test_pipe_raw_pages(void **state)
{
	(void)state;
	const size_t len = 9000;
	char *text = marker_text(len);
	mkinst("pr");
	assert_int_equal(echo(p("pr", "buffer_subbuf_size_kb"), W, "16"), 0);
	/* A read of a whole page gets the buffer's page size. */
	assert_int_equal(write_once(p("pr", "trace_marker"), text, len), (ssize_t)len);
	int nr;
	assert_int_equal(raw_prints("pr", 16384, 16384, &nr), len + 1); /* + newline */
	assert_int_equal(nr, 1);
	/* Smaller reads get the same page in pieces. */
	assert_int_equal(write_once(p("pr", "trace_marker"), text, len), (ssize_t)len);
	assert_int_equal(write_once(p("pr", "trace_marker"), "x", 1), 1);
	assert_int_equal(raw_prints("pr", 16384, 4096, &nr), len + 1 + 2);
	assert_int_equal(nr, 2);
	free(text);
	rminst("pr");
}

/* Events of a thread fill many 8 KiB pages (the inline path writes the
 * first 4 KiB of a page, the out-of-line one the rest) and all arrive. */
static void test_events_fill_big_pages(void **state)
{
	(void)state;
	mkinst("ev");
	assert_int_equal(echo(p("ev", "buffer_size_kb"), W, "1024"), 0);
	assert_int_equal(echo(p("ev", "buffer_subbuf_size_kb"), W, "8"), 0);
	assert_int_equal(echo(p("ev", "events/tfsev/num/enable"), W, "1"), 0);
	assert_int_equal(echo("events/tfsev/num/enable", W, "1"), 0);
	assert_int_equal(echo("buffer_subbuf_size_kb", W, "8"), 0);
	const int n = 3000;
	for (int i = 0; i < n; i++)
		trace_num(i, (unsigned)i, "big", "/pages");
	char *t = rd(p("ev", "trace"));
	assert_int_equal(tfs_count(t, "name=big path=/pages\n"), n);
	assert_int_equal(tfs_count(t, " a=2999 u=2999 "), 1);
	free(t);
	t = rd("trace");
	assert_int_equal(tfs_count(t, "name=big path=/pages\n"), n);
	free(t);
	/* Each ring's memory counts in pages of its own size. */
	t = rd(p("ev", "buffer_total_size_kb"));
	assert_true(strtoul(t, NULL, 10) >= 1024);
	free(t);
	assert_int_equal(echo("events/tfsev/num/enable", W, "0"), 0);
	assert_int_equal(echo("buffer_subbuf_size_kb", W, "4"), 0);
	rminst("ev");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_file_values),
	    cmocka_unit_test(test_resize_resets),
	    cmocka_unit_test(test_header_page),
	    cmocka_unit_test(test_big_marker),
	    cmocka_unit_test(test_pipe_raw_pages),
	    cmocka_unit_test(test_events_fill_big_pages),
	    cmocka_unit_test(test_marker_split_per_size),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
