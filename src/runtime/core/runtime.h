/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Internal interfaces of libuft shared by its files. */
#ifndef UFT_RUNTIME_H
#define UFT_RUNTIME_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "arch/arch.h"
#include "wire/shm_layout.h"
#include "runtime/core/buffer.h"
#include "runtime/core/trace_clock.h"
#include "util/atomics.h"
#include <uft/event.h>

/* Layout and mode of a ring the writer opens, kept privately: never read
 * back from shared memory a consumer could rewrite. */
struct uft_wring_geom {
	uint32_t nr_pages;
	uint32_t hdr_size;
	uint32_t mode;	      /* enum uft_buffer_mode */
	uint32_t subbuf_size; /* bytes of a page slot */
	/* The page index the ring starts at: past every index an older
	 * generation used, so a reader still holding one cannot release or
	 * hide a page of the new thread (docs/design/ring-buffer.md). */
	uint64_t first_page;
};

/* Writer state of one ring, private to its thread. Each nesting level has its
 * own, so a signal handler that traces never touches the state of the write it
 * interrupted. */
struct uft_wring {
	/* struct uft_fast_ring: what the inline fast path reads (level 0). */
	char *page;	  /* current page (header + data) */
	uint32_t tail;	  /* bytes of data committed in the current page */
	uint32_t cpu;	  /* CPU of the last record */
	uint64_t last_ts; /* timestamp of the last record */
	uint64_t entries; /* events committed in this ring */
	/* Writer-private. */
	struct uft_ring *r;
	uint64_t page_idx;
	uint64_t dropped; /* events refused (discard mode, full) */
	uint64_t lost;	  /* events that could not be written at all */
	/* `consumed` as last read: a lower bound of it, which spares a page switch
	 * the cache line the consumer writes while the ring has room. */
	uint64_t cons_seen;
	struct uft_wring_geom geom; /* the ring's layout and mode, as allocated */
	uint32_t gen;		    /* buffer generation the ring was opened for */
	uint32_t buffer;	    /* index in uft_buffers */
	/* Block mode: 1 + the ring's `read_entries` when a wait ran out (0:
	 * none did); no new wait until the recorder reads on and changes it. */
	uint64_t block_stuck;
};

struct uft_tls {
	/* struct uft_fast_tls up to and including lv[0]'s first fields. */
	uint32_t nest;
	uint32_t in_signal;    /* signal handlers running on this thread */
	uint32_t sigs_blocked; /* every blockable signal blocked */
	int32_t tid;
	uint32_t epoch;
	uint32_t pad;
	uint64_t common;   /* flags and tid of level-0 records: uft_tls_sync_common() */
	uint64_t tsc_hint; /* uft_fast_hint() */
	struct uft_wring lv[UFT_MAX_NEST]; /* the global buffer */
	/* Rings of the instances' buffers, [buffer - 1][level], mapped on the
	 * thread's first event into an instance. */
	struct uft_wring (*xb)[UFT_MAX_NEST];
	uint32_t notrace; /* a door thread: never records */
	/* The nesting level at which the triggers of a record being committed
	 * write (a synthetic event from onmatch): writes there are not a signal
	 * handler's. 0: none running. */
	uint32_t trig_lvl;
	/* Per level, where a record that triggers need but no buffer keeps is
	 * built (mapped on first use). */
	char *scratch;
};

/* Where an event's records go: the registry builds an immutable list each
 * time an enable, filter or trigger changes, and the writer follows the one
 * it loads. Lists replaced while a writer may read them are never freed. */
struct uft_evstate;
struct uft_trig_list;
struct uft_target {
	uint32_t buffer;		 /* index in uft_buffers */
	const struct uft_filter *filter; /* NULL: every record */
	/* Set while the event is in soft mode in this buffer (it has triggers
	 * or is an enable/disable_event target): the writer then checks its
	 * soft-disabled flag and runs `trig`. NULL otherwise. */
	struct uft_evstate *st;
	const struct uft_trig_list *trig; /* NULL: no trigger */
};

struct uft_targets {
	uint32_t nr;
	struct uft_target t[];
};

/* What libuft keeps for one registered descriptor, reached through its
 * state's priv: no traced object sees it, so it grows freely. Once the
 * descriptor leaves it is kept (an unloaded object's code may still reach
 * it), or freed after a grace period for a dynamic event. */
struct uft_printf_layout;
struct uft_event_priv {
	struct uft_printf_layout *layout; /* UFT_TRACE: parsed from the format */
	bool own_state;			  /* the registry allocated the state */
	/* UFT_TRACE: the call site's inline writer lays the record out as the
	 * format does (its argument kinds and record size agree), so the
	 * state's fast_type may let it run. */
	bool inline_ok;
	/* UFT_TRACE: what fast_type would be for an inline writer, for
	 * uft__trace_printf()'s own fast reservation. */
	volatile uint64_t fast_type;
	/* The descriptor as this runtime reads it: the definer's bytes, zeros
	 * past its size, and what the runtime derives (a UFT_EVENT's fields
	 * from fields_fn, a UFT_TRACE's layout from its format). The runtime
	 * never writes into the definer's descriptor. */
	struct uft_event view;
};

/* The target list a writer follows for ev, NULL while it goes nowhere. */
static inline const struct uft_targets *uft_event_targets(const struct uft_event *ev)
{
	const struct uft_event_state *st = ev->state;
	return st ? smp_load_acquire(&st->targets) : NULL;
}

/* The process's session: its shared region and settings. */
struct uft_session {
	struct uft_shm_header *hdr; /* NULL until created */
	int memfd;
	int notify_fd; /* connection to the recorder, -1 if none */
};

extern struct uft_session uft_sess;
extern __thread struct uft_tls uft_tls __attribute__((tls_model("initial-exec")));

/* Recomputes the common fields the fast path stores (flags, preempt_count 0,
 * pid) after tid, in_signal or sigs_blocked changed. A signal handler that
 * interrupts this restores those fields and recomputes before it returns, so
 * the value stored here is still the right one. */
static inline void uft_tls_sync_common(struct uft_tls *t)
{
	uint64_t flags =
	    (t->in_signal ? UFT_FLAG_IN_SIGNAL : 0) | (t->sigs_blocked ? UFT_FLAG_SIGS_BLOCKED : 0);
	t->common = ((uint64_t)(uint32_t)t->tid << 32) | (flags << 16);
}

/* A timestamp in the units of a ring: raw TSC cycles or its clock's own. */
static inline uint64_t uft_ring_now(const struct uft_ring *r)
{
	if (__builtin_expect(r->ts_raw, 1))
		return uft_arch_cycles();
	return uft_clock_read_slow((enum uft_clock)r->clock);
}

/* thread_follow.c: pthread_create for libuft's own threads, which
 * event-fork and function-fork never follow. */
int uft_thread_create_internal(pthread_t *th, const pthread_attr_t *attr, void *(*fn)(void *),
			       void *arg);

/* session.c */
void uft_init(void);
void uft_session_wake(void);
/* Asks the recorder for a drain for a writer about to wait on it: false when
 * there is no recorder or it is gone (its socket closed). Signal-safe. */
bool uft_session_wake_wait(void);

/* shm.c */
/* A region of `size` bytes, less under a file size limit but never under
 * `least`; NULL (errno) when it cannot be made. */
struct uft_shm_header *uft_shm_create(uint64_t size, uint64_t least, int *memfd_out);
/* Whether ring offset `off` and the ring's geometry there lie inside the
 * region as this process created it (consumers may rewrite both). */
bool uft_shm_ring_ok(const struct uft_shm_header *h, uint64_t off);
/* Bytes of a region that holds at least UFT_SHM_MIN_RINGS rings of
 * ring_pages (never less than UFT_SHM_DEFAULT_SIZE; pages are touched only
 * when used). */
uint64_t uft_shm_size_for(uint32_t ring_pages);
/* The same without the default's floor: the least a region may be. */
uint64_t uft_shm_least_for(uint32_t ring_pages);
/* A ring of g->nr_pages in g->mode for a thread at a nesting level (sets
 * g->hdr_size);
 * NULL when the region has none to give (docs/design/ring-buffer.md). */
struct uft_ring *uft_shm_ring_alloc(struct uft_shm_header *hdr, const struct uft_buffer *b,
				    uint32_t buffer, int tid, uint32_t level,
				    struct uft_wring_geom *g);
void uft_shm_add_format(struct uft_shm_header *hdr, uint16_t id, const char *system,
			const char *text, uint32_t len);

/* writer.c */
void uft_writer_thread_exit(void);
void uft_writer_reset_after_fork(void);
void uft_writer_flush_self(void);
uint64_t uft_writer_last_ts(uint32_t buffer);
void uft_writer_setup_fast_path(void);
extern bool uft_fast_cpu_ok; /* buffer.c: rseq gives the CPU */
void uft_writer_set_notrace(void);
/* The CPU the calling thread runs on, as its records carry it. */
uint32_t uft_writer_cpu(void);
/* Writes one record into one buffer, whatever the event's targets: head
 * (head_len bytes, common header included; its common part is filled in,
 * the pid from head when not 0, else the writing thread's) then payload.
 * Returns 0, or -EBUSY when it could not be written (tracing off, full). */
int uft_write_to_buffer(uint32_t buffer, const struct uft_event *ev, const void *head,
			uint32_t head_len, const void *payload, uint32_t payload_len);
/* The same, for a record whose readers must see its exact size rounded to
 * 4 bytes, as the kernel's ring keeps it (trace_marker_raw: the bytes after
 * the id are the payload), not the 8 the runtime's records round to. The
 * ring stays 8-byte aligned through a discarded record after it when
 * needed, which takes 12 bytes more of the record's limit. */
int uft_write_exact_to_buffer(uint32_t buffer, const struct uft_event *ev, const void *head,
			      uint32_t head_len, const void *payload, uint32_t payload_len);
/* uft_write_to_buffer for an event the tree writes itself (trace_marker's
 * ftrace:print) that runs the event's triggers of that buffer, as the
 * kernel's trace_marker does; the triggers see payload byte hide_at (when
 * below payload_len) as a NUL, the record keeps it. Without triggers in
 * any buffer it costs what uft_write_to_buffer costs. */
int uft_write_to_buffer_trig(uint32_t buffer, const struct uft_event *ev, const void *head,
			     uint32_t head_len, const void *payload, uint32_t payload_len,
			     uint32_t hide_at);

/* Reserves a record of ev in one buffer only, through the event's target
 * there (its filter, soft mode and triggers act at uft_commit()); NULL when
 * the event is not enabled in that buffer or the buffer takes nothing. */
struct uft_rsv;
void *uft_reserve_buffer(struct uft_rsv *rsv, const struct uft_event *ev, uint32_t len,
			 uint32_t buffer);

/* signals.c */
void uft_signals_init(void);

/* start_report.c: what applying start-up settings found, as lines of
 * text (for the recorder, which prints them), each an error or a warning. */
struct uft_start_report {
	char *text; /* NULL until a line is added */
	size_t len, cap;
	bool error; /* a setting could not be applied at all */
};
void uft_start_report_add(struct uft_start_report *r, bool error, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void uft_start_report_free(struct uft_start_report *r);

/* registry.c, registry_enable.c */
void uft_registry_fork_setup(void);
void uft_registry_publish_formats(struct uft_shm_header *hdr);
int uft_registry_apply_spec_list(const char *list, struct uft_start_report *r);
int uft_registry_apply_filter_list(const char *list, struct uft_start_report *r);
void uft_registry_list_formats(int fd);
uint32_t uft_registry_nr_live(void);

/* elf_scan.c */
void uft_registry_scan_loaded(void);

/* session.c */
int uft_session_start(void);

/* runtime_note.c: whether the main program has a libuft of its own and this
 * one is another (preloaded) copy, which must then do nothing. */
bool uft_runtime_stands_down(void);

/* record_settings.c: `uft record`'s settings from the environment (events
 * and filters; UFT_TRACER, UFT_FTRACE_FILTER, UFT_FTRACE_NOTRACE,
 * UFT_GRAPH_FUNCTION, UFT_MAX_GRAPH_DEPTH, UFT_FUNC_STACK through the tree's
 * files, the tracer last), what could not be applied reported in r. */
void uft_record_settings_apply(struct uft_start_report *r);
/* Its function tracer part alone. */
void uft_record_tracer_apply(struct uft_start_report *r);

#endif
