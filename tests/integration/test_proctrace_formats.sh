#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The process tracer's format texts (src/proctrace/proc_events.c and the
# generated syscall table) equal the running kernel's format files, ID line
# aside: the sched, raw_syscalls and signal events, and a spread of syscalls
# (no arguments, six, strings, pointers to pointers, renamed ones such as
# newstat). Skips when the kernel's tracefs is not readable.
# Exit 0 pass, 77 skip, else fail.
source "$(dirname "$0")/lib/file.sh"
RUN=$B/tests/proctrace_run
need "$RUN"
T=${TRACEFS:-/sys/kernel/tracing}
[ -r "$T/events/syscalls/sys_enter_openat/format" ] || {
	echo "skip: the kernel's tracefs ($T) is not readable"
	exit 77
}
n=0
for ev in sched:sched_process_fork sched:sched_process_exec sched:sched_process_exit \
	raw_syscalls:sys_enter raw_syscalls:sys_exit signal:signal_generate signal:signal_deliver \
	syscalls:sys_enter_openat syscalls:sys_exit_openat syscalls:sys_enter_read \
	syscalls:sys_enter_getppid syscalls:sys_enter_mmap syscalls:sys_enter_execve \
	syscalls:sys_enter_newstat syscalls:sys_enter_clone3 syscalls:sys_enter_rt_sigaction \
	syscalls:sys_enter_exit_group syscalls:sys_exit_exit_group syscalls:sys_enter_sendfile64 \
	syscalls:sys_enter_umount syscalls:sys_enter_io_uring_setup syscalls:sys_exit_wait4; do
	f=$T/events/${ev%%:*}/${ev#*:}/format
	[ -r "$f" ] || continue
	"$RUN" -F "$ev" | grep -v '^ID: ' >"$tmp/ours" || fail "no format for $ev"
	grep -v '^ID: ' "$f" >"$tmp/kernel"
	diff -u "$tmp/kernel" "$tmp/ours" || fail "$ev differs from the kernel's"
	n=$((n + 1))
done
[ "$n" -ge 10 ] || {
	echo "skip: only $n of the events are in this kernel's tracefs"
	exit 77
}
# every syscall of the table with an event here: the same field lines
"$RUN" -A "$tmp/all" || fail "no formats written"
# one awk pass per side: each file under its event's name, ID lines left out
strip() { awk 'FNR == 1 {n = split(FILENAME, p, "/"); print "== " p[n - 1]} !/^ID: /' "$@"; }
evs=$(cd "$tmp/all/syscalls" && ls)
for ev in $evs; do
	[ -r "$T/events/syscalls/$ev/format" ] || fail "$ev is not an event of this kernel"
done
strip $(for ev in $evs; do echo "$T/events/syscalls/$ev/format"; done) >"$tmp/k.all"
strip $(for ev in $evs; do echo "$tmp/all/syscalls/$ev/format"; done) >"$tmp/o.all"
diff -u "$tmp/k.all" "$tmp/o.all" | head -40
bad=$(diff "$tmp/k.all" "$tmp/o.all" | grep -c '^[<>]')
[ "$bad" = 0 ] || fail "$bad lines of the syscall formats differ from the kernel's"
echo "proctrace formats: ok ($n named, $(echo $evs | wc -w) syscall events)"
