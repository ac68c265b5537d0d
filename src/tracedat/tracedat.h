/* SPDX-License-Identifier: GPL-2.0-or-later */
/* trace.dat files (trace-cmd's trace-cmd.dat.v6(5);
 * docs/design/recording.md): a version 6 writer that trace-cmd and
 * libtracecmd read, and a parser of versions 6 and 7 that survives any input. */
#ifndef UFT_TRACEDAT_H
#define UFT_TRACEDAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Option ids shared by both versions; 15 and up also name v7 sections. */
enum tracedat_option_id {
	TRACEDAT_OPT_DONE = 0,
	TRACEDAT_OPT_DATE = 1,
	TRACEDAT_OPT_CPUSTAT = 2,
	TRACEDAT_OPT_BUFFER = 3,
	TRACEDAT_OPT_TRACECLOCK = 4,
	TRACEDAT_OPT_UNAME = 5,
	TRACEDAT_OPT_HOOK = 6,
	TRACEDAT_OPT_OFFSET = 7,
	TRACEDAT_OPT_CPUCOUNT = 8,
	TRACEDAT_OPT_VERSION = 9,
	TRACEDAT_OPT_PROCMAPS = 10,
	TRACEDAT_OPT_TRACEID = 11,
	TRACEDAT_OPT_TIME_SHIFT = 12,
	TRACEDAT_OPT_GUEST = 13,
	TRACEDAT_OPT_TSC2NSEC = 14,
	TRACEDAT_OPT_STRINGS = 15,
	TRACEDAT_OPT_HEADER_INFO = 16,
	TRACEDAT_OPT_FTRACE_EVENTS = 17,
	TRACEDAT_OPT_EVENT_FORMATS = 18,
	TRACEDAT_OPT_KALLSYMS = 19,
	TRACEDAT_OPT_PRINTK = 20,
	TRACEDAT_OPT_CMDLINES = 21,
	TRACEDAT_OPT_BUFFER_TEXT = 22,
	TRACEDAT_OPT_BTF_FILE = 23,
	TRACEDAT_OPT_LAST_BOOT_INFO = 24,
	TRACEDAT_OPT_MODULES_FILE = 25,
};

/* ---- writer (version 6, or 7 when compressed; little endian, long size 8) ----
 * Metadata and pages may be added in any order; pages are spooled to a
 * temporary file next to `path` and the file is assembled by close(). All int
 * returns are 0 or -errno. */

struct tracedat_writer;

/* `clock` is the trace clock name ("local", "mono", "x86-tsc", ...). NULL with
 * errno set on failure. */
struct tracedat_writer *tracedat_writer_open(const char *path, int nr_cpus, uint32_t page_size,
					     const char *clock);
/* "none" (the default: version 6), "zstd" or "zlib": a version 7 file whose
 * metadata sections and CPU data are compressed. -EINVAL for other names. */
int tracedat_writer_set_compression(struct tracedat_writer *w, const char *name);
/* A `format` file text; system "ftrace" goes to the ftrace list. */
int tracedat_writer_add_format(struct tracedat_writer *w, const char *system,
			       const char *format_text);
int tracedat_writer_add_cmdline(struct tracedat_writer *w, int pid, const char *comm);
/* Any option but those the writer owns (DONE, BUFFER, TRACECLOCK, CPUCOUNT and
 * the v7 section ids >= 15): -EINVAL for those. */
int tracedat_writer_add_option(struct tracedat_writer *w, uint16_t id, const void *data,
			       uint32_t size);
/* The UNAME option from uname(2), as trace-cmd records it. */
int tracedat_writer_add_uname(struct tracedat_writer *w);
/* /proc/kallsyms- and printk_formats-style texts (replace earlier ones). */
int tracedat_writer_set_kallsyms(struct tracedat_writer *w, const char *text, size_t len);
int tracedat_writer_set_printk(struct tracedat_writer *w, const char *text, size_t len);
/* One whole sub-buffer of `page_size` bytes; in order within a CPU. */
int tracedat_writer_add_page(struct tracedat_writer *w, int cpu, const void *page);
/* An anonymous temporary file on the file system of `path` (else in the
 * temporary directory): pages spooled there reach the output by
 * copy_file_range. A file descriptor, or -1. */
int tracedat_open_spool(const char *path);
/* fd's file opened again with O_DIRECT and flags (O_RDONLY, O_WRONLY): -1
 * where the file system has no direct I/O. */
int tracedat_reopen_direct(int fd, int flags);
/* Takes `fd`, whose first `len` bytes hold pages written elsewhere, as the
 * spool (before any page is added): later pages are appended after them. */
int tracedat_writer_adopt_spool(struct tracedat_writer *w, int fd, uint64_t len);
/* The same for a spool whose pages start after a hole of `hole` bytes (a
 * multiple of the page size): when each CPU's pages lie in one run in
 * order and nothing else is there, the version 6 file is made of the spool
 * itself — the metadata written into the hole, the rest of the hole cut out
 * (FALLOC_FL_COLLAPSE_RANGE), the spool linked in place of the output — and
 * no page is copied. Otherwise the pages are copied as usual. */
int tracedat_writer_adopt_spool_hole(struct tracedat_writer *w, int fd, uint64_t hole,
				     uint64_t len);
/* The page of `page_size` bytes at byte `off` of the adopted spool, as the
 * CPU's next page (no copy until the file is written). */
int tracedat_writer_add_page_at(struct tracedat_writer *w, int cpu, uint64_t off);
/* Writes the file and frees the writer (also on failure, which removes the file). */
int tracedat_writer_close(struct tracedat_writer *w);
/* Frees the writer and removes the file. */
void tracedat_writer_abort(struct tracedat_writer *w);

/* ---- parser (versions 6 and 7; version 7 uncompressed or compressed with
 * "zstd" or "zlib") ---- */

/* Decompressed bytes a file may expand to in all, unless changed with
 * tracedat_set_inflate_limit(); a file claiming more is refused. */
#define TRACEDAT_INFLATE_LIMIT (1ull << 30)
void tracedat_set_inflate_limit(uint64_t bytes);

struct tracedat_format {
	const char *system; /* "ftrace" for the ftrace list; owned by struct tracedat */
	char *text;	    /* NUL terminated copy */
	size_t len;
};

struct tracedat_option {
	uint16_t id;
	uint32_t size;
	uint8_t *data; /* copy, NUL terminated beyond `size` */
};

struct tracedat_cpu {
	int cpu;
	uint64_t offset;     /* absolute file offset of the first page (or chunk) */
	uint64_t size;	     /* bytes of pages (decompressed, in a compressed file) */
	const uint8_t *data; /* into the parsed buffer or file mapping, or a
				decompressed or time-converted copy the
				struct tracedat owns (size is then the copy's) */
};

/* An instance (buffer) other than the top one. */
struct tracedat_instance {
	char *name;
	uint64_t offset; /* v6: its "flyrecord" table; v7: its section header */
	char clock[64];
	struct tracedat_cpu *cpus;
	size_t nr_cpu_data;
	bool latency; /* its data is latency text (not kept) */
};

struct tracedat {
	int version;
	bool big_endian;
	int long_size;
	uint32_t page_size;
	char *header_page;
	size_t header_page_len;
	char *header_event;
	size_t header_event_len;
	struct tracedat_format *ftrace;
	size_t nr_ftrace;
	struct tracedat_format *events;
	size_t nr_events;
	char *kallsyms;
	size_t kallsyms_len;
	char *printk;
	size_t printk_len;
	char *cmdlines;
	size_t cmdlines_len;
	int nr_cpus;
	char clock[64];		   /* "" when the file names none */
	struct tracedat_cpu *cpus; /* top instance, by table order */
	size_t nr_cpu_data;
	bool latency;		  /* latency text instead of per-CPU pages */
	const char *latency_text; /* into the buffer; not NUL terminated */
	size_t latency_len;
	struct tracedat_option *options;
	size_t nr_options;
	struct tracedat_instance *instances; /* other instances, each with its pages */
	size_t nr_instances;
	char compression[16]; /* "zstd", "zlib"; "" when uncompressed */
	char compression_version[32];
	/* private */
	uint8_t **owned; /* decompressed copies */
	size_t nr_owned;
	uint64_t inflated; /* bytes decompressed so far */
	char **sys_names;
	size_t nr_sys_names;
	void *map;
	size_t map_len;
};

/* Parses `len` bytes; CPU data pointers refer into `buf`, which must outlive
 * the result. NULL with a message in `err` on failure. */
struct tracedat *tracedat_parse(const void *buf, size_t len, char *err, size_t errlen);
/* Maps and parses a file; CPU data pointers refer into the mapping. */
struct tracedat *tracedat_open(const char *path, char *err, size_t errlen);
void tracedat_free(struct tracedat *td);
/* First option with `id`, or NULL. */
const struct tracedat_option *tracedat_find_option(const struct tracedat *td, uint16_t id);

#endif
