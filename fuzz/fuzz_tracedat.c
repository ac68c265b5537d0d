/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Fuzzes the trace.dat parser, then walks whatever it accepted the way a
 * consumer would: texts, options and every CPU page of every instance,
 * compressed files included. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "wire/page.h"
#include "tracedat/tracedat.h"

static volatile size_t sink;

static void touch(const char *s, size_t len)
{
	if (s)
		sink += strlen(s) + len;
}

/* Every page of every CPU; uncompressed data must lie inside the input,
 * decompressed data or data whose times were converted (TSC2NSEC, OFFSET)
 * is a copy of its own. */
static void walk_cpus(const struct tracedat *td, const struct tracedat_cpu *cpus, size_t n,
		      const uint8_t *buf, size_t size)
{
	for (size_t i = 0; i < n; i++) {
		const struct tracedat_cpu *c = &cpus[i];
		bool copy = td->compression[0] || tracedat_find_option(td, TRACEDAT_OPT_TSC2NSEC) ||
			    tracedat_find_option(td, TRACEDAT_OPT_OFFSET);
		if (!copy &&
		    (c->offset + c->size > size || (c->size && c->data != buf + c->offset)))
			abort();
		for (uint64_t off = 0; off + td->page_size <= c->size; off += td->page_size) {
			struct uft_page_iter it;
			struct uft_page_rec r;
			uft_page_iter_init(&it, c->data + off, td->page_size);
			while (uft_page_iter_next(&it, &r) == 1)
				sink += r.len ? ((const uint8_t *)r.data)[r.len - 1] : 0;
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* Small inputs that decompress to hundreds of MB would only slow the
	 * fuzzer down: the limit's own checks are the same at any value. */
	tracedat_set_inflate_limit(64u << 20);
	/* An exactly sized copy, so sanitizers see any read past the end. */
	uint8_t *buf = malloc(size ? size : 1);
	if (!buf)
		return 0;
	memcpy(buf, data, size);
	char err[256];
	struct tracedat *td = tracedat_parse(buf, size, err, sizeof(err));
	if (!td) {
		if (!err[0])
			abort(); /* every failure must say why */
		free(buf);
		return 0;
	}
	touch(td->header_page, td->header_page_len);
	touch(td->header_event, td->header_event_len);
	for (size_t i = 0; i < td->nr_ftrace; i++)
		touch(td->ftrace[i].text, td->ftrace[i].len);
	for (size_t i = 0; i < td->nr_events; i++)
		touch(td->events[i].system, td->events[i].len);
	touch(td->kallsyms, td->kallsyms_len);
	touch(td->printk, td->printk_len);
	touch(td->cmdlines, td->cmdlines_len);
	touch(td->clock, 0);
	for (size_t i = 0; i < td->nr_options; i++)
		for (uint32_t k = 0; k < td->options[i].size; k++)
			sink += td->options[i].data[k];
	for (size_t i = 0; i < td->nr_instances; i++)
		touch(td->instances[i].name, 0);
	if (td->latency && td->latency_len)
		sink += (uint8_t)td->latency_text[td->latency_len - 1];

	walk_cpus(td, td->cpus, td->nr_cpu_data, buf, size);
	for (size_t i = 0; i < td->nr_instances; i++)
		walk_cpus(td, td->instances[i].cpus, td->instances[i].nr_cpu_data, buf, size);
	tracedat_free(td);
	free(buf);
	return 0;
}
