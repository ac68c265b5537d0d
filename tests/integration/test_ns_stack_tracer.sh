#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# `uft ns`: in the namespace, /proc/sys/kernel/stack_tracer_enabled is the
# tree's stack_tracer_enabled file (made there when the kernel has no such
# sysctl), so writing the sysctl switches the traced program's stack tracer,
# whose stack_trace then holds the program's deepest call; outside, the
# kernel's sysctl and /proc/sys/kernel are as they were. Root only.
# Exit 0 pass, 77 skip, else fail.
source "$(dirname "$0")/lib/live.sh"
need_uft_ns
# The conformance program: kernel-named functions called every millisecond.
[ -x "$B/tests/kernel_names" ] || {
	echo "skip: build tests-bin first"
	exit 77
}
"$B/tests/kernel_names" &
pid=$!
pids+=("$pid")
wait_socket "$pid"
sysctl=/proc/sys/kernel/stack_tracer_enabled
kernel_before=$(cat $sysctl 2>/dev/null || echo none)
entries_before=$(ls /proc/sys/kernel | wc -l)
cd "$tmp" || exit 1
"$UFT" ns -p "$pid" -- sh -c '
	t=/sys/kernel/tracing
	cat '$sysctl' >off.txt || exit 11
	echo 1 >'$sysctl' || exit 12
	cat $t/stack_tracer_enabled >on.txt || exit 13
	sleep 0.5
	cat $t/stack_trace >stack.txt || exit 14
	echo 0 >'$sysctl' || exit 15
	cat $t/stack_tracer_enabled >off2.txt
	ls /proc/sys/kernel >entries.txt
' || fail "uft ns: the sysctl could not be used ($?)"
[ "$(cat off.txt)" = 0 ] || fail "the switch read $(cat off.txt) before, not 0"
[ "$(cat on.txt)" = 1 ] || fail "writing the sysctl did not reach the tree: $(cat on.txt)"
[ "$(cat off2.txt)" = 0 ] || fail "the switch read $(cat off2.txt) after 0, not 0"
grep_q '^        Depth    Size   Location    ([1-9][0-9]* entries)$' stack.txt ||
	fail "no stack_trace header with entries: $(cat stack.txt)"
grep_q '^  0) ' stack.txt || fail "no entry 0 in stack_trace: $(cat stack.txt)"
grep_q '   main+0x' stack.txt || fail "main is not in the chain: $(cat stack.txt)"
grep_q '^ftrace_enabled$' entries.txt || fail "the namespace lost the other sysctls"
[ "$(cat $sysctl 2>/dev/null || echo none)" = "$kernel_before" ] ||
	fail "the kernel's $sysctl changed"
[ "$(ls /proc/sys/kernel | wc -l)" = "$entries_before" ] || fail "/proc/sys/kernel changed outside"
echo ok
