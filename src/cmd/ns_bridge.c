/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The kernel's events of other tasks onto a traced program's tree
 * (ns_bridge.h). Losses are counted on both sides and said at the end: the
 * kernel's (its pages' missed-events counts and per-CPU stats), records
 * that could not be converted or sent, and records the program refused. */
#define _GNU_SOURCE
#include "cmd/ns_bridge.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "client/ctl_client.h"
#include "engine/format/format_parse.h"
#include "proctrace/kernel_backend.h"
#include "proctrace/kernel_reader.h"
#include "proctrace/proc_info.h"
#include "wire/ctl_proto.h"
#include "wire/inject_proto.h"

#define KTRACING "/sys/kernel/tracing"
#define SYNC_MS 20
#define COMM_SLOTS 4096

/* One event both sides define: the kernel's record's fields go to the
 * tree's by name. */
struct conv {
	uint16_t tree_id;
	uint32_t fixed; /* the tree record's fixed part, 8-aligned */
	struct uft_format_parsed tf, kf;
	int *from; /* per tree field: the kernel field's index, -1 none */
	/* (comm, pid) field pairs of the kernel's record that name a task */
	struct {
		int comm, pid;
	} names[4];
	int nr_names;
	/* sched_process_exec's filename: the name the task takes (the kernel
	 * sets comm to its last part before the event), -1 for other events */
	int exec_file;
};

struct ns_bridge {
	struct uft_ctl_conn *c;
	pid_t target;
	char dir[64]; /* the instance, through a descriptor of ours */
	char inst_name[64];
	int inst_fd, instances_fd;
	struct pt_kreader r;
	struct pt_kmerge m;
	uint16_t *map; /* kernel id -> conv index + 1 */
	struct conv *cv;
	size_t nr_cv;
	pthread_mutex_t lock;
	uint8_t batch[UFT_CTL_MAX_IO];
	size_t blen, bn;
	struct {
		int pid;
		char comm[16];
	} comms[COMM_SLOTS];
	struct {
		int pid;
		bool own;
	} seen[COMM_SLOTS];
	uint64_t sent, taken, refused, lost, unsent, own;
	uint64_t last_ns; /* CLOCK_MONOTONIC of the last sync by a look, 0 after a full one */
	pthread_t th;
	bool running;
	volatile int stop;
};

/* ---- formats ---- */

static const char *base_name(const char *n, size_t *len)
{
	const char *b = strchr(n, '[');
	*len = b ? (size_t)(b - n) : strlen(n);
	return n;
}

static int kfield(const struct uft_format_parsed *p, const char *name)
{
	size_t ln;
	base_name(name, &ln);
	for (uint32_t i = 0; i < p->nr_fields; i++) {
		size_t l2;
		const char *n2 = base_name(p->fields[i].name, &l2);
		if (ln == l2 && strncmp(name, n2, ln) == 0)
			return (int)i;
	}
	return -1;
}

/* A tree file's whole text through the control socket. */
static int tree_text(struct uft_ctl_conn *c, const char *path, char *buf, size_t cap)
{
	int h = uft_ctl_open(c, path, UFT_TFS_READ);
	if (h < 0)
		return h;
	size_t n = 0;
	for (;;) {
		ssize_t k = uft_ctl_read(c, h, buf + n, cap - 1 - n, n);
		if (k <= 0 || (n += (size_t)k) >= cap - 1)
			break;
	}
	uft_ctl_release(c, h);
	buf[n] = 0;
	return (int)n;
}

static void conv_free(struct conv *v)
{
	uft_format_parsed_free(&v->tf);
	uft_format_parsed_free(&v->kf);
	free(v->from);
}

/* The pairs of fields that name a task: comm/pid, prev_comm/prev_pid ... */
static void find_names(struct conv *v)
{
	static const char *const pre[] = {"", "prev_", "next_", "parent_", "child_"};
	for (size_t i = 0; i < sizeof(pre) / sizeof(pre[0]) && v->nr_names < 4; i++) {
		char cn[32], pn[32];
		snprintf(cn, sizeof(cn), "%scomm", pre[i]);
		snprintf(pn, sizeof(pn), "%spid", pre[i]);
		int a = kfield(&v->kf, cn), b = kfield(&v->kf, pn);
		if (a < 0 || b < 0 || v->kf.fields[a].kind != UFT_FIELD_ARRAY ||
		    v->kf.fields[b].kind != UFT_FIELD_SCALAR || v->kf.fields[b].size != 4)
			continue;
		v->names[v->nr_names].comm = a;
		v->names[v->nr_names].pid = b;
		v->nr_names++;
	}
}

/* One event: its tree and kernel formats; 1 when both have it. */
static int add_event(struct ns_bridge *b, const char *sys, const char *name)
{
	char path[600], *tt = malloc(16384), *kt = malloc(16384);
	int rc = 0;
	struct conv v = {0};
	if (!tt || !kt)
		goto out;
	snprintf(path, sizeof(path), "events/%s/%s/format", sys, name);
	if (tree_text(b->c, path, tt, 16384) <= 0)
		goto out;
	snprintf(path, sizeof(path), "%s/events/%s/%s/format", b->dir, sys, name);
	int kn = pt_read_text(path, kt, 16384);
	if (kn <= 0 || uft_format_parse(tt, strlen(tt), &v.tf) != 0)
		goto out;
	if (uft_format_parse(kt, (size_t)kn, &v.kf) != 0) {
		uft_format_parsed_free(&v.tf);
		goto out;
	}
	v.tree_id = (uint16_t)v.tf.id;
	v.fixed = 8;
	v.from = calloc(v.tf.nr_fields ? v.tf.nr_fields : 1, sizeof(int));
	if (!v.from || v.kf.id == 0 || v.kf.id > 0xffff) {
		conv_free(&v);
		goto out;
	}
	for (uint32_t i = 0; i < v.tf.nr_fields; i++) {
		const struct uft_field *f = &v.tf.fields[i];
		if (f->offset + f->size > v.fixed)
			v.fixed = f->offset + f->size;
		v.from[i] = kfield(&v.kf, f->name);
	}
	v.fixed = UFT_INJECT_ALIGN(v.fixed);
	find_names(&v);
	v.exec_file = -1;
	if (strcmp(name, "sched_process_exec") == 0) {
		int f = kfield(&v.kf, "filename");
		if (f >= 0 && v.kf.fields[f].kind == UFT_FIELD_DYN && v.kf.fields[f].size == 4)
			v.exec_file = f;
	}
	void *p = realloc(b->cv, (b->nr_cv + 1) * sizeof(*b->cv));
	if (!p) {
		conv_free(&v);
		goto out;
	}
	b->cv = p;
	b->cv[b->nr_cv++] = v;
	b->map[v.kf.id] = (uint16_t)b->nr_cv;
	rc = 1;
out:
	free(tt);
	free(kt);
	return rc;
}

struct names {
	char **v;
	size_t n;
	bool dirs_only;
};

static int push_name(void *ctx, const char *name, int type)
{
	struct names *l = ctx;
	if (l->dirs_only && type != UFT_TFS_DIR)
		return 0;
	void *p = realloc(l->v, (l->n + 1) * sizeof(*l->v));
	if (!p)
		return -ENOMEM;
	l->v = p;
	l->v[l->n] = strdup(name);
	if (l->v[l->n])
		l->n++;
	return 0;
}

static void names_free(struct names *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
}

static bool listed(const char *list, const char *sys)
{
	size_t n = strlen(sys);
	for (const char *p = list; *p;) {
		size_t l = strcspn(p, ",");
		if (l == n && strncmp(p, sys, n) == 0)
			return true;
		p += l + (p[l] == ',');
	}
	return false;
}

/* The events of the listed systems both sides have, enabled in the kernel. */
static int add_events(struct ns_bridge *b, const char *systems)
{
	struct names sys = {NULL, 0, true};
	int rc = uft_ctl_readdir(b->c, "events", push_name, &sys);
	for (size_t i = 0; rc >= 0 && i < sys.n; i++) {
		if (!listed(systems, sys.v[i]))
			continue;
		char path[300];
		struct names ev = {NULL, 0, true};
		snprintf(path, sizeof(path), "events/%s", sys.v[i]);
		if (uft_ctl_readdir(b->c, path, push_name, &ev) >= 0)
			for (size_t j = 0; j < ev.n; j++)
				if (add_event(b, sys.v[i], ev.v[j])) {
					snprintf(path, sizeof(path), "events/%s/%s/enable",
						 sys.v[i], ev.v[j]);
					pt_ki_write(b->dir, path, "1", false);
				}
		names_free(&ev);
	}
	names_free(&sys);
	return rc < 0 ? rc : (int)b->nr_cv;
}

/* ---- names of tasks ---- */

static void note(struct ns_bridge *b, int pid, const char *comm)
{
	if (pid <= 0 || !comm[0])
		return;
	unsigned i = (unsigned)pid % COMM_SLOTS;
	b->comms[i].pid = pid;
	memset(b->comms[i].comm, 0, 16);
	memcpy(b->comms[i].comm, comm, strnlen(comm, 16));
}

/* The name an exec gives its task: the file name's last part, 15 bytes
 * at most, as the kernel's exec sets comm; a task that has exited by the
 * time its records are read has no /proc entry to ask. */
static void note_exec(struct ns_bridge *b, const struct conv *v, int pid, const uint8_t *rec,
		      uint32_t len)
{
	const struct uft_field *f = &v->kf.fields[v->exec_file];
	uint32_t loc;
	if (f->offset + 4 > len)
		return;
	memcpy(&loc, rec + f->offset, 4);
	uint32_t off = loc & 0xffff, n = loc >> 16;
	if (off > len || n > len - off || n == 0)
		return;
	const char *s = (const char *)rec + off;
	size_t l = strnlen(s, n);
	const char *slash = memrchr(s, '/', l);
	const char *base = slash ? slash + 1 : s;
	char comm[16] = {0};
	memcpy(comm, base, (size_t)(s + l - base) < 15 ? (size_t)(s + l - base) : 15);
	note(b, pid, comm);
}

static void comm_of(struct ns_bridge *b, int pid, char out[16])
{
	memset(out, 0, 16);
	if (pid == 0) {
		memcpy(out, "<idle>", 6);
		return;
	}
	unsigned i = (unsigned)pid % COMM_SLOTS;
	if (b->comms[i].pid == pid) {
		memcpy(out, b->comms[i].comm, 16);
		return;
	}
	char p[64], c[32];
	snprintf(p, sizeof(p), "/proc/%d/comm", pid);
	if (pt_read_text(p, c, sizeof(c)) > 0) {
		c[strcspn(c, "\n")] = 0;
		c[15] = 0;
		note(b, pid, c);
		memcpy(out, b->comms[i].comm, 16);
	}
}

/* Whether a task is a thread of this process or of the program. */
static bool own_task(struct ns_bridge *b, int pid)
{
	if (pid <= 0)
		return false;
	unsigned i = (unsigned)pid % COMM_SLOTS;
	if (b->seen[i].pid == pid)
		return b->seen[i].own;
	char p[64], q[64];
	snprintf(p, sizeof(p), "/proc/self/task/%d", pid);
	snprintf(q, sizeof(q), "/proc/%d/task/%d", (int)b->target, pid);
	b->seen[i].pid = pid;
	b->seen[i].own = access(p, F_OK) == 0 || access(q, F_OK) == 0;
	return b->seen[i].own;
}

/* ---- records ---- */

static uint64_t get_uint(const uint8_t *p, uint32_t size, bool sign)
{
	switch (size) {
	case 1:
		return sign ? (uint64_t)(int64_t)(int8_t)p[0] : p[0];
	case 2: {
		uint16_t v;
		memcpy(&v, p, 2);
		return sign ? (uint64_t)(int64_t)(int16_t)v : v;
	}
	case 4: {
		uint32_t v;
		memcpy(&v, p, 4);
		return sign ? (uint64_t)(int64_t)(int32_t)v : v;
	}
	default: {
		uint64_t v = 0;
		memcpy(&v, p, size < 8 ? size : 8);
		return v;
	}
	}
}

static void flush_batch(struct ns_bridge *b)
{
	if (!b->bn)
		return;
	int rc = uft_ctl_inject(b->c, b->batch, b->blen);
	if (rc < 0) {
		b->unsent += b->bn;
	} else {
		b->taken += (uint64_t)rc;
		b->refused += b->bn - (uint64_t)rc;
	}
	b->sent += b->bn;
	b->blen = b->bn = 0;
}

/* The kernel's record in the tree event's layout, at `out` (cap bytes);
 * its length, 0 if it does not fit. */
static uint32_t convert(const struct conv *v, const uint8_t *rec, uint32_t len, uint8_t *out,
			uint32_t cap)
{
	if (v->fixed > cap)
		return 0;
	memset(out, 0, v->fixed);
	memcpy(out, rec, 8); /* common_type, flags, preempt_count, common_pid */
	memcpy(out, &v->tree_id, 2);
	uint32_t end = v->fixed;
	for (uint32_t i = 0; i < v->tf.nr_fields; i++) {
		const struct uft_field *t = &v->tf.fields[i];
		if (v->from[i] < 0)
			continue;
		const struct uft_field *k = &v->kf.fields[v->from[i]];
		if (k->offset + k->size > len)
			continue;
		const uint8_t *src = rec + k->offset;
		if (t->kind == UFT_FIELD_SCALAR && k->kind == UFT_FIELD_SCALAR) {
			uint64_t x = get_uint(src, k->size, k->is_signed);
			memcpy(out + t->offset, &x, t->size < 8 ? t->size : 8);
		} else if (t->kind == UFT_FIELD_ARRAY && k->kind == UFT_FIELD_ARRAY) {
			memcpy(out + t->offset, src, t->size < k->size ? t->size : k->size);
		} else if (k->kind == UFT_FIELD_DYN && k->size == 4 &&
			   (t->kind == UFT_FIELD_DYN || t->kind == UFT_FIELD_ARRAY)) {
			uint32_t loc;
			memcpy(&loc, src, 4);
			uint32_t off = loc & 0xffff, n = loc >> 16;
			if (off + n > len)
				continue;
			if (t->kind == UFT_FIELD_ARRAY) {
				uint32_t c = n < t->size ? n : t->size;
				memcpy(out + t->offset, rec + off, c);
				if (c && c == t->size)
					out[t->offset + c - 1] = 0;
			} else if (t->size == 4 && end + n <= cap && end <= 0xffff) {
				memcpy(out + end, rec + off, n);
				uint32_t nloc = end | n << 16;
				memcpy(out + t->offset, &nloc, 4);
				end += n;
			}
		}
	}
	return end;
}

static void emit(void *ctx, uint32_t cpu, uint64_t ts, uint8_t *rec, uint32_t len)
{
	struct ns_bridge *b = ctx;
	uint16_t id;
	memcpy(&id, rec, 2);
	if (id == 0 || id > b->nr_cv)
		return;
	const struct conv *v = &b->cv[id - 1];
	int32_t pid;
	memcpy(&pid, rec + 4, 4);
	if (own_task(b, pid)) {
		b->own++;
		return;
	}
	/* Names the record gives, then the name of the task it ran in. */
	for (int i = 0; i < v->nr_names; i++) {
		const struct uft_field *c = &v->kf.fields[v->names[i].comm];
		const struct uft_field *p = &v->kf.fields[v->names[i].pid];
		if (c->offset + 16 > len || p->offset + 4 > len || c->size < 16)
			continue;
		char comm[17];
		int32_t who;
		memcpy(comm, rec + c->offset, 16);
		comm[16] = 0;
		memcpy(&who, rec + p->offset, 4);
		note(b, who, comm);
	}
	if (v->exec_file >= 0)
		note_exec(b, v, pid, rec, len);
	uint32_t room = UFT_CTL_MAX_IO - UFT_INJECT_HDR_SIZE;
	if (b->blen + UFT_INJECT_HDR_SIZE + v->fixed + len + 8 > UFT_CTL_MAX_IO)
		flush_batch(b);
	uint8_t *out = b->batch + b->blen + UFT_INJECT_HDR_SIZE;
	uint32_t n = convert(v, rec, len, out, room - (uint32_t)b->blen);
	if (!n) {
		b->unsent++;
		return;
	}
	struct uft_inject_hdr h = {.len = n, .cpu = cpu, .mono_ns = ts};
	comm_of(b, pid, h.comm);
	memcpy(b->batch + b->blen, &h, sizeof(h));
	b->blen = UFT_INJECT_ALIGN(b->blen + UFT_INJECT_HDR_SIZE + n);
	b->bn++;
}

static void sync_locked(struct ns_bridge *b, bool all)
{
	pt_kreader_drain(&b->r, b->map, &b->m);
	pt_kmerge_flush(&b->m, all, emit, b);
	flush_batch(b);
	for (int c = 0; c < b->r.ncpu; c++)
		b->lost += pt_kreader_take_lost(&b->r, c);
}

static uint64_t mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void ns_bridge_sync_since(struct ns_bridge *b, unsigned ms)
{
	if (!b)
		return;
	pthread_mutex_lock(&b->lock);
	uint64_t now = mono_ns();
	if (!ms || !b->last_ns || now - b->last_ns >= (uint64_t)ms * 1000000u) {
		sync_locked(b, true);
		/* a full sync lets the next look sync again */
		b->last_ns = ms ? now : 0;
	}
	pthread_mutex_unlock(&b->lock);
}

void ns_bridge_sync(struct ns_bridge *b)
{
	ns_bridge_sync_since(b, 0);
}

static void *run(void *arg)
{
	struct ns_bridge *b = arg;
	struct timespec ts = {0, SYNC_MS * 1000000L};
	while (!b->stop) {
		ns_bridge_sync(b);
		nanosleep(&ts, NULL);
	}
	return NULL;
}

int ns_bridge_start(struct ns_bridge *b)
{
	int rc = pthread_create(&b->th, NULL, run, b);
	b->running = rc == 0;
	return -rc;
}

/* ---- the instance ---- */

/* Neither this process nor the program: the program writes its own
 * events, and this one's reading would feed itself. Threads made later
 * are left out as their records come (own_task). */
static void exclude(struct ns_bridge *b)
{
	pt_ki_exclude_self(b->dir);
	char p[64];
	snprintf(p, sizeof(p), "/proc/%d/task", (int)b->target);
	DIR *d = opendir(p);
	struct dirent *de;
	while (d && (de = readdir(d)))
		if (atoi(de->d_name) > 0)
			pt_ki_write(b->dir, "set_event_notrace_pid", de->d_name, true);
	if (d)
		closedir(d);
}

struct ns_bridge *ns_bridge_open(struct uft_ctl_conn *c, pid_t target, const char *systems,
				 char *err, size_t errlen)
{
	struct ns_bridge *b = calloc(1, sizeof(*b));
	char path[600];
	if (!b || !(b->map = calloc(65536, sizeof(*b->map)))) {
		snprintf(err, errlen, "out of memory");
		free(b);
		uft_ctl_close(c);
		return NULL;
	}
	b->c = c;
	b->target = target;
	b->inst_fd = b->instances_fd = -1;
	pthread_mutex_init(&b->lock, NULL);
	if (pt_ki_create(path, sizeof(path), err, errlen) != 0)
		goto fail;
	const char *slash = strrchr(path, '/');
	snprintf(b->inst_name, sizeof(b->inst_name), "%s", slash + 1);
	char parent[512];
	snprintf(parent, sizeof(parent), "%.*s", (int)(slash - path), path);
	b->instances_fd = open(parent, O_PATH | O_DIRECTORY | O_CLOEXEC);
	b->inst_fd = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (b->inst_fd < 0 || b->instances_fd < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		goto fail;
	}
	/* Reached through our descriptor once the tree hides the mount. */
	snprintf(b->dir, sizeof(b->dir), "/proc/self/fd/%d", b->inst_fd);
	pt_ki_write(b->dir, "trace_clock", "mono", false);
	exclude(b);
	int n = add_events(b, systems);
	if (n <= 0) {
		snprintf(err, errlen,
			 "no event of the systems \"%s\" is both the program's and "
			 "the kernel's",
			 systems);
		goto fail;
	}
	if (pt_kreader_open(&b->r, b->dir) != 0) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	pt_ki_write(b->dir, "tracing_on", "1", false);
	return b;
fail:
	ns_bridge_close(b, NULL);
	return NULL;
}

void ns_bridge_close(struct ns_bridge *b, FILE *out)
{
	if (!b)
		return;
	if (b->running) {
		b->stop = 1;
		pthread_join(b->th, NULL);
	}
	if (b->r.fd) {
		pt_ki_write(b->dir, "tracing_on", "0", false);
		pthread_mutex_lock(&b->lock);
		sync_locked(b, true);
		pt_kreader_stats(&b->r);
		for (int c = 0; c < b->r.ncpu; c++)
			b->lost += pt_kreader_take_lost(&b->r, c);
		pthread_mutex_unlock(&b->lock);
		pt_kreader_close(&b->r);
	}
	if (b->inst_fd >= 0) {
		pt_ki_write(b->dir, "events/enable", "0", false);
		close(b->inst_fd);
	}
	if (b->instances_fd >= 0) {
		/* the kernel refuses while a reader still holds a per-CPU file */
		if (unlinkat(b->instances_fd, b->inst_name, AT_REMOVEDIR) != 0 && errno == EBUSY) {
			usleep(10000);
			unlinkat(b->instances_fd, b->inst_name, AT_REMOVEDIR);
		}
		close(b->instances_fd);
	}
	if (out && b->nr_cv)
		fprintf(out,
			"uft ns: kernel events: %" PRIu64 " sent, %" PRIu64 " taken, %" PRIu64
			" refused by the program, %" PRIu64 " lost in the kernel, %" PRIu64
			" not sent, %" PRIu64 " of this process's and the program's threads "
			"left out\n",
			b->sent, b->taken, b->refused, b->lost, b->unsent, b->own);
	pt_kmerge_free(&b->m);
	for (size_t i = 0; i < b->nr_cv; i++)
		conv_free(&b->cv[i]);
	free(b->cv);
	free(b->map);
	uft_ctl_close(b->c);
	pthread_mutex_destroy(&b->lock);
	free(b);
}
