/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The tree's control files: tracers, tracing_on, buffer sizes, the clock,
 * tracing_thresh, saved_cmdlines, error_log and README. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "wire/clocks.h"
#include "runtime/core/runtime.h"
#include "runtime/latency/csect.h"
#include "runtime/tracefs/tfs.h"
#include "runtime/tracefs/tfs_text.h"
#include "util/atomics.h"

static const char readme[] =
    "tracing mini-HOWTO (uft: ftrace for user space):\n"
    "\n"
    "# echo 0 > tracing_on : quick way to disable tracing\n"
    "# echo 1 > tracing_on : quick way to re-enable tracing\n"
    "\n"
    " Important files:\n"
    "  trace\t\t\t- The static contents of the buffer\n"
    "\t\t\t  To clear the buffer write into this file: echo > trace\n"
    "  trace_pipe\t\t- A consuming read to see the contents of the buffer\n"
    "  current_tracer\t- function and latency tracers\n"
    "  available_tracers\t- list of configured tracers for current_tracer\n"
    "  error_log\t- error log for failed commands (that support it)\n"
    "  buffer_size_kb\t- view and modify size of per thread buffer\n"
    "  per_cpu/cpuN/buffer_size_kb - size of the thread buffers opened on CPU N\n"
    "  buffer_total_size_kb  - view total size of all thread buffers\n"
    "  buffer_subbuf_size_kb\t- edit the size of the sub buffers (pages) of the thread buffers\n"
    "  tracing_cpumask\t- Limit which CPUs to trace\n"
    "\n"
    "  trace_clock\t\t- change the clock used to order events\n"
    "       local:   Per thread TSC clock, scaled to ns like the kernel's local_clock\n"
    "      global:   Synced across CPUs (same source: the TSC is synchronized)\n"
    "     counter:   Not a clock, but just an increment\n"
    "      uptime:   Jiffy counter from time of boot\n"
    "        perf:   Same clock that perf events use\n"
    "        mono:   CLOCK_MONOTONIC\n"
    "    mono_raw:   CLOCK_MONOTONIC_RAW\n"
    "        boot:   CLOCK_BOOTTIME\n"
    "         tai:   CLOCK_TAI\n"
    "     x86-tsc:   TSC cycle counter\n"
    "\n"
    "  tracing_thresh\t- Latency threshold in microseconds\n"
    "  trace_options\t\t- Set format or modify how tracing happens\n"
    "\t\t\t  Disable an option by prefixing 'no' to the\n"
    "\t\t\t  option name\n"
    "  saved_cmdlines_size\t- echo command number in here to store comm-pid list\n"
    "  snapshot\t\t- Like 'trace' but shows the content of the static\n"
    "\t\t\t  snapshot buffer. Read the contents for more\n"
    "\t\t\t  information\n"
    "  trace_marker\t\t- Writes into this file writes into the buffer\n"
    "  trace_marker_raw\t\t- Writes into this file writes binary data into the buffer\n"
    "  instances\t\t- Make sub-buffers with: mkdir instances/foo\n"
    "\t\t\t  Remove sub-buffer with rmdir\n"
    "  per_cpu/cpuN/\t\t- trace, trace_pipe, trace_pipe_raw, stats of one CPU\n"
    "  set_event\t\t- Enables events by name written into it\n"
    "\t\t\t  Can enable module events via: :mod:<module>\n"
    "  set_event_pid\t- record events of these thread ids only\n"
    "  set_event_notrace_pid\t- never record events of these thread ids\n"
    "  events/\t\t- Directory containing all trace event subsystems:\n"
    "      enable\t\t- Write 0/1 to enable/disable tracing of all events\n"
    "  events/<system>/\t- Directory containing all trace events for <system>:\n"
    "      enable\t\t- Write 0/1 to enable/disable tracing of all <system>\n"
    "\t\t\t  events\n"
    "      filter\t\t- If set, only events passing filter are traced\n"
    "  events/<system>/<event>/\t- Directory containing control files for\n"
    "\t\t\t  <event>:\n"
    "      enable\t\t- Write 0/1 to enable/disable tracing of <event>\n"
    "      filter\t\t- If set, only events passing filter are traced\n"
    "      format\t\t- The layout of the event's records\n"
    "      id\t\t- The event's type number (common_type)\n"
    "      trigger\t\t- If set, a command to perform when event is hit\n"
    "\t    Format: <trigger>[:count][if <filter>]\n"
    "\t   trigger: traceon, traceoff\n"
    "\t            enable_event:<system>:<event>\n"
    "\t            disable_event:<system>:<event>\n"
    "\t            enable_hist:<system>:<event>\n"
    "\t            disable_hist:<system>:<event>\n"
    "\t\t    stacktrace\n"
    "\t\t    snapshot\n"
    "\t\t    hist (see below)\n"
    "\t   example: echo 'traceoff:1 if common_pid == 42' > events/<system>/<event>/trigger\n"
    "\t    remove: echo '!<trigger>' > events/<system>/<event>/trigger\n"
    "\t\t    (a trigger that is not there: nothing to do)\n"
    "      hist\t\t- The histograms of the event's hist triggers\n"
    "\t    hist:keys=<field1[,field2,...]>[:values=<field1[,field2,...]>]\n"
    "\t            [:<var1>=<field|var_ref|numeric_literal>[,<var2>=...]]\n"
    "\t            [:sort=<field1[,field2,...]>][:size=#entries]\n"
    "\t            [:pause][:continue][:clear]\n"
    "\t            [:name=histname1]\n"
    "\t            [:nohitcount]\n"
    "\t            [:<handler>.<action>]\n"
    "\t            [if <filter>]\n\n"
    "\t    Special fields for keys, values and variables:\n"
    "\t            common_timestamp - the time of the event\n"
    "\t            common_cpu - the CPU the event was written on\n"
    "\t            common_comm - the name of the writing thread\n"
    "\t            common_stacktrace - the writing thread's stack (keys only;\n"
    "\t                                also spelled stacktrace)\n\n"
    "\t    A variable is a field (x=common_timestamp), another variable\n"
    "\t    (y=$x), a numeric literal (ms_per_sec=1000) or an expression of\n"
    "\t    those with +, -, * and / (secs=common_timestamp/1000000).\n\n"
    "\t    Field modifiers (<field>.<modifier>):\n"
    "\t            .hex        the number in hexadecimal\n"
    "\t            .sym        an address as its symbol\n"
    "\t            .sym-offset an address as its symbol and offset\n"
    "\t            .execname   a common_pid as the thread's name\n"
    "\t            .syscall    a system call number as its name\n"
    "\t            .log2       the base-2 logarithm of the number\n"
    "\t            .buckets=size  the number in groups of size\n"
    "\t            .usecs      a common_timestamp in microseconds\n"
    "\t            .percent    a value as a share of its column's total\n"
    "\t            .graph      a value as a bar against its column's largest\n"
    "\t            .stacktrace a long[] field as a stack (keys only)\n\n"
    "\t    enable_hist and disable_hist triggers resume and pause the\n"
    "\t    hist triggers of another event.\n\n"
    "\t    The handlers of a hist trigger:\n\n"
    "\t    onmatch(matching.event)  - on an update from matching.event\n"
    "\t    onmax(var)               - when var beats the entry's largest\n"
    "\t    onchange(var)            - when var changes\n\n"
    "\t    Their actions:\n\n"
    "\t    trace(<synthetic_event>,param list)  - write a synthetic event\n"
    "\t    <synthetic_event>(param list)        - the same\n"
    "\t    save(field,...)                      - keep the event's fields\n"
    "\t    snapshot()                           - take a snapshot of the buffer\n\n"
    "  synthetic_events\t- Create/append/remove/show synthetic events\n"
    "\t\t\t  Write into this file to define/undefine new synthetic events.\n"
    "\t     example: echo 'myevent u64 lat; char name[]' >> synthetic_events\n"
    "\t              echo 'myevent u64 lat; char name[]; long[] stack' >> synthetic_events\n"
    "\t      remove: echo '!myevent' >> synthetic_events\n"
    "\t  field: <type> <name>[;...]\n"
    "\t   type: u8/u16/u32/u64, s8/s16/s32/s64, pid_t, bool, gfp_t,\n"
    "\t         [unsigned] char/int/long,\n"
    "\t         char name[N] or char name[] (a string), long[] (a stack)\n"
    "  kprobe_events\t\t- Create/append/remove/show the process's dynamic probes\n"
    "\t\t\t  Write into this file to define/undefine new trace events.\n"
    "  uprobe_events\t\t- Create/append/remove/show the file-offset dynamic probes\n"
    "\t\t\t  Write into this file to define/undefine new trace events.\n"
    "  dynamic_events\t\t- Create/append/remove/show the generic dynamic events\n"
    "\t\t\t  Write into this file to define/undefine new trace events.\n"
    "\t  accepts: event-definitions (one definition per line)\n"
    "\t   Format: p[:[<group>/][<event>]] <place> [<args>]\n"
    "\t           r[maxactive][:[<group>/][<event>]] <place> [<args>]\n"
    "\t           f[:[<group>/][<event>]] <func-name>[%return] [<args>]\n"
    "\t           s:[synthetic/]<event> <field> [<field>]\n"
    "\t           e[:[<group>/][<event>]] <attached-group>.<attached-event> [<args>] [if "
    "<filter>]\n"
    "\t           -:[<group>/][<event>]\n"
    "\t    place: [<module>:]<symbol>[+<offset>]|<memaddr>\n"
    "place (kretprobe): [<module>:]<symbol>[+<offset>]%return|<memaddr>\n"
    "   place (uprobe): <path>:<offset>[%return][(ref_ctr_offset)]\n"
    "\t           (<module> a library's file name; a point inside a function\n"
    "\t           is an instruction-boundary probe)\n"
    "\t     args: <name>=fetcharg[:type]\n"
    "\t fetcharg: (%<register>|$<efield>), @<address>, @<symbol>[+|-<offset>],\n"
    "\t           $stack<index>, $stack, $retval, $comm, $arg<N>,\n"
    "\t           +|-[u]<offset>(<fetcharg>), \\imm-value, \\\"imm-string\"\n"
    "\t     type: s8/16/32/64, u8/16/32/64, x8/16/32/64, char, string, symbol,\n"
    "\t           b<bit-width>@<bit-offset>/<container-size>, ustring,\n"
    "\t           symstr, <type>\\[<array-size>\\]\n"
    "\t    efield: for an eprobe ('e'), a field of <attached-group>.<attached-event>\n"
    "  available_filter_functions - the functions the function tracers can patch\n"
    "  set_ftrace_filter\t- trace only the functions written here\n"
    "\t     accepts: names and globs (name*, *name, *name*), !glob removes\n"
    "\t     modules: <glob>:mod:<library file name>\n"
    "\t    triggers: <function>:<trigger>[:count] runs when the function is hit\n"
    "\t     trigger: traceon, traceoff, snapshot, stacktrace, dump, cpudump\n"
    "\t\t      enable_event:<system>:<event>, disable_event:<system>:<event>\n"
    "\t     example: echo parse:traceoff:3 >> set_ftrace_filter\n"
    "\t              (a counted traceon/traceoff counts only when it changes tracing_on)\n"
    "\t      remove: echo '!<function>:<trigger>' >> set_ftrace_filter\n"
    "  set_ftrace_notrace\t- never trace the functions written here (no triggers)\n"
    "  set_ftrace_pid\t- function trace only these thread ids\n"
    "  set_ftrace_notrace_pid\t- never function trace these thread ids\n"
    "  set_graph_function\t- graph only these functions and what they call (function_graph)\n"
    "  set_graph_notrace\t- leave out these functions and what they call (function_graph)\n"
    "  max_graph_depth\t- deepest nesting the graph tracer records (0: no limit)\n"
    "  enabled_functions\t- the functions patched now, with their users\n"
    "  touched_functions\t- the functions ever patched, in the same form\n"
    "  function_profile_enabled - 1: count hits and times per function in trace_stat/functionN\n"
    "  stack_trace\t\t- the deepest stack seen while the stack tracer is on\n"
    "  stack_max_size\t- its size; write 0 to look for a new deepest stack\n"
    "  stack_trace_filter\t- the functions the stack tracer measures at (as set_ftrace_filter)\n"
    "  stack_tracer_enabled\t- 1: stack tracer on (the kernel's sysctl of that name)\n";

static int show_readme(const struct tfs_node *n, FILE *out)
{
	fputs(readme, out);
	return 0;
}

/* ---- tracers ---- */

static int show_current_tracer(const struct tfs_node *n, FILE *out)
{
	fprintf(out, "%s\n", tfs_tracer_name(n->inst));
	return 0;
}

static int write_current_tracer(const struct tfs_node *n, char *buf, size_t len, unsigned of)
{
	tfs_strip(buf, len);
	while (*buf == ' ')
		buf++;
	return tfs_set_tracer(n->inst, buf);
}

/* ---- tracing_on ---- */

static int show_tracing_on(const struct tfs_node *n, FILE *out)
{
	fprintf(out, "%u\n", READ_ONCE(uft_buffers[n->inst->buffer].on) ? 1u : 0u);
	return 0;
}

static int write_tracing_on(const struct tfs_node *n, char *buf, size_t len, unsigned of)
{
	unsigned long v;
	tfs_strip(buf, len);
	if (tfs_parse_ulong(buf, &v))
		return -EINVAL;
	uft_store_seq_cst(&uft_buffers[n->inst->buffer].on, v != 0);
	if (n->inst->buffer == 0)
		uft_buffer_update_fast();
	return 0;
}

/* ---- buffer sizes ---- */

#define MAX_RING_KB (UFT_SHM_MAX_RING_PAGES * (UFT_SUBBUF_SIZE / 1024ul))

/* Up to the first CPU whose size the tree can set. */
static int sized_cpus(void)
{
	return tfs_nr_cpus() < UFT_BUFFER_MAX_CPUS ? tfs_nr_cpus() : UFT_BUFFER_MAX_CPUS;
}

/* A per_cpu directory shows its CPU's size; the top one the size all CPUs
 * share, or "X" when they differ, as the kernel's. */
static int show_buffer_size(const struct tfs_node *n, FILE *out)
{
	const struct uft_buffer *b = &uft_buffers[n->inst->buffer];
	if (n->dir == TFS_D_CPU) {
		fprintf(out, "%lu\n",
			(unsigned long)uft_buffer_cpu_pages(b, (uint32_t)n->cpu) * 4ul);
		return 0;
	}
	uint32_t pages = uft_buffer_cpu_pages(b, 0);
	for (int c = 1; c < sized_cpus(); c++) {
		if (uft_buffer_cpu_pages(b, (uint32_t)c) != pages) {
			fputs("X\n", out);
			return 0;
		}
	}
	fprintf(out, "%lu\n", (unsigned long)pages * 4ul);
	return 0;
}

/* The top file sets every CPU's size, a per_cpu one its CPU's: a thread's
 * ring takes the size of the CPU it is opened on. */
static int write_buffer_size(const struct tfs_node *n, char *buf, size_t len, unsigned of)
{
	unsigned long kb;
	tfs_strip(buf, len);
	if (tfs_parse_ulong(buf, &kb) || kb == 0)
		return -EINVAL;
	if (kb > MAX_RING_KB)
		return -ENOMEM;
	/* Whole pages, at least two: a ring needs one to write and one to read. */
	unsigned long pages = (kb + 3) / 4;
	if (pages < 2)
		pages = 2;
	struct uft_buffer *b = &uft_buffers[n->inst->buffer];
	if (n->dir == TFS_D_CPU) {
		if (n->cpu < 0 || n->cpu >= UFT_BUFFER_MAX_CPUS)
			return -EINVAL;
		if (uft_buffer_cpu_pages(b, (uint32_t)n->cpu) == pages)
			return 0;
		WRITE_ONCE(b->cpu_pages[n->cpu], (uint32_t)pages);
	} else {
		bool same = b->ring_pages == pages;
		for (int c = 0; c < UFT_BUFFER_MAX_CPUS; c++) {
			same &= !b->cpu_pages[c];
			WRITE_ONCE(b->cpu_pages[c], 0);
		}
		if (same)
			return 0;
		WRITE_ONCE(b->ring_pages, (uint32_t)pages);
	}
	/* Threads move to rings of the new size at their next event; what the
	 * old rings hold stays readable. */
	uft_buffer_new_generation(n->inst->buffer);
	return 0;
}

static void add_ring_kb(void *ctx, struct uft_ring *r, uint32_t slot)
{
	uint32_t sb = READ_ONCE(r->subbuf_size);
	if (!uft_subbuf_valid(sb))
		sb = UFT_SUBBUF_SIZE;
	*(unsigned long *)ctx += (unsigned long)READ_ONCE(r->nr_pages) * (sb / 1024ul);
}

static int show_buffer_total(const struct tfs_node *n, FILE *out)
{
	unsigned long kb = 0;
	tfs_for_each_ring(n->inst->buffer, add_ring_kb, &kb);
	fprintf(out, "%lu\n", kb);
	return 0;
}

/* ---- buffer_subbuf_size_kb ---- */

static int show_subbuf_size(const struct tfs_node *n, FILE *out)
{
	fprintf(out, "%u\n", uft_buffer_subbuf(&uft_buffers[n->inst->buffer]) / 1024u);
	return 0;
}

/* As the kernel's: the size asked, in KiB, rounded up to a power of two
 * number of system pages, 1 to 128 of them (0 and more are EINVAL). A new
 * size empties the buffer; threads open rings of it at their next event
 * (docs/design/ring-buffer.md, "Sub-buffer size"). */
static int write_subbuf_size(const struct tfs_node *n, char *buf, size_t len, unsigned of)
{
	unsigned long kb;
	tfs_strip(buf, len);
	uint32_t size = tfs_parse_ulong(buf, &kb) ? 0 : uft_subbuf_from_kb(kb);
	if (!size)
		return -EINVAL;
	uint32_t idx = n->inst->buffer;
	struct uft_buffer *b = &uft_buffers[idx];
	if (uft_buffer_subbuf(b) == size)
		return 0;
	WRITE_ONCE(b->subbuf_size, size);
	uft_buffer_new_generation(idx);
	tfs_trace_clear(idx);
	return 0;
}

/* ---- trace_clock ---- */

static int show_trace_clock(const struct tfs_node *n, FILE *out)
{
	char buf[256];
	uft_clock_list((enum uft_clock)uft_buffers[n->inst->buffer].clock, buf, sizeof(buf));
	fputs(buf, out);
	return 0;
}

static int write_trace_clock(const struct tfs_node *n, char *buf, size_t len, unsigned of)
{
	tfs_strip(buf, len);
	while (*buf == ' ')
		buf++;
	int c = uft_clock_by_name(buf);
	if (c < 0)
		return -EINVAL;
	/* uft record writes one clock into its file's header: the top buffer it
	 * reads keeps its clock (and its contents) until the recording ends. */
	if (n->inst->buffer == 0 && READ_ONCE(uft_sess.notify_fd) >= 0 &&
	    (uint32_t)c != uft_buffers[0].clock) {
		tfs_log_error(n->inst, "trace_clock", buf,
			      "Clock cannot change while uft record reads this buffer", 0);
		return -EBUSY;
	}
	/* Even the clock in use: the kernel resets the buffers on every write. */
	return tfs_set_clock(n->inst->buffer, c);
}

int tfs_set_clock(uint32_t buffer, int c)
{
	struct uft_buffer *b = &uft_buffers[buffer];
	/* Stamps of two clocks cannot be ordered: the buffer starts empty, and
	 * the snapshot too (still allocated if it was), as the kernel resets
	 * both on every clock setting. */
	tfs_trace_clear(buffer);
	if (b->clock == (uint32_t)c) {
		if (tfs_insts[buffer])
			tfs_snapshot_empty(tfs_insts[buffer]);
		return 0;
	}
	if (tfs_insts[buffer])
		tfs_snapshot_free(tfs_insts[buffer]);
	b->clock = (uint32_t)c;
	uft_buffer_new_generation(buffer);
	return 0;
}

/* ---- tracing_thresh ---- */

/* Read by the section tracers (runtime/latency/csect.c). */
unsigned long uft_tracing_thresh_us;

static int show_thresh(const struct tfs_node *n, FILE *out)
{
	fprintf(out, "%lu\n", READ_ONCE(uft_tracing_thresh_us));
	return 0;
}

static int write_thresh(const struct tfs_node *n, char *buf, size_t len, unsigned of)
{
	unsigned long v;
	tfs_strip(buf, len);
	if (tfs_parse_ulong(buf, &v))
		return -EINVAL;
	WRITE_ONCE(uft_tracing_thresh_us, v);
	return 0;
}

/* ---- tracing_max_latency (µs): the section tracers' max ---- */

static int show_max_latency(const struct tfs_node *n, FILE *out)
{
	fprintf(out, "%llu\n", (unsigned long long)uft_csect_max_us(n->inst->buffer));
	return 0;
}

static int write_max_latency(const struct tfs_node *n, char *buf, size_t len, unsigned of)
{
	unsigned long v;
	tfs_strip(buf, len);
	if (tfs_parse_ulong(buf, &v))
		return -EINVAL; /* kstrtoul's answer, for "-1" too */
	uft_csect_set_max_us(n->inst->buffer, v);
	return 0;
}

/* ---- saved_cmdlines ---- */

static unsigned long cmdlines_size = 128;

static int show_cmdlines_size(const struct tfs_node *n, FILE *out)
{
	fprintf(out, "%lu\n", cmdlines_size);
	return 0;
}

static int write_cmdlines_size(const struct tfs_node *n, char *buf, size_t len, unsigned of)
{
	unsigned long v;
	tfs_strip(buf, len);
	if (tfs_parse_ulong(buf, &v) || v == 0 || v > 32768)
		return -EINVAL;
	cmdlines_size = v;
	return 0;
}

struct cmdlines {
	int *tid;
	char (*comm)[17];
	size_t n;
};

/* Each thread once, with the comm of its newest ring. */
static void add_comm(struct cmdlines *c, int tid, const char *comm)
{
	if (tid <= 0)
		return;
	size_t i = 0;
	while (i < c->n && c->tid[i] != tid)
		i++;
	if (i == c->n) {
		void *a = realloc(c->tid, (c->n + 1) * sizeof(*c->tid));
		if (!a)
			return;
		c->tid = a;
		void *b = realloc(c->comm, (c->n + 1) * sizeof(*c->comm));
		if (!b)
			return;
		c->comm = b;
		c->tid[c->n++] = tid;
	}
	memcpy(c->comm[i], comm, 16);
	c->comm[i][16] = 0;
}

static void add_cmdline(void *ctx, struct uft_ring *r, uint32_t slot)
{
	add_comm(ctx, r->tid, r->comm);
}

/* The comms of the threads that wrote events: each ring carries its
 * thread's; the last saved_cmdlines_size threads are shown. */
static int show_cmdlines(const struct tfs_node *n, FILE *out)
{
	if (!tfs_opt(tfs_insts[0], "record-cmd"))
		return 0;
	struct cmdlines c = {0};
	/* trace_marker records carry the process's pid (tfs_marker.c): listed
	 * with its main thread's name unless a ring of that thread says. */
	char self[17];
	if (tfs_self_comm(self))
		add_comm(&c, getpid(), self);
	tfs_for_each_ring(TFS_ALL_BUFFERS, add_cmdline, &c);
	size_t first = c.n > cmdlines_size ? c.n - cmdlines_size : 0;
	for (size_t i = first; i < c.n; i++)
		fprintf(out, "%d %s\n", c.tid[i], c.comm[i]);
	free(c.tid);
	free(c.comm);
	return 0;
}

/* ---- error_log ---- */

static int show_error_log(const struct tfs_node *n, FILE *out)
{
	return tfs_log_show(n->inst, out);
}

static int open_error_log(struct uft_tfs_handle *h)
{
	if (h->flags & UFT_TFS_TRUNC)
		tfs_log_clear(h->n.inst);
	return 0;
}

static int write_error_log(const struct tfs_node *n, char *buf, size_t len, unsigned of)
{
	tfs_log_clear(n->inst);
	return 0;
}

const struct tfs_file tfs_core_files[] = {
    {.name = "README", .dir = TFS_D_ROOT, .mode = 0444, .where = TFS_TOP_ONLY, .show = show_readme},
    {.name = "available_tracers",
     .dir = TFS_D_ROOT,
     .mode = 0444,
     .show = tfs_show_available_tracers},
    {.name = "current_tracer",
     .dir = TFS_D_ROOT,
     .mode = 0644,
     .show = show_current_tracer,
     .write = write_current_tracer},
    {.name = "tracing_on",
     .dir = TFS_D_ROOT,
     .mode = 0644,
     .show = show_tracing_on,
     .write = write_tracing_on},
    {.name = "buffer_size_kb",
     .dir = TFS_D_ROOT,
     .mode = 0644,
     .show = show_buffer_size,
     .write = write_buffer_size},
    {.name = "buffer_total_size_kb", .dir = TFS_D_ROOT, .mode = 0444, .show = show_buffer_total},
    {.name = "buffer_subbuf_size_kb",
     .dir = TFS_D_ROOT,
     .mode = 0644,
     .show = show_subbuf_size,
     .write = write_subbuf_size},
    {.name = "trace_clock",
     .dir = TFS_D_ROOT,
     .mode = 0644,
     .show = show_trace_clock,
     .write = write_trace_clock},
    {.name = "tracing_thresh",
     .dir = TFS_D_ROOT,
     .mode = 0644,
     .where = TFS_TOP_ONLY,
     .show = show_thresh,
     .write = write_thresh},
    {.name = "tracing_max_latency",
     .dir = TFS_D_ROOT,
     .mode = 0644,
     .show = show_max_latency,
     .write = write_max_latency},
    {.name = "saved_cmdlines",
     .dir = TFS_D_ROOT,
     .mode = 0444,
     .where = TFS_TOP_ONLY,
     .show = show_cmdlines},
    {.name = "saved_cmdlines_size",
     .dir = TFS_D_ROOT,
     .mode = 0644,
     .where = TFS_TOP_ONLY,
     .show = show_cmdlines_size,
     .write = write_cmdlines_size},
    {.name = "error_log",
     .dir = TFS_D_ROOT,
     .mode = 0644,
     .show = show_error_log,
     .write = write_error_log,
     .open = open_error_log},
    {.name = "buffer_size_kb",
     .dir = TFS_D_CPU,
     .mode = 0644,
     .show = show_buffer_size,
     .write = write_buffer_size},
    {0},
};
