/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Writes a small kernel trace.dat with the kernel's own formats (x86_64,
 * 6.x layouts) of sched:sched_switch, sched:sched_waking,
 * raw_syscalls:sys_enter, raw_syscalls:sys_exit and kmem:kmalloc, through
 * uft's trace.dat writer: two CPUs, a fixed story of syscalls, allocations,
 * wake-ups and context switches (tasks blocking in read, fsync and futex)
 * whose histograms the tests know exactly.
 *
 *   kernel_dat [-n REPEAT] OUT.dat
 *
 * -n repeats the story REPEAT times, each 10 ms after the previous one
 * (benchmarks use a large file). */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wire/page.h"
#include "kernel_formats.h"
#include "syscall_formats.h"
#include "tracedat/tracedat.h"

#define PAGE 4096
#define NR_CPUS 2
#define BASE_NS 1000000000000ull /* 1000 s */
#define REPEAT_NS 10000000ull	 /* 10 ms */

static const char kf_sys_exit[] =
    "name: sys_exit\n"
    "ID: 21\n"
    "format:\n" KF_COMMON "\tfield:long id;\toffset:8;\tsize:8;\tsigned:1;\n"
    "\tfield:long ret;\toffset:16;\tsize:8;\tsigned:1;\n"
    "\n"
    "print fmt: \"NR %ld = %ld\", REC->id, REC->ret\n";
#define KF_SYS_EXIT_ID 21
#define KF_SCHED_WAKING_ID 318

static const char kallsyms[] = "ffffffff81000000 T _stext\n"
			       "ffffffff81356a10 T seq_read_iter\n"
			       "ffffffff813ff2a0 T ext4_file_write_iter\n"
			       "ffffffff81a4c8d0 T tcp_sendmsg_locked\n"
			       "ffffffff81b01000 T _etext\n";

static const struct {
	int pid;
	const char *comm;
} tasks[] = {
    {1301, "bash"},	 {1300, "sshd"},	   {3723, "kworker/u4:2"},
    {14, "rcu_preempt"}, {570, "systemd-journal"},
};

static const char *comm_of(int pid, int cpu)
{
	if (pid == 0)
		return cpu ? "swapper/1" : "swapper/0";
	for (size_t i = 0; i < sizeof(tasks) / sizeof(tasks[0]); i++)
		if (tasks[i].pid == pid)
			return tasks[i].comm;
	return "?";
}

enum kind { SYS_ENTER, SYS_EXIT, KMALLOC, WAKING, SWITCH };

/* One step of the story: on `cpu` at `us` microseconds, task `pid`
 * (common_pid) does `kind`. SYS_ENTER: a = syscall id; SYS_EXIT: a = id,
 * b = return value; KMALLOC: a = bytes requested, b = call site index;
 * WAKING: a = woken pid; SWITCH: a = next pid, b = prev_state. */
struct step {
	int cpu;
	unsigned us;
	enum kind kind;
	int pid;
	long a, b;
};

#define S_RUNNING 0
#define S_INTERRUPTIBLE 1
#define S_UNINTERRUPTIBLE 2

static const struct step story[] = {
    /* CPU 0: bash reads, writes, sleeps in read, runs again */
    {0, 100, SYS_ENTER, 1301, 0, 0},
    {0, 110, KMALLOC, 1301, 64, 0},
    {0, 120, SYS_ENTER, 1301, 1, 0},
    {0, 125, SYS_EXIT, 1301, 1, 5},
    {0, 130, KMALLOC, 1301, 128, 1},
    {0, 140, SYS_ENTER, 1301, 0, 0},
    {0, 150, SWITCH, 1301, 0, S_INTERRUPTIBLE},
    {0, 300, WAKING, 0, 1301, 0},
    {0, 348, SWITCH, 0, 1301, S_RUNNING},
    {0, 360, SYS_ENTER, 1301, 14, 0},
    {0, 365, SYS_EXIT, 1301, 14, 0},
    {0, 370, SYS_ENTER, 1301, 14, 0},
    {0, 380, KMALLOC, 1301, 32, 0},
    {0, 400, SYS_ENTER, 1301, 257, 0},
    {0, 410, WAKING, 1301, 3723, 0},
    {0, 415, KMALLOC, 1301, 256, 0},
    {0, 420, SYS_ENTER, 1301, 0, 0},
    {0, 430, SWITCH, 1301, 3723, S_UNINTERRUPTIBLE},
    {0, 440, KMALLOC, 3723, 512, 1},
    {0, 450, WAKING, 3723, 1301, 0},
    {0, 462, SWITCH, 3723, 1301, S_INTERRUPTIBLE},
    {0, 470, SYS_ENTER, 1301, 1, 0},
    {0, 480, KMALLOC, 1301, 64, 0},
    {0, 5390, SYS_ENTER, 1301, 1, 0},
    {0, 5400, WAKING, 1301, 1300, 0},
    {0, 5410, SYS_ENTER, 1301, 61, 0},
    {0, 5415, SWITCH, 1301, 0, S_INTERRUPTIBLE},
    /* CPU 1: sshd, rcu_preempt, systemd-journal blocking in fsync and futex */
    {1, 105, SYS_ENTER, 1300, 23, 0},
    {1, 115, SWITCH, 1300, 0, S_INTERRUPTIBLE},
    {1, 200, WAKING, 0, 14, 0},
    {1, 203, SWITCH, 0, 14, S_RUNNING},
    {1, 210, WAKING, 14, 1300, 0},
    {1, 215, SWITCH, 14, 1300, S_INTERRUPTIBLE},
    {1, 220, SYS_ENTER, 1300, 0, 0},
    {1, 225, KMALLOC, 1300, 512, 2},
    {1, 230, SYS_ENTER, 1300, 1, 0},
    {1, 235, SYS_EXIT, 1300, 1, 36},
    {1, 240, KMALLOC, 1300, 1024, 2},
    {1, 250, SYS_ENTER, 1300, 23, 0},
    {1, 260, SWITCH, 1300, 570, S_INTERRUPTIBLE},
    {1, 270, SYS_ENTER, 570, 74, 0},
    {1, 275, KMALLOC, 570, 4096, 1},
    {1, 280, SWITCH, 570, 0, S_UNINTERRUPTIBLE},
    {1, 5280, WAKING, 0, 570, 0},
    {1, 5339, SWITCH, 0, 570, S_RUNNING},
    {1, 5350, SYS_ENTER, 570, 202, 0},
    {1, 5360, SWITCH, 570, 0, S_UNINTERRUPTIBLE},
    {1, 5420, SWITCH, 0, 1300, S_RUNNING},
    {1, 5440, SYS_ENTER, 1300, 0, 0},
    {1, 5450, SWITCH, 1300, 0, S_INTERRUPTIBLE},
    {1, 5500, WAKING, 0, 14, 0},
    {1, 5504, SWITCH, 0, 14, S_RUNNING},
    {1, 5510, WAKING, 14, 570, 0},
    {1, 5523, SWITCH, 14, 570, S_INTERRUPTIBLE},
};

static const uint64_t call_sites[] = {0xffffffff81356a4cull, 0xffffffff813ff31bull,
				      0xffffffff81a4c9e2ull};

static void put32(uint8_t *r, unsigned off, int32_t v)
{
	memcpy(r + off, &v, 4);
}

static void put64(uint8_t *r, unsigned off, uint64_t v)
{
	memcpy(r + off, &v, 8);
}

static void header(uint8_t *r, uint16_t type, int pid, uint8_t flags, uint8_t preempt)
{
	memcpy(r, &type, 2);
	r[2] = flags;
	r[3] = preempt;
	put32(r, 4, pid);
}

static void comm16(uint8_t *r, unsigned off, const char *comm)
{
	size_t n = strlen(comm);
	memcpy(r + off, comm, n < 15 ? n : 15);
}

/* The record of a step; returns its length. */
static uint32_t build(const struct step *s, uint8_t *r)
{
	memset(r, 0, 64);
	switch (s->kind) {
	case SYS_ENTER:
		header(r, KF_SYS_ENTER_ID, s->pid, 0, 0);
		put64(r, 8, (uint64_t)s->a);
		put64(r, 16, 3); /* args[0]: a file descriptor */
		return 64;
	case SYS_EXIT:
		header(r, KF_SYS_EXIT_ID, s->pid, 0, 0);
		put64(r, 8, (uint64_t)s->a);
		put64(r, 16, (uint64_t)s->b);
		return 24;
	case KMALLOC: {
		uint64_t alloc = 8;
		while (alloc < (uint64_t)s->a)
			alloc *= 2;
		header(r, KF_KMALLOC_ID, s->pid, 0, 0);
		put64(r, 8, call_sites[s->b]);
		put64(r, 16, 0xffff888004a1c000ull + (uint64_t)s->us * 0x40);
		put64(r, 24, (uint64_t)s->a);
		put64(r, 32, alloc);
		put64(r, 40, 0xcc0); /* GFP_KERNEL */
		put32(r, 48, -1);    /* NUMA_NO_NODE */
		return 56;
	}
	case WAKING:
		header(r, KF_SCHED_WAKING_ID, s->pid, 1, 2);
		comm16(r, 8, comm_of((int)s->a, s->cpu));
		put32(r, 24, (int32_t)s->a);
		put32(r, 28, s->a == 14 ? 98 : 120);
		put32(r, 32, s->a == 1301 || s->a == 3723 ? 0 : 1); /* where it runs */
		return 36;
	case SWITCH:
		header(r, KF_SCHED_SWITCH_ID, s->pid, 1, 2);
		comm16(r, 8, comm_of(s->pid, s->cpu));
		put32(r, 24, s->pid);
		put32(r, 28, s->pid == 0 ? 120 : s->pid == 14 ? 98 : 120);
		put64(r, 32, (uint64_t)s->b);
		comm16(r, 40, comm_of((int)s->a, s->cpu));
		put32(r, 56, (int32_t)s->a);
		put32(r, 60, s->a == 0 ? 120 : s->a == 14 ? 98 : 120);
		return 64;
	}
	return 0;
}

struct cpu_pages {
	uint8_t page[PAGE];
	struct uft_page_builder b;
};

static int flush(struct tracedat_writer *w, int cpu, struct cpu_pages *c)
{
	uft_page_builder_finish(&c->b, 0);
	int rc = tracedat_writer_add_page(w, cpu, c->page);
	uft_page_builder_init(&c->b, c->page, PAGE);
	return rc;
}

int main(int argc, char **argv)
{
	unsigned long repeat = 1;
	int argi = 1;

	if (argc == 4 && !strcmp(argv[1], "-n")) {
		repeat = strtoul(argv[2], NULL, 10);
		argi = 3;
	}
	if (argc != argi + 1 || repeat == 0) {
		fprintf(stderr, "usage: kernel_dat [-n REPEAT] OUT.dat\n");
		return 2;
	}
	struct tracedat_writer *w = tracedat_writer_open(argv[argi], NR_CPUS, PAGE, "local");
	if (!w) {
		perror(argv[argi]);
		return 1;
	}
	static struct cpu_pages cpus[NR_CPUS];
	int rc = 0;
	for (int c = 0; c < NR_CPUS; c++)
		uft_page_builder_init(&cpus[c].b, cpus[c].page, PAGE);
	for (unsigned long n = 0; n < repeat && !rc; n++) {
		for (size_t i = 0; i < sizeof(story) / sizeof(story[0]) && !rc; i++) {
			const struct step *s = &story[i];
			struct cpu_pages *c = &cpus[s->cpu];
			uint8_t r[64];
			uint32_t len = build(s, r);
			uint64_t ts = BASE_NS + n * REPEAT_NS + (uint64_t)s->us * 1000;
			if (uft_page_builder_add(&c->b, ts, r, len) == -1) {
				rc = flush(w, s->cpu, c);
				if (!rc && uft_page_builder_add(&c->b, ts, r, len))
					rc = -EINVAL;
			}
		}
	}
	for (int c = 0; c < NR_CPUS && !rc; c++)
		if (cpus[c].b.nr_records)
			rc = flush(w, c, &cpus[c]);
	rc = rc ? rc : tracedat_writer_add_format(w, "sched", kf_sched_switch);
	rc = rc ? rc : tracedat_writer_add_format(w, "sched", kf_sched_waking);
	rc = rc ? rc : tracedat_writer_add_format(w, "raw_syscalls", kf_sys_enter);
	rc = rc ? rc : tracedat_writer_add_format(w, "raw_syscalls", kf_sys_exit);
	rc = rc ? rc : tracedat_writer_add_format(w, "kmem", kf_kmalloc);
	for (size_t i = 0; !rc && i < sizeof(tasks) / sizeof(tasks[0]); i++)
		rc = tracedat_writer_add_cmdline(w, tasks[i].pid, tasks[i].comm);
	rc = rc ? rc : tracedat_writer_set_kallsyms(w, kallsyms, strlen(kallsyms));
	if (rc) {
		tracedat_writer_abort(w);
		fprintf(stderr, "kernel_dat: %s\n", strerror(-rc));
		return 1;
	}
	rc = tracedat_writer_close(w);
	if (rc) {
		fprintf(stderr, "kernel_dat: %s\n", strerror(-rc));
		return 1;
	}
	return 0;
}
