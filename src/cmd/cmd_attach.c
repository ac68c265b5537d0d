/* SPDX-License-Identifier: GPL-2.0-or-later */
/* uft attach: loads libuft into a running dynamically linked process that
 * was started without it (docs/design/attach.md). Everything that can be
 * checked from /proc and the ELF files is checked before the process is
 * touched: a refusal (exit 2) leaves it as it was. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "attach/inject.h"
#include "attach/remote_sym.h"
#include "client/ctl_client.h"
#include "client/libuft_path.h"
#include "cmd/cli.h"
#include "cmd/commands.h"
#include "util/util.h"
#include "uft/version.h" /* generated from VERSION */

static const char usage[] =
    "usage: uft attach [-l LIBUFT] -p PID\n"
    "  Loads libuft into a running dynamically linked process started without it,\n"
    "  so that ctl, mount, show, start and the other live commands reach it. The\n"
    "  process is stopped only while the library loads.\n"
    "  -p, --pid PID      the process\n"
    "  -l, --lib LIBUFT   the library to load (default: libuft.so.MAJOR in ../lib\n"
    "                     beside this uft)\n"
    "  Exit status: 0 loaded (or libuft was there already), 1 loading failed,\n"
    "  2 refused (nothing done).\n";

/* When a slow dlopen is worth a word, how long the socket may take. */
#define CALL_SLOW_MS 10000
#define SOCKET_WAIT_MS 5000

struct attach_opts {
	const char *pid;
	const char *lib;
};

static int take(void *o, int opt, char *arg)
{
	struct attach_opts *a = o;
	if (opt == 'p')
		a->pid = arg;
	else
		a->lib = arg;
	return CLI_OK;
}

static int refuse(long pid, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int refuse(long pid, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "uft attach: process %ld: ", pid);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return CLI_USAGE;
}

/* A field of /proc/PID/status as a number (-1 when absent). */
static long status_field(long pid, const char *name)
{
	char path[64], line[256];
	snprintf(path, sizeof(path), "/proc/%ld/status", pid);
	FILE *f = fopen(path, "re");
	long v = -1;
	size_t n = strlen(name);
	while (f && fgets(line, sizeof(line), f))
		if (strncmp(line, name, n) == 0 && line[n] == ':') {
			v = strtol(line + n + 1, NULL, 10);
			break;
		}
	if (f)
		fclose(f);
	return v;
}

/* The state letter of /proc/PID/stat, 0 when gone. */
static char proc_state(long pid)
{
	char path[64], buf[512];
	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	FILE *f = fopen(path, "re");
	size_t n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;
	if (f)
		fclose(f);
	buf[n] = 0;
	char *p = strrchr(buf, ')'); /* the name may hold anything */
	return p && p[1] == ' ' ? p[2] : 0;
}

/* Why ptrace said EPERM: what the kernel requires here. */
static int refuse_eperm(long pid)
{
	long tracer = status_field(pid, "TracerPid");
	if (tracer > 0)
		return refuse(pid, "already traced by process %ld (a debugger?)", tracer);
	char path[64], line[256];
	snprintf(path, sizeof(path), "/proc/%ld/status", pid);
	FILE *f = fopen(path, "re");
	long uid = -1;
	while (f && fgets(line, sizeof(line), f))
		if (strncmp(line, "Uid:", 4) == 0)
			sscanf(line + 4, "%*d %ld", &uid); /* the effective one */
	if (f)
		fclose(f);
	if (geteuid() != 0 && uid >= 0 && uid != (long)geteuid())
		return refuse(pid,
			      "belongs to uid %ld: attaching needs the same user or "
			      "CAP_SYS_PTRACE (run uft attach as root)",
			      uid);
	int scope = -1;
	FILE *y = fopen("/proc/sys/kernel/yama/ptrace_scope", "re");
	if (y && fscanf(y, "%d", &scope) != 1)
		scope = -1;
	if (y)
		fclose(y);
	if (scope == 1)
		return refuse(pid, "not allowed: kernel.yama.ptrace_scope is 1 (only a parent may "
				   "trace its children): run uft attach with CAP_SYS_PTRACE "
				   "(as root), or set the sysctl to 0");
	if (scope == 2)
		return refuse(pid,
			      "not allowed: kernel.yama.ptrace_scope is 2 (only CAP_SYS_PTRACE "
			      "may trace): run uft attach as root");
	if (scope == 3)
		return refuse(pid, "not allowed: kernel.yama.ptrace_scope is 3 (no tracing at all "
				   "until reboot)");
	return refuse(pid, "not allowed to trace it (a setuid or non-dumpable program needs "
			   "CAP_SYS_PTRACE)");
}

/* The default library: the one beside this uft (libuft_path.h), which
 * must be a path: the target's loader would search its own. */
static int default_lib(char *buf, size_t cap)
{
	return strchr(uft_libuft_path(buf, cap), '/') ? 0 : -ENOENT;
}

/* Whether the process reaches the same file by that name (not another
 * mount namespace's). */
static bool same_file_there(long pid, const char *path)
{
	char there[PATH_MAX + 64];
	struct stat a, b;
	snprintf(there, sizeof(there), "/proc/%ld/root%s", pid, path);
	return stat(path, &a) == 0 && stat(there, &b) == 0 && a.st_dev == b.st_dev &&
	       a.st_ino == b.st_ino;
}

static void pause_ms(long ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
	nanosleep(&ts, NULL);
}

/* Waits for the process's control socket; its path into where. */
static bool control_socket(long pid, char *where, size_t cap, int wait_ms)
{
	for (int waited = 0;; waited += 20) {
		struct uft_ctl_conn *c;
		if (uft_ctl_connect_pid_path((pid_t)pid, &c, where, cap) == 0) {
			uft_ctl_close(c);
			return true;
		}
		if (waited >= wait_ms)
			return false;
		pause_ms(20);
	}
}

/* The executable ranges of the C library and the dynamic loader: a thread
 * stopped there outside a system call may hold a lock dlopen takes. */
static size_t lock_ranges(const struct remote_maps *m, struct inject_range *r, size_t cap)
{
	static const char *const libs[] = {"libc.so", "libc-", "ld-linux", "ld-musl", NULL};
	size_t n = 0;
	for (size_t i = 0; i < m->n && n < cap; i++) {
		const char *base = strrchr(m->v[i].path, '/');
		if (!m->v[i].exec || !base)
			continue;
		for (const char *const *p = libs; *p; p++)
			if (strncmp(base + 1, *p, strlen(*p)) == 0) {
				r[n++] = (struct inject_range){m->v[i].lo, m->v[i].hi};
				break;
			}
	}
	return n;
}

/* What the injection calls in the process: dlopen and dlerror, in its C
 * library (glibc 2.34 and later, musl) or in libdl (older glibc), and the
 * C library's syscall() wrapper, whose syscall instruction ends a call. */
struct loader {
	uint64_t dlopen, dlerror, syscall_fn;
};

static int find_loader(long pid, const struct remote_maps *m, struct loader *l)
{
	static const char *const libc[] = {"libc.so", "libc-", "ld-musl", NULL};
	static const char *const libdl[] = {"libdl.so", "libdl-", NULL};
	const char *const *where[] = {libc, libdl};
	const char *c = remote_maps_find(m, libc);
	if (!c || remote_sym_addr((pid_t)pid, m, c, "syscall", &l->syscall_fn) != 0)
		return -ENOENT;
	for (size_t i = 0; i < 2; i++) {
		const char *path = remote_maps_find(m, where[i]);
		if (path && remote_sym_addr((pid_t)pid, m, path, "dlopen", &l->dlopen) == 0 &&
		    remote_sym_addr((pid_t)pid, m, path, "dlerror", &l->dlerror) == 0)
			return 0;
	}
	return -ENOENT;
}

/* The first syscall instruction (0f 05) of the syscall() wrapper. */
static uint64_t find_syscall_insn(struct uft_inject *in, uint64_t fn)
{
	unsigned char code[128];
	if (uft_inject_read(in, fn, code, sizeof(code)) != 0)
		return 0;
	for (size_t i = 0; i + 1 < sizeof(code); i++)
		if (code[i] == 0x0f && code[i + 1] == 0x05)
			return fn + i;
	return 0;
}

static void say_slow(pid_t tid)
{
	fprintf(stderr,
		"uft attach: process %d: dlopen has not returned yet; waiting (only SIGKILL "
		"stops uft now, and would leave the process unable to go on)\n",
		(int)tid);
}

/* dlerror()'s text, read from the process. */
static void remote_dlerror(struct uft_inject *in, uint64_t dlerror_at, char *buf, size_t cap)
{
	uint64_t msg = 0;
	snprintf(buf, cap, "unknown error");
	if (uft_inject_call(in, dlerror_at, 0, 0, &msg, CALL_SLOW_MS, say_slow) != 0 || !msg)
		return;
	/* Byte by byte: the text may end just before an unmapped page. */
	size_t n = 0;
	while (n + 1 < cap && uft_inject_read(in, msg + n, buf + n, 1) == 0 && buf[n])
		n++;
	buf[n] = 0;
}

static const int ending_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGTSTP, SIGPIPE};

static int inject_locked(long pid, const char *lib, const struct loader *l,
			 const struct inject_range *avoid, size_t navoid);

/* The injection proper, once every check passed. */
static int inject(long pid, const struct remote_maps *m, const char *lib)
{
	struct loader l;
	if (find_loader(pid, m, &l) != 0)
		return refuse(pid, "no dlopen, dlerror or syscall found in its C library or libdl");
	struct inject_range avoid[16];
	size_t navoid = lock_ranges(m, avoid, ARRAY_SIZE(avoid));
	/* Between the stop and the detach the process needs uft to go back to
	 * its own code: the signals that end uft wait until then. */
	sigset_t block, old;
	sigemptyset(&block);
	for (int s = 0; s < (int)ARRAY_SIZE(ending_signals); s++)
		sigaddset(&block, ending_signals[s]);
	sigprocmask(SIG_BLOCK, &block, &old);
	int rc = inject_locked(pid, lib, &l, avoid, navoid);
	sigprocmask(SIG_SETMASK, &old, NULL);
	return rc;
}

static int inject_locked(long pid, const char *lib, const struct loader *l,
			 const struct inject_range *avoid, size_t navoid)
{
	struct uft_inject in;
	int rc = uft_inject_attach(&in, (pid_t)pid, (pid_t)pid, avoid, navoid);
	if (rc == -EPERM)
		return refuse_eperm(pid);
	if (rc == -ESRCH)
		return refuse(pid, "no such process");
	if (rc == -EBUSY) {
		fprintf(stderr,
			"uft attach: process %ld: not caught outside the C library (or "
			"stopped): nothing done, try again\n",
			pid);
		return 1;
	}
	if (rc) {
		fprintf(stderr, "uft attach: process %ld: cannot stop it: %s\n", pid,
			strerror(-rc));
		return 1;
	}
	uint64_t path_at, handle = 0;
	in.syscall_insn = find_syscall_insn(&in, l->syscall_fn);
	rc = in.syscall_insn ? uft_inject_put(&in, lib, strlen(lib) + 1, &path_at) : -ENOEXEC;
	if (!rc)
		rc = uft_inject_call(&in, l->dlopen, path_at, RTLD_NOW, &handle, CALL_SLOW_MS,
				     say_slow);
	char err[512] = "";
	if (!rc && !handle)
		remote_dlerror(&in, l->dlerror, err, sizeof(err));
	if (rc == -ESRCH) {
		fprintf(stderr, "uft attach: process %ld: it ended in dlopen\n", pid);
		free(in.fpu);
		return 1;
	}
	int drc = uft_inject_detach(&in);
	if (rc) {
		fprintf(stderr, "uft attach: process %ld: the call of dlopen failed: %s\n", pid,
			strerror(-rc));
		return 1;
	}
	if (drc)
		fprintf(stderr, "uft attach: process %ld: restoring its state: %s\n", pid,
			strerror(-drc));
	if (!handle) {
		fprintf(stderr, "uft attach: process %ld: dlopen failed: %s\n", pid, err);
		return 1;
	}
	return drc ? 1 : 0;
}

/* uft attach -p PID [-l LIB] (LIB NULL: the default): the exit status. */
static int attach_process(long pid, const char *lib_arg)
{
	char state = proc_state(pid);
	if (!state || state == 'Z' || state == 'X')
		return refuse(pid, "no such process");
	struct remote_maps m;
	int rc = remote_maps_read((pid_t)pid, &m);
	if (rc == -EACCES || rc == -EPERM)
		return refuse_eperm(pid);
	if (rc)
		return refuse(pid, "cannot read its mappings: %s", strerror(-rc));
	char where[256];
	static const char *const uft_lib[] = {"libuft.so", NULL};
	const char *had = remote_maps_find(&m, uft_lib);
	if (had || control_socket(pid, where, sizeof(where), 0)) {
		if (had && !control_socket(pid, where, sizeof(where), 0))
			snprintf(where, sizeof(where), "none (UFT_CTL=0 in its environment?)");
		printf("uft attach: process %ld already has libuft%s%s; control socket %s\n", pid,
		       had ? " " : "", had ? had : "", where);
		remote_maps_free(&m);
		return 0;
	}
	rc = CLI_USAGE;
	int elf_class;
	bool dynamic;
	char def[PATH_MAX], lib[PATH_MAX];
	static const char *const libc[] = {"libc.so", "libc-", "ld-musl", NULL};
	if (remote_exe_kind((pid_t)pid, &elf_class, &dynamic) != 0)
		refuse(pid, "cannot read its executable: %s", strerror(errno));
	else if (elf_class != ELFCLASS64)
		refuse(pid, "a 32-bit program: only 64-bit processes can load libuft");
	else if (!dynamic || !remote_maps_find(&m, libc))
		refuse(pid, "statically linked (no dynamic loader and C library to load "
			    "libuft with): link it with libuft instead");
	else if (!lib_arg && default_lib(def, sizeof(def)) != 0)
		refuse(pid, "cannot find this uft's libuft: give -l LIBUFT");
	else if (!realpath(lib_arg ? lib_arg : def, lib))
		refuse(pid, "%s: %s", lib_arg ? lib_arg : def, strerror(errno));
	else if (!same_file_there(pid, lib))
		refuse(pid, "%s is not the same file in its mount namespace", lib);
	else if ((remote_elf_needs(lib, "__asan_init") || remote_elf_needs(lib, "__tsan_init")) &&
		 !remote_maps_find(
		     &m, (const char *const[]){"libasan", "libtsan", "libclang_rt", NULL}))
		refuse(pid,
		       "%s is a sanitizer build: it loads only into a program built with "
		       "the same sanitizer",
		       lib);
	else if (proc_state(pid) == 'T' || proc_state(pid) == 't')
		refuse(pid, "stopped: continue it first (kill -CONT %ld)", pid);
	else
		rc = inject(pid, &m, lib);
	remote_maps_free(&m);
	if (rc)
		return rc;
	if (!control_socket(pid, where, sizeof(where), SOCKET_WAIT_MS)) {
		fprintf(stderr,
			"uft attach: process %ld: libuft loaded, but it serves no control socket "
			"(UFT_CTL=0 in its environment?)\n",
			pid);
		return 1;
	}
	printf("uft attach: process %ld: libuft loaded (%s); control socket %s\n", pid, lib, where);
	return 0;
}

int cmd_attach(int argc, char **argv)
{
	static const struct option longopts[] = {
	    {"pid", required_argument, NULL, 'p'},
	    {"lib", required_argument, NULL, 'l'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	const struct cli cli = {"uft attach", usage, "+p:l:h", longopts, take};
	struct attach_opts o = {0};
	int first;
	int rc = cli_parse(&cli, &o, argc, argv, &first);
	if (rc != CLI_OK)
		return rc;
	if (first != argc || !o.pid)
		return cli_usage_error(&cli);
	long pid;
	if (!cli_pid("uft attach", o.pid, &pid))
		return CLI_USAGE;
	return attach_process(pid, o.lib);
}
