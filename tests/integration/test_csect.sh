#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The critical-section tracers through the control socket and uft record:
# irqsoff and preemptoff keep the 5 ms section of csect_prog's 2, 5 and 3 ms
# ones (generous bounds, never a timing), trace shows it in the latency
# format with the functions that started and ended it, snapshot is busy,
# bad writes get the kernel's errno, and `uft record -p irqsoff` keeps the
# max trace in trace-cmd's latency file. Exit 0 pass, 77 skip, else fail.
source "$(dirname "$0")/lib/file.sh"
PROG=$B/tests/csect_prog
need "$PROG"

export UFT_RUNDIR=$tmp/run
"$PROG" &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null; rm -rf "$tmp"' EXIT
for _ in $(seq 200); do
	[ -S "$UFT_RUNDIR/$pid.sock" ] && break
	sleep 0.05
done
ctl() { "$UFT" ctl -p $pid "$@"; }

ctl cat available_tracers | grep_q -w preemptirqsoff || fail "available_tracers: $(ctl cat available_tracers)"

# check TRACER START END: the max of a running tracer and its trace.
# The 5 ms section may be measured far longer on a loaded machine: the upper
# bound (10 s) catches a wrong unit, not a slow run.
check() {
	ctl write current_tracer "$1" || fail "current_tracer $1"
	local m=0
	for _ in $(seq 100); do
		m=$(ctl cat tracing_max_latency)
		[ "$m" -ge 5000 ] && break
		sleep 0.05
	done
	[ "$m" -ge 5000 ] && [ "$m" -lt 10000000 ] || fail "$1: tracing_max_latency $m"
	ctl cat trace >"$tmp/trace" || fail "$1: trace"
	grep_q -x "# $1 latency trace v1.1.5 on uft-.*" "$tmp/trace" || fail "$1 header: $(cat "$tmp/trace")"
	grep_q -E "^# latency: [0-9]+ us, #[0-9]+/[0-9]+, CPU#[0-9]+ \| \(M:preempt VP:0, KP:0, SP:0 HP:0 #P:[0-9]+\)$" \
		"$tmp/trace" || fail "$1 latency line: $(cat "$tmp/trace")"
	grep_q -E "^#    \| task: csect_prog-[0-9]+ \(uid:[0-9]+ nice:-?[0-9]+ policy:[0-9]+ rt_prio:[0-9]+\)$" \
		"$tmp/trace" || fail "$1 task line: $(cat "$tmp/trace")"
	# a sanitizer's interceptor of sigprocmask is the caller libuft sees
	local from="$2" to="$3"
	sanitizer_build && from="($2|__interceptor_[a-z_]+)" && to="($3|__interceptor_[a-z_]+)"
	grep_q -E "^#  => started at: $from$" "$tmp/trace" || fail "$1 started at: $(cat "$tmp/trace")"
	grep_q -E "^#  => ended at:   $to$" "$tmp/trace" || fail "$1 ended at: $(cat "$tmp/trace")"
	# the max buffer is the tracer's: snapshot is busy
	ctl cat snapshot 2>"$tmp/err" && fail "$1: snapshot read"
	grep_q 'Device or resource busy' "$tmp/err" || fail "$1 snapshot: $(cat "$tmp/err")"
}
check irqsoff csect_prog_block csect_prog_unblock
check preemptoff csect_prog_enter csect_prog_leave

ctl write tracing_max_latency -1 2>"$tmp/err" && fail "tracing_max_latency -1 accepted"
grep_q 'Invalid argument' "$tmp/err" || fail "tracing_max_latency -1: $(cat "$tmp/err")"
ctl write current_tracer bogus 2>"$tmp/err" && fail "current_tracer bogus accepted"
grep_q 'Invalid argument' "$tmp/err" || fail "current_tracer bogus: $(cat "$tmp/err")"
ctl write tracing_max_latency 0 || fail "reset"
m=$(ctl cat tracing_max_latency)
[ "$m" -lt 10000000 ] || fail "after the reset: $m"
ctl write current_tracer nop || fail "current_tracer nop"
ctl cat snapshot >/dev/null || fail "snapshot with nop"

# uft record -p: the file is trace-cmd's latency file holding the max trace
# (the 5 ms section), which uft report and trace-cmd report print alike.
"$UFT" record -p irqsoff -o "$tmp/x.dat" -- "$PROG" once >"$tmp/rec" 2>&1 || fail "record: $(cat "$tmp/rec")"
"$UFT" report -i "$tmp/x.dat" >"$tmp/rep" 2>&1 || fail "report: $(cat "$tmp/rep")"
head -3 "$tmp/rep" | tr '\n' '|' | grep_q -E '^cpus=[0-9]+\|# tracer: irqsoff\|#\|$' || fail "recorded header: $(head "$tmp/rep")"
grep_q -x "# irqsoff latency trace v1.1.5 on uft-.*" "$tmp/rep" || fail "recorded latency header: $(cat "$tmp/rep")"
lat=$(sed -n 's/^# latency: \([0-9]*\) us, .*/\1/p' "$tmp/rep")
[ -n "$lat" ] && [ "$lat" -ge 5000 ] && [ "$lat" -lt 10000000 ] || fail "recorded latency: $(cat "$tmp/rep")"
from=csect_prog_block to=csect_prog_unblock
sanitizer_build && from="(csect_prog_block|__interceptor_[a-z_]+)" && to="(csect_prog_unblock|__interceptor_[a-z_]+)"
grep_q -E "^#  => started at: $from$" "$tmp/rep" || fail "recorded started at: $(cat "$tmp/rep")"
grep_q -E "^#  => ended at:   $to$" "$tmp/rep" || fail "recorded ended at: $(cat "$tmp/rep")"
ends='sigprocmask <-csect_prog_block'
sanitizer_build && ends='sigprocmask <-(csect_prog_block|__interceptor_sigprocmask)'
grep_q -E "$ends" "$tmp/rep" || fail "recorded ends: $(cat "$tmp/rep")"
if command -v trace-cmd >/dev/null 2>&1; then
	trace-cmd report -i "$tmp/x.dat" >"$tmp/tc" 2>&1 || fail "trace-cmd report: $(cat "$tmp/tc")"
	cmp -s "$tmp/rep" "$tmp/tc" || fail "trace-cmd report differs: $(diff "$tmp/rep" "$tmp/tc")"
fi
exit 0
