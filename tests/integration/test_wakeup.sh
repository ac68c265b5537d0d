#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The wakeup tracers through the control socket and uft record: wakeup keeps
# the 5 ms wake of wake_prog's 2, 5 and 3 ms ones (generous bounds, never a
# timing), trace shows it in the latency format with the kernel's wakeup and
# switch lines, wakeup_rt ignores the SCHED_OTHER waiter, and `uft record -p
# wakeup` keeps the max trace in trace-cmd's latency file, which uft report
# and trace-cmd report print alike. Exit 0 pass, 77 skip, else fail.
source "$(dirname "$0")/lib/file.sh"
PROG=$B/tests/wake_prog
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

ctl cat available_tracers | grep_q -w wakeup_rt || fail "available_tracers: $(ctl cat available_tracers)"
ctl write current_tracer wakeup || fail "current_tracer wakeup"
m=0
for _ in $(seq 100); do
	m=$(ctl cat tracing_max_latency)
	[ "$m" -ge 5000 ] && break
	sleep 0.05
done
[ "$m" -ge 5000 ] && [ "$m" -lt 10000000 ] || fail "wakeup: tracing_max_latency $m"
ctl cat trace >"$tmp/trace" || fail "trace"
grep_q -x "# wakeup latency trace v1.1.5 on uft-.*" "$tmp/trace" || fail "header: $(cat "$tmp/trace")"
grep_q -E "^# latency: [0-9]+ us, #3/3, CPU#[0-9]+ \| \(M:preempt VP:0, KP:0, SP:0 HP:0 #P:[0-9]+\)$" \
	"$tmp/trace" || fail "latency line: $(cat "$tmp/trace")"
grep_q -E "^#    \| task: wake_waiter-[0-9]+ \(uid:[0-9]+ nice:-?[0-9]+ policy:0 rt_prio:0\)$" \
	"$tmp/trace" || fail "task line: $(cat "$tmp/trace")"
grep_q "started at" "$tmp/trace" && fail "wakeup has no section ends: $(cat "$tmp/trace")"
# the kernel's selftest's two checks, and the lines' whole form
grep_q '+ \[[[:digit:]]*\]' "$tmp/trace" || fail "no wakeup line: $(cat "$tmp/trace")"
grep_q '==> \[[[:digit:]]*\]' "$tmp/trace" || fail "no switch line: $(cat "$tmp/trace")"
grep_q -E "^wake_pro-$pid +[0-9]+\.\.\.\.\. +0us.: +$pid:120:R   \+ \[[0-9]{3}\] +[0-9]+:120:R wake_waiter$" \
	"$tmp/trace" || fail "wakeup line: $(cat "$tmp/trace")"
grep_q -E "^wake_wai-[0-9]+ +[0-9]+\.\.\.\.\. +[0-9]+us.: +([0-9]+):120:S ==> \[[0-9]{3}\] +[0-9]+:120:R wake_waiter$" \
	"$tmp/trace" || fail "switch line: $(cat "$tmp/trace")"
# the kernel's closing stack: the woken thread's, from its wait
grep -A1 -E "^wake_wai-[0-9]+ +[0-9]+\.{5} +[0-9]+us : <stack trace>$" "$tmp/trace" | tail -1 |
	grep_q -E '^ => [a-z_]+' || fail "stack trace: $(cat "$tmp/trace")"
ctl cat snapshot 2>"$tmp/err" && fail "snapshot read"
grep_q 'Device or resource busy' "$tmp/err" || fail "snapshot: $(cat "$tmp/err")"

# wakeup_rt: the waiter runs under SCHED_OTHER, nothing is kept.
ctl write current_tracer wakeup_rt || fail "current_tracer wakeup_rt"
sleep 0.3
[ "$(ctl cat tracing_max_latency)" = 0 ] || fail "wakeup_rt kept a SCHED_OTHER wake"
[ "$(ctl cat trace)" = "$(printf '# tracer: wakeup_rt\n#')" ] || fail "wakeup_rt trace: $(ctl cat trace)"
ctl write current_tracer nop || fail "current_tracer nop"

# uft record -p wakeup: the file is trace-cmd's latency file holding the max
# trace, which uft report and trace-cmd report print alike.
"$UFT" record -p wakeup -o "$tmp/x.dat" -- "$PROG" once >"$tmp/rec" 2>&1 || fail "record: $(cat "$tmp/rec")"
"$UFT" report -i "$tmp/x.dat" >"$tmp/rep" 2>&1 || fail "report: $(cat "$tmp/rep")"
head -3 "$tmp/rep" | tr '\n' '|' | grep_q -E '^cpus=[0-9]+\|# tracer: wakeup\|#\|$' || fail "recorded header: $(head "$tmp/rep")"
grep_q -x "# wakeup latency trace v1.1.5 on uft-.*" "$tmp/rep" || fail "recorded latency header: $(cat "$tmp/rep")"
grep_q -E "^#    \| task: wake_waiter-[0-9]+ \(uid:[0-9]+ nice:-?[0-9]+ policy:[0-9]+ rt_prio:[0-9]+\)$" "$tmp/rep" ||
	fail "recorded task line: $(cat "$tmp/rep")"
grep_q -E "^wake_wai-[0-9]+ +[0-9]\.{5} +[0-9]+us.: +[0-9]+:120:S ==> \[[0-9]{3}\] +[0-9]+:120:R wake_waiter$" "$tmp/rep" ||
	fail "recorded switch: $(cat "$tmp/rep")"
if command -v trace-cmd >/dev/null 2>&1; then
	trace-cmd report -i "$tmp/x.dat" >"$tmp/tc" 2>&1 || fail "trace-cmd report: $(cat "$tmp/tc")"
	cmp -s "$tmp/rep" "$tmp/tc" || fail "trace-cmd report differs: $(diff "$tmp/rep" "$tmp/tc")"
fi
exit 0
