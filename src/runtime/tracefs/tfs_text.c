/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Record lines of the live trace files in each of the kernel's output forms. */
#define _GNU_SOURCE
#include "runtime/tracefs/tfs_text.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "wire/ftrace_records.h"
#include "engine/format/print_fmt.h"
#include "wire/shm_layout.h"
#include "engine/text/trace_text.h"
#include "runtime/core/registry.h"
#include "runtime/core/runtime.h"
#include "runtime/tracefs/tfs_inject.h"
#include "runtime/tracefs/tfs_marker.h"
#include "runtime/core/stack_event.h"
#include "runtime/core/symtab.h"
#include "runtime/core/synth_live.h"
#include "runtime/ftrace/eprobe.h"
#include "runtime/ftrace/ftrace_probe.h"
#include "runtime/latency/csect.h"
#include "runtime/latency/osn_tracer.h"
#include "runtime/latency/wakeup.h"
#include <uft/event.h>

#include "uft/version.h" /* generated from VERSION */

/* ---- comms ---- */

static void comm_push(struct tfs_comms *c, int32_t tid, int32_t tgid, const char *comm)
{
	void *a = realloc(c->tid, (c->n + 1) * sizeof(*c->tid));
	if (!a)
		return;
	c->tid = a;
	void *g = realloc(c->tgid, (c->n + 1) * sizeof(*c->tgid));
	if (!g)
		return;
	c->tgid = g;
	void *b = realloc(c->comm, (c->n + 1) * sizeof(*c->comm));
	if (!b)
		return;
	c->comm = b;
	c->tid[c->n] = tid;
	c->tgid[c->n] = tgid;
	memcpy(c->comm[c->n], comm, 16);
	c->comm[c->n][16] = 0;
	c->n++;
}

static void comm_other(void *ctx, int pid, const char *comm)
{
	comm_push(ctx, pid, -1, comm);
}

static void comm_ring(void *ctx, struct uft_ring *r, uint32_t slot)
{
	comm_push(ctx, r->tid, r->pid, r->comm);
}

void tfs_comms_load(struct tfs_comms *c, uint32_t buffer)
{
	memset(c, 0, sizeof(*c));
	if (!tfs_opt(tfs_insts[0], "record-cmd"))
		return;
	/* trace_marker records carry the process's pid (tfs_marker.c): its
	 * main thread's name, unless a ring of that thread says (searched
	 * last to first, rings come after). */
	char self[17];
	if (tfs_self_comm(self))
		comm_push(c, getpid(), getpid(), self);
	tfs_inject_comms(comm_other, c); /* other tasks (tfs_inject.c) */
	tfs_for_each_ring(buffer, comm_ring, c);
}

bool tfs_self_comm(char comm[17])
{
	FILE *f = fopen("/proc/self/comm", "re");
	if (!f)
		return false;
	bool ok = fgets(comm, 17, f) != NULL;
	fclose(f);
	if (ok)
		comm[strcspn(comm, "\n")] = 0;
	return ok;
}

void tfs_comms_free(struct tfs_comms *c)
{
	free(c->tid);
	free(c->tgid);
	free(c->comm);
}

static const char *comm_of(void *ctx, int pid)
{
	struct tfs_comms *c = ctx;
	for (size_t i = c->n; i-- > 0;)
		if (c->tid[i] == pid)
			return c->comm[i];
	return NULL;
}

static int tgid_of(struct tfs_comms *c, int pid)
{
	for (size_t i = c->n; i-- > 0;)
		if (c->tid[i] == pid)
			return c->tgid[i];
	return -1;
}

/* ---- header ---- */

static unsigned out_flags(const struct tfs_inst *in)
{
	unsigned f = 0;
	if (!tfs_opt(in, "irq-info"))
		f |= UFT_OUT_NO_IRQ_INFO;
	if (!uft_clock_is_ns((enum uft_clock)uft_buffers[in->buffer].clock))
		f |= UFT_OUT_RAW_CLOCK;
	if (tfs_opt(in, "record-tgid"))
		f |= UFT_OUT_TGID;
	return f;
}

static bool plain_text(const struct tfs_inst *in)
{
	return !tfs_opt(in, "raw") && !tfs_opt(in, "hex") && !tfs_opt(in, "bin");
}

static const char lat_legend[] = "#                    _------=> CPU#            \n"
				 "#                   / _-----=> signals-off     \n"
				 "#                  | / _----=> need-resched    \n"
				 "#                  || / _---=> signal-handler  \n"
				 "#                  ||| / _--=> nesting-depth   \n"
				 "#                  |||| / _-=> reserved        \n"
				 "#                  ||||| /     delay           \n"
				 "#  cmd     pid     |||||| time  |   caller     \n"
				 "#     \\   /        ||||||  \\    |    /       \n";

/* The name of the function holding a section's end, as the kernel's
 * seq_print_ip_sym without offsets. */
static void put_sym(FILE *f, uintptr_t addr)
{
	char name[256];
	if (uft_symbol_name(addr, name, sizeof(name)) == 0)
		fputs(name, f);
	else
		fprintf(f, "0x%llx", (unsigned long long)addr);
}

/* The kernel's print_trace_header block of latency-format; a section
 * tracer's max trace fills in its latency, task and ends. */
static void latency_block(FILE *f, const struct tfs_view *v, uint64_t entries, uint64_t overrun,
			  const struct tfs_rec *first)
{
	const struct uft_csect_info *sc = v->sect;
	fprintf(f, "# %s latency trace v1.1.5 on uft-%s\n", v->tracer, UFT_VERSION);
	fputs("# --------------------------------------------------------------------\n", f);
	fprintf(
	    f, "# latency: %llu us, #%llu/%llu, CPU#%u | (M:preempt VP:0, KP:0, SP:0 HP:0 #P:%d)\n",
	    (unsigned long long)(sc ? sc->lat_ns / 1000 : 0), (unsigned long long)entries,
	    (unsigned long long)(entries + overrun), sc ? sc->cpu : first->cpu, tfs_nr_cpus());
	fputs("#    -----------------\n", f);
	if (sc)
		fprintf(f, "#    | task: %.16s-%d (uid:%d nice:%ld policy:%ld rt_prio:%ld)\n",
			sc->comm, sc->tid, sc->uid, sc->nice, sc->policy, sc->rt_prio);
	else
		fputs("#    | task: -0 (uid:0 nice:0 policy:0 rt_prio:0)\n", f);
	fputs("#    -----------------\n", f);
	if (sc && sc->start_ip) {
		fputs("#  => started at: ", f);
		put_sym(f, sc->start_ip);
		fputs("\n#  => ended at:   ", f);
		put_sym(f, sc->end_ip);
		fputs("\n#\n", f);
	}
	fputs("#\n", f);
}

void tfs_text_header(FILE *f, const struct tfs_view *v, uint64_t entries, uint64_t overrun,
		     const struct tfs_rec *first)
{
	const struct tfs_inst *in = v->in;
	const char *tracer = v->tracer;
	if (v->graph) {
		/* The graph tracer's own legend, whatever the output form; with
		 * latency-format the latency block first, none over an empty
		 * buffer. */
		fprintf(f, "# tracer: %s\n#\n", tracer);
		if ((v->g.flags & UFT_GRAPH_LATENCY) && !(v->g.flags & UFT_GRAPH_NO_CONTEXT)) {
			if (!first)
				return;
			latency_block(f, v, entries, overrun, first);
		}
		uft_graph_header(f, v->g.flags);
		return;
	}
	/* timerlat and osnoise print their own header in every text form, as
	 * the kernel's print_header. */
	int osn = uft_osn_kind(tracer);
	if (osn && plain_text(in)) {
		fprintf(f, "# tracer: %s\n#\n", tracer);
		uft_osn_header(f, osn);
		return;
	}
	/* Binary and hex forms carry no header; neither does a header-less view. */
	if (!plain_text(in) || !tfs_opt(in, "context-info")) {
		if (plain_text(in))
			fprintf(f, "# tracer: %s\n#\n", tracer);
		return;
	}
	if (!tfs_opt(in, "latency-format")) {
		uft_out_header(f, tracer, entries, entries + overrun, tfs_nr_cpus(), out_flags(in));
		return;
	}
	fprintf(f, "# tracer: %s\n#\n", tracer);
	if (!first)
		return; /* as the kernel: no latency header over an empty buffer */
	latency_block(f, v, entries, overrun, first);
	if (!tfs_opt(in, "verbose"))
		fputs(lat_legend, f);
}

/* ---- function tracers ---- */

void tfs_current_tracer(const struct tfs_inst *in, char *buf, size_t len)
{
	snprintf(buf, len, "nop");
	for (const struct tfs_file *t = tfs_core_files; t->name; t++) {
		if (strcmp(t->name, "current_tracer") != 0 || t->dir != TFS_D_ROOT || !t->show)
			continue;
		struct tfs_node n = {.inst = (struct tfs_inst *)in, .dir = TFS_D_ROOT, .file = t};
		char *text;
		size_t tl;
		if (tfs_render(&n, &text, &tl) == 0 && tl) {
			while (tl && (text[tl - 1] == '\n' || text[tl - 1] == ' '))
				tl--;
			if (tl && tl < len)
				snprintf(buf, len, "%.*s", (int)tl, text);
		}
		free(text);
		return;
	}
}

/* Names of code addresses in this process, for the function lines. */
static bool sym_lookup(void *ctx, uint64_t addr, struct uft_sym *out)
{
	struct uft_symbol *s = ctx;
	if (uft_symbol_find((uintptr_t)addr, s) != 0) {
		/* No symbol holds it: "[object+0xoffset]" (ftrace_text.h). */
		*out = (struct uft_sym){NULL, s->base, 0, s->object};
		return s->object[0] != 0;
	}
	*out = (struct uft_sym){s->name, s->start, s->size, s->module[0] ? s->module : NULL};
	return true;
}

/* The kernel's %pS: "name+0xoff/0xsize" of an address. */
static int pS(uint64_t addr, char *buf, size_t len)
{
	struct uft_symbol s;
	if (uft_symbol_find((uintptr_t)addr, &s) != 0)
		return uft_symbol_tag(&s, (uintptr_t)addr, buf, len);
	snprintf(buf, len, "%s+0x%llx/0x%llx", s.name, (unsigned long long)(addr - s.start),
		 (unsigned long long)s.size);
	return 0;
}

/* Per function line: the three symbol options only. */
static unsigned fn_opts(const struct tfs_inst *in)
{
	return (tfs_opt(in, "print-parent") ? UFT_FN_PRINT_PARENT : 0) |
	       (tfs_opt(in, "sym-offset") ? UFT_FN_SYM_OFFSET : 0) |
	       (tfs_opt(in, "sym-addr") ? UFT_FN_SYM_ADDR : 0);
}

/* The graph's display flags from the instance's options (once per read). */
static unsigned graph_flags(const struct tfs_inst *in)
{
	unsigned graph = (tfs_opt(in, "context-info") ? 0 : UFT_GRAPH_NO_CONTEXT) |
			 (tfs_opt(in, "latency-format") ? UFT_GRAPH_LATENCY : 0);
	for (int i = 0; i < tfs_option_count(); i++) {
		unsigned f, g;
		const char *name = tfs_option_name(i);
		if (uft_ftrace_option_bit(name, &f, &g) && g && (in->opts >> i & 1))
			graph |= g;
	}
	return graph;
}

static void body_text(FILE *f, const struct tfs_inst *in, const struct tfs_rec *r);

/* Records met while graph tracing become comments: a marker's message, or
 * the event's usual body. */
static void graph_comment(void *ctx, FILE *f, const struct uft_ftrace_rec *fr)
{
	const struct tfs_view *v = ctx;
	const struct uft_common_entry *e = fr->data;
	if (e->type == UFT_ID_PRINT && fr->len >= 16) {
		const char *p = fr->data;
		fwrite(p + 16, 1, strnlen(p + 16, fr->len - 16), f);
		return;
	}
	struct tfs_rec r = {fr->ts, 0, 0, (uint32_t)fr->cpu, fr->len, (char *)fr->data};
	body_text(f, v->in, &r);
}

static bool graph_plain(void *ctx, const struct uft_ftrace_rec *r)
{
	return ((const struct uft_common_entry *)r->data)->type == UFT_ID_KERNEL_STACK;
}

static struct uft_symbol sym_buf; /* under tfs_lock */

static void view_graph_flags(struct tfs_view *v, unsigned flags)
{
	v->graph = true;
	v->g = (struct uft_graph){
	    .flags = flags,
	    .nr_cpus = tfs_nr_cpus(),
	    .id_function = UFT_ID_FUNCTION,
	    .id_entry = UFT_ID_FUNCGRAPH_ENTRY,
	    .id_exit = UFT_ID_FUNCGRAPH_EXIT,
	    .sym = sym_lookup,
	    .sym_ctx = &sym_buf,
	    .comm = comm_of,
	    .comment = graph_comment,
	    .comment_ctx = v,
	    .plain = graph_plain,
	};
	v->graph_ready = uft_graph_init(&v->g) == 0;
}

static void view_graph(struct tfs_view *v)
{
	view_graph_flags(v, graph_flags(v->in));
}

void tfs_view_max_graph(struct tfs_view *v)
{
	/* The kernel's GRAPH_TRACER_FLAGS of the latency tracers, whatever the
	 * funcgraph-* options say. */
	unsigned flags = UFT_GRAPH_CPU | UFT_GRAPH_PROC | UFT_GRAPH_ABSTIME | UFT_GRAPH_DURATION |
			 UFT_GRAPH_LATENCY;
	if (!tfs_opt(v->in, "context-info"))
		flags |= UFT_GRAPH_NO_CONTEXT;
	view_graph_flags(v, flags);
}

void tfs_view_init(struct tfs_view *v, const struct tfs_inst *in, const char *tracer)
{
	memset(v, 0, sizeof(*v));
	v->in = in;
	snprintf(v->tracer, sizeof(v->tracer), "%s", tracer);
	if (strcmp(tracer, "function_graph") == 0)
		view_graph(v);
}

void tfs_view_note(struct tfs_view *v, const struct tfs_rec *r)
{
	if (strcmp(v->tracer, "nop") != 0 && strcmp(v->tracer, "function") != 0)
		return;
	const struct uft_common_entry *e = (const void *)r->data;
	if (r->len < sizeof(*e))
		return;
	if (e->type == UFT_ID_FUNCGRAPH_ENTRY || e->type == UFT_ID_FUNCGRAPH_EXIT) {
		snprintf(v->tracer, sizeof(v->tracer), "function_graph");
		view_graph(v);
	} else if (e->type == UFT_ID_FUNCTION) {
		snprintf(v->tracer, sizeof(v->tracer), "function");
	}
}

void tfs_view_free(struct tfs_view *v)
{
	if (v->graph_ready)
		uft_graph_free(&v->g);
	v->graph_ready = false;
}

/* ---- bodies ---- */

static void body_text(FILE *f, const struct tfs_inst *in, const struct tfs_rec *r)
{
	const struct uft_common_entry *e = (const void *)r->data;
	if (e->type == UFT_ID_FUNCTION &&
	    uft_ftrace_fn_body(f, r->data, r->len, fn_opts(in), sym_lookup, &sym_buf) == 0) {
		fputc('\n', f);
		return;
	}
	if (tfs_marker_render(f, r->data, r->len) || uft_wake_render(f, r->data, r->len) ||
	    uft_osn_render(f, r->data, r->len) ||
	    uft_stack_render(f, r->data, r->len, sym_lookup, &sym_buf) ||
	    uft_synth_render(f, r->data, r->len, pS) || uft_dprobe_render(f, r->data, r->len, pS) ||
	    uft_eprobe_render(f, r->data, r->len)) {
		fputc('\n', f);
		return;
	}
	const char *sys = NULL, *name = NULL;
	const struct uft_print_fmt *pf = uft_registry_print_fmt(e->type, &sys, &name);
	if (!name) {
		fprintf(f, "Unknown type %u\n", e->type);
		return;
	}
	fprintf(f, "%s: ", name);
	char buf[1024];
	int n = pf ? uft_print_fmt_render(pf, r->data, r->len, buf, sizeof(buf)) : -1;
	char *text = buf;
	if (n >= (int)sizeof(buf) && (text = malloc((size_t)n + 1)))
		uft_print_fmt_render(pf, r->data, r->len, text, (size_t)n + 1);
	if (n > 0 && text) {
		size_t len = (size_t)n;
		if (text[len - 1] == '\n') /* printf habit: still one line */
			len--;
		fwrite(text, 1, len, f);
	}
	if (text != buf)
		free(text);
	fputc('\n', f);
}

/* What an event without its own raw, hex or binary form prints in them. */
static void body_nop(FILE *f, const struct tfs_rec *r)
{
	const struct uft_common_entry *e = (const void *)r->data;
	fprintf(f, "type: %u\n", e->type);
}

static void body_raw(FILE *f, const struct tfs_rec *r)
{
	const struct uft_common_entry *e = (const void *)r->data;
	if (e->type == UFT_ID_FUNCTION && r->len >= sizeof(struct uft_rec_function)) {
		struct uft_rec_function fn;
		memcpy(&fn, r->data, sizeof(fn));
		fprintf(f, "%llx %llx\n", (unsigned long long)fn.ip,
			(unsigned long long)fn.parent_ip);
		return;
	}
	if (e->type == UFT_ID_PRINT && r->len >= 16) {
		uint64_t ip;
		memcpy(&ip, r->data + 8, 8);
		fprintf(f, "# %llx %.*s", (unsigned long long)ip, (int)(r->len - 16), r->data + 16);
		return;
	}
	if (e->type == UFT_ID_RAW_DATA) {
		tfs_marker_render(f, r->data, r->len);
		fputc('\n', f);
		return;
	}
	body_nop(f, r);
}

/* A value as the kernel's hex form writes it: most significant byte first,
 * then a space. */
static void put_hex(FILE *f, uint64_t v, unsigned bytes)
{
	fprintf(f, "%0*llx ", (int)bytes * 2, (unsigned long long)v);
}

void tfs_text_line(FILE *f, const struct tfs_inst *in, struct tfs_comms *cm,
		   const struct tfs_rec *r, uint64_t first_ts, uint64_t next_ts)
{
	const struct uft_common_entry *e = (const void *)r->data;
	if (r->len < sizeof(*e))
		return;
	bool ctx = tfs_opt(in, "context-info");
	if (tfs_opt(in, "bin")) {
		if (ctx) {
			int32_t pid = e->pid, cpu = (int32_t)r->cpu;
			fwrite(&pid, 4, 1, f);
			fwrite(&cpu, 4, 1, f);
			fwrite(&r->ts, 8, 1, f);
		}
		if (e->type == UFT_ID_FUNCTION && r->len >= sizeof(struct uft_rec_function))
			fwrite(r->data + 8, 16, 1, f); /* ip, parent_ip */
		else
			body_nop(f, r);
		return;
	}
	if (tfs_opt(in, "hex")) {
		if (ctx) {
			put_hex(f, (uint32_t)e->pid, 4);
			put_hex(f, r->cpu, 4);
			put_hex(f, r->ts, 8);
		}
		if (e->type == UFT_ID_FUNCTION && r->len >= sizeof(struct uft_rec_function)) {
			struct uft_rec_function fn;
			memcpy(&fn, r->data, sizeof(fn));
			put_hex(f, fn.ip, 8);
			put_hex(f, fn.parent_ip, 8);
		} else {
			body_nop(f, r);
		}
		fputc('\n', f);
		return;
	}
	if (tfs_opt(in, "raw")) {
		if (ctx)
			fprintf(f, "%d %u %llu ", e->pid, r->cpu, (unsigned long long)r->ts);
		body_raw(f, r);
		return;
	}
	if (ctx && tfs_opt(in, "latency-format") && tfs_opt(in, "verbose")) {
		uint64_t rel = r->ts - first_ts, delta = next_ts > r->ts ? next_ts - r->ts : 0;
		fprintf(f, "%16s %7d %3u %d %08x %08lx ", uft_out_comm(comm_of, cm, e->pid), e->pid,
			r->cpu, e->flags, e->preempt_count, (unsigned long)r->seq);
		fprintf(f, "[%08llx] %llu.%03llums (+%llu.%03llums): ", (unsigned long long)r->ts,
			(unsigned long long)(rel / 1000000),
			(unsigned long long)(rel / 1000 % 1000),
			(unsigned long long)(delta / 1000000),
			(unsigned long long)(delta / 1000 % 1000));
	} else if (ctx && tfs_opt(in, "latency-format")) {
		char fl[6];
		uft_out_flags(r->data, fl);
		fprintf(f, "%8.8s-%-7d %3u%s", uft_out_comm(comm_of, cm, e->pid), e->pid, r->cpu,
			fl);
		if (uft_clock_is_ns((enum uft_clock)uft_buffers[in->buffer].clock)) {
			uint64_t rel = r->ts - first_ts;
			char mark = next_ts > r->ts ? uft_out_mark(next_ts - r->ts) : ' ';
			fprintf(f, " %4lldus%c: ", (long long)(rel / 1000), mark);
		} else {
			fprintf(f, " %4lld: ", (long long)(r->ts - first_ts));
		}
	} else if (ctx) {
		uft_out_prefix_tgid(f, uft_out_comm(comm_of, cm, e->pid), e->pid,
				    tgid_of(cm, e->pid), (int)r->cpu, r->data, r->ts,
				    out_flags(in));
	}
	body_text(f, in, r);
}

int tfs_view_line(FILE *f, struct tfs_view *v, struct tfs_comms *cm, const struct tfs_rec *r,
		  const struct tfs_rec *next, uint64_t first_ts, uint64_t next_ts)
{
	if (v->graph && v->graph_ready) {
		struct uft_ftrace_rec fr = {(int)r->cpu, r->ts, r->data, r->len};
		struct uft_ftrace_rec fn;
		if (next)
			fn = (struct uft_ftrace_rec){(int)next->cpu, next->ts, next->data,
						     next->len};
		v->g.comm_ctx = cm;
		int rc = uft_graph_line(&v->g, f, &fr, next ? &fn : NULL);
		if (rc != UFT_GRAPH_PLAIN)
			return rc;
	}
	tfs_text_line(f, v->in, cm, r, first_ts, next_ts);
	return UFT_GRAPH_DONE;
}
