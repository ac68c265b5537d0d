/* SPDX-License-Identifier: GPL-2.0-or-later */
/* uft extract: a running process's buffer as it is, into a trace.dat file,
 * as trace-cmd extract does with the kernel's: the event formats, the comms,
 * and each CPU's pages read from per_cpu/cpuN/trace_pipe_raw (which consumes
 * them). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "wire/shm_layout.h"
#include "cmd/commands.h"
#include "cmd/live_args.h"
#include "recorder/proc_syms.h"
#include "tracedat/tracedat.h"

/* Formats of every event, from events/SYSTEM/EVENT/format. */
static int add_formats(struct live *l, struct tracedat_writer *w)
{
	struct live_names sys = {.dirs_only = true};
	int rc = live_readdir(l, "events", &sys);
	for (size_t i = 0; i < sys.n && rc == 0; i++) {
		struct live_names ev = {.dirs_only = true};
		char dir[256];
		snprintf(dir, sizeof(dir), "events/%s", sys.v[i]);
		rc = live_readdir(l, dir, &ev);
		for (size_t j = 0; j < ev.n && rc == 0; j++) {
			char file[384];
			snprintf(file, sizeof(file), "%s/%s/format", dir, ev.v[j]);
			int err;
			char *text = live_cat(l, file, NULL, &err);
			if (!text) {
				rc = err;
				break;
			}
			rc = tracedat_writer_add_format(w, sys.v[i], text);
			free(text);
		}
		live_names_free(&ev);
	}
	live_names_free(&sys);
	return rc;
}

static int add_cmdlines(struct live *l, struct tracedat_writer *w)
{
	int err;
	char *text = live_cat(l, "saved_cmdlines", NULL, &err);
	if (!text)
		return 0; /* an instance has none of its own: the top's are used */
	int rc = 0;
	char *save = NULL;
	for (char *line = strtok_r(text, "\n", &save); line && !rc;
	     line = strtok_r(NULL, "\n", &save)) {
		char *sp = strchr(line, ' ');
		if (sp)
			rc = tracedat_writer_add_cmdline(w, atoi(line), sp + 1);
	}
	free(text);
	return rc;
}

/* One page of `size` bytes, read in pieces the protocol carries (a page
 * larger than a read continues with the next reads). Its size, 0 when the
 * CPU has nothing, or -errno. */
static ssize_t read_page(struct live *l, int h, char *page, uint32_t size)
{
	uint32_t got = 0;
	while (got < size) {
		ssize_t n = uft_ctl_read(l->c, h, page + got, size - got, 0);
		if ((n == -EAGAIN || n == 0) && !got)
			return 0;
		if (n <= 0)
			return n ? n : -EPROTO; /* a page cut short */
		got += (uint32_t)n;
	}
	return size;
}

/* Every page of one CPU; returns the number of pages or -errno. */
static long add_pages(struct live *l, struct tracedat_writer *w, int cpu, uint32_t page_size)
{
	char file[64], path[256];
	snprintf(file, sizeof(file), "per_cpu/cpu%d/trace_pipe_raw", cpu);
	int h = uft_ctl_open(l->c, live_path(l, file, path, sizeof(path)),
			     UFT_TFS_READ | UFT_TFS_NONBLOCK);
	if (h < 0)
		return h;
	char *page = malloc(page_size);
	long pages = page ? 0 : -ENOMEM;
	while (page) {
		ssize_t n = read_page(l, h, page, page_size);
		if (n <= 0) {
			if (n < 0)
				pages = n;
			break;
		}
		int rc = tracedat_writer_add_page(w, cpu, page);
		if (rc) {
			pages = rc;
			break;
		}
		pages++;
	}
	free(page);
	uft_ctl_release(l->c, h);
	return pages;
}

static int add_stats(struct live *l, struct tracedat_writer *w, int cpu)
{
	char file[64];
	int err;
	snprintf(file, sizeof(file), "per_cpu/cpu%d/stats", cpu);
	char *s = live_cat(l, file, NULL, &err);
	if (!s)
		return 0;
	char *text;
	int rc = 0;
	int n = asprintf(&text, "CPU: %d\n%s", cpu, s);
	if (n >= 0) {
		rc = tracedat_writer_add_option(w, TRACEDAT_OPT_CPUSTAT, text, (uint32_t)n + 1);
		free(text);
	}
	free(s);
	return rc;
}

static char *bracketed(char *s)
{
	char *open = s ? strchr(s, '[') : NULL, *close = open ? strchr(open, ']') : NULL;
	if (!close)
		return NULL;
	*close = 0;
	return open + 1;
}

static const char usage[] =
    "usage: uft extract [-p PID] [-B INSTANCE] [-o FILE] [--compression ALG]\n"
    "  Writes what the process's buffer holds now into FILE (trace.dat),\n"
    "  consuming it as trace_pipe_raw does.\n"
    "  --compression ALG  zstd or zlib: a compressed trace.dat version 7;\n"
    "             none (default): version 6\n";

struct extract_opts {
	struct live_args live;
	const char *out;
	const char *compression; /* NULL: version 6 */
};

static const struct cli extract_cli;

static int take(void *opts, int opt, char *arg)
{
	struct extract_opts *o = opts;
	if (live_args_take(&o->live, opt, arg))
		return CLI_OK;
	if (opt == 'Z') {
		if (strcmp(arg, "zstd") != 0 && strcmp(arg, "zlib") != 0 &&
		    strcmp(arg, "none") != 0)
			return cli_error(&extract_cli, "compression must be zstd, zlib or none");
		o->compression = strcmp(arg, "none") == 0 ? NULL : arg;
		return CLI_OK;
	}
	o->out = arg; /* -o */
	return CLI_OK;
}

static const struct option extract_longopts[] = {
    {"help", no_argument, NULL, 'h'},
    {"compression", required_argument, NULL, 'Z'},
    {NULL, 0, NULL, 0},
};
static const struct cli extract_cli = {"uft extract", usage, "p:B:o:h", extract_longopts, take};

static int parse(struct extract_opts *o, int argc, char **argv)
{
	const struct cli cli = extract_cli;
	int first;
	int rc = cli_parse(&cli, o, argc, argv, &first);
	if (rc == CLI_OK && first != argc)
		rc = cli_usage_error(&cli);
	return rc;
}

/* The process's functions, for function tracer records. */
static int add_kallsyms(struct live *l, struct tracedat_writer *w)
{
	struct proc_syms *syms = proc_syms_new();
	if (syms && l->pidstr[0])
		proc_syms_scan(syms, (pid_t)atoi(l->pidstr));
	size_t len;
	char *text = proc_syms_kallsyms(syms, &len);
	int rc = text ? tracedat_writer_set_kallsyms(w, text, len) : -ENOMEM;
	free(text);
	proc_syms_free(syms);
	return rc;
}

/* The buffer's sub-buffer size: the pages trace_pipe_raw gives (4 KiB
 * from a process without the file). */
static uint32_t subbuf_size(struct live *l)
{
	int err;
	char *text = live_cat(l, "buffer_subbuf_size_kb", NULL, &err);
	unsigned long kb = text ? strtoul(text, NULL, 10) : 0;
	free(text);
	return kb <= UFT_SUBBUF_MAX / 1024 && uft_subbuf_valid(kb * 1024u) ? (uint32_t)kb * 1024u
									   : UFT_SUBBUF_SIZE;
}

/* A writer for out with the process's CPU count, clock and page size. */
static struct tracedat_writer *open_writer(struct live *l, const char *out, int *nr_cpus,
					   uint32_t *page_size)
{
	struct live_names cpus = {0};
	live_readdir(l, "per_cpu", &cpus);
	*nr_cpus = (int)cpus.n > 0 ? (int)cpus.n : 1;
	live_names_free(&cpus);
	int err;
	char *clock_text = live_cat(l, "trace_clock", NULL, &err);
	const char *clock = bracketed(clock_text);
	*page_size = subbuf_size(l);
	struct tracedat_writer *w =
	    tracedat_writer_open(out, *nr_cpus, *page_size, clock ? clock : "local");
	free(clock_text);
	return w;
}

/* Everything but the pages, then each CPU's pages and stats. */
static int fill(struct live *l, struct tracedat_writer *w, int nr_cpus, uint32_t page_size,
		long *total)
{
	int rc = add_formats(l, w);
	if (!rc)
		rc = add_cmdlines(l, w);
	if (!rc)
		rc = add_kallsyms(l, w);
	if (!rc)
		rc = tracedat_writer_add_uname(w);
	for (int cpu = 0; cpu < nr_cpus && !rc; cpu++) {
		long pages = add_pages(l, w, cpu, page_size);
		if (pages < 0)
			rc = (int)pages;
		else
			*total += pages;
		if (!rc)
			rc = add_stats(l, w, cpu);
		if (!rc && pages > 0)
			printf("CPU%d: %ld pages\n", cpu, pages);
	}
	/* Pages read after a resize have another size: the file would lie. */
	if (!rc && subbuf_size(l) != page_size) {
		fprintf(stderr, "uft extract: buffer_subbuf_size_kb changed while reading\n");
		rc = -EAGAIN;
	}
	return rc;
}

/* An empty file beside out (".NAME.XXXXXX", out's mode to be): made before
 * the process is touched, it proves out writable, and the file is written
 * there and renamed, so a failure leaves out as it was. 0 or -errno. */
static int temp_beside(const char *out, char *tmp, size_t cap)
{
	struct stat st;
	if (stat(out, &st) == 0 && S_ISDIR(st.st_mode))
		return -EISDIR;
	if (access(out, F_OK) == 0 && access(out, W_OK) != 0)
		return -errno;
	const char *slash = strrchr(out, '/');
	int dir = slash ? (int)(slash - out + 1) : 0;
	if ((size_t)snprintf(tmp, cap, "%.*s.%s.XXXXXX", dir, out, out + dir) >= cap)
		return -ENAMETOOLONG;
	int fd = mkstemp(tmp);
	if (fd < 0)
		return -errno;
	mode_t mask = umask(0);
	umask(mask);
	fchmod(fd, 0644 & ~mask);
	close(fd);
	return 0;
}

int cmd_extract(int argc, char **argv)
{
	struct extract_opts o = {{NULL, NULL}, "trace.dat", NULL};
	int rc = parse(&o, argc, argv);
	if (rc != CLI_OK)
		return rc;
	char tmp[4096];
	rc = temp_beside(o.out, tmp, sizeof(tmp));
	if (rc) {
		fprintf(stderr, "uft extract: %s: %s\n", o.out, strerror(-rc));
		return CLI_USAGE;
	}
	struct live l;
	rc = live_args_open(&l, &o.live);
	if (rc) {
		unlink(tmp);
		return rc;
	}
	int nr_cpus;
	uint32_t page_size;
	struct tracedat_writer *w = open_writer(&l, tmp, &nr_cpus, &page_size);
	if (w && o.compression && (rc = tracedat_writer_set_compression(w, o.compression)) != 0) {
		tracedat_writer_abort(w);
		w = NULL;
		errno = -rc;
	}
	if (!w) {
		rc = -errno;
		live_close(&l);
		unlink(tmp);
		return live_fail(o.out, rc);
	}
	long total = 0;
	rc = fill(&l, w, nr_cpus, page_size, &total);
	live_close(&l);
	if (rc) {
		tracedat_writer_abort(w); /* removes tmp */
		return live_fail(o.out, rc);
	}
	rc = tracedat_writer_close(w);
	if (!rc && rename(tmp, o.out) != 0) {
		rc = -errno;
		unlink(tmp);
	}
	if (rc)
		return live_fail(o.out, rc);
	struct stat st;
	printf("%s: %lld bytes, %ld pages\n", o.out,
	       stat(o.out, &st) == 0 ? (long long)st.st_size : 0, total);
	return 0;
}
