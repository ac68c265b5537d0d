/* SPDX-License-Identifier: GPL-2.0-or-later */
/* trace.dat writer and parser (src/tracedat/tracedat_*.c): our parser reads back
 * what the writer produced, and so do libtracecmd and the trace-cmd tool. */
#define _GNU_SOURCE
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <event-parse.h>
#include <trace-cmd.h>

#include "wire/page_headers.h"
#include "wire/page.h"
#include "tracedat/tracedat.h"

/* Exported by libtracecmd but declared only in its private header. */
struct tep_record *tracecmd_read_next_data(struct tracecmd_input *handle, int *rec_cpu);

/* libtracecmd 1.3 leaks the clock name it parses out of every file with a
 * trace clock; not ours to fix, so LeakSanitizer looks away while it opens. */
#include "lsan_pause.h"

#define PS 4096u
#define SAMPLE_ID 100
#define MISSED 3
#define FIRST_AFTER_MISSED 5 /* index in samples[] */

static const char sample_format[] =
    "name: sample\n"
    "ID: 100\n"
    "format:\n"
    "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
    "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
    "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
    "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
    "\n"
    "\tfield:int value;\toffset:8;\tsize:4;\tsigned:1;\n"
    "\tfield:__data_loc char[] msg;\toffset:12;\tsize:4;\tsigned:0;\n"
    "\tfield:u64 big;\toffset:16;\tsize:8;\tsigned:0;\n"
    "\n"
    "print fmt: \"value=%d big=%llu msg=%s\", REC->value, REC->big, __get_str(msg)\n";

struct sample {
	uint64_t ts;
	int cpu;
	int pid;
	int value;
	uint64_t big;
	const char *msg;
	int page; /* which of the CPU's pages */
};

/* In time order. CPU 0 spans two pages; some gaps need TIME_EXTEND records. */
static const struct sample samples[] = {
    {1000000000ull, 0, 1234, 1, 10, "hello", 0},
    {1000000700ull, 1, 1235, 2, 20, "from cpu1", 0},
    {1000001000ull, 0, 1234, 3, 1ull << 40, "", 0},
    {1200000000ull, 1, 1235, -4, 40, "extended", 0},
    {1300000000ull, 0, 1234, 5, UINT64_MAX, "second", 0},
    {1300000001ull, 0, 1234, 6, 60, "page two", 1},
    {2500000000ull, 1, 1236, 7, 70, "last", 0},
    {2600000000ull, 0, 1234, 8, 80, "end", 1},
};
#define NR_SAMPLES (sizeof(samples) / sizeof(samples[0]))

static char tmpdir[64];
static char dat_path[128];
static uint8_t pages[2][2][PS]; /* [cpu][page] */
static int nr_pages[2];

static size_t encode(uint8_t *buf, const struct sample *s)
{
	size_t mlen = strlen(s->msg) + 1;
	uint16_t type = SAMPLE_ID;
	uint32_t loc = 24u | ((uint32_t)mlen << 16);
	memset(buf, 0, 24);
	memcpy(buf, &type, 2);
	memcpy(buf + 4, &s->pid, 4);
	memcpy(buf + 8, &s->value, 4);
	memcpy(buf + 12, &loc, 4);
	memcpy(buf + 16, &s->big, 8);
	memcpy(buf + 24, s->msg, mlen);
	return 24 + mlen;
}

/* `comp`: NULL for version 6, else a compression name (version 7). */
static int write_file(const char *path, const char *comp)
{
	struct tracedat_writer *w = tracedat_writer_open(path, 2, PS, "local");
	if (!w)
		return -errno;
	if (comp && tracedat_writer_set_compression(w, comp) != 0) {
		tracedat_writer_abort(w);
		return -EINVAL;
	}
	/* Pages are built per CPU, then handed over interleaved across CPUs. */
	for (int cpu = 0; cpu < 2; cpu++) {
		nr_pages[cpu] = 0;
		for (int p = 0; p < 2; p++) {
			struct uft_page_builder b;
			uint8_t buf[128];
			int n = 0;
			uft_page_builder_init(&b, pages[cpu][p], PS);
			for (size_t i = 0; i < NR_SAMPLES; i++) {
				if (samples[i].cpu != cpu || samples[i].page != p)
					continue;
				size_t len = encode(buf, &samples[i]);
				if (uft_page_builder_add(&b, samples[i].ts, buf, (uint32_t)len))
					return -ENOSPC;
				n++;
			}
			if (!n)
				continue;
			/* Events lost between CPU 0's two pages. */
			uft_page_builder_finish(&b, cpu == 0 && p == 1 ? MISSED : 0);
			nr_pages[cpu]++;
		}
	}
	int rc = 0;
	rc |= tracedat_writer_add_page(w, 1, pages[1][0]);
	rc |= tracedat_writer_add_page(w, 0, pages[0][0]);
	rc |= tracedat_writer_add_format(w, "uftt", sample_format);
	rc |= tracedat_writer_add_page(w, 0, pages[0][1]);
	rc |= tracedat_writer_add_cmdline(w, 1234, "worker");
	rc |= tracedat_writer_add_cmdline(w, 1235, "helper");
	rc |= tracedat_writer_add_cmdline(w, 1236, "late");
	static const char uname[] = "Linux testhost 6.1.0 x86_64";
	rc |= tracedat_writer_add_option(w, TRACEDAT_OPT_UNAME, uname, sizeof(uname));
	static const char version[] = "uft-test";
	rc |= tracedat_writer_add_option(w, TRACEDAT_OPT_VERSION, version, sizeof(version));
	if (rc) {
		tracedat_writer_abort(w);
		return rc;
	}
	return tracedat_writer_close(w);
}

static int setup(void **state)
{
	strcpy(tmpdir, "/tmp/uft-test-tracedat-XXXXXX");
	if (!mkdtemp(tmpdir))
		return -1;
	snprintf(dat_path, sizeof(dat_path), "%s/trace.dat", tmpdir);
	return write_file(dat_path, NULL) == 0 ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[256];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

static uint8_t *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	uint8_t *buf = malloc((size_t)n);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return buf;
}

static bool has_trace_cmd(void)
{
	return system("command -v trace-cmd >/dev/null 2>&1") == 0;
}

/* What both file versions must give back. */
static void check_contents(const struct tracedat *td)
{
	assert_int_equal(td->long_size, 8);
	assert_false(td->big_endian);
	assert_int_equal(td->page_size, PS);
	assert_string_equal(td->header_page, uft_header_page_text());
	assert_string_equal(td->header_event, uft_header_event_text());
	assert_int_equal(td->nr_ftrace, 0);
	assert_int_equal(td->nr_events, 1);
	assert_string_equal(td->events[0].system, "uftt");
	assert_int_equal(td->events[0].len, strlen(sample_format));
	assert_string_equal(td->events[0].text, sample_format);
	assert_string_equal(td->cmdlines, "1234 worker\n1235 helper\n1236 late\n");
	assert_int_equal(td->kallsyms_len, 0);
	assert_int_equal(td->printk_len, 0);
	assert_int_equal(td->nr_cpus, 2);
	assert_string_equal(td->clock, "local");
	assert_false(td->latency);
	assert_int_equal(td->nr_instances, 0);

	assert_int_equal(td->nr_cpu_data, 2);
	for (int cpu = 0; cpu < 2; cpu++) {
		const struct tracedat_cpu *cd = &td->cpus[cpu];
		assert_int_equal(cd->cpu, cpu);
		if (!td->compression[0]) /* compressed chunks need no alignment */
			assert_int_equal(cd->offset % PS, 0);
		assert_int_equal(cd->size, (uint64_t)nr_pages[cpu] * PS);
		for (int p = 0; p < nr_pages[cpu]; p++)
			assert_memory_equal(cd->data + (size_t)p * PS, pages[cpu][p], PS);
	}

	const struct tracedat_option *o = tracedat_find_option(td, TRACEDAT_OPT_UNAME);
	assert_non_null(o);
	assert_string_equal((const char *)o->data, "Linux testhost 6.1.0 x86_64");
	o = tracedat_find_option(td, TRACEDAT_OPT_CPUCOUNT);
	assert_non_null(o);
	assert_int_equal(o->size, 4);
	o = tracedat_find_option(td, TRACEDAT_OPT_TRACECLOCK);
	assert_non_null(o);
	assert_non_null(strstr((const char *)o->data, "[local] global"));
}

static void test_read_back(void **state)
{
	char err[256];
	struct tracedat *td = tracedat_open(dat_path, err, sizeof(err));
	if (!td)
		fail_msg("tracedat_open: %s", err);
	assert_int_equal(td->version, 6);
	check_contents(td);

	/* The records decode from the file's pages, in order per CPU. */
	for (int cpu = 0; cpu < 2; cpu++) {
		size_t next = 0;
		for (uint64_t off = 0; off < td->cpus[cpu].size; off += PS) {
			struct uft_page_iter it;
			struct uft_page_rec r;
			uft_page_iter_init(&it, td->cpus[cpu].data + off, PS);
			while (uft_page_iter_next(&it, &r) == 1) {
				while (samples[next].cpu != cpu)
					next++;
				uint8_t buf[128];
				size_t len = encode(buf, &samples[next]);
				assert_int_equal(r.ts, samples[next].ts);
				assert_memory_equal(r.data, buf, len);
				next++;
			}
			assert_false(it.corrupt);
		}
	}
	tracedat_free(td);

	/* Same result from memory. */
	size_t len;
	uint8_t *buf = slurp(dat_path, &len);
	td = tracedat_parse(buf, len, err, sizeof(err));
	if (!td)
		fail_msg("tracedat_parse: %s", err);
	check_contents(td);
	assert_ptr_equal(td->cpus[0].data, buf + td->cpus[0].offset);
	tracedat_free(td);
	free(buf);
}

static void test_libtracecmd(void **state)
{
	__lsan_disable();
	struct tracecmd_input *h = tracecmd_open(dat_path, TRACECMD_FL_LOAD_NO_PLUGINS);
	__lsan_enable();
	assert_non_null(h);
	struct tep_handle *tep = tracecmd_get_tep(h);
	assert_non_null(tep);
	assert_int_equal(tep_get_header_page_size(tep), 8);

	struct tep_record *rec;
	struct trace_seq s;
	trace_seq_init(&s);
	size_t n = 0;
	int cpu;
	while ((rec = tracecmd_read_next_data(h, &cpu))) {
		assert_true(n < NR_SAMPLES);
		const struct sample *want = &samples[n];
		assert_int_equal(rec->ts, want->ts);
		assert_int_equal(cpu, want->cpu);
		assert_int_equal(rec->cpu, want->cpu);
		assert_int_equal(rec->missed_events, n == FIRST_AFTER_MISSED ? MISSED : 0);
		struct tep_event *ev = tep_find_event_by_record(tep, rec);
		assert_non_null(ev);
		assert_string_equal(ev->system, "uftt");
		assert_string_equal(ev->name, "sample");
		assert_int_equal(tep_data_pid(tep, rec), want->pid);
		unsigned long long val;
		assert_int_equal(tep_get_field_val(&s, ev, "value", rec, &val, 1), 0);
		assert_int_equal((int)val, want->value);
		assert_int_equal(tep_get_field_val(&s, ev, "big", rec, &val, 1), 0);
		assert_int_equal(val, want->big);
		int len;
		const char *msg = tep_get_field_raw(&s, ev, "msg", rec, &len, 1);
		assert_non_null(msg);
		assert_string_equal(msg, want->msg);
		tracecmd_free_record(rec);
		n++;
	}
	assert_int_equal(n, NR_SAMPLES);
	assert_string_equal(tep_data_comm_from_pid(tep, 1235), "helper");
	trace_seq_destroy(&s);
	tracecmd_close(h);
}

static void test_trace_cmd_report(void **state)
{
	if (!has_trace_cmd()) {
		print_message("trace-cmd not in PATH: skipping the report comparison\n");
		skip();
	}
	char cmd[256], line[512];
	snprintf(cmd, sizeof(cmd), "trace-cmd report -i '%s' 2>&1", dat_path);
	FILE *p = popen(cmd, "r");
	assert_non_null(p);
	size_t n = 0, dropped = 0;
	static const char *const comm[] = {[0] = "worker", [1] = "helper", [2] = "late"};
	while (fgets(line, sizeof(line), p)) {
		char *ev = strstr(line, " sample: ");
		if (strcmp(line, "CPU:0 [3 EVENTS DROPPED]\n") == 0) {
			assert_int_equal(n, FIRST_AFTER_MISSED);
			dropped++;
			continue;
		}
		if (!ev) {
			assert_true(strncmp(line, "cpus=", 5) == 0); /* the only other line */
			continue;
		}
		assert_true(n < NR_SAMPLES);
		const struct sample *s = &samples[n];
		char want[256], ctx[128];
		/* Event part: everything after the event name, exactly. */
		ev += strlen(" sample:");
		while (*ev == ' ')
			ev++;
		snprintf(want, sizeof(want), "value=%d big=%llu msg=%s\n", s->value,
			 (unsigned long long)s->big, s->msg);
		assert_string_equal(ev, want);
		/* Context: comm-pid, [cpu] and the time in seconds (clock "local"). */
		snprintf(ctx, sizeof(ctx), "%s-%d", comm[s->pid - 1234], s->pid);
		if (!strstr(line, ctx))
			fail_msg("\"%s\" not in: %s", ctx, line);
		snprintf(ctx, sizeof(ctx), "[%03d]", s->cpu);
		if (!strstr(line, ctx))
			fail_msg("\"%s\" not in: %s", ctx, line);
		unsigned long long us = (s->ts + 500) / 1000; /* report rounds to µs */
		snprintf(ctx, sizeof(ctx), " %llu.%06llu: ", us / 1000000, us % 1000000);
		if (!strstr(line, ctx))
			fail_msg("\"%s\" not in: %s", ctx, line);
		n++;
	}
	assert_int_equal(pclose(p), 0);
	assert_int_equal(n, NR_SAMPLES);
	assert_int_equal(dropped, 1);
}

/* trace-cmd converts our v6 file to v7; our parser must read that too. */
static void test_v7(void **state)
{
	if (!has_trace_cmd()) {
		print_message("trace-cmd not in PATH: skipping the version 7 parse\n");
		skip();
	}
	char cmd[512], v7[160], err[256];
	snprintf(v7, sizeof(v7), "%s/v7.dat", tmpdir);
	snprintf(cmd, sizeof(cmd),
		 "trace-cmd convert --file-version 7 --compression none -i '%s' -o '%s' "
		 ">/dev/null 2>&1",
		 dat_path, v7);
	assert_int_equal(system(cmd), 0);
	struct tracedat *td = tracedat_open(v7, err, sizeof(err));
	if (!td)
		fail_msg("tracedat_open v7: %s", err);
	assert_int_equal(td->version, 7);
	check_contents(td);
	tracedat_free(td);

	snprintf(cmd, sizeof(cmd),
		 "trace-cmd convert --file-version 7 --compression any -i '%s' -o '%s' "
		 ">/dev/null 2>&1",
		 dat_path, v7);
	if (system(cmd) != 0) {
		print_message("trace-cmd has no compression: skipping that case\n");
		return;
	}
	td = tracedat_open(v7, err, sizeof(err));
	if (!td)
		fail_msg("tracedat_open compressed v7: %s", err);
	assert_int_equal(td->version, 7);
	assert_string_equal(td->compression, "zstd");
	check_contents(td);
	tracedat_free(td);
}

static void expect_error(const uint8_t *buf, size_t len, const char *msg);

static void put32(uint8_t *p, uint32_t v)
{
	memcpy(p, &v, 4);
}

/* Our own compressed files read back, and hostile sizes and bytes in them
 * fail with a message, never a large allocation or a crash. */
static void test_compressed(void **state)
{
	static const char *const algs[] = {"zstd", "zlib"};
	char path[160], err[256];
	snprintf(path, sizeof(path), "%s/z.dat", tmpdir);
	for (size_t a = 0; a < 2; a++) {
		assert_int_equal(write_file(path, algs[a]), 0);
		struct tracedat *td = tracedat_open(path, err, sizeof(err));
		if (!td)
			fail_msg("%s: %s", algs[a], err);
		assert_int_equal(td->version, 7);
		assert_string_equal(td->compression, algs[a]);
		check_contents(td);
		uint64_t chunk = td->cpus[0].offset; /* u32 count, u32 csize, u32 usize */
		tracedat_free(td);

		size_t len;
		uint8_t *buf = slurp(path, &len), *copy = malloc(len);
		uint32_t usize;
		memcpy(&usize, buf + chunk + 8, 4);
		assert_int_equal(usize, 2 * PS);

		memcpy(copy, buf, len);
		put32(copy + chunk + 8, 0xfffff000u);
		expect_error(copy, len, "claims 4294963200 bytes uncompressed, more than the");
		memcpy(copy, buf, len);
		put32(copy + chunk + 8, usize + PS);
		expect_error(copy, len, "smaller than the size it claims");
		memcpy(copy, buf, len);
		put32(copy + chunk + 8, PS);
		expect_error(copy, len, "larger than the size it claims");
		memcpy(copy, buf, len);
		put32(copy + chunk + 4, 0x7fffffffu);
		expect_error(copy, len, "truncated");
		memcpy(copy, buf, len);
		memset(copy + chunk + 12, 0xa5, 8);
		expect_error(copy, len, "decompression failed");
		memcpy(copy, buf, len);
		memcpy(copy + 18, "zsxd", 4); /* after the page size */
		expect_error(copy, len, "unsupported compression \"zsxd\"");

		/* The limit holds for the metadata sections too. */
		tracedat_set_inflate_limit(100);
		expect_error(buf, len, "more than the 100 bytes a file may expand to");
		tracedat_set_inflate_limit(TRACEDAT_INFLATE_LIMIT);

		for (size_t n = 0; n < len; n += 7) {
			assert_null(tracedat_parse(buf, n, err, sizeof(err)));
			assert_true(err[0] != 0);
		}
		srand(11);
		for (int i = 0; i < 2000; i++) {
			memcpy(copy, buf, len);
			for (int k = 0; k < 1 + i % 4; k++)
				copy[(size_t)rand() % len] ^= (uint8_t)(1 + rand() % 255);
			tracedat_free(tracedat_parse(copy, len, err, sizeof(err)));
		}
		free(copy);
		free(buf);
	}
	struct tracedat_writer *w = tracedat_writer_open(path, 1, PS, "local");
	assert_non_null(w);
	assert_int_equal(tracedat_writer_set_compression(w, "lz4"), -EINVAL);
	tracedat_writer_abort(w);
}

static void test_headers(void **state)
{
	char buf[512];
	int n = uft_header_page_format(buf, sizeof(buf), 4096);
	assert_int_equal(n, strlen(uft_header_page_text()));
	assert_string_equal(buf, uft_header_page_text());

	struct tep_handle *tep = tep_alloc();
	assert_int_equal(tep_parse_header_page(tep, buf, (unsigned long)n, 8), 0);
	assert_int_equal(tep_get_header_page_size(tep), 8);
	assert_int_equal(tep_get_sub_buffer_size(tep), 4096);
	tep_free(tep);

	n = uft_header_page_format(buf, sizeof(buf), 16384);
	assert_non_null(strstr(buf, "\tfield: char data;\toffset:16;\tsize:16368;\tsigned:0;\n"));
}

static void test_writer_errors(void **state)
{
	char path[160];
	snprintf(path, sizeof(path), "%s/err.dat", tmpdir);
	errno = 0;
	assert_null(tracedat_writer_open(path, 0, PS, "local"));
	assert_int_equal(errno, EINVAL);
	assert_null(tracedat_writer_open(path, 1, 1000, "local"));
	assert_null(tracedat_writer_open(path, 1, PS, "[local]"));
	assert_null(tracedat_writer_open("/nonexistent-dir/x.dat", 1, PS, "local"));

	struct tracedat_writer *w = tracedat_writer_open(path, 2, PS, "mono");
	assert_non_null(w);
	uint8_t page[PS] = {0};
	assert_int_equal(tracedat_writer_add_page(w, 2, page), -EINVAL);
	assert_int_equal(tracedat_writer_add_page(w, -1, page), -EINVAL);
	assert_int_equal(tracedat_writer_add_option(w, TRACEDAT_OPT_TRACECLOCK, "x", 2), -EINVAL);
	assert_int_equal(tracedat_writer_add_option(w, TRACEDAT_OPT_CPUCOUNT, "x", 2), -EINVAL);
	assert_int_equal(tracedat_writer_add_option(w, TRACEDAT_OPT_HEADER_INFO, "x", 2), -EINVAL);
	assert_int_equal(tracedat_writer_add_format(w, "", "x"), -EINVAL);
	assert_int_equal(tracedat_writer_add_cmdline(w, 1, "a\nb"), -EINVAL);
	tracedat_writer_abort(w);
	struct stat st;
	assert_int_not_equal(stat(path, &st), 0); /* abort removes the file */

	/* An empty trace (no pages, unknown clock) is still a valid file. */
	w = tracedat_writer_open(path, 3, PS, "myclock");
	assert_non_null(w);
	assert_int_equal(tracedat_writer_set_kallsyms(w, "ffffffff81000000 T _text\n", 25), 0);
	assert_int_equal(tracedat_writer_add_format(w, "ftrace", "name: x\nID: 7\nformat:\n"), 0);
	assert_int_equal(tracedat_writer_close(w), 0);
	char err[256];
	struct tracedat *td = tracedat_open(path, err, sizeof(err));
	if (!td)
		fail_msg("%s", err);
	assert_int_equal(td->nr_cpus, 3);
	assert_string_equal(td->clock, "myclock");
	assert_int_equal(td->nr_ftrace, 1);
	assert_string_equal(td->ftrace[0].system, "ftrace");
	assert_int_equal(td->kallsyms_len, 25);
	for (int i = 0; i < 3; i++)
		assert_int_equal(td->cpus[i].size, 0);
	tracedat_free(td);
}

static void expect_error(const uint8_t *buf, size_t len, const char *msg)
{
	char err[256];
	struct tracedat *td = tracedat_parse(buf, len, err, sizeof(err));
	assert_null(td);
	if (!strstr(err, msg))
		fail_msg("error \"%s\" lacks \"%s\"", err, msg);
}

static void test_parse_errors(void **state)
{
	size_t len;
	uint8_t *buf = slurp(dat_path, &len);
	uint8_t *copy = malloc(len);

	expect_error(buf, 0, "not a trace.dat file");
	expect_error(NULL, 100, "not a trace.dat file");
	memcpy(copy, buf, len);
	copy[3] = 'T';
	expect_error(copy, len, "bad magic");
	memcpy(copy, buf, len);
	copy[10] = '5';
	expect_error(copy, len, "unsupported trace.dat version");
	memcpy(copy, buf, len);
	copy[13] = 4; /* long size at 10 + strlen("6") + 1 + 1 */
	expect_error(copy, 30, "truncated");
	expect_error(buf, 4096, "CPU 0 data");

	/* Every truncation fails cleanly (or, past the metadata, on CPU data). */
	for (size_t n = 0; n < len; n += (n < 4096 ? 1 : 509)) {
		uint8_t *t = malloc(n ? n : 1);
		memcpy(t, buf, n);
		char err[256];
		struct tracedat *td = tracedat_parse(t, n, err, sizeof(err));
		assert_null(td);
		assert_true(err[0] != 0);
		free(t);
	}
	/* Flipped bytes in the metadata never crash (sanitizer builds check). */
	srand(7);
	for (int i = 0; i < 2000; i++) {
		memcpy(copy, buf, len);
		for (int k = 0; k < 1 + i % 4; k++)
			copy[(size_t)rand() % 1400] ^= (uint8_t)(1 + rand() % 255);
		char err[256];
		tracedat_free(tracedat_parse(copy, len, err, sizeof(err)));
	}
	free(copy);
	free(buf);
}

/* Pages in raw cycles with TSC2NSEC and OFFSET: our parser gives every
 * record the time libtracecmd gives it. 64 ns a cycle makes each converted
 * delta need a TIME_EXTEND, so a full page of cycles becomes two of ns. */
/* A latency file: the text after "latency", no pages, no clock option
 * (trace-cmd would read a clock block after the tag), even when a
 * compression was asked; the parser gives the text back whole. */
static void test_latency(void **state)
{
	(void)state;
	static const char text[] = "# tracer: irqsoff\n#\n# irqsoff latency trace v1.1.5 on x\n";
	char path[160];
	snprintf(path, sizeof(path), "%s/lat.dat", tmpdir);
	struct tracedat_writer *w = tracedat_writer_open(path, 2, PS, "local");
	assert_non_null(w);
	assert_int_equal(tracedat_writer_set_compression(w, "zlib"), 0);
	static uint8_t page[PS];
	assert_int_equal(tracedat_writer_add_page(w, 0, page), 0); /* left out */
	assert_int_equal(tracedat_writer_set_latency(w, text, strlen(text)), 0);
	assert_int_equal(tracedat_writer_close(w), 0);
	char err[256];
	struct tracedat *td = tracedat_open(path, err, sizeof(err));
	assert_non_null(td);
	assert_int_equal(td->version, 6);
	assert_true(td->latency);
	assert_int_equal(td->latency_len, strlen(text));
	assert_memory_equal(td->latency_text, text, strlen(text));
	assert_null(tracedat_find_option(td, TRACEDAT_OPT_TRACECLOCK));
	tracedat_free(td);
	/* trace-cmd prints "cpus=N", the text and a new line. */
	char cmd[400];
	snprintf(cmd, sizeof(cmd), "trace-cmd report -i %s 2>/dev/null", path);
	if (system("command -v trace-cmd >/dev/null 2>&1") != 0)
		return;
	FILE *f = popen(cmd, "r");
	assert_non_null(f);
	char out[512] = {0};
	size_t n = fread(out, 1, sizeof(out) - 1, f);
	pclose(f);
	char want[512];
	snprintf(want, sizeof(want), "cpus=2\n%s\n", text);
	assert_int_equal(n, strlen(want));
	assert_string_equal(out, want);
}

static void test_tsc2nsec(void **state)
{
	enum { NREC = 300, MULT = 64u << 22, SHIFT = 22 };
	char path[160];
	snprintf(path, sizeof(path), "%s/tsc.dat", tmpdir);
	struct tracedat_writer *w = tracedat_writer_open(path, 1, PS, "local");
	assert_non_null(w);
	static uint8_t page[PS];
	struct uft_page_builder b;
	uft_page_builder_init(&b, page, PS);
	uint64_t cyc = 5000000000ull;
	int pages_out = 0;
	for (int i = 0; i < NREC; i++) {
		struct sample s = {cyc, 0, 1234, i, (uint64_t)i, "", 0};
		uint8_t buf[64];
		size_t len = encode(buf, &s);
		if (uft_page_builder_add(&b, cyc, buf, (uint32_t)len) == -1) {
			uft_page_builder_finish(&b, pages_out == 1 ? MISSED : 0);
			assert_int_equal(tracedat_writer_add_page(w, 0, page), 0);
			pages_out++;
			uft_page_builder_init(&b, page, PS);
			assert_int_equal(uft_page_builder_add(&b, cyc, buf, (uint32_t)len), 0);
		}
		cyc += 1u << 22;
	}
	uft_page_builder_finish(&b, 0);
	assert_int_equal(tracedat_writer_add_page(w, 0, page), 0);
	assert_int_equal(tracedat_writer_add_format(w, "uftt", sample_format), 0);
	uint8_t o[16] = {0};
	uint32_t mult = MULT, shift = SHIFT;
	memcpy(o, &mult, 4);
	memcpy(o + 4, &shift, 4);
	assert_int_equal(tracedat_writer_add_option(w, TRACEDAT_OPT_TSC2NSEC, o, sizeof(o)), 0);
	static const char off[] = "-123456789";
	assert_int_equal(tracedat_writer_add_option(w, TRACEDAT_OPT_OFFSET, off, sizeof(off)), 0);
	assert_int_equal(tracedat_writer_close(w), 0);

	char err[256];
	struct tracedat *td = tracedat_open(path, err, sizeof(err));
	if (!td)
		fail_msg("tracedat_open: %s", err);
	assert_true(td->cpus[0].size > (uint64_t)(pages_out + 1) * PS); /* pages split */
	__lsan_disable();
	struct tracecmd_input *h = tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS);
	__lsan_enable();
	assert_non_null(h);
	struct tep_record *rec;
	int n = 0, cpu, lost_seen = 0;
	uint64_t off_page = 0;
	struct uft_page_iter it;
	struct uft_page_rec r;
	uft_page_iter_init(&it, td->cpus[0].data, PS);
	while ((rec = tracecmd_read_next_data(h, &cpu))) {
		while (uft_page_iter_next(&it, &r) != 1) {
			off_page += PS;
			assert_true(off_page < td->cpus[0].size);
			uft_page_iter_init(&it, td->cpus[0].data + off_page, PS);
			if (it.missed) {
				assert_int_equal(it.missed_count, MISSED);
				lost_seen++;
			}
		}
		assert_int_equal(r.ts, rec->ts);
		tracecmd_free_record(rec);
		n++;
	}
	assert_int_equal(n, NREC);
	assert_int_equal(lost_seen, 1);
	uint64_t first = 5000000000ull * MULT >> SHIFT;
	uft_page_iter_init(&it, td->cpus[0].data, PS);
	assert_int_equal(uft_page_iter_next(&it, &r), 1);
	assert_int_equal(r.ts, first - 123456789ull);
	tracecmd_close(h);
	tracedat_free(td);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_read_back),	     cmocka_unit_test(test_libtracecmd),
	    cmocka_unit_test(test_trace_cmd_report), cmocka_unit_test(test_v7),
	    cmocka_unit_test(test_headers),	     cmocka_unit_test(test_writer_errors),
	    cmocka_unit_test(test_parse_errors),     cmocka_unit_test(test_compressed),
	    cmocka_unit_test(test_tsc2nsec),	     cmocka_unit_test(test_latency),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
