/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The function tracers' files (Documentation/trace/ftrace.rst): current_tracer's function and
 * function_graph, available_filter_functions, set_ftrace_filter,
 * set_ftrace_notrace, set_graph_function, set_graph_notrace, stack_trace_filter,
 * enabled_functions and touched_functions (the pid lists and max_graph_depth: tfs_ftrace_pid.c).
 * Each change recomputes what every site must do (ftrace.h masks) and patches the difference. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "engine/trigger/ftrace_filter.h"
#include "util/glob.h"
#include "wire/ring_reader.h"
#include "runtime/core/grace.h"
#include "runtime/core/interpose.h"
#include "runtime/ftrace/ftrace.h"
#include "runtime/ftrace/ftrace_probe.h"
#include "runtime/ftrace/ftrace_shadow.h"
#include "runtime/core/registry.h"
#include "runtime/core/runtime.h"
#include "runtime/core/stack_event.h"
#include "runtime/tracefs/tfs.h"
#include "runtime/core/trigger_run.h"
#include "runtime/latency/csect.h"
#include "runtime/latency/osn_tracer.h"
#include "util/atomics.h"
#include "util/util.h"

enum {
	TRACER_NOP,
	TRACER_FUNCTION,
	TRACER_GRAPH,
	TRACER_IRQSOFF,
	TRACER_PREEMPTOFF,
	TRACER_PIRQSOFF,
	TRACER_WAKEUP,
	TRACER_WAKEUP_RT,
	TRACER_TIMERLAT,
	TRACER_OSNOISE,
	TRACER_WAKEUP_DL
};
static const char *const tracer_names[] = {
    "nop",    "function",  "function_graph", "irqsoff", "preemptoff", "preemptirqsoff",
    "wakeup", "wakeup_rt", "timerlat",	     "osnoise", "wakeup_dl"};
#define NR_TRACERS (sizeof(tracer_names) / sizeof(tracer_names[0]))
/* The section tracers' kinds (runtime/latency/csect.h), by tracer. */
static const uint32_t csect_kinds[NR_TRACERS] = {
    [TRACER_IRQSOFF] = UFT_CSECT_SIGS,
    [TRACER_PREEMPTOFF] = UFT_CSECT_CRIT,
    [TRACER_PIRQSOFF] = UFT_CSECT_SIGS | UFT_CSECT_CRIT,
    [TRACER_WAKEUP] = UFT_CSECT_WAKE,
    [TRACER_WAKEUP_RT] = UFT_CSECT_WAKE | UFT_CSECT_WAKE_RT,
    [TRACER_WAKEUP_DL] = UFT_CSECT_WAKE | UFT_CSECT_WAKE_DL,
};

static uint8_t tracer[UFT_MAX_BUFFERS];

/* Per buffer: how many sites set_ftrace_filter holds (0: every function).
 * The membership itself is a bit per buffer in `filt` / `notr`. */
static uint32_t nr_filter[UFT_MAX_BUFFERS];
static uint32_t filt_bits_cap;
static uint32_t *filt, *notr; /* [flat site index], bit per buffer */
/* stack_trace_filter: its sites and how many (0: every function). */
static uint8_t *stk;
static uint32_t nr_stack;
/* The stack tracer and the function profiler are on. */
static bool stack_on, prof_on;

/* Function commands, per buffer: a list the hooks follow (only the counts
 * change), replaced whole and freed after a grace period. */
#define UNLIMITED UFT_FF_UNLIMITED

struct probe {
	const struct uft_ftrace_site *site;
	const char *mod; /* its library's name, NULL: the program */
	int cmd;
	long count;
	/* enable_event/disable_event: the event state it flips, and the
	 * event's names; NULL for the other commands. */
	struct uft_evstate *target;
	const char *tsys, *tev;
};
struct probes {
	uint32_t nr;
	struct probe p[];
};
static struct probes *probes[UFT_MAX_BUFFERS];

static void retarget(uint32_t b, const struct probes *before, const struct probes *now);

enum set_kind { SET_FILTER, SET_NOTRACE, SET_GRAPH, SET_GRAPH_NOTRACE, SET_STACK };

/* `FUNC:mod:LIB` for a library not loaded (or without such functions):
 * kept, listed as written, and applied when the library is loaded, as the
 * kernel keeps such a command for a module until it loads. */
struct pend {
	uint8_t kind; /* enum set_kind: SET_FILTER or SET_NOTRACE */
	uint32_t buffer;
	char func[128], mod[128];
};
struct pends {
	struct pend *v;
	uint32_t n, cap;
};
static struct pends pending_mods;

static void pends_drop(struct pends *ps, uint8_t k, uint32_t b)
{
	uint32_t w = 0;
	for (uint32_t r = 0; r < ps->n; r++)
		if (ps->v[r].buffer != b || ps->v[r].kind != k)
			ps->v[w++] = ps->v[r];
	ps->n = w;
}

static bool apply_pending(void);

/* ---- the flat list of sites (available_filter_functions order) ---- */

struct ref {
	struct uft_ftrace_site *s;
	const struct uft_ftrace_obj *o;
};

static struct ref *refs;
static uint32_t nr_refs;

/* Rescans the objects and rebuilds the flat list; the per-site filter bits
 * follow the sites (new objects come last, so old indexes keep their sites). */
static int refresh(void)
{
	int n = uft_ftrace_scan();
	if (n < 0)
		return n;
	uint32_t total = 0;
	for (uint32_t i = 0; i < uft_ftrace_nr_objs; i++)
		total += uft_ftrace_objs[i].nr;
	if (total > filt_bits_cap) {
		uint32_t *f = realloc(filt, total * sizeof(*f));
		if (!f)
			return -ENOMEM;
		filt = f;
		uint32_t *t = realloc(notr, total * sizeof(*t));
		if (!t)
			return -ENOMEM;
		notr = t;
		uint8_t *k = realloc(stk, total);
		if (!k)
			return -ENOMEM;
		stk = k;
		memset(stk + filt_bits_cap, 0, total - filt_bits_cap);
		memset(filt + filt_bits_cap, 0, (total - filt_bits_cap) * sizeof(*f));
		memset(notr + filt_bits_cap, 0, (total - filt_bits_cap) * sizeof(*t));
		filt_bits_cap = total;
	}
	struct ref *r = realloc(refs, (total ? total : 1) * sizeof(*r));
	if (!r)
		return -ENOMEM;
	refs = r;
	nr_refs = 0;
	for (uint32_t i = 0; i < uft_ftrace_nr_objs; i++)
		for (uint32_t k = 0; k < uft_ftrace_objs[i].nr; k++)
			refs[nr_refs++] =
			    (struct ref){&uft_ftrace_objs[i].sites[k], &uft_ftrace_objs[i]};
	return 0;
}

static bool usable(uint32_t i)
{
	return !refs[i].o->gone;
}

/* "name" or "name [module]", as %ps prints a module's symbol. */
static void put_name(FILE *out, uint32_t i)
{
	fputs(refs[i].s->name, out);
	if (refs[i].o->mod)
		fprintf(out, " [%s]", refs[i].o->mod);
}

/* ---- what each site does ---- */

static void publish_probes(uint32_t b, struct probes *p)
{
	struct probes *old = probes[b];
	smp_store_release(&probes[b], p);
	/* Hooks read it inside a grace section: freed once they all left. */
	uft_grace_defer(old, free);
}

/* Recomputes every site's masks from the tracers, the filters and the
 * commands, then patches the difference. */
static int update_sites_sync(bool sync, void (*stopped)(void *), void *ctx)
{
	uint32_t fnb = 0, grb = 0;
	for (uint32_t b = 0; b < UFT_MAX_BUFFERS; b++) {
		/* A section tracer with function-trace records the calls too
		 * (its max trace keeps those made inside the section). */
		bool sect_fn = (csect_kinds[tracer[b]] & UFT_CSECT_SECTIONS) && tfs_insts[b] &&
			       tfs_opt(tfs_insts[b], "function-trace");
		/* with display-graph, in the graph's form (entries and exits) */
		bool sect_gr = sect_fn && tfs_opt(tfs_insts[b], "display-graph");
		fnb |= (uint32_t)(tracer[b] == TRACER_FUNCTION || (sect_fn && !sect_gr)) << b;
		grb |= (uint32_t)(tracer[b] == TRACER_GRAPH || sect_gr) << b;
	}
	for (uint32_t i = 0; i < nr_refs; i++) {
		struct uft_ftrace_site *s = refs[i].s;
		uint32_t sel = 0, pr = 0;
		for (uint32_t b = 0; b < UFT_MAX_BUFFERS; b++) {
			bool in = (!nr_filter[b] || (filt[i] >> b & 1)) && !(notr[i] >> b & 1);
			sel |= (uint32_t)in << b;
			const struct probes *p = probes[b];
			for (uint32_t k = 0; p && k < p->nr && !(pr >> b & 1); k++)
				pr |= (uint32_t)(p->p[k].site == s) << b;
		}
		WRITE_ONCE(s->fn_mask, sel & fnb);
		WRITE_ONCE(s->graph_mask, sel & grb);
		WRITE_ONCE(s->probe, pr);
		/* The profiler follows the top's filters, as the kernel's
		 * follows the global ones; the stack tracer its own. */
		uint8_t want = 0;
		if (stack_on && (!nr_stack || stk[i]))
			want |= UFT_WANT_STACK;
		if (prof_on && (sel & 1)) {
			if (!s->prof) {
				struct uft_prof_cnt *c = calloc((size_t)tfs_nr_cpus(), sizeof(*c));
				if (c)
					smp_store_release(&s->prof, c);
			}
			want |= s->prof ? UFT_WANT_PROF : 0;
		}
		/* The dynamic probes' bit is theirs (ftrace_probe.c). */
		WRITE_ONCE(s->want, want | (s->want & (UFT_WANT_DPROBE | UFT_WANT_RPROBE)));
	}
	WRITE_ONCE(uft_ftrace_fn_buffers, fnb);
	WRITE_ONCE(uft_ftrace_graph_buffers, grb);
	return uft_ftrace_apply(sync, stopped, ctx);
}

static int update_sites(void)
{
	return update_sites_sync(false, NULL, NULL);
}

int tfs_ftrace_repatch(void)
{
	int rc = refresh();
	return rc ? rc : update_sites();
}

static void clear_for_new_tracer(void *ctx);

int tfs_ftrace_display_graph(struct tfs_inst *in, bool on)
{
	uint32_t b = in->buffer;
	if (!(csect_kinds[tracer[b]] & UFT_CSECT_SECTIONS))
		return 0;
	uft_csect_set_graph(b, on);
	int rc = refresh();
	/* The kernel's irqsoff_display_graph() resets the buffer: no exit
	 * is written there whose entry was a function record. */
	return rc ? rc : update_sites_sync(true, clear_for_new_tracer, &b);
}

static void clear_one_ring(void *ctx, struct uft_ring *r, uint32_t slot)
{
	uft_ring_clear(r);
}

/* While every thread is stopped outside the hooks: the buffer is emptied
 * and the graph tracer's run changes, so no exit is ever written there
 * whose entry the clear removed (the other buffers keep their calls). */
static void clear_for_new_tracer(void *ctx)
{
	uint32_t b = *(uint32_t *)ctx;
	tfs_for_each_ring(b, clear_one_ring, NULL);
	WRITE_ONCE(uft_ftrace_graph_since[b], uft_add_return(&uft_ftrace_graph_gen, 1));
}

/* ---- current_tracer, available_tracers ---- */

const char *tfs_tracer_name(const struct tfs_inst *in)
{
	return tracer_names[tracer[in->buffer]];
}

/* Functions the tracers could patch now: a program built without the
 * patchable entry (and no library with it) has none. */
static bool have_sites(void)
{
	return uft_ftrace_scan() > 0;
}

int tfs_show_available_tracers(const struct tfs_node *n, FILE *out)
{
	(void)n;
	/* Both function tracers run in instances too, as in the kernel (6.9+),
	 * and only where there is something to patch. */
	/* The section tracers measure with or without functions to patch. */
	/* timerlat and osnoise measure threads of their own: always there,
	 * first, as in the kernel's list. */
	fputs(have_sites()
		  ? "timerlat osnoise function_graph wakeup_dl wakeup_rt wakeup preemptirqsoff "
		    "preemptoff irqsoff function nop\n"
		  : "timerlat osnoise wakeup_dl wakeup_rt wakeup preemptirqsoff preemptoff irqsoff "
		    "nop\n",
	      out);
	return 0;
}

int tfs_set_tracer(struct tfs_inst *in, const char *name)
{
	int t = -1;
	for (int i = 0; i < (int)NR_TRACERS; i++)
		if (strcmp(name, tracer_names[i]) == 0)
			t = i;
	bool osn = t == TRACER_TIMERLAT || t == TRACER_OSNOISE;
	if (t < 0 || (t != TRACER_NOP && !csect_kinds[t] && !osn && !have_sites()))
		return -EINVAL; /* not among available_tracers */
	if (t == TRACER_GRAPH && prof_on)
		return -EBUSY; /* one user of the return hooks, as in 6.1 */
	uint32_t b = in->buffer;
	if (tracer[b] == t)
		return 0;
	int rc = refresh();
	if (rc)
		return rc;
	if (t != TRACER_NOP && uft_session_start() != 0)
		return -ENOMEM; /* the hooks write into the session's rings */
	uint8_t old = tracer[b];
	/* One buffer runs a section tracer at a time, as in the kernel. */
	if (csect_kinds[t] && uft_csect_set(b, csect_kinds[t]) != 0)
		return -EBUSY;
	if (csect_kinds[t] & UFT_CSECT_SECTIONS)
		uft_csect_set_graph(b, tfs_opt(in, "display-graph"));
	/* timerlat and osnoise are not run at once, as in the kernel (several
	 * buffers may run the same one); their threads start once the buffer
	 * is cleared for them. */
	int osn_kind = t == TRACER_TIMERLAT  ? UFT_OSN_TIMERLAT
		       : t == TRACER_OSNOISE ? UFT_OSN_OSNOISE
					     : 0;
	if (osn_kind || old == TRACER_TIMERLAT || old == TRACER_OSNOISE) {
		rc = uft_osn_set(b, UFT_OSN_NONE);
		if (rc == 0 && osn_kind)
			rc = uft_osn_claim(b, osn_kind);
		if (rc) {
			if (csect_kinds[t])
				uft_csect_set(b, csect_kinds[old]);
			return rc;
		}
	}
	if (!csect_kinds[t] && csect_kinds[old])
		uft_csect_set(b, 0);
	tracer[b] = (uint8_t)t;
	/* The buffer starts empty for the new tracer: cleared while no hook
	 * runs. Readers of trace_pipe keep what they had already taken. */
	rc = update_sites_sync(true, clear_for_new_tracer, &b);
	if (!rc && osn_kind)
		rc = uft_osn_set(b, osn_kind);
	if (rc) {
		if (osn_kind)
			uft_osn_set(b, UFT_OSN_NONE);
		tracer[b] = old;
		uft_csect_set(b, csect_kinds[old]);
		update_sites();
		return rc;
	}
	return 0;
}

void tfs_ftrace_instance_gone(struct tfs_inst *in)
{
	uint32_t b = in->buffer;
	if (csect_kinds[tracer[b]])
		uft_csect_set(b, 0);
	if (tracer[b] == TRACER_TIMERLAT || tracer[b] == TRACER_OSNOISE)
		uft_osn_set(b, 0);
	tracer[b] = TRACER_NOP;
	nr_filter[b] = 0;
	pends_drop(&pending_mods, SET_FILTER, b);
	pends_drop(&pending_mods, SET_NOTRACE, b);
	for (uint32_t i = 0; i < filt_bits_cap; i++) {
		filt[i] &= ~(1u << b);
		notr[i] &= ~(1u << b);
	}
	retarget(b, probes[b], NULL);
	publish_probes(b, NULL);
	tfs_ftrace_pids_reset(b);
	uft_and_relaxed(&uft_ftrace_fn_stack, ~(1u << b));
	if (refresh() == 0)
		update_sites();
}

/* ---- libraries loaded while a tracer runs ---- */

/* libuft stands in front of dlopen() so that a library loaded while a tracer
 * or a command is active is patched as it arrives, as the kernel patches a
 * module at load. A dlopen() made while the tree is busy (by the tree
 * itself, or racing a write) leaves it to the next write. */
void *dlopen(const char *file, int mode)
{
	static void *(*real)(const char *, int);
	if (!real)
		real = (void *(*)(const char *, int))dlsym(RTLD_NEXT, "dlopen");
	void *h = real ? real(file, mode) : NULL;
	bool active = READ_ONCE(uft_ftrace_fn_buffers) || READ_ONCE(uft_ftrace_graph_buffers) ||
		      READ_ONCE(pending_mods.n) || READ_ONCE(uft_ftrace_stack_on) ||
		      READ_ONCE(uft_ftrace_prof_on);
	for (uint32_t b = 0; !active && b < UFT_MAX_BUFFERS; b++)
		active = READ_ONCE(probes[b]) != NULL;
	bool dprobes = READ_ONCE(uft_dprobe_libs);
	if (h && (active || dprobes) && pthread_mutex_trylock(&tfs_lock) == 0) {
		if (refresh() == 0) {
			apply_pending();
			update_sites();
			if (dprobes)
				uft_dprobe_rescan();
		}
		tfs_unlock();
	}
	return h;
}

/* A library unloaded: the dynamic probes in it wait for it again. */
int dlclose(void *h)
{
	static int (*real)(void *);
	if (!real)
		real = (int (*)(void *))dlsym(RTLD_NEXT, "dlclose");
	int rc = real ? real(h) : -1;
	if (rc == 0 && READ_ONCE(uft_dprobe_libs) && pthread_mutex_trylock(&tfs_lock) == 0) {
		if (refresh() == 0)
			uft_dprobe_rescan();
		tfs_unlock();
	}
	return rc;
}

/* ---- available_filter_functions ---- */

static int show_available(const struct tfs_node *n, FILE *out)
{
	int rc = refresh();
	if (rc)
		return rc;
	for (uint32_t i = 0; i < nr_refs; i++) {
		if (!usable(i))
			continue;
		put_name(out, i);
		fputc('\n', out);
	}
	return 0;
}

/* ---- set_ftrace_filter and friends: the selection language ---- */

/* Membership of site i in a set of buffer b. */
static bool member(enum set_kind k, uint32_t b, uint32_t i)
{
	switch (k) {
	case SET_FILTER:
		return filt[i] >> b & 1;
	case SET_NOTRACE:
		return notr[i] >> b & 1;
	case SET_GRAPH:
		return refs[i].s->graph_start;
	case SET_STACK:
		return stk[i];
	default:
		return refs[i].s->graph_skip;
	}
}

static bool glob_ok(const char *pat, const char *s)
{
	return uft_glob_match(pat, strlen(pat), s, strlen(s));
}

/* Whether site i matches `func` (a glob or the line number of
 * available_filter_functions) and, if mod is set, the module glob (a
 * leading '!' negates it). */
static bool matches(uint32_t i, const char *func, const char *mod, unsigned long line)
{
	if (!usable(i))
		return false;
	if (line)
		return line == i + 1;
	if (!glob_ok(func, refs[i].s->name))
		return false;
	if (!mod)
		return true;
	bool neg = mod[0] == '!';
	const char *m = refs[i].o->mod;
	bool hit = m && glob_ok(mod + neg, m);
	return neg ? !hit : hit;
}

/* Whether probe x is the command token t names at site s: same function
 * and command and, for enable_event/disable_event, the same event by name
 * (its state may be an older one: the event's library was closed). */
static bool same_cmd(const struct probe *x, const struct uft_ftrace_site *s,
		     const struct uft_ff_token *t)
{
	return x->site == s && x->cmd == t->cmd &&
	       (!t->sys || (strcmp(x->tsys, t->sys) == 0 && strcmp(x->tev, t->event) == 0));
}

/* One `glob:command[:count]` token (set_ftrace_filter only). `pending` is
 * the buffer's new command list, built before anything is published. */
static int command_token(struct tfs_inst *in, const struct uft_ff_token *t, struct probes **pending)
{
	const char *func = t->func;
	bool remove = t->remove;
	int c = t->cmd;
	long count = t->count;
	struct probes *p = *pending;
	uint32_t hits = 0;
	struct uft_evstate *target = NULL;
	const char *tsys = NULL, *tev = NULL;
	if (t->sys && !remove &&
	    !(target = uft_registry_event_state(in->buffer, t->sys, t->event, &tsys, &tev)))
		return -EINVAL; /* no such event */
	if (remove) {
		/* As the kernel's: no command of that kind here is ENODEV, none
		 * on the functions named is EINVAL. */
		bool any = false;
		for (uint32_t k = 0; p && k < p->nr && !any; k++)
			any = p->p[k].cmd == c;
		if (!any)
			return -ENODEV;
	}
	for (uint32_t i = 0; i < nr_refs; i++) {
		if (!matches(i, func, NULL, 0))
			continue;
		if (remove) {
			for (uint32_t k = 0; p && k < p->nr;) {
				if (!same_cmd(&p->p[k], refs[i].s, t)) {
					k++;
					continue;
				}
				p->p[k] = p->p[p->nr - 1];
				p->nr--;
				hits++;
			}
			continue;
		}
		hits++;
		uint32_t at = p ? p->nr : 0;
		for (uint32_t k = 0; p && k < p->nr; k++)
			if (same_cmd(&p->p[k], refs[i].s, t))
				at = k;
		if (!p || at == p->nr) {
			uint32_t nr = p ? p->nr : 0;
			struct probes *q = realloc(p, sizeof(*q) + (nr + 1) * sizeof(q->p[0]));
			if (!q)
				return -ENOMEM;
			if (!p)
				q->nr = 0;
			p = q;
			*pending = p;
		}
		p->p[at].site = refs[i].s;
		p->p[at].mod = refs[i].o->mod;
		p->p[at].cmd = c;
		uft_store_seq_cst(&p->p[at].count, count);
		p->p[at].target = target;
		p->p[at].tsys = tsys;
		p->p[at].tev = tev;
		if (at == p->nr)
			p->nr++;
	}
	if (!hits)
		return -EINVAL;
	if (!remove && c == UFT_FF_SNAPSHOT && tfs_snapshot_alloc(in) != 0)
		return -ENOMEM;
	if (!remove && c == UFT_FF_STACKTRACE)
		uft_stack_prepare();
	if (!remove && (c == UFT_FF_DUMP || c == UFT_FF_CPUDUMP))
		tfs_triggers_start_thread(); /* prints what the hook asks for */
	if (!remove && uft_session_start() != 0)
		return -ENOMEM;
	return 0;
}

struct set_file {
	enum set_kind kind;
};

static enum set_kind kind_of(const struct tfs_node *n)
{
	const char *name = n->file->name;
	if (strcmp(name, "set_ftrace_filter") == 0)
		return SET_FILTER;
	if (strcmp(name, "set_ftrace_notrace") == 0)
		return SET_NOTRACE;
	if (strcmp(name, "set_graph_function") == 0)
		return SET_GRAPH;
	if (strcmp(name, "stack_trace_filter") == 0)
		return SET_STACK;
	return SET_GRAPH_NOTRACE;
}

/* Stores a new membership of a set (one byte per flat site). */
static void store_set(enum set_kind k, uint32_t b, const uint8_t *sel)
{
	uint32_t n = 0;
	for (uint32_t i = 0; i < nr_refs; i++) {
		n += sel[i];
		switch (k) {
		case SET_FILTER:
			filt[i] = (filt[i] & ~(1u << b)) | ((uint32_t)sel[i] << b);
			break;
		case SET_NOTRACE:
			notr[i] = (notr[i] & ~(1u << b)) | ((uint32_t)sel[i] << b);
			break;
		case SET_GRAPH:
			refs[i].s->graph_start = sel[i];
			break;
		case SET_STACK:
			stk[i] = sel[i];
			break;
		default:
			refs[i].s->graph_skip = sel[i];
		}
	}
	if (k == SET_FILTER)
		nr_filter[b] = n;
	if (k == SET_GRAPH)
		WRITE_ONCE(uft_ftrace_graph_starts, n);
	if (k == SET_STACK)
		nr_stack = n;
}

static struct probes *copy_probes(uint32_t b, int *err)
{
	const struct probes *p = probes[b];
	if (!p || !p->nr)
		return NULL;
	struct probes *q = malloc(sizeof(*q) + p->nr * sizeof(q->p[0]));
	if (!q) {
		*err = -ENOMEM;
		return NULL;
	}
	q->nr = p->nr;
	for (uint32_t k = 0; k < p->nr; k++) {
		q->p[k].site = p->p[k].site;
		q->p[k].mod = p->p[k].mod;
		q->p[k].cmd = p->p[k].cmd;
		uft_store_seq_cst(&q->p[k].count, uft_load_seq_cst(&p->p[k].count));
		q->p[k].target = p->p[k].target;
		q->p[k].tsys = p->p[k].tsys;
		q->p[k].tev = p->p[k].tev;
	}
	return q;
}

static bool has_probe(const struct probes *p, const struct probe *x)
{
	for (uint32_t k = 0; p && k < p->nr; k++)
		if (p->p[k].site == x->site && p->p[k].cmd == x->cmd && p->p[k].target == x->target)
			return true;
	return false;
}

/* enable_event/disable_event put their target in soft mode while they
 * exist: references for those `now` adds, released for those it drops. */
static void retarget(uint32_t b, const struct probes *before, const struct probes *now)
{
	for (uint32_t k = 0; now && k < now->nr; k++)
		if (now->p[k].target && !has_probe(before, &now->p[k]))
			uft_registry_soft_ref(b, now->p[k].target, true);
	for (uint32_t k = 0; before && k < before->nr; k++)
		if (before->p[k].target && !has_probe(now, &before->p[k]))
			uft_registry_soft_ref(b, before->p[k].target, false);
}

/* A `FUNC:mod:LIB` token that named no loaded function, on the write's
 * copy of the pending list: kept, or with '!' its pending entries dropped. */
static int pend_token(struct pends *ps, enum set_kind k, uint32_t b, const struct uft_ff_token *t)
{
	const char *func = strcmp(t->func, "*") ? t->func : NULL;
	if ((k != SET_FILTER && k != SET_NOTRACE) || t->mod[0] == '!' || t->line)
		return -EINVAL;
	if (strlen(t->func) >= sizeof(ps->v[0].func) || strlen(t->mod) >= sizeof(ps->v[0].mod))
		return -EINVAL;
	uint32_t w = 0;
	bool have = false;
	for (uint32_t r = 0; r < ps->n; r++) {
		const struct pend *e = &ps->v[r];
		bool same = e->kind == k && e->buffer == b && !strcmp(e->mod, t->mod) &&
			    (!strcmp(e->func, t->func) || (t->remove && !func));
		have |= same;
		if (!(same && t->remove))
			ps->v[w++] = *e;
	}
	ps->n = w;
	if (t->remove || have)
		return 0;
	if (uft_array_reserve(ps->v, ps->cap, ps->n + 1, 4))
		return -ENOMEM;
	struct pend *e = &ps->v[ps->n++];
	memset(e, 0, sizeof(*e));
	e->kind = (uint8_t)k;
	e->buffer = b;
	strcpy(e->func, t->func);
	strcpy(e->mod, t->mod);
	return 0;
}

/* Applies the pending entries whose library now has matching functions
 * (they are then dropped); whether any set changed. */
static bool apply_pending(void)
{
	bool changed = false;
	uint32_t w = 0;
	for (uint32_t r = 0; r < pending_mods.n; r++) {
		const struct pend e = pending_mods.v[r];
		uint8_t *sel = malloc(nr_refs ? nr_refs : 1);
		uint32_t hits = 0;
		for (uint32_t i = 0; sel && i < nr_refs; i++) {
			sel[i] = member((enum set_kind)e.kind, e.buffer, i);
			if (matches(i, e.func, e.mod, 0)) {
				sel[i] = 1;
				hits++;
			}
		}
		if (sel && hits) {
			store_set((enum set_kind)e.kind, e.buffer, sel);
			changed = true;
		} else {
			pending_mods.v[w++] = e;
		}
		free(sel);
	}
	pending_mods.n = w;
	return changed;
}

/* One write: every token applies to a copy; all of it or nothing is kept. */
static int write_set(const struct tfs_node *n, char *buf, size_t len, unsigned of)
{
	enum set_kind k = kind_of(n);
	uint32_t b = n->inst->buffer;
	int rc = refresh();
	if (rc)
		return rc;
	if (apply_pending() && (rc = update_sites()))
		return rc;
	struct pends work = {NULL, 0, 0};
	if (pending_mods.n) {
		if (uft_array_reserve(work.v, work.cap, pending_mods.n, 4))
			return -ENOMEM;
		memcpy(work.v, pending_mods.v, pending_mods.n * sizeof(*work.v));
		work.n = pending_mods.n;
	}
	uint8_t *sel = malloc(nr_refs ? nr_refs : 1);
	if (!sel) {
		free(work.v);
		return -ENOMEM;
	}
	for (uint32_t i = 0; i < nr_refs; i++)
		sel[i] = member(k, b, i);
	struct probes *pending = NULL;
	bool cmds = false;
	char *save = NULL;
	for (char *tok = strtok_r(buf, " \t\n\r\f\v", &save); tok && !rc;
	     tok = strtok_r(NULL, " \t\n\r\f\v", &save)) {
		struct uft_ff_token t;
		rc = uft_ff_parse_token(tok, &t);
		if (rc)
			break;
		if (t.cmd != UFT_FF_SELECT) {
			if (k != SET_FILTER) {
				rc = -EINVAL;
				break;
			}
			if (!cmds) {
				pending = copy_probes(b, &rc);
				cmds = true;
				if (rc)
					break;
			}
			rc = command_token(n->inst, &t, &pending);
			continue;
		}
		if (t.line > nr_refs) {
			rc = -EINVAL;
			break;
		}
		uint32_t hits = 0;
		for (uint32_t i = 0; i < nr_refs; i++) {
			if (!matches(i, t.func, t.mod, t.line))
				continue;
			hits++;
			sel[i] = !t.remove;
		}
		if (!hits)
			rc = t.mod ? pend_token(&work, k, b, &t) : -EINVAL;
	}
	if (!rc) {
		struct pends old = pending_mods;
		pending_mods = work;
		work = old;
		store_set(k, b, sel);
		if (cmds) {
			retarget(b, probes[b], pending);
			publish_probes(b, pending);
		}
		rc = update_sites();
	} else {
		free(pending);
	}
	free(work.v);
	free(sel);
	return rc;
}

/* `>` empties the set at open, as the kernel's does (commands stay). */
static int open_set(struct uft_tfs_handle *h)
{
	if (!(h->flags & UFT_TFS_WRITE) || !(h->flags & UFT_TFS_TRUNC) ||
	    (h->flags & UFT_TFS_APPEND))
		return 0;
	int rc = refresh();
	if (rc)
		return rc;
	uint8_t *none = calloc(nr_refs ? nr_refs : 1, 1);
	if (!none)
		return -ENOMEM;
	store_set(kind_of(&h->n), h->n.inst->buffer, none);
	pends_drop(&pending_mods, kind_of(&h->n), h->n.inst->buffer);
	free(none);
	return update_sites();
}

static int show_set(const struct tfs_node *n, FILE *out)
{
	enum set_kind k = kind_of(n);
	uint32_t b = n->inst->buffer;
	int rc = refresh();
	if (rc)
		return rc;
	if (apply_pending() && (rc = update_sites()))
		return rc;
	uint32_t shown = 0;
	for (uint32_t i = 0; i < nr_refs; i++) {
		if (!member(k, b, i) || !usable(i))
			continue;
		put_name(out, i);
		fputc('\n', out);
		shown++;
	}
	if (!shown)
		fputs(k == SET_FILTER || k == SET_GRAPH || k == SET_STACK
			  ? "#### all functions enabled ####\n"
			  : "#### no functions disabled ####\n",
		      out);
	for (uint32_t j = 0; j < pending_mods.n; j++)
		if (pending_mods.v[j].kind == k && pending_mods.v[j].buffer == b)
			fprintf(out, "%s:mod:%s\n", pending_mods.v[j].func, pending_mods.v[j].mod);
	const struct probes *p = k == SET_FILTER ? probes[b] : NULL;
	for (uint32_t j = 0; p && j < p->nr; j++) {
		long c = uft_load_seq_cst(&p->p[j].count);
		/* %ps of the function, as the kernel prints it: with its module. */
		fputs(p->p[j].site->name, out);
		if (p->p[j].mod)
			fprintf(out, " [%s]", p->p[j].mod);
		fprintf(out, ":%s", uft_ff_cmd_name(p->p[j].cmd));
		if (p->p[j].target)
			fprintf(out, ":%s:%s", p->p[j].tsys, p->p[j].tev);
		if (c == UNLIMITED)
			fputs(":unlimited\n", out);
		else
			fprintf(out, ":count=%ld\n", c);
	}
	return 0;
}

/* ---- function commands at run time (any thread, signal handlers too) ---- */

static bool take_count(struct probe *p)
{
	long c = READ_ONCE(p->count);
	for (;;) {
		if (c == UNLIMITED)
			return true;
		if (c <= 0)
			return false;
		if (uft_try_cmpxchg_relaxed(&p->count, &c, c - 1))
			return true;
	}
}

void uft_ftrace_probe_hit(const struct uft_ftrace_site *s, uint32_t buffers, void *ra)
{
	for (; buffers; buffers &= buffers - 1) {
		uint32_t b = (uint32_t)__builtin_ctz(buffers);
		struct probes *p = smp_load_acquire(&probes[b]);
		for (uint32_t k = 0; p && k < p->nr; k++) {
			struct probe *pr = &p->p[k];
			if (pr->site != s)
				continue;
			bool on = READ_ONCE(uft_buffers[b].on);
			switch (pr->cmd) {
			case UFT_FF_TRACEON:
			case UFT_FF_TRACEOFF:
				/* Counted only when it changes the state, as the kernel's. */
				if (on == (pr->cmd == UFT_FF_TRACEON) || !take_count(pr))
					break;
				uft_trig_set_tracing(b, pr->cmd == UFT_FF_TRACEON);
				break;
			case UFT_FF_SNAPSHOT:
				if (take_count(pr))
					uft_trig_request_snapshot(b);
				break;
			case UFT_FF_STACKTRACE:
				if (take_count(pr))
					uft_stack_record(b, ra); /* from the traced function up */
				break;
			case UFT_FF_DUMP:
			case UFT_FF_CPUDUMP:
				if (take_count(pr))
					uft_trig_request_dump(
					    b, pr->cmd == UFT_FF_DUMP ? -1 : (int)uft_writer_cpu());
				break;
			case UFT_FF_ENABLE_EVENT:
			case UFT_FF_DISABLE_EVENT: {
				/* Counted only when it changes the state, as the kernel's. */
				bool enable = pr->cmd == UFT_FF_ENABLE_EVENT;
				uint32_t sd = READ_ONCE(pr->target->soft_disabled);
				if (enable == !sd || !take_count(pr))
					break;
				WRITE_ONCE(pr->target->soft_disabled, !enable);
				break;
			}
			}
		}
	}
}

/* ---- the stack tracer and the function profiler ---- */

bool tfs_ftrace_stack_enabled(void)
{
	return stack_on;
}

int tfs_ftrace_stack_enable(bool on)
{
	if (on == stack_on)
		return 0;
	int rc = refresh();
	if (rc)
		return rc;
	if (on)
		uft_stack_prepare(); /* the unwinder loaded before a hook needs it */
	stack_on = on;
	WRITE_ONCE(uft_ftrace_stack_on, on);
	rc = update_sites();
	if (rc) {
		stack_on = !on;
		WRITE_ONCE(uft_ftrace_stack_on, !on);
		update_sites();
	}
	return rc;
}

bool tfs_ftrace_profile_enabled(void)
{
	return prof_on;
}

/* While every thread is stopped: the counts start again from zero. */
static void zero_counts(void *ctx)
{
	size_t n = (size_t)tfs_nr_cpus();
	for (uint32_t i = 0; i < nr_refs; i++)
		if (refs[i].s->prof)
			memset(refs[i].s->prof, 0, n * sizeof(*refs[i].s->prof));
}

int tfs_ftrace_profile_enable(bool on, bool graph_time)
{
	if (on == prof_on)
		return 0;
	for (uint32_t b = 0; on && b < UFT_MAX_BUFFERS; b++)
		if (tracer[b] == TRACER_GRAPH)
			return -EBUSY; /* one user of the return hooks, as in 6.1 */
	int rc = refresh();
	if (rc)
		return rc;
	prof_on = on;
	WRITE_ONCE(uft_ftrace_prof_cpus, (uint32_t)tfs_nr_cpus());
	WRITE_ONCE(uft_ftrace_prof_graph_time, graph_time);
	WRITE_ONCE(uft_ftrace_prof_on, on);
	rc = update_sites_sync(on, on ? zero_counts : NULL, NULL);
	if (rc) {
		prof_on = !on;
		WRITE_ONCE(uft_ftrace_prof_on, !on);
		update_sites();
	}
	return rc;
}

/* ---- enabled_functions ---- */

/* enabled_functions: the functions patched now; touched_functions: those
 * ever patched, in the same form. */
static int show_enabled(const struct tfs_node *n, FILE *out)
{
	int rc = refresh();
	if (rc)
		return rc;
	bool ever = strcmp(n->file->name, "touched_functions") == 0;
	for (uint32_t i = 0; i < nr_refs; i++) {
		const struct uft_ftrace_site *s = refs[i].s;
		if (!usable(i) || !(ever ? s->touched : s->patched))
			continue;
		/* One user per buffer tracing it, one for its commands, one each for
		 * the stack tracer and the profiler. */
		int users = __builtin_popcount(s->fn_mask | s->graph_mask) + (s->probe != 0) +
			    __builtin_popcount(s->want);
		put_name(out, i);
		fprintf(out, " (%d)      \n", users);
	}
	return 0;
}

const struct tfs_file tfs_ftrace_files[] = {
    {.name = "available_filter_functions",
     .dir = TFS_D_ROOT,
     .mode = 0444,
     .where = TFS_TOP_ONLY,
     .show = show_available},
    {.name = "enabled_functions",
     .dir = TFS_D_ROOT,
     .mode = 0444,
     .where = TFS_TOP_ONLY,
     .show = show_enabled},
    {.name = "touched_functions",
     .dir = TFS_D_ROOT,
     .mode = 0444,
     .where = TFS_TOP_ONLY,
     .show = show_enabled},
    {.name = "set_ftrace_filter",
     .dir = TFS_D_ROOT,
     .mode = 0644,
     .show = show_set,
     .write = write_set,
     .open = open_set},
    {.name = "set_ftrace_notrace",
     .dir = TFS_D_ROOT,
     .mode = 0644,
     .show = show_set,
     .write = write_set,
     .open = open_set},
    {.name = "set_graph_function",
     .dir = TFS_D_ROOT,
     .mode = 0644,
     .where = TFS_TOP_ONLY,
     .show = show_set,
     .write = write_set,
     .open = open_set},
    {.name = "set_graph_notrace",
     .dir = TFS_D_ROOT,
     .mode = 0644,
     .where = TFS_TOP_ONLY,
     .show = show_set,
     .write = write_set,
     .open = open_set},
    {.name = "stack_trace_filter",
     .dir = TFS_D_ROOT,
     .mode = 0644,
     .where = TFS_TOP_ONLY,
     .show = show_set,
     .write = write_set,
     .open = open_set},
    {0},
};
