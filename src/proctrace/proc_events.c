/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The process tracer's events: format texts equal to the kernel's format
 * files (this kernel's sched, raw_syscalls, signal and syscalls events; the
 * ID line carries the local id) and records at those offsets. Two events are
 * uft's own, system "process": clone_flags (thread or process) and
 * exit_status (code and signal), which the kernel's events do not carry. */
#include "proctrace/proc_events.h"
#include "proctrace/proctrace.h"
#include "proctrace/kernel_backend.h"
#include "proctrace/syscall_table.h"
#include "proctrace/tracee_string.h"

#include <uft/event.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct field {
	const char *type, *name;
	unsigned offset, size, is_signed;
};

struct fixed_event {
	const char *system, *name;
	struct field fields[8];
	const char *print_fmt;
};

static const struct fixed_event fixed[PT_ID_FIXED_END] = {
    [PT_ID_FORK] = {"sched",
		    "sched_process_fork",
		    {{"__data_loc char[]", "parent_comm", 8, 4, 0},
		     {"pid_t", "parent_pid", 12, 4, 1},
		     {"__data_loc char[]", "child_comm", 16, 4, 0},
		     {"pid_t", "child_pid", 20, 4, 1}},
		    "\"comm=%s pid=%d child_comm=%s child_pid=%d\", __get_str(parent_comm), "
		    "REC->parent_pid, __get_str(child_comm), REC->child_pid"},
    [PT_ID_EXEC] =
	{"sched",
	 "sched_process_exec",
	 {{"__data_loc char[]", "filename", 8, 4, 0},
	  {"pid_t", "pid", 12, 4, 1},
	  {"pid_t", "old_pid", 16, 4, 1}},
	 "\"filename=%s pid=%d old_pid=%d\", __get_str(filename), REC->pid, REC->old_pid"},
    [PT_ID_EXIT] = {"sched",
		    "sched_process_exit",
		    {{"char", "comm[16]", 8, 16, 0},
		     {"pid_t", "pid", 24, 4, 1},
		     {"int", "prio", 28, 4, 1},
		     {"bool", "group_dead", 32, 1, 0}},
		    "\"comm=%s pid=%d prio=%d group_dead=%s\", REC->comm, REC->pid, REC->prio, "
		    "REC->group_dead ? \"true\" : \"false\""},
    [PT_ID_CLONE_FLAGS] =
	{"process",
	 "clone_flags",
	 {{"pid_t", "parent_pid", 8, 4, 1},
	  {"pid_t", "child_pid", 12, 4, 1},
	  {"u64", "clone_flags", 16, 8, 0},
	  {"int", "thread", 24, 4, 1}},
	 "\"pid=%d child_pid=%d flags=0x%llx %s\", REC->parent_pid, REC->child_pid, "
	 "REC->clone_flags, REC->thread ? \"thread\" : \"process\""},
    [PT_ID_EXIT_STATUS] =
	{"process",
	 "exit_status",
	 {{"pid_t", "pid", 8, 4, 1},
	  {"int", "exit_code", 12, 4, 1},
	  {"int", "signal", 16, 4, 1},
	  {"int", "core_dumped", 20, 4, 1}},
	 "\"pid=%d code=%d sig=%d core=%d\", REC->pid, REC->exit_code, REC->signal, "
	 "REC->core_dumped"},
    [PT_ID_RAW_ENTER] = {"raw_syscalls",
			 "sys_enter",
			 {{"long", "id", 8, 8, 1}, {"unsigned long", "args[6]", 16, 48, 0}},
			 NULL /* raw_print_fmt() */},
    [PT_ID_RAW_EXIT] = {"raw_syscalls",
			"sys_exit",
			{{"long", "id", 8, 8, 1}, {"long", "ret", 16, 8, 1}},
			NULL /* raw_print_fmt() */},
    [PT_ID_SIG_GENERATE] = {"signal",
			    "signal_generate",
			    {{"int", "sig", 8, 4, 1},
			     {"int", "errno", 12, 4, 1},
			     {"int", "code", 16, 4, 1},
			     {"char", "comm[16]", 20, 16, 0},
			     {"pid_t", "pid", 36, 4, 1},
			     {"int", "group", 40, 4, 1},
			     {"int", "result", 44, 4, 1}},
			    "\"sig=%d errno=%d code=%d comm=%s pid=%d grp=%d res=%d\", REC->sig, "
			    "REC->errno, REC->code, REC->comm, REC->pid, REC->group, REC->result"},
    [PT_ID_SIG_DELIVER] = {"signal",
			   "signal_deliver",
			   {{"int", "sig", 8, 4, 1},
			    {"int", "errno", 12, 4, 1},
			    {"int", "code", 16, 4, 1},
			    {"unsigned long", "sa_handler", 24, 8, 0},
			    {"unsigned long", "sa_flags", 32, 8, 0}},
			   "\"sig=%d errno=%d code=%d sa_handler=%lx sa_flags=%lx\", REC->sig, "
			   "REC->errno, REC->code, REC->sa_handler, REC->sa_flags"},
};

struct text {
	char *buf;
	size_t len, off;
};

static void put(struct text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(struct text *t, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(t->off < t->len ? t->buf + t->off : NULL,
			  t->off < t->len ? t->len - t->off : 0, fmt, ap);
	va_end(ap);
	if (n > 0)
		t->off += (size_t)n;
}

static void put_field(struct text *t, const char *type, const char *name, unsigned offset,
		      unsigned size, unsigned is_signed)
{
	put(t, "\tfield:%s %s;\toffset:%u;\tsize:%u;\tsigned:%u;\n", type, name, offset, size,
	    is_signed);
}

static void put_head(struct text *t, const char *name, unsigned id)
{
	put(t, "name: %s\nID: %u\nformat:\n", name, id);
	put_field(t, "unsigned short", "common_type", 0, 2, 0);
	put_field(t, "unsigned char", "common_flags", 2, 1, 0);
	put_field(t, "unsigned char", "common_preempt_count", 3, 1, 0);
	put_field(t, "int", "common_pid", 4, 4, 1);
	put(t, "\n");
}

/* A decoder's arguments with '@' replaced by the field's value: as a 32-bit
 * value for a 32-bit argument (its register's upper half is not the call's). */
static void put_decoded(struct text *t, const struct pt_syscall *s, unsigned i)
{
	const char *type = s->arg_type[i];
	bool narrow = !strcmp(type, "int") || !strcmp(type, "unsigned int");
	put(t, ", ");
	for (const char *p = pt_decoders[s->dec[i]].args; *p; p++)
		if (*p == '@')
			put(t, narrow ? "((unsigned int)REC->%s)" : "REC->%s", s->arg_name[i]);
		else
			put(t, "%c", *p);
}

static int syscall_format(unsigned id, const char **system, struct text *t)
{
	unsigned nr = (id - PT_ID_SYSCALL_BASE) / 2;
	bool enter = (id - PT_ID_SYSCALL_BASE) % 2 == 0;
	const struct pt_syscall *s = pt_syscall_by_nr(nr);
	if (!s || !s->event)
		return -1;
	*system = "syscalls";
	char name[80];
	snprintf(name, sizeof(name), "sys_%s_%s", enter ? "enter" : "exit", s->event);
	put_head(t, name, id);
	put_field(t, "int", "__syscall_nr", 8, 4, 1);
	if (!enter) {
		put_field(t, "long", "ret", 16, 8, 1);
		put(t, "\nprint fmt: \"%s%%s\", REC->ret, %s\n", s->ret_hex ? "0x%lx" : "%ld",
		    pt_errno_short);
		return (int)t->off;
	}
	for (unsigned i = 0; i < s->nargs; i++)
		put_field(t, s->arg_type[i], s->arg_name[i], 16 + 8 * i, 8, 0);
	/* the strings read from the tracee, after the kernel's fields */
	unsigned loc = 16 + 8 * s->nargs;
	for (unsigned i = 0; i < s->nargs; i++)
		if (s->str_args >> i & 1) {
			char f[64];
			snprintf(f, sizeof(f), "__%s_val", s->arg_name[i]);
			put_field(t, "__data_loc char[]", f, loc, 4, 0);
			loc += 4;
		}
	put(t, "\nprint fmt: \"");
	for (unsigned i = 0; i < s->nargs; i++) {
		const char *conv = s->dec[i] ? pt_decoders[s->dec[i]].conv : "0x%08lx";
		put(t, "%s%s: ", i ? ", " : "", s->arg_name[i]);
		for (const char *p = conv; *p; p++)
			put(t, *p == '%' ? "%%" : "%c", *p);
		if (s->str_args >> i & 1)
			put(t, " \\\"%%s\\\"");
	}
	put(t, "\"");
	for (unsigned i = 0; i < s->nargs; i++) {
		if (s->dec[i])
			put_decoded(t, s, i);
		else
			put(t, ", ((unsigned long)(REC->%s))", s->arg_name[i]);
		if (s->str_args >> i & 1)
			put(t, ", __get_str(__%s_val)", s->arg_name[i]);
	}
	put(t, "\n");
	return (int)t->off;
}

/* raw_syscalls' print fmts with the call's name beside its number (and the
 * error's name beside the return value); the fields stay the kernel's. */
static void put_names(struct text *t)
{
	put(t, "__print_symbolic(REC->id");
	for (unsigned i = 0; i < pt_nr_syscalls; i++)
		put(t, ", {0x%x, \"%s\"}", (unsigned)pt_syscalls[i].nr, pt_syscalls[i].name);
	put(t, ")");
}

static void raw_print_fmt(unsigned id, struct text *t)
{
	if (id == PT_ID_RAW_ENTER) {
		put(t,
		    "\nprint fmt: \"NR %%ld %%s (%%lx, %%lx, %%lx, %%lx, %%lx, %%lx)\", REC->id, ");
		put_names(t);
		for (int i = 0; i < 6; i++)
			put(t, ", REC->args[%d]", i);
		put(t, "\n");
		return;
	}
	put(t, "\nprint fmt: \"NR %%ld %%s = %%ld%%s\", REC->id, ");
	put_names(t);
	put(t, ", REC->ret, %s\n", pt_errno_all);
}

int pt_format_text(unsigned id, const char **system, char *buf, size_t len)
{
	struct text t = {buf, len, 0};
	if (len)
		buf[0] = 0;
	if (id >= PT_ID_SYSCALL_BASE && id < PT_ID_END)
		return syscall_format(id, system, &t);
	if (id == 0 || id >= PT_ID_FIXED_END)
		return -1;
	const struct fixed_event *e = &fixed[id];
	*system = e->system;
	put_head(&t, e->name, id);
	for (const struct field *f = e->fields; f < e->fields + 8 && f->name; f++)
		put_field(&t, f->type, f->name, f->offset, f->size, f->is_signed);
	if (id == PT_ID_RAW_ENTER || id == PT_ID_RAW_EXIT)
		raw_print_fmt(id, &t);
	else
		put(&t, "\nprint fmt: %s\n", e->print_fmt);
	return (int)t.off;
}

static bool id_wanted(const struct pt_options *o, unsigned id)
{
	switch (id) {
	case PT_ID_FORK:
	case PT_ID_EXEC:
	case PT_ID_EXIT:
	case PT_ID_CLONE_FLAGS:
	case PT_ID_EXIT_STATUS:
		return o->categories & PT_LIFECYCLE;
	case PT_ID_RAW_ENTER:
	case PT_ID_RAW_EXIT:
		return o->categories & PT_SYSCALLS;
	case PT_ID_SIG_GENERATE:
	case PT_ID_SIG_DELIVER:
		return o->categories & PT_SIGNALS;
	default:
		if (id < PT_ID_SYSCALL_BASE || !(o->categories & PT_SYSCALLS))
			return false;
		return o->all_syscalls ||
		       pt_sysset_has(&o->syscalls, (id - PT_ID_SYSCALL_BASE) / 2);
	}
}

int pt_for_each_format(const struct pt_options *o,
		       int (*fn)(void *ctx, unsigned id, const char *system, const char *text,
				 size_t len),
		       void *ctx)
{
	char *buf = malloc(PT_FORMAT_MAX);
	int rc = buf ? 0 : -1;
	for (unsigned id = 1; id < PT_ID_END && !rc; id++) {
		const char *system = NULL;
		if (!id_wanted(o, id))
			continue;
		int n = pt_format_text(id, &system, buf, PT_FORMAT_MAX);
		if (n < 0)
			continue;
		if (pt_k_selected(o)) /* the kernel's layout where it differs */
			n = pt_k_format_fixup(id, system, buf, PT_FORMAT_MAX, n);
		rc = (size_t)n >= PT_FORMAT_MAX ? -1 : fn(ctx, id, system, buf, (size_t)n);
	}
	free(buf);
	return rc;
}

/* Records. */

static void *head(struct pt_rec *r, unsigned id, pid_t tid, uint32_t len)
{
	memset(r->b, 0, len);
	struct uft_common_entry *e = (void *)r->b;
	e->type = (uint16_t)id;
	e->pid = tid;
	r->len = len;
	return r->b;
}

static void put_u32(struct pt_rec *r, unsigned off, uint32_t v)
{
	memcpy(r->b + off, &v, 4);
}

static void put_u64(struct pt_rec *r, unsigned off, uint64_t v)
{
	memcpy(r->b + off, &v, 8);
}

/* A __data_loc string at the record's end: (length << 16) | offset. */
static void put_loc(struct pt_rec *r, unsigned field, const char *s, size_t max)
{
	size_t n = strnlen(s ? s : "", max - 1) + 1;
	memcpy(r->b + r->len, s ? s : "", n - 1);
	r->b[r->len + n - 1] = 0;
	put_u32(r, field, (uint32_t)(n << 16 | r->len));
	r->len += (uint32_t)n;
}

static void put_comm(struct pt_rec *r, unsigned off, const char *comm)
{
	if (comm)
		memcpy(r->b + off, comm, strnlen(comm, 15));
}

void pt_rec_fork(struct pt_rec *r, pid_t tid, const char *parent_comm, pid_t child,
		 const char *child_comm)
{
	head(r, PT_ID_FORK, tid, 24);
	put_loc(r, 8, parent_comm, 16);
	put_u32(r, 12, (uint32_t)tid);
	put_loc(r, 16, child_comm, 16);
	put_u32(r, 20, (uint32_t)child);
}

void pt_rec_exec(struct pt_rec *r, pid_t tid, const char *filename, pid_t old_tid)
{
	head(r, PT_ID_EXEC, tid, 20);
	put_loc(r, 8, filename, 4096);
	put_u32(r, 12, (uint32_t)tid);
	put_u32(r, 16, (uint32_t)old_tid);
}

void pt_rec_exit(struct pt_rec *r, pid_t tid, const char *comm, int prio, bool group_dead)
{
	head(r, PT_ID_EXIT, tid, 36);
	put_comm(r, 8, comm);
	put_u32(r, 24, (uint32_t)tid);
	put_u32(r, 28, (uint32_t)prio);
	r->b[32] = group_dead;
}

void pt_rec_clone_flags(struct pt_rec *r, pid_t tid, pid_t child, uint64_t flags, bool thread)
{
	head(r, PT_ID_CLONE_FLAGS, tid, 28);
	put_u32(r, 8, (uint32_t)tid);
	put_u32(r, 12, (uint32_t)child);
	put_u64(r, 16, flags);
	put_u32(r, 24, thread);
}

void pt_rec_exit_status(struct pt_rec *r, pid_t tid, int code, int sig, bool core)
{
	head(r, PT_ID_EXIT_STATUS, tid, 24);
	put_u32(r, 8, (uint32_t)tid);
	put_u32(r, 12, (uint32_t)code);
	put_u32(r, 16, (uint32_t)sig);
	put_u32(r, 20, core);
}

void pt_rec_raw_enter(struct pt_rec *r, pid_t tid, long nr, const uint64_t args[6])
{
	head(r, PT_ID_RAW_ENTER, tid, 64);
	put_u64(r, 8, (uint64_t)nr);
	for (int i = 0; i < 6; i++)
		put_u64(r, 16 + 8 * (unsigned)i, args[i]);
}

void pt_rec_raw_exit(struct pt_rec *r, pid_t tid, long nr, long ret)
{
	head(r, PT_ID_RAW_EXIT, tid, 24);
	put_u64(r, 8, (uint64_t)nr);
	put_u64(r, 16, (uint64_t)ret);
}

static unsigned nr_strings(const struct pt_syscall *s)
{
	return (unsigned)__builtin_popcount(s->str_args);
}

bool pt_rec_sys_enter(struct pt_rec *r, pid_t tid, long nr, const uint64_t args[6], bool strings)
{
	const struct pt_syscall *s = pt_syscall_by_nr(nr);
	if (!s || !s->event || nr >= PT_MAX_SYSCALL)
		return false;
	unsigned loc = 16 + 8 * s->nargs;
	head(r, PT_ID_SYSCALL_BASE + 2 * (unsigned)nr, tid, loc + 4 * nr_strings(s));
	put_u32(r, 8, (uint32_t)nr);
	for (unsigned i = 0; i < s->nargs; i++)
		put_u64(r, 16 + 8 * i, args[i]);
	for (unsigned i = 0; i < s->nargs; i++) {
		if (!(s->str_args >> i & 1))
			continue;
		size_t n = 1;
		if (strings)
			n += pt_tracee_str(tid, args[i], (char *)r->b + r->len, PT_STR_MAX);
		else
			r->b[r->len] = 0;
		put_u32(r, loc, (uint32_t)(n << 16 | r->len));
		r->len += (uint32_t)n;
		loc += 4;
	}
	return true;
}

uint8_t *pt_rec_widen(unsigned id, uint8_t *rec, uint32_t *len, uint8_t wide[PT_WIDE_MAX])
{
	if (id < PT_ID_SYSCALL_BASE || id >= PT_ID_END || (id - PT_ID_SYSCALL_BASE) % 2)
		return rec;
	const struct pt_syscall *s = pt_syscall_by_nr((id - PT_ID_SYSCALL_BASE) / 2);
	unsigned base = 16 + 8 * (s ? s->nargs : 0u), k = s ? nr_strings(s) : 0;
	if (!k || *len < base || *len >= base + 4 * k) /* none, short, or its own strings */
		return rec;
	memcpy(wide, rec, base);
	for (unsigned j = 0; j < k; j++) {
		uint32_t v = 1u << 16 | (base + 4 * k + j); /* "" */
		memcpy(wide + base + 4 * j, &v, 4);
		wide[base + 4 * k + j] = 0;
	}
	*len = base + 5 * k;
	return wide;
}

/* A field line "\tfield:__data_loc char[] __NAME_val;..." and its length. */
static size_t val_field_line(const char *p, const char *end)
{
	static const char pre[] = "\tfield:__data_loc char[] __";
	const char *nl = memchr(p, '\n', (size_t)(end - p));
	if (!nl || (size_t)(nl - p) < sizeof(pre) || memcmp(p, pre, sizeof(pre) - 1))
		return 0;
	const char *semi = memchr(p, ';', (size_t)(nl - p));
	if (!semi || semi - p < (ptrdiff_t)sizeof(pre) + 3 || memcmp(semi - 4, "_val", 4))
		return 0;
	return (size_t)(nl + 1 - p);
}

bool pt_fields_widened(const char *ours, size_t la, const char *kernel, size_t lb)
{
	if (la <= lb || memcmp(ours, kernel, lb))
		return false;
	const char *p = ours + lb, *end = ours + la;
	size_t n;
	while ((n = val_field_line(p, end)))
		p += n;
	return p == end;
}

bool pt_rec_sys_exit(struct pt_rec *r, pid_t tid, long nr, long ret)
{
	const struct pt_syscall *s = pt_syscall_by_nr(nr);
	if (!s || !s->event || nr >= PT_MAX_SYSCALL)
		return false;
	head(r, PT_ID_SYSCALL_BASE + 2 * (unsigned)nr + 1, tid, 24);
	put_u32(r, 8, (uint32_t)nr);
	put_u64(r, 16, (uint64_t)ret);
	return true;
}

void pt_rec_sig_generate(struct pt_rec *r, pid_t tid, int sig, int err, int code, const char *comm,
			 pid_t pid, int group, int result)
{
	head(r, PT_ID_SIG_GENERATE, tid, 48);
	put_u32(r, 8, (uint32_t)sig);
	put_u32(r, 12, (uint32_t)err);
	put_u32(r, 16, (uint32_t)code);
	put_comm(r, 20, comm);
	put_u32(r, 36, (uint32_t)pid);
	put_u32(r, 40, (uint32_t)group);
	put_u32(r, 44, (uint32_t)result);
}

void pt_rec_sig_deliver(struct pt_rec *r, pid_t tid, int sig, int err, int code, uint64_t handler,
			uint64_t flags)
{
	head(r, PT_ID_SIG_DELIVER, tid, 40);
	put_u32(r, 8, (uint32_t)sig);
	put_u32(r, 12, (uint32_t)err);
	put_u32(r, 16, (uint32_t)code);
	put_u64(r, 24, handler);
	put_u64(r, 32, flags);
}
