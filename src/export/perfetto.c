/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The Perfetto sink: a Trace message written as a stream of TracePacket
 * fields, so it never needs to be whole in memory. One packet sequence
 * (id 1) carries everything; function names are interned on it (sent once,
 * then named by iid), each thread is a track under a process track, each
 * --counter a counter track. Timestamps are absolute, in the file's clock
 * units. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "export/formats.h"
#include "export/pb.h"
#include "export/perfetto_proto.h"

#define SEQ 1
#define FLUSH_AT (256u << 10)
/* Small uuids make short varints: every slice names its track. */
#define UUID_PROCESS(pid) ((uint64_t)(uint32_t)(pid)*4 + 1)
#define UUID_THREAD(pid) ((uint64_t)(uint32_t)(pid)*4 + 2)
#define UUID_COUNTER(i) ((uint64_t)(i)*4 + 3)

struct pf {
	FILE *out;
	struct pb p;
	uint8_t *sent; /* name ids already interned */
	uint32_t nsent;
	unsigned counters_described;
};

static int flush(struct pf *f, bool force)
{
	if (f->p.oom)
		return -ENOMEM;
	if (!force && f->p.len < FLUSH_AT)
		return 0;
	if (f->p.len && fwrite(f->p.buf, 1, f->p.len, f->out) != f->p.len)
		return -EIO;
	pb_reset(&f->p);
	return 0;
}

static void packet(struct pf *f, uint64_t ts, bool timed)
{
	pb_begin(&f->p, PF_TRACE_PACKET);
	if (timed)
		pb_uint(&f->p, PF_PKT_TIMESTAMP, ts);
	pb_uint(&f->p, PF_PKT_SEQ_ID, SEQ);
}

static int packet_end(struct pf *f)
{
	pb_end(&f->p);
	return flush(f, false);
}

static int pf_thread(void *ctx, struct exp *x, struct exp_thread *t)
{
	struct pf *f = ctx;
	const char *comm = exp_comm(x, t->pid);
	packet(f, 0, false);
	pb_begin(&f->p, PF_PKT_TRACK_DESCRIPTOR);
	pb_uint(&f->p, PF_TD_UUID, UUID_PROCESS(t->pid));
	pb_begin(&f->p, PF_TD_PROCESS);
	pb_int(&f->p, PF_PROC_PID, t->pid);
	pb_str(&f->p, PF_PROC_NAME, comm);
	pb_end(&f->p);
	pb_end(&f->p);
	pb_end(&f->p);
	packet(f, 0, false);
	pb_begin(&f->p, PF_PKT_TRACK_DESCRIPTOR);
	pb_uint(&f->p, PF_TD_UUID, UUID_THREAD(t->pid));
	pb_uint(&f->p, PF_TD_PARENT_UUID, UUID_PROCESS(t->pid));
	pb_begin(&f->p, PF_TD_THREAD);
	pb_int(&f->p, PF_THREAD_PID, t->pid);
	pb_int(&f->p, PF_THREAD_TID, t->pid);
	pb_str(&f->p, PF_THREAD_NAME, comm);
	pb_end(&f->p);
	pb_end(&f->p);
	return packet_end(f);
}

/* A slice packet's header, with the name's interning when it is new. */
static int slice_packet(struct pf *f, struct exp *x, uint64_t ts, uint32_t name, bool named)
{
	if (name >= f->nsent) {
		uint32_t n = f->nsent ? f->nsent : 1024;
		while (n <= name)
			n *= 2;
		uint8_t *s = realloc(f->sent, n);
		if (!s)
			return -ENOMEM;
		memset(s + f->nsent, 0, n - f->nsent);
		f->sent = s;
		f->nsent = n;
	}
	packet(f, ts, true);
	if (!named)
		return 0; /* a slice end refers to no interned name */
	pb_uint(&f->p, PF_PKT_SEQ_FLAGS, PF_SEQ_NEEDS_INCREMENTAL_STATE);
	if (!f->sent[name]) {
		f->sent[name] = 1;
		pb_begin(&f->p, PF_PKT_INTERNED_DATA);
		pb_begin(&f->p, PF_INTERNED_EVENT_NAMES);
		pb_uint(&f->p, PF_EVENT_NAME_IID, name + 1ull);
		pb_str(&f->p, PF_EVENT_NAME_NAME, exp_name(x, name));
		pb_end(&f->p);
		pb_end(&f->p);
	}
	return 0;
}

static int slice_event(struct pf *f, struct exp *x, int pid, uint64_t ts, uint32_t name,
		       unsigned type)
{
	int rc = slice_packet(f, x, ts, name, type == PF_TYPE_SLICE_BEGIN);
	if (rc)
		return rc;
	pb_begin(&f->p, PF_PKT_TRACK_EVENT);
	pb_uint(&f->p, PF_TE_TYPE, type);
	pb_uint(&f->p, PF_TE_TRACK_UUID, UUID_THREAD(pid));
	if (type == PF_TYPE_SLICE_BEGIN)
		pb_uint(&f->p, PF_TE_NAME_IID, name + 1ull);
	pb_end(&f->p);
	return packet_end(f);
}

static int pf_begin(void *ctx, struct exp *x, struct exp_thread *t, struct exp_frame *fr)
{
	return slice_event(ctx, x, t->pid, fr->ts, fr->name, PF_TYPE_SLICE_BEGIN);
}

static int pf_end(void *ctx, struct exp *x, struct exp_thread *t, struct exp_frame *fr, uint64_t ts)
{
	return slice_event(ctx, x, t->pid, ts, fr->name, PF_TYPE_SLICE_END);
}

static int pf_complete(void *ctx, struct exp *x, struct exp_thread *t, uint64_t ts, uint64_t dur,
		       uint64_t self, uint32_t name)
{
	(void)self;
	int rc = slice_event(ctx, x, t->pid, ts, name, PF_TYPE_SLICE_BEGIN);
	return rc ? rc : slice_event(ctx, x, t->pid, ts + dur, name, PF_TYPE_SLICE_END);
}

static int annotate(void *arg, const struct exp_field *v)
{
	struct pb *p = arg;
	pb_begin(p, PF_TE_DEBUG_ANNOTATIONS);
	pb_str(p, PF_DA_NAME, v->name);
	if (v->kind == EXP_STR)
		pb_bytes(p, PF_DA_STRING, v->s, v->slen);
	else if (v->kind == EXP_INT)
		pb_int(p, PF_DA_INT, v->i);
	else
		pb_uint(p, PF_DA_UINT, v->u);
	pb_end(p);
	return 0;
}

static int pf_instant(void *ctx, struct exp *x, struct exp_thread *t, const struct exp_rec *r)
{
	(void)x;
	struct pf *f = ctx;
	packet(f, r->ts, true);
	pb_begin(&f->p, PF_PKT_TRACK_EVENT);
	pb_uint(&f->p, PF_TE_TYPE, PF_TYPE_INSTANT);
	pb_uint(&f->p, PF_TE_TRACK_UUID, UUID_THREAD(t->pid));
	pb_str(&f->p, PF_TE_CATEGORIES, r->system);
	pb_str(&f->p, PF_TE_NAME, r->name);
	struct exp_field cpu = {.name = "cpu", .kind = EXP_INT, .i = r->cpu};
	annotate(&f->p, &cpu);
	exp_fields(r, annotate, &f->p);
	if (r->stack) {
		struct exp_field st = {.name = "stack", .kind = EXP_STR, .s = r->stack};
		st.slen = strlen(r->stack);
		annotate(&f->p, &st);
	}
	pb_end(&f->p);
	return packet_end(f);
}

static int pf_counter(void *ctx, struct exp *x, struct exp_thread *t, unsigned which, uint64_t ts,
		      int64_t v)
{
	(void)t;
	struct pf *f = ctx;
	if (!(f->counters_described & (1u << which))) {
		f->counters_described |= 1u << which;
		packet(f, 0, false);
		pb_begin(&f->p, PF_PKT_TRACK_DESCRIPTOR);
		pb_uint(&f->p, PF_TD_UUID, UUID_COUNTER(which));
		pb_str(&f->p, PF_TD_NAME, exp_counter_name(x, which));
		pb_begin(&f->p, PF_TD_COUNTER);
		pb_end(&f->p);
		pb_end(&f->p);
		pb_end(&f->p);
	}
	packet(f, ts, true);
	pb_begin(&f->p, PF_PKT_TRACK_EVENT);
	pb_uint(&f->p, PF_TE_TYPE, PF_TYPE_COUNTER);
	pb_uint(&f->p, PF_TE_TRACK_UUID, UUID_COUNTER(which));
	pb_int(&f->p, PF_TE_COUNTER_VALUE, v);
	pb_end(&f->p);
	return packet_end(f);
}

static int pf_finish(void *ctx, struct exp *x)
{
	(void)x;
	return flush(ctx, true);
}

int export_perfetto(struct trace_file *tf, const struct exp_opts *o, FILE *out, FILE *err)
{
	struct pf f = {.out = out};
	/* The sequence starts with its incremental state (the interned
	 * names) cleared. */
	packet(&f, 0, false);
	pb_uint(&f.p, PF_PKT_SEQ_FLAGS, PF_SEQ_INCREMENTAL_STATE_CLEARED);
	pb_end(&f.p);
	struct exp_sink s = {
	    .ctx = &f,
	    .thread = pf_thread,
	    .begin = pf_begin,
	    .end = pf_end,
	    .complete = pf_complete,
	    .instant = pf_instant,
	    .counter = pf_counter,
	    .finish = pf_finish,
	};
	int rc = exp_run(tf, o, &s, err);
	pb_free(&f.p);
	free(f.sent);
	return rc;
}
