/* Internal interfaces of libuft shared by its files. */
#ifndef UFT_RUNTIME_H
#define UFT_RUNTIME_H

#include <stdbool.h>
#include <stdint.h>

#include "common/shm_layout.h"
#include "lib/clock.h"
#include <uft/event.h>

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
};

struct uft_tls {
	/* struct uft_fast_tls up to and including lv[0]'s first fields. */
	uint32_t nest;
	uint32_t in_signal;    /* signal handlers running on this thread */
	uint32_t sigs_blocked; /* every blockable signal blocked */
	int32_t tid;
	struct uft_wring lv[UFT_MAX_NEST];
};

/* The process's session: its shared region and settings. */
struct uft_session {
	struct uft_shm_header *hdr; /* NULL until created */
	int memfd;
	int notify_fd; /* connection to the recorder, -1 if none */
	uint32_t ring_pages;
	uint32_t mode;
};

extern struct uft_session uft_sess;
extern __thread struct uft_tls uft_tls __attribute__((tls_model("initial-exec")));

/* session.c */
void uft_init(void);
void uft_session_wake(void);

/* shm.c */
struct uft_shm_header *uft_shm_create(uint64_t size, int *memfd_out);
struct uft_ring *uft_shm_ring_alloc(struct uft_shm_header *hdr, uint32_t nr_pages, int tid,
				    uint32_t level, uint32_t mode);
void uft_shm_add_format(struct uft_shm_header *hdr, uint16_t id, const char *system,
			const char *text, uint32_t len);

/* writer.c */
void uft_writer_thread_exit(void);
void uft_writer_reset_after_fork(void);
void uft_writer_flush_self(void);
void uft_writer_setup_fast_path(void);

/* signals.c */
void uft_signals_init(void);

/* registry.c */
void uft_registry_publish_formats(struct uft_shm_header *hdr);
int uft_registry_apply_spec_list(const char *list);
int uft_registry_apply_filter_list(const char *list);
void uft_registry_list_formats(int fd);

/* elf_scan.c */
void uft_registry_scan_loaded(void);

/* session.c */
int uft_session_start(void);

#endif
