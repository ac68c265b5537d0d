/* SPDX-License-Identifier: GPL-2.0-or-later */
/* uft top's sampling: the process's region read without consuming, its
 * tree through the control socket (top_sample.h says what comes from
 * where). */
#define _GNU_SOURCE
#include "cmd/top_sample.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "util/atomics.h"
#include "util/util.h"
#include "wire/ftrace_records.h"
#include "wire/ring_reader.h"

#define NR_IDS 65536

struct top_ring {
	bool init;
	struct uft_ring_geom g;
	uint32_t gen;
	uint64_t written; /* the writer's sequence at the last sample */
	uint64_t last_ts; /* the newest record counted */
	bool have_ts;
	int32_t row; /* threads row */
};

/* The profiler's counts of one function at the last sample. */
struct top_prof {
	char *name;
	uint64_t hits, time_ns;
	bool seen;
};

/* ---- tables ---- */

static int table_add(struct top_table *t, const char *name, int pid, int tid)
{
	if (uft_array_reserve(t->v, t->cap, t->n + 1, 64))
		return -1;
	char *copy = strdup(name);
	if (!copy)
		return -1;
	t->v[t->n] = (struct top_row){.name = copy, .pid = pid, .tid = tid};
	return (int)t->n++;
}

static int table_find(struct top_table *t, const char *name, int pid, int tid)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->v[i].pid == pid && t->v[i].tid == tid && strcmp(t->v[i].name, name) == 0)
			return (int)i;
	return table_add(t, name, pid, tid);
}

static void table_free(struct top_table *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->v[i].name);
	free(t->v);
	*t = (struct top_table){0};
}

static void table_reset(struct top_table *t)
{
	for (size_t i = 0; i < t->n; i++)
		t->v[i].delta = 0;
}

/* ---- the region ---- */

/* The pid pid has in its own namespace (NSpid's last field): the one its
 * region is named after. */
static long ns_pid(pid_t pid)
{
	char path[64], line[256];
	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	FILE *f = fopen(path, "r");
	long v = pid;
	if (!f)
		return v;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "NSpid:", 6) != 0)
			continue;
		char *s = line + 6, *end;
		for (long x = strtol(s, &end, 10); end != s; x = strtol(s, &end, 10)) {
			v = x;
			s = end;
		}
		break;
	}
	fclose(f);
	return v;
}

/* Opens the process's region read-only from its file descriptors: the
 * memfd named uft-NSPID, else another uft memfd (a forked child holds its
 * parent's until it makes its own). -errno or the fd. */
static int open_region_fd(pid_t pid)
{
	char dir[64], want[64], path[400], link[256];
	snprintf(dir, sizeof(dir), "/proc/%d/fd", (int)pid);
	snprintf(want, sizeof(want), "/memfd:uft-%ld (deleted)", ns_pid(pid));
	DIR *d = opendir(dir);
	if (!d)
		return -errno;
	int fd = -ENOENT, best = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		ssize_t n = readlink(path, link, sizeof(link) - 1);
		if (n <= 0)
			continue;
		link[n] = 0;
		int score = strcmp(link, want) == 0 ? 2 : strncmp(link, "/memfd:uft-", 11) == 0;
		if (score <= best)
			continue;
		int f = open(path, O_RDONLY | O_CLOEXEC);
		if (f < 0) {
			if (fd < 0)
				fd = -errno;
			continue;
		}
		if (fd >= 0)
			close(fd);
		fd = f;
		best = score;
	}
	closedir(d);
	return fd;
}

static void map_region(struct top_proc *p)
{
	int fd = open_region_fd(p->pid);
	if (fd < 0) {
		snprintf(p->region_err, sizeof(p->region_err), "its buffer cannot be read (%s)",
			 fd == -ENOENT ? "no uft region among its files" : strerror(-fd));
		return;
	}
	enum shm_drop why;
	int rc = shm_check_region_ro(fd, &p->reg, &why);
	close(fd); /* the mapping stays, after the process too */
	if (rc) {
		snprintf(p->region_err, sizeof(p->region_err), "its buffer cannot be read (%s)",
			 shm_drop_name(why));
		return;
	}
	p->have_region = true;
}

/* ---- names ---- */

static const char *const ftrace_names[] = {
    [1] = "function",	 [2] = "context_switch", [3] = "wakeup",	  [4] = "kernel_stack",
    [5] = "print",	 [6] = "bprint",	 [10] = "funcgraph_exit", [11] = "funcgraph_entry",
    [12] = "user_stack", [14] = "bputs",	 [15] = "raw_data",
};

/* The name of event id from the region's format records, else the
 * kernel's ftrace entry names. */
static void id_name(const struct top_proc *p, uint16_t id, char *out, size_t cap)
{
	const char *area = (const char *)p->reg.hdr + p->reg.formats_off;
	uint64_t len = smp_load_acquire(&p->reg.hdr->formats_len), off = 0;
	if (len > p->reg.formats_cap)
		len = 0;
	while (off + sizeof(struct uft_format_rec) <= len) {
		struct uft_format_rec r;
		memcpy(&r, area + off, sizeof(r));
		uint64_t need = (sizeof(r) + (uint64_t)r.len + 7) & ~7ull;
		if (need > len - off)
			break;
		if (r.id == id) {
			char text[256];
			size_t n = r.len < sizeof(text) - 1 ? r.len : sizeof(text) - 1;
			memcpy(text, area + off + sizeof(r), n);
			text[n] = 0;
			char *name = strncmp(text, "name: ", 6) == 0 ? text + 6 : NULL;
			if (name) {
				name[strcspn(name, "\n")] = 0;
				snprintf(out, cap, "%.*s:%s", (int)strnlen(r.system, 32), r.system,
					 name);
				return;
			}
		}
		off += need;
	}
	if (id < ARRAY_SIZE(ftrace_names) && ftrace_names[id])
		snprintf(out, cap, "ftrace:%s", ftrace_names[id]);
	else
		snprintf(out, cap, "id %u", id);
}

/* The function at addr: its symbol (rescanning the process's objects once
 * an interval when it is unknown), else the address. */
static void func_name(struct top_proc *p, uint64_t addr, char *out, size_t cap)
{
	struct uft_sym s;
	bool ok = p->ks.n && uft_ksyms_lookup(&p->ks, addr, &s) && s.name;
	if (!ok && !p->syms_scanned && p->syms) {
		p->syms_scanned = true;
		size_t len;
		if (proc_syms_scan(p->syms, p->pid) == 0) {
			const char *text = proc_syms_text(p->syms, &len);
			struct uft_ksyms k = {0};
			if (uft_ksyms_parse(&k, text, len) == 0) {
				uft_ksyms_free(&p->ks);
				p->ks = k;
			}
		}
		ok = p->ks.n && uft_ksyms_lookup(&p->ks, addr, &s) && s.name;
	}
	if (ok && s.module)
		snprintf(out, cap, "%s [%s]", s.name, s.module);
	else if (ok)
		snprintf(out, cap, "%s", s.name);
	else
		snprintf(out, cap, "0x%llx", (unsigned long long)addr);
}

/* ---- counting records ---- */

static int32_t *fa_slot(struct top_proc *p, uint64_t addr, bool *fresh)
{
	if (p->fa_n * 2 >= p->fa_cap) {
		size_t cap = p->fa_cap ? p->fa_cap * 2 : 1024;
		uint64_t *a = calloc(cap, sizeof(*a));
		int32_t *r = calloc(cap, sizeof(*r));
		if (!a || !r) {
			free(a);
			free(r);
			return NULL;
		}
		for (size_t i = 0; i < p->fa_cap; i++) {
			if (!p->fa_row[i])
				continue;
			size_t h = (p->fa_addr[i] * 0x9e3779b97f4a7c15ull) >> 20 & (cap - 1);
			while (r[h])
				h = (h + 1) & (cap - 1);
			a[h] = p->fa_addr[i];
			r[h] = p->fa_row[i];
		}
		free(p->fa_addr);
		free(p->fa_row);
		p->fa_addr = a;
		p->fa_row = r;
		p->fa_cap = cap;
	}
	size_t h = (addr * 0x9e3779b97f4a7c15ull) >> 20 & (p->fa_cap - 1);
	while (p->fa_row[h] && p->fa_addr[h] != addr)
		h = (h + 1) & (p->fa_cap - 1);
	*fresh = !p->fa_row[h];
	if (*fresh) {
		p->fa_addr[h] = addr;
		p->fa_n++;
	}
	return &p->fa_row[h];
}

static void count_function(struct top *t, struct top_proc *p, uint64_t addr)
{
	bool fresh;
	int32_t *slot = fa_slot(p, addr, &fresh);
	if (!slot)
		return;
	if (fresh) {
		char name[300];
		func_name(p, addr, name, sizeof(name));
		int row = table_find(&t->funcs, name, 0, 0);
		*slot = row < 0 ? 0 : row + 1;
	}
	if (*slot) {
		t->funcs.v[*slot - 1].delta++;
		t->funcs.v[*slot - 1].total++;
	}
}

static void count_event(struct top *t, struct top_proc *p, uint16_t id)
{
	if (!p->id_row[id]) {
		char name[320];
		id_name(p, id, name, sizeof(name));
		int row = table_find(&t->events, name, 0, 0);
		if (row < 0)
			return;
		p->id_row[id] = row + 1;
	}
	struct top_row *r = &t->events.v[p->id_row[id] - 1];
	r->delta++;
	r->total++;
}

struct peek_ctx {
	struct top *t;
	struct top_proc *p;
	struct top_ring *st;
	bool count;
	uint64_t newest, seen;
};

static int on_record(void *arg, uint64_t ts, uint32_t cpu, const void *data, uint32_t len,
		     uint64_t missed)
{
	struct peek_ctx *c = arg;
	(void)cpu;
	(void)missed;
	if (c->st->have_ts && ts <= c->st->last_ts)
		return 0;
	if (ts > c->newest)
		c->newest = ts;
	const struct uft_common_entry *e = data;
	if (!c->count || len < sizeof(*e) || e->type == UFT_ID_CPU_MARK)
		return 0;
	c->seen++;
	count_event(c->t, c->p, e->type);
	bool func = e->type == UFT_ID_FUNCTION || e->type == UFT_ID_FUNCGRAPH_ENTRY;
	if (func && len >= 16 && !c->p->profiling) {
		uint64_t addr;
		memcpy(&addr, (const char *)data + 8, sizeof(addr));
		count_function(c->t, c->p, addr);
	}
	return 0;
}

static void thread_row(struct top *t, struct top_proc *p, struct top_ring *st,
		       const struct uft_ring *r)
{
	char comm[17];
	memcpy(comm, r->comm, 16);
	comm[16] = 0;
	for (char *c = comm; *c; c++)
		if (*c < ' ' || *c > '~')
			*c = '?';
	st->row = table_find(&t->threads, comm, (int)p->pid, READ_ONCE(r->tid));
}

static void sample_ring(struct top *t, struct top_proc *p, uint64_t off, struct top_ring *st)
{
	struct uft_ring *r = (struct uft_ring *)((char *)p->reg.hdr + off);
	uint32_t state = smp_load_acquire(&r->state);
	if (state != UFT_RING_ACTIVE && state != UFT_RING_EXITED)
		return;
	uint32_t gen = smp_load_acquire(&r->generation);
	bool fresh = !st->init || gen != st->gen;
	if (fresh) {
		struct uft_ring_geom g;
		if (!shm_check_ring(&p->reg, off, &g))
			return;
		*st = (struct top_ring){.init = true, .g = g, .gen = gen};
		thread_row(t, p, st, r);
	}
	uint64_t written = uft_ring_written(r, &st->g);
	struct peek_ctx c = {t, p, st, !p->baseline, 0, 0};
	/* A thread that wrote nothing since costs one page copy, not its ring. */
	if (fresh || written != st->written)
		uft_ring_peek_geom(r, &st->g, on_record, &c);
	if (smp_load_acquire(&r->generation) != gen)
		return; /* handed to another thread meanwhile: next time */
	if (c.newest) {
		st->last_ts = c.newest;
		st->have_ts = true;
	}
	/* A new thread's events all came after the last sample. */
	uint64_t from = fresh && !p->baseline ? 0 : st->written;
	uint64_t d = written > from ? written - from : 0;
	st->written = written;
	if (p->baseline || st->row < 0)
		return;
	t->threads.v[st->row].delta += d;
	t->threads.v[st->row].total += d;
	p->events_delta += d;
	p->events_total += d;
	if (c.seen < d)
		t->partial = true;
}

static void add_loss(struct top_loss *l, const struct uft_ring *r)
{
	l->overrun += uft_load_seq_cst(&r->overrun) - READ_ONCE(r->overrun_base);
	l->dropped += uft_load_seq_cst(&r->dropped);
	l->lost += uft_load_seq_cst(&r->lost);
	l->waits += uft_load_seq_cst(&r->block_waits);
	l->timeouts += uft_load_seq_cst(&r->block_timeouts);
}

static void sample_region(struct top *t, struct top_proc *p)
{
	struct uft_shm_header *h = p->reg.hdr;
	uint32_t nr = smp_load_acquire(&h->nr_rings);
	if (nr > UFT_SHM_MAX_RINGS)
		nr = UFT_SHM_MAX_RINGS;
	if (nr > p->nr_rings) {
		struct top_ring *v = realloc(p->rings, nr * sizeof(*v));
		if (!v)
			return;
		memset(v + p->nr_rings, 0, (nr - p->nr_rings) * sizeof(*v));
		p->rings = v;
		p->nr_rings = nr;
	}
	struct top_loss l = {0};
	p->threads = 0;
	for (uint32_t i = 0; i < nr; i++) {
		uint64_t off = smp_load_acquire(&h->ring_off[i]);
		struct uft_ring_geom g;
		if (!off || !shm_check_ring(&p->reg, off, &g))
			continue;
		const struct uft_ring *r = (const struct uft_ring *)((char *)h + off);
		add_loss(&l, r);
		p->threads += smp_load_acquire(&r->state) == UFT_RING_ACTIVE;
		sample_ring(t, p, off, &p->rings[i]);
	}
	for (uint32_t b = 0; b < UFT_SHM_MAX_BUFFERS; b++) {
		l.overrun += uft_load_seq_cst(&h->recycle_overrun[b]) +
			     uft_load_seq_cst(&h->retired_overrun[b]);
		l.dropped += uft_load_seq_cst(&h->ring_dropped[b]) +
			     uft_load_seq_cst(&h->retired_dropped[b]);
		l.lost += uft_load_seq_cst(&h->ring_lost[b]);
	}
	if (p->baseline)
		p->loss_first = l;
	p->loss = l;
}

/* ---- the tree ---- */

static char *tree_cat(struct top_proc *p, const char *file)
{
	int err = 0;
	char *s = live_cat(&p->l, file, NULL, &err);
	if (!s && (err == -ECONNRESET || err == -EPIPE))
		p->exited = true;
	return s;
}

static void trim(char *s)
{
	size_t n = strlen(s);
	while (n && (s[n - 1] == '\n' || s[n - 1] == ' '))
		s[--n] = 0;
}

bool top_stat_line(const char *line, char name[31], uint64_t *hits, uint64_t *time_ns)
{
	/* "  %-30.30s  %10llu    TIME us ...": the name in fixed columns. */
	if (strnlen(line, 34) < 34 || strncmp(line, "  Function", 10) == 0 ||
	    strncmp(line, "  --------", 10) == 0)
		return false;
	memcpy(name, line + 2, 30);
	name[30] = 0;
	trim(name);
	char *end;
	errno = 0;
	unsigned long long h = strtoull(line + 32, &end, 10);
	if (!name[0] || end == line + 32 || errno)
		return false;
	double us = strtod(end, NULL);
	*hits = h;
	*time_ns = us > 0 && us < 1e12 ? (uint64_t)(us * 1000.0) : 0;
	return true;
}

/* One trace_stat/functionN into the profile's counts of this sample. */
static void prof_parse(struct top_proc *p, char *text)
{
	char *save = NULL;
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char name[31];
		uint64_t hits, ns;
		if (!top_stat_line(line, name, &hits, &ns))
			continue;
		size_t i = 0;
		while (i < p->nr_prof && strcmp(p->prof[i].name, name) != 0)
			i++;
		if (i == p->nr_prof) {
			if (uft_array_reserve(p->prof, p->cap_prof, i + 1, 64))
				return;
			p->prof[i] = (struct top_prof){strdup(name), 0, 0, false};
			if (!p->prof[i].name)
				return;
			p->nr_prof++;
		}
		struct top_prof *f = &p->prof[i];
		if (!f->seen) { /* the first CPU's line of this sample */
			f->seen = true;
			f->hits = 0;
			f->time_ns = 0;
		}
		f->hits += hits;
		f->time_ns += ns;
	}
}

/* The profiler's hits since the last sample into the functions table. */
static void sample_profile(struct top *t, struct top_proc *p)
{
	struct live_names ns = {0};
	live_readdir(&p->l, "/trace_stat", &ns);
	uint64_t *old = calloc(p->nr_prof + 1, sizeof(*old));
	if (!old) {
		live_names_free(&ns);
		return;
	}
	for (size_t i = 0; i < p->nr_prof; i++) {
		old[i] = p->prof[i].hits;
		p->prof[i].seen = false;
	}
	size_t known = p->nr_prof;
	for (size_t i = 0; i < ns.n; i++) {
		if (strncmp(ns.v[i], "function", 8) != 0)
			continue;
		char file[128];
		snprintf(file, sizeof(file), "/trace_stat/%s", ns.v[i]);
		char *s = tree_cat(p, file);
		if (s)
			prof_parse(p, s);
		free(s);
	}
	live_names_free(&ns);
	for (size_t i = 0; i < p->nr_prof; i++) {
		struct top_prof *f = &p->prof[i];
		if (!f->seen)
			continue;
		uint64_t before = i < known ? old[i] : 0;
		uint64_t d = f->hits >= before ? f->hits - before : f->hits;
		if (p->baseline)
			continue;
		int row = table_find(&t->funcs, f->name, 0, 0);
		if (row < 0)
			continue;
		t->funcs.v[row].delta += d;
		t->funcs.v[row].total += d;
		t->funcs.v[row].time_ns = f->time_ns;
	}
	free(old);
}

/* Whether a trigger file's text holds a hist trigger. */
static bool has_hist(const char *s)
{
	return s && (strncmp(s, "hist:", 5) == 0 || strstr(s, "\nhist:"));
}

/* The hist file of each enabled event with a hist trigger, its comment
 * lines but the trigger's left out. */
static void sample_hists(struct top_proc *p, FILE *out)
{
	char *set = tree_cat(p, "set_event");
	char *save = NULL;
	for (char *ev = set ? strtok_r(set, "\n", &save) : NULL; ev;
	     ev = strtok_r(NULL, "\n", &save)) {
		char *colon = strchr(ev, ':');
		if (!colon)
			continue;
		*colon = '/';
		char file[300];
		snprintf(file, sizeof(file), "events/%s/trigger", ev);
		char *trig = tree_cat(p, file);
		if (has_hist(trig)) {
			snprintf(file, sizeof(file), "events/%s/hist", ev);
			char *h = tree_cat(p, file);
			*colon = ':';
			fprintf(out, "HIST %s (pid %d)\n", ev, (int)p->pid);
			char *s2 = NULL;
			for (char *l = h ? strtok_r(h, "\n", &s2) : NULL; l;
			     l = strtok_r(NULL, "\n", &s2))
				if (l[0] != '#' || strncmp(l, "# trigger info:", 15) == 0)
					fprintf(out, "  %s\n", l);
			free(h);
		}
		free(trig);
	}
	free(set);
}

static void sample_tree(struct top *t, struct top_proc *p)
{
	char *s = tree_cat(p, "current_tracer");
	if (s) {
		snprintf(p->tracer, sizeof(p->tracer), "%s", s);
		trim(p->tracer);
	}
	free(s);
	s = tree_cat(p, "tracing_on");
	if (s)
		p->tracing_on = s[0] == '1';
	free(s);
	s = tree_cat(p, "function_profile_enabled");
	if (s)
		p->profiling = s[0] == '1';
	free(s);
	if (p->exited)
		return; /* the last frame keeps what was read before */
	if (p->profiling)
		sample_profile(t, p);
	free(p->hists);
	p->hists = NULL;
	size_t len;
	FILE *m = open_memstream(&p->hists, &len);
	if (m) {
		sample_hists(p, m);
		fclose(m);
	}
}

/* ---- the process ---- */

bool top_proc_exited(const struct top_proc *p)
{
	if (p->exited)
		return true;
	char path[64], buf[512];
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)p->pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return true;
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return true;
	buf[n] = 0;
	const char *paren = strrchr(buf, ')');
	return !paren || paren[1] != ' ' || paren[2] == 'Z' || paren[2] == 'X';
}

/* Connects without a word on failure. */
static int connect_quiet(struct live *l, pid_t pid)
{
	memset(l, 0, sizeof(*l));
	snprintf(l->pidstr, sizeof(l->pidstr), "%d", (int)pid);
	return uft_ctl_connect_pid(pid, &l->c) ? 1 : 0;
}

int top_add(struct top *t, pid_t pid, bool quiet)
{
	struct top_proc *p = calloc(1, sizeof(*p));
	struct top_proc **v = realloc(t->procs, (t->n + 1) * sizeof(*v));
	if (v)
		t->procs = v;
	if (!p || !v) {
		free(p);
		fprintf(stderr, "uft top: out of memory\n");
		return 1;
	}
	int rc = quiet ? connect_quiet(&p->l, pid) : live_open(&p->l, pid, NULL);
	if (rc) {
		free(p);
		return rc;
	}
	p->pid = uft_ctl_peer_pid(p->l.c);
	snprintf(p->comm, sizeof(p->comm), "%s", uft_ctl_peer_comm(p->l.c));
	snprintf(p->tracer, sizeof(p->tracer), "?");
	p->id_row = calloc(NR_IDS, sizeof(*p->id_row));
	p->syms = proc_syms_new();
	if (!p->id_row) {
		live_close(&p->l);
		proc_syms_free(p->syms);
		free(p);
		fprintf(stderr, "uft top: out of memory\n");
		return 1;
	}
	map_region(p);
	p->baseline = true;
	t->procs[t->n++] = p;
	return 0;
}

void top_sample(struct top *t, double interval)
{
	table_reset(&t->events);
	table_reset(&t->threads);
	table_reset(&t->funcs);
	t->interval = interval;
	t->partial = false;
	for (size_t i = 0; i < t->n; i++) {
		struct top_proc *p = t->procs[i];
		p->events_delta = 0;
		p->syms_scanned = false;
		if (!p->exited && top_proc_exited(p))
			p->exited = true;
		if (!p->exited)
			sample_tree(t, p);
		if (p->have_region)
			sample_region(t, p);
		p->baseline = false;
	}
}

static void proc_free(struct top_proc *p)
{
	live_close(&p->l);
	if (p->have_region)
		munmap(p->reg.hdr, p->reg.map_len);
	free(p->rings);
	free(p->id_row);
	free(p->fa_addr);
	free(p->fa_row);
	proc_syms_free(p->syms);
	uft_ksyms_free(&p->ks);
	for (size_t i = 0; i < p->nr_prof; i++)
		free(p->prof[i].name);
	free(p->prof);
	free(p->hists);
	free(p);
}

void top_remove(struct top *t, size_t i)
{
	proc_free(t->procs[i]);
	memmove(t->procs + i, t->procs + i + 1, (t->n - i - 1) * sizeof(*t->procs));
	t->n--;
}

void top_free(struct top *t)
{
	for (size_t i = 0; i < t->n; i++)
		proc_free(t->procs[i]);
	free(t->procs);
	table_free(&t->events);
	table_free(&t->threads);
	table_free(&t->funcs);
}
