/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Layout of a traced process's shared-memory region (one memfd per process).
 *
 * The region is shared by the traced process (writer) and any consumer that
 * received its memfd (uft record, later uft ctl). Everything a consumer needs to
 * decode the data after the writer died lives here: event formats, thread rings
 * and their pages.
 *
 *   [0, UFT_SHM_HDR_SIZE)            struct uft_shm_header (+ ring offset table)
 *   [formats_off, +formats_cap)      append-only event format records
 *   [rings_off, size)                rings, bump-allocated (struct uft_ring + pages)
 *
 * Memory ordering (names from util/atomics.h). One writer per ring (its
 * thread, or a signal handler nested on it, which uses another ring); any
 * number of readers, in the process or mapping the memfd. Each published
 * field is stored with release after what it announces, and read with acquire
 * before what it guards:
 *
 *   ring_off[i]   release after the ring header is initialised (and the ring
 *                 ACTIVE); readers acquire nr_rings, then ring_off[i], and may
 *                 then read the header fields set once (geometry, tid, ...).
 *   state         ACTIVE (release) after a reused ring is re-initialised;
 *                 EXITED (release) after the final `entries`. The reader that
 *                 sees EXITED with everything consumed frees it (cmpxchg);
 *                 a writer needing a ring when the region is full may take
 *                 an EXITED one (cmpxchg to INIT) without any reader.
 *   generation    bumped (then a release fence) before any other byte of a
 *                 reused ring changes; a reader checks it after its copy's
 *                 acquire fence, so a copy mixing two threads is dropped.
 *   commit word   (page header + 8) release after the record bytes below it;
 *                 an acquire load of it makes those bytes visible.
 *   produced      release at a page switch, after the finished page's
 *                 padding and `entries`; a release fence then orders it before
 *                 any byte of the recycled slot changes.
 *   meta.seq_lo   release last at a page switch, after the slot's meta, page
 *                 time stamp and zero commit word: a slot names its page only
 *                 once the page is set up.
 *   consumed      moved forward by cmpxchg (fully ordered) by readers
 *                 releasing pages and, in overwrite mode, by the writer
 *                 retiring the oldest; the writer acquires it before reusing
 *                 a slot, so a reader's copy happens before the rewrite.
 *   clear_page    reader side: clear_off (relaxed) then clear_page (release);
 *                 acquire clear_page, then read clear_off.
 *   formats_len   release after the format record it covers.
 *
 * Counters (entries between switches, dropped, lost, overrun, read_entries,
 * wake_pending, block_waits, block_timeouts) are statistics: single untorn accesses, no ordering.
 * Page contents are read as a seqlock: copied, then validated (ring_reader.c). Every access to a
 * shared field goes through util/atomics.h, whose names say its order. */
#ifndef UFT_SHM_LAYOUT_H
#define UFT_SHM_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define UFT_SHM_MAGIC 0x314d48535446555ull /* "UFTSHM1" */
#define UFT_SHM_VERSION 1
#define UFT_RING_MAGIC 0x474e4952u /* "RING" */

/* Sub-buffer ("page") sizes: the default (one system page), and the range
 * buffer_subbuf_size_kb takes, a power of two number of system pages. Each
 * ring says its own (struct uft_ring.subbuf_size). */
#define UFT_SUBBUF_SIZE 4096u
#define UFT_SUBBUF_MAX (128u * UFT_SUBBUF_SIZE)
#define UFT_PAGE_HDR_SIZE 16u /* u64 time_stamp + long commit */
/* Data bytes of a default-sized sub-buffer. */
#define UFT_PAGE_DATA_SIZE (UFT_SUBBUF_SIZE - UFT_PAGE_HDR_SIZE)
/* The largest record payload a ring with `subbuf` byte pages takes: a page's
 * data less a time extend and the longest event header. */
#define UFT_RECORD_MAX(subbuf) ((subbuf)-UFT_PAGE_HDR_SIZE - 24u)

/* Whether `size` is a sub-buffer size a ring may have: a power of two from
 * UFT_SUBBUF_SIZE to UFT_SUBBUF_MAX. */
static inline bool uft_subbuf_valid(uint64_t size)
{
	return size >= UFT_SUBBUF_SIZE && size <= UFT_SUBBUF_MAX && !(size & (size - 1));
}

#define UFT_SHM_HDR_SIZE (256u * 1024u)
#define UFT_SHM_MAX_RINGS 16384u
#define UFT_SHM_FORMATS_CAP (8u * 1024u * 1024u)
#define UFT_SHM_DEFAULT_SIZE (1ull << 32) /* sparse: pages exist only once touched */
/* The largest ring, in pages (1 GiB): `uft record -b` and buffer_size_kb
 * refuse more. */
#define UFT_SHM_MAX_RING_PAGES (1u << 18)
/* A region holds at least this many rings of the size asked at start-up
 * (bigger than the default when `uft record -b` asks for huge rings). */
#define UFT_SHM_MIN_RINGS 16u
/* Trace buffers a region serves (the global one and the instances'). */
#define UFT_SHM_MAX_BUFFERS 32u

/* Nesting levels a thread may trace at: normal context plus signal handlers
 * interrupting a write, each with its own ring so no level corrupts another. */
#define UFT_MAX_NEST 4

/* Kernel event-header constants (docs/design/ring-buffer.md). */
#define UFT_RB_TYPE_PADDING 29u
#define UFT_RB_TYPE_TIME_EXTEND 30u
#define UFT_RB_TYPE_TIME_STAMP 31u
#define UFT_RB_TYPE_DATA_MAX 28u
#define UFT_RB_DELTA_BITS 27u
#define UFT_RB_DELTA_MAX ((1u << UFT_RB_DELTA_BITS) - 1)
#define UFT_RB_COMMIT_MASK ((1ull << 27) - 1)
#define UFT_RB_MISSED_EVENTS (1ull << 31)
#define UFT_RB_MISSED_STORED (1ull << 30)

/* Reserved event ids. 1..UFT_FTRACE_ID_MAX mirror the kernel's ftrace entries
 * (function = 1, ..., print = 5); the cpu marker is internal to uft rings and never
 * leaves them (consumers strip it when they re-encode per-CPU pages). */
#define UFT_ID_FUNCTION 1
#define UFT_ID_PRINT 5
/* The ip of trace_marker records, and the symbol trace.dat files map it to so
 * that libtraceevent prints "tracing_mark_write: TEXT" as for the kernel's. */
#define UFT_MARKER_IP 0x1000ull
#define UFT_MARKER_KALLSYMS "0000000000001000 T tracing_mark_write\n"
#define UFT_FTRACE_ID_MAX 31
#define UFT_ID_CPU_MARK 32
#define UFT_ID_FIRST_DYNAMIC 100

enum uft_ring_state {
	UFT_RING_FREE = 0,
	UFT_RING_ACTIVE = 1,
	UFT_RING_EXITED = 2, /* writer thread gone; drain then free */
	UFT_RING_INIT = 3,   /* being set up for a new thread */
};

enum uft_buffer_mode {
	UFT_MODE_OVERWRITE = 0, /* flight recorder: oldest pages are overwritten */
	UFT_MODE_DISCARD = 1,	/* producer/consumer: new events are dropped when full */
	/* uft record's: a writer that finds its ring full waits, bounded, for
	 * the recorder, then overwrites (docs/design/recording.md, "Losing
	 * nothing"). Never set by the live tree. */
	UFT_MODE_BLOCK = 2,
};

/* Per page slot data kept beside the pages (the page itself is kernel format). */
struct uft_slot_meta {
	uint64_t first_entry; /* writer's event sequence number of the first record */
	uint32_t cpu;	      /* CPU in effect at the start of the page */
	uint32_t seq_lo;      /* low bits of the page index written into this slot */
};

struct uft_ring {
	uint32_t magic;
	uint32_t state;
	int32_t tid;
	int32_t pid;
	uint32_t level;	   /* nesting level served */
	uint32_t nr_pages; /* slots in the ring */
	uint32_t hdr_size; /* bytes from ring start to page slot 0 */
	uint32_t mode;	   /* enum uft_buffer_mode */
	char comm[16];
	/* Bytes the ring owns in the region: at least hdr_size + nr_pages *
	 * subbuf_size, more when a smaller ring reuses a bigger one's space. */
	uint64_t total_size;

	/* Written by the writer. */
	uint64_t produced; /* index of the page being written */
	uint64_t entries;  /* committed events, published at page switch and exit */
	uint64_t dropped;  /* discard mode: events refused because full */
	uint64_t lost;	   /* nesting too deep, record too large */
	/* Written by writer (overwrite) and consumer, with compare-and-swap. */
	uint64_t consumed; /* first page neither read nor overwritten */
	/* Consumer-side. */
	uint64_t read_entries; /* events handed to a consumer */
	uint32_t wake_pending; /* writer asked for a wake-up, not yet served */
	uint32_t generation;   /* bumped each time the ring is reused by a new thread */
	/* Timestamps in this ring are raw TSC cycles when ts_raw is set; readers
	 * hand them out as zero + (cycles * mult) >> shift nanoseconds. */
	uint32_t ts_raw;
	uint32_t ts_shift;
	uint64_t ts_mult;
	uint64_t ts_zero;
	uint32_t buffer; /* 0: the global buffer, else an instance's */
	uint32_t clock;	 /* enum uft_clock of the stamps */
	/* Set by a reader that cleared the buffer: the page and data offset
	 * before which nothing is shown any more. */
	uint64_t clear_page;
	uint32_t clear_off;
	uint32_t pad2;
	/* Events lost to overwriting (overwrite mode), counted by the writer as
	 * it retires a page; overrun_base is the count at the last clear. */
	uint64_t overrun;
	uint64_t overrun_base;
	/* Bytes of each page slot: a power of two from UFT_SUBBUF_SIZE to
	 * UFT_SUBBUF_MAX (0 in a ring no writer set up: UFT_SUBBUF_SIZE). Set
	 * with nr_pages, before the ring is ACTIVE. */
	uint32_t subbuf_size;
	uint32_t pad3;
	/* Block mode, counted by the writer: times it found the ring full and
	 * waited for the recorder, and waits that ran out (it overwrote). */
	uint64_t block_waits;
	uint64_t block_timeouts;
	/* Block mode: the `consumed` a waiting writer needs (0: none waits). A
	 * reader that moves `consumed` to it or past clears it and wakes the
	 * futex on `consumed`'s low 32 bits (the writer sleeps there, bounded). */
	uint64_t block_want;
	char reserved[256 - 208];
	struct uft_slot_meta meta[];
};

_Static_assert(sizeof(struct uft_ring) == 256, "ring header layout");

/* A format record in the formats area: header then `len` bytes of the kernel
 * `format` text (not NUL terminated), padded to 8 bytes. */
struct uft_format_rec {
	uint32_t len;
	uint16_t id;
	uint8_t live; /* 0 once the defining library was unloaded */
	uint8_t pad;
	char system[32];
	char text[];
};

struct uft_shm_header {
	uint64_t magic;
	uint32_t version;
	int32_t pid;
	/* The largest sub-buffer any ring of the region was set up with (only
	 * grows; raised before such a ring is ACTIVE): a recorder sizes its
	 * pages from it. */
	uint32_t subbuf_size;
	uint32_t clock_id; /* enum uft_clock; each ring says how its stamps convert */
	uint64_t size;	   /* bytes mapped */
	uint64_t formats_off;
	uint64_t formats_cap;
	uint64_t formats_len; /* bytes of complete format records */
	uint64_t rings_off;
	uint64_t alloc_off; /* next free byte for rings */
	uint32_t nr_rings;  /* entries used in ring_off[] */
	uint32_t pad;
	/* Region-level losses, by buffer index, counted by writers with atomic
	 * adds (statistics, no ordering; docs/design/ring-buffer.md, "Counting").
	 * No consumer accounted these; one that adds up the rings it drained
	 * adds these three too:
	 *  ring_dropped    events of threads that could get no ring (the region
	 *                  full, every exited ring unread in discard mode), and
	 *                  the `dropped` of exited rings recycled unread;
	 *  ring_lost       events that could not be written and had no ring of
	 *                  their own to count on (nesting too deep before the
	 *                  deepest level had a ring, no memory for a ring table),
	 *                  and the `lost` of exited rings recycled unread;
	 *  recycle_overrun events still unread in exited rings recycled for new
	 *                  threads (overwrite mode), and their `overrun`.
	 * The counters of FREE rings (a reader drained them, so it accounted
	 * them) move to retired_overrun / retired_dropped (dropped + lost) when
	 * the ring is reused, so the tree's stats keep them. */
	uint64_t ring_dropped[UFT_SHM_MAX_BUFFERS];
	uint64_t ring_lost[UFT_SHM_MAX_BUFFERS];
	uint64_t recycle_overrun[UFT_SHM_MAX_BUFFERS];
	uint64_t retired_overrun[UFT_SHM_MAX_BUFFERS];
	uint64_t retired_dropped[UFT_SHM_MAX_BUFFERS];
	uint64_t rings_recycled; /* exited rings reused without a reader */
	uint32_t recycle_next;	 /* ring_off[] index the next recycling scan starts at */
	uint32_t pad2;
	char reserved[4096 - 80 - 5 * 8 * UFT_SHM_MAX_BUFFERS - 16];
	uint64_t ring_off[UFT_SHM_MAX_RINGS]; /* 0 = slot unused */
};

_Static_assert(offsetof(struct uft_shm_header, ring_off) == 4096, "shm header layout");

_Static_assert(sizeof(struct uft_shm_header) <= UFT_SHM_HDR_SIZE, "shm header too big");

/* Bytes from a ring's start to its page slot 0 for `nr_pages` slots (the
 * header and slot metadata, aligned to a system page). */
static inline uint64_t uft_ring_hdr_bytes(uint32_t nr_pages)
{
	uint64_t h = sizeof(struct uft_ring) + (uint64_t)nr_pages * sizeof(struct uft_slot_meta);
	return (h + UFT_SUBBUF_SIZE - 1) & ~(uint64_t)(UFT_SUBBUF_SIZE - 1);
}

#endif
