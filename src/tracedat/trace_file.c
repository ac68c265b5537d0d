/* SPDX-License-Identifier: GPL-2.0-or-later */
#define _GNU_SOURCE
#include "tracedat/trace_file.h"

#include "tracedat/print_fmt_guard.h"
#include "util/util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

static int cmp_comm(const void *a, const void *b)
{
	const int *x = a, *y = b;
	return (*x > *y) - (*x < *y);
}

static void load_comms(struct trace_file *tf)
{
	const char *p = tf->td->cmdlines, *end = p + tf->td->cmdlines_len;
	if (!p)
		return;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end;
		char line[64];
		size_t n =
		    (size_t)(eol - p) < sizeof(line) - 1 ? (size_t)(eol - p) : sizeof(line) - 1;
		memcpy(line, p, n);
		line[n] = 0;
		int pid;
		char comm[17];
		if (sscanf(line, "%d %16[^\n]", &pid, comm) == 2) {
			void *m = realloc(tf->comms, (tf->nr_comms + 1) * sizeof(*tf->comms));
			if (!m)
				break;
			tf->comms = m;
			tf->comms[tf->nr_comms].pid = pid;
			memcpy(tf->comms[tf->nr_comms].comm, comm, sizeof(comm));
			tf->nr_comms++;
		}
		p = eol + 1;
	}
	if (tf->nr_comms) /* no cmdlines: comms stays NULL, which qsort may not take */
		qsort(tf->comms, tf->nr_comms, sizeof(*tf->comms), cmp_comm);
}

const char *trace_file_comm(void *arg, int pid)
{
	struct trace_file *tf = arg;
	size_t lo = 0, hi = tf->nr_comms;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (tf->comms[mid].pid == pid)
			return tf->comms[mid].comm;
		if (tf->comms[mid].pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* Hands one event format to libtraceevent, its print fmt left out (with a
 * note on stderr) when printing with it would fault, and not at all when
 * its field lines would make the parser fault. */
static void parse_format(struct tep_handle *tep, const char *text, size_t len, const char *sys)
{
	char why[160];
	if (format_fields_check(text, len, why, sizeof(why)) != 0) {
		const char *name = memmem(text, len, "name: ", 6);
		int nlen = name ? (int)strcspn(name + 6, "\n") : 1;
		fprintf(stderr,
			"uft: event %s:%.*s: format not used (%s); its records are unknown\n", sys,
			nlen > 64 ? 64 : nlen, name ? name + 6 : "?", why);
		return;
	}
	if (print_fmt_check(text, len, why, sizeof(why)) == 0) {
		tep_parse_event(tep, text, len, sys);
		return;
	}
	const char *name = memmem(text, len, "name: ", 6);
	int nlen = name ? (int)strcspn(name + 6, "\n") : 1;
	fprintf(stderr, "uft: event %s:%.*s: print fmt not used (%s); its fields are shown\n", sys,
		nlen, name ? name + 6 : "?", why);
	size_t n;
	char *safe = print_fmt_neutralise(text, len, &n);
	if (safe)
		tep_parse_event(tep, safe, n, sys);
	free(safe);
}

int trace_file_open(struct trace_file *tf, const char *path, char *err, size_t errlen)
{
	memset(tf, 0, sizeof(*tf));
	tf->td = tracedat_open(path, err, errlen);
	if (!tf->td)
		return -1;
	tf->tep = tep_alloc();
	if (!tf->tep) {
		snprintf(err, errlen, "out of memory");
		tracedat_free(tf->td);
		return -1;
	}
	tep_set_long_size(tf->tep, tf->td->long_size ? tf->td->long_size : 8);
	tep_set_page_size(tf->tep, (int)tf->td->page_size);
	tep_set_file_bigendian(tf->tep, tf->td->big_endian ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	if (tf->td->header_page)
		tep_parse_header_page(tf->tep, tf->td->header_page,
				      (unsigned long)tf->td->header_page_len,
				      tf->td->long_size ? tf->td->long_size : 8);
	for (size_t i = 0; i < tf->td->nr_ftrace; i++)
		parse_format(tf->tep, tf->td->ftrace[i].text, tf->td->ftrace[i].len, "ftrace");
	for (size_t i = 0; i < tf->td->nr_events; i++)
		parse_format(tf->tep, tf->td->events[i].text, tf->td->events[i].len,
			     tf->td->events[i].system);
	if (tf->td->kallsyms)
		tep_parse_kallsyms(tf->tep, tf->td->kallsyms);
	if (tf->td->printk)
		tep_parse_printk_formats(tf->tep, tf->td->printk);
	load_comms(tf);
	return 0;
}

int trace_file_live(struct trace_file *tf, int nr_cpus, uint32_t page_size, const char *header_page)
{
	memset(tf, 0, sizeof(*tf));
	tf->td = calloc(1, sizeof(*tf->td));
	tf->tep = tep_alloc();
	if (!tf->td || !tf->tep) {
		trace_file_close(tf);
		return -1;
	}
	tf->td->long_size = 8;
	tf->td->page_size = page_size;
	tf->td->nr_cpus = nr_cpus;
	tep_set_long_size(tf->tep, 8);
	tep_set_page_size(tf->tep, (int)page_size);
	tep_set_file_bigendian(tf->tep, TEP_LITTLE_ENDIAN);
	if (header_page)
		tep_parse_header_page(tf->tep, (char *)header_page, strlen(header_page), 8);
	return 0;
}

void trace_file_add_format(struct trace_file *tf, const char *system, const char *text, size_t len)
{
	parse_format(tf->tep, text, len, system);
}

void trace_file_set_comm(struct trace_file *tf, int pid, const char *comm)
{
	size_t lo = 0, hi = tf->nr_comms;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (tf->comms[mid].pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == tf->nr_comms || tf->comms[lo].pid != pid) {
		if (uft_array_reserve(tf->comms, tf->comms_cap, tf->nr_comms + 1, 64) != 0)
			return;
		memmove(tf->comms + lo + 1, tf->comms + lo,
			(tf->nr_comms - lo) * sizeof(*tf->comms));
		tf->nr_comms++;
		tf->comms[lo].pid = pid;
	}
	snprintf(tf->comms[lo].comm, sizeof(tf->comms[lo].comm), "%s", comm);
}

void trace_file_close(struct trace_file *tf)
{
	if (tf->tep)
		tep_free(tf->tep);
	if (tf->td)
		tracedat_free(tf->td);
	free(tf->comms);
	memset(tf, 0, sizeof(*tf));
}
