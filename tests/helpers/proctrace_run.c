/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Runs the process tracer's engine on a command or a pid and prints each
 * event as one line, its body decoded by libtraceevent from the engine's
 * format texts (as `uft report` prints a record): the integration tests'
 * driver and a preview of `uft stream -p process`.
 *
 *   proctrace_run [-LSG] [-s SET] [-c COMM] [-u UID] [-t] [-o FILE] -- CMD ARGS
 *   proctrace_run [opts] -p PID           (-v: comms on stderr)
 *   proctrace_run -F SYSTEM:EVENT       the engine's format text of an event
 *   proctrace_run -A DIR                every format as DIR/SYSTEM/EVENT/format
 *   proctrace_run --kernel-usable       exit 0 if the kernel backend can run,
 *                                       else 77 with the reason on stdout
 *   proctrace_run -T                    the clock probe: prints the trace clock
 *                                       just before and after getpgid(0x7ffffff0)
 *
 * --backend ptrace|kernel picks the engine's backend (default: its AUTO).
 *
 * -L/-S/-G leave out lifecycle, syscall, signal events; -s a syscall set
 * ("openat,%file"); -t the tracer's CPU; -n only counts the events (the
 * engine's own cost, for measurements). Exits with the command's status
 * (128 + signal if killed), 2 on a refused argument or failed start. */
#include "proctrace/proctrace.h"
#include "proctrace/pt_clock.h"

#include <errno.h>
#include <event-parse.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static struct pt_session *session;
static FILE *out;

static int add_format(void *ctx, unsigned id, const char *system, const char *text, size_t len)
{
	struct tep_handle *tep = ctx;
	struct tep_event *ev = NULL;
	if (tep_parse_format(tep, &ev, text, len, system) != 0) {
		fprintf(stderr, "libtraceevent refused the format of id %u:\n%s", id, text);
		return -1;
	}
	return 0;
}

static int print_event(void *ctx, uint32_t cpu, uint64_t ts, const void *rec, uint32_t len)
{
	struct tep_handle *tep = ctx;
	int id = *(const uint16_t *)rec, pid = ((const int32_t *)rec)[1];
	struct tep_event *ev = tep_find_event(tep, id);
	if (!ev) {
		fprintf(out, "unknown event id %d\n", id);
		return 0;
	}
	struct tep_record r;
	memset(&r, 0, sizeof(r));
	r.ts = ts;
	r.cpu = (int)cpu;
	r.data = (void *)rec;
	r.size = (int)len;
	r.record_size = (int)len;
	struct trace_seq s;
	trace_seq_init(&s);
	tep_print_event(tep, &s, &r, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&s);
	fprintf(out, "%d [%03u] %llu.%09llu: %s:%s: %s\n", pid, cpu,
		(unsigned long long)(ts / 1000000000), (unsigned long long)(ts % 1000000000),
		ev->system, ev->name, s.buffer);
	trace_seq_destroy(&s);
	fflush(out);
	return 0;
}

static unsigned long counted;
static unsigned long long lost;

static void count_lost(void *ctx, uint32_t cpu, uint64_t n)
{
	lost += n;
}

static int count_event(void *ctx, uint32_t cpu, uint64_t ts, const void *rec, uint32_t len)
{
	counted++;
	return 0;
}

/* -v: comms as the engine reports them, on stderr */
static void show_comm(void *ctx, pid_t tid, const char *comm)
{
	fprintf(stderr, "comm %d %s\n", (int)tid, comm);
}

static void on_signal(int sig)
{
	if (session)
		pt_request_stop(session);
}

static int show_format(const char *spec)
{
	char want[128], buf[PT_FORMAT_MAX];
	for (unsigned id = 1; id < PT_ID_END; id++) {
		const char *system;
		int n = pt_format_text(id, &system, buf, sizeof(buf));
		if (n < 0)
			continue;
		char *nl = strchr(buf, '\n');
		snprintf(want, sizeof(want), "%s:%.*s", system, (int)(nl - buf - 6), buf + 6);
		if (strcmp(want, spec) == 0) {
			fputs(buf, stdout);
			return 0;
		}
	}
	fprintf(stderr, "no event %s\n", spec);
	return 1;
}

static int dump_formats(const char *dir)
{
	char buf[PT_FORMAT_MAX], path[4096];
	mkdir(dir, 0755);
	for (unsigned id = 1; id < PT_ID_END; id++) {
		const char *system;
		int n = pt_format_text(id, &system, buf, sizeof(buf));
		if (n < 0)
			continue;
		char *nl = strchr(buf, '\n');
		snprintf(path, sizeof(path), "%s/%s", dir, system);
		mkdir(path, 0755);
		snprintf(path, sizeof(path), "%s/%s/%.*s", dir, system, (int)(nl - buf - 6),
			 buf + 6);
		mkdir(path, 0755);
		strcat(path, "/format");
		FILE *f = fopen(path, "w");
		if (!f) {
			perror(path);
			return 1;
		}
		fwrite(buf, 1, (size_t)n, f);
		fclose(f);
	}
	return 0;
}

/* A uft-side time read just before and after a syscall, for the test that the
 * kernel's sys_enter of that call falls between them (one clock). */
static int clock_probe(void)
{
	pt_clock_init();
	uint64_t before = pt_clock_now();
	syscall(SYS_getpgid, 0x7ffffff0);
	uint64_t after = pt_clock_now();
	printf("before %llu after %llu\n", (unsigned long long)before, (unsigned long long)after);
	return 0;
}

int main(int argc, char **argv)
{
	struct pt_options o = {.categories = PT_ALL, .all_syscalls = true};
	pid_t pid = 0;
	const char *outfile = NULL;
	char err[256];
	int c;
	bool count_only = false;
	out = stdout;
	static const struct option longopts[] = {
	    {"backend", required_argument, NULL, 'b'},
	    {"kernel-usable", no_argument, NULL, 'K'},
	    {NULL, 0, NULL, 0},
	};
	while ((c = getopt_long(argc, argv, "+LSGs:c:u:tp:o:F:A:nvT", longopts, NULL)) != -1) {
		switch (c) {
		case 'b':
			if (strcmp(optarg, "ptrace") == 0) {
				o.backend = PT_BACKEND_PTRACE;
			} else if (strcmp(optarg, "kernel") == 0) {
				o.backend = PT_BACKEND_KERNEL;
			} else {
				fprintf(stderr, "unknown backend '%s'\n", optarg);
				return 2;
			}
			break;
		case 'K':
			if (!pt_kernel_usable(err, sizeof(err))) {
				printf("%s\n", err);
				return 77;
			}
			return 0;
		case 'T':
			return clock_probe();
		case 'L':
			o.categories &= ~(unsigned)PT_LIFECYCLE;
			break;
		case 'S':
			o.categories &= ~(unsigned)PT_SYSCALLS;
			break;
		case 'G':
			o.categories &= ~(unsigned)PT_SIGNALS;
			break;
		case 's':
			if (pt_sysset_parse(optarg, &o.syscalls, err, sizeof(err)) != 0) {
				fprintf(stderr, "unknown syscall or class '%s'\n", err);
				return 2;
			}
			o.all_syscalls = false;
			break;
		case 'c':
			o.comm_glob = optarg;
			break;
		case 'u':
			o.uid_glob = optarg;
			break;
		case 't':
			o.cpu_mode = PT_CPU_TRACER;
			break;
		case 'p':
			pid = atoi(optarg);
			break;
		case 'o':
			outfile = optarg;
			break;
		case 'F':
			return show_format(optarg);
		case 'A':
			return dump_formats(optarg);
		case 'n':
			count_only = true;
			break;
		case 'v':
			o.comm = show_comm;
			break;
		default:
			return 2;
		}
	}
	if (!pid && optind >= argc) {
		fprintf(stderr, "usage: proctrace_run [opts] -- CMD ARGS | -p PID\n");
		return 2;
	}
	if (outfile && !(out = fopen(outfile, "w"))) {
		perror(outfile);
		return 2;
	}
	struct tep_handle *tep = tep_alloc();
	if (!tep || pt_for_each_format(&o, add_format, tep) != 0) {
		tep_free(tep);
		return 2;
	}
	o.emit = count_only ? count_event : print_event;
	o.lost = count_lost;
	o.ctx = tep;
	/* no SA_RESTART: the wait is interrupted and the loop detaches */
	struct sigaction sa = {.sa_handler = on_signal};
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	session = pid ? pt_attach(&o, pid, err, sizeof(err))
		      : pt_launch(&o, argv + optind, err, sizeof(err));
	if (!session) {
		fprintf(stderr, "proctrace_run: %s\n", err);
		tep_free(tep);
		return 2;
	}
	if (pid) {
		/* the tests wait for this line before they act on the process */
		fprintf(stderr, "attached %d\n", (int)pid);
	}
	int st = pt_run(session);
	if (count_only)
		fprintf(out, "%lu events\n", counted);
	if (lost) /* the kernel's: on stderr, beside the records */
		fprintf(stderr, "lost %llu\n", lost);
	pt_free(session);
	tep_free(tep);
	if (out != stdout)
		fclose(out);
	if (st < 0)
		return 1;
	if (WIFSIGNALED(st))
		return 128 + WTERMSIG(st);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 0;
}
