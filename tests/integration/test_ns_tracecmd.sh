#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# `uft ns -p PID -- CMD`: the kernel's own tools, unchanged, on a traced
# program's tree mounted at /sys/kernel/tracing in a private mount namespace:
# trace-cmd start/show/stop/extract/report (extract reads trace_pipe_raw
# non-blocking, set with fcntl after open), and a libtracefs program. The
# mounts must not be seen outside, and must be gone with the command.
# Root only. Exit 0 pass, 77 skip, else fail.
source "$(dirname "$0")/lib/live.sh"
need_uft_ns
command -v trace-cmd >/dev/null || {
	echo "skip: no trace-cmd (make deps installs it)"
	exit 77
}
start_server
outside() { grep -c ' fuse.uft ' /proc/self/mounts; }
before=$(outside)

# 1. The namespace: the tree at both places, nothing of it outside, the
# command's exit status passed on.
"$UFT" ns -p "$pid" -- sh -c 'grep " fuse.uft " /proc/self/mounts; exit 7' >"$tmp/mounts"
rc=$?
[ $rc = 7 ] || fail "uft ns exited $rc, not the command's 7"
grep_q ' /sys/kernel/tracing fuse.uft ' "$tmp/mounts" || fail "no tree at /sys/kernel/tracing"
grep_q ' /sys/kernel/debug/tracing fuse.uft ' "$tmp/mounts" ||
	fail "no tree at /sys/kernel/debug/tracing"
[ "$(outside)" = "$before" ] || fail "a uft mount is left outside the namespace"
"$UFT" ns -p "$pid" -- /nonexistent/cmd 2>"$tmp/err"
[ $? = 127 ] || fail "a missing command: $(cat "$tmp/err")"
"$UFT" ns -p 999999 -- true 2>"$tmp/err" && fail "uft ns on no process succeeded"
# A SIGTERM to uft ns reaches the command, whose end ends uft ns.
"$UFT" ns -p "$pid" -- sleep 60 &
ns=$!
sleep 0.5
kill -TERM $ns
wait $ns
rc=$?
[ $rc = 143 ] || fail "uft ns after SIGTERM exited $rc, not the command's 128+15"
[ "$(outside)" = "$before" ] || fail "a uft mount is left outside after SIGTERM"

# 2. trace-cmd, as on the kernel.
cd "$tmp" || exit 1
"$UFT" ns -p "$pid" -- sh -c '
	trace-cmd start -e server:reply || exit 11
	sleep 0.3
	trace-cmd show >show.txt || exit 12
	trace-cmd stop || exit 13
	timeout 60 trace-cmd extract -o x.dat || exit 14
	trace-cmd report x.dat >report.txt || exit 15
	trace-cmd reset || exit 16' >"$tmp/tc.log" 2>&1
rc=$?
[ $rc = 0 ] || fail "trace-cmd step $rc failed: $(tail -5 "$tmp/tc.log")"
grep_q 'reply: n=[0-9]* path=' show.txt || fail "trace-cmd show: $(tail -3 show.txt)"
grep_q 'server-[0-9]* *\[[0-9]*\] *[0-9.]*: reply: *n=[0-9]* path=' report.txt ||
	fail "trace-cmd report: $(head -5 report.txt)"
echo "trace-cmd: $(grep -c ' reply: ' report.txt) events extracted"

# 3. A libtracefs program.
TR=$B/tests/tracefs_read
if [ -x "$TR" ]; then
	"$UFT" ns -p "$pid" -- "$TR" server reply >"$tmp/tr.out" 2>&1 || fail "tracefs_read: $(tail -3 "$tmp/tr.out")"
	grep_q '^enabled=1$' "$tmp/tr.out" || fail "tracefs_event_enable did not enable"
	grep_q 'reply: n=[0-9]* path=' "$tmp/tr.out" || fail "no events in tracefs_instance_file_read"
	grep_q '^raw_events=[1-9]' "$tmp/tr.out" || fail "tracefs_iterate_raw_events: $(tail -1 "$tmp/tr.out")"
	echo "libtracefs: ok"
else
	echo "skip: $TR not built (no libtracefs-dev)"
	exit 77
fi
kill -0 "$pid" || fail "the traced program died"
echo ok
