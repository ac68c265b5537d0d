/* SPDX-License-Identifier: GPL-2.0-or-later */
/* /proc and process_vm_readv reads of a tracee. Each is a few microseconds;
 * the loop calls the stat read once per event (CPU) and the others only on
 * lifecycle and signal events. */
#define _GNU_SOURCE
#include "proctrace/proc_info.h"

#include <elf.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

int pt_read_text(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	size_t n = 0;
	ssize_t r;
	while (n + 1 < len && (r = read(fd, buf + n, len - 1 - n)) > 0)
		n += (size_t)r;
	close(fd);
	buf[n] = 0;
	return (int)n;
}

int pt_proc_stat(pid_t tid, int *fd, int *cpu, int *prio)
{
	char buf[1024];
	if (*fd < 0) {
		snprintf(buf, sizeof(buf), "/proc/%d/stat", (int)tid);
		*fd = open(buf, O_RDONLY | O_CLOEXEC);
		if (*fd < 0)
			return -1;
	}
	ssize_t n = pread(*fd, buf, sizeof(buf) - 1, 0);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	/* comm may hold spaces and parentheses: fields restart after the last ')'. */
	char *p = strrchr(buf, ')');
	if (!p)
		return -1;
	p++;
	/* p points before field 3; field k is the (k - 2)th token. */
	long v[40] = {0};
	int k = 3;
	char *tok, *save = NULL;
	for (tok = strtok_r(p, " ", &save); tok && k <= 39; tok = strtok_r(NULL, " ", &save), k++)
		v[k] = k == 3 ? 0 : strtol(tok, NULL, 10);
	if (k <= 39)
		return -1;
	*cpu = (int)v[39];
	*prio = (int)v[18] + 100;
	return 0;
}

void pt_proc_comm(pid_t tid, char comm[16])
{
	char path[64], buf[64];
	snprintf(path, sizeof(path), "/proc/%d/comm", (int)tid);
	comm[0] = 0;
	if (pt_read_text(path, buf, sizeof(buf)) <= 0)
		return;
	buf[strcspn(buf, "\n")] = 0;
	snprintf(comm, 16, "%.15s", buf);
}

static char *status_line(char *buf, const char *key)
{
	size_t klen = strlen(key);
	for (char *l = buf; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
		if (strncmp(l, key, klen) == 0)
			return l + klen;
	return NULL;
}

pid_t pt_proc_tgid(pid_t tid, unsigned *uid)
{
	char path[64], buf[4096];
	snprintf(path, sizeof(path), "/proc/%d/status", (int)tid);
	if (pt_read_text(path, buf, sizeof(buf)) <= 0)
		return -1;
	char *t = status_line(buf, "Tgid:"), *u = status_line(buf, "Uid:");
	if (uid)
		*uid = u ? (unsigned)strtoul(u, NULL, 10) : 0;
	return t ? (pid_t)strtol(t, NULL, 10) : -1;
}

void pt_proc_sigaction(pid_t tid, int sig, bool *ignored, bool *caught)
{
	char path[64], buf[4096];
	*ignored = *caught = false;
	snprintf(path, sizeof(path), "/proc/%d/status", (int)tid);
	if (pt_read_text(path, buf, sizeof(buf)) <= 0 || sig < 1 || sig > 64)
		return;
	char *ign = status_line(buf, "SigIgn:"), *cgt = status_line(buf, "SigCgt:");
	uint64_t bit = 1ull << (sig - 1);
	*ignored = ign && (strtoull(ign, NULL, 16) & bit);
	*caught = cgt && (strtoull(cgt, NULL, 16) & bit);
}

int pt_proc_read(pid_t tid, uint64_t addr, void *buf, size_t len)
{
	struct iovec local = {buf, len}, remote = {(void *)(uintptr_t)addr, len};
	return process_vm_readv(tid, &local, 1, &remote, 1, 0) == (ssize_t)len ? 0 : -1;
}

void pt_proc_execfn(pid_t tid, char *buf, size_t len)
{
	char path[64];
	uint64_t auxv[2 * 64];
	snprintf(path, sizeof(path), "/proc/%d/auxv", (int)tid);
	buf[0] = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd >= 0 ? read(fd, auxv, sizeof(auxv)) : -1;
	if (fd >= 0)
		close(fd);
	for (ssize_t i = 0; i + 1 < n / 8; i += 2) {
		if (auxv[i] != AT_EXECFN)
			continue;
		/* The string sits near the stack's top: read what the page allows. */
		size_t want = len - 1;
		while (want && pt_proc_read(tid, auxv[i + 1], buf, want) != 0)
			want /= 2;
		buf[want] = 0;
		if (want && memchr(buf, 0, want))
			return;
		break;
	}
	snprintf(path, sizeof(path), "/proc/%d/exe", (int)tid);
	ssize_t l = readlink(path, buf, len - 1);
	buf[l > 0 ? l : 0] = 0;
}
