/* SPDX-License-Identifier: GPL-2.0-or-later */
/* uft report's exports (docs/design/export.md): one pass over a trace.dat
 * in time order turns its records into threads, function slices, instants,
 * counters and stack samples, which a sink writes as Perfetto protobuf,
 * Chrome JSON, folded stacks or a flame graph. Memory grows with threads,
 * call depth and distinct names or stacks, never with the number of
 * records. */
#ifndef UFT_EXPORT_H
#define UFT_EXPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "tracedat/trace_file.h"

struct tep_event;
struct tep_format_field;

#define EXPORT_MAX_COUNTERS 16

/* A function call open on a thread. */
struct exp_frame {
	uint64_t ts;
	uint64_t child; /* time spent in its closed callees */
	uint32_t name;
	int32_t depth;
	uint32_t node; /* the sink's */
};

struct exp_thread {
	int pid;
	uint32_t idx; /* order of first appearance */
	struct exp_frame *stack;
	uint32_t depth, cap;
	uint64_t last_ts;
	uint64_t orphan; /* time of top-level calls closed since the last orphan exit */
};

/* A record shown as an instant event. */
struct exp_rec {
	int cpu;
	uint64_t ts;
	const void *data;
	uint32_t len;
	struct tep_event *ev; /* NULL for function records */
	const char *name;
	const char *system;
	const char *stack; /* a stack record's callers, "outer;inner", or NULL */
};

/* One field of a record, decoded. */
struct exp_field {
	const char *name;
	enum { EXP_INT, EXP_UINT, EXP_STR } kind;
	int64_t i;
	uint64_t u;
	const char *s; /* EXP_STR: not NUL terminated */
	size_t slen;
};

struct exp;

/* What a format does with the pass; each callback 0, or -errno to stop. */
struct exp_sink {
	void *ctx;
	int (*thread)(void *ctx, struct exp *x, struct exp_thread *t);
	int (*begin)(void *ctx, struct exp *x, struct exp_thread *t, struct exp_frame *f);
	int (*end)(void *ctx, struct exp *x, struct exp_thread *t, struct exp_frame *f,
		   uint64_t ts);
	/* A call whose entry the file lost (it started before the first
	 * page): `self` is its time less its callees' already seen. */
	int (*complete)(void *ctx, struct exp *x, struct exp_thread *t, uint64_t ts, uint64_t dur,
			uint64_t self, uint32_t name);
	int (*instant)(void *ctx, struct exp *x, struct exp_thread *t, const struct exp_rec *r);
	int (*counter)(void *ctx, struct exp *x, struct exp_thread *t, unsigned which, uint64_t ts,
		       int64_t v);
	/* A stack trace record, outermost caller first, as name ids. */
	int (*stack)(void *ctx, struct exp *x, struct exp_thread *t, uint64_t ts,
		     const uint32_t *names, size_t n);
	int (*finish)(void *ctx, struct exp *x);
};

struct exp_opts {
	const char *counters[EXPORT_MAX_COUNTERS]; /* "SYS:EVENT:FIELD" */
	size_t nr_counters;
	bool (*cpu_ok)(const void *sel, int cpu);
	const void *cpu_sel;
};

/* 0, or -errno with a message on err. */
int exp_run(struct trace_file *tf, const struct exp_opts *o, const struct exp_sink *s, FILE *err);

/* The text of a name id (a function, a counter's label). */
const char *exp_name(const struct exp *x, uint32_t id);
uint32_t exp_nr_names(const struct exp *x);
/* The thread's saved comm ("<...>" when the file has none). */
const char *exp_comm(const struct exp *x, int pid);
/* The label of counter `which` ("SYS:EVENT:FIELD"). */
const char *exp_counter_name(const struct exp *x, unsigned which);
/* Each field of the record but the common ones; cb returns 0 to go on. */
int exp_fields(const struct exp_rec *r, int (*cb)(void *arg, const struct exp_field *f), void *arg);
/* The threads seen so far, by order of appearance. */
uint32_t exp_nr_threads(const struct exp *x);
int exp_thread_pid(const struct exp *x, uint32_t idx);
/* Whether the clock's values are nanoseconds (else raw counter ticks). */
bool exp_clock_ns(const struct exp *x);

#endif
