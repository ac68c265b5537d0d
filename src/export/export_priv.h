/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The pass's state, shared by export.c and export_fields.c. */
#ifndef UFT_EXPORT_PRIV_H
#define UFT_EXPORT_PRIV_H

#include "export/export.h"
#include "export/names.h"
#include "tracedat/kallsyms.h"

struct exp_counter {
	char *label;
	uint16_t id;
	struct tep_format_field *field;
};

struct exp {
	struct trace_file *tf;
	const struct exp_sink *s;
	FILE *err;
	struct names names;
	struct uft_ksyms syms;
	uint16_t id_function, id_entry, id_exit, id_kstack, id_ustack;
	struct tep_event *ev_kstack, *ev_ustack;
	bool clock_ns;
	struct exp_thread **threads; /* by idx */
	uint32_t nr_threads, cap_threads;
	uint32_t *tslots; /* pid hash: idx + 1 */
	uint32_t ntslots;
	struct exp_counter counters[EXPORT_MAX_COUNTERS];
	unsigned nr_counters;
	uint32_t *stackbuf; /* a stack record's names */
	size_t stackcap;
	char *stackstr; /* and as text, for the instant */
	size_t stackstr_cap;
};

/* Resolves the --counter specs: 0, or -EINVAL with a message. */
int exp_counters_init(struct exp *x, const struct exp_opts *o);
void exp_counters_free(struct exp *x);
/* Counter values of a record of type `type`. */
int exp_counters_feed(struct exp *x, struct exp_thread *t, uint16_t type, const struct exp_rec *r);

#endif
