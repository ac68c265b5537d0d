/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `-p process`: the engine's thread and what the recorder does with each of
 * its events (design/process-tracer.md, "In uft record and uft stream").
 *
 * ptrace ties every tracee to the thread that seized it, so launch, attach
 * and the wait loop all run in one thread of their own, while the main
 * thread goes on serving the processes that load libuft. The collector is
 * shared under a lock, taken by the tracer for each event and by the main
 * thread around its drains (never across socket I/O: a tracee may be
 * stopped in a syscall until the tracer gets the lock). SIGINT and SIGTERM
 * are delivered to the tracer thread, so that its wait is interrupted. */
#define _GNU_SOURCE
#include "cmd/record_process.h"

#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cmd/record_run.h"
#include "engine/filter/event_spec.h"
#include "engine/filter/filter.h"
#include "engine/format/format_parse.h"
#include "proctrace/kernel_backend.h"
#include "proctrace/proctrace.h"
#include "proctrace/pt_clock.h"
#include "recorder/collect_local.h"
#include "recorder/mono_tsc.h"
#include "util/atomics.h"
#include "util/util.h"

struct proc_tracer {
	const struct record_opts *o;
	struct collect *c;
	struct collect_local l;
	struct pt_options po;
	struct pt_session *s;
	pthread_t th;
	pthread_mutex_t lock;
	sem_t started;
	bool start_ok;
	char err[1024];
	int done;
	int status;
	bool running;
	pid_t pid;
	/* Per local id: selected by -e, and the -f filters of the specs that
	 * select it (a record is kept when one passes; none: every record). */
	bool *wanted;
	struct uft_filter ***filters;
	uint8_t *nr_filters;
	bool *unfiltered; /* a selecting spec without -f */
	/* The engine's times are CLOCK_MONOTONIC where the rings' TSC is
	 * calibrated against it (no perf page): put on the TSC itself. Until
	 * the first ring read gives the conversion, the records wait here (at
	 * most HOLD_MAX of them; without a program's rings they go as they
	 * are). */
	struct mono_tsc clk;
	char *fmt; /* a format text being registered */
	struct held *held;
	size_t nr_held, cap_held;
};

struct held {
	uint32_t cpu, len;
	uint64_t ts;
	uint8_t *rec;
};
#define HOLD_MAX 16384

static struct pt_session *volatile session; /* for the signal handler */
static uint64_t kept;			    /* the last run's, for the summary */

uint64_t proc_tracer_kept(void)
{
	return kept;
}

int proc_take_opt(struct record_opts *o, int opt, char *arg)
{
	struct proc_opts *p = &o->popts;
	switch (opt) {
	case PROC_OPT_NO_LIFECYCLE:
		p->no |= PT_LIFECYCLE;
		return CLI_OK;
	case PROC_OPT_NO_SYSCALLS:
		p->no |= PT_SYSCALLS;
		return CLI_OK;
	case PROC_OPT_NO_SIGNALS:
		p->no |= PT_SIGNALS;
		return CLI_OK;
	case PROC_OPT_UID:
		p->uid_glob = arg;
		return CLI_OK;
	case PROC_OPT_COMM:
		p->comm_glob = arg;
		return CLI_OK;
	case PROC_OPT_SYSCALLS: {
		struct pt_sysset set;
		char bad[64];
		if (pt_sysset_parse(arg, &set, bad, sizeof(bad)) != 0)
			return cli_error(o->cli, "--syscalls: unknown syscall or class '%s'", bad);
		p->syscalls = arg;
		return CLI_OK;
	}
	case PROC_OPT_BACKEND:
		if (strcmp(arg, "ptrace") == 0)
			p->backend = PT_BACKEND_PTRACE;
		else if (strcmp(arg, "kernel") == 0)
			p->backend = PT_BACKEND_KERNEL;
		else
			return cli_error(o->cli, "--backend: '%s' is not ptrace or kernel", arg);
		return CLI_OK;
	case 'P':
	case PROC_OPT_FOLLOW:
		if (!cli_long(arg, 10, 0, INT32_MAX, &p->pid))
			return cli_error(o->cli, "bad pid '%s'", arg);
		p->follow = true;
		return CLI_OK;
	}
	return 1;
}

static int has_format(void *ctx, unsigned id, const char *system, const char *text, size_t len)
{
	const char *spec = ctx;
	(void)id;
	const char *nl = memchr(text, '\n', len);
	if (len < 6 || !nl)
		return 0;
	char name[128];
	snprintf(name, sizeof(name), "%.*s", (int)(nl - text - 6), text + 6);
	return uft_event_spec_matches(spec, system, name);
}

static const struct pt_options every = {.categories = PT_ALL, .all_syscalls = true};

bool proc_spec_matches(const char *spec)
{
	if (spec[0] == '!')
		spec++;
	return pt_for_each_format(&every, has_format, (void *)spec) == 1;
}

int proc_check_opts(struct record_opts *o, bool has_cmd)
{
	struct proc_opts *p = &o->popts;
	const char *name = o->cli->name;
	bool any = p->no || p->syscalls || p->uid_glob || p->comm_glob || p->follow || p->backend;
	if (!p->on) {
		if (any) {
			fprintf(stderr,
				"%s: -P, --follow, --syscalls, --uid, --comm, --backend and --no-* "
				"need -p process\n",
				name);
			return CLI_USAGE;
		}
		return CLI_OK;
	}
	if (p->follow && p->pid == 0 && p->backend == PT_BACKEND_AUTO) {
		/* every process: the kernel's events stop none of them, where
		 * ptrace would stop each at every call (design page, "Choosing a
		 * backend for --follow 0") */
		p->backend = pt_kernel_usable(NULL, 0) ? PT_BACKEND_KERNEL : PT_BACKEND_PTRACE;
	}
	if (p->follow == has_cmd) {
		fprintf(stderr, "%s: -p process needs either a command or -P PID (not both)\n",
			name);
		return CLI_USAGE;
	}
	if (p->backend == PT_BACKEND_KERNEL) {
		char why[256];
		if (!pt_kernel_usable(why, sizeof(why))) {
			fprintf(stderr, "%s: --backend kernel: %s\n", name, why);
			return CLI_USAGE;
		}
	}
	if ((p->no & PT_ALL) == PT_ALL) {
		fprintf(stderr,
			"%s: --no-lifecycle, --no-syscalls and --no-signals together "
			"leave nothing to trace\n",
			name);
		return CLI_USAGE;
	}
	if (o->clock && strcmp(o->clock, "local") != 0) {
		fprintf(stderr,
			"%s: -p process stamps its events with the local clock: -C %s "
			"cannot be used with it\n",
			name, o->clock);
		return CLI_USAGE;
	}
	/* The -e specs that name no process event are libuft's. */
	size_t len = 1;
	for (int i = 0; i < o->nr_events; i++)
		len += strlen(o->events[i]) + 1;
	p->libuft_events = calloc(1, len);
	if (!p->libuft_events)
		return CLI_USAGE;
	for (int i = 0; i < o->nr_events; i++) {
		const char *e = o->events[i];
		if (o->kernel[i] || (proc_spec_matches(e) && strcmp(e, "all") != 0 && e[0] != '!'))
			continue;
		if (e[0] != '!')
			p->libuft_wanted = true;
		if (*p->libuft_events)
			strcat(p->libuft_events, ",");
		strcat(p->libuft_events, e);
	}
	return CLI_OK;
}

/* ---- selection and filters ---- */

static bool id_category_on(unsigned id, unsigned cats)
{
	if (id >= PT_ID_SYSCALL_BASE || id == PT_ID_RAW_ENTER || id == PT_ID_RAW_EXIT)
		return cats & PT_SYSCALLS;
	if (id == PT_ID_SIG_GENERATE || id == PT_ID_SIG_DELIVER)
		return cats & PT_SIGNALS;
	return cats & PT_LIFECYCLE;
}

struct select_ctx {
	struct proc_tracer *t;
	int rc;
	bool any_positive;
};

static int compile_for(struct proc_tracer *t, unsigned id, const char *text, size_t len,
		       const char *expr)
{
	struct uft_format_parsed p;
	if (uft_format_parse(text, len, &p) != 0)
		return -1;
	struct uft_filter *f = NULL;
	struct uft_filter_error fe = {0};
	int rc = uft_filter_compile(expr, p.fields, p.nr_fields, &f, &fe);
	uft_format_parsed_free(&p);
	if (rc == UFT_FILTER_CLEAR) {
		t->unfiltered[id] = true;
		return 0;
	}
	if (rc) {
		int n = snprintf(t->err, sizeof(t->err), "bad filter for %.*s:\n",
				 (int)(strchr(text, '\n') - text - 6), text + 6);
		if (n > 0 && (size_t)n < sizeof(t->err))
			uft_filter_error_text(expr, &fe, t->err + n, sizeof(t->err) - (size_t)n);
		return -1;
	}
	void *n = realloc(t->filters[id], (t->nr_filters[id] + 1u) * sizeof(*t->filters[id]));
	if (!n) {
		uft_filter_free(f);
		return -1;
	}
	t->filters[id] = n;
	t->filters[id][t->nr_filters[id]++] = f;
	return 0;
}

/* One format of the whole set: whether the -e specs select it, and the
 * filters of those that do. */
static int select_one(void *ctx, unsigned id, const char *system, const char *text, size_t len)
{
	struct select_ctx *sc = ctx;
	struct proc_tracer *t = sc->t;
	const struct record_opts *o = t->o;
	const char *nl = memchr(text, '\n', len);
	char name[128];
	snprintf(name, sizeof(name), "%.*s", nl ? (int)(nl - text - 6) : 0, text + 6);
	bool sel = !sc->any_positive, neg = false;
	for (int i = 0; i < o->nr_events; i++) {
		const char *e = o->events[i];
		if (e[0] == '!') {
			neg = neg || uft_event_spec_matches(e + 1, system, name);
			continue;
		}
		if (!uft_event_spec_matches(e, system, name))
			continue;
		sel = true;
		if (!o->filters[i])
			t->unfiltered[id] = true;
		else if (compile_for(t, id, text, len, o->filters[i]) != 0)
			return -1;
	}
	if (!sc->any_positive)
		t->unfiltered[id] = true;
	t->wanted[id] = sel && !neg && id_category_on(id, t->po.categories);
	return 0;
}

/* The engine's options from the command line: categories, the syscall set
 * (given, or the syscalls:sys_*_NAME events selected), the selection. */
static int make_options(struct proc_tracer *t)
{
	const struct record_opts *o = t->o;
	const struct proc_opts *p = &o->popts;
	t->wanted = calloc(PT_ID_END, sizeof(*t->wanted));
	t->unfiltered = calloc(PT_ID_END, sizeof(*t->unfiltered));
	t->filters = calloc(PT_ID_END, sizeof(*t->filters));
	t->nr_filters = calloc(PT_ID_END, sizeof(*t->nr_filters));
	if (!t->wanted || !t->unfiltered || !t->filters || !t->nr_filters) {
		snprintf(t->err, sizeof(t->err), "out of memory");
		return -1;
	}
	t->po.categories = PT_ALL & ~p->no;
	struct select_ctx sc = {.t = t};
	for (int i = 0; i < o->nr_events; i++)
		if (o->events[i][0] != '!' && proc_spec_matches(o->events[i]))
			sc.any_positive = true;
	if (pt_for_each_format(&every, select_one, &sc) != 0) {
		if (!*t->err)
			snprintf(t->err, sizeof(t->err), "cannot read the process events' formats");
		return -1;
	}
	/* What was selected decides what stops the tracee. */
	unsigned cats = 0;
	bool raw = t->wanted[PT_ID_RAW_ENTER] || t->wanted[PT_ID_RAW_EXIT];
	struct pt_sysset named = {0};
	for (unsigned id = 1; id < PT_ID_END; id++) {
		if (!t->wanted[id])
			continue;
		if (id >= PT_ID_SYSCALL_BASE) {
			cats |= PT_SYSCALLS;
			pt_sysset_add(&named, (long)(id - PT_ID_SYSCALL_BASE) / 2);
		} else {
			cats |= id_category_on(id, PT_LIFECYCLE) ? PT_LIFECYCLE
				: id_category_on(id, PT_SIGNALS) ? PT_SIGNALS
								 : PT_SYSCALLS;
		}
	}
	t->po.categories &= cats;
	if (!t->po.categories) {
		snprintf(t->err, sizeof(t->err), "the options leave no process event to trace");
		return -1;
	}
	if (p->syscalls) {
		char bad[64];
		pt_sysset_parse(p->syscalls, &t->po.syscalls, bad, sizeof(bad));
	} else if (!raw) {
		t->po.syscalls = named;
	}
	t->po.all_syscalls = !p->syscalls && raw;
	t->po.exec_path = o->path;
	t->po.backend = (enum pt_backend)p->backend;
	t->po.comm_glob = p->comm_glob;
	t->po.uid_glob = p->uid_glob;
	return 0;
}

/* The format of local id `id`, registered with the first record of it (the
 * engine's ids stay as they are): a file carries only the formats its
 * records use, not the ~700 the options could produce. 0, or -1 when it
 * cannot be (the record is then counted lost). */
static int register_format(struct proc_tracer *t, unsigned id)
{
	if (t->l.id_map[id])
		return 0;
	if (!t->fmt && !(t->fmt = malloc(PT_FORMAT_MAX)))
		return -1;
	const char *system = NULL;
	int n = pt_format_text(id, &system, t->fmt, PT_FORMAT_MAX);
	if (n >= 0 && pt_k_selected(&t->po)) /* the kernel's layout where it differs */
		n = pt_k_format_fixup(id, system, t->fmt, PT_FORMAT_MAX, n);
	if (n < 0 || n >= PT_FORMAT_MAX)
		return -1;
	return collect_local_format(&t->l, (uint16_t)id, system, t->fmt, (size_t)n);
}

/* ---- the events ---- */

static const char *comm_of(const struct collect *c, int pid)
{
	for (size_t i = 0; i < c->nr_comms; i++)
		if (c->comms[i].pid == pid)
			return c->comms[i].comm;
	return "<...>";
}

static bool keep(struct proc_tracer *t, uint32_t cpu, const void *rec, uint32_t len)
{
	const struct uft_common_entry *e = rec;
	unsigned id = e->type;
	if (id >= PT_ID_END || !t->wanted[id])
		return false;
	if (t->unfiltered[id])
		return true;
	for (unsigned i = 0; i < t->nr_filters[id]; i++) {
		const struct uft_filter *f = t->filters[id][i];
		const char *comm =
		    uft_filter_needs(f) & UFT_FILTER_NEEDS_COMM ? comm_of(t->c, e->pid) : NULL;
		if (uft_filter_match(f, rec, len, cpu, comm))
			return true;
	}
	return false;
}

/* One record to the collector, with the lock held. */
static void put(struct proc_tracer *t, uint32_t cpu, uint64_t ts, uint8_t *rec, uint32_t len)
{
	const struct uft_common_entry *e = (const void *)rec;
	register_format(t, e->type); /* else counted lost */
	collect_local_put(&t->l, cpu, mono_tsc_ns(&t->clk, t->c, ts), rec, len);
}

/* The records held for the clock, in order; called with the lock. */
static void put_held(struct proc_tracer *t)
{
	for (size_t i = 0; i < t->nr_held; i++) {
		struct held *h = &t->held[i];
		put(t, h->cpu, h->ts, h->rec, h->len);
		free(h->rec);
	}
	t->nr_held = 0;
}

static bool hold(struct proc_tracer *t, uint32_t cpu, uint64_t ts, const void *record, uint32_t len)
{
	if (t->nr_held >= HOLD_MAX || uft_array_reserve(t->held, t->cap_held, t->nr_held + 1, 256))
		return false;
	uint8_t *r = malloc(len);
	if (!r)
		return false;
	memcpy(r, record, len);
	t->held[t->nr_held++] = (struct held){.cpu = cpu, .len = len, .ts = ts, .rec = r};
	return true;
}

static int emit(void *ctx, uint32_t cpu, uint64_t ts, const void *record, uint32_t len)
{
	struct proc_tracer *t = ctx;
	/* Dropped by the selection or a filter: not a loss. */
	if (!keep(t, cpu, record, len))
		return 0;
	uint8_t buf[len];
	memcpy(buf, record, len);
	pthread_mutex_lock(&t->lock);
	mono_tsc_cover(&t->clk, ts);
	if (mono_tsc_ready(&t->clk, t->c) || !hold(t, cpu, ts, buf, len)) {
		put_held(t);
		put(t, cpu, ts, buf, len);
	}
	pthread_mutex_unlock(&t->lock);
	return 0;
}

static void on_comm(void *ctx, pid_t tid, const char *comm)
{
	struct proc_tracer *t = ctx;
	pthread_mutex_lock(&t->lock);
	collect_local_comm(&t->l, tid, comm);
	pthread_mutex_unlock(&t->lock);
}

static void on_lost(void *ctx, uint32_t cpu, uint64_t n)
{
	struct proc_tracer *t = ctx;
	pthread_mutex_lock(&t->lock);
	collect_local_overrun(&t->l, cpu, n);
	pthread_mutex_unlock(&t->lock);
}

/* ---- the thread ---- */

static void *tracer_main(void *arg)
{
	struct proc_tracer *t = arg;
	const struct record_opts *o = t->o;
	sigset_t stop;
	sigemptyset(&stop);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGTERM);
	pthread_sigmask(SIG_UNBLOCK, &stop, NULL);
	char err[256];
	t->s = o->popts.follow ? pt_attach(&t->po, (pid_t)o->popts.pid, err, sizeof(err))
			       : pt_launch(&t->po, o->cmd, err, sizeof(err));
	if (!t->s) {
		snprintf(t->err, sizeof(t->err), "%s", err);
		sem_post(&t->started);
		return NULL;
	}
	t->pid = pt_leader(t->s);
	if (o->popts.follow && !t->pid && !o->quiet) {
		unsigned n, m;
		pt_follow_counts(t->s, &n, &m);
		if (t->po.backend == PT_BACKEND_KERNEL)
			fprintf(stderr, "%s: following every process (kernel backend)\n",
				o->cli->name);
		else
			fprintf(stderr, "%s: following %u processes (%u not traceable)\n",
				o->cli->name, n, m);
	}
	session = t->s;
	t->start_ok = true;
	sem_post(&t->started);
	int st = pt_run(t->s);
	session = NULL;
	int ws;
	pid_t w = o->popts.follow ? -1 : waitpid(t->pid, &ws, WNOHANG);
	if (w == t->pid) {
		t->status = ws; /* it ended after it was detached */
	} else if (w == 0 || (o->popts.follow && t->pid && kill(t->pid, 0) == 0)) {
		t->running = true;
	} else {
		t->status = st < 0 ? 0 : st;
	}
	smp_store_release(&t->done, 1);
	return NULL;
}

struct proc_tracer *proc_tracer_start(const struct record_opts *o, struct collect *c,
				      void (*held)(void *ctx, pid_t pid), void *held_ctx)
{
	const char *name = o->cli->name;
	struct proc_tracer *t = calloc(1, sizeof(*t));
	if (!t || collect_local_init(&t->l, c) != 0) {
		fprintf(stderr, "%s: out of memory\n", name);
		free(t);
		return NULL;
	}
	t->o = o;
	t->c = c;
	pthread_mutex_init(&t->lock, NULL);
	sem_init(&t->started, 0, 0);
	t->po.emit = emit;
	t->po.comm = on_comm;
	t->po.lost = on_lost;
	t->po.ctx = t;
	t->po.held = held;
	t->po.held_ctx = held_ctx;
	/* both backends stamp with CLOCK_MONOTONIC where the kernel's
	 * instance uses mono (pt_clock.h) */
	mono_tsc_init(&t->clk, strcmp(pt_clock_tracefs_name(), "mono") == 0);
	if (make_options(t) != 0)
		goto fail;
	if (pthread_create(&t->th, NULL, tracer_main, t) != 0) {
		snprintf(t->err, sizeof(t->err), "cannot start the tracer thread");
		goto fail;
	}
	while (sem_wait(&t->started) != 0 && errno == EINTR)
		;
	if (!t->start_ok) {
		pthread_join(t->th, NULL);
		goto fail;
	}
	/* Stop signals go to the tracer thread (its wait returns EINTR). */
	sigset_t stop;
	sigemptyset(&stop);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &stop, NULL);
	return t;
fail:
	fprintf(stderr, "%s: %s\n", name, t->err);
	proc_tracer_finish(t, NULL, NULL);
	return NULL;
}

void proc_tracer_lock(struct proc_tracer *t)
{
	if (t)
		pthread_mutex_lock(&t->lock);
}

void proc_tracer_unlock(struct proc_tracer *t)
{
	if (t)
		pthread_mutex_unlock(&t->lock);
}

bool proc_tracer_done(struct proc_tracer *t)
{
	return smp_load_acquire(&t->done);
}

pid_t proc_tracer_pid(const struct proc_tracer *t)
{
	return t->pid;
}

bool proc_tracer_seccomp(const struct proc_tracer *t)
{
	return !t->o->popts.follow && (t->po.categories & PT_SYSCALLS) && !t->po.all_syscalls;
}

void proc_tracer_request_stop(void)
{
	struct pt_session *s = session;
	if (s)
		pt_request_stop(s);
}

void proc_tracer_finish(struct proc_tracer *t, int *status, bool *running)
{
	if (t->start_ok) {
		pthread_join(t->th, NULL);
		sigset_t stop;
		sigemptyset(&stop);
		sigaddset(&stop, SIGINT);
		sigaddset(&stop, SIGTERM);
		pthread_sigmask(SIG_UNBLOCK, &stop, NULL);
	}
	if (status)
		*status = t->status;
	if (running)
		*running = t->running;
	put_held(t);
	kept = t->l.stored;
	collect_local_close(&t->l);
	collect_local_free(&t->l);
	pt_free(t->s);
	for (unsigned id = 0; t->filters && id < PT_ID_END; id++) {
		for (unsigned i = 0; i < t->nr_filters[id]; i++)
			uft_filter_free(t->filters[id][i]);
		free(t->filters[id]);
	}
	free(t->filters);
	free(t->nr_filters);
	free(t->wanted);
	free(t->unfiltered);
	free(t->held);
	free(t->fmt);
	mono_tsc_free(&t->clk);
	pthread_mutex_destroy(&t->lock);
	sem_destroy(&t->started);
	free(t);
}
