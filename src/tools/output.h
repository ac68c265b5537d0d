/* Kernel `trace` text output (output-format.md §1-3) and `uft list` text for
 * recorded uft events; event bodies come from libtraceevent. */
#ifndef UFT_OUTPUT_H
#define UFT_OUTPUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct tep_handle;

/* Output options (flags arguments). */
enum {
	UFT_OUT_NO_IRQ_INFO = 1u << 0, /* option irq-info off: no flags column */
	UFT_OUT_RAW_CLOCK = 1u << 1,   /* counter, x86-tsc, uptime: raw " %12llu" stamps */
};

/* Returns the comm of pid, or NULL if unknown. */
typedef const char *(*uft_comm_fn)(void *ctx, int pid);

struct uft_out_record {
	int cpu;
	uint64_t ts;	  /* ns, or ticks with UFT_OUT_RAW_CLOCK */
	const void *data; /* payload: common header then fields */
	uint32_t size;
};

/* "# tracer: ..." through the column legend. */
void uft_out_header(FILE *f, const char *tracer, uint64_t entries, uint64_t written, int nr_cpus,
		    unsigned flags);
/* The 5-character flags column of a record payload (out gets a NUL too). */
void uft_out_flags(const void *data, char out[6]);
/* comm for a pid the way the trace file shows it: <idle> for 0, <...> unknown. */
const char *uft_out_comm(uft_comm_fn comm, void *ctx, int pid);
/* One event line. Returns 0, or -EINVAL for a record shorter than the
 * common header (nothing printed). */
int uft_out_event(FILE *f, struct tep_handle *tep, uft_comm_fn comm, void *ctx,
		  const struct uft_out_record *rec, unsigned flags);
/* "CPU:n [LOST m EVENTS]"; lost == UINT64_MAX when the count is unknown. */
void uft_out_lost(FILE *f, int cpu, uint64_t lost);

/* `uft list` flags, as trace-cmd list: -F shows formats, --full adds print fmt. */
enum {
	UFT_LIST_FORMAT = 1u << 0,
	UFT_LIST_FULL = 1u << 1,
};

/* Lists one event: "system:name", or with UFT_LIST_FORMAT "system: <system>"
 * followed by its format text (len bytes), up to "print fmt" unless
 * UFT_LIST_FULL. */
void uft_list_event(FILE *f, const char *system, const char *name, const char *format, size_t len,
		    unsigned flags);

#endif
