/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The process tracer's kernel backend (design/process-tracer.md, "Kernel
 * backend"): the kernel's own events from a private tracefs instance filtered
 * to the followed pids, read as raw pages and handed to the same sink as the
 * ptrace backend's records, with the engine's local ids. */
#ifndef UFT_PT_KERNEL_BACKEND_H
#define UFT_PT_KERNEL_BACKEND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "proctrace/proctrace.h"

/* ---- the instance (kernel_instance.c) ---- */

/* The tracefs mount ("/sys/kernel/tracing" or the debugfs one); NULL if none
 * is usable (writable instances/, with set_event_pid). */
const char *pt_tracefs(void);
/* Makes instances/uft-<pid>-<n> (after removing the leftovers of dead uft
 * processes) and writes its path to dir; -1 with a message in err. */
int pt_ki_create(char *dir, size_t dirlen, char *err, size_t errlen);
/* Writes val to dir/file (O_TRUNC unless append); 0 or -errno. */
int pt_ki_write(const char *dir, const char *file, const char *val, bool append);
/* --follow 0: no set_event_pid (every process), the caller's own threads in
 * set_event_notrace_pid (event-fork adds its children there too). 0 or
 * -errno. */
int pt_ki_exclude_self(const char *dir);
/* The kernel's id of SYSTEM/NAME in dir/events, -1 if it has no such event. */
int pt_ki_event_id(const char *dir, const char *system, const char *name);
/* Stops the instance's events and removes it. */
void pt_ki_remove(const char *dir);

/* The kernel's format text of local id `id`: the engine's text (n bytes in
 * buf) if the kernel's format file has the same fields, else the kernel's own
 * text with the ID line set to `id`. Returns the new length. */
int pt_k_format_fixup(unsigned id, const char *system, char *buf, size_t len, int n);

/* ---- the merge of the CPUs' records (kernel_merge.c) ---- */

struct pt_kev;
struct pt_kmerge {
	struct pt_kev *ev;
	size_t nr_ev, cap_ev;
	uint8_t *arena;
	size_t arena_len, arena_cap;
	uint64_t bound; /* the newest time seen at the previous flush */
	uint32_t seq;
};
typedef void (*pt_kmerge_fn)(void *ctx, uint32_t cpu, uint64_t ts, uint8_t *rec, uint32_t len);

/* Copies a record in, its common_type set to local id `id`; -1 out of memory. */
int pt_kmerge_add(struct pt_kmerge *m, uint32_t cpu, uint64_t ts, const void *rec, uint32_t len,
		  uint16_t id);
/* Hands fn the records up to the previous flush's newest time (all of them
 * when `all`), in time order. */
void pt_kmerge_flush(struct pt_kmerge *m, bool all, pt_kmerge_fn fn, void *ctx);
void pt_kmerge_free(struct pt_kmerge *m);

/* ---- the session (kernel_backend.c) ---- */

struct pt_ksession;

/* Whether the options' backend resolves to the kernel one. */
bool pt_k_selected(const struct pt_options *o);
struct pt_ksession *pt_k_launch(const struct pt_options *o, char *const argv[], char *err,
				size_t errlen);
struct pt_ksession *pt_k_attach(const struct pt_options *o, pid_t pid, char *err, size_t errlen);
int pt_k_run(struct pt_ksession *k);
void pt_k_request_stop(struct pt_ksession *k);
void pt_k_free(struct pt_ksession *k);

#endif
